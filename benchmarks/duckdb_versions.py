"""The installed DuckDB on one ingest: writer CPU, file size and query CPU (run once per DuckDB version).

::

    python -m benchmarks.duckdb_versions [PATH...]     # default: data/

Ingests ``PATH`` (the bundled records by default) into a fresh database with
one worker, then prints the writer's CPU seconds (writing batches,
publishing snapshots), the size of the database and its snapshot, and the
CPU milliseconds of some dashboard queries (median of five).  CPU time, not
wall time: the figures hold on a shared machine.  To compare two versions,
run it with a Python that has the other one (a venv beside this one).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence

import duckdb

from analytics import queries
from ingest.pipeline import ingest
from ingest.writer import snapshot_path

QUERIES = ("summary", "games_by_title_status", "score_distribution", "seat_win_rates", "overview", "game_list")
RUNS = 5


def measure(paths: Sequence[str]) -> str:
    with tempfile.TemporaryDirectory(prefix="gamerec-duckdb-") as tmp:
        db = os.path.join(tmp, "g.duckdb")
        s = ingest(list(paths), db, workers=1)
        t = s.timings
        size = os.path.getsize(db) / 2**20
        snap = os.path.getsize(snapshot_path(db)) / 2**20
        cpu_ms = {}
        for name in QUERIES:
            fn = getattr(queries, name)
            runs = []
            for _ in range(RUNS):
                c = time.process_time()
                queries.run(db, fn)
                runs.append(time.process_time() - c)
            cpu_ms[name] = statistics.median(runs) * 1000
    return (f"duckdb {duckdb.__version__}: {s.counts.records} records; writer CPU {t['write_cpu']:.2f} s write + "
            f"{t['publish_cpu']:.2f} s publish; database {size:.1f} MiB, snapshot {snap:.1f} MiB; query CPU ms "
            f"(median of {RUNS}): " + ", ".join(f"{k} {v:.1f}" for k, v in cpu_ms.items()))


if __name__ == "__main__":
    print(measure(sys.argv[1:] or ["data/"]))
