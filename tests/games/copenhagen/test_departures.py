"""BGA's departures from the rulebook, recorded where they change what happens (``ruleset: bga``)."""

from __future__ import annotations

import pytest
from copenhagen_helpers import build, new_game, play, put, set_hand

from replay.engine import OVER
from replay.games.copenhagen.steps import CoatOfArms, goto

ZERO = {"rows": 0, "rows_all_windows": 0, "columns": 0, "columns_all_windows": 0}


@pytest.mark.parametrize("used, ruleset, departs", [(False, "bga", True), (True, "bga", False),
                                                    (True, "official", False)])
def test_a_refresh_with_nothing_used(used: bool, ruleset: str, departs: bool) -> None:
    s = new_game(ruleset=ruleset)
    s.seats["p1"].gain_ability("additional_card")
    if used:
        s.seats["p1"].use("additional_card")
    s.pending_arms, s.seq = 1, 31
    goto(s, CoatOfArms("p1"))
    play(s, "p1", {"type": "refresh_abilities"})
    assert [(d["seq"], d["rule"]) for d in s.departures] == ([(31, "refresh_with_nothing_used")] if departs else [])


@pytest.mark.parametrize("pay, frm, departs", [({"red": 2}, "blue", True), ({"red": 2}, "red", True),
                                               ({"red": 1, "blue": 1}, "blue", False)])
def test_a_change_of_colours_spent_without_changing_a_card(pay: dict[str, int], frm: str, departs: bool) -> None:
    s = new_game(ruleset="bga")
    s.seats["p1"].gain_ability("change_of_colors")
    set_hand(s, "p1", red=2, blue=1)
    play(s, "p1", build("red", 2, 0, 0, pay, change_from=frm))
    assert s.seats["p1"].abilities["change_of_colors"] is True
    assert [d["rule"] for d in s.departures] == (["change_of_colours_unspent"] if departs else [])


@pytest.mark.parametrize("ruleset, level_below, departs", [("bga", True, True), ("bga", False, False),
                                                           ("official", True, False)])
def test_the_tiebreak_after_a_twelve_point_end(ruleset: str, level_below: bool, departs: bool) -> None:
    """BGA lets players level on points share their rank after a 12-point end; where nobody below
    the winner is level, both rules rank alike."""
    s = new_game(3, ruleset=ruleset)
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-4", 0, 1)
    put(s, "p3", "red-2", 0, 0)  # p3 has fewer empty cells than p2
    s.seats["p1"].score = {**ZERO, "rows": 1, "columns": 10}
    if not level_below:
        s.seats["p2"].score = {**ZERO, "rows": 1}
    s._score = None
    s.pending_arms = 1
    goto(s, CoatOfArms("p1"))
    play(s, "p1", {"type": "place_white", "x": 4, "y": 1})
    assert s.turn() is OVER
    assert [d["rule"] for d in s.departures] == (["tiebreak_after_twelve_points"] if departs else [])
