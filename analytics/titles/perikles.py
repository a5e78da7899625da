"""Perikles in the analytics: its component catalogue (special tiles, influence tiles, influence actions), its deeper tables (cities led; battles won) and the location and special tile names its board view shows."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import duckdb

from analytics.components import Catalogue, Noted, Take, component_data, grouped
from analytics.deeper import RateTable, count_groups, rates


def catalogue() -> Catalogue:
    from replay.games.perikles.components import CITY

    special = component_data("perikles", "special_tiles.json")["tiles"]
    # the move types name the tiles as play_<name words>: play_thessalian_allies is the tile "thessalanianallies"
    entries = [("special tile", "play_" + re.sub(r"\W+", "_", t["name"].lower()), t["name"]) for t in special]
    # the copies of an influence tile (same city, cubes and symbol) are one component
    tiles = component_data("perikles", "influence_tiles.json")["tiles"]
    tile_key = {t["id"]: f"{t['city']}|{t['shards']}|{t['symbol']}" for t in tiles}
    for t in tiles:
        city = "Any-city" if t["city"] == "any" else CITY[t["city"]].name
        what = f"{t['shards']}-cube" if t["symbol"] == "none" else t["symbol"]
        entries.append(("influence tile", tile_key[t["id"]], f"{city} {what} tile"))
    entries = list(dict.fromkeys(entries))
    entries += [("influence action", "nominate", "nominate a candidate"),
                ("influence action", "assassinate", "assassinate a cube")]
    return Catalogue((
        Take("special tile", tuple(k for _, k, _ in entries if k.startswith("play_")), "move_type"),
        Noted("influence tile", "influence tile", grouped(tile_key)),
        Take("influence action", ("nominate", "assassinate"), "move_type"),
    ), tuple(entries), note=(
        "Influence tiles count when taken from the display (the move names a slot; the replay knows "
        "the tile), the copies of a tile (same city, cubes and symbol) as one."))


def deeper_tables(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    return [
        RateTable("cities_led", "Win rate by cities led",
                  "Elections won (the player became a city's leader), over the game's three rounds.",
                  rates(con, "perikles", count_groups(
                      "SELECT game_id, winner AS player_id, count(*) AS n FROM perikles_elections "
                      "WHERE winner IS NOT NULL GROUP BY ALL", 6), {"perikles_elections"})),
        RateTable("battles_won", "Win rate by battles won",
                  "Location tiles claimed (the side the player led won the battle there).",
                  rates(con, "perikles", count_groups(
                      "SELECT game_id, player_id, count(*) AS n FROM perikles_locations_claimed "
                      "WHERE player_id IS NOT NULL GROUP BY ALL", 5), {"perikles_locations_claimed"})),
    ]


@cache
def card_labels() -> dict[str, dict[str, Any]]:
    """Location and special tile id -> ``{"name": ...}``, for the board view."""
    from replay.games.perikles.components import LOCATION, SPECIAL

    names: dict[str, dict[str, Any]] = {}
    for key, loc in LOCATION.items():
        battle = " (battle)" if key.endswith("battle") else ""  # a second Megara tile
        names[key] = {"name": loc.name + battle}
    for key, tile in SPECIAL.items():
        names[key] = {"name": tile.name}
    return names
