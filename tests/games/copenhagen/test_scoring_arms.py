"""Scoring (section 9), coats of arms (7.2) and the 12-point end (10.1)."""

from __future__ import annotations

import pytest
from copenhagen_helpers import build, legal, new_game, play, put, set_hand

from replay.engine import OVER, IllegalMove
from replay.games.copenhagen.steps import CoatOfArms, goto

ZERO = {"rows": 0, "rows_all_windows": 0, "columns": 0, "columns_all_windows": 0}


def test_row_with_a_plain_cell_scores_one() -> None:
    s = new_game()
    put(s, "p1", "red-2", 0, 0)
    set_hand(s, "p1", purple=3)
    s.seq = 9
    play(s, "p1", build("purple", 3, 2, 0, {"purple": 3}))
    assert s.score()["p1"] == {**ZERO, "rows": 1}
    assert s.score()["p2"] == ZERO
    assert s.milestones == [{"type": "facade_completion", "seq": 9, "player_id": "p1", "line": "row",
                             "index": 0, "all_windows": False, "points": 1}]


def test_all_window_row_scores_two_and_a_column_two_or_four() -> None:
    s = new_game()
    # standing dominoes with the plain cell on top: row 0 shows only windows
    for x in range(4):
        put(s, "p1", "red-2", x, 0, rotation=90)
    set_hand(s, "p1", blue=2)
    play(s, "p1", build("blue", 2, 4, 0, {"blue": 2}, rotation=90))
    assert s.score()["p1"] == {**ZERO, "rows_all_windows": 2, "rows": 1}  # row 1 has the plain cells
    s2 = new_game()
    put(s2, "p1", "purple-5", 0, 0, rotation=90)
    set_hand(s2, "p1", purple=3)
    play(s2, "p1", build("purple", 4, 0, 5, {"purple": 3}, rotation=90))  # 1 less: touches purple
    assert s2.score()["p1"] == {**ZERO, "columns": 2}
    assert [(m["line"], m["index"], m["points"]) for m in s2.milestones] == [("column", 0, 2)]


def test_all_window_column_scores_four() -> None:
    s = new_game()
    for y in range(8):
        put(s, "p1", "white-1", 0, y)
    s.pending_arms = 1
    goto(s, CoatOfArms("p1"))
    play(s, "p1", {"type": "place_white", "x": 0, "y": 8})
    assert s.score()["p1"] == {**ZERO, "columns_all_windows": 4}
    assert s.milestones[-1]["all_windows"] is True


def test_covering_a_coat_of_arms_cell_offers_the_three_bonuses() -> None:
    s = new_game()
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-5", 0, 1)
    s.seats["p1"].use("any_cards")
    set_hand(s, "p1", green=3)
    play(s, "p1", build("green", 3, 0, 2, {"green": 3}))  # covers (2, 2)
    assert s.step == "coat_of_arms" and s.pending_arms == 1 and s.turn() == "p1"
    moves = legal(s)
    assert [m["ability"] for m in moves if m["type"] == "take_ability"] == [
        "additional_card", "construction_discount", "change_of_colors", "both_actions"]
    assert {"type": "place_white", "x": 3, "y": 2} in moves and {"type": "place_white", "x": 0, "y": 3} in moves
    assert {"type": "place_white", "x": 4, "y": 3} not in moves  # nothing under it
    assert moves[-1] == {"type": "refresh_abilities"}
    play(s, "p1", {"type": "refresh_abilities"})
    assert s.seats["p1"].abilities == {"any_cards": False}
    assert s.turn() == "p2"  # a build empties no harbour slot: nothing to refill


def test_taking_an_ability_tile() -> None:
    s = new_game()
    s.pending_arms = 2
    goto(s, CoatOfArms("p1"))
    play(s, "p1", {"type": "take_ability", "ability": "both_actions"})
    with pytest.raises(IllegalMove, match="p1 cannot take a both actions tile: p1 already owns one"):
        play(s, "p1", {"type": "take_ability", "ability": "both_actions"})
    with pytest.raises(IllegalMove, match="none of p1's tiles is used"):
        play(s, "p1", {"type": "refresh_abilities"})
    s.ability_supply["additional_card"] = 0
    with pytest.raises(IllegalMove, match="none is left in the supply"):
        play(s, "p1", {"type": "take_ability", "ability": "additional_card"})
    play(s, "p1", {"type": "take_ability", "ability": "change_of_colors"})
    assert list(s.seats["p1"].abilities) == ["any_cards", "change_of_colors", "both_actions"]
    assert s.ability_supply == {"any_cards": 0, "additional_card": 0, "construction_discount": 2,
                                "change_of_colors": 1, "both_actions": 1}


def test_completing_a_coat_of_arms_row() -> None:
    s = new_game()
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-4", 0, 1)   # (0..3, 1): row 1 needs (4, 1)
    set_hand(s, "p1", red=2)
    play(s, "p1", build("red", 2, 4, 1, {"red": 2}, rotation=90))  # (4,1) (4,2): completes row 1
    assert s.pending_arms == 1 and s.score()["p1"]["rows"] == 2


def test_one_tile_can_earn_a_coat_of_arms_cell_and_row_together() -> None:
    s = new_game()
    for y in range(6):
        put(s, "p1", "purple-4", 0, y)
    for y in range(4):
        put(s, "p1", "white-1", 4, y)
    set_hand(s, "p1", red=2)
    play(s, "p1", build("red", 2, 4, 4, {"red": 2}, rotation=90))  # covers (4, 4), completes rows 4 and 5
    assert s.pending_arms == 2
    assert [(m["line"], m["index"]) for m in s.milestones] == [("row", 4), ("row", 5)]
    play(s, "p1", {"type": "take_ability", "ability": "additional_card"})
    assert s.pending_arms == 1 and s.step == "coat_of_arms"
    play(s, "p1", {"type": "place_white", "x": 0, "y": 6})
    assert s.pending_arms == 0 and s.turn() == "p2"


def test_a_white_tile_completing_a_coat_of_arms_row_chains_a_bonus() -> None:
    s = new_game()
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-4", 0, 1)
    s.pending_arms = 1
    goto(s, CoatOfArms("p1"))
    play(s, "p1", {"type": "place_white", "x": 4, "y": 1})
    assert s.score()["p1"]["rows"] == 2
    assert s.step == "coat_of_arms" and s.pending_arms == 1 and s.white == 11


def test_reaching_twelve_with_a_white_tile_ends_at_once() -> None:
    s = new_game()
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-4", 0, 1)
    s.seats["p1"].score = {**ZERO, "rows": 1, "columns": 10}  # row 0 and two columns: 11
    s._score = None
    s.pending_arms = 2
    goto(s, CoatOfArms("p1"))
    play(s, "p1", {"type": "place_white", "x": 4, "y": 1})  # row 1: 1 point -> 12 (and 1 bonus would follow)
    assert s.turn() is OVER and s.end == "12_points"
    assert s.totals() == {"p1": 12, "p2": 0}
    assert s.ranking() == {"p1": 1, "p2": 2}
    assert None not in s.harbour  # no refill


def test_reaching_twelve_by_building_forfeits_the_bonuses() -> None:
    s = new_game()
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-4", 0, 1)
    s.seats["p1"].score = {**ZERO, "rows": 1, "columns": 10}
    s._score = None
    set_hand(s, "p1", red=2)
    play(s, "p1", build("red", 2, 4, 1, {"red": 2}, rotation=90))  # row 1 -> 12, coat-of-arms row forfeited
    assert s.turn() is OVER and s.end == "12_points" and s.pending_arms == 0


def test_bonuses_are_skipped_when_none_is_possible() -> None:
    s = new_game()
    p = s.seats["p1"]
    for a in ("additional_card", "construction_discount", "change_of_colors", "both_actions"):
        p.gain_ability(a)
    s.white = 0
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-5", 0, 1)
    set_hand(s, "p1", green=3)
    play(s, "p1", build("green", 3, 0, 2, {"green": 3}))  # covers (2, 2)
    assert s.pending_arms == 0 and s.turn() == "p2"
    assert s.white == 0 and not s.seats["p1"].any_used()


def test_white_tiles_follow_the_placement_rules() -> None:
    s = new_game()
    s.pending_arms = 1
    goto(s, CoatOfArms("p1"))
    with pytest.raises(IllegalMove, match=r"p1 cannot place a white tile at column 3, row 4: it would float"):
        play(s, "p1", {"type": "place_white", "x": 2, "y": 3})
    with pytest.raises(IllegalMove, match="stick out"):
        play(s, "p1", {"type": "place_white", "x": 5, "y": 0})


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_ranks_after_a_twelve_point_end(ruleset: str) -> None:
    """Official: fewer empty cells break a tie on points. BGA computes that tiebreak only at
    the mermaid's end, so after a 12-point end players level on points share their rank."""
    s = new_game(3, ruleset=ruleset)
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-4", 0, 1)
    put(s, "p3", "red-2", 0, 0)  # p2 and p3 both have 0 points; p3 has fewer empty cells
    s.seats["p1"].score = {**ZERO, "rows": 1, "columns": 10}
    s._score = None
    s.pending_arms = 1
    goto(s, CoatOfArms("p1"))
    play(s, "p1", {"type": "place_white", "x": 4, "y": 1})
    assert s.turn() is OVER and s.end == "12_points"
    assert s.ranking() == ({"p1": 1, "p2": 3, "p3": 2} if ruleset == "official" else {"p1": 1, "p2": 2, "p3": 2})
