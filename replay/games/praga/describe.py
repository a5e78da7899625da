"""Moves in words, for the viewer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from replay.engine import Move

from . import moves as m
from .components import ACTION_NAMES, HEX_TILES, PLAZA_TILES, PRODUCTION_TOKENS, SEALS
from .rules import crane
from .rules.actions import slot_name
from .rules.bridge import bridge_tile_text
from .rules.effects import describe_atoms
from .rules.free_actions import technology_text

if TYPE_CHECKING:
    from .state import PragaState

GRID = {"hunger_wall": "the Hunger Wall", "cathedral": "the Cathedral"}


def tile_text(tile: str) -> str:
    t = HEX_TILES[tile]
    kind = {"upgrade": "upgrade", "wall": "wall", "building": "building"}[t["type"]]
    extra = f" for {ACTION_NAMES[t['upgrades']]}" if t["upgrades"] else ""
    return f"{'special ' if t['special'] else ''}{kind} {tile}{extra}"


def reward_text(atoms: list[dict[str, Any]]) -> str:
    """A chosen reward as a verb phrase: "takes 2 stone", "pays 1 gold for 1 egg", "takes nothing"."""
    costs = [a for a in atoms if len(a) == 1 and isinstance(next(iter(a.values())), int)
             and not isinstance(next(iter(a.values())), bool) and next(iter(a.values())) < 0]
    gains = [a for a in atoms if a not in costs]
    got = describe_atoms(gains) or "nothing"
    if not costs:
        return f"takes {got}"
    paid = ", ".join(f"{-v} {k}" for a in costs for k, v in a.items())
    return f"pays {paid} for {got}"


def describe(s: PragaState, player: str, move: Move) -> str:
    dec = s.decision() or {}
    if isinstance(move, m.TakeTile):
        tile = crane.tile_at(s, move.position)
        acts = " / ".join(ACTION_NAMES[a] for a in crane.tile_actions(s, tile)) if tile else "?"
        return f"{player} takes the crane tile on {crane.space_name(move.position)} ({acts})"
    if isinstance(move, m.Climb):
        return f"{player} climbs one row on {GRID.get(move.grid, move.grid)}"
    if isinstance(move, m.ExtraAction):
        return f"{player} pays windows ({move.pay.replace('_', ' + ')}) for an extra {ACTION_NAMES.get(move.action)}"
    if isinstance(move, m.SwapTiles):
        return f"{player} swaps two tiles of the {move.row} row"
    if isinstance(move, m.SwapSlots):
        return (f"{player} pays 1 {move.pay} to put the tiles of {slot_name(dec.get('row', '?'), list(move.slots))} "
                "under their stacks")
    if isinstance(move, m.ClaimSeal):
        return f"{player} claims the {SEALS.get(move.seal, {}).get('id', move.seal).replace('_', ' ')}"
    if isinstance(move, m.UseTechnology):
        return f"{player} uses technology {technology_text(move.tech)}"
    if isinstance(move, m.EndTurn):
        return f"{player} ends the turn"
    if isinstance(move, m.ChooseAction):
        return f"{player} chooses to {ACTION_NAMES.get(move.action, move.action)}"
    if isinstance(move, m.ChooseReward):
        options = dec.get("options", [])
        if not 0 <= move.option < len(options):
            return f"{player} takes option {move.option} (the record's number; there are {len(options)})"
        return f"{player} {reward_text(options[move.option])}"
    if isinstance(move, m.Manage):
        return f"{player} chooses to {move.mode} ({dec.get('track', '')})"
    if isinstance(move, m.TakeProductionToken):
        reward = describe_atoms(PRODUCTION_TOKENS[move.token]["reward"]) if move.token in PRODUCTION_TOKENS else "?"
        return f"{player} takes production token {move.token} ({reward})"
    if isinstance(move, m.PickTile):
        tile = s.d["display"].get(dec.get("row", ""), [None] * 4)[move.slot] if 0 <= move.slot < 4 else None
        return f"{player} takes {tile_text(tile) if tile else 'nothing'} from {slot_name(dec.get('row', '?'), move.slot)}"
    if isinstance(move, m.SkipAction):
        return f"{player} can take no tile and carries out nothing"
    if isinstance(move, m.PlaceTile):
        return f"{player} places {dec.get('tile', 'the tile')} at {move.at}"
    if isinstance(move, m.RotateTile):
        return f"{player} turns {dec.get('tile', 'the tile')} to rotation {move.rotation}"
    if isinstance(move, m.RoadEgg):
        return f"{player} {'pays' if move.pay else 'does not pay'} an egg on the King's Road"
    if isinstance(move, m.KeepBridgeTile):
        return f"{player} keeps bridge tile {bridge_tile_text(move.tile) if move.tile in dec.get('tiles', []) else move.tile}"
    if isinstance(move, m.PlacePlank):
        return f"{player} lays {dec.get('tile', 'the tile')} as plank {move.plank}"
    if isinstance(move, m.KeepTechnology):
        return f"{player} keeps technology {technology_text(move.tech) if move.tech in dec.get('tiles', []) else move.tech}"
    if isinstance(move, m.ChooseUpgradeBonus):
        return f"{player} takes the upgrade bonus of {move.tile}"
    if isinstance(move, m.ChooseGrid):
        return f"{player} moves up on {GRID.get(move.grid, move.grid)}"
    if isinstance(move, m.ChoosePlaza):
        tile = s.d["city"]["plaza_tiles"].get(move.plaza)
        text = "; ".join(describe_atoms(o) for o in PLAZA_TILES[tile]["upper"]) if tile else "?"
        return f"{player} takes both rewards of plaza {move.plaza} ({text})"
    if isinstance(move, m.ChooseTrack):
        return f"{player} chooses the {move.track} track"
    if isinstance(move, m.DiscardWindow):
        return f"{player} discards a {move.window} window"
    return f"{player} plays {move.type}"
