"""benchmarks.ingest_speed: the rows `gamerec bench` prints, measured on a tiny corpus."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson

from benchmarks.ingest_speed import run, write_corpus


def test_write_corpus_makes_distinct_ids(tmp_path: Path) -> None:
    n = write_corpus(tmp_path, 30, titles=["toy"], pool=4)
    lines = [orjson.loads(x) for f in sorted(tmp_path.glob("*.jsonl.gz")) for x in gzip.open(f).read().splitlines()]
    assert n == 30 == len(lines) == len({r["id"] for r in lines})


def test_bench_rows(monkeypatch) -> None:
    import benchmarks.ingest_speed as bench

    monkeypatch.setattr(bench, "available", lambda: [])  # the toy game keeps the test fast
    rows = run(True, n_games=60)
    by = {r["metric"]: r for r in rows}
    assert set(by) >= {"ingest records/s", "ingest rows/s", "ingest peak memory (writer)",
                       "ingest peak memory (worker)", "re-ingest records/s (all skipped)"}
    assert all(isinstance(r["value"], float) and r["value"] > 0 for r in rows), rows
    assert "60 games (toy)" in by["ingest records/s"]["detail"]
    assert "60 skipped" in by["re-ingest records/s (all skipped)"]["detail"]
