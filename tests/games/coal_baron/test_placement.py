"""Placing workers (rules 5): k + 1 workers, the canteen, the 1-franc bank, legality."""

from __future__ import annotations

import pytest
from coal_baron_helpers import give_order, leave_hidden, place, play, setup

from replay.engine import IllegalMove
from replay.games.coal_baron.moves import PlaceWorkers, StopMining


def test_empty_space_takes_one_worker() -> None:
    st = setup(2)
    place(st, "bank_6")
    assert st.pits["p1"].workers == 17 and st.pits["p1"].francs == 16
    assert st.occupants["bank_6"] == {"p1": 1}
    assert st.turn() == "p2"


def test_occupied_space_takes_one_more_and_sends_them_to_the_canteen() -> None:
    st = setup(2)
    place(st, "bank_6")           # p1: 1 worker
    place(st, "bank_6")           # p2: 2 workers, p1's one to the canteen
    assert st.occupants["bank_6"] == {"p2": 2} and st.pits["p1"].canteen == 1
    place(st, "bank_6")           # p1: 3 workers
    assert st.pits["p1"].workers == 18 - 1 - 3 and st.pits["p2"].canteen == 2
    place(st, "bank_4")           # p2
    place(st, "bank_4")           # p1 bumps p2
    place(st, "mining_6")         # p2
    play(st, StopMining())
    place(st, "bank_6")           # p1 bumps his own three workers: needs four
    assert st.occupants["bank_6"] == {"p1": 4} and st.pits["p1"].canteen == 1 + 3


def test_bank_one_always_takes_one_worker_and_bumps_nobody() -> None:
    st = setup(2)
    for _ in range(3):
        place(st, "bank_1")
        place(st, "bank_1")
    assert st.occupants["bank_1"] == {"p1": 3, "p2": 3}
    assert st.pits["p1"].canteen == 0 and st.pits["p1"].workers == 15 and st.pits["p1"].francs == 13


def test_not_enough_workers() -> None:
    st = setup(2)
    place(st, "bank_6")
    place(st, "bank_6")
    st.pits["p1"].workers = 2
    with pytest.raises(IllegalMove, match=r"p1 cannot place workers on bank_6: 2 worker\(s\) stand there, "
                                          r"so it takes 3 workers; p1 has 2 left"):
        place(st, "bank_6")
    assert PlaceWorkers(space="bank_6") not in st.legal_moves()


def test_covered_and_unknown_spaces() -> None:
    st = setup(2)
    with pytest.raises(IllegalMove, match="p1 cannot place workers on mining_8: it is covered by a lock tile "
                                          "in a 2-player game"):
        place(st, "mining_8")
    with pytest.raises(IllegalMove, match="no such work space"):
        place(st, "mine_99")


def test_delivery_needs_a_completed_order_of_its_type() -> None:
    st = setup(2)
    with pytest.raises(IllegalMove, match="p1 has no completed barrow order to deliver"):
        place(st, "delivery_1")
    give_order(st, "p1", "o11", ["yellow"], ["brown"], ["grey"])   # barrow, one space still empty
    assert PlaceWorkers(space="delivery_1") not in st.legal_moves()


def test_factory_space_needs_the_price() -> None:
    st = setup(2, tiles=["t22", "t7", "t13", "t19", "t25", "t31"])
    st.pits["p1"].francs = 7
    with pytest.raises(IllegalMove, match=r"p1 cannot place workers on factory_1: its tile t22 \(dark black, "
                                          r"2 minecarts, 8 francs\) costs 8 francs; p1 has 7"):
        place(st, "factory_1")


def test_a_player_without_workers_is_skipped_and_the_shift_ends_when_all_are_out() -> None:
    st = setup(3)
    st.pits["p2"].workers = 0
    place(st, "bank_4")
    assert st.turn() == "p3"
    st.pits["p1"].workers = 0
    place(st, "bank_4")          # p3's last-but-one worker... p3 goes on alone
    assert st.turn() == "p3"


def test_legal_moves_are_exactly_the_accepted_placements() -> None:
    st = setup(2)
    legal = {m.space for m in st.legal_moves() if isinstance(m, PlaceWorkers)}
    assert legal == {"factory_1", "factory_2", "factory_3", "factory_5", "factory_6", "factory_7",
                     "factory_draw", "mining_6", "mining_10", "bank_1", "bank_4", "bank_6",
                     "order_2", "order_3", "order_4", "order_draw"}
    for space in st.usable:
        trial = st.copy()
        try:
            place(trial, space)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == (space in legal), space


def test_a_player_with_nothing_else_to_do_still_places_on_the_bank_or_a_mine() -> None:
    st = setup(2)
    st.pits["p1"].francs = 0
    leave_hidden(st.tiles, [])
    leave_hidden(st.orders, [])
    st.order_spaces = dict.fromkeys(st.order_spaces)
    assert {m.space for m in st.legal_moves() if isinstance(m, PlaceWorkers)} == {
        "mining_6", "mining_10", "bank_1", "bank_4", "bank_6"}


def test_an_empty_deck_leaves_spaces_empty_and_closed() -> None:
    st = setup(2)
    leave_hidden(st.orders, [])
    place(st, "order_2")
    assert st.order_spaces["order_2"] is None and st.turn() == "p2"   # no refill, no chance event
    with pytest.raises(IllegalMove, match="p2 cannot place workers on order_2: no order card lies there"):
        place(st, "order_2")
