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
    assert r.totals == rec.result["score"] if rec.result else False
    assert len(r.state.players) == players if r.state else False
