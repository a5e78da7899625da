"""The King's Road (streets I-III) and the Charles Bridge (IV silver planks, V gold planks)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import moves as m
from ..components import GOLD_TILES, PLANKS, ROAD, SILVER_TILES
from ..tasks import Decision, Draw, Step, draw, push, put_under
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
        draw(s, SilverBridgeDraw(player, "bridge_IV"), 3)
    elif me["road"] == 5:
        draw(s, GoldBridgeDraw(player, "bridge_V"), 1)
    elif s.ruleset == "bga":
        street_either(s, player, space)
    else:
        street_both(s, player, space)


def street_both(s: PragaState, player: str, space: dict[str, Any]) -> None:
    """Official: the free effect, then the egg effect for 1 egg if the player wants it."""
    push(s, OfferRoadEgg(player, space["space"]))
    gain(s, player, space["free"], "kings_road")


def street_either(s: PragaState, player: str, space: dict[str, Any]) -> None:
    """BGA: either pay 1 egg for the egg effect, or take the free effect."""
    if s.d["p"][player]["eggs"] >= 1:
        s.push(RoadEggChoice(player, space["space"]))
    else:
        gain(s, player, space["free"], "kings_road")


@dataclass(slots=True)
class OfferRoadEgg(Step):
    """Official: after the street space's free effect, its egg effect is offered to a player with an egg."""

    space: int = 0
    op = "offer_road_egg"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        if s.d["p"][self.player]["eggs"] >= 1:
            s.push(RoadEggChoice(self.player, self.space))


@dataclass(slots=True)
class RoadEggChoice(Decision):
    """On street space ``space``: pay an egg for its egg effect, or not."""

    space: int = 0
    kind = "road_egg"
    accepts = (m.RoadEgg,)
    awaiting = "decide whether to pay an egg on the King's Road"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.RoadEgg(pay=True), m.RoadEgg(pay=False)]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        return None if move.pay in (True, False) else self.otherwise(player, move)

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        road_egg(s, player, self.space, move.pay)


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


@dataclass(slots=True)
class SilverBridgeDraw(Draw):
    """Space IV: three silver bridge tiles drawn; the player keeps one."""

    purpose = "silver_bridge_tiles"

    def details(self) -> dict[str, Any]:
        return {"p": self.player}

    def drawn(self, s: PragaState, items: list[str]) -> None:
        s.push(KeepBridgeTile(self.player, items))


@dataclass(slots=True)
class KeepBridgeTile(Decision):
    """Keep one of the silver bridge tiles drawn."""

    tiles: list[str] = field(default_factory=list)
    kind = "keep_bridge_tile"
    accepts = (m.KeepBridgeTile,)
    awaiting = "keep one of the silver bridge tiles drawn"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.KeepBridgeTile(tile=t) for t in sorted(self.tiles)]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if move.tile in self.tiles:
            return None
        return f"{player} drew {', '.join(sorted(self.tiles))}; {move.tile!r} is not among them"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        keep_silver(s, player, self.tiles, move.tile)


def keep_silver(s: PragaState, player: str, drawn: list[str], tile: str) -> None:
    """Keep one, the others under the stack; lay it as a plank (or, with no plank free, take only its bonus)."""
    put_under(s, "bridge_IV", [t for t in drawn if t != tile])
    if free_planks(s):
        s.push(LayPlank(player, tile))
    else:
        s.d["bridge"]["discarded"].append(tile)
        gain(s, player, SILVER_TILES[tile]["bonus"], "kings_road")


@dataclass(slots=True)
class GoldBridgeDraw(Draw):
    """Space V: the chosen face-down gold tile is kept for its end scoring; laid as a plank if one is free."""

    purpose = "gold_bridge_tile"

    def details(self) -> dict[str, Any]:
        return {"p": self.player}

    def drawn(self, s: PragaState, items: list[str]) -> None:
        player = self.player
        if not items:
            return
        tile = items[0]
        s.d["p"][player]["gold_tiles"].append(tile)
        if free_planks(s):
            s.push(LayPlank(player, tile))


@dataclass(slots=True)
class CathedralGoldDraw(Draw):
    """The Cathedral's top tier: one of the gold (V) tiles lying by the Cathedral."""

    purpose = "cathedral_gold_tile"

    def details(self) -> dict[str, Any]:
        return {"p": self.player}

    def drawn(self, s: PragaState, items: list[str]) -> None:
        if items:
            s.d["p"][self.player]["gold_tiles"].append(items[0])
            s.add_milestone("cathedral_top", round=s.round(), player_id=self.player, tile=items[0])


@dataclass(slots=True)
class LayPlank(Decision):
    """The plank space the bridge tile is laid on."""

    tile: str = ""
    kind = "plank"
    accepts = (m.PlacePlank,)
    awaiting = "choose the plank space for the bridge tile"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.PlacePlank(plank=k) for k in free_planks(s)]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        free = free_planks(s)
        if move.plank in free:
            return None
        return f"plank {move.plank!r} is not free (free: {', '.join(free)})"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        place_plank(s, player, self.tile, move.plank)


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


