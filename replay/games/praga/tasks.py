"""Praga's tasks: every point where its rules wait, on the core's task stack.

The state (:class:`~.state.PragaState`) is a :class:`replay.decisions.TaskState`: the core
drives a stack of tasks and this module gives Praga's three kinds of them, each typed with
the state:

* a :class:`Step` is a step the rules take by themselves (gain one effect, refill a row,
  turn the crane).  Its :attr:`Step.op` is the name the snapshot lists in ``pending_steps``;
* a :class:`Decision` is a player's choice (the turn, which action, which reward, where the
  tile goes...).  Its :attr:`Decision.kind` is the name the snapshot shows in ``decision``
  (with its fields, :meth:`Decision.view`), its :attr:`~replay.decisions.Task.awaiting` what
  the player must do, in a refused move's words;
* a :class:`Draw` waits for tiles from a face-down stack (:func:`draw`), or for the start
  player; its :attr:`Draw.purpose` names it in ``chance``.

The tasks live with the rules they run, one per rule step, in ``rules/``: a step pops itself,
then does its rule, which pushes what follows (:func:`push`: in the order given, before
everything already pending).  The bottom of the stack is :class:`~.rules.turn.PlayerTurns`,
which gives the next player a turn whenever nothing else is pending.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from replay import decisions
from replay.engine import ChanceRequest, ImpossibleChance, Move, Outcome

if TYPE_CHECKING:
    from .state import PragaState  # noqa: F401 (the base class names it in a string)


@dataclass(slots=True)
class Task(decisions.Task["PragaState"]):
    """One pending step of Praga's rules."""

    player: str = ""


@dataclass(slots=True)
class Step(Task):
    """A step the rules take by themselves: :meth:`run` pops it and does its rule."""

    decision = False
    op: ClassVar[str] = ""
    """The step's name in the snapshot's ``pending_steps``."""


@dataclass(slots=True)
class Decision(Task):
    """A player's decision.  The snapshot shows it as ``{"kind": ..., "player": ..., <fields>}``."""

    kind: ClassVar[str] = ""
    """The decision's name in the snapshot."""

    def view(self) -> dict[str, Any]:
        """The decision as the snapshot shows it (its fields, in order)."""
        names = _SHOWN.get(type(self))
        if names is None:
            names = _SHOWN[type(self)] = tuple(f.name for f in fields(self) if f.name != "player")
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        for name in names:
            out[name] = getattr(self, name)
        return out

    def refuse(self, s: PragaState, player: str, move: Move) -> str:
        return f"{player} cannot {move.type.replace('_', ' ')} now: {player} must first {self.awaiting}"

    def otherwise(self, player: str, move: Move) -> str:
        """The reason for a move of the right type that is not one of the options, when the decision
        has nothing more precise to say."""
        return f"{player} cannot {move.type.replace('_', ' ')} that way: {player} must {self.awaiting}"


_SHOWN: dict[type, tuple[str, ...]] = {}


def push(s: PragaState, *tasks: Task) -> None:
    """Do ``tasks`` next, in the order given, before everything already pending."""
    s.stack.extend(reversed(tasks))


# --- stacks: face-down piles whose bottom may be known ---------------------------
#
# Each stack is the core's partly-known deck (``s.stacks[deck]``, a
# :class:`replay.hidden.PartlyKnownDeck` of distinct tiles): a shuffled middle whose
# tiles come by chance, and the tiles put under it since, known and in order.


@dataclass(slots=True)
class Draw(Task, ABC):
    """Tiles drawn from the face-down stack ``deck``: ``unseen`` from its shuffled middle (the
    chance outcome awaited), then ``known`` from under it.  A subclass says what the tiles are
    for (:attr:`purpose`) and what becomes of them (:meth:`drawn`)."""

    decision = False
    deck: str = ""
    unseen: int = 0
    known: int = 0
    _request: ChanceRequest | None = None
    purpose: ClassVar[str] = ""
    """What the draw is for, in the snapshot's ``chance`` and the request's reason."""

    @abstractmethod
    def drawn(self, s: PragaState, items: list[str]) -> None:
        """The rule for the tiles drawn, in draw order (the task is off the stack by then)."""

    def details(self) -> dict[str, Any]:
        """What else the snapshot's ``chance`` shows of the draw."""
        return {}

    def view(self) -> dict[str, Any]:
        """The draw as the snapshot shows it in ``chance``."""
        return {"deck": self.deck, "purpose": self.purpose, "unseen": self.unseen, "known": self.known,
                **self.details()}

    def awaits(self, s: PragaState) -> bool:
        return True  # on the stack only while tiles are to come from the shuffled middle

    def request(self, s: PragaState) -> ChanceRequest | None:
        req = self._request
        if req is None:
            req = self._request = s.stacks[self.deck].request(self.unseen, self.purpose.replace("_", " "))
        return req

    def reveal(self, s: PragaState, req: ChanceRequest, outcome: Outcome) -> None:
        items = outcome["items"]
        if len(items) != req.count:
            raise ImpossibleChance(f"the {req.name} draw needs {req.count} tiles")
        if None in items:
            raise ImpossibleChance(f"the {self.deck} draw is seen by every player: its tiles cannot be unknown")
        if len(set(items)) != len(items):
            raise ImpossibleChance(f"the {self.deck} stack holds each tile once; the draw repeats one: {items}")
        stack = s.stacks[self.deck]
        stack.draw_hidden(list(items), f"the {self.deck} stack")
        known = stack.take_bottom(self.known)
        s.pop(self)
        self.drawn(s, [str(i) for i in items] + known)


def draw(s: PragaState, task: Draw, n: int) -> None:
    """Draw ``n`` tiles from ``task.deck`` for ``task``.  Unseen tiles come from chance (the task waits
    on the stack); tiles put under the stack earlier are known and come without chance, in order."""
    stack = s.stacks[task.deck]
    unseen = min(n, stack.hidden)
    known = min(n - unseen, len(stack.bottom))
    if unseen:
        task.unseen, task.known = unseen, known
        s.push(task)
    else:
        task.drawn(s, stack.take_bottom(known))


def put_under(s: PragaState, deck: str, items: list[str]) -> None:
    s.stacks[deck].put_back(sorted(items), "bottom")
