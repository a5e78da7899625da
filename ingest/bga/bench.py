"""Import figures for ``gamerec bench``: BGA logs/s and packets/s, and import + replay against replay.

The corpus is every saved log under ``$GAMEREC_BGA_LOGS`` (default:
``../shared/bga-logs``, the project's test logs) whose title has an importer,
grouped by title.  The files are read into memory first; each figure is CPU
time (``time.process_time``) on one core, the best of several runs, the two
sides of a title taken in turn within this one process (so a busy machine
slows both alike):

* **import + replay**, as ``gamerec ingest``'s worker does it for a log, up
  to the rows: gunzip, read the envelope and the table file, import - which
  drives our engine through the game and, in that same run, keeps the
  record's replay with a frame per event, checks every one of BGA's
  observations and the result (:func:`ingest.bga.convert.replay_log`, the
  very function the worker calls) - and write the record's JSON.  (A real
  ``ingest`` gunzips in its reader; here the worker's side pays for it.)
* **replay**: decode and validate the resulting record and replay it, as
  ``verify`` does with a record (no frames).
* **import + replay / replay**, per title: the cost of starting from a BGA
  log rather than from the record (the goal is at most 2x).
"""

from __future__ import annotations

import gzip
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ingest.bga.convert import log_files, replay_log
from ingest.bga.errors import BgaImportError
from ingest.bga.log import companion_table, read_log
from replay.record import loads
from replay.replayer import Replay, replay

CANDIDATES = ("../shared/bga-logs", "/work/shared/bga-logs")
GOAL = 2.0
"""Importing a log and replaying it costs at most this many times replaying its record."""


def logs_dir() -> Path | None:
    env = os.environ.get("GAMEREC_BGA_LOGS")
    for cand in ([env] if env else []) + list(CANDIDATES):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


Log = tuple[str, bytes, str | None]
"""A saved log in memory: its name, the file's bytes (gzip as saved), its table file's path (if any)."""


def _load(folder: Path) -> dict[str, list[tuple[Log, bytes, int]]]:
    """Title -> (log, its record's JSON, packets) of every log under ``folder`` that imports."""
    out: dict[str, list[tuple[Log, bytes, int]]] = {}
    for f in log_files([str(folder)]):
        raw = f.read_bytes()
        tpath = companion_table(f)
        log: Log = (str(f), raw, str(tpath) if tpath is not None else None)
        try:
            parsed = read_log(f)
        except BgaImportError:
            continue  # a title without importer yet, or a log it refuses: not part of the figures
        packets = len(parsed.packets)
        got = _import(log)
        if got is None or got[1].record is None:
            continue
        out.setdefault(got[1].record.game, []).append((log, got[0], packets))
    return dict(sorted(out.items()))


def _import(log: Log) -> tuple[bytes, Replay] | None:
    """One log as ``ingest``'s worker imports and replays it: the record's JSON and its replay."""
    name, raw, table = log
    return replay_log(name, 1, gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw, table or "")


def run(quick: bool, runs: int | None = None) -> list[dict[str, Any]]:
    folder = logs_dir()
    if folder is None:
        return [{"metric": "BGA import", "value": "n/a", "unit": "",
                 "detail": "no BGA logs found (set GAMEREC_BGA_LOGS to a folder of saved logs)"}]
    corpus = _load(folder)
    if not corpus:
        return [{"metric": "BGA import", "value": "n/a", "unit": "", "detail": f"no importable log in {folder}"}]
    runs = runs or (5 if quick else 9)  # a few seconds a run: enough runs for the best to be steady
    per_game: list[dict[str, Any]] = []
    total_import = total_replay = 0.0
    n_logs = n_packets = 0
    met = 0
    for game, items in corpus.items():
        logs = [log for log, _, _ in items]
        blobs = [blob for _, blob, _ in items]

        def do_import(logs: list[Log] = logs) -> None:
            for log in logs:
                _import(log)

        def do_replay(blobs: list[bytes] = blobs) -> None:
            for blob in blobs:
                replay(loads(blob), keep_frames=False)

        t_import, t_replay = _best_interleaved(do_import, do_replay, runs)
        ratio = t_import / t_replay  # the import's own engine run is the replay
        met += ratio <= GOAL
        total_import += t_import
        total_replay += t_replay
        n_logs += len(items)
        packets = sum(p for _, _, p in items)
        n_packets += packets
        per_game.append({
            "metric": f"import + replay / replay: {game}", "value": ratio, "unit": "x",
            "detail": f"goal at most {GOAL:g}x: {'met' if ratio <= GOAL else 'NOT met'}; {_logs(len(items))}, "
                      f"{packets:,} packets; CPU import + replay {t_import * 1000:,.0f} ms, replay {t_replay * 1000:,.0f} ms"})
    detail = (f"{_logs(n_logs)} ({', '.join(corpus)}), {n_packets:,} packets; CPU time, best of {runs} runs, "
              "import + replay as ingest's worker does it (gunzip, envelope, one engine run keeping the "
              "replay's frames and checks, record JSON)")
    return [
        {"metric": "BGA import", "value": n_logs / total_import, "unit": "logs/s", "detail": detail},
        {"metric": "BGA import", "value": n_packets / total_import, "unit": "packets/s", "detail": "same runs"},
        {"metric": "replay of the imported records", "value": n_logs / total_replay, "unit": "records/s",
         "detail": "decode + validate + replay (as verify)"},
        *per_game,
        {"metric": "import + replay / replay: all", "value": total_import / total_replay,
         "unit": "x", "detail": f"goal at most {GOAL:g}x per title: met for {met} of {len(per_game)}"},
    ]


def _logs(n: int) -> str:
    return f"{n} log" + ("" if n == 1 else "s")


def _best_interleaved(a: Callable[[], None], b: Callable[[], None], runs: int) -> tuple[float, float]:
    """The best CPU time of ``a`` and of ``b`` over ``runs`` runs, taken in turn."""
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(runs):
        for fn, times in ((a, ta), (b, tb)):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
    return min(ta), min(tb)
