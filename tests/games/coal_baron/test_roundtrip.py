"""Simulated Coal Baron games replay complete, for 2, 3 and 4 players and both rulesets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games import get_game
from replay.record import dumps, loads
from replay.replayer import COMPLETE, replay
from replay.simulate import simulate_one

GAME = get_game("coal_baron")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]),
       ruleset=st.sampled_from(["official", "bga"]))
def test_simulated_games_replay_complete(seed: int, players: int, ruleset: str) -> None:
    rec = simulate_one(GAME, players, seed, 0, options={"ruleset": ruleset})
    rec = loads(dumps(rec))  # through JSON, as a file would carry it
    r = replay(rec)
    assert r.status == COMPLETE, [d.to_dict() for d in r.divergences]
    assert r.totals == rec.result["score"]
    assert r.ranking == rec.result["rank"]
    ms = [m for m in r.milestones if m["type"] == "shift_ranking"]
    assert len(ms) == (4 + 8 + 12) * players
    for shift in (1, 2, 3):
        for p in rec.player_ids:
            points = sum(m["points"] for m in ms if m["shift"] == shift and m["player_id"] == p)
            assert points == r.score[p][f"shift{shift}"]
    for m in ms:
        assert (m["rank"] is None) == (m["points"] == 0)
        assert m["value"] > 0 or m["rank"] is None


def test_replay_is_deterministic() -> None:
    rec = simulate_one(GAME, 3, 5, 1)
    a, b = replay(rec), replay(rec)
    assert a.to_json() == b.to_json()
    assert a.state is not None and b.state is not None
    assert a.state.state_hash() == b.state.state_hash()


def test_bundled_sample_records_still_replay_complete() -> None:
    """The records in data/coal_baron carry state hashes: any change of the rules or of the
    snapshot shape must come with regenerated samples."""
    from pathlib import Path

    from replay.record import iter_records

    root = Path(__file__).resolve().parents[3] / "data" / "coal_baron"
    items = list(iter_records([root]))
    assert len(items) == 300
    for item in items[:25]:
        assert item.record is not None
        r = replay(item.record, keep_frames=False)
        assert r.status == COMPLETE, (item.record.id, [d.to_dict() for d in r.divergences[:2]])
