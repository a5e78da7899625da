"""Turn raw records into column batches, one Arrow table per database table.

This is the work the ingest spreads over processes: :func:`build_batch`
receives raw record bytes with their file and line, parses and replays each
record, and returns a :class:`Batch` holding Arrow tables (columns, never row
objects) plus one :class:`Outcome` per record for the writer's bookkeeping.
Rows come out in input order, then in the natural order inside a game (seat,
seq, category), so the same input always gives the same tables.
"""

from __future__ import annotations

import gc
import hashlib
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import accumulate, repeat
from typing import Any

import msgspec
import orjson
import pyarrow as pa

from ingest import schema
from ingest.bga.convert import replay_log
from ingest.milestones import MilestoneTable, by_kind
from replay import ENGINE_VERSION
from replay.engine import State, Taken
from replay.games import available
from replay.loop import Observer
from replay.record import ChanceEvent, Item, MoveEvent, ObserveEvent, RecordError, loads
from replay.replayer import INVALID, Replay, replay_item

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


@dataclass(slots=True)
class Outcome:
    """What happened to one record of a batch."""

    ordinal: int
    source: str
    line: int | None
    raw_sha256: str
    status: str
    game_id: str | None = None
    title: str | None = None
    error: str | None = None
    raw: bytes | None = None
    """The raw text, kept only for records headed to quarantine."""
    spans: dict[str, tuple[int, int]] | None = None
    """Table name -> ``(start, stop)`` of this record's rows in the batch's tables."""
    notes: tuple[str, ...] = ()
    """What the BGA log left open and its import settled (the record's ``source.notes``)."""


@dataclass(slots=True)
class Batch:
    outcomes: list[Outcome]
    tables: dict[str, pa.Table] = field(default_factory=dict)
    """Table name -> rows of the batch's replayed games (quarantined records excluded)."""


@dataclass(slots=True)
class Job:
    items: list[tuple[int, str, int | None, bytes]]
    """``(ordinal, source, line, raw)`` per record."""
    run_id: int
    at: datetime
    milestone_tables: Sequence[MilestoneTable] | None = None
    ruleset: str | None = None
    """Overrides every record's ``options.ruleset`` (``--ruleset``)."""
    logs: dict[int, str] | None = None
    """The items that are BGA logs: ordinal -> the path of their table file (``""``: none).  Each is
    imported and replayed in one engine run (:func:`ingest.bga.convert.replay_log`); its rows are the
    record's, and its hash the record JSON's."""
    viewer: str | None = None
    """Whose view a BGA log holding every player's private channels is read as (``--viewer``)."""


def merge(batches: Sequence[Batch]) -> Batch:
    """Consecutive batches as one, in order: the writer commits several workers' batches at once.

    Tables are concatenated without copying (Arrow chunks); each outcome's
    spans are shifted by the rows of the batches before it.
    """
    if len(batches) == 1:
        return batches[0]
    outcomes: list[Outcome] = []
    offset: dict[str, int] = {}
    parts: dict[str, list[pa.Table]] = {}
    for b in batches:
        for o in b.outcomes:
            if o.spans:
                o.spans = {t: (s + offset.get(t, 0), e + offset.get(t, 0)) for t, (s, e) in o.spans.items()}
            outcomes.append(o)
        for name, table in b.tables.items():
            offset[name] = offset.get(name, 0) + table.num_rows
            parts.setdefault(name, []).append(table)
    return Batch(outcomes, {name: pa.concat_tables(ts) for name, ts in parts.items()})


def raw_sha256(raw: bytes) -> str:
    """The content hash the replay layer gives a record (``Record.sha256``)."""
    return hashlib.sha256(raw.strip()).hexdigest()


def parse_time(value: Any) -> datetime | None:
    """An ISO-8601 timestamp as naive UTC, or ``None`` if it is not one."""
    if not isinstance(value, str) or not value:
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        return None
    if dt.tzinfo is not None:
        dt = dt.astimezone(timezone.utc).replace(tzinfo=None)
    return dt


_dumps = orjson.dumps
_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS


def _json(value: Any) -> str | None:
    if value is None:
        return None
    return _dumps(value, default=str, option=_NON_STR_KEYS).decode()


def _int(value: Any, lo: int = INT32_MIN, hi: int = INT32_MAX) -> int | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value if lo <= value <= hi else None
    if isinstance(value, float) and value.is_integer():
        return _int(int(value), lo, hi)
    if isinstance(value, str):
        try:
            return _int(int(value.strip()), lo, hi)
        except ValueError:
            return None
    return None


def _str(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return _json(value)


def _float(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return None


def _int32(value: Any) -> int | None:
    """:func:`_int` with a fast path for the usual case (an int in range)."""
    if type(value) is int and INT32_MIN <= value <= INT32_MAX:
        return value
    return _int(value)


COERCE: dict[str, Callable[[Any], Any]] = {
    "VARCHAR": _str,
    "INTEGER": _int32,
    "BIGINT": lambda v: _int(v, -(2**63), 2**63 - 1),
    "DOUBLE": _float,
    "BOOLEAN": _bool,
    "JSON": _json,
}


class _EventTexts(msgspec.Struct):
    """A record read for one thing only: the JSON text of each of its events."""

    events: list[msgspec.Raw] = []


_event_texts = msgspec.json.Decoder(_EventTexts).decode


def _text_array(parts: list[Any], typ: pa.DataType) -> pa.Array:
    """An Arrow text column from raw UTF-8 pieces (bytes or :class:`msgspec.Raw`), copied once.

    The pieces are joined into one buffer and their lengths become the
    offsets: no Python string is made per value.  The pieces are slices of a
    record that was decoded as JSON, so they are valid UTF-8 and valid JSON.
    """
    data = b"".join(parts)
    if len(data) > INT32_MAX:  # beyond a plain string column's offsets: let Arrow decide
        return pa.array([bytes(p).decode() for p in parts], typ)
    offsets = array("i", accumulate(map(len, parts), initial=0))
    storage = pa.StringArray.from_buffers(len(parts), pa.py_buffer(offsets), pa.py_buffer(data))
    if isinstance(typ, pa.BaseExtensionType):
        return pa.ExtensionArray.from_storage(typ, storage)
    return storage if typ == pa.string() else storage.cast(typ)


class _Columns:
    """One table's columns as Python lists (name -> values), turned into Arrow at the end.

    A game's rows are added column by column (``extend`` with a whole
    column's values at once), never row by row: a game's events become eight
    list extensions, not eight appends per event.  A column named in
    ``raw_text`` holds raw UTF-8 pieces instead of strings (the events'
    payloads, cut from the record's own text).
    """

    __slots__ = ("table", "cols", "raw_text")

    def __init__(self, table: schema.Table, raw_text: tuple[str, ...] = ()) -> None:
        self.table = table
        self.cols: dict[str, list[Any]] = {c: [] for c in table.column_names}
        self.raw_text = raw_text

    def __len__(self) -> int:
        return len(self.cols[self.table.columns[0][0]])

    def row(self, *values: Any) -> None:
        """Append one row (tables with a handful of rows per game): one value per column, or
        ``ValueError`` before anything is appended (the record goes to quarantine; no value is
        dropped unseen)."""
        cols = self.cols
        if len(values) != len(cols):
            raise ValueError(f"{self.table.name}: {len(values)} values for {len(cols)} columns")
        for col, v in zip(cols.values(), values):
            col.append(v)

    def check(self) -> int:
        """The row count, after checking that every column has as many values."""
        n = len(self)
        if any(len(c) != n for c in self.cols.values()):
            raise AssertionError(f"{self.table.name}: columns of different lengths")
        return n

    def truncate(self, n: int) -> None:
        for col in self.cols.values():
            del col[n:]

    def to_arrow(self) -> pa.Table:
        sch = self.table.arrow_schema()
        return pa.Table.from_arrays(
            [_text_array(self.cols[f.name], f.type) if f.name in self.raw_text
             else pa.array(self.cols[f.name], type=f.type) for f in sch], schema=sch
        )


class EventRows(Observer):
    """What ingest notes of a replay as it runs: each event's round and phase (an observation's are
    the last event's), and the score timeline: a row (seq, player, category, points) wherever a
    player's points in a category changed from the last row's (from 0), at the event that changed
    them.  An engine returns the very same score mapping when nothing scored, which is passed
    over at once, or an equal one (compared in C, at once) when it recomputes."""

    __slots__ = ("rounds", "phases", "t_seq", "t_pid", "t_cat", "t_pts", "_round", "_phase", "_score",
                 "_prev", "_last")

    def __init__(self) -> None:
        self.rounds: list[Any] = []
        self.phases: list[str | None] = []
        self.t_seq: list[int] = []
        self.t_pid: list[str] = []
        self.t_cat: list[str] = []
        self.t_pts: list[Any] = []
        self._round: Any = None  # the state as the replay found it (before any event)
        self._phase = ""
        self._score: Any = {}
        self._prev: Any = {}  # the score the last timeline rows came from
        self._last: dict[tuple[str, str], Any] = {}  # (player, category) -> points in the last row

    def started(self, state: State) -> None:
        for noted in (self.rounds, self.phases, self.t_seq, self.t_pid, self.t_cat, self.t_pts):
            noted.clear()  # (a reading of a BGA log tried before this one)
        self._last.clear()
        self._prev = {}
        self._score = state.score()
        self._round, self._phase = state.phase()

    def applied(self, seq: int, event: MoveEvent | ChanceEvent, state: State) -> None:
        score = state.score()
        rnd, phase = state.phase()
        self.rounds.append(rnd)
        self.phases.append(phase or None)
        if score is not self._prev and score != self._prev:
            self._scored(seq, score)

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        if self.rounds:  # the last event's
            self.rounds.append(self.rounds[-1])
            self.phases.append(self.phases[-1])
            return
        self.rounds.append(self._round)
        self.phases.append(self._phase or None)
        score = self._score
        if score is not self._prev and score != self._prev:  # only before the first event
            self._scored(seq, score)

    def _scored(self, seq: int, score: dict[str, dict[str, Any]]) -> None:
        """The timeline rows of a score that differs from the last one's."""
        prev, last = self._prev, self._last
        self._prev = score
        for pid, cats in score.items():
            if cats == prev.get(pid):
                continue
            for cat, pts in cats.items():
                if last.get((pid, cat), 0) != pts:
                    last[(pid, cat)] = pts
                    self.t_seq.append(seq)
                    self.t_pid.append(pid)
                    self.t_cat.append(cat)
                    self.t_pts.append(pts)


def build_batch(job: Job) -> Batch:
    """Parse and replay every record of ``job``; return its rows as Arrow tables."""
    registry = by_kind() if job.milestone_tables is None else {(t.game, t.type): t for t in job.milestone_tables}
    mtables = {t.table: t for t in registry.values()}
    core = {t.name: _Columns(t, ("payload",) if t is schema.EVENTS else ()) for t in schema.CORE_GAME_TABLES}
    typed = {
        name: _Columns(schema.Table(name, m.all_columns, ("game_id", "milestone_no")))
        for name, m in sorted(mtables.items())
    }
    every = (*core.values(), *typed.values())
    outcomes: list[Outcome] = []
    logs = job.logs or {}
    for ordinal, source, line, raw in job.items:
        rows = EventRows()  # the replay's observer: its events' rows, noted as it runs (no frames kept)
        if ordinal in logs:
            got = replay_log(source, line, raw, logs[ordinal], ruleset=job.ruleset, keep_frames=False,
                             observers=(rows,), viewer=job.viewer)
            if got is None:  # a table file after all: read beside its log, not a record
                continue
            raw, r = got  # the record's JSON (the log's bytes if it was refused), and its replay
        else:
            try:
                item = Item(source, line, raw, record=loads(raw, source, line))
            except RecordError as exc:
                item = Item(source, line, raw, error=exc)
            r = replay_item(item, ruleset=job.ruleset, keep_frames=False, observers=(rows,))
        rec = r.record
        sha = rec.sha256 if rec is not None else raw_sha256(raw)
        if r.status == INVALID or rec is None:
            outcomes.append(Outcome(
                ordinal, source, line, sha, INVALID, rec.id if rec else None, rec.game if rec else None,
                str(r.error) if r.error else "invalid record", raw,
            ))
            continue
        starts = [len(c) for c in every]
        try:
            _add_game(r, rows, raw, job, core, typed, registry)
            ends = [c.check() for c in every]
        except Exception as exc:  # a value no column can hold: keep the record, in quarantine
            for c, start in zip(every, starts):
                c.truncate(start)
            outcomes.append(Outcome(
                ordinal, source, line, sha, INVALID, rec.id, rec.game,
                f"{source}:{line}: cannot store this record: {type(exc).__name__}: {exc}", raw,
            ))
            continue
        spans = {c.table.name: (s, e) for c, s, e in zip(every, starts, ends) if e > s}
        outcomes.append(Outcome(ordinal, source, line, sha, r.status, rec.id, rec.game, spans=spans,
                                notes=_import_notes(rec.source)))
    tables = {name: cols.to_arrow() for name, cols in core.items()}
    tables.update({name: cols.to_arrow() for name, cols in typed.items()})
    return Batch(outcomes, tables)


def _import_notes(source: object) -> tuple[str, ...]:
    """A record's ``source.notes`` (what its BGA log left open), as text; usually none."""
    notes = source.get("notes") if isinstance(source, dict) else None
    return tuple(str(n) for n in notes) if isinstance(notes, list) else ()


def _conceded(players: list[dict[str, Any]], result: dict[str, Any]) -> tuple[bool, dict[str, int], list[str]]:
    """A game ended by a concession, which our rules never reach: its ranks are the source's (BGA
    ranks whoever conceded last), so a person's record counts it; statistics leave it out
    (``analytics.distinct.PLAYED_OUT``).  ``(ended, ranking, winners)``: not ended without a rank
    for every player."""
    given = result.get("rank")
    ranking: dict[str, int] = {}
    for p in players:
        v = given.get(str(p["id"])) if isinstance(given, dict) else None
        if type(v) is not int:
            return False, {}, []
        ranking[str(p["id"])] = v
    return bool(ranking), ranking, [p for p, v in ranking.items() if v == 1]


def _add_game(r: Replay, rows: EventRows, raw: bytes, job: Job, core: dict[str, _Columns],
              typed: dict[str, _Columns], registry: dict[tuple[str, str], MilestoneTable]) -> None:
    """Add one replayed game's rows to every table, from what the replay computed.

    Nothing is replayed or scored again here: the events' round and phase and
    the score timeline were noted during the replay (``rows``, an
    :class:`EventRows` observer), milestones come from the replay's list.
    """
    rec = r.record
    assert rec is not None
    gid = rec.id
    over = r.state is not None and r.state.is_over()
    ranking = r.ranking if over else {}
    winners = r.winners
    first = r.first_divergence
    source = rec.source if isinstance(rec.source, dict) else {}
    result = rec.result if isinstance(rec.result, dict) else {}
    if not over and result.get("end") == "concede":
        over, ranking, winners = _conceded(rec.players, result)

    core["games"].row(
        gid, rec.game, _str(source.get("kind")), parse_time(rec.played_at),
        len(rec.players), r.status, len(rec.events), first.seq if first else None,
        ",".join(winners) if winners else None, rec.sha256, job.at, ENGINE_VERSION,
        _str(job.ruleset or rec.options.get("ruleset", "official")), len(rows.rounds), len(r.divergences),
        _str(result.get("end")), r.source, r.line, job.run_id)

    totals = r.totals
    agents: dict[str, Any] = source["agents"] if isinstance(source.get("agents"), dict) else {}
    players = core["players"]
    for seat, p in enumerate(rec.players, start=1):
        pid = str(p["id"])
        rank = ranking.get(pid)
        players.row(gid, pid, _str(p.get("name")), seat, _int(totals.get(pid)), rank,
                    (rank == 1) if over else None, _str(agents.get(pid)))

    # events: one column at a time
    events = rec.events
    n, nf = len(events), len(rows.rounds)
    ev = core["events"].cols
    ev["game_id"].extend(repeat(gid, n))
    ev["seq"].extend(range(n))
    ev["kind"].extend([e.kind for e in events])
    moves = [e if type(e) is MoveEvent else None for e in events]
    ev["player_id"].extend([m.player if m is not None else None for m in moves])
    ev["move_type"].extend([m.move.type if m is not None else None for m in moves])
    ev["payload"].extend(_event_payloads(raw, n))
    rounds = rows.rounds
    # a game has a handful of distinct rounds: each is checked once, not once per event
    if not all(v is None or _int32(v) is v for v in set(rounds)):
        rounds = [_int32(v) for v in rounds]
    ev["round"].extend(rounds)
    ev["phase"].extend(rows.phases)
    if nf < n:  # the replay stopped early: no state after the remaining events
        ev["round"].extend(repeat(None, n - nf))
        ev["phase"].extend(repeat(None, n - nf))

    tl = core["score_timeline"].cols
    tl["game_id"].extend(repeat(gid, len(rows.t_seq)))
    tl["seq"].extend(rows.t_seq)
    tl["player_id"].extend(rows.t_pid)
    tl["category"].extend(rows.t_cat)
    tl["points"].extend([_int32(p) for p in rows.t_pts])

    sb = core["score_breakdown"]
    for pid, cats in r.score.items():
        for cat, pts in cats.items():
            sb.row(gid, pid, cat, _int(pts))

    dv = core["divergences"]
    for i, div in enumerate(r.divergences):
        dv.row(gid, div.seq, div.kind, div.key, _json(div.recorded), _json(div.replayed), div.message, i)

    ms = core["milestones"]
    for i, m in enumerate(r.milestones):
        mtype = str(m.get("type"))
        mseq = _int(m.get("seq"))
        ms.row(gid, mseq, rec.game, mtype, _json(m), i)
        spec = registry.get((rec.game, mtype))
        if spec is not None:
            typed[spec.table].row(gid, mseq, *[COERCE[t](m.get(c)) for c, t in spec.columns], i)

    dp = core["departures"]
    for i, d in enumerate(r.departures):
        dp.row(gid, _int(d["seq"]), rec.game, str(d["rule"]), str(d["happened"]), i)

    ct = core["components_taken"].cols
    for col, values in zip(ct.values(), zip(*taken_rows(gid, r.taken))):
        col.extend(values)

    core["records"].row(gid, raw.strip().decode())


def taken_rows(gid: str, taken: Sequence[Taken]) -> list[tuple[str, int, str, str, str, int]]:
    """The ``components_taken`` rows of one game: what its rules noted as taken, in order."""
    return [(gid, t.seq, t.player, t.kind, t.component, i) for i, t in enumerate(taken)]


def _event_payloads(raw: bytes, n: int) -> list[Any]:
    """Each event's JSON text exactly as the record spells it (``n`` of them, as the record was read)."""
    texts = _event_texts(raw).events
    if len(texts) != n:  # cannot happen for a record that was read; never store misaligned payloads
        raise AssertionError(f"{len(texts)} event texts for {n} events")
    return texts


_SETTLED = False


def settle() -> None:
    """Ready this process to replay many records: :func:`prepare`, then freeze what it loaded.

    Frozen objects are out of the cyclic collector's sight: the collections a
    replay triggers no longer walk every engine's rules and component data,
    which lives as long as the process anyway.  Once per process (a Dask
    worker's first shard); the one-machine ingest does the same in the parent
    before it forks its workers.
    """
    global _SETTLED
    if _SETTLED:
        return
    _SETTLED = True
    prepare()
    gc.collect()
    gc.freeze()


def prepare() -> None:
    """Load, once, what every worker needs, before the workers are forked from this process.

    Every installed game engine (its rules and component data) and pyarrow's
    conversion layer (whose first use imports pandas, about a second of CPU):
    forked workers share them instead of each loading them again.
    """
    try:
        available()
    except Exception:  # noqa: BLE001 - a game that cannot load fails where it is used, as without this
        pass
    pa.array([0], pa.int32())
