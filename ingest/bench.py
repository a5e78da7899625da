"""Ingest benchmark for ``gamerec bench``: records/s, rows/s and peak memory.

:func:`run` simulates a small pool of games per title (every title with an
engine, or the tests' toy game when none is installed), copies them under
fresh ids up to the corpus size (a copy replays exactly like the original, so
the replay work per record is real), writes the corpus as ``.jsonl.gz``
files, and ingests it into a fresh database in a **separate process**, so
the peak memory reported is the ingest's own: the writer process and the
largest replay worker (``ru_maxrss``).  A second run over the same corpus
measures the idempotent path (everything skipped).

:func:`write_corpus` is reusable (the dashboard benchmark builds its
100k-game database with it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from replay.games import available
from replay.record import dumps
from replay.simulate import simulate

QUICK_GAMES = 2_000
FULL_GAMES = 100_000
PER_FILE = 1_000
TESTS_DIR = Path(__file__).resolve().parents[1] / "tests"


def _titles() -> tuple[list[str], bool]:
    titles = available()
    if titles:
        return titles, False
    sys.path.insert(0, str(TESTS_DIR))
    import toygame  # noqa: F401  (registers "toy")

    return ["toy"], True


def write_corpus(out_dir: str | Path, n_games: int, *, titles: list[str] | None = None, pool: int = 20,
                 seed: int = 7) -> int:
    """Write ``n_games`` records (titles in turn) as ``.jsonl.gz`` files under ``out_dir``.

    ``pool`` distinct games are simulated per title and repeated under new ids.
    Returns the number of records written.
    """
    import gzip

    titles = titles or _titles()[0]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pools = {t: [orjson.loads(dumps(r)) for r in simulate(t, pool, seed)] for t in titles}
    written = 0
    part = 0
    while written < n_games:
        path = out / f"bench-{part:05d}.jsonl.gz"
        with gzip.GzipFile(path, "wb", mtime=0, compresslevel=1) as fh:
            for _ in range(min(PER_FILE, n_games - written)):
                title = titles[written % len(titles)]
                rec = dict(pools[title][(written // len(titles)) % pool])
                rec["id"] = f"bench-{title}-{written:07d}"
                fh.write(orjson.dumps(rec) + b"\n")
                written += 1
        part += 1
    return written


def _child(corpus: str, db: str, toy: bool) -> None:
    """Runs in the measuring subprocess: ingest twice, print figures as JSON."""
    import resource

    if toy:
        sys.path.insert(0, str(TESTS_DIR))
        import toygame  # noqa: F401

    from ingest.pipeline import ingest, usable_cpus

    first = ingest([corpus], db)
    again = ingest([corpus], db)
    out = {
        "records": first.counts.records, "seconds": first.seconds, "rows": sum(first.counts.rows.values()),
        "events": first.counts.rows.get("events", 0), "publishes": first.publishes,
        "again_records": again.counts.records, "again_seconds": again.seconds, "again_skipped": again.counts.skipped,
        "writer_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "worker_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "db_bytes": os.path.getsize(db), "workers": usable_cpus(),
        "timings": first.timings,
    }
    print(json.dumps(out))


def run(quick: bool, n_games: int | None = None) -> list[dict[str, Any]]:
    """Benchmark rows: ``{"metric", "value", "unit", "detail"}``."""
    titles, toy = _titles()
    n = n_games or (QUICK_GAMES if quick else FULL_GAMES)
    with tempfile.TemporaryDirectory(prefix="gamerec-bench-") as tmp:
        corpus = Path(tmp) / "corpus"
        write_corpus(corpus, n, titles=titles, pool=10 if quick else 40)
        db = Path(tmp) / "bench.duckdb"
        code = f"from ingest.bench import _child; _child({str(corpus)!r}, {str(db)!r}, {toy!r})"
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            return [{"metric": "ingest", "value": "failed", "unit": "", "detail": tail}]
        m = json.loads(proc.stdout.strip().splitlines()[-1])
    what = f"{m['records']:,} games ({', '.join(titles)}), {m['workers']} workers"
    secs = m["seconds"]
    return [
        {"metric": "ingest records/s", "value": m["records"] / secs, "unit": "records/s",
         "detail": f"{what}; {secs:.1f} s, of which the writer spent {m['timings'].get('write', 0):.1f} s "
                   f"writing and {m['timings'].get('publish', 0):.1f} s on {m['publishes']} snapshot publications"},
        {"metric": "ingest rows/s", "value": m["rows"] / secs, "unit": "rows/s",
         "detail": f"{m['rows']:,} rows in every table ({m['events']:,} events)"},
        {"metric": "ingest events/s", "value": m["events"] / secs, "unit": "events/s", "detail": what},
        {"metric": "re-ingest records/s (all skipped)", "value": m["again_records"] / m["again_seconds"],
         "unit": "records/s", "detail": f"{m['again_skipped']:,} skipped as already present"},
        {"metric": "ingest peak memory (writer)", "value": m["writer_kib"] / 1024, "unit": "MiB",
         "detail": f"ru_maxrss of the ingest process, {m['records']:,} games"},
        {"metric": "ingest peak memory (worker)", "value": m["worker_kib"] / 1024, "unit": "MiB",
         "detail": "largest replay worker (ru_maxrss of children)"},
        {"metric": "database size", "value": m["db_bytes"] / 2**20, "unit": "MiB",
         "detail": f"{m['records']:,} games; measured in {wall:.0f} s wall"},
    ]
