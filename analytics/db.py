"""Connections for readers (stats, dashboard, export).

Readers never open the ingest's database file: while an ingest writes, DuckDB
holds an exclusive lock on it, and a reader holding it open would block the
next ingest.  Instead the ingest publishes an immutable snapshot file next to
it (``data/gamerec.snapshot.duckdb`` for ``data/gamerec.duckdb``), replaced
atomically by a rename after every publication.  :func:`connect_readonly`
opens that snapshot read-only, so any number of readers work while an ingest
runs; an open connection keeps seeing the snapshot it opened (the old file
stays readable until the connection closes), and a new connection sees the
latest one.  :func:`snapshot_version` tells a long-lived reader (the
dashboard) when to reconnect.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import duckdb

from ingest import DEFAULT_DB
from ingest.writer import snapshot_path

ALIAS = "gamerec"
"""The catalog name readers see (``current_database()``)."""

LOCK_RETRY_SECONDS = 3.0
"""How long a reader waits for a writer that holds DuckDB's file lock before giving up."""

__all__ = ["DEFAULT_DB", "LOCK_RETRY_SECONDS", "NoDatabase", "connect_readonly", "snapshot_path",
           "snapshot_version", "while_locked"]

T = TypeVar("T")


class NoDatabase(Exception):
    """There is nothing to read yet (no snapshot and no database file)."""


def _readable(db_path: Path) -> Path:
    snap = snapshot_path(db_path)
    if snap.exists():
        return snap
    if db_path.exists():
        return db_path
    raise NoDatabase(f"no gamerec database at {db_path} yet; run `gamerec ingest PATH --db {db_path}` first")


def connect_readonly(db_path: str | Path = DEFAULT_DB) -> duckdb.DuckDBPyConnection:
    """A read-only connection to the latest published snapshot of ``db_path``.

    Each call opens the snapshot current at that moment, attached read-only
    as catalog ``gamerec`` in a private in-memory DuckDB (temporary tables
    are possible, writes to the data are not).

    Falls back to the database file itself (read-only) when no snapshot
    exists (a database not written by ``gamerec ingest``).  Raises
    :class:`NoDatabase` when there is neither.
    """
    path = Path(db_path)
    try:
        # the database file itself is locked by an ingest that has not published its first
        # snapshot yet: wait a moment, looking again for a snapshot each time
        return while_locked(lambda: _attach(_readable(path)))
    except duckdb.Error as exc:
        if not is_locked(exc):
            raise NoDatabase(f"cannot open {_readable(path)} for reading: {exc}") from None
        raise NoDatabase(
            f"{path} is being written by another process and no snapshot has been published "
            "yet (an ingest just starting?); try again when it ends"
        ) from None


def is_locked(exc: BaseException) -> bool:
    """Whether a DuckDB error says another process holds the file's lock."""
    return isinstance(exc, duckdb.Error) and "lock" in str(exc).lower()


def while_locked(open_: Callable[[], T], seconds: float = LOCK_RETRY_SECONDS) -> T:
    """``open_()``, tried again with a growing pause while another process holds the DuckDB file's
    lock, for up to ``seconds``; then the lock error (and at once any other error) is raised."""
    deadline = time.monotonic() + seconds
    delay = 0.05
    while True:
        try:
            return open_()
        except duckdb.Error as exc:
            if not is_locked(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.4)


def _attach(path: Path) -> duckdb.DuckDBPyConnection:
    # A fresh in-memory instance that attaches the file, rather than
    # duckdb.connect(path): DuckDB caches one database instance per path and
    # process, so a second connect() while an older connection is open would
    # return the old (stale) snapshot instead of the newly published one.
    con = duckdb.connect()
    try:
        literal = "'" + str(path).replace("'", "''") + "'"
        con.execute(f"ATTACH {literal} AS {ALIAS} (READ_ONLY)")
        con.execute(f"USE {ALIAS}")
    except BaseException:
        con.close()
        raise
    return con


def snapshot_version(db_path: str | Path = DEFAULT_DB) -> tuple[int, int] | None:
    """An identity of the current snapshot (changes on every publication), or ``None``."""
    try:
        st = os.stat(_readable(Path(db_path)))
    except (NoDatabase, OSError):
        return None
    return (st.st_ino, st.st_mtime_ns)
