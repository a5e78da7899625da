"""Copenhagen in the analytics: its component catalogue (facade tiles, coat-of-arms bonuses, abilities used) and its deeper tables (rows and columns completed; coat-of-arms bonuses used)."""

from __future__ import annotations

import duckdb

from analytics.components import Catalogue, Take, component_data, move_field
from analytics.deeper import RateTable, count_groups, rates


def catalogue() -> Catalogue:
    tiles = component_data("copenhagen", "tiles.json")
    sizes = sorted({int(s) for per in tiles["copies_per_color"].values() for s in per})
    game = component_data("copenhagen", "game.json")
    entries = [("facade tile", f"{size}|{color}", f"{size}-cell {color} tile")
               for color in tiles["colors"] for size in sizes]
    entries += [("coat of arms", f"take:{a['id']}", f"take the {a['name']} ability")
                for a in game["abilities"] if not a["starts_owned"]]
    entries += [("coat of arms", "place_white", "place a white tile"),
                ("coat of arms", "refresh", "refresh the used abilities")]
    names = {a["id"]: a["name"] for a in game["abilities"]}
    entries += [("ability used", "construction_discount", f"{names['construction_discount']} (used)"),
                ("ability used", "change_of_colors", f"{names['change_of_colors']} (used)"),
                ("ability used", "both_actions", f"{names['both_actions']} (used)")]
    return Catalogue((
        Take("facade tile", ("build",), f"{move_field('size')} || '|' || {move_field('color')}"),
        Take("coat of arms", ("take_ability",), f"'take:' || {move_field('ability')}"),
        Take("coat of arms", ("place_white",), "'place_white'"),
        Take("coat of arms", ("refresh_abilities",), "'refresh'"),
        Take("ability used", ("build",), "'construction_discount'",
             f"coalesce({move_field('construction_discount')} = 'true', false)"),
        Take("ability used", ("build",), "'change_of_colors'", f"{move_field('change_from')} IS NOT NULL"),
        Take("ability used", ("both_actions",), "'both_actions'"),
    ), tuple(entries))


def deeper_tables(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    out = []
    for line, top in (("row", 5), ("column", 3)):
        out.append(RateTable(f"{line}s_completed", f"Win rate by {line}s completed",
                             f"Facade {line}s completed (copenhagen_completions), with or without all windows.",
                             rates(con, "copenhagen", count_groups(
                                 "SELECT game_id, player_id, count(*) AS n FROM copenhagen_completions "
                                 f"WHERE line = '{line}' GROUP BY ALL", top), {"copenhagen_completions"})))
    coat = catalogue()
    kinds = {m for t in coat.takes if isinstance(t, Take) and t.kind == "coat of arms" for m in t.move_types}
    types = ", ".join(f"'{m}'" for m in sorted(kinds))
    out.append(RateTable("coat_of_arms", "Win rate by coat-of-arms bonuses used",
                         "Coat-of-arms bonuses taken in the game (an ability, a white tile, or refreshing the "
                         "abilities).",
                         rates(con, "copenhagen", count_groups(
                             "SELECT game_id, player_id, count(*) AS n FROM events WHERE game_id IN "
                             f"(SELECT game_id FROM pg) AND kind = 'move' AND move_type IN ({types}) GROUP BY ALL",
                             4), {"events"})))
    return out
