"""Coal Baron in the analytics: its component catalogue (order cards, tunnel tiles, work spaces) and its deeper tables (orders fulfilled, by transport type and in all)."""

from __future__ import annotations

import re

import duckdb

from analytics.components import Catalogue, Take, component_data, move_field, sql_literal
from analytics.deeper import RateTable, bucket, count_groups, rates
from analytics.distinct import statistics_games_sql
from analytics.players import _tables


def catalogue() -> Catalogue:
    orders = component_data("coal_baron", "orders.json")["orders"]
    tiles = component_data("coal_baron", "tiles.json")["kinds"]
    spaces = component_data("coal_baron", "spaces.json")["spaces"]
    entries = []
    for o in orders:
        coal = ", ".join(f"{o['coal'].count(c)} {c}" for c in dict.fromkeys(o["coal"]))
        entries.append(("order card", o["id"], f"{o['id']}: {o['transport']}, {coal}, {o['vp']} VP"))
    # the copies of a tunnel tile are one component: the key is the tile's kind
    for k in tiles:
        entries.append(("tunnel tile", f"kind {k['kind']}", f"{k['carts']}-cart {k['colour']} tunnel ({k['side']} side)"))
    tile_kind = " ".join(f"WHEN {sql_literal(t)} THEN 'kind {k['kind']}'" for k in tiles for t in k["ids"])
    groups: dict[str, str] = {}
    for sp in spaces:
        groups.setdefault(sp["group"], re.sub(r"\s*\d+$", "", sp["name"]))
    entries += [("work space", s["id"], groups[s["group"]]) for s in spaces]
    return Catalogue((
        Take("order card", ("draft_order", "keep_order"), move_field("card"), f"{move_field('card')} IS NOT NULL"),
        Take("tunnel tile", ("keep_tile",), f"CASE {move_field('tile')} {tile_kind} ELSE {move_field('tile')} END",
             f"{move_field('tile')} IS NOT NULL"),
        Take("work space", ("place_workers",), move_field("space")),
    ), tuple(entries))


def deeper_tables(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    orders = component_data("coal_baron", "orders.json")["orders"]
    values = ", ".join(f"('{o['id']}', '{o['transport']}', {len(o['coal'])})" for o in orders)
    if not {"events", "games", "players"} <= _tables(con):
        return []
    # the fulfilled orders, found once (one scan of the moves) for both tables
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE gamerec_cb_fulfilled AS
        WITH pg AS (
            SELECT p.game_id, p.player_id FROM players p JOIN ({statistics_games_sql(con)}) g USING (game_id)
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
    by_transport = rates(con, "coal_baron", f"""
        SELECT pg.game_id, pg.player_id, t.transport || ': ' || {bucket('coalesce(f.n, 0)', 3)} AS grp,
               t.i * 10 + least(coalesce(f.n, 0), 3) AS ord
        FROM pg CROSS JOIN (VALUES {transports}) t(transport, i)
        LEFT JOIN gamerec_cb_fulfilled f
          ON f.game_id = pg.game_id AND f.player_id = pg.player_id AND f.transport = t.transport
    """, {"events"})
    total = rates(con, "coal_baron", count_groups(
        "SELECT game_id, player_id, sum(n) AS n FROM gamerec_cb_fulfilled GROUP BY ALL", 8), {"events"})
    return [
        RateTable("orders_by_transport", "Win rate by orders fulfilled, per transport type",
                  "Order cards whose every coal space the player filled (fill order and substitute moves), "
                  "counted per transport type: 'engine: 2' is the player-games that fulfilled two engine orders.",
                  by_transport),
        RateTable("orders_fulfilled", "Win rate by orders fulfilled in all", "Every transport type together.",
                  total),
    ]
