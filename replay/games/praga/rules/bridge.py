"""The King's Road (streets I-III) and the Charles Bridge (IV silver planks, V gold planks)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..components import GOLD_TILES, PLANKS, ROAD, SILVER_TILES
from ..flow import Task, decide, draw, handler, push, put_under, resolver
from .effects import gain

if TYPE_CHECKING:
    from ..state import PragaState

ROAD_NAMES = ("beside the road", "I", "II", "III", "IV", "V")


def kings_road(s: PragaState, player: str) -> None:
    """Move the pawn one space and resolve it."""
    me = s.d["p"][player]
    me["road"] += 1
    space = ROAD[me["road"] - 1]
    s.add_milestone("kings_road", round=s.round(), player_id=player, space=space["name"])
    if space["egg_cost"]:
        me["eggs"] -= int(space["egg_cost"])
    if me["road"] == 4:
        draw(s, "bridge_IV", 3, "silver_bridge_tiles", p=player)
    elif me["road"] == 5:
        draw(s, "bridge_V", 1, "gold_bridge_tile", p=player)
    elif s.ruleset == "bga":
        street_either(s, player, space)
    else:
        street_both(s, player, space)


def street_both(s: PragaState, player: str, space: dict[str, Any]) -> None:
    """Official: the free effect, then the egg effect for 1 egg if the player wants it."""
    push(s, {"op": "offer_road_egg", "p": player, "space": space["space"]})
    gain(s, player, space["free"], "kings_road")


def street_either(s: PragaState, player: str, space: dict[str, Any]) -> None:
    """BGA: either pay 1 egg for the egg effect, or take the free effect."""
    if s.d["p"][player]["eggs"] >= 1:
        decide(s, player, "road_egg", space=space["space"])
    else:
        gain(s, player, space["free"], "kings_road")


@handler("offer_road_egg")
def offer_road_egg(s: PragaState, task: Task) -> None:
    if s.d["p"][task["p"]]["eggs"] >= 1:
        decide(s, task["p"], "road_egg", space=task["space"])


def road_egg(s: PragaState, player: str, space_no: int, paid: bool) -> None:
    space = ROAD[space_no - 1]
    if paid:
        s.d["p"][player]["eggs"] -= 1
        gain(s, player, space["egg"], "kings_road")
        if s.ruleset == "bga":
            s.depart("street_space_egg", f"{player} pays an egg on street space {space_no}: the egg effect "
                                         "instead of the free one (BGA); both under the rulebook")
    elif s.ruleset == "bga":
        gain(s, player, space["free"], "kings_road")


@resolver("silver_bridge_tiles")
def silver_drawn(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    decide(s, info["p"], "keep_bridge_tile", tiles=items)


def keep_silver(s: PragaState, player: str, drawn: list[str], tile: str) -> None:
    """Keep one, the others under the stack; lay it as a plank (or, with no plank free, take only its bonus)."""
    put_under(s, "bridge_IV", [t for t in drawn if t != tile])
    if free_planks(s):
        decide(s, player, "plank", tile=tile)
    else:
        s.d["bridge"]["discarded"].append(tile)
        gain(s, player, SILVER_TILES[tile]["bonus"], "kings_road")


@resolver("gold_bridge_tile")
def gold_drawn(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    """Space V: the chosen face-down gold tile is kept for its end scoring; laid as a plank if one is free."""
    player = info["p"]
    if not items:
        return
    tile = items[0]
    s.d["p"][player]["gold_tiles"].append(tile)
    if free_planks(s):
        decide(s, player, "plank", tile=tile)


@resolver("cathedral_gold_tile")
def cathedral_tile(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    if items:
        s.d["p"][info["p"]]["gold_tiles"].append(items[0])
        s.add_milestone("cathedral_top", round=s.round(), player_id=info["p"], tile=items[0])


def free_planks(s: PragaState) -> list[str]:
    return [k for k in PLANKS if s.d["bridge"]["planks"][k] is None]


def place_plank(s: PragaState, player: str, tile: str, plank: str) -> None:
    s.d["bridge"]["planks"][plank] = tile
    atoms = list(PLANKS[plank]["covers"])
    if tile in SILVER_TILES:
        atoms += SILVER_TILES[tile]["bonus"]
    gain(s, player, atoms, "kings_road")


def bridge_tile_text(tile: str) -> str:
    if tile in GOLD_TILES:
        t = GOLD_TILES[tile]
        return f"{tile} ({t['vp']} VP per {t['per']})" if t["per"] != "flat" else f"{tile} ({t['vp']} VP)"
    from .effects import describe_atoms

    return f"{tile} ({describe_atoms(SILVER_TILES[tile]['bonus'])})"


def tile_names(tiles: list[str]) -> str:
    return ", ".join(bridge_tile_text(t) for t in tiles)


