"""One version of gamerec replaying benchmark corpora, in a process of its own.

``gamerec bench --against REV`` starts this file twice: once with ``PYTHONPATH`` on a
copy of revision ``REV`` exported from git, once on the running version's own tree, and
alternates their timed runs (see :func:`benchmarks.replay_speed.against`).  So the file imports
nothing from ``replay`` at its top: the ``replay`` it uses is whichever version its
``PYTHONPATH`` names, and it only uses what every version since the bench's pass-heavy
corpus has had: ``replay.record.loads`` and ``replay.replayer.replay`` (its ``status``,
``score`` and ``ranking``).  It is started with ``python -P`` so that the folder this
file sits in is not put on ``sys.path`` ahead of that version.

Protocol: one JSON object a line on stdin, one answer a line on stdout.

- ``{"cmd": "load", "name": N, "path": P}``: read corpus ``N`` (records as a 4-byte
  big-endian length and the record's bytes, one after another), replay each once and
  answer ``{"ends": [...]}``: per record, how its replay ended (status, final score and
  ranking, as one string), or the engine's error.
- ``{"cmd": "keep", "name": N, "indices": [...]}``: time only those records from now on.
- ``{"cmd": "time", "name": N, "slice": [A, B]}``: decode and replay the kept records ``A`` to
  ``B - 1`` once (each result dropped as verify drops it; all of them without ``slice``); answer
  ``{"seconds": S}``, the CPU time of this process.
- ``{"cmd": "quit"}``.
"""

from __future__ import annotations

import json
import struct
import sys
import time
from typing import Any


def read_blobs(path: str) -> list[bytes]:
    """The records of a corpus file written by :func:`benchmarks.replay_speed.write_blobs`."""
    with open(path, "rb") as fh:
        data = fh.read()
    out, at = [], 0
    while at < len(data):
        (size,) = struct.unpack_from(">I", data, at)
        out.append(data[at + 4: at + 4 + size])
        at += 4 + size
    return out


def _end(blob: bytes) -> str:
    from replay.record import loads
    from replay.replayer import replay

    try:
        r = replay(loads(blob))
    except Exception as exc:  # an old engine may refuse what a newer simulator plays
        return f"error: {type(exc).__name__}: {exc}"
    return json.dumps([r.status, r.score, r.ranking], sort_keys=True, default=str)


def main() -> None:
    from replay.record import loads
    from replay.replayer import replay

    corpora: dict[str, list[bytes]] = {}
    for line in sys.stdin:
        cmd: dict[str, Any] = json.loads(line)
        answer: dict[str, Any]
        if cmd["cmd"] == "quit":
            break
        if cmd["cmd"] == "load":
            corpora[cmd["name"]] = read_blobs(cmd["path"])
            answer = {"ends": [_end(b) for b in corpora[cmd["name"]]]}
        elif cmd["cmd"] == "keep":
            blobs = corpora[cmd["name"]]
            corpora[cmd["name"]] = [blobs[i] for i in cmd["indices"]]
            answer = {"kept": len(corpora[cmd["name"]])}
        elif cmd["cmd"] == "time":
            blobs = corpora[cmd["name"]]
            if "slice" in cmd:
                blobs = blobs[cmd["slice"][0]:cmd["slice"][1]]
            t0 = time.process_time()
            for b in blobs:
                replay(loads(b))
            answer = {"seconds": time.process_time() - t0}
        else:
            answer = {"error": f"unknown command {cmd['cmd']!r}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
