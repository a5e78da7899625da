"""A turn (rules section 4): the player takes a crane tile and performs one of its actions, uses free
actions before or after, and ends the turn; then the next player in order takes a turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move

from .. import moves as m
from ..components import ACTIONS, POSITIONS, ROWS, SEALS
from ..tasks import Decision, Step
from . import crane, free_actions, grids, technologies, turn_end

if TYPE_CHECKING:
    from ..state import PragaState


@dataclass(slots=True)
class PlayerTurns(Step):
    """The bottom of the stack: whenever nothing else is pending, the player in order takes a turn (the
    next one once :class:`~.turn_end.NextTurn` has moved the count on)."""

    op = "player_turns"

    def run(self, s: PragaState) -> None:
        s.push(Turn(s.current()))


@dataclass(slots=True)
class Turn(Decision):
    """The player's turn: take a crane tile (once), use a free action, or end the turn once the crane
    tile's action is carried out."""

    kind = "turn"
    accepts = (m.TakeTile, m.Climb, m.ExtraAction, m.SwapTiles, m.ClaimSeal, m.UseTechnology, m.EndTurn)
    awaiting = "take a crane tile, use a free action or end the turn"

    def candidates(self, s: PragaState) -> list[Move]:
        out: list[Move] = []
        if not s.d["turn"]["tile_taken"]:
            out += [m.TakeTile(position=pos) for pos in range(len(POSITIONS))]
        out += [m.Climb(grid="hunger_wall"), m.Climb(grid="cathedral")]
        out += [m.ExtraAction(action=a, pay=pay) for a in ACTIONS for pay in free_actions.EXTRA_PAYMENTS]
        out += [m.SwapTiles(row=row) for row in ROWS]
        out += [m.ClaimSeal(seal=x) for x in sorted(SEALS)]
        out += [m.UseTechnology(tech=t) for t in sorted(set(s.d["p"][self.player]["stored"]))]
        out.append(m.EndTurn())
        return out

    def check(self, s: PragaState, player: str, move: Move) -> str | None:
        if type(move) is m.TakeTile:
            return crane.why_not_take(s, player, move.position)
        if type(move) is m.Climb:
            if move.grid not in grids.GRID_LABEL:
                return f"there is no grid {move.grid!r} (hunger_wall or cathedral)"
            return grids.can_climb(s, player, move.grid)
        if type(move) is m.ExtraAction:
            return free_actions.why_not_extra(s, player, move.action, move.pay)
        if type(move) is m.SwapTiles:
            return free_actions.why_not_swap(s, player, move.row)
        if type(move) is m.ClaimSeal:
            return free_actions.why_not_seal(s, player, move.seal)
        if type(move) is m.UseTechnology:
            return free_actions.why_not_technology(s, player, move.tech)
        turn = s.d["turn"]
        if turn["tile_taken"] and turn["action_done"]:
            return None
        return f"{player} cannot end the turn yet: a crane tile must be taken and its action carried out first"

    def apply(self, s: PragaState, player: str, move: Move) -> None:
        s.pop(self)
        if type(move) is m.TakeTile:
            crane.take_tile(s, player, move.position)
        elif type(move) is m.Climb:
            grids.climb(s, player, move.grid)
        elif type(move) is m.ExtraAction:
            free_actions.extra_action(s, player, move.action, move.pay)
        elif type(move) is m.SwapTiles:
            free_actions.swap_tiles(s, player, move.row)
        elif type(move) is m.ClaimSeal:
            free_actions.claim_seal(s, player, move.seal)
        elif type(move) is m.UseTechnology:
            technologies.use_technology(s, player, move.tech)
        else:
            turn_end.end_turn(s, player)

    def refuse(self, s: PragaState, player: str, move: Move) -> str:
        return f"{player} cannot {move.type.replace('_', ' ')} now: {player} must {self.awaiting}"
