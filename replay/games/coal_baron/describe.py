"""Moves in words, for the viewer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.decisions import LeaveTable
from replay.engine import Move

from . import moves as mv
from .components import FACE_DOWN, ORDERS, SPACES, TILES
from .rules.draws import shown
from .rules.mining import LEVEL_NAMES
from .rules.placement import workers_needed

if TYPE_CHECKING:
    from .state import CoalBaronState


def _order(card: str) -> str:
    if card not in ORDERS:
        return card
    o = ORDERS[card]
    return f"{card} ({o.transport_name}, {o.vp} VP)"


def _tile(tile: str) -> str:
    return TILES[tile].describe() if tile in TILES else tile


def describe(st: CoalBaronState, player: str, move: Move) -> str:
    """``move`` in words, as ``player`` would say it at this point of the game."""
    if isinstance(move, LeaveTable):
        return move.describe(player)
    if isinstance(move, mv.DraftOrder):
        return f"{player} drafts order {_order(move.card)}"
    if isinstance(move, mv.PlaceWorkers):
        ws = SPACES.get(move.space)
        if ws is None:
            return f"{player} places workers on {move.space}"
        n = workers_needed(st, move.space)
        extra = ""
        if ws.group == "factory" and st.factory.get(move.space) not in (None, FACE_DOWN):
            extra = f" to buy {_tile(st.factory[move.space] or '')}"
        elif ws.group == "order" and st.order_spaces.get(move.space) not in (None, FACE_DOWN):
            extra = f" to take {_order(st.order_spaces[move.space] or '')}"
        return f"{player} places {n} worker{'s' if n > 1 else ''} on {ws.name}{extra}"
    if isinstance(move, mv.MoveCage):
        where = LEVEL_NAMES[move.level] if 0 <= move.level <= 4 else f"level {move.level}"
        return f"{player} moves the cage to {where}"
    if isinstance(move, mv.LoadCoal):
        return f"{player} loads a {move.colour} cube into the cage"
    if isinstance(move, mv.StoreCoal):
        return f"{player} unloads a {move.colour} cube into storage"
    if isinstance(move, mv.FillOrder):
        return f"{player} puts a {move.colour} cube from the {move.source} on order {_order(move.card)}"
    if isinstance(move, mv.Substitute):
        cubes = [f"{c} from the cage" for c in move.cage] + [f"{c} from storage" for c in move.storage]
        return f"{player} fills a {move.space} space of {_order(move.card)} with two cubes ({', '.join(cubes)})"
    if isinstance(move, mv.StopMining):
        return f"{player} stops mining with {st.steps} work step(s) unused"
    if isinstance(move, mv.KeepTile):
        return f"{player} buys {_tile(move.tile)}" if move.tile else f"{player} buys none of the revealed tiles"
    if isinstance(move, mv.KeepOrder):
        return f"{player} keeps {_order(move.card)}" if move.card else f"{player} keeps none of the revealed orders"
    if isinstance(move, mv.ReturnTiles):
        return f"{player} puts {len(move.tiles)} tile(s) back at the {move.to} of the deck ({shown(move.tiles)})"
    if isinstance(move, mv.ReturnOrders):
        return f"{player} puts {len(move.cards)} order card(s) back at the {move.to} of the deck ({shown(move.cards)})"
    if isinstance(move, mv.ChooseCoal):
        return f"{player} puts a {move.colour} cube on the new minecart (the supply is short)"
    return f"{player}: {move.type}"
