"""Simulated Copenhagen games replay complete, with 2, 3 and 4 players, under both rulesets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games import get_game
from replay.record import dumps, loads
from replay.replayer import replay
from replay.simulate import simulate_one

GAME = get_game("copenhagen")


@settings(max_examples=12, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=10_000),
       ruleset=st.sampled_from(["official", "bga"]))
def test_simulated_games_replay_complete(players: int, seed: int, ruleset: str) -> None:
    rec = simulate_one(GAME, players, seed, 0, observe_every=5, options={"ruleset": ruleset})
    r = replay(loads(dumps(rec)))
    assert r.status == "complete", r.divergences[:3]
    assert rec.result is not None and r.totals == rec.result["score"]
    assert r.state is not None and len(r.state.players) == players
    for pid, cats in r.score.items():
        assert list(cats) == ["rows", "rows_all_windows", "columns", "columns_all_windows"], pid
    completions = [m for m in r.milestones if m["type"] == "facade_completion"]
    for pid in r.state.players:  # the milestones add up to the final score
        assert sum(m["points"] for m in completions if m["player_id"] == pid) == r.totals[pid]
