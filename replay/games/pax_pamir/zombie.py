"""A player who left the table (``bga`` only): Board Game Arena's zombie decides for them.

When a player quits or is expelled, BGA's framework plays every decision that comes to them by the
game's ``zombieTurn``.  Pax Pamir's is one fixed answer per state, never a choice among cards:

* the action phase (``playerActions``): pass, then the cleanup as usual;
* an open action's steps (a battle's removals, a move, a tax, a build): the action ends there;
* a discard, a road, a spy or a piece to take (``discard``, ``placeRoad``, ``placeSpy``,
  ``selectPiece``): skipped, so nothing is discarded or placed (BGA's ``zombieSkip`` drops the
  step from its action stack);
* an event's choice (Pashtunwali Values, Rebuke, Rumor, Other Persuasive Methods): skipped, so the
  event does nothing;
* a bribe: refused when asked for one, withdrawn when offering one;
* a prize: declined; the Safe House and Infrastructure: not used;
* the starting loyalty: Afghan.

Where BGA logs the zombie's answer (its ``pass``, ``declinePrize``, ``changeLoyalty``) the rules
await it as that player's one legal move (:data:`LOGGED`, :meth:`PaxState.answer_for_left`), so
the record holds it where the log shows it: a cleanup that ran before it (a market shift BGA shows
later) is not overtaken.  The other steps leave no trace, and the engine takes them itself
(:data:`ZOMBIE_TURN`, :meth:`PaxState.decide_for_left`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from replay.games.pax_pamir.actions.battle import BattleTask, SafeHouseTask
from replay.games.pax_pamir.actions.betray import PrizeTask
from replay.games.pax_pamir.actions.build import BuildTask
from replay.games.pax_pamir.actions.move import MoveTask
from replay.games.pax_pamir.actions.tax import TaxTask
from replay.games.pax_pamir.board import TakePieceTask
from replay.games.pax_pamir.bribes import BribeAnswerTask, BribeTask
from replay.games.pax_pamir.court import (
    DiscardTask,
    OverthrowDiscardTask,
    PatriotDiscardTask,
    RoadTask,
    SpyTask,
)
from replay.games.pax_pamir.events import ChooseSuitTask, RebukeTask, RumorTask, SwapHandsTask
from replay.games.pax_pamir.moves import (
    ChooseLoyalty,
    DeclinePrize,
    EndAction,
    EndTurn,
    RefuseBribe,
    Skip,
    Withdraw,
)
from replay.games.pax_pamir.turns import ActionsTask, LoyaltyTask

if TYPE_CHECKING:
    from replay.engine import Move
    from replay.games.pax_pamir.state import PaxState
    from replay.games.pax_pamir.tasks import Task


def answer(move: Move) -> Callable[[PaxState, Task], None]:
    """The zombie makes ``move`` at this step, as a player would."""

    def rule(s: PaxState, task: Task) -> None:
        task.apply(s, task.player, move)

    return rule


def skip(s: PaxState, task: Task) -> None:
    """The step is dropped: whatever it asked for is not done."""
    s.pop(task)


LOGGED: dict[type[Task], Move] = {
    LoyaltyTask: ChooseLoyalty(coalition="afghan"),
    ActionsTask: EndTurn(),
    PrizeTask: DeclinePrize(),
}
"""BGA's ``zombieTurn`` where it logs a move of the zombie: the rules await it."""

ANSWERS: tuple[Move, ...] = tuple(LOGGED.values())
"""Every move BGA's zombie logs."""

ZOMBIE_TURN: dict[type[Task], Callable[[PaxState, Task], None]] = {
    BattleTask: answer(EndAction()),
    MoveTask: answer(EndAction()),
    TaxTask: answer(EndAction()),
    BuildTask: answer(Skip()),
    SafeHouseTask: answer(Skip()),
    BribeTask: answer(Withdraw()),
    BribeAnswerTask: answer(RefuseBribe()),
    SpyTask: answer(Skip()),
    DiscardTask: skip,
    PatriotDiscardTask: skip,
    OverthrowDiscardTask: skip,
    RoadTask: skip,
    TakePieceTask: skip,
    ChooseSuitTask: skip,
    RebukeTask: skip,
    RumorTask: skip,
    SwapHandsTask: skip,
}
"""BGA's ``zombieTurn`` where it leaves no trace, per step of our rules that awaits a player."""
