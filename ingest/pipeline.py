"""The ingest pipeline: read -> (workers) parse, replay, build columns -> (writer thread) write.

Three kinds of work run at the same time:

- the **reader** (this process's main thread) reads raw records, cuts them
  into small *tasks* (:data:`TASK_RECORDS` records or :data:`TASK_BYTES` of
  input), drops the records whose content hash is already in the database
  and hands each task to a worker;
- the **workers** (one process per core) parse, replay and turn each task
  into Arrow tables (:func:`ingest.rows.build_batch`);
- the **writer** (a thread of this process, :class:`_Writer`) takes the
  finished tasks **in input order**, a *batch* of them at a time (up to
  ``batch_records`` records or ``batch_bytes`` of input), and commits each
  batch in one transaction; it also publishes the snapshots readers use.

Tasks are small so that every worker has work until the very end of the
input; batches are larger so that transactions stay few.  The writer runs
beside the reader, so a transaction or a publication never keeps the reader
from feeding the workers.  At most ``4 x workers`` tasks are in flight and
at most one batch waits for the writer, so memory stays bounded whatever
the input size.

Ctrl-C stops the reader at its next step (:mod:`ingest.interrupt`); the
writer completes the transaction under way and the run is marked interrupted.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import duckdb

from ingest import DEFAULT_DB, milestones
from ingest.bga.convert import ingest_items
from ingest.interrupt import Interrupt, ignore_in_worker
from ingest.rows import Batch, Job, Outcome, build_batch, merge, prepare, raw_sha256
from ingest.sources import expand
from ingest.writer import Counts, Database, IngestError, snapshot_path, utcnow
from replay.record import RawItem, iter_raw
from replay.replayer import INVALID

BATCH_RECORDS = 2_000
BATCH_BYTES = 32 << 20
BATCH_EVENT_ROWS = 4 * 122_880
"""A batch closes once it holds this many ``events`` rows: four of DuckDB's row groups.

A transaction that appends whole row groups has them written straight to the
file; the part-filled group it leaves is rewritten at the next checkpoint.
Measured on 1,200 simulated games (about 400,000 events): batches of 180
records (4 MiB of input) cost the writer 0.4 CPU s more than batches of 730,
most of it in the checkpoints that publish the snapshots, and left a file
twice the size until then.  With four groups per batch, at most a fifth of
what a batch writes is rewritten.
"""
TASK_RECORDS = 64
TASK_BYTES = 1 << 20


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
    """Seconds spent reading (reader), waiting for workers (reader), waiting for the writer
    (reader, ``backlog``), writing and publishing (writer thread); ``start``: from the call to the
    first task handed to a worker (forking the workers, opening the database), ``end``: from the
    last task's rows to the return (the last commit, the final snapshot), the parts of a run
    that the workers do not share."""
    conflicts: list[str] = field(default_factory=list)
    """The first few records refused because their id named other content earlier in the run."""

    @property
    def records_per_second(self) -> float:
        return self.counts.records / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int, int], None]
"""``progress(records_read, bytes_done)`` after every written batch."""


def _batches(items: Iterator[tuple[RawItem, str | None]], records: int,
             size: int) -> Iterator[list[tuple[RawItem, str | None]]]:
    """Raw items (each with, for a BGA log, its table file: see :func:`ingest_items`) in tasks."""
    batch: list[tuple[RawItem, str | None]] = []
    nbytes = 0
    for pair in items:
        batch.append(pair)
        nbytes += len(pair[0].raw)
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


def _make_pool(workers: int) -> ProcessPoolExecutor:
    methods = multiprocessing.get_all_start_methods()
    # fork keeps games registered at run time (tests' toy game) visible to workers; it
    # happens before the database or the writer thread exist in this process.
    fork = "fork" in methods
    if fork:
        prepare()  # loaded once here, shared by every forked worker
        # what is loaded now lives as long as the workers: frozen, out of the collector's
        # sight, a worker's collections no longer walk every engine's rules and component
        # data (nor touch, hence copy, the pages it shares with this process)
        gc.collect()
        gc.freeze()
    ctx = multiprocessing.get_context("fork" if fork else None)
    try:
        # a worker that dies (the system's out-of-memory killer, a kill -9) breaks the pool: the
        # tasks it held fail with BrokenProcessPool instead of being waited for for ever
        pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=ignore_in_worker)
        pool.submit(_started).result()  # with fork every worker starts now, before any thread here
        return pool
    finally:
        if fork:
            gc.unfreeze()  # the workers are forked; this process collects as before


def _started() -> None:
    """A first task: it makes the pool start its workers."""


class _Inline:
    """Stands in for a pool when ``workers == 0`` (everything in this process)."""

    class _Done:
        def __init__(self, value: Batch) -> None:
            self.value = value

        def result(self) -> Batch:
            return self.value

        def done(self) -> bool:
            return True

    def submit(self, fn: Callable[[Job], Batch], job: Job) -> _Inline._Done:
        return self._Done(fn(job))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass


class _Writer(threading.Thread):
    """The single writer, on a thread of its own: one transaction per batch, and the publications.

    The reader hands it batches with :meth:`put` (at most one waits; the
    reader blocks when the writer is behind) and :meth:`finish` at the end.
    An error in the writer is raised in the reader at its next :meth:`put` or
    at :meth:`finish`.
    """

    def __init__(self, db: Database, progress: Progress | None, publish_every: float,
                 timings: dict[str, float], stop: Interrupt, *, publish_first: bool = False) -> None:
        super().__init__(name="gamerec-writer", daemon=True)
        self.db = db
        self.progress = progress
        self.publish_every = publish_every
        self.timings = timings
        self.queue: queue.Queue[tuple[list[_Task], int] | None] = queue.Queue(maxsize=1)
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.publishes = 0
        self.published: tuple[int, ...] = (0, 0, 0)  # nothing written yet
        self.last_publish = time.monotonic()
        self.publish_cost = 0.0
        self.publish_first = publish_first
        """Publish before the first batch (a database that has no snapshot yet)."""
        self.interrupt = stop
        """Checked by the reader while it waits on the writer."""

    def put(self, tasks: list[_Task], done_bytes: int) -> None:
        t = time.perf_counter()
        while True:
            self._raise()
            self.interrupt.check()
            if not self.is_alive():
                raise RuntimeError("the ingest's writer thread stopped")
            try:
                self.queue.put((tasks, done_bytes), timeout=0.1)
                break
            except queue.Full:
                continue
        self.timings["backlog"] += time.perf_counter() - t

    def finish(self, *, abandon: bool = False) -> None:
        """Write what is queued (or, ``abandon``: only finish the transaction under way) and stop."""
        if abandon:
            self.stop.set()
        while self.is_alive():
            try:
                self.queue.put(None, timeout=0.1)
                break
            except queue.Full:
                if not abandon:
                    self.interrupt.check()
        while self.is_alive():
            self.join(0.1)
            if not abandon:
                self.interrupt.check()
        if not abandon:
            self._raise()

    def _raise(self) -> None:
        if self.error is not None:
            raise self.error

    def run(self) -> None:
        try:
            if self.publish_first:
                self.publish()
            while True:
                item = self.queue.get()
                if item is None or self.stop.is_set():
                    return
                self._write(*item)
        except BaseException as exc:  # handed to the reader
            self.error = exc
            self.stop.set()

    def _write(self, tasks: list[_Task], done_bytes: int) -> None:
        db = self.db
        t = time.perf_counter()
        c = time.thread_time()
        batches = []
        for task in tasks:
            batch = task.result
            assert batch is not None  # collected before it is handed to the writer
            if task.read_errors:
                batch.outcomes = sorted(batch.outcomes + task.read_errors, key=lambda o: o.ordinal)
            db.count_skipped(task.skipped, task.present)
            batches.append(batch)
        batch = merge(batches)
        if batch.outcomes:  # a batch of skipped records only needs no transaction
            db.write(batch, utcnow())
        self.timings["write"] += time.perf_counter() - t
        self.timings["write_cpu"] += time.thread_time() - c
        if self.progress is not None:
            self.progress(db.counts.records, done_bytes)
        now = time.monotonic()
        # publish at most every `publish_every` seconds, and never spend more than
        # about a seventh of the run copying snapshots
        if (_changes(db) != self.published and self.publish_every >= 0
                and now - self.last_publish >= max(self.publish_every, 6 * self.publish_cost)):
            self.publish()

    def publish(self) -> None:
        c = time.thread_time()
        cost = self.db.publish()
        self.timings["publish_cpu"] += time.thread_time() - c
        self.publish_cost = cost
        self.timings["publish"] += cost
        self.publishes += 1
        self.published = _changes(self.db)
        self.last_publish = time.monotonic()


@dataclass(slots=True)
class _Task:
    """A few records on their way through a worker, with what the reader already knows of them."""

    pending: Any
    """The worker's result to come (a future: ``.result()`` gives the :class:`Batch`)."""
    read_errors: list[Outcome]
    skipped: int
    present: list[tuple[str, str, str, int | None]]
    """``(game_id, sha, source, line)`` of the skipped records already in the database."""
    records: int
    nbytes: int
    done_bytes: int
    first: str
    """Where its first record is (file, line): named if the task is lost with a worker."""
    result: Batch | None = None


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
    viewer: str | None = None,
) -> Summary:
    """Ingest every record under ``paths`` into ``db_path``; see the module docstring.

    BGA logs among the records are imported on the fly (``ingest.bga``); a
    log that cannot be imported is quarantined with its one-line reason.
    ``ruleset`` overrides every record's ``options.ruleset``; ``viewer`` is whose view a log holding
    every player's private channels is read as (:func:`ingest.bga.convert.import_log`).

    Raises :class:`IngestError` (or :class:`ingest.sources.MissingPath`) for
    problems that stop the run before or while it writes.
    """
    t0 = time.perf_counter()
    files = expand(paths)
    n_workers = usable_cpus() if workers is None else max(0, workers)
    pool = _make_pool(n_workers) if n_workers > 0 else _Inline()
    # from here Ctrl-C stops the run between two steps, never inside one, and not its clean-up
    stop = Interrupt()
    stop.install()
    db: Database | None = None
    writer: _Writer | None = None
    status = "failed"
    timings = {"read": 0.0, "wait": 0.0, "backlog": 0.0, "write": 0.0, "publish": 0.0,
               "write_cpu": 0.0, "publish_cpu": 0.0, "start": 0.0, "end": 0.0}
    try:
        # one DuckDB thread: the cores belong to the replay workers; a second DuckDB thread
        # mostly spins beside them (measured: a third of the writer's CPU, no faster commit)
        db = Database(db_path, memory_limit=memory_limit, threads=1 if n_workers > 0 else None)
        db.start_run(list(paths), sum(1 for f in files if f != "-"))
        had_games = db.has_games()
        # a new database is published empty at once (readers then see it, with no game yet),
        # by the writer, while the reader already feeds the workers
        writer = _Writer(db, progress, publish_every, timings, stop,
                         publish_first=not snapshot_path(db.path).exists())
        writer.start()
        max_inflight = max(4, 4 * n_workers)
        inflight: deque[_Task] = deque()
        group: list[_Task] = []
        group_records = group_bytes = group_events = 0
        tables = list(milestones.MILESTONE_TABLES)
        ordinal = 0

        def collect_one(flush: bool = False) -> None:
            """Wait for the oldest task; hand a full batch of finished tasks (or, ``flush``, any) to the writer."""
            nonlocal group, group_records, group_bytes, group_events
            assert writer is not None
            task = inflight[0]  # left in place until its result is in (see BrokenProcessPool below)
            t = time.perf_counter()
            while not task.pending.done():
                stop.check()
                futures.wait([task.pending], timeout=0.1)
            task.result = task.pending.result()
            inflight.popleft()
            task.pending = None
            timings["wait"] += time.perf_counter() - t
            group.append(task)
            group_records += task.records
            group_bytes += task.nbytes
            events = task.result.tables.get("events")
            group_events += events.num_rows if events is not None else 0
            if (flush or group_records >= batch_records or group_bytes >= batch_bytes
                    or group_events >= BATCH_EVENT_ROWS):
                writer.put(group, task.done_bytes)
                group, group_records, group_bytes, group_events = [], 0, 0, 0

        # BGA logs go to the workers as they are (each imported and replayed there, in one engine run)
        reader = _batches(ingest_items(iter_raw(files, stdin)), min(batch_records, TASK_RECORDS),
                          min(batch_bytes, TASK_BYTES))
        while True:
            t = time.perf_counter()
            with stop.raising():  # reading may wait on a pipe for ever: Ctrl-C stops it there too
                raw_batch = next(reader, None)
            if raw_batch is None:
                break
            read_errors: list[Outcome] = []
            work: list[tuple[int, str, int | None, bytes]] = []
            hashes: list[str] = []
            logs: dict[int, str] = {}  # ordinal -> table file ("": none) of the BGA logs
            for it, table in raw_batch:
                if table is not None:
                    logs[ordinal] = table
                sha = raw_sha256(it.raw)
                if it.error is not None:
                    read_errors.append(Outcome(ordinal, it.source, it.line, sha, INVALID, error=str(it.error),
                                               raw=it.raw))
                else:
                    work.append((ordinal, it.source, it.line, it.raw))
                    hashes.append(sha)
                ordinal += 1
            # an empty database at the start knows no hash: a record repeated within the run is
            # recognised by the writer (same id, same hash: skipped), with the same counts
            known = db.known_hashes(hashes) if had_games else {}
            # a BGA log's record depends on its table file too: the same log beside another table
            # file is another record (and the writer skips a repeated record: same id, same hash)
            seen: set[tuple[str, str | None]] = set()
            todo = []
            skipped = 0
            present: list[tuple[str, str, str, int | None]] = []
            for w, sha in zip(work, hashes):
                key = (sha, logs.get(w[0]))
                if sha in known or key in seen:
                    skipped += 1
                    if sha in known:  # its id is taken in this run by this content
                        present.append((known[sha], sha, w[1], w[2]))
                    continue
                seen.add(key)
                todo.append(w)
            job = Job(todo, db.run_id or 0, utcnow(), tables, ruleset,
                      {w[0]: logs[w[0]] for w in todo if w[0] in logs}, viewer)
            timings["read"] += time.perf_counter() - t
            head = raw_batch[0][0]
            first = head.source + (f" line {head.line}" if head.line is not None else "")
            pending = pool.submit(build_batch, job) if todo else _Inline._Done(Batch([]))
            if not timings["start"]:
                timings["start"] = time.perf_counter() - t0
            inflight.append(_Task(pending, read_errors, skipped, present, len(raw_batch),
                                  sum(len(it.raw) for it, _ in raw_batch), raw_batch[-1][0].done_bytes, first))
            while len(inflight) >= max_inflight:
                collect_one()
        # all the input is read: what is finished goes to the writer now, and each task still under
        # way as soon as it is done, so the writer commits while the last tasks replay and little
        # is left to write once the workers have finished
        if group:
            writer.put(group, group[-1].done_bytes)
            group, group_records, group_bytes, group_events = [], 0, 0, 0
        while inflight:
            collect_one(flush=True)
        t_end = time.perf_counter()
        writer.finish()
        status = "finished"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    except BrokenProcessPool:  # the tasks in flight are lost with it
        lost = inflight[0].first if inflight else first
        raise IngestError(f"a replay worker stopped abruptly (killed, perhaps by the system for lack of memory) "
                          f"while the records from {lost} on were replayed; every batch committed is complete, "
                          "rerun to finish") from None
    except duckdb.Error as exc:  # disk full, I/O error...: the last batch was rolled back
        raise IngestError(f"database error while writing {db_path}: {exc}; every batch committed "
                          "before it is complete, rerun to finish") from None
    finally:
        try:
            # the tasks not started are dropped; those under way end first (a task is a few records)
            pool.shutdown(wait=True, cancel_futures=status != "finished")
            if writer is not None and writer.is_alive():
                writer.finish(abandon=True)  # the transaction under way completes; nothing more is written
            if db is not None:
                try:
                    db.finish_run(status)
                    # a run that changed no game and no quarantine row (nor the schema) only brings the
                    # snapshot's ingest_runs up to date (no whole copy), so readers still see this run
                    if writer is not None and status != "failed" and (
                            _changes(db) != writer.published or not snapshot_path(db.path).exists()
                            or db.schema_changed):
                        writer.publish()
                    elif writer is not None and status != "failed":
                        timings["publish"] += db.publish_runs()
                    table_rows = db.table_counts()
                finally:
                    db.close()
        finally:
            stop.restore()
    assert db is not None and writer is not None
    if status == "finished":
        timings["end"] = time.perf_counter() - t_end
    return Summary(db.path, snapshot_path(db.path), db.run_id or 0, len(files), db.counts,
                   time.perf_counter() - t0, writer.publishes, table_rows, timings, db.conflict_examples)


__all__ = ["DEFAULT_DB", "IngestError", "Summary", "ingest"]
