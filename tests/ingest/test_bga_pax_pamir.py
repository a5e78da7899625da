"""The Pax Pamir BGA importer: the shared logs end to end, fixtures, undo, hand-edited logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.bga import import_file
from replay.replayer import COMPLETE, replay

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs" / "pax_pamir"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/pax_pamir")
needs_logs = pytest.mark.skipif(not LOGS.is_dir(), reason="../shared/bga-logs/pax_pamir is not here")


@needs_logs
@pytest.mark.parametrize("name", sorted(p.name for p in LOGS.glob("*.log.json.gz")) if LOGS.is_dir() else [])
def test_every_shared_log_imports_and_replays_complete_with_bgas_scores(name: str) -> None:
    imp = import_file(LOGS / name)
    rec = imp.record
    assert imp.mismatches == []
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:1]
    assert rec.result is not None
    assert r.totals == rec.result["score"]
    table = imp.log.table
    assert table is not None
    assert {p["id"]: p["score"] for p in table.players} == rec.result["score"]
    assert [p["name"] for p in rec.players] == [p["name"] for p in sorted(table.players, key=lambda p: p["player_no"])]
