"""Import figures for ``gamerec bench``: BGA logs/s and packets/s, and import + replay against replay.

The corpus is every saved log under ``$GAMEREC_BGA_LOGS`` (default:
``../shared/bga-logs``, the project's test logs) whose title has an importer.
Each figure is the median of several runs over the whole corpus, on one core,
the files already in memory:

* **import**: decompress, decode, read the envelope, import (which drives our
  engine through the game) and write the record's JSON;
* **replay**: decode and validate the resulting record and replay it (what
  ``verify`` does);
* **import + replay / replay**: the cost of starting from a BGA log rather
  than from a record (the goal is at most 2x).
"""

from __future__ import annotations

import gzip
import os
import statistics
import time
from pathlib import Path
from typing import Any

import orjson

from ingest.bga.convert import import_log, log_files
from ingest.bga.errors import BgaImportError
from ingest.bga.log import attach_table, companion_table, decode, parse_log, read_table_file
from replay.record import dumps, loads
from replay.replayer import replay

CANDIDATES = ("../shared/bga-logs", "/work/shared/bga-logs")


def logs_dir() -> Path | None:
    env = os.environ.get("GAMEREC_BGA_LOGS")
    for cand in ([env] if env else []) + list(CANDIDATES):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


def _load(folder: Path) -> list[tuple[str, bytes, Any]]:
    """(name, file bytes, table info) of every log that imports."""
    out = []
    for f in log_files([str(folder)]):
        raw = f.read_bytes()
        tpath = companion_table(f)
        table = read_table_file(tpath) if tpath is not None else None
        try:
            _import(str(f), raw, table)
        except BgaImportError:
            continue  # a title without importer yet, or a log it refuses: not part of the figures
        out.append((str(f), raw, table))
    return out


def _import(name: str, raw: bytes, table: Any) -> tuple[bytes, int]:
    data = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    log = parse_log(decode(data, name), name)
    if table is not None:
        attach_table(log, table)
    rec = import_log(log).record
    return dumps(rec), len(log.packets)


def run(quick: bool, runs: int | None = None) -> list[dict[str, Any]]:
    folder = logs_dir()
    if folder is None:
        return [{"metric": "BGA import", "value": "n/a", "unit": "",
                 "detail": "no BGA logs found (set GAMEREC_BGA_LOGS to a folder of saved logs)"}]
    logs = _load(folder)
    if not logs:
        return [{"metric": "BGA import", "value": "n/a", "unit": "", "detail": f"no importable log in {folder}"}]
    runs = runs or (3 if quick else 7)
    records: list[bytes] = []
    packets = 0
    for name, raw, table in logs:
        blob, n = _import(name, raw, table)
        records.append(blob)
        packets += n
    events = sum(len(orjson.loads(r)["events"]) for r in records)

    def do_import() -> None:
        for name, raw, table in logs:
            _import(name, raw, table)

    def do_replay() -> None:
        for blob in records:
            replay(loads(blob), keep_frames=False)

    t_import = _median(do_import, runs)
    t_replay = _median(do_replay, runs)
    titles = sorted({orjson.loads(r)["game"] for r in records})
    detail = f"{len(logs)} logs ({', '.join(titles)}), {packets:,} packets, {events:,} events; median of {runs}"
    return [
        {"metric": "BGA import", "value": len(logs) / t_import, "unit": "logs/s", "detail": detail},
        {"metric": "BGA import", "value": packets / t_import, "unit": "packets/s", "detail": "same runs"},
        {"metric": "replay of the imported records", "value": len(logs) / t_replay, "unit": "records/s",
         "detail": "decode + validate + replay (as verify)"},
        {"metric": "import + replay / replay", "value": (t_import + t_replay) / t_replay, "unit": "x",
         "detail": "goal: at most 2x"},
    ]


def _median(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)
