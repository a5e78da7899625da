"""Summary statistics over an ingested database (``gamerec stats``).

Every function takes a DuckDB connection (from
:func:`analytics.db.connect_readonly`) and an optional game id (``title``),
and returns a polars DataFrame in a deterministic order.  User input only
ever reaches SQL as a bound parameter.  Games are counted once per BGA table
(:mod:`analytics.distinct`); divergences are counted in every record.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analytics.distinct import PLAYED_OUT, distinct_games_sql, keyed_games_sql, statistics_games_sql
from ingest.duck import polars

# `$title` is NULL for "every title"
_TITLE = "($title::VARCHAR IS NULL OR g.title = $title::VARCHAR)"


def _query(con: duckdb.DuckDBPyConnection, sql: str, title: str | None) -> pl.DataFrame:
    return polars(con.sql(sql, params={"title": title}))


def overview(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """One row: games, players, events, divergences, quarantined records, games a player left or
    conceded (``left_table``: not in the win rates and scores, :data:`~analytics.distinct.PLAYED_OUT`),
    last run."""
    games = distinct_games_sql(con)
    return _query(con, f"""
        SELECT
            (SELECT count(*) FROM ({games}) g WHERE {_TITLE}) AS games,
            (SELECT count(*) FROM players p JOIN ({games}) g USING (game_id) WHERE {_TITLE}) AS players,
            (SELECT coalesce(sum(n_events), 0)::BIGINT FROM ({games}) g WHERE {_TITLE}) AS events,
            (SELECT count(*) FROM divergences d JOIN games g USING (game_id) WHERE {_TITLE}) AS divergences,
            (SELECT count(*) FROM quarantine) AS quarantined,
            (SELECT count(*) FROM ({games}) g WHERE {_TITLE} AND NOT ({PLAYED_OUT})) AS left_table,
            (SELECT max(finished_at) FROM ingest_runs) AS last_ingest
    """, title)


def games_by_title_status(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """Games per title and status, with the share of each status within its title."""
    return _query(con, f"""
        SELECT g.title, g.status, count(*) AS games,
               round(100.0 * count(*) / sum(count(*)) OVER (PARTITION BY g.title), 1) AS pct
        FROM ({distinct_games_sql(con)}) g
        WHERE {_TITLE}
        GROUP BY g.title, g.status
        ORDER BY g.title, g.status
    """, title)


def divergences_by_kind(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """Divergences per title and kind: how many, in how many games, and how many were the first."""
    return _query(con, f"""
        SELECT g.title, d.kind, count(*) AS divergences, count(DISTINCT g.table_key) AS games,
               count(*) FILTER (WHERE d.divergence_no = 0) AS first_in_game
        FROM divergences d JOIN ({keyed_games_sql(con)}) g USING (game_id)
        WHERE {_TITLE}
        GROUP BY g.title, d.kind
        ORDER BY g.title, divergences DESC, d.kind
    """, title)


def win_rate_by_seat(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """Win rate per title, player count and seat (1 = first player), over finished games.

    A shared first place counts as a win for every player sharing it.
    """
    return _query(con, f"""
        SELECT g.title, g.player_count, p.seat, count(*) AS games,
               count(*) FILTER (WHERE p.won) AS wins,
               round(avg(CASE WHEN p.won THEN 1.0 ELSE 0.0 END), 4) AS win_rate
        FROM players p JOIN ({statistics_games_sql(con)}) g USING (game_id)
        WHERE p.won IS NOT NULL AND {_TITLE}
        GROUP BY g.title, g.player_count, p.seat
        ORDER BY g.title, g.player_count, p.seat
    """, title)


def mean_score_by_category(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """Mean, min and max final points per title and scoring category, over finished games."""
    return _query(con, f"""
        SELECT g.title, s.category, count(*) AS player_games,
               round(avg(s.points), 2) AS mean, min(s.points) AS min, max(s.points) AS max
        FROM score_breakdown s JOIN ({statistics_games_sql(con)}) g USING (game_id)
        WHERE g.winner IS NOT NULL AND {_TITLE}
        GROUP BY g.title, s.category
        ORDER BY g.title, mean DESC, s.category
    """, title)


def quarantine(con: duckdb.DuckDBPyConnection, limit: int = 20) -> pl.DataFrame:
    """The most recently met quarantined records: where they are and why they could not be read."""
    return polars(con.sql("""
        SELECT run_id, source, line, kind, error
        FROM quarantine
        ORDER BY run_id DESC, source, line NULLS FIRST
        LIMIT ?
    """, params=[limit]))


def titles(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The game ids present in the database."""
    return [r[0] for r in con.execute("SELECT DISTINCT title FROM games ORDER BY title").fetchall()]
