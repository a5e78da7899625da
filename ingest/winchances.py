"""``gamerec analyse``: win chances for records, stored in the database.

The computation is :func:`replay.analysis.analyse` (pure, deterministic);
this module spreads it over local processes or a Dask cluster, turns each
:class:`~replay.analysis.Analysis` into rows of the five analysis tables
(``analyses``, ``win_chances``, ``turning_points``,
``turning_point_alternatives``, ``choices``; see ``docs/analysis.md``) and writes them
through the single writer, one transaction per record, replacing an earlier
analysis of the same game.  A snapshot is published for readers at the end.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent import futures
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow as pa

from ingest import schema
from ingest.interrupt import Interrupt, ignore_in_worker
from ingest.writer import Database, IngestError
from replay.analysis import VALUE, Analysis, AnalysisError, Mapper, Settings, analyse, positions
from replay.evaluator import worker_context
from replay.games import UnknownGame
from replay.record import Record, RecordError, iter_raw, loads


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def analysis_tables(a: Analysis, record_sha256: str, seconds: float, at: datetime) -> dict[str, pa.Table]:
    """The rows of one analysis, one Arrow table per analysis table."""
    s = a.settings
    cols: dict[str, dict[str, list[Any]]] = {t.name: {c: [] for c in t.column_names} for t in schema.ANALYSIS_TABLES}

    def add(table: str, **row: Any) -> None:
        for c, v in row.items():
            cols[table][c].append(v)

    by_value = s.method == VALUE  # the value model: no agent, no rollouts
    add("analyses", game_id=a.record_id, record_sha256=record_sha256, title=a.game, at=s.at,
        agent=None if by_value else s.agent, rollouts=0 if by_value else s.rollouts, positions=len(a.positions),
        turning_points=len(a.turning_points), stopped=a.stopped, engine_version=a.engine_version,
        seconds=seconds, analysed_at=at, capped_rollouts=a.capped, method=s.method)
    for pos in a.positions:
        for p, e in pos.chances.items():
            lo, hi = e.interval()
            add("win_chances", game_id=a.record_id, seq=pos.seq, player_id=p, chance=e.chance,
                rollouts=0 if e.exact else e.rollouts, ci_low=lo, ci_high=hi, mover=pos.mover,
                move_seq=pos.move_seq)
    for t in a.turning_points:
        add("turning_points", game_id=a.record_id, seq=t.seq, player_id=t.player, after_seq=t.after_seq,
            chance_before=t.before.chance, chance_after=t.after.chance, delta=t.delta, direction=t.direction,
            move=t.words, verdict=t.verdict(a.names))
        for i, alt in enumerate(sorted(t.alternatives, key=lambda x: -x.estimate.chance)):
            lo, hi = alt.estimate.interval()
            add("turning_point_alternatives", game_id=a.record_id, seq=t.seq, player_id=t.player, alt_no=i,
                move=orjson.dumps(alt.move.to_dict()).decode(), words=alt.words, chance=alt.estimate.chance,
                ci_low=lo, ci_high=hi, rollouts=0 if alt.estimate.exact else alt.estimate.rollouts,
                played=alt.played)
    for c in a.choices:
        add("choices", game_id=a.record_id, seq=c.seq, move_seq=c.move_seq, player_id=c.player, moves=c.moves,
            chance_played=c.played, chance_best=c.best, given_away=c.given_away,
            best_move=orjson.dumps(c.best_move.to_dict()).decode(), best_words=c.best_words,
            played_words=c.played_words)
    out = {}
    for table in schema.ANALYSIS_TABLES:
        sch = table.arrow_schema()
        out[table.name] = pa.Table.from_arrays([pa.array(cols[table.name][c], sch.field(c).type)
                                                for c in table.column_names],
                                           schema=sch)
    return out


# --------------------------------------------------------------------------
# Where the rollouts run
# --------------------------------------------------------------------------


def _local_processes(workers: int | None) -> int:
    """How many local processes run the work (default: one per core; 0 or 1: this process)."""
    return os.cpu_count() or 1 if workers is None else workers


@contextmanager
def _taking_ctrl_c(stop: Interrupt | None) -> Iterator[Interrupt]:
    """``stop``, or one of its own, installed while the caller waits for results."""
    if stop is not None:
        yield stop
        return
    with Interrupt() as own:
        yield own


@contextmanager
def local_mapper(workers: int | None, stop: Interrupt | None = None) -> Iterator[Mapper[Any, Any]]:
    """``map`` over ``workers`` local processes (0 or 1: in this process).

    With a pool, Ctrl-C is taken while the caller waits for a result
    (``stop``'s, or the mapper's own; the workers ignore it): the tasks not
    started are dropped, and the pool closes once the few under way are done.
    In this process, ``stop``'s is taken between two tasks; without ``stop``,
    Ctrl-C is Python's, as for any code.
    """
    n = _local_processes(workers)
    if n <= 1:
        if stop is None:
            yield map
            return

        def here(fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
            for item in items:
                stop.check()
                yield fn(item)
        yield here
        return
    # an executor, not a multiprocessing.Pool: a worker that dies fails its task (BrokenProcessPool)
    # where a Pool would wait for it for ever
    pool = ProcessPoolExecutor(n, mp_context=worker_context(), initializer=ignore_in_worker)
    try:
        def pooled(fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
            with _taking_ctrl_c(stop) as ctrl_c:
                for fut in [pool.submit(fn, item) for item in items]:
                    while not fut.done():
                        ctrl_c.check()
                        futures.wait([fut], timeout=0.1)
                    try:
                        yield fut.result()
                    except BrokenProcessPool:
                        raise IngestError("a worker stopped abruptly (killed, perhaps by the system for lack of "
                                          "memory); every game analysed before is stored, rerun to finish") from None
        yield pooled
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def dask_mapper(address: str, stop: Interrupt | None = None) -> Iterator[Mapper[Any, Any]]:
    """``map`` over the workers of the Dask cluster at ``address`` (``tcp://host:8786``); Ctrl-C is taken
    as with a local pool."""
    try:
        from distributed import Client, wait
    except ImportError:
        raise AnalysisError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise AnalysisError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        def run(fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
            futures = client.map(fn, list(items), pure=False)
            with _taking_ctrl_c(stop) as ctrl_c:
                for fut in futures:
                    while True:
                        try:
                            wait(fut, timeout=0.1)
                            break
                        except TimeoutError:
                            ctrl_c.check()
                    yield fut.result()
        yield run
    finally:
        client.close()


# --------------------------------------------------------------------------
# The command's work
# --------------------------------------------------------------------------


@dataclass
class Done:
    """One analysed record, for the command's report."""

    record_id: str
    game: str
    positions: int
    seconds: float
    verdicts: list[str]
    stopped: str | None
    ingested: bool
    cpu_seconds: float | None = None
    """CPU time of this process for the record, when the work ran in it (``--workers`` 0 or 1, or the
    value method): the figure to compare across runs on a shared machine."""
    capped: int = 0
    """Rollouts that did not end within the simulator's event limit (left out of their estimates)."""
    method: str = VALUE
    note: str | None = None
    """Why the method is not the default (a title without a value model falls back to rollouts)."""
    choices: str | None = None
    """Each player's choices in words (the value method): how many, the chance given away, the best moves."""


def choices_line(a: Analysis) -> str | None:
    """``Ana 2.1% given away per choice, the best move in 64% of 25; Ben ...``, or ``None`` without choices."""
    parts = [f"{a.names.get(p, p)} {away:.1%} given away per choice, the best move in {best:.0%} of {n}"
             for p, n, away, best in a.choice_quality()]
    return "; ".join(parts) or None


@dataclass
class Summary:
    done: list[Done] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def plan(paths: Sequence[str], settings: Settings, ids: Sequence[str] = (),
         viewer: str | None = None) -> tuple[list[Record], list[str], int]:
    """The readable records under ``paths`` (BGA logs among them imported, a log of every player's
    view as ``viewer``'s; only those whose id is in ``ids``, if given), one error line per
    unreadable one, and the work units."""
    from ingest.bga.convert import bga_items

    records: list[Record] = []
    errors: list[str] = []
    units = 0
    for raw in bga_items(iter_raw(paths), viewer=viewer):  # records, and BGA logs imported as ingest does
        if raw.error is not None:
            errors.append(str(raw.error))
            continue
        if ids and not any(f'"{i}"'.encode() in raw.raw[:4096] for i in ids):
            continue  # cheap skip before parsing: the id is near the start of a record
        try:
            record = loads(raw.raw, raw.source, raw.line)
            if ids and record.id not in ids:
                continue
            n = len(positions(record, settings.at, settings.hidden)[0])
        except RecordError as exc:
            errors.append(str(exc))
            continue
        except UnknownGame as exc:
            errors.append(f"{raw.source}:{raw.line}: {exc}")
            continue
        records.append(record)
        units += n + settings.explain
    return records, errors, units


@contextmanager
def _open(db: str | Path) -> Iterator[Database]:
    try:
        database = Database(db)
    except duckdb.Error as exc:  # e.g. a lake's catalog, whose tables are views over Parquet
        raise IngestError(f"cannot store win chances in {db}: {str(exc).splitlines()[0]} (analyses go into a "
                          "one-machine database, not a lake's catalog)") from None
    try:
        yield database
    finally:
        database.close()


def run(records: Sequence[Record], db: str | Path, settings: Settings, *, workers: int | None = None,
        scheduler: str | None = None, progress: Callable[[int], None] | None = None,
        on_done: Callable[[Done], None] | None = None) -> Summary:
    """Analyse ``records`` and store the results in ``db`` (one transaction per record).

    The database is opened for writing only while a record's rows are
    written (an ingest can run between two records), and a snapshot is
    published for readers at the end.
    """
    summary = Summary()
    # Ctrl-C stops the run between two positions, never in a write or in the publication
    with Interrupt() as stop:
        with _open(db) as database:  # fails early, with the writer's message, if the file cannot be written
            known = _ingested(database, [r.id for r in records])
        here = scheduler is None and _local_processes(workers) <= 1
        mapper_cm = dask_mapper(scheduler, stop) if scheduler else local_mapper(workers, stop)
        try:
            with mapper_cm as mapper:
                for rec in records:
                    _analyse_one(rec, db, settings, mapper, stop, here, rec.id in known, summary, progress, on_done)
        finally:
            if summary.done:
                with _open(db) as database:
                    database.publish()
    return summary


def _analyse_one(rec: Record, db: str | Path, settings: Settings, mapper: Mapper[Any, Any], stop: Interrupt,
                 here: bool, ingested: bool, summary: Summary, progress: Callable[[int], None] | None,
                 on_done: Callable[[Done], None] | None) -> None:
    """Analyse one record and write its rows in one transaction (``here``: the work runs in this process)."""
    t0, c0 = time.perf_counter(), time.process_time()
    steps = 0

    def step(n: int) -> None:
        nonlocal steps
        steps += n
        if progress:
            progress(n)
        stop.check()

    try:
        a = analyse(rec, settings, mapper=mapper, progress=step)
    except AnalysisError as exc:
        summary.errors.append(f"{rec.id}: {exc}")
        return
    if progress:
        progress(len(a.positions) + settings.explain - steps)  # falls not found: units never run
    seconds = time.perf_counter() - t0
    cpu = time.process_time() - c0 if here or a.settings.method == VALUE else None
    with _open(db) as database:
        database.write_analyses(analysis_tables(a, rec.sha256, seconds, _utcnow()), [rec.id])
    done = Done(rec.id, rec.game, len(a.positions), seconds,
                [t.verdict(a.names) for t in a.turning_points if t.delta < 0][: a.settings.explain],
                a.stopped, ingested, cpu, a.capped, str(a.settings.method), a.note, choices_line(a))
    summary.done.append(done)
    if on_done:
        on_done(done)

def _ingested(database: Database, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    database.con.register("gamerec_probe", pa.table({"game_id": pa.array(ids, pa.string())}))
    try:
        rows = database.con.execute("SELECT game_id FROM games JOIN gamerec_probe USING (game_id)").fetchall()
    finally:
        database.con.unregister("gamerec_probe")
    return {r[0] for r in rows}
