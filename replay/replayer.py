"""Drive a game state through a record: frames, milestones, divergences, status.

:func:`replay` is the one entry point.  It runs the record's events through
the replay loop (:class:`replay.loop.Loop`: each event checked against the
rules through the state's checked path) with this module's observers:
:class:`Verify` compares every ``observe`` event with the replayed state and
notes the event the rules refused, :class:`Frames` records a :class:`Frame`
per event; :class:`Replaying` holds them, and its ``finish`` checks the
record's ``result``.  Disagreements are :class:`Divergence` objects of the
architecture's kinds:

``illegal_move``, ``wrong_player``, ``impossible_chance``, ``missing_chance``
(a move came while the rules await randomness), ``observation_mismatch``,
``result_mismatch`` and ``events_after_end``.

An illegal move, a wrong player, an impossible or missing chance or an event
after the end stops the replay (the state cannot honestly go on); observation
mismatches are all collected and the replay continues.

The status is ``complete`` (the game ended, nothing disagreed),
``incomplete`` (the record stops before the end), ``diverged`` (at least one
divergence) or ``invalid`` (not a readable record).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import orjson

from replay.engine import OVER, ChanceRequest, Move, RuleViolation, State, Taken
from replay.games import get_game
from replay.loop import Loop, Observer
from replay.record import ChanceEvent, Item, MoveEvent, ObserveEvent, Record, RecordError

COMPLETE = "complete"
INCOMPLETE = "incomplete"
DIVERGED = "diverged"
INVALID = "invalid"

Score = dict[str, dict[str, int]]


class Frame(msgspec.Struct, frozen=True, gc=False):
    """The state after one event: who acted, what, and the score by category (a replay makes
    one per event: a msgspec struct is made in C, twice as fast as a named tuple, and is not
    tracked by the garbage collector; it holds no cycle)."""

    seq: int
    kind: str
    actor: str | None
    move: Move | None
    round: int | None
    phase: str
    score: Score


@dataclass(slots=True)
class Divergence:
    """One place where the record disagrees with the rules."""

    seq: int
    kind: str
    message: str
    key: str | None = None
    recorded: Any = None
    replayed: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "key": self.key, "recorded": self.recorded,
                "replayed": self.replayed, "message": self.message}


@dataclass
class Replay:
    """The result of replaying one record."""

    record: Record | None
    status: str
    frames: list[Frame] = field(default_factory=list)
    milestones: list[dict[str, Any]] = field(default_factory=list)
    divergences: list[Divergence] = field(default_factory=list)
    departures: list[dict[str, Any]] = field(default_factory=list)
    """Every step where BGA's departure from the rulebook changed what happened (``ruleset: bga``)."""
    taken: list[Taken] = field(default_factory=list)
    """Every component taken by a move that named only its position (:meth:`State.take`), in order."""
    score: Score = field(default_factory=dict)
    ranking: dict[str, int] = field(default_factory=dict)
    state: State | None = None
    error: RecordError | None = None
    source: str = ""
    line: int | None = None
    replayed: int = 0
    """How many events were replayed (all of them, or those before the event that stopped the replay)."""

    @property
    def first_divergence(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None

    @property
    def totals(self) -> dict[str, int]:
        return {p: sum(c.values()) for p, c in self.score.items()}

    @property
    def winners(self) -> list[str]:
        if self.status not in (COMPLETE, DIVERGED) or self.state is None or not self.state.is_over():
            return []
        return [p for p, r in self.ranking.items() if r == 1]

    def to_json(self, *, details: bool = True) -> dict[str, Any]:
        """The ``replay --json`` object (``details=False``: the ``verify --json`` one)."""
        rec = self.record
        out: dict[str, Any] = {
            "id": rec.id if rec else None,
            "game": rec.game if rec else None,
            "source": self.source,
            "line": self.line,
            "status": self.status,
            "events": len(rec.events) if rec else 0,
            "replayed": self.replayed,
        }
        if self.error is not None:
            out["error"] = str(self.error)
        if details:
            out["score"] = self.score
            out["total"] = self.totals
            out["rank"] = self.ranking
            out["milestones"] = self.milestones
            out["departures"] = self.departures
            out["taken"] = [t._asdict() for t in self.taken]
        fd = self.first_divergence
        out["first_divergence_seq"] = fd.seq if fd else None
        out["divergences"] = [d.to_dict() for d in self.divergences]
        return out


def replay(record: Record, *, until: int | None = None, keep_frames: bool = True,
           ruleset: str | None = None, observers: Sequence[Observer] = ()) -> Replay:
    """Replay ``record`` (up to and including event ``until``, if given).

    ``ruleset`` (``official`` or ``bga``) overrides the record's
    ``options.ruleset``: a BGA record replayed under the rulebook shows where
    BGA departs from it.  ``observers`` watch the replay besides its own
    (:class:`Verify`, and :class:`Frames` with ``keep_frames``).
    """
    game = get_game(record.game)
    options = record.options if ruleset is None else {**record.options, "ruleset": ruleset}
    run = Replaying(game.initial_state(record.player_ids, options), record, keep_frames=keep_frames,
                    observers=observers)
    refused = run.loop.run(record.events if until is None else record.events[: until + 1])
    return run.finish(record, complete=refused is None and until is None)


class Verify(Observer):
    """The divergences of a record: every ``observe`` event compared with the replayed state, and
    the event the rules refused (which stops the replay).

    Observations are compared as cheaply as each allows: the same JSON text as the
    last observation that agreed, while the state says nothing observable changed
    (:attr:`State.epoch`), agrees again at once; facts compare as plain values in a
    record without booleans; anything else goes through :func:`_agrees`, and one
    that does not agree, leaf by leaf (:func:`_word_mismatches`).
    """

    __slots__ = ("divergences", "_texts", "_plain", "_shown", "_agreed", "_asked")

    def __init__(self, record: Record | None = None) -> None:
        self.divergences: list[Divergence] = []
        self._texts = record.observation_texts if record is not None else {}
        self._plain = record is not None and not record.booleans  # see _agrees
        self._shown: list[Any] = [None, b""]  # the facts the state last handed out, and their JSON
        # the facts handed out, a recorded observation that agreed with them, its JSON text, and
        # the state's epoch then (see State.epoch)
        self._agreed: tuple[Any, Any, Any, int | None] = (None, None, None, None)
        self._asked: tuple[Any, tuple[str, ...]] = (None, ())  # the last observation's text and its keys

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        facts = event.facts
        text = self._texts.get(seq)
        agreed = self._agreed
        if text is not None and text == agreed[2] and agreed[3] is not None and agreed[3] == state.epoch:
            # the text of the last observation that agreed, and the state says nothing
            # observable changed since: the same facts, agreeing again
            return
        if text is None or text != self._asked[0]:  # the keys of a repeated text are asked as they were
            self._asked = (text, tuple(facts))
        replayed = state.observed(self._asked[1])  # the observed keys
        # the same facts handed out again (nothing observable changed) agree with this
        # observation when its text is the text of the last one that agreed with them
        # (the same text is the same facts, booleans included), or, as plain values, when
        # it equals that one: two records' worth of decoded JSON compare faster than JSON
        # against the state's containers
        if agreed[0] is replayed and text is not None and text == agreed[2]:
            ok = True
        elif self._plain:
            if agreed[0] is replayed:
                ok = facts == agreed[1]
            else:
                ok = facts == replayed
                if ok:
                    self._agreed = (replayed, facts, text, state.epoch)
        else:
            ok = _agrees(facts, replayed, self._shown)
            if ok and agreed[0] is not replayed:
                self._agreed = (replayed, facts, text, state.epoch)
        if not ok and not _holds(facts, replayed):  # a partial observation (BGA's) holds
            _word_mismatches(seq, facts, replayed, self.divergences)

    def refused(self, seq: int, violation: RuleViolation, state: State) -> None:
        self.divergences.append(Divergence(seq, violation.kind, str(violation)))


class VerifyMade(Verify):
    """:class:`Verify` for a record still being made (the BGA import feeds its events as it makes
    them): each observation is compared as it will read back from the record's JSON (a tuple
    reads back as a list)."""

    __slots__ = ()

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        recorded = orjson.loads(orjson.dumps(event.facts))  # the facts as the record's JSON gives them back
        _compare_observation(state, seq, recorded, self.divergences, self._shown)


class Frames(Observer):
    """The frames of a replay (``replay --json``, the viewer): one per event, the state's round,
    phase and score by category after it (an observation changes nothing: the last ones hold)."""

    __slots__ = ("frames", "_add", "_start")

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self._add = self.frames.append
        self._start = Frame(-1, "start", None, None, None, "", {})
        """What an observation before the first frame holds: the state as the replay found it."""

    def started(self, state: State) -> None:
        rnd, phase = state.phase()
        self._start = Frame(-1, "start", None, None, rnd, phase, state.score())

    def applied(self, seq: int, event: MoveEvent | ChanceEvent, state: State) -> None:
        rnd, phase = state.phase()
        if type(event) is MoveEvent or type(event) is not ChanceEvent and isinstance(event, MoveEvent):
            self._add(Frame(seq, "move", event.player, event.move, rnd, phase, state.score()))
        else:
            self._add(Frame(seq, event.kind, None, None, rnd, phase, state.score()))

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        last = self.frames[-1] if self.frames else self._start
        self._add(Frame(seq, "observe", None, None, last.round, last.phase, last.score))


class Replaying:
    """A replay under way: the :class:`~replay.loop.Loop` over a state, with the observers that
    make a :class:`Replay` (:class:`Verify`, :class:`Frames` with ``keep_frames``) and any others.

    :func:`replay` runs a record's events through it.  The BGA importer, which
    drives the engine through the whole game to build a record (it settles what the
    log leaves implicit by asking the rules), feeds it each event as it makes it
    (:meth:`Loop.feed`): without ``record``, observations are compared as the record
    will read them back (:class:`VerifyMade`).  :meth:`finish` gives the
    :class:`Replay` of the record (the same whichever way the events came, provided
    they were applied under the record's own ruleset, in order, and none refused).
    """

    __slots__ = ("loop", "verify", "framer")

    def __init__(self, state: State, record: Record | None = None, *, keep_frames: bool = True,
                 observers: Sequence[Observer] = ()) -> None:
        self.verify = Verify(record) if record is not None else VerifyMade()
        self.framer = Frames() if keep_frames else None
        own: tuple[Observer, ...] = (self.verify,) if self.framer is None else (self.verify, self.framer)
        self.loop = Loop(state, (*own, *observers))

    def finish(self, record: Record, *, complete: bool = True) -> Replay:
        """The replay of ``record``, whose events are the ones applied (``complete``: all of them,
        so that its ``result`` is checked)."""
        loop = self.loop
        loop.finish()
        state = loop.state
        out = Replay(record=record, status=INCOMPLETE, state=state, divergences=self.verify.divergences,
                     frames=self.framer.frames if self.framer is not None else [], replayed=loop.seq)
        _conclude(out, state, record, complete)
        return out


def _conclude(out: Replay, state: State, record: Record, check_result: bool) -> None:
    """What a replay finds once the events are through: milestones, score, ranking, the check of
    the record's ``result`` (``check_result``: the replay went through every event) and the status."""
    out.milestones = state.milestones
    out.departures = state.departures
    out.taken = state.taken
    out.score = state.score()
    over = state.turn() is OVER
    if over:
        out.ranking = state.ranking()
    if check_result and record.result is not None:
        # a result is checked against the state after the last event, and reported there
        _compare_result(state, record, max(len(record.events) - 1, 0), over, out)
    if out.divergences:
        out.status = DIVERGED
    elif over:
        out.status = COMPLETE


def replay_item(item: Item, **kw: Any) -> Replay:
    """Replay one item from :func:`replay.record.iter_records` (``invalid`` if unreadable)."""
    if item.record is None:
        return Replay(record=None, status=INVALID, error=item.error, source=item.source, line=item.line)
    try:
        out = replay(item.record, **kw)
    except Exception as exc:  # an engine bug must not take a whole batch down
        err = RecordError(f"engine error while replaying: {type(exc).__name__}: {exc}",
                          source=item.source, line=item.line)
        return Replay(record=item.record, status=INVALID, error=err, source=item.source, line=item.line)
    out.source, out.line = item.source, item.line
    return out


def state_at(record: Record, seq: int) -> State:
    """The state right after event ``seq`` (the viewer's step)."""
    r = replay(record, until=seq, keep_frames=False)
    assert r.state is not None
    return r.state


def _flatten(prefix: str, value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(f"{prefix}.{k}", v)
    else:
        yield prefix, value


def _lookup(value: Any, dotted: str) -> Any:
    for part in dotted.split(".")[1:]:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _holds(recorded: dict[str, Any], replayed: dict[str, Any]) -> bool:
    """Whether every leaf of ``recorded`` is at the same place in ``replayed`` with an equal value (a
    boolean only as a boolean): then no leaf disagrees (:func:`_word_mismatches` finds none).  Most
    observations name a few facts of one player: this settles them without writing the state's
    facts out.  ``False`` decides nothing (a key with a dot, a missing key: the caller looks closer)."""
    for key, value in recorded.items():
        if "." in key or key not in replayed:
            return False
        ours = replayed[key]
        if type(value) is dict:
            if not isinstance(ours, dict) or not _holds(value, ours):
                return False
        elif value != ours or type(value) is bool and type(ours) is not bool:
            return False
    return True


def _agrees(recorded: dict[str, Any], replayed: dict[str, Any], shown: list[Any] | None = None) -> bool:
    """Whether no leaf of ``recorded`` can disagree with ``replayed``: they are equal, and
    equal even as JSON where the recorded facts hold a boolean (``True == 1`` in Python, not in
    a record).  Anything else goes leaf by leaf, which decides and words the mismatches.

    The same JSON text settles it at once (the usual case: a record written by gamerec
    lists the facts in the order the rules keep them).  ``shown`` holds the facts the state
    handed out last and their JSON: a state that hands out the same object again (nothing
    observable changed, see :meth:`State.observed`) is not written out again."""
    try:
        blob = orjson.dumps(recorded)
        if shown is not None and shown[0] is replayed:
            text = shown[1]
        else:
            text = orjson.dumps(replayed)
            if shown is not None:
                shown[0], shown[1] = replayed, text
        if blob == text:
            return True
        if recorded != replayed:
            return False
        if b"true" not in blob and b"false" not in blob:
            return True
        return orjson.dumps(recorded, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
            replayed, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return False


def _compare_observation(state: State, seq: int, facts: dict[str, Any], divs: list[Divergence],
                         shown: list[Any] | None = None) -> None:
    """Compare an ``observe`` event with the replayed state.  Only the observed keys are
    computed; an observation whose every leaf holds (the usual partial one: a few facts of one
    player) or that agrees as a whole is settled at once, and only one that does not is gone
    through leaf by leaf."""
    replayed = state.observed(facts.keys())
    if not _holds(facts, replayed) and not _agrees(facts, replayed, shown):
        _word_mismatches(seq, facts, replayed, divs)


def _word_mismatches(seq: int, facts: dict[str, Any], replayed: dict[str, Any], divs: list[Divergence]) -> None:
    """One ``observation_mismatch`` per recorded leaf that disagrees with the replayed facts."""
    for top, recorded_value in facts.items():
        for key, rec_v in _flatten(top, recorded_value):
            rep_v = copy.deepcopy(_lookup(replayed.get(top), key))
            if rec_v != rep_v or type(rec_v) is bool and type(rep_v) is not bool:
                divs.append(Divergence(
                    seq, "observation_mismatch",
                    f"the record says {key} is {rec_v!r} here, the rules give {rep_v!r}",
                    key, rec_v, rep_v,
                ))


def _compare_result(state: State, record: Record, seq: int, over: bool, out: Replay) -> None:
    result = record.result or {}
    if not over and result.get("end", "normal") == "normal" and ("score" in result or "rank" in result):
        t = state.turn()
        awaiting = t.describe() if isinstance(t, ChanceRequest) else f"a move by {t}"
        out.divergences.append(Divergence(
            seq, "result_mismatch",
            f"the record gives a final result, but the game is not over: the rules still await {awaiting}",
            "result", None, None,
        ))
        return
    totals = state.totals()
    for pid, v in (result.get("score") or {}).items():
        if totals.get(pid) != v:
            out.divergences.append(Divergence(
                seq, "result_mismatch",
                f"the record gives {pid} a final score of {v}, the rules give {totals.get(pid)}",
                f"score.{pid}", v, totals.get(pid),
            ))
    if over:
        ranking = state.ranking()
        for pid, v in (result.get("rank") or {}).items():
            if ranking.get(pid) != v:
                out.divergences.append(Divergence(
                    seq, "result_mismatch",
                    f"the record ranks {pid} {v}, the rules (with their tiebreaks) rank them {ranking.get(pid)}",
                    f"rank.{pid}", v, ranking.get(pid),
                ))
