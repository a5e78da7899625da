"""Ingest benchmark for ``gamerec bench``: records/s, rows/s and peak memory.

:func:`run` simulates a small pool of games per title (every title with an
engine, or the tests' toy game when none is installed), copies them under
fresh ids up to the corpus size (a copy replays exactly like the original, so
the replay work per record is real), writes the corpus as ``.jsonl.gz``
files, and ingests it into a fresh database in a **separate process**, so
the peak memory reported is the ingest's own: the writer process and the
largest replay worker (``ru_maxrss``).  A second run over the same corpus
measures the idempotent path (everything skipped).

Before that, the same subprocess measures the ingest against the replay
alone, on the same records (the first :data:`RATIO_GAMES` of the corpus):
``gamerec verify``'s work on one core (read, parse, replay), then the ingest
with one worker per core into a fresh database, then the verify again (the
two verify runs are averaged, so a machine whose load drifts during the
measurement is not read as a speed-up or a slow-down).  The goal is an
ingest at least ``0.8 x N`` times as fast as the one-core replay with ``N``
workers.  CPU seconds are reported too: on a machine shared with other work
the wall-clock ratio moves with the other jobs, the CPU ratio (all the
ingest's processes against verify's one) much less.

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
RATIO_GAMES = 2_000
RATIO_GOAL = 0.8
"""The ingest with N workers should reach ``RATIO_GOAL x N`` times the one-core replay rate."""
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


def _cpu(who: int) -> float:
    import resource

    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def _verify(files: list[str]) -> tuple[float, float, int]:
    """What ``gamerec verify`` does on one core: wall and CPU seconds, records."""
    import resource

    from replay.record import iter_records
    from replay.replayer import replay_item

    t, c = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    n = 0
    for item in iter_records(files):
        replay_item(item, keep_frames=False)
        n += 1
    return time.perf_counter() - t, _cpu(resource.RUSAGE_SELF) - c, n


def _ratio(files: list[str], db: str) -> dict[str, Any]:
    """Verify, ingest with every core, verify again: the same records each time."""
    import resource

    from ingest.pipeline import ingest, usable_cpus

    v1 = _verify(files)
    load = os.getloadavg()[0]
    c_self, c_children = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    s = ingest(files, db)
    out = {
        "records": s.counts.records, "workers": usable_cpus(), "ingest_seconds": s.seconds,
        "ingest_cpu": _cpu(resource.RUSAGE_SELF) - c_self + _cpu(resource.RUSAGE_CHILDREN) - c_children,
        "writer_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "worker_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "timings": s.timings,
    }
    v2 = _verify(files)
    assert v1[2] == v2[2] == s.counts.records, (v1, v2, s.counts.records)
    out.update(verify_seconds=(v1[0] + v2[0]) / 2, verify_cpu=(v1[1] + v2[1]) / 2,
               verify_runs=[v1[0], v2[0]], load=max(load, os.getloadavg()[0]))
    return out


def _lake(files: list[str], lake: str) -> dict[str, Any] | None:
    """The same records into a Parquet lake on a local Dask cluster (one worker process per core)."""
    try:
        from ingest.lake import ingest_lake
        from ingest.pipeline import usable_cpus
    except ImportError:
        return None
    s = ingest_lake(files, lake, workers=usable_cpus())
    return {"records": s.records, "seconds": s.seconds, "rows": sum(s.rows.values()), "worker_kib": s.worker_kib,
            "workers": usable_cpus()}


def _child(corpus: str, db: str, toy: bool, ratio_files: list[str]) -> None:
    """Runs in the measuring subprocess: ingest against replay, ingest twice; figures as JSON."""
    import resource

    if toy:
        sys.path.insert(0, str(TESTS_DIR))
        import toygame  # noqa: F401

    from ingest.pipeline import ingest, usable_cpus

    ratio = _ratio(ratio_files, db + ".ratio.duckdb")
    first = ingest([corpus], db)
    again = ingest([corpus], db)
    out = {
        "records": first.counts.records, "seconds": first.seconds, "rows": sum(first.counts.rows.values()),
        "events": first.counts.rows.get("events", 0), "publishes": first.publishes,
        "again_records": again.counts.records, "again_seconds": again.seconds, "again_skipped": again.counts.skipped,
        "writer_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "worker_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "db_bytes": os.path.getsize(db), "workers": usable_cpus(),
        "timings": first.timings, "ratio": ratio,
    }
    # last: the Dask workers are children of this process too, and would count in worker_kib
    out["lake"] = _lake(ratio_files, db + ".lake")
    print(json.dumps(out))


def _first_files(corpus: Path, n_games: int) -> list[str]:
    """The corpus files that hold its first ``n_games`` records (:data:`PER_FILE` per file)."""
    files = sorted(str(f) for f in corpus.glob("*.jsonl.gz"))
    return files[: max(1, -(-n_games // PER_FILE))]


def _ratio_rows(r: dict[str, Any], titles: list[str]) -> list[dict[str, Any]]:
    n, w = r["records"], r["workers"]
    ingest_rate = n / r["ingest_seconds"]
    verify_rate = n / r["verify_seconds"]
    ratio = ingest_rate / verify_rate
    goal = RATIO_GOAL * w
    cpu_ratio = r["ingest_cpu"] / r["verify_cpu"] if r["verify_cpu"] else 0.0
    t = r["timings"]
    return [
        {"metric": "ingest vs one-core replay", "value": ratio, "unit": "x",
         "detail": f"{w} workers: {ingest_rate:,.0f} records/s against verify's {verify_rate:,.0f} (one core) on "
                   f"the same {n:,} games ({', '.join(titles)}); goal >= {goal:.1f}x: "
                   f"{'met' if ratio >= goal else 'NOT met'}; verify runs "
                   f"{', '.join(f'{x:.1f}' for x in r['verify_runs'])} s, ingest {r['ingest_seconds']:.1f} s "
                   f"(writer busy {t.get('write', 0) + t.get('publish', 0):.1f} s, overlapped; before the first "
                   f"task {t.get('start', 0):.1f} s, after the last {t.get('end', 0):.1f} s, not shared); "
                   f"load average up to {r['load']:.1f}"},
        {"metric": "ingest vs one-core replay, CPU seconds", "value": cpu_ratio, "unit": "x",
         "detail": f"all the ingest's processes used {r['ingest_cpu']:.1f} CPU s, verify {r['verify_cpu']:.1f}: "
                   f"with {w} idle cores the ingest can reach at most {w / cpu_ratio if cpu_ratio else 0:.2f}x"},
        {"metric": "ingest peak memory on that corpus (writer / worker)",
         "value": r["writer_kib"] / 1024, "unit": "MiB",
         "detail": f"writer {r['writer_kib'] / 1024:,.0f} MiB / largest worker {r['worker_kib'] / 1024:,.0f} MiB; "
                   "bounded: the writer at DuckDB's --memory-limit (1 GB) + about 0.6 GB, a worker at "
                   "one task (64 records or 1 MiB of input) + the engines"},
    ]


def _lake_rows(lake: dict[str, Any] | None, ratio: dict[str, Any]) -> list[dict[str, Any]]:
    if lake is None:
        return [{"metric": "lake ingest records/s", "value": "n/a", "unit": "",
                 "detail": "pip install 'gamerec[lake]' (dask[distributed])"}]
    one = ratio["records"] / ratio["ingest_seconds"]
    rate = lake["records"] / lake["seconds"]
    return [
        {"metric": "lake ingest records/s (local Dask cluster)", "value": rate, "unit": "records/s",
         "detail": f"the same {lake['records']:,} games, {lake['workers']} worker processes, cluster start and "
                   f"catalog included; one-machine ingest: {one:,.0f} records/s"},
        {"metric": "lake ingest rows/s", "value": lake["rows"] / lake["seconds"], "unit": "rows/s",
         "detail": f"{lake['rows']:,} rows written as Parquet"},
        {"metric": "lake ingest peak memory per worker", "value": lake["worker_kib"] / 1024, "unit": "MiB",
         "detail": "the busiest Dask worker's own peak (VmHWM: ru_maxrss would include the process that started it)"},
    ]


def run(quick: bool, n_games: int | None = None) -> list[dict[str, Any]]:
    """Benchmark rows: ``{"metric", "value", "unit", "detail"}``."""
    titles, toy = _titles()
    n = n_games or (QUICK_GAMES if quick else FULL_GAMES)
    with tempfile.TemporaryDirectory(prefix="gamerec-bench-") as tmp:
        corpus = Path(tmp) / "corpus"
        write_corpus(corpus, n, titles=titles, pool=10 if quick else 40)
        db = Path(tmp) / "bench.duckdb"
        ratio_files = _first_files(corpus, RATIO_GAMES)
        code = (f"from benchmarks.ingest_speed import _child; _child({str(corpus)!r}, {str(db)!r}, {toy!r}, "
                f"{ratio_files!r})")
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            return [{"metric": "ingest", "value": "failed", "unit": "", "detail": tail}]
        m = json.loads(proc.stdout.strip().splitlines()[-1])
    what = f"{m['records']:,} games ({', '.join(titles)}), {m['workers']} workers"
    secs = m["seconds"]
    return [*_ratio_rows(m["ratio"], titles), *_lake_rows(m.get("lake"), m["ratio"]),
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
