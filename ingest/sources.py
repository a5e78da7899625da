"""What the ingest reads: the record files behind the command line's paths.

Splitting files into raw records is the replay layer's job
(:func:`replay.record.iter_raw`, the same reader ``verify`` uses); the ingest
only needs to expand its paths up front (so a missing path is an error before
anything is written) and to know the total size for its progress bar.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from replay.record import RECORD_SUFFIXES, record_files

PAGE_SUFFIXES = (".html", ".htm")
"""Saved BGA replay pages (their ``g_gamelogs`` is a log); records never end so."""


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
        if path.is_dir():
            out.extend(str(f) for f in pages(path))
    return out


def with_pages(paths: Iterable[str]) -> list[str]:
    """``paths`` as given, each folder followed by the saved BGA replay pages under it: what
    ``verify`` and ``replay`` read, the same files as :func:`expand` (which also lists each
    folder's record files, and refuses a missing path up front)."""
    out: list[str] = []
    for p in paths:
        out.append(p)
        if p != "-" and Path(p).is_dir():
            out.extend(str(f) for f in pages(Path(p)))
    return out


def pages(path: Path) -> list[Path]:
    """Saved BGA replay pages under a folder (sorted), read as logs by the ingest."""
    return sorted(f for f in path.rglob("*") if f.name.endswith(PAGE_SUFFIXES) and f.is_file()
                  and not f.name.endswith(RECORD_SUFFIXES))


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
