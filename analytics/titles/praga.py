"""Praga Caput Regni in the analytics: its component catalogue (actions, hex tiles, technologies, seals, production tokens) and its deeper tables (buildings built; the hex tile type taken most; technologies gained)."""

from __future__ import annotations

from typing import Any

import duckdb

from analytics.components import Catalogue, Noted, Take, component_data, move_field
from analytics.deeper import RateTable, count_groups, rates


def _gain_words(gains: list[dict[str, Any]]) -> str:
    """A Praga tile's reward in words: ``2 VP, a silver window``."""
    out = []
    for g in gains:
        for what, n in g.items():
            if what == "choice":
                out.append(" or ".join(_gain_words(option) for option in n))
            elif what == "window":
                out.append(f"a {n} window")
            else:
                out.append(f"{n} {'VP' if what == 'vp' else what}")
    return ", ".join(out)


def _praga_tile(t: dict[str, Any]) -> str:
    """A Praga hex tile in words: ``BI-03: era I building, 1 gold 2 stone, gives 2 VP``, ``UI-01: era I
    upgrade of manage quarries (bonus 1 stone)``."""
    from replay.games.praga.components import ACTION_NAMES

    era = "I" * int(t["era"])
    words = f"{t['id']}: era {era} {'special ' if t['special'] else ''}{t['type']}"
    if t["upgrades"]:
        words += f" of {ACTION_NAMES[t['upgrades']]} (bonus {_gain_words(t['upgrade_bonus'])})"
    cost = " ".join(f"{n} {what}" for what, n in t["cost"].items() if n)
    if cost:
        words += f", {cost}"
    gives = _gain_words(t["reward"])
    return words + (f", gives {gives}" if gives else "")


def catalogue() -> Catalogue:
    from replay.games.praga.components import ACTION_NAMES, ROWS

    supplies = component_data("praga", "supplies.json")

    entries = [("action", a, n) for a, n in ACTION_NAMES.items()]
    tiles = component_data("praga", "hex_tiles.json")["tiles"]
    entries += [(f"{row} tile", t["id"], _praga_tile(t)) for row in ROWS for t in tiles if t["type"] == row]
    entries += [("technology", t["id"], f"{t['id']}: {t['text']}") for t in supplies["technologies"]]
    entries += [("seal", s["id"], s["id"].replace("_", " ")) for s in supplies["seals"]]
    entries += [("production token", t["id"], t["id"]) for t in supplies["production_tokens"]]
    return Catalogue((
        Take("action", ("choose_action",), move_field("action")),
        *(Noted(f"{row} tile", f"{row} tile") for row in ROWS),
        Take("technology", ("keep_technology",), move_field("tech")),
        Take("seal", ("claim_seal",), move_field("seal")),
        Take("production token", ("take_production_token",), move_field("token")),
    ), tuple(entries), note=(
        "Upgrade, wall and building tiles count when picked from their display row (the move names a "
        "slot; the replay knows the tile)."))


def deeper_tables(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    tiles = "SELECT game_id, player_id, kind FROM components_taken WHERE game_id IN (SELECT game_id FROM pg)"
    return [
        RateTable("buildings_built", "Win rate by buildings built",
                  "Building tiles taken from the display, each then built (components_taken).",
                  rates(con, "praga", count_groups(
                      f"SELECT game_id, player_id, count(*) AS n FROM ({tiles}) WHERE kind = 'building tile' "
                      "GROUP BY ALL", 6), {"components_taken"})),
        RateTable("tile_type_most_taken", "Win rate by the hex tile type taken most",
                  "Of the upgrade, wall and building tiles a player took from the display, the type taken most "
                  "(two or three types taken equally often: mixed; none taken: none).",
                  rates(con, "praga", f"""
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
                  rates(con, "praga", count_groups(
                      "SELECT game_id, player_id, count(*) AS n FROM praga_technologies GROUP BY ALL", 5),
                      {"praga_technologies"})),
    ]
