"""Moves in words (for the viewer) and a position heuristic (for the greedy agent)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from replay.decisions import LeaveTable
from replay.engine import Move
from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import cell_name, column_mask, row_mask
from replay.games.copenhagen.moves import (
    BothActions,
    Build,
    Discard,
    EndTurn,
    PlaceWhite,
    RefreshAbilities,
    TakeAbility,
    TakeCard,
)
from replay.games.copenhagen.rules.harbour import slot_name

if TYPE_CHECKING:
    from replay.games.copenhagen.board import Player
    from replay.games.copenhagen.state import CopenhagenState


def _cards(pay: dict[str, int]) -> str:
    if not pay:
        return "no cards"
    return " and ".join(f"{n} {c} card{'s' if n != 1 else ''}" for c, n in pay.items())


def describe(s: CopenhagenState, player: str, move: Move) -> str:
    comp = components()
    if isinstance(move, TakeCard):
        card = s.harbour[move.slot] if 0 <= move.slot < len(s.harbour) else None
        return f"{player} takes the {card or 'missing'} card from {slot_name(move.slot)}"
    if isinstance(move, Discard):
        return f"{player} discards a {move.color} card (hand limit {comp.hand_limit})"
    if isinstance(move, BothActions):
        return f"{player} uses both actions to build after taking cards"
    if isinstance(move, EndTurn):
        return f"{player} ends the turn"
    if isinstance(move, Build):
        extras = []
        if move.construction_discount:
            extras.append("with the construction discount")
        if move.change_from is not None:
            extras.append(f"counting {move.change_from} cards as {move.color}")
        turned = f", turned {move.rotation}" if move.rotation else ""
        flipped = ", mirrored" if move.flip else ""
        return (f"{player} builds the {move.size}-cell {move.color} tile at {cell_name(move.x, move.y)}{turned}{flipped}, "
                f"paying {_cards(move.pay)}" + (" " + " and ".join(extras) if extras else ""))
    if isinstance(move, TakeAbility):
        return f"{player} takes the {comp.ability_name(move.ability)} ability tile (coat of arms)"
    if isinstance(move, PlaceWhite):
        return f"{player} places a white tile at {cell_name(move.x, move.y)} (coat of arms)"
    if isinstance(move, RefreshAbilities):
        return f"{player} flips their used ability tiles back (coat of arms)"
    if isinstance(move, LeaveTable):
        return move.describe(player)
    return f"{player}: {move.type}"


def _progress(p: Player, hand_limit: int) -> float:
    """Partial credit for lines close to completion (more for clean windows), cards and unused abilities."""
    v = _lines_progress(p.facade.covered, p.facade.windows)
    v += 0.12 * min(p.hand_size, hand_limit)
    v += 0.25 * list(p.abilities.values()).count(False)
    return v


@functools.lru_cache(maxsize=8192)
def _lines_progress(covered: int, windows: int) -> float:
    """The facade's part of :func:`_progress` (a facade changes rarely: remembered per facade)."""
    comp = components()
    v = 0.0
    for y in range(comp.height):
        m = row_mask(y)
        n = (covered & m).bit_count()
        if n < comp.width:
            clean = windows & m == covered & m
            v += (comp.row_window_points if clean else comp.row_points) * 0.8 * (n / comp.width) ** 2
    for x in range(comp.width):
        m = column_mask(x)
        n = (covered & m).bit_count()
        if n < comp.height:
            clean = windows & m == covered & m
            v += (comp.column_window_points if clean else comp.column_points) * 0.8 * (n / comp.height) ** 2
    return v


def evaluate(s: CopenhagenState, player: str) -> float:
    """Own points and progress, minus half the best opponent's; a won game is worth everything."""
    limit = components().hand_limit
    seats = s.seats
    own = seats[player].total + _progress(seats[player], limit)
    others = [seats[q].total + _progress(seats[q], limit) for q in s.players if q != player]
    v = own - 0.5 * (max(others) if others else 0.0)
    if s.step == "over" and s.ranking()[player] == 1:
        v += 100.0
    return v
