"""The pending-decision machinery: every point where the rules wait.

The state keeps a stack of tasks.  The top task is what the game waits for:

* a **decision** (``decision`` is true): ``player`` chooses one move; the task
  lists the candidate moves (:meth:`Task.candidates`, a superset of the legal
  ones), checks one (:meth:`Task.check`, ``None`` when legal, otherwise the
  reason in words) and applies it (:meth:`Task.apply`);
* a **chance** task (not a decision, and :meth:`Task.request` gives a
  request): the game waits for a card draw or a random pick;
* an **automatic** step (not a decision, no request): the engine runs it at
  once (:meth:`Task.run`).

Legal moves are exactly the candidates that pass the check, so the legal
count and what ``_play`` accepts can never drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from replay.engine import ChanceRequest, Move, Outcome

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState


@dataclass(slots=True)
class Task:
    """One pending step of the rules."""

    player: str
    decision: ClassVar[bool] = True
    accepts: ClassVar[tuple[type[Move], ...]] = ()
    awaiting: ClassVar[str] = ""
    awaits_chance: ClassVar[bool] = False
    """Whether the task may await randomness (it defines :meth:`request`; set by itself)."""

    def __init_subclass__(cls) -> None:
        cls.awaits_chance = cls.request is not Task.request

    def is_open(self, s: PaxState) -> bool:
        """False when a decision has nothing left to decide (it then closes by itself)."""
        return True

    def close(self, s: PaxState) -> None:
        """What happens when the decision is over (after the last move or when it closes)."""

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return ()

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        """Apply a checked move (every decision task overrides this)."""

    def run(self, s: PaxState) -> None:
        """An automatic step: do it (and pop or replace itself)."""

    def request(self, s: PaxState) -> ChanceRequest | None:
        return None

    def awaits(self, s: PaxState) -> bool:
        """Whether the task awaits randomness now (a task whose request costs something
        answers without making it)."""
        return self.request(s) is not None

    def reveal(self, s: PaxState, req: ChanceRequest, outcome: Outcome) -> None:
        """Apply a chance outcome."""

    def describe(self) -> str:
        return self.awaiting
