"""The single writer: one DuckDB file, one transaction per batch, snapshots for readers.

Only this module opens the database file for writing.  Every batch goes in
one transaction that decides, per record, skip / insert / replace, deletes
replaced games from every per-game table, inserts the batch's Arrow tables,
appends the quarantine and updates the run's counters, then commits.  A
crash (kill -9 included) before the commit leaves the database as it was
before the batch: DuckDB rolls an uncommitted transaction back on open.

The connection may be shared by two threads (the pipeline checks content
hashes on its reading thread while its writer thread writes): every use of
it holds :attr:`Database.lock`, except the byte copy of a publication, which
reads only the file.

Readers never open this file.  :meth:`Database.publish` checkpoints it, copies
it to ``.<name>.snapshot.tmp<suffix>`` and renames that over
``<name>.snapshot<suffix>`` in one atomic step; readers open that snapshot
read-only (see :mod:`analytics.db`).
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import orjson
import pyarrow as pa

from ingest import schema
from ingest.duck import first_row, scalar
from ingest.rows import Batch, Outcome
from replay import ENGINE_VERSION
from replay.replayer import DIVERGED, INVALID

SNAPSHOT_ALIAS = "gamerec_snapshot"


class IngestError(Exception):
    """A problem that stops an ingest (shown to the user as one line)."""


def snapshot_path(db_path: str | Path) -> Path:
    """Where readers find the published snapshot of ``db_path``."""
    p = Path(db_path)
    suffix = p.suffix or ".duckdb"
    stem = p.name[: -len(p.suffix)] if p.suffix else p.name
    return p.with_name(f"{stem}.snapshot{suffix}")


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


@dataclass
class Counts:
    """Per-run counters (records partition into ok + diverged + skipped + quarantined)."""

    records: int = 0
    ok: int = 0
    diverged: int = 0
    skipped: int = 0
    quarantined: int = 0
    new: int = 0
    replaced: int = 0
    quarantined_new: int = 0
    conflicts: int = 0
    """Records quarantined because their id was already used in this run by different content."""
    statuses: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    richer_kept: int = 0
    """Skipped records that only lacked what the stored record of their id already says (e.g. a BGA
    log saved without the table file it was first ingested with); counted in :attr:`skipped`."""
    same_table: int = 0
    """Skipped BGA records whose table is stored under another id with the same replay (the same game);
    counted in :attr:`skipped`."""
    stale_analyses: list[str] = field(default_factory=list)
    """Games replaced by a record that replays differently, whose stored analysis is now stale."""
    same_in_run: int = 0
    """Skipped records that were one game with another input of this run under their id, saved two ways
    (a BGA log with and without its table file): the one that says more is kept; counted in :attr:`skipped`."""
    same_in_run_notes: list[str] = field(default_factory=list)
    """The first few of those, in words (:func:`same_game_note`)."""
    settled: int = 0
    """Games written whose BGA log left something open that the import settled (``source.notes``)."""
    settled_notes: list[str] = field(default_factory=list)
    """The first few of those notes, each after its input's place (``file: note``)."""


def adds_nothing(new: object, old: object) -> bool:
    """Whether ``new`` says nothing ``old`` does not: equal, except where ``new`` is null or lacks a
    key that ``old`` fills in (a record read without its companion file, say)."""
    if new is None or new == old:
        return True
    if isinstance(new, dict) and isinstance(old, dict):
        return all(k in old and adds_nothing(v, old[k]) for k, v in new.items() if v is not None)
    if isinstance(new, list) and isinstance(old, list):
        return len(new) == len(old) and all(adds_nothing(a, b) for a, b in zip(new, old))
    return False


def replay_input(record: object) -> object:
    """What a record's replay (and an analysis of it) depends on: the game, the players' ids in seat
    order, the options and the events.  Names, ``source``, ``played_at`` and ``result`` may change
    without changing a move's position or anyone's chances."""
    if not isinstance(record, dict):
        return record
    players = record.get("players")
    ids = [p.get("id") if isinstance(p, dict) else p for p in players] if isinstance(players, list) else players
    return [record.get("game"), ids, record.get("options"), record.get("events")]


def same_game(first: object, later: object) -> str | None:
    """How the later of two records of one id in one run stands to the first, where both are one game
    saved two ways (a BGA log with and without its table file, a record and a reformatted copy):
    ``"less"`` (it says nothing the first does not: it is skipped), ``"more"`` (it only adds to the
    first: it takes the first's place), ``None`` (two different records: a ``duplicate_id`` conflict)."""
    if first is None or later is None:
        return None
    if adds_nothing(later, first):
        return "less"
    if adds_nothing(first, later):
        return "more"
    return None


def same_game_note(game_id: str, kept: tuple[str, int | None], dropped: tuple[str, int | None]) -> str:
    """The note of two inputs of one run that are one game: which was kept (the one that says more)."""
    def where(at: tuple[str, int | None]) -> str:
        return at[0] + (f":{at[1]}" if at[1] is not None else "")
    return (f"{where(dropped)} and {where(kept)} are the same game ({game_id!r}) saved two ways: "
            f"kept {where(kept)}, which says more")


def settled_notes(source: str, notes: Iterable[str]) -> list[str]:
    """The notes a BGA log's import settled (``source.notes``), each after its input's place, as
    ``ingest`` prints them (``file: note``)."""
    return [f"{source}: {n}" for n in notes]


NOTES_KEPT = 10
"""How many notes of each kind a run keeps to show."""

DUPLICATE_ID = "duplicate_id"
"""The quarantine kind (and outcome status) of a record whose id names other content in the same run."""


def conflict_error(source: str, line: int | None, game_id: str, first_source: str, first_line: int | None) -> str:
    """Why a record was quarantined as ``duplicate_id``: the first record of the run with its id is elsewhere."""
    where = first_source + (f":{first_line}" if first_line is not None else "")
    return (f"{source}:{line}: id {game_id!r} is already used in this run by a different record ({where}); "
            "ids must be unique per game content, so this one was not ingested")


def _as_conflict(o: Outcome, why: str, batch: Batch) -> Outcome:
    """``o`` turned into a quarantine entry, with its raw text taken from the batch's ``records`` rows."""
    raw = b""
    span = (o.spans or {}).get("records")
    table = batch.tables.get("records")
    if span and table is not None:
        raw = str(table.column("raw")[span[0]].as_py()).encode()
    return Outcome(o.ordinal, o.source, o.line, o.raw_sha256, DUPLICATE_ID, game_id=o.game_id, title=o.title,
                   error=why, raw=raw)


def _quote_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _quote_ident(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class Database:
    """The ingest's connection to the database file."""

    def __init__(self, path: str | Path, *, threads: int | None = None, memory_limit: str | None = None) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise IngestError(f"cannot create the folder for {self.path}: {exc.strerror}") from None
        try:
            self.con = duckdb.connect(str(self.path))
        except duckdb.Error as exc:
            msg = str(exc)
            if "lock" in msg.lower():
                pid = re.search(r"PID (\d+)", msg)
                who = f"process {pid.group(1)}" if pid else "another process"
                raise IngestError(
                    f"{self.path} is open for writing by {who} (another `gamerec ingest`?); "
                    "wait for it to finish"
                ) from None
            raise IngestError(f"cannot open the database {self.path}: {msg}") from None
        if threads:
            self.con.execute(f"SET threads TO {int(threads)}")
        if memory_limit:
            try:
                self.con.execute("SET memory_limit = ?", [memory_limit])
            except duckdb.Error as exc:
                self.con.close()
                raise IngestError(f"bad memory limit {memory_limit!r} (e.g. 512MB or 2GB): {exc}") from None
        self.con.execute("SET preserve_insertion_order = true")
        # fewer, larger checkpoints: batches append a lot; a crash replays at most this much log
        self.con.execute("SET checkpoint_threshold = '256MB'")
        self.con.execute("SET enable_progress_bar = false")
        self.schema_changed = schema.create_schema(self.con)
        """A table or column was added to a database of games (readers need a new snapshot)."""
        self.catalog = scalar(self.con.execute("SELECT current_database()"))
        self.game_tables = schema.game_tables()
        self.run_id: int | None = None
        self.counts = Counts()
        self.run_ids: dict[str, tuple[str, str, int | None]] = {}
        """Id -> (content hash, file, line) of every game written or found present in this run."""
        self.run_written: set[str] = set()
        """Ids of the games written (new or replaced) in this run."""
        self.conflict_examples: list[str] = []
        """The first few id conflicts of this run, in words."""
        self.lock = threading.RLock()
        """Held by every use of :attr:`con` (see the module docstring)."""

    # ---- runs ---------------------------------------------------------------

    def start_run(self, paths: Sequence[str], files: int) -> int:
        row = first_row(self.con.execute("SELECT coalesce(max(run_id), 0) + 1 FROM ingest_runs"))
        run_id = int(row[0])  # type: ignore[index]
        self.con.execute(
            "INSERT INTO ingest_runs (run_id, started_at, files, records, ok, diverged, quarantined, skipped, "
            "replaced, paths, engine_version, status) VALUES (?, ?, ?, 0, 0, 0, 0, 0, 0, ?, ?, 'running')",
            [run_id, utcnow(), files, orjson.dumps(list(paths)).decode(), ENGINE_VERSION],
        )
        self.run_id = run_id
        return run_id

    def _update_run(self, status: str | None = None, counts: Counts | None = None) -> None:
        c = counts or self.counts
        self.con.execute(
            "UPDATE ingest_runs SET records = ?, ok = ?, diverged = ?, quarantined = ?, skipped = ?, "
            "replaced = ? WHERE run_id = ?",
            [c.records, c.ok, c.diverged, c.quarantined, c.skipped, c.replaced, self.run_id],
        )
        if status is not None:
            self.con.execute("UPDATE ingest_runs SET status = ?, finished_at = ? WHERE run_id = ?",
                             [status, utcnow(), self.run_id])

    def finish_run(self, status: str = "finished") -> None:
        if self.run_id is not None:
            with self.lock:
                self._update_run(status)

    # ---- batches ------------------------------------------------------------

    def has_games(self) -> bool:
        """Whether any game is in the database."""
        with self.lock:
            return first_row(self.con.execute("SELECT 1 FROM games LIMIT 1")) is not None

    def known_hashes(self, hashes: Sequence[str]) -> dict[str, str]:
        """Which of ``hashes`` are already the content hash of an ingested game (hash -> its game id)."""
        if not hashes:
            return {}
        probe = pa.table({"h": pa.array(list(hashes), pa.string())})
        with self.lock:
            self.con.register("gamerec_probe", probe)
            try:
                rows = self.con.execute(
                    "SELECT DISTINCT g.record_sha256, g.game_id FROM games g "
                    "JOIN gamerec_probe p ON g.record_sha256 = p.h"
                ).fetchall()
            finally:
                self.con.unregister("gamerec_probe")
        return {r[0]: r[1] for r in rows}

    def count_skipped(self, n: int, present: Sequence[tuple[str, str, str, int | None]] = ()) -> None:
        """Records recognised as already present before they were replayed.

        ``present`` holds ``(game_id, sha, source, line)`` of each, so that a
        later record of this run with the same id and other content is
        recognised as a conflict rather than replacing it.
        """
        self.counts.records += n
        self.counts.skipped += n
        for gid, sha, source, line in present:
            self.run_ids.setdefault(gid, (sha, source, line))

    def _conflict(self, o: Outcome) -> str | None:
        """Why ``o`` may not be written: its id already names other content in this run."""
        assert o.game_id is not None
        first = self.run_ids.get(o.game_id)
        if first is None or first[0] == o.raw_sha256:
            return None
        return conflict_error(o.source, o.line, o.game_id, first[1], first[2])

    def write(self, batch: Batch, at: datetime) -> bool:
        """Apply one batch in one transaction; ``True`` if a game or quarantine row changed."""
        with self.lock:
            return self._write(batch, at)

    def _write(self, batch: Batch, at: datetime) -> bool:
        good = [o for o in batch.outcomes if o.status != INVALID]
        bad = [o for o in batch.outcomes if o.status == INVALID]
        chosen: dict[str, Outcome] = {}
        skipped = 0
        conflicts: list[Outcome] = []
        same: list[str] = []  # notes: two inputs of this run that are one game
        merged: set[str] = set()  # ids written earlier in this run, taken over by an input that says more
        run_ids = dict(self.run_ids)  # kept only if the commit succeeds
        for o in good:
            assert o.game_id is not None
            prev = chosen.get(o.game_id)
            if prev is not None and prev.raw_sha256 == o.raw_sha256:
                skipped += 1
                continue
            why = self._conflict(o) if prev is None else self._conflict_in_batch(o, prev)
            if why is not None:
                first = (self._batch_record(batch, prev) if prev is not None
                         else self._stored_records([o.game_id]).get(o.game_id))
                rel = same_game(first, self._batch_record(batch, o))
                if rel is None:
                    conflicts.append(_as_conflict(o, why, batch))
                    continue
                first_at = run_ids[o.game_id][1:]
                if rel == "less":
                    skipped += 1
                    same.append(same_game_note(o.game_id, first_at, (o.source, o.line)))
                    continue
                same.append(same_game_note(o.game_id, (o.source, o.line), first_at))
                if prev is not None:
                    skipped += 1  # the first, saying less, gives way within this batch
                elif o.game_id in self.run_written:
                    merged.add(o.game_id)  # the first was written: replaced below, this one counted as skipped
            chosen[o.game_id] = o
            run_ids[o.game_id] = (o.raw_sha256, o.source, o.line)
        bad = sorted(bad + conflicts, key=lambda o: o.ordinal)
        con = self.con
        committing = False
        con.execute("BEGIN TRANSACTION")
        try:
            existing: dict[str, str] = {}
            if chosen:
                ids = pa.table({"game_id": pa.array(list(chosen), pa.string())})
                con.register("gamerec_ids", ids)
                try:
                    existing = dict(con.execute(
                        "SELECT g.game_id, g.record_sha256 FROM games g JOIN gamerec_ids i USING (game_id)"
                    ).fetchall())
                finally:
                    con.unregister("gamerec_ids")
            keep: list[Outcome] = []
            replace: list[str] = []
            changed = {gid: o for gid, o in chosen.items() if existing.get(gid) not in (None, o.raw_sha256)}
            stored = self._stored_records(list(changed)) if changed else {}
            richer_kept = same_table = 0
            carried: list[tuple[str, str]] = []  # (game id, new hash): analyses still valid
            stale: list[str] = []
            for gid, o in chosen.items():
                old = existing.get(gid)
                if old == o.raw_sha256:
                    skipped += 1
                    continue
                if old is not None:
                    before = stored.get(gid)
                    after = self._batch_record(batch, o)
                    if before is not None and after is not None and adds_nothing(after, before):
                        skipped += 1  # the stored record already says all this one says, and more
                        richer_kept += 1
                        continue
                    replace.append(gid)
                    if before is not None and after is not None and replay_input(before) == replay_input(after):
                        carried.append((gid, o.raw_sha256))
                    else:
                        stale.append(gid)
                elif gid.startswith("bga-") and self._same_table_stored(batch, o):
                    skipped += 1  # this very game, stored under another id of its table (an older id scheme)
                    same_table += 1
                    continue
                keep.append(o)
            keep.sort(key=lambda o: o.ordinal)
            if replace:
                con.register("gamerec_replace", pa.table({"game_id": pa.array(replace, pa.string())}))
                try:
                    for t in self.game_tables:
                        if t in schema.ANALYSIS_TABLES:
                            continue  # an analysis is never deleted by an ingest (see below)
                        con.execute(f"DELETE FROM {t.name} WHERE game_id IN (SELECT game_id FROM gamerec_replace)")
                finally:
                    con.unregister("gamerec_replace")
            # an analysis of a game whose replay is unchanged stays valid for the new record; any other
            # keeps the old record's hash, which no longer matches the game's: stale, and reported
            stale = [gid for gid in stale if self._has_analysis(gid)]
            for gid, sha in carried:
                con.execute("UPDATE analyses SET record_sha256 = ? WHERE game_id = ?", [sha, gid])
            rows = self._insert_games(batch, keep, len(keep) == len(good))
            q_new = self._quarantine(bad, at)
            # new counters, kept only if the commit succeeds
            c = copy.deepcopy(self.counts)
            c.records += len(batch.outcomes)
            c.skipped += skipped + len(merged)
            c.new += len(keep) - len(replace)
            c.replaced += len(replace) - len(merged)
            c.same_in_run += len(same)
            c.same_in_run_notes += same[:max(0, NOTES_KEPT - len(c.same_in_run_notes))]
            for o in keep:
                if o.game_id in merged:
                    continue  # counted when the first input of its game was written
                if o.notes:
                    c.settled += 1
                    c.settled_notes += settled_notes(o.source, o.notes)[:max(0, NOTES_KEPT - len(c.settled_notes))]
                c.statuses[o.status] = c.statuses.get(o.status, 0) + 1
                if o.status == DIVERGED:
                    c.diverged += 1
                else:
                    c.ok += 1
            c.conflicts += len(conflicts)
            c.richer_kept += richer_kept
            c.same_table += same_table
            c.stale_analyses += stale
            c.quarantined += len(bad)
            c.quarantined_new += q_new
            for name, n in rows.items():
                c.rows[name] = c.rows.get(name, 0) + n
            if q_new:
                c.rows["quarantine"] = c.rows.get("quarantine", 0) + q_new
            self._update_run(counts=c)
            committing = True
            con.execute("COMMIT")
            self.counts = c
            self.run_ids = run_ids
            self.run_written.update(o.game_id for o in keep if o.game_id is not None)
            self.conflict_examples += [o.error or "" for o in conflicts[:max(0, NOTES_KEPT - len(self.conflict_examples))]]
            return bool(keep or q_new)
        except BaseException:
            try:
                con.execute("ROLLBACK")
            except duckdb.Error:
                pass
            # an interrupt can land while the commit completes: trust the database
            if committing and self._run_counts_are(c):
                self.counts = c
                self.run_ids = run_ids
                self.run_written.update(o.game_id for o in keep if o.game_id is not None)
            raise

    def _stored_records(self, ids: list[str]) -> dict[str, object]:
        """The stored records of ``ids``, parsed (unparsable ones left out)."""
        self.con.register("gamerec_stored", pa.table({"game_id": pa.array(ids, pa.string())}))
        try:
            rows = self.con.execute(
                "SELECT r.game_id, r.raw FROM records r JOIN gamerec_stored i USING (game_id)").fetchall()
        finally:
            self.con.unregister("gamerec_stored")
        out: dict[str, object] = {}
        for gid, raw in rows:
            try:
                out[gid] = orjson.loads(raw)
            except orjson.JSONDecodeError:
                pass
        return out

    @staticmethod
    def _batch_record(batch: Batch, o: Outcome) -> object | None:
        """The record of ``o`` as the batch holds it, parsed."""
        span = (o.spans or {}).get("records")
        table = batch.tables.get("records")
        if not span or table is None:
            return None
        try:
            record: object = orjson.loads(str(table.column("raw")[span[0]].as_py()))
            return record
        except orjson.JSONDecodeError:
            return None

    def _same_table_stored(self, batch: Batch, o: Outcome) -> bool:
        """Whether the BGA game of ``o`` (an id not stored) is stored under another id of its table with
        the same replay input: one game, whichever id an earlier gamerec gave it."""
        rec = self._batch_record(batch, o)
        source = rec.get("source") if isinstance(rec, dict) else None
        table = source.get("table_id") if isinstance(source, dict) else None
        if isinstance(table, bool) or not isinstance(table, (int, str)) or not str(table).isdigit():
            return False
        base = f"bga-{table}"
        rows = self.con.execute(
            "SELECT r.raw FROM records r JOIN games g USING (game_id) WHERE g.source_kind = 'bga' "
            "AND (r.game_id = ? OR starts_with(r.game_id, ?))", [base, base + "-"]).fetchall()
        mine = replay_input(rec)
        for (raw,) in rows:
            try:
                if replay_input(orjson.loads(raw)) == mine:
                    return True
            except orjson.JSONDecodeError:
                continue
        return False

    def _has_analysis(self, game_id: str) -> bool:
        return first_row(self.con.execute("SELECT 1 FROM analyses WHERE game_id = ? LIMIT 1", [game_id])) is not None

    @staticmethod
    def _conflict_in_batch(o: Outcome, prev: Outcome) -> str:
        assert o.game_id is not None
        return conflict_error(o.source, o.line, o.game_id, prev.source, prev.line)

    def _run_counts_are(self, c: Counts) -> bool:
        try:
            row = first_row(self.con.execute("SELECT records, ok, skipped FROM ingest_runs WHERE run_id = ?",
                                   [self.run_id]))
        except duckdb.Error:
            return False
        return row == (c.records, c.ok, c.skipped)

    def _insert_games(self, batch: Batch, keep: list[Outcome], everything: bool) -> dict[str, int]:
        rows: dict[str, int] = {}
        if not keep:
            return rows
        for t in self.game_tables:
            table = batch.tables.get(t.name)
            if table is None or table.num_rows == 0:
                continue
            if not everything:
                idx: list[int] = []
                for o in keep:
                    span = (o.spans or {}).get(t.name)
                    if span:
                        idx.extend(range(*span))
                if not idx:
                    continue
                table = table.take(pa.array(idx, pa.int64()))
            cols = ", ".join(f'"{c}"' for c in t.column_names if c in table.column_names)
            con = self.con
            con.register("gamerec_batch", table)
            try:
                con.execute(f"INSERT INTO {t.name} ({cols}) SELECT {cols} FROM gamerec_batch")
            finally:
                con.unregister("gamerec_batch")
            rows[t.name] = table.num_rows
        return rows

    def _quarantine(self, bad: list[Outcome], at: datetime) -> int:
        if not bad:
            return 0
        seen: set[tuple[str, int | None, str]] = set()
        uniq = []
        for o in bad:
            key = (o.source, o.line, o.raw_sha256)
            if key not in seen:
                seen.add(key)
                uniq.append(o)
        t = schema.QUARANTINE
        data = {
            "source": [o.source for o in uniq],
            "line": [o.line for o in uniq],
            "error": [o.error for o in uniq],
            "raw": [(o.raw or b"").decode("utf-8", "backslashreplace") for o in uniq],
            "at": [at] * len(uniq),
            "raw_sha256": [o.raw_sha256 for o in uniq],
            "game_id": [o.game_id for o in uniq],
            "kind": ["unreadable" if o.game_id is None else "duplicate_id" if o.status == DUPLICATE_ID
                     else "engine_error" for o in uniq],
            "run_id": [self.run_id] * len(uniq),
        }
        sch = t.arrow_schema()
        table = pa.Table.from_arrays([pa.array(data[c], sch.field(c).type) for c in t.column_names], schema=sch)
        con = self.con
        con.register("gamerec_bad", table)
        try:
            match = ("q.source = b.source AND q.line IS NOT DISTINCT FROM b.line "
                     "AND q.raw_sha256 = b.raw_sha256")
            con.execute(f"UPDATE quarantine q SET run_id = ?, error = b.error FROM gamerec_bad b WHERE {match}",
                        [self.run_id])
            cols = ", ".join(f'"{c}"' for c in t.column_names)
            before = scalar(con.execute("SELECT count(*) FROM quarantine"))
            con.execute(
                f"INSERT INTO quarantine ({cols}) SELECT {cols} FROM gamerec_bad b "
                f"WHERE NOT EXISTS (SELECT 1 FROM quarantine q WHERE {match})"
            )
            after = scalar(con.execute("SELECT count(*) FROM quarantine"))
        finally:
            con.unregister("gamerec_bad")
        return int(after - before)

    # ---- analyses (gamerec analyse) ------------------------------------------

    def write_analyses(self, tables: dict[str, pa.Table], game_ids: Sequence[str]) -> None:
        """Replace the analysis rows of ``game_ids`` with ``tables`` (table name -> rows), in one transaction."""
        with self.lock:
            self._write_analyses(tables, game_ids)

    def _write_analyses(self, tables: dict[str, pa.Table], game_ids: Sequence[str]) -> None:
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            con.register("gamerec_analysed", pa.table({"game_id": pa.array(list(game_ids), pa.string())}))
            try:
                for t in schema.ANALYSIS_TABLES:
                    con.execute(f"DELETE FROM {t.name} WHERE game_id IN (SELECT game_id FROM gamerec_analysed)")
            finally:
                con.unregister("gamerec_analysed")
            for t in schema.ANALYSIS_TABLES:
                table = tables.get(t.name)
                if table is None or table.num_rows == 0:
                    continue
                cols = ", ".join(f'"{c}"' for c in t.column_names)
                con.register("gamerec_batch", table)
                try:
                    con.execute(f"INSERT INTO {t.name} ({cols}) SELECT {cols} FROM gamerec_batch")
                finally:
                    con.unregister("gamerec_batch")
            con.execute("COMMIT")
        except BaseException:
            try:
                con.execute("ROLLBACK")
            except duckdb.Error:
                pass
            raise

    # ---- snapshot -------------------------------------------------------------

    def publish(self) -> float:
        """Publish a read-only snapshot for readers; returns the seconds it took.

        The database is checkpointed (everything moves from the write-ahead
        log into the file), then the file is copied byte for byte under a
        temporary name, synced, and renamed over the snapshot: a plain file
        copy, fast and using no database memory.  Should the log not be empty
        after the checkpoint, the copy is made with ``COPY FROM DATABASE``
        instead.
        """
        t0 = time.perf_counter()
        snap = snapshot_path(self.path)
        # a hidden name that still ends like a database file (ignored by the usual *.duckdb rules)
        tmp = snap.with_name(f".{snap.stem}.tmp{snap.suffix}")
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            if leftover.exists():
                leftover.unlink()
        with self.lock:
            self.con.execute("CHECKPOINT")
            wal = self.path.with_name(self.path.name + ".wal")
            clean = not wal.exists() or wal.stat().st_size == 0
            if not clean:
                self._copy_database(tmp)
        if clean:  # only this thread writes, so the file stays as the checkpoint left it
            shutil.copyfile(self.path, tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, snap)
        return time.perf_counter() - t0

    def publish_runs(self) -> float:
        """Bring the snapshot's ``ingest_runs`` up to date in place, when nothing else changed.

        Cheap (no copy of the database): the snapshot is opened for writing
        only if no reader has it open at that moment (DuckDB's file lock
        says so); readers arriving meanwhile wait on the lock and retry.
        Otherwise the snapshot is published whole.  Returns the seconds it took.
        """
        t0 = time.perf_counter()
        snap = snapshot_path(self.path)
        try:
            other = duckdb.connect(str(snap))
        except duckdb.Error:  # a reader has it open: publish a fresh copy instead
            return self.publish()
        try:
            with self.lock:
                runs = self.con.sql("SELECT * FROM ingest_runs").to_arrow_table()
            other.register("gamerec_runs", runs)
            other.execute("BEGIN TRANSACTION")
            other.execute("DELETE FROM ingest_runs")
            other.execute("INSERT INTO ingest_runs BY NAME SELECT * FROM gamerec_runs")
            other.execute("COMMIT")
            other.execute("CHECKPOINT")
        finally:
            other.close()
        return time.perf_counter() - t0

    def _copy_database(self, tmp: Path) -> None:
        con = self.con
        con.execute(f"ATTACH {_quote_literal(str(tmp))} AS {SNAPSHOT_ALIAS}")
        try:
            con.execute(f"COPY FROM DATABASE {_quote_ident(self.catalog)} TO {SNAPSHOT_ALIAS}")
            con.execute(f"CHECKPOINT {SNAPSHOT_ALIAS}")
        finally:
            con.execute(f"DETACH {SNAPSHOT_ALIAS}")
        if tmp.with_name(tmp.name + ".wal").exists():  # never expected after a checkpoint
            raise IngestError(f"the snapshot {tmp} kept a write-ahead log; not publishing it")

    def table_counts(self) -> dict[str, int]:
        out = {}
        with self.lock:
            for t in schema.tables():
                out[t.name] = int(scalar(self.con.execute(f"SELECT count(*) FROM {t.name}")))
        return out

    def close(self) -> None:
        try:
            self.con.close()
        except duckdb.Error:
            pass
