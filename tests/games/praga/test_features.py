"""Praga's value-model features: known positions, public only, the middle of an action, and the value
agent judging a move by the finished action (issue 30)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from praga_helpers import decision, me, new_game, play
from states import every_state as states

from replay.analysis import positions
from replay.engine import ChanceRequest
from replay.evaluator import after_move, feature_set
from replay.games import get_game
from replay.games.praga import features as F
from replay.games.praga.moves import ChooseAction, EndTurn, TakeTile
from replay.games.praga.state import PragaState
from replay.simulate import simulate_one


def named(st: PragaState, player: str) -> dict[str, float]:
    return dict(zip(F.NAMES, F.features(st, player), strict=True))


def test_the_opening_position_in_numbers() -> None:
    st = new_game(2)
    f = named(st, "p1")
    assert f["points"] == 0 and f["gold"] == 2 and f["stone"] == 2
    assert (f["mines"], f["quarries"]) == (4, 3)
    assert (f["gold_production"], f["stone_production"], f["production_points"]) == (3, 2, 0)
    assert f["university_technology"] == 0 and f["walls"] == 0 and f["cubes"] == 2
    assert F.global_features(st) == [0.0, 1.0, 16.0, 0.0, 0.0]


def test_production_counts_the_bonuses_left_of_the_marker_and_the_tokens() -> None:
    st = new_game(2)
    me(st)["mines"] = 6  # the VP bonus on space 5 lies left of the marker
    me(st)["prod_tokens"]["mines"] = ["pt1"]  # two points each production
    f = named(st, "p1")
    assert (f["gold_production"], f["production_points"]) == (5, 3)
    assert named(st, "p2")["gold_production"] == 3


def test_the_final_scoring_as_it_stands_and_the_engine() -> None:
    st = new_game(2)
    me(st)["uni"], me(st)["tech"] = 5, 3  # multiplier 2 on 3 technology steps
    me(st)["eggs"] = 2  # 3 points
    f = named(st, "p1")
    assert f["university_technology"] == 2
    assert f["final_scoring"] == named(new_game(2), "p1")["final_scoring"] + 2 * 3 + 3


def test_points_scored_count_and_the_final_scoring_is_not_counted_twice() -> None:
    rec = simulate_one(get_game("praga"), 2, 7, 0, observe_every=0, agents=["greedy", "greedy"])
    *_, end = states(rec)
    assert end.is_over()
    for p in end.players:
        f = named(end, p)  # type: ignore[arg-type]
        assert f["points"] == rec.result["score"][p] and f["final_scoring"] == 0  # type: ignore[index]


class NoPeeking(dict[str, Any]):
    """The face-down stacks, refusing to be read."""

    def __getitem__(self, key: str) -> Any:
        raise AssertionError(f"the features read the face-down stack {key}")

    def get(self, key: str, default: Any = None) -> Any:
        raise AssertionError(f"the features read the face-down stack {key}")

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("the features read the face-down stacks")

    def values(self) -> Any:
        raise AssertionError("the features read the face-down stacks")

    def items(self) -> Any:
        raise AssertionError("the features read the face-down stacks")


def test_the_face_down_stacks_are_never_read() -> None:
    """Only the stacks are hidden in Praga: their order and contents, changed or unreadable, change nothing."""
    rec = simulate_one(get_game("praga"), 2, 7, 1, observe_every=0, agents=["greedy", "random"])
    for i, st in enumerate(states(rec)):
        if i % 25:
            continue
        assert isinstance(st, PragaState)
        before = [F.features(st, p) for p in st.players], F.global_features(st)
        blind = st.copy()
        blind.stacks = NoPeeking()  # type: ignore[assignment]
        assert ([F.features(blind, p) for p in blind.players], F.global_features(blind)) == before


def test_the_shipped_value_model_reads_these_features() -> None:
    """The model in the package was trained on exactly these features (the version check), and gives
    chances that add up to one."""
    from replay.evaluator import load_model

    model = load_model("praga")
    assert model is not None
    rec = simulate_one(get_game("praga"), 2, 5, 0, observe_every=0, agents=["greedy", "greedy"])
    chart, _ = positions(rec)
    for chances in model.chances_many([p.state for p in chart[::5] if not p.state.is_over()]):
        assert sum(chances.values()) == pytest.approx(1.0) and all(0 < c < 1 for c in chances.values())


def test_an_action_and_its_choices_are_the_middle_of_a_turn() -> None:
    """Only the turn menu lies between two actions: the crane tile's action to choose and that action's
    own choices are inside one."""
    st = new_game(2)
    assert decision(st)["kind"] == "turn" and not F.mid_action(st)
    play(st, TakeTile(position=4))
    assert decision(st)["kind"] == "choose_action" and F.mid_action(st)
    fs = feature_set("praga")
    assert fs is not None and fs.mid_action is F.mid_action


def test_a_move_is_judged_by_the_finished_action() -> None:
    """The value agent's look-ahead lets the greedy agent carry out the crane tile's action after the
    tile is taken, up to the turn menu (or a draw, or the next player); the position itself is untouched
    and the follow-up depends on the position alone."""
    st = new_game(2)
    mover = st.turn()
    assert isinstance(mover, str)
    before = st.state_hash()
    child = after_move(st, mover, TakeTile(position=4))
    turn = child.turn()
    assert isinstance(turn, ChanceRequest) or not F.mid_action(child)  # type: ignore[arg-type]
    if not isinstance(turn, ChanceRequest):
        assert turn == mover and child.d["turn"]["action_done"]  # type: ignore[attr-defined]
    assert EndTurn() in child.legal_moves() or isinstance(turn, ChanceRequest)
    assert st.state_hash() == before and decision(st)["kind"] == "turn"
    assert after_move(st, mover, TakeTile(position=4)).state_hash() == child.state_hash()
    play(st, TakeTile(position=4))
    action = decision(st)["options"][0]
    done = after_move(st, mover, ChooseAction(action=action))
    assert done.turn() != mover or not F.mid_action(done)  # type: ignore[arg-type]


def test_training_takes_no_position_from_inside_an_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every training row of a Praga game is read at the turn menu, the kind of position the value agent
    judges moves by."""
    import dataclasses

    from replay import training

    fs = feature_set("praga")
    assert fs is not None
    seen: list[str] = []

    def spy(state: PragaState, player: str) -> list[float]:
        seen.append(decision(state)["kind"])
        return fs.player_features(state, player)

    monkeypatch.setattr(training, "feature_set", lambda game: dataclasses.replace(fs, player_features=spy))
    rows = training.game_rows(get_game("praga"), 2, 1, 0, ["greedy", "greedy"], "positions")
    assert rows.x and set(seen) == {"turn"}
