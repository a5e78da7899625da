"""Import figures for ``gamerec bench``: BGA logs/s and packets/s, and import + replay against replay.

The corpus is every saved log under ``$GAMEREC_BGA_LOGS`` (default:
``../shared/bga-logs``, the project's test logs) whose title has an importer,
grouped by title.  The files are read into memory first; each figure is CPU
time (``time.process_time``) on one core, the best of several runs, the
sides of a title taken in turn within this one process (a busy machine slows
all of them, if not quite alike: Pax Pamir's import, which reads much more
JSON than its replay, loses more; see ``docs/bga-import.md``).

The goal compares the same replay on both sides, the one ``gamerec verify``
makes (no frames kept):

* **import + replay**: what ``gamerec verify LOG`` does with a saved log
  once it has its text: read the envelope and the table file, import -
  which drives our engine through the game and, in that same run, replays
  the record, checking every one of BGA's observations and the result
  (:func:`ingest.bga.convert.replay_log`, the very function ``ingest``'s
  worker calls) - and write the record's JSON;
* **replay**: what ``gamerec verify RECORD`` does with the resulting record:
  decode and validate it, and replay it;
* **import + replay / replay**, per title: the cost of starting from a BGA
  log rather than from the record (the goal is at most 2x).

Each title's detail also gives the pair as ``gamerec ingest`` makes it,
keeping a frame per event on both sides (its worker's ``replay_log`` for
the log, ``replay`` with frames for the record), and that ratio.

Both sides start from the same form, the file's JSON text: the log's as
``verify`` and ``ingest`` hand it on (their reader gunzips a ``.json.gz``
first: :func:`replay.record.iter_raw`), the record's as its file holds it.
The gunzip of the saved logs is timed apart and shown in each title's
detail, with the ratio it would make if the import paid it.
"""

from __future__ import annotations

import gzip
import os
import time
from collections.abc import Callable
from functools import partial
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


Log = tuple[str, bytes, str | None, bytes]
"""A saved log in memory: its name, its JSON text (as ``ingest``'s reader hands it to a worker), its
table file's path (if any), and the file's bytes as saved (gzip data for a ``.json.gz``)."""


def _load(folder: Path) -> dict[str, list[tuple[Log, bytes, int]]]:
    """Title -> (log, its record's JSON, packets) of every log under ``folder`` that imports."""
    out: dict[str, list[tuple[Log, bytes, int]]] = {}
    for f in log_files([str(folder)]):
        saved = f.read_bytes()
        tpath = companion_table(f)
        log: Log = (str(f), _gunzip(saved), str(tpath) if tpath is not None else None, saved)
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


def _gunzip(saved: bytes) -> bytes:
    """A saved file's JSON text (gunzipped when it is gzip data, as ``ingest``'s reader does)."""
    return gzip.decompress(saved) if saved[:2] == b"\x1f\x8b" else saved


def _import(log: Log, keep_frames: bool = True) -> tuple[bytes, Replay] | None:
    """One log as ``verify`` (``keep_frames=False``) or ``ingest``'s worker imports and replays it:
    the record's JSON and its replay."""
    name, text, table, _ = log
    return replay_log(name, 1, text, table or "", keep_frames=keep_frames)


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

        def do_import(logs: list[Log] = logs, keep_frames: bool = False) -> None:
            for log in logs:
                _import(log, keep_frames)

        def do_replay(blobs: list[bytes] = blobs, keep_frames: bool = False) -> None:
            for blob in blobs:
                replay(loads(blob), keep_frames=keep_frames)

        def do_gunzip(logs: list[Log] = logs) -> None:
            for log in logs:
                _gunzip(log[3])

        t_import, t_replay, t_ingest_log, t_ingest_record, t_gunzip = _best_interleaved(
            (do_import, do_replay, partial(do_import, keep_frames=True), partial(do_replay, keep_frames=True),
             do_gunzip), runs)
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
                      f"{packets:,} packets; CPU as verify: import + replay {_ms(t_import)}, replay {_ms(t_replay)}; "
                      f"as ingest (frames kept): {_ms(t_ingest_log)} / {_ms(t_ingest_record)} = "
                      f"{t_ingest_log / t_ingest_record:.2f}x; the reader's gunzip {t_gunzip * 1000:,.1f} ms "
                      f"(with it {(t_import + t_gunzip) / t_replay:.2f}x)"})
    detail = (f"{_logs(n_logs)} ({', '.join(corpus)}), {n_packets:,} packets; CPU time, best of {runs} runs, "
              "both from JSON text; import + replay as verify does it (envelope, one engine run that "
              "replays the record and checks BGA's observations, record JSON)")
    return [
        {"metric": "BGA import", "value": n_logs / total_import, "unit": "logs/s", "detail": detail},
        {"metric": "BGA import", "value": n_packets / total_import, "unit": "packets/s", "detail": "same runs"},
        {"metric": "replay of the imported records", "value": n_logs / total_replay, "unit": "records/s",
         "detail": "decode + validate + replay (as verify)"},
        *per_game,
        {"metric": "import + replay / replay: all", "value": total_import / total_replay,
         "unit": "x", "detail": f"goal at most {GOAL:g}x per title: met for {met} of {len(per_game)}"},
    ]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def _logs(n: int) -> str:
    return f"{n} log" + ("" if n == 1 else "s")


def _best_interleaved(fns: tuple[Callable[[], None], ...], runs: int) -> tuple[float, ...]:
    """The best CPU time of each of ``fns`` over ``runs`` runs, taken in turn."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, took in zip(fns, times):
            t = time.process_time()
            fn()
            took.append(time.process_time() - t)
    return tuple(min(took) for took in times)
