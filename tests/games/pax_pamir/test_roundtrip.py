"""Simulated Pax Pamir games replay complete, under both rulesets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games import get_game
from replay.replayer import COMPLETE, replay
from replay.simulate import simulate_one

GAME = get_game("pax_pamir")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), ruleset=st.sampled_from(["official", "bga"]))
def test_simulated_games_replay_complete(seed: int, players: int, ruleset: str) -> None:
    rec = simulate_one(GAME, players, seed, 0, options={"ruleset": ruleset})
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:3]
    totals = r.totals
    assert totals == rec.result["score"]
    checks = [m for m in r.milestones if m["type"] == "dominance_check"]
    assert checks, "every finished game has at least one Dominance Check"
    assert len(checks) % players == 0


def test_simulation_is_deterministic() -> None:
    a = simulate_one(GAME, 3, 7, 1)
    b = simulate_one(GAME, 3, 7, 1)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
