"""Read raw records (bytes, with their file and line) without parsing them.

The ingest parses and replays records in worker processes, so the parent
only splits input into records: files, directories (recursively, sorted) and
``-`` for standard input, with the same rules as
:func:`replay.record.iter_records` (``.jsonl`` holds one record per line,
``.json`` one record, ``.gz`` either of them compressed).
"""

from __future__ import annotations

import gzip
import os
import sys
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

import orjson

from replay.record import record_files

STDIN = "<stdin>"


@dataclass(slots=True)
class RawItem:
    """One record's raw text, or an error that kept a file from being read."""

    source: str
    line: int | None
    raw: bytes
    error: str | None = None
    done_bytes: int = 0
    """Input bytes consumed so far over all files (for progress)."""


class MissingPath(Exception):
    """A path given on the command line does not exist."""


def expand(paths: Iterable[str]) -> list[str]:
    """The record files behind ``paths`` (``-`` kept as is); raises :class:`MissingPath`."""
    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        path = Path(p)
        if not path.exists():
            raise MissingPath(f"no such file or directory: {p}")
        out.extend(str(f) for f in record_files(path))
    return out


def total_bytes(files: Iterable[str]) -> int | None:
    """Sum of the files' sizes on disk (``None`` if standard input is among them)."""
    total = 0
    for f in files:
        if f == "-":
            return None
        try:
            total += os.path.getsize(f)
        except OSError:
            pass
    return total


def iter_raw(files: Iterable[str], stdin: IO[bytes] | None = None) -> Iterator[RawItem]:
    """Every raw record of ``files`` (as returned by :func:`expand`), in order."""
    done = 0
    for f in files:
        if f == "-":
            for item in _iter_stream(stdin if stdin is not None else sys.stdin.buffer):
                item.done_bytes = done
                yield item
            continue
        size = 0
        for item in _iter_file(f):
            size = max(size, item.done_bytes)
            item.done_bytes += done
            yield item
        try:
            done += os.path.getsize(f)
        except OSError:
            done += size


def _pos(fh: IO[bytes]) -> int:
    """How far into the file on disk reading has got (compressed bytes for ``.gz``)."""
    try:
        return fh.tell()
    except (OSError, ValueError):
        return 0


def _iter_file(name: str) -> Iterator[RawItem]:
    try:
        disk = open(name, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        yield RawItem(name, None, b"", f"{name}: cannot open: {exc.strerror}")
        return
    with disk:
        fh: IO[bytes] = (
            cast(IO[bytes], gzip.GzipFile(fileobj=disk, mode="rb")) if name.endswith(".gz") else disk
        )
        line = 0
        try:
            if name.endswith((".jsonl", ".jsonl.gz")):
                for line, text in enumerate(fh, start=1):  # noqa: B007 - line is used after the loop
                    if text.strip():
                        yield RawItem(name, line, text.rstrip(b"\r\n"), done_bytes=_pos(disk))
            else:
                line = 1
                yield RawItem(name, 1, fh.read(), done_bytes=_pos(disk))
        except (OSError, EOFError, zlib.error) as exc:
            reason = "corrupt or truncated gzip data" if name.endswith(".gz") else "read error"
            where = f"{name}:{line + 1}" if line else name
            yield RawItem(name, line + 1 if line else None, b"", f"{where}: {reason} ({exc})",
                          done_bytes=_pos(disk))


def _iter_stream(fh: IO[bytes]) -> Iterator[RawItem]:
    """Standard input: JSONL, or one (possibly pretty-printed) JSON record."""
    first = b""
    n = 0
    for text in fh:
        n += 1
        if text.strip():
            first = text
            break
    if not first:
        return
    try:
        orjson.loads(first)
        single_line = True
    except orjson.JSONDecodeError:
        single_line = False
    if not single_line:
        yield RawItem(STDIN, n, first + fh.read())
        return
    yield RawItem(STDIN, n, first.rstrip(b"\r\n"))
    for k, text in enumerate(fh, start=n + 1):
        if text.strip():
            yield RawItem(STDIN, k, text.rstrip(b"\r\n"))
