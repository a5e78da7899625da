"""``gamerec bench``'s BGA import rows: per title, the ratio to the replay and the goal's verdict."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks import bga_import as bench

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs")
needs_logs = pytest.mark.skipif(not LOGS.is_dir(), reason="../shared/bga-logs is not here")


@needs_logs
def test_the_import_rows_give_each_title_its_ratio_and_say_whether_the_goal_is_met(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for game in ("pax_pamir", "copenhagen"):
        log = sorted((LOGS / game).glob("*.log.json.gz"))[0]
        (tmp_path / game).mkdir()
        shutil.copy(log, tmp_path / game / log.name)
        shutil.copy(log.with_name(log.name.replace(".log.json.gz", ".table.json")), tmp_path / game)
    (tmp_path / "notes.json").write_bytes(b'{"not": "a log"}')  # not importable: left out of the figures
    monkeypatch.setenv("GAMEREC_BGA_LOGS", str(tmp_path))
    rows = {r["metric"] + " " + r["unit"]: r for r in bench.run(quick=True, runs=1)}
    assert rows["BGA import logs/s"]["value"] > 0 and "2 logs (copenhagen, pax_pamir)" in rows["BGA import logs/s"]["detail"]
    assert rows["BGA import packets/s"]["value"] > rows["BGA import logs/s"]["value"]
    for game in ("pax_pamir", "copenhagen", "all"):
        row = rows[f"import + replay / replay: {game} x"]
        assert row["value"] > 0  # a ratio of CPU times (its size is the bench's to report, not a test's)
    for game in ("pax_pamir", "copenhagen"):
        row = rows[f"import + replay / replay: {game} x"]
        verdict = "met" if row["value"] <= bench.GOAL else "NOT met"
        assert row["detail"].startswith(f"goal at most 2x: {verdict};") and "1 log," in row["detail"]
        assert "CPU as verify: import + replay " in row["detail"]  # the goal's pair: no frames either side
        assert "as ingest (frames kept): " in row["detail"]  # and the pair as ingest makes it
    assert "per title: met for " in rows["import + replay / replay: all x"]["detail"]


def test_without_logs_the_rows_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMEREC_BGA_LOGS", str(tmp_path))
    (row,) = bench.run(quick=True, runs=1)
    assert row["value"] == "n/a" and "no importable log" in row["detail"]
