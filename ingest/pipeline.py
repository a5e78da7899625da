"""The ingest pipeline: read -> (workers) parse, replay, build columns -> write.

The parent process reads raw records, groups them into batches, drops the
ones whose content hash is already in the database, and hands each batch to
a worker process; the workers return Arrow tables; the parent writes the
batches **in input order**, one transaction each.  At most ``2 x workers``
batches are in flight, so memory stays bounded whatever the input size.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import duckdb

from ingest import milestones
from ingest.bga.convert import bga_items
from ingest.rows import Batch, Job, Outcome, build_batch, raw_sha256
from ingest.sources import expand
from ingest.writer import Counts, Database, IngestError, snapshot_path, utcnow
from replay.record import RawItem, iter_raw
from replay.replayer import INVALID

DEFAULT_DB = Path("data") / "gamerec.duckdb"
BATCH_RECORDS = 500
BATCH_BYTES = 4 << 20


@dataclass
class Summary:
    """What one ingest run did."""

    db: Path
    snapshot: Path
    run_id: int
    files: int
    counts: Counts
    seconds: float
    publishes: int
    table_rows: dict[str, int] = field(default_factory=dict)
    """Rows per table in the whole database after the run."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds the parent spent reading, waiting for workers, writing and publishing."""
    conflicts: list[str] = field(default_factory=list)
    """The first few records refused because their id named other content earlier in the run."""

    @property
    def records_per_second(self) -> float:
        return self.counts.records / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int, int], None]
"""``progress(records_read, bytes_done)`` after every written batch."""


def _batches(items: Iterator[RawItem], records: int, size: int) -> Iterator[list[RawItem]]:
    batch: list[RawItem] = []
    nbytes = 0
    for it in items:
        batch.append(it)
        nbytes += len(it.raw)
        if len(batch) >= records or nbytes >= size:
            yield batch
            batch, nbytes = [], 0
    if batch:
        yield batch


def usable_cpus() -> int:
    """The cores this process may run on (respects affinity masks and container CPU sets)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _changes(db: Database) -> tuple[int, ...]:
    """What readers would see change: written games and new quarantine rows."""
    c = db.counts
    return (c.new, c.replaced, c.quarantined_new)


def _worker_init() -> None:
    # Ctrl-C is the parent's business: it stops the pool and closes the run cleanly.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _make_pool(workers: int) -> Any:
    methods = multiprocessing.get_all_start_methods()
    # fork keeps games registered at run time (tests' toy game) visible to workers; it
    # happens before the database, threads or progress display exist in this process.
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ctx.Pool(workers, initializer=_worker_init)


class _Inline:
    """Stands in for a pool when ``workers == 0`` (everything in this process)."""

    class _Done:
        def __init__(self, value: Batch) -> None:
            self.value = value

        def get(self) -> Batch:
            return self.value

    def apply_async(self, fn: Callable[[Job], Batch], args: tuple[Job]) -> _Inline._Done:
        return self._Done(fn(*args))

    def close(self) -> None:
        pass

    def join(self) -> None:
        pass

    def terminate(self) -> None:
        pass


def ingest(
    paths: Sequence[str],
    db_path: str | Path = DEFAULT_DB,
    *,
    workers: int | None = None,
    batch_records: int = BATCH_RECORDS,
    batch_bytes: int = BATCH_BYTES,
    publish_every: float = 10.0,
    progress: Progress | None = None,
    stdin: IO[bytes] | None = None,
    memory_limit: str | None = "1GB",
    ruleset: str | None = None,
) -> Summary:
    """Ingest every record under ``paths`` into ``db_path``; see the module docstring.

    BGA logs among the records are imported on the fly (``ingest.bga``); a
    log that cannot be imported is quarantined with its one-line reason.
    ``ruleset`` overrides every record's ``options.ruleset``.

    Raises :class:`IngestError` (or :class:`ingest.sources.MissingPath`) for
    problems that stop the run before or while it writes.
    """
    t0 = time.perf_counter()
    files = expand(paths)
    n_workers = usable_cpus() if workers is None else max(0, workers)
    pool = _make_pool(n_workers) if n_workers > 0 else _Inline()
    db: Database | None = None
    status = "failed"
    timings: dict[str, float] = {}
    published: tuple[int, ...] = (0, 0, 0)  # nothing written yet
    publishes = 0
    try:
        db = Database(db_path, memory_limit=memory_limit)
        db.start_run(list(paths), sum(1 for f in files if f != "-"))
        if not snapshot_path(db.path).exists():
            db.publish()
            publishes += 1
        max_inflight = max(2, 2 * n_workers)
        inflight: deque[tuple[Any, list[Outcome], tuple[int, list[tuple[str, str, str, int | None]]], Any]]
        inflight = deque()
        last_publish = time.monotonic()
        publish_cost = 0.0
        tables = list(milestones.MILESTONE_TABLES)
        ordinal = 0
        timings = {"read": 0.0, "wait": 0.0, "write": 0.0, "publish": 0.0}

        def drain_one() -> None:
            nonlocal last_publish, publish_cost, publishes, published
            assert db is not None
            pending, read_errors, (skipped, present), done = inflight.popleft()
            t = time.perf_counter()
            batch: Batch = pending.get()
            timings["wait"] += time.perf_counter() - t
            if read_errors:
                batch.outcomes = sorted(batch.outcomes + read_errors, key=lambda o: o.ordinal)
            db.count_skipped(skipped, present)
            if batch.outcomes:  # a batch of skipped records only needs no transaction
                t = time.perf_counter()
                db.write(batch, utcnow())
                timings["write"] += time.perf_counter() - t
            if progress is not None:
                progress(db.counts.records, done)
            now = time.monotonic()
            # publish at most every `publish_every` seconds, and never spend more than
            # about a seventh of the run copying snapshots
            if (_changes(db) != published and publish_every >= 0
                    and now - last_publish >= max(publish_every, 6 * publish_cost)):
                publish_cost = db.publish()
                timings["publish"] += publish_cost
                publishes += 1
                published = _changes(db)
                last_publish = time.monotonic()

        reader = _batches(bga_items(iter_raw(files, stdin)), batch_records, batch_bytes)
        while True:
            t = time.perf_counter()
            raw_batch = next(reader, None)
            if raw_batch is None:
                break
            read_errors: list[Outcome] = []
            work: list[tuple[int, str, int | None, bytes]] = []
            hashes: list[str] = []
            for it in raw_batch:
                sha = raw_sha256(it.raw)
                if it.error is not None:
                    read_errors.append(Outcome(ordinal, it.source, it.line, sha, INVALID, error=str(it.error),
                                               raw=it.raw))
                else:
                    work.append((ordinal, it.source, it.line, it.raw))
                    hashes.append(sha)
                ordinal += 1
            known = db.known_hashes(hashes)
            seen: set[str] = set()
            todo = []
            skipped = 0
            present: list[tuple[str, str, str, int | None]] = []
            for w, sha in zip(work, hashes):
                if sha in known or sha in seen:
                    skipped += 1
                    if sha in known:  # its id is taken in this run by this content
                        present.append((known[sha], sha, w[1], w[2]))
                    continue
                seen.add(sha)
                todo.append(w)
            job = Job(todo, db.run_id or 0, utcnow(), tables, ruleset)
            timings["read"] += time.perf_counter() - t
            pending = pool.apply_async(build_batch, (job,)) if todo else _Inline._Done(Batch([]))
            inflight.append((pending, read_errors, (skipped, present), raw_batch[-1].done_bytes))
            while len(inflight) >= max_inflight:
                drain_one()
        while inflight:
            drain_one()
        status = "finished"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    except (duckdb.Error, RuntimeError) as exc:
        # DuckDB turns a Ctrl-C that lands inside a query into its own error
        # (an InterruptException, or "Query interrupted" in older versions)
        if isinstance(exc, getattr(duckdb, "InterruptException", ())) or "interrupted" in str(exc).lower():
            status = "interrupted"
            raise KeyboardInterrupt from None
        if isinstance(exc, duckdb.Error):  # disk full, I/O error...: the last batch was rolled back
            raise IngestError(f"database error while writing {db_path}: {exc}; every batch committed "
                              "before it is complete, rerun to finish") from None
        raise
    finally:
        if status != "finished":
            pool.terminate()
        else:
            pool.close()
        pool.join()
        if db is not None:
            try:
                db.finish_run(status)
                # a run that changed no game and no quarantine row only brings the snapshot's
                # ingest_runs up to date (no whole copy), so readers still see this run
                if status != "failed" and (_changes(db) != published or not snapshot_path(db.path).exists()):
                    timings["publish"] += db.publish()
                    publishes += 1
                elif status != "failed":
                    timings["publish"] += db.publish_runs()
                table_rows = db.table_counts()
            finally:
                db.close()
    assert db is not None
    return Summary(db.path, snapshot_path(db.path), db.run_id or 0, len(files), db.counts,
                   time.perf_counter() - t0, publishes, table_rows, timings, db.conflict_examples)


__all__ = ["DEFAULT_DB", "IngestError", "Summary", "ingest"]
