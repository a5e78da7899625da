"""Coal Baron's value-model features: known positions, public only, the middle of an action, and the
value agent judging a move by the finished action (issue 30)."""

from __future__ import annotations

import math

import pytest
from coal_baron_helpers import GAME, give_order, place, setup
from states import every_state

from replay.analysis import positions
from replay.engine import OVER
from replay.evaluator import after_move, feature_set
from replay.games.coal_baron import features as F
from replay.games.coal_baron.evaluate import evaluate, worth
from replay.games.coal_baron.moves import MoveCage, PlaceWorkers, StopMining
from replay.games.coal_baron.state import CoalBaronState
from replay.record import MoveEvent, Record
from replay.simulate import simulate_one


def named(st: CoalBaronState, player: str) -> dict[str, float]:
    return dict(zip(F.NAMES, F.features(st, player), strict=True))


def test_the_opening_position_in_numbers() -> None:
    st = setup(2)
    f = named(st, "p1")
    assert f["points"] == 0 and f["orders_held"] == 3 and f["workers"] == 18 and f["francs"] == 10
    assert f["coal_on_carts"] == 4 and f["carts"] == 4 and f["empty_carts"] == 0 and f["cage_at_surface"] == 1
    assert f["worth"] == worth(st, "p1") and f["lead"] == worth(st, "p1") - worth(st, "p2")
    assert F.global_features(st) == [1.0, 36.0]  # shift 1, 18 workers each to place


def test_worth_is_the_greedy_value_before_its_comparison() -> None:
    st = setup(2)
    give_order(st, "p1", "o40", ["black"])
    st.pits["p2"].orders_vp = 7
    st.invalidate_score()
    assert evaluate(st, "p1") == worth(st, "p1") - 7
    assert named(st, "p1")["worth"] > named(setup(2), "p1")["worth"]  # a cube on an order is worth something
    assert named(st, "p2")["lead"] == -named(st, "p1")["lead"]


def test_the_mining_steps_are_the_middle_of_an_action() -> None:
    st = setup(2)
    assert not F.mid_action(st)
    place(st, "mining_6")
    assert F.mid_action(st) and st.decision == "mining"
    fs = feature_set("coal_baron")
    assert fs is not None and fs.mid_action is F.mid_action


def test_a_move_is_judged_by_the_finished_action() -> None:
    """The value agent's look-ahead plays the mining steps to their end, greedily; a title without
    ``mid_action`` plays the move alone."""
    st = setup(2)
    child = after_move(st, "p1", PlaceWorkers(space="mining_6"))
    assert child.turn() == "p2" and not F.mid_action(child)  # type: ignore[arg-type]
    assert child.pits["p1"].cage_load() + sum(child.pits["p1"].storage) > 0  # type: ignore[attr-defined]
    assert st.turn() == "p1" and st.pits["p1"].workers == 18  # the position itself is untouched
    again = after_move(st, "p1", PlaceWorkers(space="mining_6"))
    assert again.state_hash() == child.state_hash()  # the greedy follow-ups are seeded afresh
    place(st, "mining_6")
    stop = after_move(st, "p1", StopMining())
    assert stop.turn() == "p2" and stop.pits["p1"].cage_level == 0  # type: ignore[attr-defined]
    cage = after_move(st, "p1", MoveCage(level=1))  # then greedy loads and brings the cubes up
    assert cage.turn() == "p2" and cage.state_hash() != stop.state_hash()

    from replay.games import get_game
    rec = simulate_one(get_game("perikles"), 3, 1, 0, observe_every=0, agents=["greedy"] * 3)
    chart, _ = positions(rec, "decisions", "known")
    pos = chart[3]
    assert pos.mover is not None
    move = next(iter(pos.state.legal_moves()))
    plain = pos.state.copy()
    plain.play(pos.mover, move)
    assert after_move(pos.state, pos.mover, move).state_hash() == plain.state_hash()


def _same_as_the_public_saw(rec: Record) -> int:
    """The features at every decision are the same whether the hidden draws are known or not."""
    known, _ = positions(rec, at="decisions", hidden="known")
    seen, _ = positions(rec, at="decisions", hidden="resample")
    assert [p.seq for p in known] == [p.seq for p in seen]
    for k, s in zip(known, seen, strict=True):
        got = [F.features(s.state, p) for p in s.state.players], F.global_features(s.state)  # type: ignore[arg-type]
        want = [F.features(k.state, p) for p in k.state.players], F.global_features(k.state)  # type: ignore[arg-type]
        assert got == want, f"event {k.seq} ({k.state.phase()})"
    return len(known)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_simulated_games_look_the_same_to_the_public(players: int, seed: int) -> None:
    rec = simulate_one(GAME, players, seed, 0, observe_every=0)
    looks = {e.move.type for e in rec.events if isinstance(e, MoveEvent)} & {"keep_tile", "keep_order"}
    assert looks  # a draw-five, whose cards only the looker saw
    assert _same_as_the_public_saw(rec) > 50


@pytest.mark.parametrize(("players", "view"), [(2, "p1"), (3, "p2")])
def test_a_seat_view_every_state(players: int, view: str) -> None:
    rec = simulate_one(GAME, players, 7, 0, view=view)
    _same_as_the_public_saw(rec)
    last = None
    for st in every_state(rec):
        assert isinstance(st, CoalBaronState)
        g = F.global_features(st)
        for p in st.players:
            f = F.features(st, p)
            assert len(f) == len(F.NAMES) and all(math.isfinite(x) for x in f + g)
        last = st
    assert last is not None and last.turn() is OVER


def test_the_shipped_value_model_reads_these_features() -> None:
    """The model in the package was trained on exactly these features (the version check), and gives
    chances that add up to one."""
    from replay.evaluator import load_model

    model = load_model("coal_baron")
    assert model is not None
    rec = simulate_one(GAME, 2, 5, 0, observe_every=0, agents=["greedy", "greedy"])
    chart, _ = positions(rec)
    for chances in model.chances_many([p.state for p in chart[::5] if not p.state.is_over()]):
        assert sum(chances.values()) == pytest.approx(1.0) and all(0 < c < 1 for c in chances.values())
