"""Deeper per-title statistics: the win rate of player-games grouped by what a player of each title
looks at first, each with its 95% Wilson interval and the player-games behind it.

- Pax Pamir: final loyalty; the last dominance check's outcome from the player's side.
- Coal Baron: orders fulfilled, by transport type and in all.
- Copenhagen: rows and columns completed; coat-of-arms bonuses used.
- Perikles: cities led (elections won); battles won (locations claimed).
- Praga: buildings built; the hex tile type (upgrade, wall, building) taken most; technologies gained.

Over finished distinct games (:mod:`analytics.distinct`); every player-game of
those games is in exactly one group of each table.  :func:`tables` gives a title's tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import duckdb
import polars as pl

from analytics.components import Take, catalogue, wilson
from analytics.distinct import distinct_games_sql
from analytics.players import _tables
from ingest.duck import polars


@dataclass
class RateTable:
    name: str
    """A short id (``final_loyalty``), the key in ``gamerec stats --json``."""
    heading: str
    note: str
    rows: pl.DataFrame
    """``group`` (text), ``player_games``, ``wins``, ``win_rate``, ``win_rate_low``, ``win_rate_high``."""


def _bucket(col: str, top: int) -> str:
    """A count as text, the counts from ``top`` on together (``3+``); sorts as text in numeric order."""
    return f"CASE WHEN {col} >= {top} THEN '{top}+' ELSE CAST({col} AS VARCHAR) END"


def _rates(con: duckdb.DuckDBPyConnection, title: str, groups_sql: str, need: set[str]) -> pl.DataFrame:
    """Win rate per group: ``groups_sql`` selects ``game_id, player_id, grp, ord`` from ``pg`` (every player of
    the finished distinct games of ``title``), one row per player-game."""
    schema = {"group": pl.String, "player_games": pl.Int64, "wins": pl.Int64, "win_rate": pl.Float64,
              "win_rate_low": pl.Float64, "win_rate_high": pl.Float64}
    if not (need | {"games", "players"}) <= _tables(con):
        return pl.DataFrame(schema=schema)
    df = polars(con.sql(f"""
        WITH pg AS (
            SELECT p.game_id, p.player_id, p.won FROM players p JOIN ({distinct_games_sql(con)}) g USING (game_id)
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


def _count_groups(counts_sql: str, top: int) -> str:
    """Groups from a per-player count (``counts_sql`` selects ``game_id, player_id, n``; absent: 0)."""
    return f"""
        SELECT pg.game_id, pg.player_id, {_bucket('coalesce(c.n, 0)', top)} AS grp,
               least(coalesce(c.n, 0), {top}) AS ord
        FROM pg LEFT JOIN ({counts_sql}) c USING (game_id, player_id)
    """


def _pax_pamir(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    loyalty = _rates(con, "pax_pamir", """
        SELECT pg.game_id, pg.player_id, coalesce(l.new, 'none') AS grp, 0 AS ord
        FROM pg LEFT JOIN (
            SELECT game_id, player_id, arg_max(new, seq) AS new FROM pax_pamir_loyalty_changes GROUP BY ALL
        ) l USING (game_id, player_id)
    """, {"pax_pamir_loyalty_changes"})
    checks = _rates(con, "pax_pamir", """
        WITH last AS (SELECT game_id, max(seq) AS seq FROM pax_pamir_dominance_checks GROUP BY game_id)
        SELECT pg.game_id, pg.player_id,
               CASE WHEN d.game_id IS NULL THEN 'no dominance check'
                    WHEN NOT d.successful THEN 'unsuccessful (points by influence)'
                    WHEN d.loyalty = d.dominant_coalition THEN 'successful, loyal to the dominant coalition'
                    ELSE 'successful, loyal to another coalition' END AS grp,
               CASE WHEN d.game_id IS NULL THEN 3 WHEN NOT d.successful THEN 2
                    WHEN d.loyalty = d.dominant_coalition THEN 0 ELSE 1 END AS ord
        FROM pg LEFT JOIN (
            SELECT c.* FROM pax_pamir_dominance_checks c JOIN last USING (game_id, seq)
        ) d USING (game_id, player_id)
    """, {"pax_pamir_dominance_checks"})
    return [
        RateTable("final_loyalty", "Win rate by final loyalty",
                  "The coalition each player was loyal to at the end (their last loyalty change).", loyalty),
        RateTable("last_dominance_check", "Win rate by the last dominance check's outcome",
                  "The game's last dominance check, from each player's side: successful or not, and whether "
                  "the player was loyal to the coalition that dominated.", checks),
    ]


def _coal_baron(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    import json
    from importlib import resources

    orders = json.loads((resources.files("replay.games.coal_baron") / "data" / "orders.json").read_text())["orders"]
    values = ", ".join(f"('{o['id']}', '{o['transport']}', {len(o['coal'])})" for o in orders)
    if not {"events", "games", "players"} <= _tables(con):
        return []
    # the fulfilled orders, found once (one scan of the moves) for both tables
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE gamerec_cb_fulfilled AS
        WITH pg AS (
            SELECT p.game_id, p.player_id FROM players p JOIN ({distinct_games_sql(con)}) g USING (game_id)
            WHERE g.title = 'coal_baron' AND p.won IS NOT NULL
        ), spec(card, transport, spaces) AS (VALUES {values}),
        fills AS (
            SELECT e.game_id, e.player_id, json_extract_string(e.payload, '$.move.card') AS card, count(*) AS n
            FROM events e WHERE e.game_id IN (SELECT game_id FROM pg) AND e.kind = 'move'
              AND e.move_type IN ('fill_order', 'substitute')
            GROUP BY ALL
        )
        SELECT f.game_id, f.player_id, s.transport, count(*) AS n
        FROM fills f JOIN spec s USING (card) WHERE f.n >= s.spaces GROUP BY ALL
    """)
    transports = ", ".join(f"('{t}', {i})" for i, t in enumerate(("barrow", "carriage", "motorcar", "engine")))
    by_transport = _rates(con, "coal_baron", f"""
        SELECT pg.game_id, pg.player_id, t.transport || ': ' || {_bucket('coalesce(f.n, 0)', 3)} AS grp,
               t.i * 10 + least(coalesce(f.n, 0), 3) AS ord
        FROM pg CROSS JOIN (VALUES {transports}) t(transport, i)
        LEFT JOIN gamerec_cb_fulfilled f
          ON f.game_id = pg.game_id AND f.player_id = pg.player_id AND f.transport = t.transport
    """, {"events"})
    total = _rates(con, "coal_baron", _count_groups(
        "SELECT game_id, player_id, sum(n) AS n FROM gamerec_cb_fulfilled GROUP BY ALL", 8), {"events"})
    return [
        RateTable("orders_by_transport", "Win rate by orders fulfilled, per transport type",
                  "Order cards whose every coal space the player filled (fill order and substitute moves), "
                  "counted per transport type: 'engine: 2' is the player-games that fulfilled two engine orders.",
                  by_transport),
        RateTable("orders_fulfilled", "Win rate by orders fulfilled in all", "Every transport type together.",
                  total),
    ]


def _copenhagen(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    out = []
    for line, top in (("row", 5), ("column", 3)):
        out.append(RateTable(f"{line}s_completed", f"Win rate by {line}s completed",
                             f"Facade {line}s completed (copenhagen_completions), with or without all windows.",
                             _rates(con, "copenhagen", _count_groups(
                                 "SELECT game_id, player_id, count(*) AS n FROM copenhagen_completions "
                                 f"WHERE line = '{line}' GROUP BY ALL", top), {"copenhagen_completions"})))
    coat = catalogue("copenhagen")
    kinds = {m for t in coat.takes if isinstance(t, Take) and t.kind == "coat of arms" for m in t.move_types}
    types = ", ".join(f"'{m}'" for m in sorted(kinds))
    out.append(RateTable("coat_of_arms", "Win rate by coat-of-arms bonuses used",
                         "Coat-of-arms bonuses taken in the game (an ability, a white tile, or refreshing the "
                         "abilities).",
                         _rates(con, "copenhagen", _count_groups(
                             "SELECT game_id, player_id, count(*) AS n FROM events WHERE game_id IN "
                             f"(SELECT game_id FROM pg) AND kind = 'move' AND move_type IN ({types}) GROUP BY ALL",
                             4), {"events"})))
    return out


def _perikles(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    return [
        RateTable("cities_led", "Win rate by cities led",
                  "Elections won (the player became a city's leader), over the game's three rounds.",
                  _rates(con, "perikles", _count_groups(
                      "SELECT game_id, winner AS player_id, count(*) AS n FROM perikles_elections "
                      "WHERE winner IS NOT NULL GROUP BY ALL", 6), {"perikles_elections"})),
        RateTable("battles_won", "Win rate by battles won",
                  "Location tiles claimed (the side the player led won the battle there).",
                  _rates(con, "perikles", _count_groups(
                      "SELECT game_id, player_id, count(*) AS n FROM perikles_locations_claimed "
                      "WHERE player_id IS NOT NULL GROUP BY ALL", 5), {"perikles_locations_claimed"})),
    ]


def _praga(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    tiles = "SELECT game_id, player_id, kind FROM components_taken WHERE game_id IN (SELECT game_id FROM pg)"
    return [
        RateTable("buildings_built", "Win rate by buildings built",
                  "Building tiles taken from the display, each then built (components_taken).",
                  _rates(con, "praga", _count_groups(
                      f"SELECT game_id, player_id, count(*) AS n FROM ({tiles}) WHERE kind = 'building tile' "
                      "GROUP BY ALL", 6), {"components_taken"})),
        RateTable("tile_type_most_taken", "Win rate by the hex tile type taken most",
                  "Of the upgrade, wall and building tiles a player took from the display, the type taken most "
                  "(two or three types taken equally often: mixed; none taken: none).",
                  _rates(con, "praga", f"""
                      SELECT pg.game_id, pg.player_id, coalesce(m.grp, 'none') AS grp, coalesce(m.ord, 4) AS ord
                      FROM pg LEFT JOIN (
                          SELECT game_id, player_id,
                                 CASE WHEN count(*) FILTER (WHERE n = top) > 1 THEN 'mixed'
                                      ELSE replace(arg_max(kind, n), ' tile', 's') END AS grp,
                                 CASE WHEN count(*) FILTER (WHERE n = top) > 1 THEN 3
                                      ELSE list_position(['upgrade tile', 'wall tile', 'building tile'],
                                                         arg_max(kind, n)) - 1 END AS ord
                          FROM (SELECT *, max(n) OVER (PARTITION BY game_id, player_id) AS top
                                FROM (SELECT game_id, player_id, kind, count(*) AS n FROM ({tiles}) GROUP BY ALL))
                          GROUP BY ALL
                      ) m USING (game_id, player_id)
                  """, {"components_taken"})),
        RateTable("technologies", "Win rate by technologies gained", "Technology tiles gained (praga_technologies).",
                  _rates(con, "praga", _count_groups(
                      "SELECT game_id, player_id, count(*) AS n FROM praga_technologies GROUP BY ALL", 5),
                      {"praga_technologies"})),
    ]


_BY_TITLE: dict[str, Callable[[duckdb.DuckDBPyConnection], list[RateTable]]] = {
    "pax_pamir": _pax_pamir, "coal_baron": _coal_baron, "copenhagen": _copenhagen, "perikles": _perikles,
    "praga": _praga,
}


def tables(con: duckdb.DuckDBPyConnection, title: str) -> list[RateTable]:
    """The title's deeper tables (none for a title without them)."""
    fn = _BY_TITLE.get(title)
    return fn(con) if fn else []
