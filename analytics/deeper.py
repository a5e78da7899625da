"""Deeper per-title statistics: the win rate of player-games grouped by what a player of each title
looks at first, each with its 95% Wilson interval and the player-games behind it.

Each title's tables are ``deeper_tables(con)`` in its ``analytics/titles/<id>.py`` (Coal Baron: orders
fulfilled, by transport type and in all), built with :func:`rates` and :func:`count_groups` from here.
Over finished distinct games (:mod:`analytics.distinct`); every player-game of
those games is in exactly one group of each table.  :func:`tables` gives a title's tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import polars as pl

from analytics.components import wilson
from analytics.distinct import statistics_games_sql
from analytics.players import _tables
from analytics.titles import title_piece
from ingest.duck import polars


@dataclass
class RateTable:
    name: str
    """A short id (``final_loyalty``), the key in ``gamerec stats --json``."""
    heading: str
    note: str
    rows: pl.DataFrame
    """``group`` (text), ``player_games``, ``wins``, ``win_rate``, ``win_rate_low``, ``win_rate_high``."""


def bucket(col: str, top: int) -> str:
    """A count as text, the counts from ``top`` on together (``3+``); sorts as text in numeric order."""
    return f"CASE WHEN {col} >= {top} THEN '{top}+' ELSE CAST({col} AS VARCHAR) END"


def rates(con: duckdb.DuckDBPyConnection, title: str, groups_sql: str, need: set[str]) -> pl.DataFrame:
    """Win rate per group: ``groups_sql`` selects ``game_id, player_id, grp, ord`` from ``pg`` (every player of
    the finished distinct games of ``title``), one row per player-game."""
    schema = {"group": pl.String, "player_games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64,
              "win_rate_low": pl.Float64, "win_rate_high": pl.Float64}
    if not (need | {"games", "players"}) <= _tables(con):
        return pl.DataFrame(schema=schema)
    df = polars(con.sql(f"""
        WITH pg AS (
            SELECT p.game_id, p.player_id, p.won FROM players p JOIN ({statistics_games_sql(con)}) g USING (game_id)
            WHERE g.title = $title AND p.won IS NOT NULL
        ), grouped AS ({groups_sql})
        SELECT gr.grp AS "group", min(gr.ord) AS ord, count(*)::BIGINT AS player_games,
               count(*) FILTER (WHERE pg.won)::BIGINT AS wins
        FROM pg JOIN grouped gr USING (game_id, player_id)
        GROUP BY gr.grp ORDER BY ord, "group"
    """, params={"title": title}))
    cis = [wilson(int(w), int(n)) for w, n in zip(df.get_column("wins"), df.get_column("player_games"))]
    return df.with_columns(
        (pl.col("wins") / pl.col("player_games")).alias("win_rate"),
        pl.Series("win_rate_low", [c[0] for c in cis], dtype=pl.Float64),
        pl.Series("win_rate_high", [c[1] for c in cis], dtype=pl.Float64),
    ).select(list(schema)).cast(schema)  # type: ignore[arg-type]


def count_groups(counts_sql: str, top: int) -> str:
    """Groups from a per-player count (``counts_sql`` selects ``game_id, player_id, n``; absent: 0)."""
    return f"""
        SELECT pg.game_id, pg.player_id, {bucket('coalesce(c.n, 0)', top)} AS grp,
               least(coalesce(c.n, 0), {top}) AS ord
        FROM pg LEFT JOIN ({counts_sql}) c USING (game_id, player_id)
    """


def tables(con: duckdb.DuckDBPyConnection, title: str) -> list[RateTable]:
    """The title's deeper tables (``deeper_tables()`` in ``analytics/titles/<id>.py``; none for a title
    without them)."""
    fn = title_piece(title, "deeper_tables")
    if fn is None:
        return []
    out: list[RateTable] = fn(con)
    return out
