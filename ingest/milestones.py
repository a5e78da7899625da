"""Milestone tables: a declarative registry, milestone type -> table.

Every milestone a replay produces lands in the generic ``milestones`` table
(its whole object as JSON), so nothing is lost.  Milestone types that deserve
typed columns also get a table of their own, declared here.  Adding one is a
few lines::

    MilestoneTable(
        game="praga", type="era_change", table="praga_era_changes",
        columns=(("era", "INTEGER"), ("player_id", "VARCHAR")),
    )

appended to :data:`MILESTONE_TABLES` (or passed to :func:`register`).  The
ingest creates the table on its next run; every row also carries
``game_id``, ``seq`` (the event that produced the milestone) and
``milestone_no`` (its index in the game's milestone list, the key shared with
the generic ``milestones`` table).

Column types are DuckDB types among ``VARCHAR``, ``INTEGER``, ``BIGINT``,
``DOUBLE``, ``BOOLEAN`` and ``JSON``.  Values are coerced leniently: a value
that does not fit its column becomes NULL in the typed table (the full
milestone is still in ``milestones``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyarrow as pa

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


MILESTONE_TABLES: list[MilestoneTable] = [
    MilestoneTable(
        game="pax_pamir", type="dominance_check", table="pax_pamir_dominance_checks",
        columns=(
            ("check_no", "INTEGER"), ("is_final", "BOOLEAN"), ("threshold", "INTEGER"),
            ("successful", "BOOLEAN"), ("dominant_coalition", "VARCHAR"),
            ("blocks_afghan", "INTEGER"), ("blocks_british", "INTEGER"), ("blocks_russian", "INTEGER"),
            ("player_id", "VARCHAR"), ("loyalty", "VARCHAR"), ("influence", "INTEGER"),
            ("cylinders", "INTEGER"), ("points", "INTEGER"),
        ),
    ),
    MilestoneTable(
        game="pax_pamir", type="rulership_change", table="pax_pamir_rulership_changes",
        columns=(("region", "VARCHAR"), ("old_ruler", "VARCHAR"), ("new_ruler", "VARCHAR")),
    ),
    MilestoneTable(
        game="pax_pamir", type="loyalty_change", table="pax_pamir_loyalty_changes",
        columns=(("player_id", "VARCHAR"), ("old", "VARCHAR"), ("new", "VARCHAR")),
    ),
    MilestoneTable(
        game="coal_baron", type="shift_ranking", table="coal_baron_shift_rankings",
        columns=(
            ("shift", "INTEGER"), ("category", "VARCHAR"), ("player_id", "VARCHAR"),
            ("value", "INTEGER"), ("rank", "INTEGER"), ("points", "INTEGER"),
        ),
    ),
    MilestoneTable(
        game="copenhagen", type="facade_completion", table="copenhagen_completions",
        columns=(
            ("player_id", "VARCHAR"), ("line", "VARCHAR"), ("index", "INTEGER"),
            ("all_windows", "BOOLEAN"), ("points", "INTEGER"),
        ),
    ),
    MilestoneTable(
        game="perikles", type="election", table="perikles_elections",
        columns=(
            ("round", "INTEGER"), ("city", "VARCHAR"), ("alpha_player", "VARCHAR"),
            ("alpha_cubes", "INTEGER"), ("beta_player", "VARCHAR"), ("beta_cubes", "INTEGER"),
            ("winner", "VARCHAR"), ("cubes_removed", "INTEGER"),
        ),
    ),
    MilestoneTable(
        game="perikles", type="combat", table="perikles_combats",
        columns=(
            ("round", "INTEGER"), ("location", "VARCHAR"), ("combat_no", "INTEGER"),
            ("combat_type", "VARCHAR"), ("attacker_player", "VARCHAR"), ("defender_player", "VARCHAR"),
            ("attack_strength", "INTEGER"), ("defence_strength", "INTEGER"), ("table_column", "INTEGER"),
            ("attacker_target", "INTEGER"), ("defender_target", "INTEGER"),
            ("start_tokens_attacker", "INTEGER"), ("start_tokens_defender", "INTEGER"),
            ("rolls", "JSON"), ("winner", "VARCHAR"), ("casualty", "VARCHAR"),
            ("table_label", "VARCHAR"), ("casualty_power", "VARCHAR"), ("casualty_strength", "INTEGER"),
        ),
    ),
    MilestoneTable(
        game="perikles", type="location_claimed", table="perikles_locations_claimed",
        columns=(("round", "INTEGER"), ("location", "VARCHAR"), ("player_id", "VARCHAR"), ("points", "INTEGER")),
    ),
    MilestoneTable(
        game="praga", type="era_change", table="praga_era_changes",
        columns=(("round", "INTEGER"), ("player_id", "VARCHAR"), ("turn", "INTEGER"), ("era", "VARCHAR"),
                 ("tiles_removed", "INTEGER")),
    ),
    MilestoneTable(
        game="praga", type="plaza_completed", table="praga_plaza_completions",
        columns=(("round", "INTEGER"), ("plaza", "VARCHAR"), ("tile", "VARCHAR"), ("player_id", "VARCHAR"),
                 ("cubes", "INTEGER"), ("both_rewards", "BOOLEAN")),
    ),
    MilestoneTable(
        game="praga", type="technology_gained", table="praga_technologies",
        columns=(("round", "INTEGER"), ("player_id", "VARCHAR"), ("tech", "VARCHAR"), ("level", "INTEGER")),
    ),
]


def register(table: MilestoneTable) -> None:
    """Add (or redefine, by table name) a milestone table."""
    for i, t in enumerate(MILESTONE_TABLES):
        if t.table == table.table:
            MILESTONE_TABLES[i] = table
            return
    MILESTONE_TABLES.append(table)


def by_kind() -> dict[tuple[str, str], MilestoneTable]:
    """``(game, milestone type) -> table`` for the current registry."""
    return {(t.game, t.type): t for t in MILESTONE_TABLES}
