"""The action crane: taking a tile (red cost, blue VP, the 5-point token, the inner bonus) and turning the wheel.

Tiles hang on the wheel's 12 notches; notch ``n`` sits at board position ``(n - first) % 12``
where ``first`` is the notch at the first red space.  Positions 0-3 are red, 4-6 green,
7-9 blue; 10 and 11 are past the end of the blue zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..components import ACTION_TILES, CRANE, NOTCHES, POSITIONS
from ..tasks import Step, push
from .actions import ChooseAction, performable
from .effects import add_vp, gain

if TYPE_CHECKING:
    from ..state import PragaState

N_NOTCHES = len(NOTCHES)
BLOCKED = next(i for i, n in enumerate(NOTCHES) if n["blocked"])
FIVE_VP: int = CRANE["five_point_token_vp"]


def position_of(s: PragaState, notch: int) -> int:
    return int((notch - s.d["crane"]["first"]) % N_NOTCHES)


def notch_at(s: PragaState, position: int) -> int:
    return int((s.d["crane"]["first"] + position) % N_NOTCHES)


def tile_at(s: PragaState, position: int) -> str | None:
    tile: str | None = s.d["crane"]["hung"].get(str(notch_at(s, position)))
    return tile


def zone(position: int) -> str:
    return str(POSITIONS[position]["zone"]) if position < len(POSITIONS) else "beyond"


def space_name(position: int) -> str:
    """A crane board position as a player names it: "red space 1" is the first red space (where a used
    tile goes), then red 2-4, green 1-3, blue 1-3 in the order the tiles travel.  A record's
    ``position`` counts from 0 over all spaces; one off the board is quoted as the record gives it."""
    if not 0 <= position < len(POSITIONS):
        return f"crane position {position} (the record's number; the board has positions 0-{len(POSITIONS) - 1})"
    z = zone(position)
    nth = sum(1 for p in POSITIONS[:position + 1] if p["zone"] == z)
    return f"{z} space {nth}"


def cost(position: int) -> int:
    return int(POSITIONS[position].get("cost", 0))


def tile_actions(s: PragaState, tile: str) -> list[str]:
    side = s.options.get("tiles_side", "A")
    actions: list[str] = next(t["actions"] for t in ACTION_TILES[side] if t["id"] == tile)
    return actions


def why_not_take(s: PragaState, player: str, position: int) -> str | None:
    if s.d["turn"]["tile_taken"]:
        return f"{player} has already taken a crane tile this turn"
    if not 0 <= position < len(POSITIONS) or tile_at(s, position) is None:
        return f"there is no action tile on {space_name(position)}"
    price = cost(position)
    if price > s.d["p"][player]["gold"]:
        return (f"{player} cannot take the tile on {space_name(position)}: it costs {price} gold, "
                f"{player} has {s.d['p'][player]['gold']}")
    return None


def take_tile(s: PragaState, player: str, position: int) -> None:
    """Take a tile: pay the red cost or gain the blue VP (or the 5 VP of the token), then its inner bonus."""
    crane = s.d["crane"]
    notch = notch_at(s, position)
    tile = crane["hung"].pop(str(notch))
    turn = s.d["turn"]
    turn["tile_taken"] = True
    turn["used_tile"] = tile
    s.d["p"][player]["gold"] -= cost(position)
    push(s, ChooseCraneAction(player, tile))
    gain(s, player, list(NOTCHES[notch]["bonus"]), "crane", "crane_inner")
    if crane["five"] == tile:
        crane["five"] = None
        add_vp(s, player, FIVE_VP, "crane")
    vp = int(POSITIONS[position].get("vp", 0))
    if vp:
        gain(s, player, [{"vp": vp}], "crane", "crane_zone")


@dataclass(slots=True)
class ChooseCraneAction(Step):
    """After the tile's costs and bonuses: the player chooses one of its two actions (those that can be
    performed now)."""

    tile: str = ""
    op = "choose_crane_action"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        options = [a for a in tile_actions(s, self.tile) if performable(s, self.player, a)]
        s.push(ChooseAction(self.player, options, bonus=True, discount={}, source="crane"))


def rotate(s: PragaState) -> None:
    """End of turn: the wheel turns one notch (one more past the blocked notch), the used tile hangs
    at the first red space, and a tile carried past the blue zone goes to the first free green space
    with the 5-point token."""
    crane = s.d["crane"]
    first = (crane["first"] - 1) % N_NOTCHES
    if first == BLOCKED:
        first = (first - 1) % N_NOTCHES
    crane["first"] = first
    used = s.d["turn"]["used_tile"]
    if used is not None:
        crane["hung"][str(first)] = used
    for notch_key, tile in sorted(crane["hung"].items()):
        if position_of(s, int(notch_key)) >= len(POSITIONS):
            del crane["hung"][notch_key]
            target = free_space_for_pushed_tile(s)
            crane["hung"][str(notch_at(s, target))] = tile
            crane["five"] = tile


def free_space_for_pushed_tile(s: PragaState) -> int:
    """The first free green space; if the green zone is full, the first free blue, then red, space (decision C3)."""
    order = [i for i in range(len(POSITIONS)) if zone(i) == "green"]
    order += [i for i in range(len(POSITIONS)) if zone(i) == "blue"]
    order += [i for i in range(len(POSITIONS)) if zone(i) == "red"]
    for pos in order:
        notch = notch_at(s, pos)
        if notch != BLOCKED and str(notch) not in s.d["crane"]["hung"]:
            return pos
    raise AssertionError("the crane has no free space")


def crane_view(s: PragaState) -> list[dict[str, Any]]:
    out = []
    for pos in range(len(POSITIONS)):
        notch = notch_at(s, pos)
        tile = tile_at(s, pos)
        out.append({"position": pos, "zone": zone(pos), "notch": NOTCHES[notch]["id"], "tile": tile,
                    "actions": tile_actions(s, tile) if tile else [], "five_points": tile is not None
                    and tile == s.d["crane"]["five"]})
    return out
