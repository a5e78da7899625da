"""Shift scoring (rules 7), the next start player (8), final scoring and the tiebreak (9)."""

from __future__ import annotations

import pytest
from coal_baron_helpers import fresh, give_order, place, setup

from replay.engine import OVER, IllegalMove
from replay.games.coal_baron.components import MAJORITIES
from replay.games.coal_baron.scoring import CATEGORIES, rank_category
from replay.games.coal_baron.state import CoalBaronState

# ---- one category, every tie pattern, both rulesets ---------------------------------------

CASES = [
    # values, official placings, bga placings (rank per player; None = nothing)
    ([5, 3, 1], [1, 2, None], [1, 2, None]),
    ([5, 5, 3], [1, 1, 2], [1, 1, None]),           # tie for first: official still gives second
    ([5, 3, 3], [1, 2, 2], [1, 2, 2]),              # tie for second: both take the full second points
    ([5, 0, 0], [1, None, None], [1, None, None]),  # nothing scores nothing
    ([0, 0, 0], [None, None, None], [None, None, None]),
    ([2, 2, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1]),
    ([4, 4, 4, 1], [1, 1, 1, 2], [1, 1, 1, None]),
    ([6, 3, 3, 0], [1, 2, 2, None], [1, 2, 2, None]),
    ([0, 2, 7, 2], [None, 2, 1, 2], [None, 2, 1, 2]),
    ([1, 1, 0, 0], [1, 1, None, None], [1, 1, None, None]),
    # two players: only first place, ever
    ([5, 3], [1, None], [1, None]),
    ([4, 4], [1, 1], [1, 1]),
    ([0, 3], [None, 1], [None, 1]),
]


@pytest.mark.parametrize("values, official, bga", CASES)
@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_rank_category_tie_patterns(values: list[int], official: list[int | None], bga: list[int | None],
                                    ruleset: str) -> None:
    players = [f"p{i + 1}" for i in range(len(values))]
    out = rank_category(dict(zip(players, values)), 9, 4, ruleset)
    expected = official if ruleset == "official" else bga
    assert [out[p][0] for p in players] == expected
    assert [out[p][1] for p in players] == [{1: 9, 2: 4, None: 0}[r] for r in expected]


OLD_BGA = [  # BGA's code before 7 July 2024: second place also after a tie of two for first
    ([5, 5, 3], [1, 1, 2]),
    ([5, 5, 3, 3], [1, 1, 2, 2]),
    ([4, 4, 4, 1], [1, 1, 1, None]),   # a tie of three: still none
    ([5, 3, 1], [1, 2, None]),
]


@pytest.mark.parametrize("values, placings", OLD_BGA)
def test_rank_category_of_bgas_code_before_july_2024(values: list[int], placings: list[int | None]) -> None:
    players = [f"p{i + 1}" for i in range(len(values))]
    out = rank_category(dict(zip(players, values)), 9, 4, "bga", two_way_tie=True)
    assert [out[p][0] for p in players] == placings


@pytest.mark.parametrize(("ruleset", "value"), [("official", True), ("bga", 1), ("bga", "yes")])
def test_the_two_way_tie_option_is_bgas_old_code_only(ruleset: str, value: object) -> None:
    with pytest.raises(IllegalMove, match="second_place_after_two_way_tie must be true or false"):
        fresh(3, ruleset, second_place_after_two_way_tie=value)


def test_points_tables() -> None:
    table = {m.category: (m.from_shift, m.first, m.second) for m in MAJORITIES}
    assert table == {
        "coal_yellow": (1, 2, 1), "coal_brown": (1, 3, 1), "coal_grey": (1, 4, 2), "coal_black": (1, 5, 2),
        "transport_barrow": (2, 6, 3), "transport_carriage": (2, 7, 3), "transport_motorcar": (2, 8, 4),
        "transport_engine": (2, 9, 4),
        "carts_yellow": (3, 10, 5), "carts_brown": (3, 11, 5), "carts_grey": (3, 12, 6), "carts_black": (3, 13, 6),
    }


# ---- whole shifts -------------------------------------------------------------------------


def end_shift(st: CoalBaronState, space: str = "bank_1") -> None:
    """Leave only the player to move with one worker and let them place it: the shift ends."""
    who = st.turn()
    assert isinstance(who, str)
    for p, pit in st.pits.items():
        pit.workers = 1 if p == who else 0
    place(st, space)


def test_shift_one_scores_coal_colours_with_milestones() -> None:
    st = setup(3)
    st.pits["p1"].delivered_colour = [2, 0, 1, 3]
    st.pits["p2"].delivered_colour = [2, 1, 0, 1]
    st.pits["p3"].delivered_colour = [1, 0, 0, 3]
    st.seq = 99
    end_shift(st)
    ms = [m for m in st.milestones if m["type"] == "shift_ranking"]
    assert len(ms) == 4 * 3
    by = {(m["category"], m["player_id"]): (m["value"], m["rank"], m["points"]) for m in ms}
    assert by[("coal_yellow", "p1")] == (2, 1, 2) and by[("coal_yellow", "p2")] == (2, 1, 2)
    assert by[("coal_yellow", "p3")] == (1, 2, 1)          # official: second after a tie for first
    assert by[("coal_brown", "p2")] == (1, 1, 3) and by[("coal_brown", "p1")] == (0, None, 0)
    assert by[("coal_grey", "p1")] == (1, 1, 4)
    assert by[("coal_black", "p1")] == (3, 1, 5) and by[("coal_black", "p3")] == (3, 1, 5)
    assert by[("coal_black", "p2")] == (1, 2, 2)
    assert ms[0] == {"type": "shift_ranking", "seq": 99, "shift": 1, "category": "coal_yellow",
                     "player_id": "p1", "value": 2, "rank": 1, "points": 2}
    assert {p: st.score()[p]["shift1"] for p in st.players} == {"p1": 2 + 4 + 5, "p2": 2 + 3 + 2, "p3": 1 + 5}
    assert st.shift == 2 and all(p.workers == 15 and p.canteen == 0 for p in st.pits.values())


def test_shift_one_under_bga_gives_no_second_after_a_tie() -> None:
    st = setup(3, "bga")
    st.pits["p1"].delivered_colour = [2, 0, 0, 0]
    st.pits["p2"].delivered_colour = [2, 0, 0, 0]
    st.pits["p3"].delivered_colour = [1, 0, 0, 0]
    end_shift(st)
    assert {p: st.score()[p]["shift1"] for p in st.players} == {"p1": 2, "p2": 2, "p3": 0}


def test_a_tie_for_first_under_bga_records_the_second_place_departure_where_the_rulebook_awards_it() -> None:
    st = setup(3, "bga")
    st.pits["p1"].delivered_colour = [2, 0, 0, 0]
    st.pits["p2"].delivered_colour = [2, 0, 0, 0]
    st.pits["p3"].delivered_colour = [1, 3, 0, 0]   # brown: p3 alone first, the rule changes nothing
    st.seq = 57
    end_shift(st)
    assert [(d["seq"], d["rule"]) for d in st.departures] == [(57, "second_place_after_tie")]
    assert "coal_yellow" in st.departures[0]["happened"] and "p3" in st.departures[0]["happened"]


@pytest.mark.parametrize("ruleset, yellow", [("official", [2, 2, 1]), ("bga", [2, 2, 0]), ("bga", [2, 1, 1])])
def test_no_second_place_departure_where_both_rules_agree(ruleset: str, yellow: list[int]) -> None:
    """Official rules depart nowhere; a tie with nobody below, or no tie at all, changes nothing."""
    st = setup(3, ruleset)
    for p, v in zip(st.players, yellow):
        st.pits[p].delivered_colour = [v, 0, 0, 0]
    end_shift(st)
    assert st.departures == []


def test_two_player_rule_only_first_place() -> None:
    st = setup(2)
    st.pits["p1"].delivered_colour = [3, 0, 0, 0]
    st.pits["p2"].delivered_colour = [1, 0, 0, 0]
    end_shift(st)
    assert (st.score()["p1"]["shift1"], st.score()["p2"]["shift1"]) == (2, 0)


def test_shift_two_adds_transport_types_counting_coal_spaces() -> None:
    st = setup(3)
    end_shift(st)
    # coal spaces on delivered cards per transport type (barrow, carriage, motorcar, engine)
    st.pits["p1"].delivered_transport = [3, 0, 0, 0]
    st.pits["p2"].delivered_transport = [2, 0, 0, 1]
    st.pits["p3"].delivered_transport = [1, 0, 0, 1]
    end_shift(st)
    ms = [m for m in st.milestones if m["shift"] == 2]
    assert len(ms) == 8 * 3
    assert {p: st.score()[p]["shift2"] for p in st.players} == {"p1": 6, "p2": 3 + 9, "p3": 9}


def test_shift_three_scores_empty_minecarts_including_the_printed_ones() -> None:
    st = setup(3)
    end_shift(st)
    end_shift(st)
    p1, p2, p3 = (st.pits[p] for p in ("p1", "p2", "p3"))
    p1.coal[0] = [0, 0, 0, 0]                       # mined the printed yellow cart: 1 empty
    p2.carts[0], p2.coal[0] = 3, [1, 0, 0, 0]       # two tiles' carts empty: 2 empty
    p3.carts[3], p3.coal[3] = 2, [0, 0, 0, 0]       # black: 2 empty
    end_shift(st)
    ms = {(m["category"], m["player_id"]): (m["value"], m["rank"], m["points"])
          for m in st.milestones if m["shift"] == 3}
    assert len(ms) == 12 * 3
    assert ms[("carts_yellow", "p2")] == (2, 1, 10) and ms[("carts_yellow", "p1")] == (1, 2, 5)
    assert ms[("carts_black", "p3")] == (2, 1, 13) and ms[("carts_black", "p1")] == (0, None, 0)
    assert st.turn() is OVER


# ---- next start player ------------------------------------------------------------------------


@pytest.mark.parametrize("factory, expected", [
    ({"p1": 0, "p2": 0, "p3": 0, "p4": 0}, "p2"),  # nobody in the factory: next clockwise
    ({"p1": 3, "p2": 1, "p3": 0, "p4": 2}, "p1"),  # the current start player keeps it with a majority
    ({"p1": 2, "p2": 0, "p3": 2, "p4": 2}, "p3"),  # a tie: closest clockwise after the start player
    ({"p1": 0, "p2": 0, "p3": 1, "p4": 1}, "p3"),
    ({"p1": 2, "p2": 0, "p3": 0, "p4": 2}, "p4"),  # the start player cannot keep it through a tie
])
def test_next_start_player(factory: dict[str, int], expected: str) -> None:
    st = setup(4)
    spaces = ["factory_1", "factory_2", "factory_draw", "factory_8"]
    for (p, n), space in zip(factory.items(), spaces):
        if n:
            st.occupants[space] = {p: n}
    st.occupants["mining_10"] = {"p2": 5}          # other spaces do not count
    for p in st.players:
        st.pits[p].canteen = 4                      # nor does the canteen
    end_shift(st, "bank_3")
    assert st.players[st.start_player] == expected and st.turn() == expected


# ---- final scoring -----------------------------------------------------------------------------


def finish(st: CoalBaronState) -> None:
    end_shift(st)
    end_shift(st)
    end_shift(st)
    assert st.turn() is OVER


def test_final_scoring_items() -> None:
    st = setup(2)
    end_shift(st)
    end_shift(st)
    p1 = st.pits["p1"]
    p1.francs = 13 if st.turn() == "p1" else 14     # the last placement (bank_1) may bring 1 franc
    p1.outstanding.clear()
    give_order(st, "p1", "o9", ["black"], ["yellow", "brown"])   # 3 cubes on an outstanding order
    give_order(st, "p1", "o1", ["yellow"])                       # completed but not delivered
    p1.cage, p1.storage = [1, 0, 0, 0], [0, 0, 1, 1]
    # 4 printed-cart cubes + 3 in cage and storage + 4 on orders = 11 cubes -> 3 VP
    p1.light = [["t25"], [], ["t37"], []]
    p1.dark = [["t1"], ["t7"], [], []]
    end_shift(st)
    s = st.score()["p1"]
    assert p1.francs == 14 and s["end_francs"] == 2
    assert s["end_coal"] == 3
    assert s["end_unfulfilled"] == -2
    assert s["end_pit_balance"] == -2 * (0 + 1 + 1 + 0)   # official: level by level
    assert list(s) == list(CATEGORIES) and sum(s.values()) == st.totals()["p1"]


def test_pit_balance_bga_totals_the_whole_pit() -> None:
    st = setup(2, "bga")
    end_shift(st)
    end_shift(st)
    st.pits["p1"].light = [["t25"], [], ["t37"], []]
    st.pits["p1"].dark = [["t1"], ["t7"], [], []]
    st.pits["p2"].light = [["t25", "t26"], [], [], []]
    end_shift(st)
    assert st.score()["p1"]["end_pit_balance"] == 0
    assert st.score()["p2"]["end_pit_balance"] == -4
    # p1's pit is level overall but not level by level: the rulebook gives -4; p2's -4 agrees
    assert [(d["rule"], d["happened"].split("'")[0]) for d in st.departures] == [("pit_balance", "p1")]


def test_pit_balance_under_the_rulebook_departs_nowhere() -> None:
    st = setup(2)
    end_shift(st)
    end_shift(st)
    st.pits["p1"].light = [["t25"], [], ["t37"], []]
    st.pits["p1"].dark = [["t1"], ["t7"], [], []]
    end_shift(st)
    assert st.score()["p1"]["end_pit_balance"] == -4 and st.departures == []


def test_tiebreak_is_the_francs_left_then_shared() -> None:
    st = setup(4)
    finish(st)
    for p, (vp, francs) in zip(st.players, [(20, 13), (20, 14), (20, 9), (21, 0)]):
        pit = st.pits[p]
        pit.orders_vp, pit.shift_points, pit.end_points, pit.francs = vp, [0, 0, 0], [0, 0, 0, 0], francs
    st.invalidate_score()
    # p4 has the most VP; p2 and p3 both keep 4 francs after conversion and share second place
    assert st.ranking() == {"p4": 1, "p2": 2, "p3": 2, "p1": 4}


def test_score_categories_always_present_and_summing() -> None:
    st = setup(4)
    for p in st.players:
        assert list(st.score()[p]) == list(CATEGORIES)
        assert all(v == 0 for v in st.score()[p].values())
