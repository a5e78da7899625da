"""Golden full-game traces: the replay of a fixed record must not change unnoticed.

A failure here means an engine now plays a recorded game differently (other
scores, milestones, phases or statuses).  If the change is a deliberate rules
fix, regenerate with ``python tests/golden/regen.py GAME`` and review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

from replay.games import available
from replay.record import loads

sys.path.insert(0, str(Path(__file__).parent))
from regen import trace  # noqa: E402

HERE = Path(__file__).parent


GOLDEN = sorted(p.stem for p in HERE.glob("*.json") if p.stem in available())


@pytest.mark.parametrize("game_id", GOLDEN)
def test_golden_trace(game_id: str) -> None:
    path = HERE / f"{game_id}.json"
    blob = orjson.loads(path.read_bytes())
    got = orjson.loads(orjson.dumps(trace(loads(orjson.dumps(blob["record"])))))
    expected = blob["expected"]
    assert got["status"] == "complete"
    for key in ("status", "score", "total", "rank", "milestones", "divergences"):
        assert got[key] == expected[key], key
    for g, e in zip(got["frames"], expected["frames"]):
        assert g == e, f"event {e[0]} replays differently"
    assert len(got["frames"]) == len(expected["frames"])
