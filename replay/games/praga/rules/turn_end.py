"""End of turn: windows down to 2, the crane turns, the displays refill, the era may change, the game may end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import moves as m
from ..components import BOARD, ERA_CHANGE_AFTER, ERA_NAME, ROUNDS, ROWS, deck_name
from ..tasks import Decision, Draw, Step, draw, push
from . import crane, plazas

if TYPE_CHECKING:
    from ..state import PragaState

WINDOWS_KEPT: int = BOARD["windows_kept"]
NORMAL_SLOTS = (0, 1, 2)
SPECIAL_SLOT = 3


def end_turn(s: PragaState, player: str) -> None:
    """Windows down to 2, turn the crane, refill the rows (not after the very last turn: nobody would
    take them), then the era change or the game end when their turn has come."""
    last = s.d["turns"] + 1 >= ROUNDS * len(s.players)
    refills = [] if last else [RefillRow(row=r) for r in ROWS]
    push(s, DiscardWindows(player), TurnCrane(), *refills, NextTurn(player))


@dataclass(slots=True)
class DiscardWindows(Step):
    """Windows down to 2: of one kind only, at once; of both kinds, one at a time, the player's choice."""

    op = "discard_windows"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        me = s.d["p"][self.player]
        if me["silver"] + me["goldw"] > WINDOWS_KEPT:
            if me["silver"] == 0 or me["goldw"] == 0:
                kind = "silver" if me["silver"] else "goldw"
                me[kind] = WINDOWS_KEPT
                return
            push(s, DiscardWindows(self.player))
            s.push(DiscardWindow(self.player))


@dataclass(slots=True)
class DiscardWindow(Decision):
    """One window discarded, gold or silver."""

    kind = "discard_window"
    accepts = (m.DiscardWindow,)
    awaiting = "discard a window down to 2"

    def candidates(self, s: PragaState) -> list[Move]:
        me = s.d["p"][self.player]
        out: list[Move] = [m.DiscardWindow(window="gold")] if me["goldw"] else []
        return out + ([m.DiscardWindow(window="silver")] if me["silver"] else [])

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        me = s.d["p"][player]
        if (move.window == "gold" and me["goldw"]) or (move.window == "silver" and me["silver"]):
            return None
        return f"{player} has no {move.window} window to discard"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        discard_window(s, player, move.window)


def discard_window(s: PragaState, player: str, window: str) -> None:
    s.d["p"][player]["silver" if window == "silver" else "goldw"] -= 1


@dataclass(slots=True)
class TurnCrane(Step):
    """The crane wheel turns (see :func:`~.crane.rotate`)."""

    op = "turn_crane"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        crane.rotate(s)


def row_deck(s: PragaState, row: str, special: bool) -> str:
    return deck_name(row, s.d["era"], special)


@dataclass(slots=True)
class RefillRow(Step):
    """Refill a row: 3 normal tiles and the special one, from the current era's stacks."""

    row: str = ""
    op = "refill_row"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        row = self.row
        display = s.d["display"][row]
        empty = [i for i in NORMAL_SLOTS if display[i] is None]
        if display[SPECIAL_SLOT] is None:
            push(s, RefillSlot(row=row, slot=SPECIAL_SLOT))
        if empty:
            draw(s, DisplayDraw(deck=row_deck(s, row, False), row=row, slots=empty), len(empty))


@dataclass(slots=True)
class RefillSlot(Step):
    """An empty slot of a display row refilled from the top of its stack."""

    row: str = ""
    slot: int = 0
    op = "refill_slot"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        if s.d["display"][self.row][self.slot] is None:
            draw(s, DisplayDraw(deck=row_deck(s, self.row, self.slot == 3), row=self.row, slots=[self.slot]), 1)


@dataclass(slots=True)
class DisplayDraw(Draw):
    """Tiles drawn into the empty ``slots`` of a display row."""

    row: str = ""
    slots: list[int] = field(default_factory=list)
    purpose = "display"

    def details(self) -> dict[str, Any]:
        return {"row": self.row, "slots": self.slots}

    def drawn(self, s: PragaState, items: list[str]) -> None:
        display = s.d["display"][self.row]
        for slot, tile in zip(self.slots, items):
            display[slot] = tile


@dataclass(slots=True)
class NextTurn(Step):
    """The turn is over: the count moves on; the era changes or the game ends when their turn has come."""

    op = "next_turn"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        d = s.d
        d["turns"] += 1
        if d["era"] == 1 and d["turns"] == ERA_CHANGE_AFTER[len(s.players)]:
            push(s, EraChange(self.player))
            return
        finish_turn(s)


def finish_turn(s: PragaState) -> None:
    d = s.d
    if d["turns"] >= ROUNDS * len(s.players):
        push(s, GameEnd())
        return
    d["turn"] = new_turn()


@dataclass(slots=True)
class EraChange(Step):
    """Era II: every Era I tile leaves the rows and the stacks; the Era II stacks deal new displays."""

    op = "era_change"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        d = s.d
        removed = 0
        for row in ROWS:
            removed += sum(1 for t in d["display"][row] if t is not None)
            d["display"][row] = [None] * 4
            for special in (False, True):
                stack = s.stacks[deck_name(row, 1, special)]
                removed += len(stack)
                stack.hidden, stack.top, stack.bottom = 0, [], []
        d["era"] = 2
        s.add_milestone("era_change", round=s.round(), player_id=self.player, turn=d["turns"], era=ERA_NAME[2],
                        tiles_removed=removed)
        push(s, *(RefillRow(row=r) for r in ROWS), AfterEraChange())


@dataclass(slots=True)
class AfterEraChange(Step):
    """The new displays are dealt: the turn is over as usual."""

    op = "after_era_change"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        finish_turn(s)


@dataclass(slots=True)
class GameEnd(Step):
    """After the last round: the uncompleted plazas' lower rewards (with whatever they lead to), then
    the final scoring."""

    op = "game_end"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        s.d["stage"] = "final"
        push(s, *plazas.lower_rewards(s), FinalScoring())


@dataclass(slots=True)
class FinalScoring(Step):
    """The final scoring; the game is over."""

    op = "final_scoring"

    def run(self, s: PragaState) -> None:
        from ..scoring import final_points

        s.pop(self)
        for p in s.players:
            s.d["p"][p]["final"] = final_points(s, p)
        s.d["over"] = s.over = True
        s.d["stage"] = "over"
        s._score = None
        for p in s.players:
            s.add_milestone("final_scoring", round=ROUNDS, player_id=p, **s.d["p"][p]["final"],
                            total=sum(s.score()[p].values()))


def new_turn() -> dict[str, Any]:
    return {"tile_taken": False, "action_done": False, "used_tile": None, "extra_used": False, "swap_used": False,
            "special_ok": False, "t11_used": False, "performed": {}, "turn_upgrades": {}, "last_paid": 0}
