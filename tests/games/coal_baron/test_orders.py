"""Orders (rules 6.4, 6.6, 6.7): delivery, order spaces, the draw-five order space."""

from __future__ import annotations

import pytest
from coal_baron_helpers import draw, give_order, leave_hidden, place, play, setup

from replay.engine import ChanceRequest, IllegalMove
from replay.games.coal_baron.components import ORDERS, TRANSPORTS
from replay.games.coal_baron.moves import KeepOrder, ReturnOrders


def test_order_data() -> None:
    assert len(ORDERS) == 44
    assert sum(o.vp for o in ORDERS.values()) == 256
    for t in range(4):
        cards = [o for o in ORDERS.values() if o.transport == t]
        assert len(cards) == 11 and sum(len(o.coal) for o in cards) == 22, TRANSPORTS[t]
    assert [sum(o.coal.count(c) for o in ORDERS.values()) for c in range(4)] == [22, 22, 22, 22]


def test_delivery_delivers_every_completed_order_of_its_type() -> None:
    st = setup(2)
    pit = st.pits["p1"]
    pit.outstanding.clear()
    give_order(st, "p1", "o9", ["black"], ["black"])        # barrow 9 VP, complete
    give_order(st, "p1", "o1", ["yellow"])                  # barrow 2 VP, complete
    give_order(st, "p1", "o3", ["yellow"])                  # barrow, one space empty
    give_order(st, "p1", "o12", ["yellow"])                 # motorcar, complete
    supply = st.supply[:]
    place(st, "delivery_1")
    assert pit.delivered == ["o9", "o1"] and pit.orders_vp == 11
    assert [o.card for o in pit.outstanding] == ["o3", "o12"]
    assert st.supply == [supply[0] + 1, supply[1], supply[2], supply[3] + 2]
    assert pit.delivered_colour == [1, 0, 0, 2] and pit.delivered_transport == [3, 0, 0, 0]
    assert st.score()["p1"]["orders"] == 11


def test_taking_an_order_card_and_the_refill() -> None:
    st = setup(3)
    place(st, "order_1")
    assert st.pits["p1"].outstanding[-1].card == "o38" and st.order_spaces["order_1"] is None
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count) == ("orders", 1)
    draw(st, "orders", ["o20"])
    assert st.order_spaces["order_1"] == "o20"
    place(st, "order_1")  # p2 must now use 2 workers: p1's worker goes to the canteen
    assert st.pits["p2"].workers == 13 and st.pits["p1"].canteen == 1


def test_draw_five_orders() -> None:
    st = setup(2)
    place(st, "order_draw")
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count) == ("orders", 5)
    draw(st, "orders", ["o20", "o21", "o22", "o23", "o24"])
    assert len(list(st.legal_moves())) == 6
    with pytest.raises(IllegalMove, match="p1 cannot keep o30: the revealed order cards are o20, o21"):
        play(st, KeepOrder(card="o30"))
    play(st, KeepOrder(card="o22"))
    assert st.pits["p1"].outstanding[-1].card == "o22"
    with pytest.raises(IllegalMove, match="they go on the top or at the bottom"):
        play(st, ReturnOrders(to="middle", cards=("o20", "o21", "o23", "o24")))
    play(st, ReturnOrders(to="bottom", cards=("o24", "o20", "o21", "o23")))
    assert st.orders.bottom == ["o24", "o20", "o21", "o23"] and st.turn() == "p2"


def test_keeping_nothing_returns_all_five_and_an_empty_deck_closes_the_space() -> None:
    st = setup(2)
    place(st, "order_draw")
    draw(st, "orders", ["o20", "o21", "o22", "o23", "o24"])
    play(st, KeepOrder(card=None))
    assert len(list(st.legal_moves())) == 2 * 120
    play(st, ReturnOrders(to="top", cards=("o20", "o21", "o22", "o23", "o24")))
    assert st.orders.top == ["o20", "o21", "o22", "o23", "o24"]
    st.orders.top = []
    leave_hidden(st.orders, [])
    with pytest.raises(IllegalMove, match="the order deck is empty"):
        place(st, "order_draw")


def test_draw_five_with_fewer_cards_left_reveals_what_is_left() -> None:
    st = setup(2)
    leave_hidden(st.orders, ["o30", "o31"])
    place(st, "order_draw")
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.count == 2
    draw(st, "orders", ["o31", "o30"])
    assert st.revealed == ["o31", "o30"]
