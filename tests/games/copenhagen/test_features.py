"""Copenhagen's value-model features: the middle of a turn, and the value agent judging a move by the
finished turn (issue 30)."""

from __future__ import annotations

from copenhagen_helpers import GAME, new_game, set_hand

from replay.engine import ChanceRequest
from replay.evaluator import after_move, feature_set
from replay.games.copenhagen import features as F
from replay.games.copenhagen.moves import Discard, TakeCard
from replay.training import game_rows


def test_only_the_turns_first_step_is_outside_the_turn() -> None:
    s = new_game()
    assert s.step == "start" and not F.mid_action(s)
    s.play("p1", TakeCard(slot=0))
    assert s.step == "second_card" and F.mid_action(s)
    fs = feature_set("copenhagen")
    assert fs is not None and fs.mid_action is F.mid_action


def test_the_discard_after_a_first_card_is_inside_the_turn() -> None:
    """Over the hand limit after the first card, the discard comes before the second card: the step
    is still the first one's, the turn is under way."""
    s = new_game()
    set_hand(s, "p1", red=4, blue=3)
    s.play("p1", TakeCard(slot=2))
    assert s.must_discard and s.step == "start" and F.mid_action(s)
    s.play("p1", Discard(color="green"))
    assert s.step == "second_card" and F.mid_action(s)


def test_a_first_card_is_judged_by_the_finished_turn() -> None:
    """The look-ahead plays the second card (and whatever the greedy agent adds) to the turn's end:
    the harbour's refill, chance's to decide; the same position each time."""
    s = new_game()
    child = after_move(s, "p1", TakeCard(slot=0))
    assert isinstance(child.turn(), ChanceRequest)
    assert child.seats["p1"].hand_size >= 4  # type: ignore[attr-defined]  # two cards taken at least
    assert s.step == "start" and s.seats["p1"].hand_size == 2  # the position itself is untouched
    assert after_move(s, "p1", TakeCard(slot=0)).state_hash() == child.state_hash()


def test_training_takes_turn_starts_only() -> None:
    """Every training position is a turn start: the harbour is full (seven cards) at every one, and
    a first card that has left it would show."""
    rows = game_rows(GAME, 2, 1, 5, ["greedy", "greedy"], "test")
    fs = feature_set("copenhagen")
    assert fs is not None and rows.x
    harbour = fs.row_names.index("harbour")
    assert {row[harbour] for row in rows.x} == {7.0}
