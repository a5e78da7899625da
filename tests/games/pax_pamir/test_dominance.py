"""Dominance Checks: success, the points by place with every tie pattern, the final check,
the end of the game, Insurrection and the end of lasting events."""

from __future__ import annotations

import pytest
from pax_pamir_helpers import armies, play, setup, to_court

from replay.games.pax_pamir.dominance import place_points, resolve_dominance_check
from replay.games.pax_pamir.moves import Buy, TakePiece

SUCCESS = (5, 3, 1)
FAIL = (3, 1)


@pytest.mark.parametrize(
    ("values", "points", "expected"),
    [
        ({"a": 5, "b": 3, "c": 1}, SUCCESS, {"a": 5, "b": 3, "c": 1}),
        ({"a": 4, "b": 4, "c": 1}, SUCCESS, {"a": 4, "b": 4, "c": 1}),  # (5+3)/2, then third
        ({"a": 4, "b": 2, "c": 2}, SUCCESS, {"a": 5, "b": 2, "c": 2}),  # (3+1)/2
        ({"a": 3, "b": 3, "c": 3}, SUCCESS, {"a": 3, "b": 3, "c": 3}),  # (5+3+1)/3
        ({"a": 3, "b": 3, "c": 3, "d": 3}, SUCCESS, {"a": 2, "b": 2, "c": 2, "d": 2}),  # 9/4 rounded down
        ({"a": 4, "b": 3, "c": 3, "d": 3}, SUCCESS, {"a": 5, "b": 1, "c": 1, "d": 1}),  # (3+1+0)/3
        ({"a": 4, "b": 3, "c": 2, "d": 2}, SUCCESS, {"a": 5, "b": 3, "c": 0, "d": 0}),  # (1+0)/2
        ({"a": 2}, SUCCESS, {"a": 5}),
        ({"a": 6, "b": 6, "c": 6}, FAIL, {"a": 1, "b": 1, "c": 1}),  # the rules' own example
        ({"a": 6, "b": 6, "c": 2}, FAIL, {"a": 2, "b": 2, "c": 0}),
        ({"a": 6, "b": 2, "c": 2}, FAIL, {"a": 3, "b": 0, "c": 0}),
        ({"a": 0, "b": 0}, FAIL, {"a": 2, "b": 2}),
        ({"a": 4, "b": 4}, (10, 6, 2), {"a": 8, "b": 8}),  # final check: doubled before splitting
        ({"a": 4, "b": 4, "c": 4}, (6, 2), {"a": 2, "b": 2, "c": 2}),
    ],
)
def test_shared_places_split_points_rounded_down(values: dict[str, int], points: tuple[int, ...],
                                                  expected: dict[str, int]) -> None:
    assert place_points(values, points) == expected


def checks(s: object) -> list[dict[str, object]]:
    return [m for m in s.milestones if m["type"] == "dominance_check"]  # type: ignore[attr-defined]


def test_successful_check_scores_the_dominant_coalition_by_influence_and_clears_blocks() -> None:
    s = setup(3, loyalties=("afghan", "british", "afghan"))
    armies(s, "kabul", "afghan", 5)
    armies(s, "herat", "british", 1)
    s.prizes["p3"].append(10)
    resolve_dominance_check(s, False)
    rows = {m["player_id"]: m for m in checks(s)}
    assert rows["p3"]["points"] == 5 and rows["p1"]["points"] == 3 and rows["p2"]["points"] == 0
    r = rows["p1"]
    assert r["successful"] and r["dominant_coalition"] == "afghan" and r["threshold"] == 4
    assert (r["blocks_afghan"], r["blocks_british"], r["blocks_russian"]) == (5, 1, 0)
    assert r["check_no"] == 1 and not r["is_final"] and r["influence"] == 1 and r["loyalty"] == "afghan"
    assert s.score()["p3"] == {"dominance_successful": 5, "dominance_unsuccessful": 0}
    assert all(s.blocks_in_play(c) == 0 for c in ("afghan", "british", "russian"))


def test_a_lead_of_three_is_not_enough_and_cylinders_decide() -> None:
    s = setup(3)
    armies(s, "kabul", "afghan", 3)
    s.cyl_supply.update({"p1": 7, "p2": 9, "p3": 7})
    resolve_dominance_check(s, False)
    rows = {m["player_id"]: m for m in checks(s)}
    assert not rows["p1"]["successful"] and rows["p1"]["dominant_coalition"] is None
    assert {p: r["points"] for p, r in rows.items()} == {"p1": 2, "p2": 0, "p3": 2}
    assert rows["p1"]["cylinders"] == 3
    assert s.blocks_in_play("afghan") == 3, "blocks stay after an unsuccessful check"
    assert s.score()["p1"] == {"dominance_successful": 0, "dominance_unsuccessful": 2}


def test_conflict_fatigue_lowers_the_lead_to_two() -> None:
    s = setup()
    s.held_events["p2"].append(109)
    s.vp["p2"]["dominance_unsuccessful"] = 3  # so that the game goes on
    armies(s, "kabul", "afghan", 2)
    resolve_dominance_check(s, False)
    row = checks(s)[0]
    assert row["threshold"] == 2 and row["successful"]
    assert 109 in s.discard_pile and s.held_events["p2"] == []


def test_nobody_scores_a_success_for_a_coalition_nobody_serves() -> None:
    s = setup()
    armies(s, "persia", "russian", 4)
    resolve_dominance_check(s, False)
    assert [m["points"] for m in checks(s)] == [0, 0]


def test_the_final_check_is_doubled_and_ends_the_game() -> None:
    s = setup()
    armies(s, "kabul", "afghan", 4)
    resolve_dominance_check(s, True)
    assert [m["points"] for m in checks(s)] == [10, 0]
    assert all(m["is_final"] for m in checks(s))
    assert s.is_over() and s.ranking() == {"p1": 1, "p2": 2}


def test_a_lead_of_four_points_ends_the_game_early() -> None:
    s = setup()
    s.vp["p1"]["dominance_unsuccessful"] = 1
    s.cyl_supply["p1"] = 9
    resolve_dominance_check(s, False)
    assert s.total("p1") == 4 and s.total("p2") == 1 and not s.is_over()
    resolve_dominance_check(s, False)
    assert s.is_over()


def test_buying_a_dominance_check_resolves_it_at_once_and_the_fourth_is_final() -> None:
    s = setup()
    s.market[0][0] = 104
    s.dc_cards_done = 3
    s.checks_resolved = 3
    play(s, Buy(row=0, col=0))
    assert checks(s)[0]["is_final"] and checks(s)[0]["check_no"] == 4
    assert s.is_over()


def test_insurrection_places_two_afghan_armies_in_kabul_after_a_check() -> None:
    s = setup()
    to_court(s, "p2", 3)
    resolve_dominance_check(s, False)
    assert s.armies["kabul"]["afghan"] == 2


def test_insurrection_takes_blocks_from_the_board_when_the_supply_is_empty() -> None:
    s = setup()
    to_court(s, "p2", 3)
    s.block_supply["afghan"] = s.block_supply["british"] = 0
    s.armies["herat"]["afghan"] = 12
    s.armies["punjab"]["british"] = 12  # no lead: an unsuccessful check, the blocks stay
    resolve_dominance_check(s, False)
    s.advance()
    assert s.turn() == "p2"
    play(s, TakePiece(piece="army:herat"))
    play(s, TakePiece(piece="army:herat"))
    assert s.armies["kabul"]["afghan"] == 2 and s.armies["herat"]["afghan"] == 10


def test_lasting_events_end_after_the_check() -> None:
    s = setup()
    s.held_events["p1"] += [105, 112]
    s.held_events["p2"].append(108)
    s.global_events.append(106)
    resolve_dominance_check(s, False)
    assert s.held_events == {"p1": [], "p2": []} and s.global_events == []
    assert {105, 106, 108, 112} <= set(s.discard_pile)
