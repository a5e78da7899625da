"""The database schema: every table, its columns and their types, in one place.

The DDL, the Arrow schemas the workers build batches with, the replacement
deletes and the Parquet export all derive from :func:`tables`, so a column is
declared exactly once.  See ``docs/database.md`` for what each table means.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import pyarrow as pa

from ingest import milestones
from ingest.duck import first_row
from ingest.milestones import ARROW_TYPES

ARROW_TYPES_CORE: dict[str, pa.DataType] = dict(ARROW_TYPES, TIMESTAMP=pa.timestamp("us"))


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[tuple[str, str], ...]
    order_by: tuple[str, ...]
    """The key, used for deterministic ordering (export, tests)."""
    per_game: bool = True
    """Rows belong to one game (``game_id``) and are replaced with it."""

    @property
    def column_names(self) -> list[str]:
        return [c for c, _ in self.columns]

    def arrow_schema(self) -> pa.Schema:
        return pa.schema([(c, ARROW_TYPES_CORE[t]) for c, t in self.columns])

    def ddl(self) -> str:
        cols = ", ".join(f'"{c}" {t}' for c, t in self.columns)
        return f"CREATE TABLE IF NOT EXISTS {self.name} ({cols})"


GAMES = Table("games", (
    ("game_id", "VARCHAR"), ("title", "VARCHAR"), ("source_kind", "VARCHAR"), ("played_at", "TIMESTAMP"),
    ("player_count", "INTEGER"), ("status", "VARCHAR"), ("n_events", "INTEGER"),
    ("first_divergence_seq", "INTEGER"), ("winner", "VARCHAR"), ("record_sha256", "VARCHAR"),
    ("ingested_at", "TIMESTAMP"), ("engine_version", "VARCHAR"),
    ("ruleset", "VARCHAR"), ("n_replayed", "INTEGER"), ("n_divergences", "INTEGER"),
    ("result_end", "VARCHAR"), ("source_file", "VARCHAR"), ("source_line", "INTEGER"),
    ("run_id", "INTEGER"),
), ("game_id",))

PLAYERS = Table("players", (
    ("game_id", "VARCHAR"), ("player_id", "VARCHAR"), ("name", "VARCHAR"), ("seat", "INTEGER"),
    ("final_score", "INTEGER"), ("rank", "INTEGER"), ("won", "BOOLEAN"), ("agent", "VARCHAR"),
), ("game_id", "seat"))

EVENTS = Table("events", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("kind", "VARCHAR"), ("player_id", "VARCHAR"),
    ("move_type", "VARCHAR"), ("payload", "JSON"), ("round", "INTEGER"), ("phase", "VARCHAR"),
), ("game_id", "seq"))

SCORE_TIMELINE = Table("score_timeline", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("player_id", "VARCHAR"), ("category", "VARCHAR"),
    ("points", "INTEGER"),
), ("game_id", "seq", "player_id", "category"))

SCORE_BREAKDOWN = Table("score_breakdown", (
    ("game_id", "VARCHAR"), ("player_id", "VARCHAR"), ("category", "VARCHAR"), ("points", "INTEGER"),
), ("game_id", "player_id", "category"))

DIVERGENCES = Table("divergences", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("kind", "VARCHAR"), ("key", "VARCHAR"),
    ("recorded", "JSON"), ("replayed", "JSON"), ("message", "VARCHAR"), ("divergence_no", "INTEGER"),
), ("game_id", "divergence_no"))

MILESTONES = Table("milestones", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("title", "VARCHAR"), ("type", "VARCHAR"),
    ("payload", "JSON"), ("milestone_no", "INTEGER"),
), ("game_id", "milestone_no"))

DEPARTURES = Table("departures", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("title", "VARCHAR"), ("rule", "VARCHAR"),
    ("happened", "VARCHAR"), ("departure_no", "INTEGER"),
), ("game_id", "departure_no"))
"""Each step where a game played under ``ruleset: bga`` followed a BGA departure from the rulebook
(``replay.departures``; the rule's section and texts come from the title's declaration)."""

COMPONENTS_TAKEN = Table("components_taken", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("player_id", "VARCHAR"), ("kind", "VARCHAR"),
    ("component", "VARCHAR"), ("take_no", "INTEGER"),
), ("game_id", "take_no"))
"""Each component a player took by a move that names only where it lay (a market column, a display
slot), as the replay's rules noted it (``replay.engine.State.take``): a Pax Pamir event card bought,
a Perikles influence tile, a Praga hex tile picked from the display.  ``component`` is its id in the
title's data; ``take_no`` its index in the game's list."""

RECORDS = Table("records", (
    ("game_id", "VARCHAR"), ("raw", "JSON"),
), ("game_id",))

QUARANTINE = Table("quarantine", (
    ("source", "VARCHAR"), ("line", "INTEGER"), ("error", "VARCHAR"), ("raw", "VARCHAR"),
    ("at", "TIMESTAMP"), ("raw_sha256", "VARCHAR"), ("game_id", "VARCHAR"), ("kind", "VARCHAR"),
    ("run_id", "INTEGER"),
), ("source", "line", "raw_sha256"), per_game=False)

INGEST_RUNS = Table("ingest_runs", (
    ("run_id", "INTEGER"), ("started_at", "TIMESTAMP"), ("finished_at", "TIMESTAMP"), ("files", "INTEGER"),
    ("records", "INTEGER"), ("ok", "INTEGER"), ("diverged", "INTEGER"), ("quarantined", "INTEGER"),
    ("skipped", "INTEGER"), ("replaced", "INTEGER"), ("paths", "VARCHAR"), ("engine_version", "VARCHAR"),
    ("status", "VARCHAR"),
), ("run_id",), per_game=False)

# ---- win chances (``gamerec analyse``; see docs/analysis.md) ---------------------------------------------

ANALYSES = Table("analyses", (
    ("game_id", "VARCHAR"), ("record_sha256", "VARCHAR"), ("title", "VARCHAR"), ("at", "VARCHAR"),
    ("agent", "VARCHAR"), ("rollouts", "INTEGER"), ("positions", "INTEGER"), ("turning_points", "INTEGER"),
    ("stopped", "VARCHAR"), ("engine_version", "VARCHAR"), ("seconds", "DOUBLE"), ("analysed_at", "TIMESTAMP"),
    ("capped_rollouts", "INTEGER"), ("method", "VARCHAR"),
), ("game_id",))

WIN_CHANCES = Table("win_chances", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("player_id", "VARCHAR"), ("chance", "DOUBLE"),
    ("rollouts", "INTEGER"), ("ci_low", "DOUBLE"), ("ci_high", "DOUBLE"), ("mover", "VARCHAR"),
    ("move_seq", "INTEGER"),
), ("game_id", "seq", "player_id"))

TURNING_POINTS = Table("turning_points", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("player_id", "VARCHAR"), ("after_seq", "INTEGER"),
    ("chance_before", "DOUBLE"), ("chance_after", "DOUBLE"), ("delta", "DOUBLE"), ("direction", "VARCHAR"),
    ("move", "VARCHAR"), ("verdict", "VARCHAR"),
), ("game_id", "seq"))

TURNING_POINT_ALTERNATIVES = Table("turning_point_alternatives", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("player_id", "VARCHAR"), ("alt_no", "INTEGER"),
    ("move", "JSON"), ("words", "VARCHAR"), ("chance", "DOUBLE"), ("ci_low", "DOUBLE"), ("ci_high", "DOUBLE"),
    ("rollouts", "INTEGER"), ("played", "BOOLEAN"),
), ("game_id", "seq", "alt_no"))

CHOICES = Table("choices", (
    ("game_id", "VARCHAR"), ("seq", "INTEGER"), ("move_seq", "INTEGER"), ("player_id", "VARCHAR"),
    ("moves", "INTEGER"), ("chance_played", "DOUBLE"), ("chance_best", "DOUBLE"), ("given_away", "DOUBLE"),
    ("best_move", "JSON"), ("best_words", "VARCHAR"), ("played_words", "VARCHAR"),
), ("game_id", "move_seq"))

ANALYSIS_TABLES = (ANALYSES, WIN_CHANCES, TURNING_POINTS, TURNING_POINT_ALTERNATIVES, CHOICES)
"""Written by ``gamerec analyse``, never by an ingest, and never deleted by one: a game an ingest replaces
keeps its analysis (carried over when the replay is unchanged, stale otherwise: see ``ingest.writer``)."""

CORE_GAME_TABLES = (GAMES, PLAYERS, EVENTS, SCORE_TIMELINE, SCORE_BREAKDOWN, DIVERGENCES, MILESTONES, DEPARTURES,
                    COMPONENTS_TAKEN, RECORDS)


def milestone_tables() -> list[Table]:
    return [Table(m.table, m.all_columns, ("game_id", "milestone_no")) for m in milestones.MILESTONE_TABLES]


def game_tables() -> list[Table]:
    """Every table whose rows belong to one game (replaced together with it)."""
    return [*CORE_GAME_TABLES, *milestone_tables(), *ANALYSIS_TABLES]


def tables() -> list[Table]:
    return [*game_tables(), QUARANTINE, INGEST_RUNS]


def create_schema(con: duckdb.DuckDBPyConnection) -> bool:
    """Create every missing table, and add columns declared since the table was made; whether a table or
    column was added to a database that already held games (readers' snapshot then needs publishing).

    A milestone table (or column) declared after games were ingested is
    filled from the generic ``milestones`` table, which holds every
    milestone's fields, so a new declaration applies to the whole database
    at once.  ``components_taken``, made in a database of games ingested
    before it existed, is filled by replaying their stored records
    (:func:`backfill_taken`).  All of it is one transaction.
    """
    specs = {m.table: m for m in milestones.MILESTONE_TABLES}
    fill_taken = False
    added = False
    con.execute("BEGIN TRANSACTION")
    try:
        for t in tables():
            have = [r[0] for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "AND table_schema = 'main' AND table_catalog = current_database()",
                [t.name],
            ).fetchall()]
            con.execute(t.ddl())
            spec = specs.get(t.name)
            added = added or len(have) < len(t.columns)
            if not have:
                if spec is not None:
                    _backfill_table(con, t, spec)
                elif t is COMPONENTS_TAKEN:
                    fill_taken = True
                continue
            for name, typ in t.columns:
                if name not in have:
                    con.execute(f'ALTER TABLE {t.name} ADD COLUMN "{name}" {typ}')
                    if spec is not None:
                        _backfill_column(con, t, spec, name, typ)
        if fill_taken:
            backfill_taken(con)
        added = added and first_row(con.execute("SELECT 1 FROM games LIMIT 1")) is not None
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return added


def _from_payload(column: str, typ: str) -> str:
    """SQL for one milestone field of ``m.payload``, coerced like :mod:`ingest.rows` does."""
    path = "'$.\"" + column + "\"'"  # column names are [a-z0-9_]: checked by MilestoneTable
    if typ == "JSON":
        return (f"CASE WHEN coalesce(json_type(m.payload, {path}), 'NULL') = 'NULL' "
                f"THEN NULL ELSE json_extract(m.payload, {path}) END")
    text = f"json_extract_string(m.payload, {path})"
    return text if typ == "VARCHAR" else f"TRY_CAST({text} AS {typ})"


def _backfill_table(con: duckdb.DuckDBPyConnection, t: Table, spec: milestones.MilestoneTable) -> None:
    cols = ", ".join(f'"{c}"' for c in t.column_names)
    values = ", ".join(["m.game_id", "m.seq", *(_from_payload(c, typ) for c, typ in spec.columns),
                        "m.milestone_no"])
    con.execute(f"INSERT INTO {t.name} ({cols}) SELECT {values} FROM milestones m "
                "WHERE m.title = ? AND m.type = ?", [spec.game, spec.type])


def _backfill_column(con: duckdb.DuckDBPyConnection, t: Table, spec: milestones.MilestoneTable, column: str,
                     typ: str) -> None:
    con.execute(f'UPDATE {t.name} SET "{column}" = {_from_payload(column, typ)} FROM milestones m '
                f"WHERE m.game_id = {t.name}.game_id AND m.milestone_no = {t.name}.milestone_no")


def backfill_taken(con: duckdb.DuckDBPyConnection, batch: int = 1000) -> int:
    """Fill ``components_taken`` for the stored games of every title whose rules note takes
    (``State.taken_kinds``), by replaying each one's stored record under its stored ruleset, a
    batch of games at a time; the number of rows written.  The migration of a database made before
    the table existed (:func:`create_schema` calls it once, when it makes the table)."""
    from ingest.rows import taken_rows
    from replay.games import available, get_game
    from replay.record import loads
    from replay.replayer import replay

    if first_row(con.execute("SELECT 1 FROM games LIMIT 1")) is None:
        return 0
    titles = [t for t in available() if get_game(t).state_class.taken_kinds]
    games = con.execute(f"SELECT game_id, coalesce(ruleset, 'official') FROM games "
                        f"WHERE title IN ({', '.join('?' for _ in titles)}) ORDER BY game_id", titles).fetchall()
    written = 0
    sch = COMPONENTS_TAKEN.arrow_schema()
    for start in range(0, len(games), batch):
        chunk = dict(games[start:start + batch])
        raws = con.execute("SELECT game_id, raw FROM records WHERE list_contains(?, game_id)",
                           [list(chunk)]).fetchall()
        rows: list[tuple[object, ...]] = []
        for gid, raw in sorted(raws):
            try:
                r = replay(loads(raw.encode()), keep_frames=False, ruleset=chunk[gid])
            except Exception:  # noqa: BLE001 - a record that no longer reads or replays keeps no takes
                continue
            rows += taken_rows(gid, r.taken)
        if rows:
            cols = list(zip(*rows))
            con.register("gamerec_taken", pa.Table.from_arrays(
                [pa.array(c, f.type) for c, f in zip(cols, sch)], schema=sch))
            try:
                con.execute(f"INSERT INTO {COMPONENTS_TAKEN.name} SELECT * FROM gamerec_taken")
            finally:
                con.unregister("gamerec_taken")
            written += len(rows)
    return written
