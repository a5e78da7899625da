"""The work phase (rules 4): turns in clockwise order from the start player, skipping a player
with no worker left; the end of every turn refills the board (6.8)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from replay.engine import IllegalMove

from ..components import FACE_DOWN
from ..tasks import Draw, Task
from . import draws, mining, orders, placement, shift

if TYPE_CHECKING:
    from ..state import CoalBaronState


@dataclass(slots=True)
class StartShiftTask(Task):
    """A shift begins: its work phase, the start player first."""

    decision = False

    def run(self, s: CoalBaronState) -> None:
        s.pop(self)
        s.shift += 1
        s.push(WorkPhaseTask("", s.start_player))
        if not (s.left and s.players[s.start_player] in s.left):  # (else the next player begins)
            s.push(placement.PlaceWorkersTask(s.players[s.start_player]))


@dataclass(slots=True)
class WorkPhaseTask(Task):
    """The work phase (4.1): turns in clockwise order; after every turn the board is refilled
    (6.8) and the next player who has a worker left takes a turn.  When nobody has, the shift is
    scored.  A player who left the table (BGA's zombie, :func:`zombie_pass`) takes no more turns:
    the workers they still hold stay unplaced."""

    current: int = 0
    """The seat of the player whose turn it is (or was, until the next one starts)."""
    refilled: bool = False
    """Whether the board was refilled since the last turn ended."""
    decision = False

    def run(self, s: CoalBaronState) -> None:
        if not self.refilled:
            self.refilled = True
            if None in s.factory.values() or None in s.order_spaces.values():  # (the usual case: no)
                orders = refill(s, RefillOrdersTask)
                if refill(s, RefillFactoryTask) or orders:
                    return  # back here once the refills are drawn
        n = len(s.players)
        left = s.left
        for k in range(1, n + 1):
            i = (self.current + k) % n
            if s.pits[s.players[i]].workers > 0 and not (left and s.players[i] in left):
                self.current = i
                self.refilled = False
                s.push(placement.PlaceWorkersTask(s.players[i]))
                return
        s.pop(self)
        s.push(shift.ShiftScoringTask(""))


def refill(st: CoalBaronState, task: type[Refill]) -> bool:
    """Refill one display's empty usable spaces, if any, while its deck holds anything (a space
    stays empty when the deck runs out); whether there is anything to draw."""
    spaces = task.spaces(st)
    if None not in spaces.values() or not len(task.the_deck(st)):
        return False
    empty = [x for x, held in spaces.items() if held is None]
    st.push(task("", need=len(empty), reason="refilling " + ", ".join(empty), slots=empty))
    return True


@dataclass(slots=True)
class Refill(Draw, ABC):
    """Draw an item for each empty space of a display, from the top of its deck, and lay them
    face up in the refill order."""

    slots: list[str] = field(default_factory=list)
    """The empty spaces being refilled, in refill order."""

    @staticmethod
    @abstractmethod
    def spaces(s: CoalBaronState) -> dict[str, str | None]:
        """The display refilled: its spaces and what lies on each."""

    def drawn(self, s: CoalBaronState, got: list[str | None]) -> None:
        """Lay the drawn items face up on the empty spaces, in refill order.  An item drawn from a
        known position of the deck (put back there after a draw-five) is turned face up now: a
        viewer who did not see it put back learns it here, so it is also a ``reveal``."""
        spaces = type(self).spaces(s)
        for i, (space, item) in enumerate(zip(self.slots, got)):
            spaces[space] = FACE_DOWN if item is None else item
            if item is not None and i in self.placed:
                s.reveals.append({"reveal": space, "items": [item]})


@dataclass(slots=True)
class RefillFactoryTask(Refill):
    """Refill the empty factory spaces from the tunnel-tile deck (also setup 2)."""

    deck = "tiles"

    @staticmethod
    def spaces(s: CoalBaronState) -> dict[str, str | None]:
        return s.factory


@dataclass(slots=True)
class RefillOrdersTask(Refill):
    """Refill the empty order spaces from the order deck (also setup 7)."""

    deck = "orders"

    @staticmethod
    def spaces(s: CoalBaronState) -> dict[str, str | None]:
        return s.order_spaces


def left_before_confirming(s: CoalBaronState, player: str) -> bool:
    """``bga``: ``player`` left the table (BGA's zombie) after their turn's action, before confirming
    it.  BGA's zombie passes the confirmation, and with it the board's refill: the turn's refill,
    about to be drawn, is not, and the next confirmed turn's refill fills the spaces of both.
    Whether it applies (the rules await that refill, right after ``player``'s turn)."""
    if s.ruleset != "bga" or player in s.left:
        return False
    k = len(s.stack) - 1
    while k > 0 and isinstance(s.stack[k], Refill):
        k -= 1
    work = s.stack[k]
    if k == len(s.stack) - 1 or type(work) is not WorkPhaseTask or s.players[work.current] != player:
        return False
    del s.stack[k + 1:]
    s.left = (*s.left, player)
    s.advance()
    return True


def zombie_pass(s: CoalBaronState, task: Task, player: str) -> None:
    """A player who has just left the table (BGA's zombie) passes: BGA's ``zombieTurn`` takes
    ``zombiePass`` to the end of the turn, from the placement, from the mining steps (the steps left
    are lost) or from a draw-five's choice (the items stay aside: :func:`draws.leave_aside`), and
    BGA's next-player rule passes over zombies from then on.  In the opening draft it passes at each
    of its picks (:func:`orders.leave_draft`).  A coal shortage, the only other decision, cannot
    happen under BGA's supply (32 cubes per colour, 18 minecarts per colour on the tiles): the move
    is refused there."""
    if type(task) is draws.KeepTileTask or type(task) is draws.KeepOrderTask:
        draws.leave_aside(s, task, player)
        return
    if type(task) is orders.DraftTask:
        orders.leave_draft(s, task, player)
        return
    if type(task) is not placement.PlaceWorkersTask and type(task) is not mining.MiningTask:
        raise IllegalMove(f"{player} left the table while they had to {task.awaiting}: what Board Game Arena's "
                          "zombie does there is not known to our rules")
    s.pop(task)
