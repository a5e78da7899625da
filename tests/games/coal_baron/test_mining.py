"""Mining (rules 6.3): work steps, the cage, loading, unloading, storage, two-for-one."""

from __future__ import annotations

from typing import Any

import pytest
from coal_baron_helpers import fresh, give_order, place, play, setup

from replay.engine import IllegalMove
from replay.games.coal_baron.moves import (
    FillOrder,
    LoadCoal,
    MoveCage,
    PlaceWorkers,
    StopMining,
    StoreCoal,
    Substitute,
)
from replay.games.coal_baron.state import CoalBaronState


def mining(n: int = 2, space: str = "mining_10", ruleset: str = "official", **options: Any) -> CoalBaronState:
    st = setup(n, ruleset, **options)
    st.pits["p1"].outstanding.clear()
    place(st, space)
    return st


@pytest.mark.parametrize("space, steps", [("mining_4", 4), ("mining_6", 6), ("mining_8", 8), ("mining_10", 10)])
def test_work_steps_per_space(space: str, steps: int) -> None:
    st = setup(4)
    place(st, space)
    assert st.decision == "mining" and st.steps == steps
    for k in range(steps):
        play(st, MoveCage(level=1 + k % 2))
    assert st.decision == "place" and st.turn() == "p2"   # all steps used: the turn is over


def test_cage_moves_any_distance_for_one_step() -> None:
    st = mining()
    play(st, MoveCage(level=4))
    assert st.pits["p1"].cage_level == 4 and st.steps == 9
    with pytest.raises(IllegalMove, match="p1 cannot move the cage to level 4 \\(black\\): it is already there"):
        play(st, MoveCage(level=4))
    with pytest.raises(IllegalMove, match="the pit has levels 0 to 4"):
        play(st, MoveCage(level=5))


def test_load_only_from_the_cage_level_and_at_most_five() -> None:
    st = mining()
    pit = st.pits["p1"]
    with pytest.raises(IllegalMove, match="the cage is at the surface, where there are no minecarts"):
        play(st, LoadCoal(colour="yellow"))
    play(st, MoveCage(level=1))
    with pytest.raises(IllegalMove, match=r"no minecart on level 1 \(yellow\) holds a black cube"):
        play(st, LoadCoal(colour="black"))
    pit.carts[0] = 7
    pit.coal[0][0] = 7
    for _ in range(5):
        play(st, LoadCoal(colour="yellow"))
    assert pit.cage == [5, 0, 0, 0] and pit.coal[0][0] == 2 and pit.empty_carts(0) == 5
    with pytest.raises(IllegalMove, match="the cage holds 5 cubes, the most it can carry is 5"):
        play(st, LoadCoal(colour="yellow"))
    assert LoadCoal(colour="yellow") not in st.legal_moves()


def test_bgas_code_before_may_2024_let_the_cage_carry_six() -> None:
    """Option ``cage_capacity`` 6 (``bga`` only): the sixth cube loads, and departs from the rulebook."""
    st = mining(ruleset="bga", cage_capacity=6)
    pit = st.pits["p1"]
    play(st, MoveCage(level=1))
    pit.carts[0] = 7
    pit.coal[0][0] = 7
    for _ in range(5):
        play(st, LoadCoal(colour="yellow"))
    assert st.departures == [] and LoadCoal(colour="yellow") in st.legal_moves()
    play(st, LoadCoal(colour="yellow"))
    assert pit.cage == [6, 0, 0, 0] and [d["rule"] for d in st.departures] == ["cage_holds_six"]
    with pytest.raises(IllegalMove, match="the cage holds 6 cubes, the most it can carry is 6"):
        play(st, LoadCoal(colour="yellow"))


@pytest.mark.parametrize(("ruleset", "value"), [("official", 6), ("bga", 7), ("bga", True), ("bga", "6")])
def test_a_cage_of_six_is_bgas_old_code_only(ruleset: str, value: object) -> None:
    with pytest.raises(IllegalMove, match="cage_capacity must be 5 .* or 6 under the bga ruleset"):
        fresh(2, ruleset, cage_capacity=value)


def test_unload_at_the_surface_onto_orders_or_into_storage() -> None:
    st = mining()
    pit = st.pits["p1"]
    give_order(st, "p1", "o3")    # barrow Y Y
    play(st, MoveCage(level=1))
    play(st, LoadCoal(colour="yellow"))
    with pytest.raises(IllegalMove, match="cubes leave the cage only at the surface"):
        play(st, FillOrder(card="o3", colour="yellow", source="cage"))
    with pytest.raises(IllegalMove, match="the cage is at level 1 \\(yellow\\), not at the surface"):
        play(st, StoreCoal(colour="yellow"))
    pit.cage = [2, 0, 0, 0]
    play(st, MoveCage(level=0))
    play(st, FillOrder(card="o3", colour="yellow", source="cage"))
    play(st, StoreCoal(colour="yellow"))
    assert pit.storage == [1, 0, 0, 0] and pit.outstanding[0].spots == [[0], []]
    play(st, MoveCage(level=3))   # storage to an order works wherever the cage is
    play(st, FillOrder(card="o3", colour="yellow", source="storage"))
    assert pit.outstanding[0].completed() and st.steps == 10 - 7


def test_orders_take_only_their_colours() -> None:
    st = mining()
    give_order(st, "p1", "o2")    # barrow B
    st.pits["p1"].storage = [1, 0, 0, 0]
    with pytest.raises(IllegalMove, match="o2 has no empty yellow coal space"):
        play(st, FillOrder(card="o2", colour="yellow", source="storage"))
    with pytest.raises(IllegalMove, match="o9 is not among p1's outstanding orders"):
        play(st, FillOrder(card="o9", colour="yellow", source="storage"))
    with pytest.raises(IllegalMove, match="p1's storage holds 0 brown cube"):
        play(st, FillOrder(card="o2", colour="brown", source="storage"))


def test_two_cubes_of_any_colour_fill_one_space_for_two_steps() -> None:
    st = mining()
    pit = st.pits["p1"]
    give_order(st, "p1", "o9")    # barrow K K
    pit.storage = [1, 0, 0, 0]
    pit.cage = [0, 1, 0, 0]
    play(st, Substitute(card="o9", space="black", cage=("brown",), storage=("yellow",)))
    assert pit.outstanding[0].spots == [[1, 0], []] and st.steps == 8 and pit.cage == pit.storage == [0] * 4
    pit.storage = [2, 0, 0, 1]
    with pytest.raises(IllegalMove, match="list the storage cubes in colour order"):
        play(st, Substitute(card="o9", space="black", storage=("black", "yellow")))
    with pytest.raises(IllegalMove, match="exactly two cubes are needed, 1 given"):
        play(st, Substitute(card="o9", space="black", storage=("yellow",)))
    play(st, Substitute(card="o9", space="black", storage=("yellow", "yellow")))
    assert pit.outstanding[0].completed() and pit.outstanding[0].cubes() == 4
    # a substituted space counts as filled; the card still counts its printed colours
    place_delivery = PlaceWorkers(space="delivery_1")
    play(st, StopMining())
    place(st, "bank_1")   # p2
    play(st, place_delivery)
    assert pit.delivered_colour == [0, 0, 0, 2] and pit.orders_vp == 9


def test_substitution_needs_two_steps_and_the_cage_at_the_surface() -> None:
    st = mining(4, "mining_4")
    pit = st.pits["p1"]
    give_order(st, "p1", "o1")    # barrow Y
    pit.cage = [0, 2, 0, 0]
    play(st, MoveCage(level=2))
    with pytest.raises(IllegalMove, match="cubes leave the cage only at the surface"):
        play(st, Substitute(card="o1", space="yellow", cage=("brown", "brown")))
    play(st, MoveCage(level=1))
    play(st, MoveCage(level=0))
    assert st.steps == 1
    with pytest.raises(IllegalMove, match="it takes 2 work steps, p1 has 1 left"):
        play(st, Substitute(card="o1", space="yellow", cage=("brown", "brown")))
    assert not any(isinstance(m, Substitute) for m in st.legal_moves())


def test_stop_mining_loses_the_steps_left() -> None:
    st = mining()
    play(st, MoveCage(level=2))
    play(st, StopMining())
    assert st.turn() == "p2" and st.pits["p1"].cage_level == 2


def test_the_cage_stays_where_it_was_left() -> None:
    st = mining()
    play(st, MoveCage(level=3))
    play(st, StopMining())
    place(st, "bank_1")
    place(st, "mining_6")
    assert st.pits["p1"].cage_level == 3
    assert MoveCage(level=3) not in st.legal_moves()


def test_mining_legal_moves_are_all_accepted_and_complete() -> None:
    st = mining()
    pit = st.pits["p1"]
    give_order(st, "p1", "o11")   # barrow Y B G K
    give_order(st, "p1", "o8")    # barrow G G
    pit.cage = [1, 0, 2, 0]
    pit.storage = [0, 1, 0, 1]
    moves = list(st.legal_moves())
    subs = [m for m in moves if isinstance(m, Substitute)]
    # 4 kinds of cube: 6 pairs of two different kinds, plus (grey, grey), the only kind with two cubes;
    # for each of the 4 empty spaces of o11 and the one colour of o8
    assert len(subs) == 7 * 5
    fills = {(m.card, m.colour, m.source) for m in moves if isinstance(m, FillOrder)}
    assert fills == {("o11", "yellow", "cage"), ("o11", "brown", "storage"), ("o11", "grey", "cage"),
                     ("o11", "black", "storage"), ("o8", "grey", "cage")}
    for m in moves:
        trial = st.copy()
        play(trial, m)
