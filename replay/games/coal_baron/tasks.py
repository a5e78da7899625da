"""Coal Baron's tasks: every point where its rules wait, on the core's task stack.

Each step of the rules that waits (a player's decision, a draw from a deck) or
that the rules take by themselves (the next turn, shift scoring) is a task
class in the rules module of its rulebook section, deriving from :class:`Task`
here, the core's :class:`replay.decisions.Task` typed with the state.  The core
(:class:`replay.decisions.TaskState`) drives them: a move is legal exactly when
one of the top decision's candidates passes its check.

A decision has a :attr:`Task.kind`, its name in the snapshot (``place``,
``mining``, ``keep_tile``...), and :meth:`Task.view`, what the snapshot shows of
it.  Every draw is a :class:`Draw`: the known top of the deck first, then the
shuffled middle (a chance event), then the known bottom.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from replay import decisions
from replay.engine import ChanceRequest, ImpossibleChance, Move, Outcome
from replay.hidden import PartlyKnownDeck

from .moves import CoalBaronMove

if TYPE_CHECKING:
    from .state import CoalBaronState


@dataclass(slots=True)
class Task(decisions.Task["CoalBaronState"]):
    """One pending step of Coal Baron's rules."""

    kind: ClassVar[str] = ""
    """The decision's name in the snapshot (``place``, ``mining``...)."""

    def refuse(self, s: CoalBaronState, player: str, move: Move) -> str:
        doing = move.doing if isinstance(move, CoalBaronMove) else move.type.replace("_", " ")
        return f"{player} cannot {doing} now: {player} must {self.awaiting}"

    def view(self, s: CoalBaronState) -> dict[str, Any]:
        """The decision as the snapshot shows it."""
        return {"kind": self.kind, "player": self.player, "space": s.space or None,
                "steps_left": 0, "revealed": list(s.revealed), "shortage": None}


@dataclass(slots=True)
class Draw(Task):
    """Draw ``need`` items from a deck: its known top first, then its shuffled middle (the
    chance event the rules await), then its known bottom; fewer if the deck runs out.  A
    subclass says what becomes of them (:meth:`drawn`)."""

    need: int = 0
    """How many to draw."""
    reason: str = ""
    got: list[str | None] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)
    """Which of ``got`` came from a known position (top or bottom) rather than the middle."""
    deck: ClassVar[str] = ""
    """``tiles`` or ``orders``."""
    private: ClassVar[bool] = False
    """Whether only the drawing player sees the items (the draw-five spaces)."""
    _count: int = 0
    """How many items the draw awaits from the shuffled middle, once it reaches it (0: none)."""
    _req: ChanceRequest | None = None
    """Their request, made when first asked for (its pool lists every item the middle may give)."""
    decision = False

    def drawn(self, s: CoalBaronState, got: list[str | None]) -> None:
        """What becomes of the items drawn (the task is off the stack by then)."""

    @classmethod
    def the_deck(cls, s: CoalBaronState) -> PartlyKnownDeck:
        return s.tiles if cls.deck == "tiles" else s.orders

    def awaits(self, s: CoalBaronState) -> bool:
        return self._count > 0

    def request(self, s: CoalBaronState) -> ChanceRequest | None:
        if self._req is None and self._count:
            self._req = self.the_deck(s).request(self._count, self.reason,
                                                 visible_to=(self.player,) if self.private else None)
        return self._req

    def outcome_at_once(self, s: CoalBaronState, outcome: Outcome) -> ChanceRequest | None:
        """Items the middle may give now (:meth:`PartlyKnownDeck.admits`) are revealed at once,
        the request never made (unless it was made already: then they are checked against it)."""
        if self._req is not None or not self._count:
            return None
        deck = self.the_deck(s)
        if not deck.admits(outcome, self._count):
            return None
        return ChanceRequest("draw", deck.name, count=self._count, reason=self.reason)

    def run(self, s: CoalBaronState) -> None:
        deck = self.the_deck(s)
        got = self.got
        while len(got) < self.need:
            if deck.top:
                self.placed.append(len(got))
                got.extend(deck.take_top(1))
            elif deck.hidden:
                self._count = min(self.need - len(got), deck.hidden)
                return
            elif deck.bottom:
                self.placed.append(len(got))
                got.extend(deck.take_bottom(1))
            else:
                break
        s.pop(self)
        self.drawn(s, got)

    def reveal(self, s: CoalBaronState, req: ChanceRequest, outcome: Outcome) -> None:
        items = outcome["items"]
        named = [i for i in items if i is not None]
        if len(set(named)) != len(named):
            raise ImpossibleChance(f"the {req.name} deck holds each item once; {items} repeats one")
        if len(items) != req.count:
            raise ImpossibleChance(f"expected {req.count} item(s) from the {req.name} deck, got {len(items)}")
        self.the_deck(s).draw_hidden(list(items), req.reason or f"a draw from the {req.name} deck")
        self._count, self._req = 0, None
        self.got.extend(items)
