"""Milestone tables: milestone type -> a typed table, as each title declares them.

Every milestone a replay produces lands in the generic ``milestones`` table
(its whole object as JSON), so nothing is lost.  Milestone types that deserve
typed columns also get a table of their own, declared by the title itself in
its ``Game`` (``milestone_tables``, :class:`replay.engine.MilestoneTable`)::

    MilestoneTable("era_change", "praga_era_changes", (("era", "INTEGER"), ("player_id", "VARCHAR")))

:data:`MILESTONE_TABLES` is every registered title's declarations, in registry
order (tests add a toy game's with :func:`register`).  The ingest creates a
table on its next run; every row also carries ``game_id``, ``seq`` (the event
that produced the milestone) and ``milestone_no`` (its index in the game's
milestone list, the key shared with the generic ``milestones`` table).

Column types are DuckDB types among ``VARCHAR``, ``INTEGER``, ``BIGINT``,
``DOUBLE``, ``BOOLEAN`` and ``JSON``.  Values are coerced leniently: a value
that does not fit its column becomes NULL in the typed table (the full
milestone is still in ``milestones``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from replay.games import available, get_game

JSON_TEXT: pa.DataType = pa.json_() if hasattr(pa, "json_") else pa.string()
"""JSON text as Arrow's ``arrow.json`` extension type (pyarrow >= 19): DuckDB loads it into a
``JSON`` column as it is, without parsing every value again to check it (the ingest makes
these values with a JSON encoder, or has just parsed them)."""

ARROW_TYPES: dict[str, pa.DataType] = {
    "VARCHAR": pa.string(),
    "INTEGER": pa.int32(),
    "BIGINT": pa.int64(),
    "DOUBLE": pa.float64(),
    "BOOLEAN": pa.bool_(),
    "JSON": JSON_TEXT,
}

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
KEY_COLUMNS = (("game_id", "VARCHAR"), ("seq", "INTEGER"))
TAIL_COLUMNS = (("milestone_no", "INTEGER"),)


@dataclass(frozen=True)
class MilestoneTable:
    """One typed table for milestones of ``type`` produced by ``game``."""

    game: str
    type: str
    table: str
    columns: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        if not _NAME.match(self.table):
            raise ValueError(f"bad milestone table name {self.table!r}")
        names = [c for c, _ in KEY_COLUMNS + TAIL_COLUMNS]
        for name, typ in self.columns:
            if not _NAME.match(name) or name in names:
                raise ValueError(f"bad or duplicate column {name!r} in {self.table}")
            if typ not in ARROW_TYPES:
                raise ValueError(f"unsupported column type {typ!r} for {self.table}.{name}")
            names.append(name)

    @property
    def all_columns(self) -> tuple[tuple[str, str], ...]:
        return KEY_COLUMNS + self.columns + TAIL_COLUMNS


def declared() -> list[MilestoneTable]:
    """The typed milestone tables every registered title declares, in registry order."""
    return [MilestoneTable(game=gid, type=t.type, table=t.table, columns=t.columns)
            for gid in available() for t in get_game(gid).milestone_tables]


def __getattr__(name: str) -> Any:
    # MILESTONE_TABLES is read the first time it is needed: it imports every title's engine
    if name == "MILESTONE_TABLES":
        tables = globals()["MILESTONE_TABLES"] = declared()
        return tables
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _tables() -> list[MilestoneTable]:
    tables: list[MilestoneTable] | None = globals().get("MILESTONE_TABLES")
    return tables if tables is not None else __getattr__("MILESTONE_TABLES")


def register(table: MilestoneTable) -> None:
    """Add (or redefine, by table name) a milestone table."""
    tables = _tables()
    for i, t in enumerate(tables):
        if t.table == table.table:
            tables[i] = table
            return
    tables.append(table)


def by_kind() -> dict[tuple[str, str], MilestoneTable]:
    """``(game, milestone type) -> table`` for the current registry."""
    return {(t.game, t.type): t for t in _tables()}
