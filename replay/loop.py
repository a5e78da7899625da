"""The replay loop: a record's events applied to a state, one by one, with observers watching.

Every consumer of a replay goes through :class:`Loop`: ``replay``/``verify``
(divergences, frames), ``ingest`` (its rows), the BGA import (which feeds the
loop each event as it makes it), the simulator's seat view and game review.
What a consumer wants from the replay is an :class:`Observer`: the loop
applies each event through the state's checked path (:meth:`State.apply_move`,
:meth:`State.apply_chance`) and then tells every observer, with the state and
the event.  An ``observe`` event changes nothing: observers are told of it as
it comes.  A refused event stops the loop; observers are told which and why.

Two drivers share the one loop: :meth:`Loop.run` takes a record's events (a
list), :meth:`Loop.feed` takes one event at a time from code that makes them
(the BGA importer, the simulator writing a seat's view).  Both apply an event
the same way and number it the same way (``seq``, from 0, every event counted).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from replay.engine import RuleViolation, State
from replay.record import ChanceEvent, Event, MoveEvent, ObserveEvent


def event_kind(event: Event) -> type[Event]:
    """``MoveEvent``, ``ChanceEvent`` or ``ObserveEvent``: which of the three ``event`` is.

    Told by the exact type first: ``isinstance`` against a msgspec struct class that does not
    match goes through its metaclass's ``__instancecheck__``, ten times the cost of ``type(x) is``
    (the loop asks once per event)."""
    cls = type(event)
    if cls is MoveEvent or cls is ChanceEvent or cls is ObserveEvent:
        return cls
    if isinstance(event, MoveEvent):
        return MoveEvent
    return ObserveEvent if isinstance(event, ObserveEvent) else ChanceEvent


class Observer:
    """What watches a replay.  A subclass overrides the calls it needs; the loop makes only those
    (an observer that only reads observations costs nothing per move)."""

    __slots__ = ()

    def started(self, state: State) -> None:
        """The state before the first event this loop applies.  An observer may be started again,
        by a new loop over a new state (the BGA importer tries a log's readings in turn, each from
        the start, with the same observers): it forgets then what it noted before."""

    def applied(self, seq: int, event: MoveEvent | ChanceEvent, state: State) -> None:
        """Event ``seq`` (a move or a chance outcome) has just been applied to ``state``."""

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        """Event ``seq`` is an observation: what the record says of ``state`` here."""

    def refused(self, seq: int, violation: RuleViolation, state: State) -> None:
        """The rules refused event ``seq`` (``state`` is as before it): the loop stops here."""

    def finished(self, state: State) -> None:
        """No more events come: ``state`` is the last one."""


def _overridden(observers: Sequence[Observer], name: str) -> list[Callable[..., None]]:
    """The bound ``name`` calls of the observers that override it, in order."""
    base = getattr(Observer, name)
    return [getattr(o, name) for o in observers if getattr(type(o), name) is not base]


class Loop:
    """One replay: a state, the events applied to it so far (:attr:`seq` of them), its observers."""

    __slots__ = ("state", "seq", "observers", "_applied", "_observed", "_refused", "_finished")

    def __init__(self, state: State, observers: Sequence[Observer] = (), *, seq: int = 0) -> None:
        self.state = state
        self.seq = seq
        """The number of the next event: events before it were applied (or observed)."""
        self.observers = tuple(observers)
        self._applied = _overridden(self.observers, "applied")
        self._observed = _overridden(self.observers, "observed")
        self._refused = _overridden(self.observers, "refused")
        self._finished = _overridden(self.observers, "finished")
        for started in _overridden(self.observers, "started"):
            started(state)

    def feed(self, event: Event) -> None:
        """Apply the next event and tell the observers; a refused event raises
        :class:`RuleViolation` (observers are not told: the feeder decides what a refusal means)
        and is not counted."""
        seq, state = self.seq, self.state
        kind = event_kind(event)
        if kind is ObserveEvent:
            for observed in self._observed:
                observed(seq, event, state)
        else:
            state.seq = seq
            if kind is MoveEvent:
                state.apply_move(event.player, event.move)  # type: ignore[union-attr]
            else:
                state.apply_chance(event.outcome)  # type: ignore[union-attr]
            for applied in self._applied:
                applied(seq, event, state)
        self.seq = seq + 1

    def run(self, events: Iterable[Event]) -> RuleViolation | None:
        """Apply ``events`` in order (the record's, from :attr:`seq` on); stop at the first refused
        one, told to the observers and returned (``None``: every event went through)."""
        state = self.state
        # the loop runs once per event: its lookups are bound once
        apply_move, apply_chance = state.apply_move, state.apply_chance
        applied, observed = self._applied, self._observed
        one_applied = applied[0] if len(applied) == 1 else None
        seq = self.seq
        for ev in events:
            cls = type(ev)
            if cls is not MoveEvent and cls is not ChanceEvent and cls is not ObserveEvent:
                cls = event_kind(ev)
            if cls is MoveEvent:
                state.seq = seq
                try:
                    apply_move(ev.player, ev.move)  # type: ignore[union-attr]
                except RuleViolation as exc:
                    return self._stop(seq, exc)
            elif cls is ObserveEvent:
                for f in observed:
                    f(seq, ev, state)
                seq += 1
                continue
            else:
                state.seq = seq
                try:
                    apply_chance(ev.outcome)  # type: ignore[union-attr]
                except RuleViolation as exc:
                    return self._stop(seq, exc)
            if one_applied is not None:
                one_applied(seq, ev, state)
            else:
                for f in applied:
                    f(seq, ev, state)
            seq += 1
        self.seq = seq
        return None

    def _stop(self, seq: int, violation: RuleViolation) -> RuleViolation:
        self.seq = seq
        for refused in self._refused:
            refused(seq, violation, self.state)
        return violation

    def finish(self) -> None:
        """Tell the observers that no more events come."""
        for finished in self._finished:
            finished(self.state)

