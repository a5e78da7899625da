"""The lake's scaling run: N simulated games end to end into a fresh lake on a local Dask cluster.

::

    python -m benchmarks.lake_scaling 20000 --lake /tmp/scale --workers 2,1

writes a corpus of ``N`` games the way ``gamerec bench`` does
(:func:`benchmarks.ingest_speed.write_corpus`: a pool of simulated games of every title,
or of the ``--titles`` given, copied under fresh ids, 1,000 records per ``.jsonl.gz`` file, so one file is
one shard), then ingests it with each worker count in turn, in this one
process, into ``LAKE/w<W>`` (which must not exist yet), and prints for each:
wall seconds, records/s and rows/s, the CPU seconds the tasks used (summed
over the workers: on a shared machine the CPU per record is the figure that
does not move with other people's load), the peak memory (``ru_maxrss``) of
the busiest worker process and of this client process (which also runs the
local Dask scheduler and builds the catalog), the lake's size on disk, and the
load average around the run.  The speed-up is the wall-clock ratio of the
smallest worker count to the others.

The corpus is written by a separate process (so the client's peak is the
ingest's own) under ``LAKE/corpus``, and reused when it already holds ``N``
records (``--corpus`` puts it elsewhere).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.ingest_speed import write_corpus


def _corpus(folder: Path, n: int, titles: list[str] | None = None) -> list[str]:
    mark = folder / "corpus.json"
    if mark.exists() and json.loads(mark.read_text()).get("records") == n and (
            json.loads(mark.read_text()).get("titles") == titles):
        return sorted(str(f) for f in folder.glob("*.jsonl.gz"))
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    proc = ctx.Process(target=write_corpus, args=(folder, n), kwargs={"titles": titles})
    t0 = time.perf_counter()
    proc.start()
    proc.join()
    if proc.exitcode != 0:
        sys.exit(f"writing the corpus under {folder} failed (exit {proc.exitcode})")
    mark.write_text(json.dumps({"records": n, "titles": titles, "seconds": round(time.perf_counter() - t0, 1)}))
    return sorted(str(f) for f in folder.glob("*.jsonl.gz"))


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def measure(files: list[str], lake: Path, workers: int) -> dict[str, Any]:
    """One fresh lake ingest with ``workers`` local worker processes: its figures."""
    from ingest.lake import ingest_lake

    if lake.exists():
        sys.exit(f"{lake} exists; the scaling run needs a fresh lake")
    load0 = os.getloadavg()[0]
    s = ingest_lake(files, str(lake), workers=workers)
    rows = sum(s.rows.values())
    return {
        "workers": workers, "records": s.records, "seconds": round(s.seconds, 1),
        "records_per_s": round(s.records / s.seconds, 1), "rows": rows, "rows_per_s": round(rows / s.seconds),
        "worker_cpu_s": round(s.worker_cpu, 1),
        "records_per_worker_cpu_s": round(s.records / s.worker_cpu, 1) if s.worker_cpu else None,
        "worker_peak_mib": round(s.worker_kib / 1024), "client_peak_mib": round(_maxrss_mib()),
        "lake_mib": round(_size(lake) / 2**20, 1), "load": [round(load0, 1), round(os.getloadavg()[0], 1)],
        "statuses": s.statuses,
    }


def _maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.lake_scaling", description=__doc__.split("\n\n")[0])
    ap.add_argument("games", type=int, help="how many simulated games")
    ap.add_argument("--lake", required=True, type=Path, help="folder for the lakes (LAKE/w1, LAKE/w2, ...)")
    ap.add_argument("--workers", default="1", help="worker counts to run in turn, e.g. 2,1")
    ap.add_argument("--corpus", type=Path, default=None, help="where the corpus goes (default LAKE/corpus)")
    ap.add_argument("--titles", default=None,
                    help="titles of the corpus, comma-separated (default: every installed title, in turn)")
    args = ap.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",") if w.strip()]
    titles = [t.strip() for t in args.titles.split(",") if t.strip()] if args.titles else None
    files = _corpus(args.corpus or args.lake / "corpus", args.games, titles)
    print(json.dumps({"corpus_files": len(files), "games": args.games, "titles": titles or "all"}), flush=True)
    results = []
    for w in counts:
        r = measure(files, args.lake / f"w{w}", w)
        results.append(r)
        print(json.dumps(r), flush=True)
    if len(results) > 1:
        base = min(results, key=lambda r: r["workers"])
        for r in (r for r in results if r is not base):
            print(f"wall speed-up {base['workers']} -> {r['workers']} workers: "
                  f"{base['seconds'] / r['seconds']:.2f}x "
                  f"(CPU per record {r['worker_cpu_s'] / base['worker_cpu_s']:.2f}x)", flush=True)


if __name__ == "__main__":
    main()
