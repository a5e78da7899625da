"""Mine cart factory (rules 6.1, 6.2, 6.8): price, placement, coal, draw five, refills, shortage."""

from __future__ import annotations

from collections import Counter

import pytest
from coal_baron_helpers import draw, leave_hidden, place, play, setup

from replay.engine import ChanceRequest, IllegalMove
from replay.games.coal_baron.components import TILES
from replay.games.coal_baron.moves import ChooseCoal, KeepTile, ReturnTiles


def test_tile_data() -> None:
    assert len(TILES) == 48
    assert Counter(t.side for t in TILES.values()) == {"light": 24, "dark": 24}
    assert Counter(t.kind for t in TILES.values()) == {k: 3 for k in range(1, 17)}
    per_cart = {0: 1, 1: 2, 2: 3, 3: 4}
    for t in TILES.values():
        assert t.price == per_cart[t.colour] * t.carts
    assert sum(t.carts for t in TILES.values()) == 72


@pytest.mark.parametrize("tile, price, side, level", [
    ("t4", 2, "dark", 0), ("t10", 4, "dark", 1), ("t16", 6, "dark", 2), ("t22", 8, "dark", 3),
    ("t25", 1, "light", 0), ("t31", 2, "light", 1), ("t37", 3, "light", 2), ("t46", 8, "light", 3)])
def test_buying_a_tile(tile: str, price: int, side: str, level: int) -> None:
    st = setup(2, tiles=[tile, "t7", "t13", "t19", "t2", "t3"])
    place(st, "factory_1")
    pit = st.pits["p1"]
    carts = TILES[tile].carts
    assert pit.francs == 10 - price
    assert (pit.light if side == "light" else pit.dark)[level] == [tile]
    assert pit.carts[level] == 1 + carts and pit.coal[level][level] == 1 + carts
    # the emptied space is refilled at the end of the turn, from the hidden deck
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count) == ("tiles", 1)
    assert "t5" in dict(req.pool) and tile not in dict(req.pool) and len(req.pool) == 42
    draw(st, "tiles", ["t5"])
    assert st.factory["factory_1"] == "t5" and st.turn() == "p2"


def test_tiles_extend_outward_on_their_side() -> None:
    st = setup(2, tiles=["t1", "t2", "t25", "t19", "t20", "t21"])
    for refill, space in zip(("t40", "t41", "t42"), ("factory_1", "factory_2", "factory_3")):
        place(st, space)
        draw(st, "tiles", [refill])
        place(st, "bank_1")
    assert st.pits["p1"].dark[0] == ["t1", "t2"] and st.pits["p1"].light[0] == ["t25"]


def test_draw_five_keep_one_return_the_rest_on_top() -> None:
    st = setup(2)
    place(st, "factory_draw")
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count) == ("tiles", 5)
    draw(st, "tiles", ["t22", "t4", "t10", "t28", "t48"])
    st.pits["p1"].francs = 4
    assert [m.tile for m in st.legal_moves() if isinstance(m, KeepTile)] == [None, "t4", "t10", "t28"]
    with pytest.raises(IllegalMove, match=r"p1 cannot buy t22 \(dark black, 2 minecarts, 8 francs\): "
                                          "it costs 8 francs, p1 has 4"):
        play(st, KeepTile(tile="t22"))
    play(st, KeepTile(tile="t10"))
    assert st.pits["p1"].dark[1] == ["t10"] and st.pits["p1"].francs == 0
    assert st.decision == "return_tiles" and len(list(st.legal_moves())) == 2 * 24
    with pytest.raises(IllegalMove, match="p1 must put back exactly the tiles not taken"):
        play(st, ReturnTiles(to="top", tiles=("t22", "t4", "t28")))
    play(st, ReturnTiles(to="top", tiles=("t48", "t22", "t4", "t28")))
    assert st.tiles.top == ["t48", "t22", "t4", "t28"]
    assert st.turn() == "p2"   # no refill was needed: factory_draw holds no tile
    place(st, "factory_2")      # p2 buys t7; the refill is the known top tile: no chance event
    assert st.factory["factory_2"] == "t48" and st.tiles.top == ["t22", "t4", "t28"]
    assert st.turn() == "p1"


def test_draw_five_returned_to_the_bottom_come_after_the_hidden_tiles() -> None:
    st = setup(2)
    place(st, "factory_draw")
    draw(st, "tiles", ["t22", "t4", "t10", "t28", "t48"])
    play(st, KeepTile(tile=None))
    play(st, ReturnTiles(to="bottom", tiles=("t4", "t10", "t22", "t28", "t48")))
    assert st.tiles.bottom == ["t4", "t10", "t22", "t28", "t48"] and st.tiles.hidden == 48 - 6 - 5
    # empty the hidden part: the next draw takes what is left hidden, then the bottom in order
    leave_hidden(st.tiles, ["t40"])
    place(st, "factory_draw")   # p2
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.count == 1 and req.pool == (("t40", 1),)
    draw(st, "tiles", ["t40"])
    assert st.revealed == ["t40", "t4", "t10", "t22", "t28"] and st.tiles.bottom == ["t48"]


def test_draw_space_illegal_when_the_deck_is_empty() -> None:
    st = setup(2)
    leave_hidden(st.tiles, [])
    with pytest.raises(IllegalMove, match="the tunnel-tile deck is empty"):
        place(st, "factory_draw")


def test_coal_shortage_lets_the_player_choose_colours_official() -> None:
    st = setup(2, tiles=["t4", "t7", "t13", "t19", "t2", "t3"])
    st.supply = [1, 0, 3, 0]
    place(st, "factory_1")      # 2 yellow carts, only 1 yellow cube in the supply
    assert st.decision == "choose_coal" and st.turn() == "p1"
    assert [m.colour for m in st.legal_moves() if isinstance(m, ChooseCoal)] == ["grey"]
    with pytest.raises(IllegalMove, match="the supply has no brown cube left"):
        play(st, ChooseCoal(colour="brown"))
    play(st, ChooseCoal(colour="grey"))
    assert st.pits["p1"].coal[0] == [2, 0, 1, 0] and st.supply == [0, 0, 2, 0]
    assert isinstance(st.turn(), ChanceRequest)   # the turn goes on: refill


def test_bga_supply_does_not_run_short() -> None:
    st = setup(2, "bga", tiles=["t4", "t7", "t13", "t19", "t2", "t3"])
    place(st, "factory_1")
    assert st.decision is None and st.supply[0] == 30
    assert st.departures == []   # the physical supply (14 yellow) would have filled both carts too


def test_bga_supply_fills_carts_the_physical_supply_could_not_a_departure() -> None:
    st = setup(2, "bga", tiles=["t4", "t7", "t13", "t19", "t2", "t3"])
    st.supply[0] = 19   # the physical supply would hold 19 - (32 - 14) = 1 yellow cube
    place(st, "factory_1")   # 2 yellow carts
    assert st.decision is None and st.supply[0] == 17
    assert [d["rule"] for d in st.departures] == ["coal_supply"]
    assert "fills 2" in st.departures[0]["happened"] and "choose a colour for 1" in st.departures[0]["happened"]
