"""The dashboard's named queries over the gamerec DuckDB database.

Every function here takes an open DuckDB connection as its first argument
and returns a polars DataFrame (or a small dict).  User input only ever
reaches the database as bound parameters (``?``); table and column names
come from this module, never from the caller.  Aggregation happens in the
database so that a chart never receives more than a few thousand rows.

:func:`run` opens a short-lived read-only connection, runs one query and
closes it again: the dashboard never holds the database file open between
queries, so an ingest can take its write lock at any time, and a read that
finds the file locked by a writer is retried for a moment before giving up
with :class:`DatabaseBusy`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from analytics.db import NoDatabase, connect_readonly, snapshot_version
from analytics.distinct import (
    PLAYED_OUT,
    counted_ids_sql,
    distinct_games_sql,
    keyed_games_sql,
    statistics_games_sql,
    statistics_ids_sql,
)
from ingest.duck import first_row, polars, scalar
from replay.games import UnknownGame, get_game

GAME_LIST_LIMIT = 500


class DatabaseMissing(FileNotFoundError):
    """The database file does not exist (nothing was ingested yet)."""


class DatabaseBusy(RuntimeError):
    """A writer (an ingest) holds the database's lock and did not release it in time."""


def title_label(title: str | None) -> str:
    """The display name of a title id, as its game declares it (``coal_baron`` -> ``Coal Baron``)."""
    if title is None:
        return "?"
    try:
        return get_game(title).title
    except UnknownGame:
        return title


def db_version(db_path: str | Path) -> tuple[int, ...]:
    """A cheap fingerprint of what a reader sees: changes whenever the ingest publishes.

    Used as part of cache keys so that a finished ingest shows up without a restart.
    """
    v = snapshot_version(db_path)
    return tuple(v) if v is not None else (0,)


def connect(db_path: str | Path) -> duckdb.DuckDBPyConnection:
    """A read-only connection to what the ingest last published.

    The ingest publishes an immutable snapshot next to the database (see
    :mod:`analytics.db`), so reading never waits for a writer.  A plain
    DuckDB file without a snapshot is opened read-only, retried for a moment
    if a writer holds it (:func:`analytics.db.while_locked`).
    """
    try:
        return connect_readonly(db_path)
    except NoDatabase as exc:
        if not Path(db_path).exists():
            raise DatabaseMissing(str(exc)) from None
        raise DatabaseBusy(str(exc)) from None


def run(db_path: str | Path, fn: Callable[..., Any], /, **params: Any) -> Any:
    """Run one query function on a fresh read-only connection and close it."""
    con = connect(db_path)
    try:
        return fn(con, **params)
    finally:
        con.close()


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    rows = con.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()
    return {r[0] for r in rows}


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> set[str]:
    rows = con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_name = ?",
        [table],
    ).fetchall()
    return {r[0] for r in rows}


def _counted(con: duckdb.DuckDBPyConnection, alias: str = "") -> str:
    """SQL condition: the row's game is one the statistics count (each BGA table once, none a player
    left or conceded: :mod:`analytics.distinct`)."""
    return f"{alias}game_id IN ({statistics_ids_sql(con)})"


def _df(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
    return polars(con.sql(sql, params=params or []))


def _empty(**schema: Any) -> pl.DataFrame:
    return pl.DataFrame(schema=schema)


def tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The tables present in the database (sorted)."""
    return sorted(_tables(con))


def titles(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The game titles that have at least one game in the database."""
    if "games" not in _tables(con):
        return []
    return [r[0] for r in con.execute("SELECT DISTINCT title FROM games ORDER BY title").fetchall()]


# --------------------------------------------------------------------------
# Overview
# --------------------------------------------------------------------------


def summary(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Headline counts: games, players, events, diverged games (each BGA table once), quarantined records,
    and the games a player left or conceded (``left``: not in the win rates and scores,
    :mod:`analytics.distinct`)."""
    have = _tables(con)
    out = {"games": 0, "player_seats": 0, "events": 0, "diverged": 0, "quarantined": 0, "left": 0}
    if "games" in have:
        row = first_row(con.execute(
            "SELECT count(*), coalesce(sum(n_events), 0), count(*) FILTER (WHERE status = 'diverged'), "
            f"count(*) FILTER (WHERE NOT ({PLAYED_OUT})) FROM ({distinct_games_sql(con)})"
        ))
        assert row is not None
        out["games"], out["events"], out["diverged"], out["left"] = int(row[0]), int(row[1]), int(row[2]), int(row[3])
    if "players" in have and "games" in have:
        row = first_row(con.execute(f"SELECT count(*) FROM players WHERE game_id IN ({counted_ids_sql(con)})"))
        out["player_seats"] = int(row[0]) if row else 0
    if "quarantine" in have:
        row = first_row(con.execute("SELECT count(*) FROM quarantine"))
        out["quarantined"] = int(row[0]) if row else 0
    return out


def games_by_title_status(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Games per title and status."""
    if "games" not in _tables(con):
        return _empty(title=pl.String, status=pl.String, games=pl.Int64)
    return _df(con, f"""
        SELECT title, status, count(*)::BIGINT AS games
        FROM ({distinct_games_sql(con)}) GROUP BY title, status ORDER BY title, status
    """)


def score_distribution(con: duckdb.DuckDBPyConnection, bins: int = 30) -> pl.DataFrame:
    """Final scores per title as a histogram (binned in the database), split winners / others."""
    if not {"games", "players"} <= _tables(con):
        return _empty(title=pl.String, bin_start=pl.Float64, bin_end=pl.Float64, group=pl.String,
                      players=pl.Int64)
    return _df(con, f"""
        WITH s AS (
            SELECT g.title, p.final_score::DOUBLE AS score, coalesce(p.won, false) AS won
            FROM players p JOIN ({statistics_games_sql(con)}) g USING (game_id)
            WHERE p.final_score IS NOT NULL AND p.won IS NOT NULL
        ), r AS (
            SELECT title, min(score) AS lo, greatest(max(score) - min(score), 1) AS span FROM s GROUP BY title
        ), b AS (
            SELECT s.title, s.won,
                   least(floor((s.score - r.lo) / (r.span / ?)), ? - 1) AS bucket, r.lo, r.span
            FROM s JOIN r USING (title)
        )
        SELECT title,
               lo + bucket * span / ? AS bin_start,
               lo + (bucket + 1) * span / ? AS bin_end,
               CASE WHEN won THEN 'winners' ELSE 'others' END AS "group",
               count(*)::BIGINT AS players
        FROM b GROUP BY title, bucket, lo, span, won
        ORDER BY title, bin_start, "group"
    """, [bins, bins, bins, bins])


def seat_win_rates(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Win rate by seat (1 = first player) and player count, per title, with the games behind it,
    and which agents played the seat where the records name them (``greedy 50, random 50``): over
    simulated games a seat's win rate also says which agent sat there."""
    if not {"games", "players"} <= _tables(con):
        return _empty(title=pl.String, player_count=pl.Int64, seat=pl.Int64, games=pl.Int64,
                      wins=pl.Int64, win_rate=pl.Float64, agents=pl.String)
    agent = "p.agent" if "agent" in _columns(con, "players") else "NULL::VARCHAR"
    return _df(con, f"""
        WITH b AS (
            SELECT g.title, g.player_count::BIGINT AS player_count, (p.seat + ?)::BIGINT AS seat, p.won,
                   {agent} AS agent
            FROM players p JOIN ({statistics_games_sql(con)}) g USING (game_id)
            WHERE p.won IS NOT NULL
        ), a AS (
            SELECT title, player_count, seat, agent, count(*) AS n FROM b WHERE agent IS NOT NULL GROUP BY ALL
        ), names AS (
            SELECT title, player_count, seat, string_agg(agent || ' ' || n, ', ' ORDER BY n DESC, agent) AS agents
            FROM a GROUP BY ALL
        )
        SELECT b.title, b.player_count, b.seat, count(*)::BIGINT AS games,
               count(*) FILTER (WHERE b.won)::BIGINT AS wins,
               avg(CASE WHEN b.won THEN 1.0 ELSE 0.0 END) AS win_rate,
               any_value(names.agents) AS agents
        FROM b LEFT JOIN names USING (title, player_count, seat)
        GROUP BY b.title, b.player_count, b.seat ORDER BY title, player_count, seat
    """, [_seat_offset(con)])


def overview(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """Everything the Overview shows but the per-title top scores, read over one connection:
    ``summary``, ``by_status`` (:func:`games_by_title_status`), ``distribution``
    (:func:`score_distribution`) and ``seat_rates`` (:func:`seat_win_rates`).

    One connection rather than four: opening one (a fresh DuckDB attaching the snapshot) costs about as
    much as any of these queries on 100,000 games, and the Overview is the page every visit starts on.
    """
    return {"summary": summary(con), "by_status": games_by_title_status(con),
            "distribution": score_distribution(con), "seat_rates": seat_win_rates(con)}


def agent_win_rates(con: duckdb.DuckDBPyConnection, title: str) -> pl.DataFrame:
    """Win rate by the agent that played (simulated games name theirs), per player count."""
    if not {"games", "players"} <= _tables(con) or "agent" not in _columns(con, "players"):
        return _empty(player_count=pl.Int64, agent=pl.String, games=pl.Int64, wins=pl.Int64, win_rate=pl.Float64)
    return _df(con, f"""
        SELECT g.player_count::BIGINT AS player_count, p.agent, count(*)::BIGINT AS games,
               count(*) FILTER (WHERE p.won)::BIGINT AS wins,
               avg(CASE WHEN p.won THEN 1.0 ELSE 0.0 END) AS win_rate
        FROM players p JOIN ({statistics_games_sql(con)}) g USING (game_id)
        WHERE g.title = ? AND p.won IS NOT NULL AND p.agent IS NOT NULL
        GROUP BY ALL ORDER BY player_count, agent
    """, [title])


def _seat_offset(con: duckdb.DuckDBPyConnection) -> int:
    """1 if seats are stored 0-based, else 0 (the chart always shows seat 1 as the first player)."""
    row = first_row(con.execute("SELECT min(seat) FROM players"))
    return 1 if row and row[0] == 0 else 0


def top_scores(con: duckdb.DuckDBPyConnection, limit: int = 10, title: str | None = None) -> pl.DataFrame:
    """The highest final scores (one row per player seat), optionally for one title."""
    if not {"games", "players"} <= _tables(con):
        return _empty(game_id=pl.String, title=pl.String, player_id=pl.String, name=pl.String,
                      final_score=pl.Int64, won=pl.Boolean, player_count=pl.Int64, status=pl.String,
                      n_events=pl.Int64)
    return _df(con, f"""
        SELECT g.game_id, g.title, p.player_id, p.name, p.final_score, p.won,
               g.player_count::BIGINT AS player_count, g.status, g.n_events::BIGINT AS n_events
        FROM players p JOIN ({distinct_games_sql(con)}) g USING (game_id)
        WHERE p.final_score IS NOT NULL AND (?::VARCHAR IS NULL OR g.title = ?)
        ORDER BY p.final_score DESC, g.game_id, p.player_id
        LIMIT ?
    """, [title, title, limit])


# --------------------------------------------------------------------------
# Game review
# --------------------------------------------------------------------------


def filter_options(con: duckdb.DuckDBPyConnection) -> dict[str, list[Any]]:
    """The values the game picker offers: titles, player counts, statuses."""
    if "games" not in _tables(con):
        return {"title": [], "player_count": [], "status": []}
    out: dict[str, list[Any]] = {}
    for col in ("title", "player_count", "status"):
        rows = con.execute(f"SELECT DISTINCT {col} FROM games WHERE {col} IS NOT NULL ORDER BY 1").fetchall()
        out[col] = [r[0] for r in rows]
    return out


def game_list(
    con: duckdb.DuckDBPyConnection,
    title: str | None = None,
    player_count: int | None = None,
    status: str | None = None,
    search: str | None = None,
    order: str = "top_score",
    limit: int = GAME_LIST_LIMIT,
    offset: int = 0,
) -> pl.DataFrame:
    """Games matching the filters (``limit`` of them from ``offset``), best score first or newest first;
    ``total`` is how many match in all (for paging)."""
    if not {"games", "players"} <= _tables(con):
        return _empty(game_id=pl.String, title=pl.String, played_at=pl.String, player_count=pl.Int64,
                      status=pl.String, n_events=pl.Int64, winner=pl.String, top_score=pl.Int64,
                      total=pl.Int64)
    order_sql = {
        "top_score": "top_score DESC NULLS LAST, g.game_id",
        "newest": "g.played_at DESC NULLS LAST, g.game_id",
        "game_id": "g.game_id",
    }.get(order, "top_score DESC NULLS LAST, g.game_id")
    pattern = f"%{search}%" if search else None
    return _df(con, f"""
        SELECT g.game_id, g.title, CAST(g.played_at AS VARCHAR) AS played_at,
               g.player_count::BIGINT AS player_count, g.status, g.n_events::BIGINT AS n_events,
               g.winner, s.top_score, count(*) OVER ()::BIGINT AS total
        FROM games g
        LEFT JOIN (SELECT game_id, max(final_score) AS top_score FROM players GROUP BY game_id) s USING (game_id)
        WHERE (?::VARCHAR IS NULL OR g.title = ?)
          AND (?::BIGINT IS NULL OR g.player_count = ?)
          AND (?::VARCHAR IS NULL OR g.status = ?)
          AND (?::VARCHAR IS NULL OR g.game_id ILIKE ?)
        ORDER BY {order_sql}
        LIMIT ? OFFSET ?
    """, [title, title, player_count, player_count, status, status, pattern, pattern, limit, offset])


def game_header(con: duckdb.DuckDBPyConnection, game_id: str) -> dict[str, Any] | None:
    """The games row of one game (as a dict), or None."""
    if "games" not in _tables(con):
        return None
    df = _df(con, "SELECT * FROM games WHERE game_id = ?", [game_id])
    return df.row(0, named=True) if df.height else None


def game_players(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """The players of one game in seat order."""
    if "players" not in _tables(con):
        return _empty(player_id=pl.String, name=pl.String, seat=pl.Int64, final_score=pl.Int64,
                      rank=pl.Int64, won=pl.Boolean)
    return _df(con, """
        SELECT player_id, name, seat::BIGINT AS seat, final_score, rank, won
        FROM players WHERE game_id = ? ORDER BY seat
    """, [game_id])


def game_record_raw(con: duckdb.DuckDBPyConnection, game_id: str) -> str | None:
    """The record of one game exactly as it was ingested (``records.raw``), or None."""
    if "records" not in _tables(con):
        return None
    row = first_row(con.execute("SELECT CAST(raw AS VARCHAR) FROM records WHERE game_id = ?", [game_id]))
    return str(row[0]) if row and row[0] is not None else None


def game_milestones(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Every milestone of one game (type, seq and its whole object as JSON text)."""
    if "milestones" not in _tables(con):
        return _empty(seq=pl.Int64, type=pl.String, payload=pl.String)
    return _df(con, """
        SELECT seq::BIGINT AS seq, type, CAST(payload AS VARCHAR) AS payload
        FROM milestones WHERE game_id = ? ORDER BY seq, milestone_no
    """, [game_id])


def game_events(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Every event of one game, in order, with its payload (the event's JSON) as text."""
    if "events" not in _tables(con):
        return _empty(seq=pl.Int64, kind=pl.String, player_id=pl.String, move_type=pl.String,
                      payload=pl.String, round=pl.Int64, phase=pl.String)
    return _df(con, """
        SELECT seq::BIGINT AS seq, kind, player_id, move_type, CAST(payload AS VARCHAR) AS payload,
               round::BIGINT AS round, CAST(phase AS VARCHAR) AS phase
        FROM events WHERE game_id = ? ORDER BY seq
    """, [game_id])


def game_timeline(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Score by player and category at every event where it changed, plus a closing point per series
    just after the last event (so that end-of-game scoring shows as a step of its own)."""
    if not {"score_timeline", "games"} <= _tables(con):
        return _empty(seq=pl.Int64, player_id=pl.String, category=pl.String, points=pl.Int64)
    return _df(con, """
        WITH t AS (
            SELECT seq::BIGINT AS seq, player_id, category, points::BIGINT AS points
            FROM score_timeline WHERE game_id = ?
        ), last AS (
            SELECT player_id, category, arg_max(points, seq) AS points FROM t GROUP BY player_id, category
        )
        SELECT * FROM t
        UNION ALL
        SELECT greatest((SELECT n_events FROM games WHERE game_id = ?), 0)::BIGINT AS seq,
               player_id, category, points
        FROM last
        ORDER BY player_id, category, seq
    """, [game_id, game_id])


def game_divergences(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Every divergence of one game, in order."""
    if "divergences" not in _tables(con):
        return _empty(seq=pl.Int64, kind=pl.String, key=pl.String, recorded=pl.String, replayed=pl.String,
                      message=pl.String)
    return _df(con, """
        SELECT seq::BIGINT AS seq, kind, key, json_extract_string(recorded, '$') AS recorded,
               json_extract_string(replayed, '$') AS replayed, message
        FROM divergences WHERE game_id = ? ORDER BY seq
    """, [game_id])


def game_breakdown(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """The final score of one game by player and category."""
    if "score_breakdown" not in _tables(con):
        return _empty(player_id=pl.String, category=pl.String, points=pl.Int64)
    return _df(con, """
        SELECT player_id, category, points::BIGINT AS points
        FROM score_breakdown WHERE game_id = ? ORDER BY player_id, category
    """, [game_id])


# --------------------------------------------------------------------------
# Win chances (gamerec analyse; docs/analysis.md)
# --------------------------------------------------------------------------


def game_analysis(con: duckdb.DuckDBPyConnection, game_id: str) -> dict[str, Any] | None:
    """How one game's win chances were made (rollouts, agent, positions...), whether they were made
    from the record now in the database (``current``) and whether the title's value model is trusted
    to judge one move against another (``moves_confirmed``: its preferred moves proved better when
    played out, ``CHOICES`` in the title's features), or ``None`` if it was never analysed."""
    from replay.evaluator import feature_set
    from replay.games import available

    if not {"analyses", "games"} <= _tables(con):
        return None
    rows = _df(con, """
        SELECT a.*, (a.record_sha256 = g.record_sha256) AS current
        FROM analyses a LEFT JOIN games g USING (game_id) WHERE a.game_id = ?
    """, [game_id]).to_dicts()
    if not rows:
        return None
    row = rows[0]
    features = feature_set(row["title"]) if row["title"] in available() else None
    row["moves_confirmed"] = features is not None and features.choices
    return row


def game_win_chances(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Each player's estimated win chance at every analysed position of one game (``seq``: the position
    is the state after that event), with its 95% interval."""
    if "win_chances" not in _tables(con):
        return _empty(seq=pl.Int64, player_id=pl.String, chance=pl.Float64, ci_low=pl.Float64,
                      ci_high=pl.Float64, rollouts=pl.Int64, mover=pl.String, move_seq=pl.Int64)
    return _df(con, """
        SELECT seq::BIGINT AS seq, player_id, chance, ci_low, ci_high, rollouts::BIGINT AS rollouts, mover,
               move_seq::BIGINT AS move_seq
        FROM win_chances WHERE game_id = ? ORDER BY seq, player_id
    """, [game_id])


def game_turning_points(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """The turns of one game after which the mover's chance fell or rose the most, in event order."""
    if "turning_points" not in _tables(con):
        return _empty(seq=pl.Int64, player_id=pl.String, after_seq=pl.Int64, chance_before=pl.Float64,
                      chance_after=pl.Float64, delta=pl.Float64, direction=pl.String, move=pl.String,
                      verdict=pl.String)
    return _df(con, """
        SELECT seq::BIGINT AS seq, player_id, after_seq::BIGINT AS after_seq, chance_before, chance_after, delta,
               direction, move, verdict
        FROM turning_points WHERE game_id = ? ORDER BY seq
    """, [game_id])


def game_alternatives(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """The moves rolled out at the turning points of one game (best first at each), the played one marked."""
    if "turning_point_alternatives" not in _tables(con):
        return _empty(seq=pl.Int64, player_id=pl.String, alt_no=pl.Int64, words=pl.String, chance=pl.Float64,
                      ci_low=pl.Float64, ci_high=pl.Float64, rollouts=pl.Int64, played=pl.Boolean)
    return _df(con, """
        SELECT seq::BIGINT AS seq, player_id, alt_no::BIGINT AS alt_no, words, chance, ci_low, ci_high,
               rollouts::BIGINT AS rollouts, played
        FROM turning_point_alternatives WHERE game_id = ? ORDER BY seq, alt_no
    """, [game_id])


# --------------------------------------------------------------------------
# Score breakdowns
# --------------------------------------------------------------------------


def breakdown_by_rank(con: duckdb.DuckDBPyConnection, title: str, player_count: int | None = None) -> pl.DataFrame:
    """Average final points per category for each final rank (1 = winner), with the games behind it
    (of one player count if given: rank 3 of a 3-player game is last, of a 5-player game middling)."""
    if not {"score_breakdown", "players", "games"} <= _tables(con):
        return _empty(rank=pl.Int64, category=pl.String, avg_points=pl.Float64, games=pl.Int64)
    return _df(con, f"""
        SELECT p.rank::BIGINT AS rank, b.category, avg(b.points) AS avg_points,
               count(DISTINCT b.game_id)::BIGINT AS games
        FROM score_breakdown b
        JOIN players p USING (game_id, player_id)
        JOIN ({statistics_games_sql(con)}) g USING (game_id)
        WHERE g.title = ? AND p.won IS NOT NULL AND p.rank IS NOT NULL
              AND (?::INTEGER IS NULL OR g.player_count = ?)
        GROUP BY ALL ORDER BY rank, category
    """, [title, player_count, player_count])


def breakdown_winners_vs_rest(con: duckdb.DuckDBPyConnection, title: str,
                              player_count: int | None = None) -> pl.DataFrame:
    """Average final points per category, winners against the other players, with game counts
    (of one player count if given)."""
    if not {"score_breakdown", "players", "games"} <= _tables(con):
        return _empty(category=pl.String, group=pl.String, avg_points=pl.Float64, players=pl.Int64,
                      games=pl.Int64)
    return _df(con, f"""
        SELECT b.category, CASE WHEN p.won THEN 'winners' ELSE 'others' END AS "group",
               avg(b.points) AS avg_points, count(*)::BIGINT AS players,
               count(DISTINCT b.game_id)::BIGINT AS games
        FROM score_breakdown b
        JOIN players p USING (game_id, player_id)
        JOIN ({statistics_games_sql(con)}) g USING (game_id)
        WHERE g.title = ? AND p.won IS NOT NULL AND (?::INTEGER IS NULL OR g.player_count = ?)
        GROUP BY ALL ORDER BY category, "group" DESC
    """, [title, player_count, player_count])


def game_breakdown_named(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """One game's final breakdown with player names and ranks (for the stacked-per-player chart)."""
    if not {"score_breakdown", "players"} <= _tables(con):
        return _empty(player=pl.String, category=pl.String, points=pl.Int64, rank=pl.Int64)
    return _df(con, """
        SELECT coalesce(p.name, p.player_id) || ' (' || p.player_id || ')' AS player, b.category,
               b.points::BIGINT AS points, p.rank::BIGINT AS rank
        FROM score_breakdown b JOIN players p USING (game_id, player_id)
        WHERE b.game_id = ? ORDER BY p.seat, b.category
    """, [game_id])


# --------------------------------------------------------------------------
# Pax Pamir dominance checks
# --------------------------------------------------------------------------

_DOM = "pax_pamir_dominance_checks"


def dominance_success_by_check(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """How often dominance checks succeed: one row per non-final check number, and one for every final check.

    The final check (the 4th Dominance Check card, scoring double) is one
    group whatever the number of checks resolved before it, so every check
    is counted exactly once and every rate is a share of its own row.
    """
    if _DOM not in _tables(con):
        return _empty(check=pl.String, check_no=pl.Int64, is_final=pl.Boolean, checks=pl.Int64,
                      successful=pl.Int64, success_rate=pl.Float64)
    return _df(con, f"""
        WITH c AS (
            SELECT game_id, seq, any_value(check_no) AS check_no, bool_or(is_final) AS is_final,
                   bool_or(successful) AS successful
            FROM {_DOM} WHERE {_counted(con)} GROUP BY game_id, seq
        )
        SELECT CASE WHEN is_final THEN 'final check' ELSE 'check ' || check_no END AS "check",
               CASE WHEN is_final THEN NULL ELSE check_no END::BIGINT AS check_no, is_final,
               count(*)::BIGINT AS checks,
               count(*) FILTER (WHERE successful)::BIGINT AS successful,
               avg(CASE WHEN successful THEN 1.0 ELSE 0.0 END) AS success_rate
        FROM c GROUP BY ALL ORDER BY is_final, check_no
    """)


def dominance_summary(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """How many dominance checks there were, how many succeeded, in how many games."""
    if _DOM not in _tables(con):
        return {"checks": 0, "successful": 0, "games": 0}
    row = first_row(con.execute(f"""
        WITH c AS (SELECT game_id, seq, bool_or(successful) AS ok FROM {_DOM} WHERE {_counted(con)}
                   GROUP BY game_id, seq)
        SELECT count(*), count(*) FILTER (WHERE ok), count(DISTINCT game_id) FROM c
    """))
    assert row is not None
    return {"checks": int(row[0]), "successful": int(row[1]), "games": int(row[2])}


def dominance_coalitions(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Successful checks by dominant coalition and check number."""
    if _DOM not in _tables(con):
        return _empty(check_no=pl.Int64, dominant_coalition=pl.String, checks=pl.Int64)
    return _df(con, f"""
        WITH c AS (
            SELECT game_id, seq, any_value(check_no) AS check_no, any_value(dominant_coalition) AS dominant_coalition
            FROM {_DOM} WHERE successful AND {_counted(con)} GROUP BY game_id, seq
        )
        SELECT check_no::BIGINT AS check_no, coalesce(dominant_coalition, 'none') AS dominant_coalition,
               count(*)::BIGINT AS checks
        FROM c GROUP BY ALL ORDER BY check_no, dominant_coalition
    """)


def dominance_points_by_outcome(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Average points a player takes from a check, by check (numbered as
    :func:`dominance_success_by_check` numbers them: the final check is one row) and success."""
    if _DOM not in _tables(con):
        return _empty(check=pl.String, successful=pl.Boolean, avg_points=pl.Float64, players=pl.Int64)
    return _df(con, f"""
        SELECT CASE WHEN is_final THEN 'final check' ELSE 'check ' || check_no END AS "check", successful,
               avg(points) AS avg_points, count(*)::BIGINT AS players
        FROM {_DOM} WHERE {_counted(con)} GROUP BY ALL ORDER BY bool_or(is_final), min(check_no), successful
    """)


def dominance_checks_of_game(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Every check of one game, one row per player: block counts, loyalty, influence, points."""
    if _DOM not in _tables(con):
        return _empty(seq=pl.Int64, check_no=pl.Int64)
    return _df(con, f"""
        SELECT seq::BIGINT AS seq, check_no::BIGINT AS check_no, is_final, threshold, successful,
               dominant_coalition, blocks_afghan, blocks_british, blocks_russian,
               player_id, loyalty, influence, cylinders, points
        FROM {_DOM} WHERE game_id = ? ORDER BY seq, player_id
    """, [game_id])


def dominance_games(con: duckdb.DuckDBPyConnection, limit: int = GAME_LIST_LIMIT) -> list[str]:
    """Games that have dominance checks, those with the most successful checks first."""
    if _DOM not in _tables(con):
        return []
    rows = con.execute(f"""
        SELECT game_id FROM {_DOM} GROUP BY game_id
        ORDER BY count(DISTINCT seq) FILTER (WHERE successful) DESC, game_id LIMIT ?
    """, [limit]).fetchall()
    return [r[0] for r in rows]


# --------------------------------------------------------------------------
# Coal Baron shift rankings
# --------------------------------------------------------------------------

_SHIFT = "coal_baron_shift_rankings"


def shift_points(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Average value and points per shift, category and rank, with the number of rows behind it
    (players with nothing in a category are unranked and score nothing: left out)."""
    if _SHIFT not in _tables(con):
        return _empty(shift=pl.Int64, category=pl.String, rank=pl.Int64, avg_value=pl.Float64,
                      avg_points=pl.Float64, rows=pl.Int64)
    return _df(con, f"""
        SELECT shift::BIGINT AS shift, category, rank::BIGINT AS rank, avg(value) AS avg_value,
               avg(points) AS avg_points, count(*)::BIGINT AS rows
        FROM {_SHIFT} WHERE rank IS NOT NULL AND {_counted(con)} GROUP BY ALL ORDER BY shift, category, rank
    """)


def shift_deciders(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Which categories decide games: per category, the shift points winners and others take,
    and how often the winner ranked first in it."""
    if not {_SHIFT, "players"} <= _tables(con):
        return _empty(category=pl.String, winner_points=pl.Float64, other_points=pl.Float64,
                      gap=pl.Float64, winner_first_rate=pl.Float64, games=pl.Int64, total_games=pl.Int64)
    return _df(con, f"""
        WITH per AS (
            SELECT s.game_id, s.category, s.player_id, sum(s.points) AS points,
                   count(*) FILTER (WHERE s.rank = 1) AS firsts, count(*) AS shifts, bool_or(p.won) AS won
            FROM {_SHIFT} s JOIN players p USING (game_id, player_id)
            WHERE p.won IS NOT NULL  -- finished games only: an unfinished game has no winners
              AND {_counted(con, 's.')}
            GROUP BY s.game_id, s.category, s.player_id
        )
        SELECT category,
               avg(points) FILTER (WHERE won) AS winner_points,
               avg(points) FILTER (WHERE NOT won) AS other_points,
               coalesce(avg(points) FILTER (WHERE won), 0) - coalesce(avg(points) FILTER (WHERE NOT won), 0) AS gap,
               sum(firsts) FILTER (WHERE won)::DOUBLE / nullif(sum(shifts) FILTER (WHERE won), 0)
                   AS winner_first_rate,
               count(DISTINCT game_id)::BIGINT AS games,
               (SELECT count(DISTINCT game_id) FROM per)::BIGINT AS total_games
        FROM per GROUP BY category ORDER BY gap DESC, category
    """)


def shift_rankings_of_game(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """One game's shift rankings: per shift and category, each player's value, rank and points."""
    if _SHIFT not in _tables(con):
        return _empty(shift=pl.Int64, category=pl.String, player_id=pl.String, value=pl.Int64,
                      rank=pl.Int64, points=pl.Int64)
    return _df(con, f"""
        SELECT shift::BIGINT AS shift, seq::BIGINT AS seq, category, player_id, value, rank, points
        FROM {_SHIFT} WHERE game_id = ? ORDER BY shift, category, rank, player_id
    """, [game_id])


def shift_games(con: duckdb.DuckDBPyConnection, limit: int = GAME_LIST_LIMIT) -> list[str]:
    """Games that have shift rankings (first the ones with the most shift points)."""
    if _SHIFT not in _tables(con):
        return []
    rows = con.execute(f"""
        SELECT game_id FROM {_SHIFT} GROUP BY game_id ORDER BY sum(points) DESC, game_id LIMIT ?
    """, [limit]).fetchall()
    return [r[0] for r in rows]


# --------------------------------------------------------------------------
# Strategy statistics
# --------------------------------------------------------------------------


def category_edge(con: duckdb.DuckDBPyConnection, title: str) -> pl.DataFrame:
    """Per category: winners' average points minus the others', with the games behind it."""
    df = breakdown_winners_vs_rest(con, title)
    if df.is_empty():
        return _empty(category=pl.String, winners=pl.Float64, others=pl.Float64, edge=pl.Float64,
                      games=pl.Int64)
    wide = df.pivot(on="group", index="category", values="avg_points")
    for col in ("winners", "others"):
        if col not in wide.columns:
            wide = wide.with_columns(pl.lit(None, dtype=pl.Float64).alias(col))
    games = df.group_by("category").agg(pl.col("games").max())
    return (
        wide.join(games, on="category")
        .with_columns((pl.col("winners").fill_null(0) - pl.col("others").fill_null(0)).alias("edge"))
        .select("category", "winners", "others", "edge", "games")
        .sort("edge", descending=True)
    )


def title_player_counts(con: duckdb.DuckDBPyConnection, title: str) -> list[tuple[int, int]]:
    """The player counts of a title's finished games, with how many games each, most games first."""
    if not {"games", "players"} <= _tables(con):
        return []
    rows = con.execute(f"""
        SELECT player_count, count(*) FROM ({statistics_games_sql(con)})
        WHERE title = ? AND game_id IN (SELECT game_id FROM players WHERE won IS NOT NULL)
        GROUP BY player_count ORDER BY count(*) DESC, player_count
    """, [title]).fetchall()
    return [(int(a), int(b)) for a, b in rows]


def title_game_counts(con: duckdb.DuckDBPyConnection, title: str, player_count: int | None = None) -> dict[str, int]:
    """How many games of a title there are, how many complete ones (no divergence), how many
    finished ones the statistics count (the rules reached the end, with or without a divergence on
    the way, and the game was played out), and how many ended ones a player left or conceded
    (``left``: not counted, :data:`~analytics.distinct.PLAYED_OUT`)."""
    if not {"games", "players"} <= _tables(con):
        return {"games": 0, "complete": 0, "finished": 0, "left": 0}
    row = first_row(con.execute(f"""
        WITH g AS (
            SELECT *, game_id IN (SELECT game_id FROM players WHERE won IS NOT NULL) AS ended
            FROM ({distinct_games_sql(con)}) WHERE title = ? AND (?::INTEGER IS NULL OR player_count = ?))
        SELECT count(*), count(*) FILTER (WHERE status = 'complete'),
               count(*) FILTER (WHERE ended AND {PLAYED_OUT}), count(*) FILTER (WHERE ended AND NOT ({PLAYED_OUT}))
        FROM g
    """, [title, player_count, player_count]))
    assert row is not None
    return {"games": int(row[0]), "complete": int(row[1]), "finished": int(row[2]), "left": int(row[3])}


def pax_final_loyalty(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Pax Pamir: at each game's last dominance check, the share of winners and others loyal to
    each coalition, and the average influence, with the number of games."""
    if not {_DOM, "players"} <= _tables(con):
        return _empty(group=pl.String, loyalty=pl.String, players=pl.Int64, share=pl.Float64,
                      avg_influence=pl.Float64, games=pl.Int64, total_games=pl.Int64)
    return _df(con, f"""
        WITH last AS (SELECT game_id, max(seq) AS seq FROM {_DOM} GROUP BY game_id),
        d AS (
            SELECT d.game_id, d.player_id, coalesce(d.loyalty, 'none') AS loyalty, d.influence, p.won
            FROM {_DOM} d JOIN last USING (game_id, seq) JOIN players p USING (game_id, player_id)
            WHERE p.won IS NOT NULL  -- finished games only: an unfinished game has no winners
              AND {_counted(con, 'd.')}
        )
        SELECT CASE WHEN won THEN 'winners' ELSE 'others' END AS "group", loyalty,
               count(*)::BIGINT AS players,
               count(*)::DOUBLE / sum(count(*)) OVER (PARTITION BY won) AS share,
               avg(influence) AS avg_influence,
               count(DISTINCT game_id)::BIGINT AS games,
               (SELECT count(DISTINCT game_id) FROM d)::BIGINT AS total_games
        FROM d GROUP BY won, loyalty ORDER BY "group" DESC, loyalty
    """)


def copenhagen_lines(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Copenhagen: completed rows against columns (and with all windows), winners against the rest,
    per player on average, with the games behind each figure."""
    if not {"copenhagen_completions", "players", "games"} <= _tables(con):
        return _empty(line=pl.String, group=pl.String, per_player=pl.Float64, points_per_player=pl.Float64,
                      all_windows_share=pl.Float64, games=pl.Int64)
    return _df(con, f"""
        WITH pl AS (
            SELECT p.game_id, p.player_id, p.won FROM players p JOIN ({statistics_games_sql(con)}) g USING (game_id)
            WHERE g.title = 'copenhagen' AND p.won IS NOT NULL
        ), c AS (
            SELECT pl.game_id, pl.player_id, pl.won, l.line,
                   count(c.player_id) AS n, coalesce(sum(c.points), 0) AS pts,
                   count(*) FILTER (WHERE c.all_windows) AS windows
            FROM pl CROSS JOIN (VALUES ('row'), ('column')) l(line)
            LEFT JOIN copenhagen_completions c
              ON c.game_id = pl.game_id AND c.player_id = pl.player_id AND c.line = l.line
            GROUP BY ALL
        )
        SELECT line, CASE WHEN won THEN 'winners' ELSE 'others' END AS "group",
               avg(n) AS per_player, avg(pts) AS points_per_player,
               sum(windows)::DOUBLE / nullif(sum(n), 0) AS all_windows_share,
               count(DISTINCT game_id)::BIGINT AS games
        FROM c GROUP BY ALL ORDER BY line, "group" DESC
    """)


def perikles_elections_summary(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Perikles: elections won per player, winners against the rest, with the games behind it."""
    if not {"perikles_elections", "players"} <= _tables(con):
        return _empty(group=pl.String, elections_per_player=pl.Float64, games=pl.Int64)
    cols = _columns(con, "perikles_elections")
    who = "winner" if "winner" in cols else ("player_id" if "player_id" in cols else None)
    if who is None:
        return _empty(group=pl.String, elections_per_player=pl.Float64, games=pl.Int64)
    return _df(con, f"""
        WITH e AS (SELECT game_id, {who} AS player_id, count(*) AS n FROM perikles_elections
                   WHERE {who} IS NOT NULL GROUP BY ALL),
        g AS (SELECT p.game_id, p.player_id, p.won FROM players p
              WHERE p.won IS NOT NULL AND p.game_id IN (SELECT DISTINCT game_id FROM perikles_elections)
                AND {_counted(con, 'p.')})
        SELECT CASE WHEN g.won THEN 'winners' ELSE 'others' END AS "group",
               avg(coalesce(e.n, 0)) AS elections_per_player,
               count(DISTINCT g.game_id)::BIGINT AS games
        FROM g LEFT JOIN e USING (game_id, player_id) GROUP BY ALL ORDER BY "group" DESC
    """)


# --------------------------------------------------------------------------
# Divergences
# --------------------------------------------------------------------------


def divergence_kinds(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Divergences by title and kind (all of them, in every record, and how many games they touch: two
    downloads of one BGA table are one game)."""
    if not {"divergences", "games"} <= _tables(con):
        return _empty(title=pl.String, kind=pl.String, divergences=pl.Int64, games=pl.Int64)
    return _df(con, f"""
        SELECT g.title, d.kind, count(*)::BIGINT AS divergences, count(DISTINCT g.table_key)::BIGINT AS games
        FROM divergences d JOIN ({keyed_games_sql(con)}) g USING (game_id)
        GROUP BY ALL ORDER BY title, divergences DESC
    """)


def divergence_keys(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Divergences by title, kind and what disagreed (the observed key up to its first dot:
    ``score``, ``state_hash``, ``legal_count``, ``rank``...), with the games they touch."""
    if not {"divergences", "games"} <= _tables(con):
        return _empty(title=pl.String, kind=pl.String, what=pl.String, divergences=pl.Int64, games=pl.Int64)
    return _df(con, f"""
        SELECT g.title, d.kind, coalesce(split_part(d.key, '.', 1), '—') AS what,
               count(*)::BIGINT AS divergences, count(DISTINCT g.table_key)::BIGINT AS games
        FROM divergences d JOIN ({keyed_games_sql(con)}) g USING (game_id)
        GROUP BY ALL ORDER BY title, divergences DESC, what
    """)


def diverged_games(
    con: duckdb.DuckDBPyConnection, title: str | None = None, kind: str | None = None,
    limit: int = GAME_LIST_LIMIT,
) -> pl.DataFrame:
    """Every game that diverged, with its first divergence (recorded against replayed)."""
    if not {"divergences", "games"} <= _tables(con):
        return _empty(game_id=pl.String, title=pl.String, status=pl.String, divergences=pl.Int64,
                      seq=pl.Int64, kind=pl.String, key=pl.String, recorded=pl.String, replayed=pl.String,
                      message=pl.String, total=pl.Int64)
    return _df(con, """
        WITH firsts AS (
            SELECT game_id, count(*) AS n, min(seq) AS first_seq FROM divergences GROUP BY game_id
        ), d AS (
            SELECT game_id, seq, kind, key, json_extract_string(recorded, '$') AS recorded,
                   json_extract_string(replayed, '$') AS replayed, message,
                   row_number() OVER (PARTITION BY game_id ORDER BY seq, divergence_no) AS k
            FROM divergences
        )
        SELECT g.game_id, g.title, g.status, f.n::BIGINT AS divergences, d.seq::BIGINT AS seq, d.kind,
               d.key, d.recorded, d.replayed, d.message,
               count(*) OVER ()::BIGINT AS total  -- every matching game, whatever the limit
        FROM firsts f
        JOIN d ON d.game_id = f.game_id AND d.k = 1
        JOIN games g ON g.game_id = f.game_id
        WHERE (?::VARCHAR IS NULL OR g.title = ?) AND (?::VARCHAR IS NULL OR d.kind = ?)
        ORDER BY g.title, g.game_id
        LIMIT ?
    """, [title, title, kind, kind, limit])


def quarantined(con: duckdb.DuckDBPyConnection, limit: int = 200) -> pl.DataFrame:
    """Records that could not be read (the quarantine), by file and line, at most ``limit`` of them;
    ``total`` is how many there are in all."""
    if "quarantine" not in _tables(con):
        return _empty(source=pl.String, line=pl.Int64, error=pl.String, total=pl.Int64)
    return _df(con, """
        SELECT source, line::BIGINT AS line, error, count(*) OVER ()::BIGINT AS total
        FROM quarantine ORDER BY source, line LIMIT ?
    """, [limit])


# ---- BGA's departures from the rulebook (table ``departures``; replay.departures) ----------------------


def departure_rules(con: duckdb.DuckDBPyConnection, title: str) -> pl.DataFrame:
    """Every departure the title declares, with how many of its games under ``ruleset: bga`` it
    applied in and how many times (rules that never applied included, with 0)."""
    from replay.games import get_game

    declared = list(get_game(title).departure_rules.values())
    counts: dict[str, tuple[int, int]] = {}
    bga_games = 0
    if {"departures", "games"} <= _tables(con):
        keyed = keyed_games_sql(con)
        rows = con.execute(f"""
            SELECT d.rule, count(DISTINCT g.table_key), count(*) FILTER (WHERE d.game_id IN ({counted_ids_sql(con)}))
            FROM departures d JOIN ({keyed}) g USING (game_id) WHERE d.title = ? GROUP BY d.rule
        """, [title]).fetchall()
        counts = {r: (int(g), int(t)) for r, g, t in rows}
        bga_games = int(scalar(con.execute(
            f"SELECT count(DISTINCT table_key) FROM ({keyed}) WHERE title = ? AND ruleset = 'bga'", [title])))
    return pl.DataFrame({
        "rule": [d.id for d in declared],
        "section": [d.section for d in declared],
        "games": [counts.get(d.id, (0, 0))[0] for d in declared],
        "times": [counts.get(d.id, (0, 0))[1] for d in declared],
        "bga_games": [bga_games] * len(declared),
        "rulebook": [d.rulebook for d in declared],
        "bga": [d.bga for d in declared],
    }, schema={"rule": pl.String, "section": pl.String, "games": pl.Int64, "times": pl.Int64,
               "bga_games": pl.Int64, "rulebook": pl.String, "bga": pl.String})


def departure_examples(con: duckdb.DuckDBPyConnection, title: str, rule: str, limit: int = 50) -> pl.DataFrame:
    """Where one departure applied: game, event and what happened (the first ``limit`` by game and event)."""
    if "departures" not in _tables(con):
        return _empty(game_id=pl.String, seq=pl.Int64, happened=pl.String, total=pl.Int64)
    return _df(con, """
        SELECT game_id, seq::BIGINT AS seq, happened, count(*) OVER () AS total
        FROM departures WHERE title = ? AND rule = ?
        ORDER BY game_id, departure_no LIMIT ?
    """, [title, rule, limit])


def departure_titles(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The titles with games under ``ruleset: bga`` (where departures can apply), sorted."""
    if "games" not in _tables(con):
        return []
    rows = con.execute("SELECT DISTINCT title FROM games WHERE ruleset = 'bga' ORDER BY title").fetchall()
    return [str(r[0]) for r in rows]


def game_departures(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Every departure of one game, in order."""
    if "departures" not in _tables(con):
        return _empty(seq=pl.Int64, rule=pl.String, happened=pl.String)
    return _df(con, """
        SELECT seq::BIGINT AS seq, rule, happened FROM departures WHERE game_id = ? ORDER BY departure_no
    """, [game_id])


# --------------------------------------------------------------------------
# Players (analytics.players) and components (analytics.components)
# --------------------------------------------------------------------------


def player_search(con: duckdb.DuckDBPyConnection, text: str, limit: int = 50) -> pl.DataFrame:
    """Players by id or any name they played under (:func:`analytics.players.search`)."""
    from analytics import players

    return players.search(con, text, limit)


def player_resolve(con: duckdb.DuckDBPyConnection, text: str) -> dict[str, Any] | None:
    """The one player ``text`` names (id, else name), or ``None`` with nobody or several."""
    from analytics import players

    try:
        return players.resolve(con, text)
    except players.UnknownPlayer:
        return None


def player_profile(con: duckdb.DuckDBPyConnection, player_id: str, title: str | None = None) -> dict[str, Any]:
    """One player's record, games, points by category, opponents, decision quality and their choices game by
    game, over one connection
    (the ratings come from :func:`rating_history`, cached on their own: every profile shares them)."""
    from analytics import players

    played = players.games(con, player_id, title)
    dec = players.decisions(con, player_id, title)
    return {
        "record": players.record(con, player_id, title),
        "games": played,
        "categories": players.categories(con, player_id, title),
        "opponents": players.opponents(con, player_id, title, None),
        "decisions": players.decision_quality(dec),
        "choices_by_game": players.choices_by_game(dec, played),
    }


def rating_history(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """The OpenSkill ladder of ``title`` (or of every title) after every game
    (:func:`analytics.players.rating_history`)."""
    from analytics import players

    return players.rating_history(con, title)


def player_names(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every player's latest name (``player_id``, ``name``)."""
    if not {"games", "players"} <= _tables(con):
        return _empty(player_id=pl.String, name=pl.String)
    return polars(con.sql(f"""
        SELECT p.player_id, arg_max(p.name, (g.played_at, g.game_id)) AS name
        FROM players p JOIN ({distinct_games_sql(con)}) g USING (game_id)
        GROUP BY p.player_id ORDER BY p.player_id
    """))


def rating_ladder(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """Every rated player's current rating, best first, with their latest name."""
    from analytics import players

    lad = players.ladder(players.rating_history(con, title))
    return lad.join(player_names(con), on="player_id", how="left").sort("place")


def game_decisions(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Each analysed decision of one game with the win chance it lost (:func:`analytics.players.game_decisions`)."""
    from analytics import players

    return players.game_decisions(con, game_id)


def component_filters(con: duckdb.DuckDBPyConnection, title: str) -> dict[str, list[Any]]:
    """The player counts, sources and rulesets of a title's finished games (the Components page's filters)."""
    if not {"games", "players"} <= _tables(con):
        return {"player_count": [], "source": [], "ruleset": []}
    out: dict[str, list[Any]] = {}
    for key, col in (("player_count", "player_count"), ("source", "source_kind"),
                     ("ruleset", "coalesce(ruleset, 'official')")):
        rows = con.execute(f"SELECT DISTINCT {col} FROM games WHERE title = ? AND {col} IS NOT NULL ORDER BY 1",
                           [title]).fetchall()
        out[key] = [r[0] for r in rows]
    return out


def component_stats(con: duckdb.DuckDBPyConnection, title: str, player_count: int | None = None,
                    source: str | None = None, ruleset: str | None = None) -> Any:
    """Every component of ``title`` (:func:`analytics.components.components`)."""
    from analytics import components

    return components.components(con, title, player_count=player_count, source=source, ruleset=ruleset)


def deeper_tables(con: duckdb.DuckDBPyConnection, title: str) -> list[Any]:
    """The title's win-rate tables by what its players look at first (:func:`analytics.deeper.tables`)."""
    from analytics import deeper

    return deeper.tables(con, title)
