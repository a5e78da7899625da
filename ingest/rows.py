"""Turn raw records into column batches, one Arrow table per database table.

This is the work the ingest spreads over processes: :func:`build_batch`
receives raw record bytes with their file and line, parses and replays each
record, and returns a :class:`Batch` holding Arrow tables (columns, never row
objects) plus one :class:`Outcome` per record for the writer's bookkeeping.
Rows come out in input order, then in the natural order inside a game (seat,
seq, category), so the same input always gives the same tables.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import orjson
import pyarrow as pa

from ingest import schema
from ingest.milestones import MilestoneTable, by_kind
from replay import ENGINE_VERSION
from replay.record import Item, RecordError, loads
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


def _json(value: Any) -> str | None:
    if value is None:
        return None
    return orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


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


COERCE: dict[str, Callable[[Any], Any]] = {
    "VARCHAR": _str,
    "INTEGER": _int,
    "BIGINT": lambda v: _int(v, -(2**63), 2**63 - 1),
    "DOUBLE": _float,
    "BOOLEAN": _bool,
    "JSON": _json,
}


class _Columns:
    """Column lists for one table, appended to row by row, turned into Arrow at the end."""

    __slots__ = ("table", "cols")

    def __init__(self, table: schema.Table) -> None:
        self.table = table
        self.cols: list[list[Any]] = [[] for _ in table.columns]

    def to_arrow(self) -> pa.Table:
        sch = self.table.arrow_schema()
        return pa.Table.from_arrays(
            [pa.array(c, type=sch.field(i).type) for i, c in enumerate(self.cols)], schema=sch
        )


def build_batch(job: Job) -> Batch:
    """Parse and replay every record of ``job``; return its rows as Arrow tables."""
    registry = by_kind() if job.milestone_tables is None else {(t.game, t.type): t for t in job.milestone_tables}
    mtables = {t.table: t for t in registry.values()}
    core = {t.name: _Columns(t) for t in schema.CORE_GAME_TABLES}
    typed = {
        name: _Columns(schema.Table(name, m.all_columns, ("game_id", "milestone_no")))
        for name, m in sorted(mtables.items())
    }
    outcomes: list[Outcome] = []
    for ordinal, source, line, raw in job.items:
        sha = raw_sha256(raw)
        try:
            item = Item(source, line, raw, record=loads(raw, source, line))
        except RecordError as exc:
            item = Item(source, line, raw, error=exc)
        r = replay_item(item, ruleset=job.ruleset)
        rec = r.record
        if r.status == INVALID or rec is None:
            outcomes.append(Outcome(
                ordinal, source, line, sha, INVALID, rec.id if rec else None, rec.game if rec else None,
                str(r.error) if r.error else "invalid record", raw,
            ))
            continue
        every = (*core.values(), *typed.values())
        starts = [len(c.cols[0]) for c in every]
        try:
            _add_game(r, raw, job, core, typed, registry)
        except Exception as exc:  # a value no column can hold: keep the record, in quarantine
            for c, start in zip(every, starts):
                for col in c.cols:
                    del col[start:]
            outcomes.append(Outcome(
                ordinal, source, line, sha, INVALID, rec.id, rec.game,
                f"{source}:{line}: cannot store this record: {type(exc).__name__}: {exc}", raw,
            ))
            continue
        spans = {c.table.name: (s, len(c.cols[0])) for c, s in zip(every, starts) if len(c.cols[0]) > s}
        outcomes.append(Outcome(ordinal, source, line, sha, r.status, rec.id, rec.game, spans=spans))
    tables = {name: cols.to_arrow() for name, cols in core.items()}
    tables.update({name: cols.to_arrow() for name, cols in typed.items()})
    return Batch(outcomes, tables)


def _add_game(r: Replay, raw: bytes, job: Job, core: dict[str, _Columns], typed: dict[str, _Columns],
              registry: dict[tuple[str, str], MilestoneTable]) -> None:
    rec = r.record
    assert rec is not None
    gid = rec.id
    over = r.state is not None and r.state.is_over()
    ranking = r.ranking if over else {}
    winners = r.winners
    first = r.first_divergence
    source = rec.source if isinstance(rec.source, dict) else {}
    result = rec.result if isinstance(rec.result, dict) else {}

    def add(cols: _Columns, *values: Any) -> None:
        if len(values) != len(cols.cols):
            raise AssertionError(f"{cols.table.name}: {len(values)} values for {len(cols.cols)} columns")
        for col, v in zip(cols.cols, values):
            col.append(v)

    add(core["games"], gid, rec.game, _str(source.get("kind")), parse_time(rec.played_at),
        len(rec.players), r.status, len(rec.events), first.seq if first else None,
        ",".join(winners) if winners else None, rec.sha256, job.at, ENGINE_VERSION,
        _str(job.ruleset or rec.options.get("ruleset", "official")), len(r.frames), len(r.divergences),
        _str(result.get("end")), r.source, r.line, job.run_id)

    totals = r.totals
    agents: dict[str, Any] = source["agents"] if isinstance(source.get("agents"), dict) else {}
    for seat, p in enumerate(rec.players, start=1):
        pid = str(p["id"])
        rank = ranking.get(pid)
        add(core["players"], gid, pid, _str(p.get("name")), seat, _int(totals.get(pid)), rank,
            (rank == 1) if over else None, _str(agents.get(pid)))

    frames = r.frames
    ev_cols = core["events"]
    for seq, ev in enumerate(rec.events):
        d = ev.to_dict()
        if ev.kind == "move":
            player, mtype = d["player"], d["move"].get("type")
        else:
            player, mtype = None, None
        if seq < len(frames):
            fr = frames[seq]
            rnd, phase = _int(fr.round), fr.phase or None
        else:
            rnd, phase = None, None
        add(ev_cols, gid, seq, ev.kind, player, mtype, _json(d), rnd, phase)

    tl = core["score_timeline"]
    last: dict[tuple[str, str], int] = {}
    prev_score: object = None
    for fr in frames:
        if fr.score is prev_score:
            continue
        prev_score = fr.score
        for pid, cats in fr.score.items():
            for cat, pts in cats.items():
                if last.get((pid, cat), 0) != pts:
                    last[(pid, cat)] = pts
                    add(tl, gid, fr.seq, pid, cat, _int(pts))

    sb = core["score_breakdown"]
    for pid, cats in r.score.items():
        for cat, pts in cats.items():
            add(sb, gid, pid, cat, _int(pts))

    dv = core["divergences"]
    for n, div in enumerate(r.divergences):
        add(dv, gid, div.seq, div.kind, div.key, _json(div.recorded), _json(div.replayed), div.message, n)

    ms = core["milestones"]
    for n, m in enumerate(r.milestones):
        mtype = str(m.get("type"))
        mseq = _int(m.get("seq"))
        add(ms, gid, mseq, rec.game, mtype, _json(m), n)
        spec = registry.get((rec.game, mtype))
        if spec is not None:
            add(typed[spec.table], gid, mseq, *(COERCE[t](m.get(c)) for c, t in spec.columns), n)

    add(core["records"], gid, raw.strip().decode())
