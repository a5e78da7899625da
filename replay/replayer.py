"""Drive a game state through a record: frames, milestones, divergences, status.

:func:`replay` is the one entry point.  For every event it checks the event
against the rules (through the state's checked path), records a
:class:`Frame`, and compares every ``observe`` event and the record's
``result`` with the replayed state.  Disagreements are :class:`Divergence`
objects of the architecture's kinds:

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import orjson

from replay.engine import OVER, ChanceRequest, Move, RuleViolation, State, Taken
from replay.games import get_game
from replay.record import Event, Item, MoveEvent, ObserveEvent, Record, RecordError

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
           ruleset: str | None = None) -> Replay:
    """Replay ``record`` (up to and including event ``until``, if given).

    ``ruleset`` (``official`` or ``bga``) overrides the record's
    ``options.ruleset``: a BGA record replayed under the rulebook shows where
    BGA departs from it.
    """
    game = get_game(record.game)
    options = record.options if ruleset is None else {**record.options, "ruleset": ruleset}
    state = game.initial_state(record.player_ids, options)
    out = Replay(record=record, status=INCOMPLETE, state=state)
    stopped = False
    events = record.events if until is None else record.events[: until + 1]
    score = state.score() if keep_frames else {}
    # the loop runs once per event: its lookups are bound once
    apply_move, apply_chance, score_of, phase_of = state.apply_move, state.apply_chance, state.score, state.phase
    add_frame = out.frames.append
    shown: list[Any] = [None, b""]  # the facts the state last handed out, and their JSON
    plain = not record.booleans  # observations compare as plain values (see _agrees)
    # the facts handed out, a recorded observation that agreed with them, its JSON text, and
    # the state's epoch then (see State.epoch)
    agreed: tuple[Any, Any, Any, int | None] = (None, None, None, None)
    texts = record.observation_texts
    asked: tuple[Any, tuple[str, ...]] = (None, ())  # the last observation's text and its keys
    rnd, phase = phase_of() if keep_frames else (None, "")
    for seq, ev in enumerate(events):
        cls = type(ev)
        if cls is MoveEvent or cls is not ObserveEvent and isinstance(ev, MoveEvent):
            state.seq = seq
            actor, move = ev.player, ev.move  # type: ignore[union-attr]
            try:
                apply_move(actor, move)
            except RuleViolation as exc:
                out.divergences.append(Divergence(seq, exc.kind, str(exc)))
                stopped = True
                break
            if keep_frames:
                score = score_of()
        elif cls is ObserveEvent or isinstance(ev, ObserveEvent):
            facts = ev.facts  # type: ignore[union-attr]
            text = texts.get(seq)
            if text is not None and text == agreed[2] and agreed[3] is not None and agreed[3] == state.epoch:
                # the text of the last observation that agreed, and the state says nothing
                # observable changed since: the same facts, agreeing again
                if keep_frames:
                    add_frame(Frame(seq, "observe", None, None, rnd, phase, score))
                continue
            if text is None or text != asked[0]:  # the keys of a repeated text are asked as they were
                asked = (text, tuple(facts))
            replayed = state.observed(asked[1])  # the observed keys
            # the same facts handed out again (nothing observable changed) agree with this
            # observation when its text is the text of the last one that agreed with them
            # (the same text is the same facts, booleans included), or, as plain values, when
            # it equals that one: two records' worth of decoded JSON compare faster than JSON
            # against the state's containers
            if agreed[0] is replayed and text is not None and text == agreed[2]:
                ok = True
            elif plain:
                if agreed[0] is replayed:
                    ok = facts == agreed[1]
                else:
                    ok = facts == replayed
                    if ok:
                        agreed = (replayed, facts, text, state.epoch)
            else:
                ok = _agrees(facts, replayed, shown)
                if ok and agreed[0] is not replayed:
                    agreed = (replayed, facts, text, state.epoch)
            if not ok and not _holds(facts, replayed):  # a partial observation (BGA's) holds
                _word_mismatches(seq, facts, replayed, out.divergences)
            if keep_frames:  # an observation changes nothing: the last frame's phase and score hold
                add_frame(Frame(seq, "observe", None, None, rnd, phase, score))
            continue
        else:
            state.seq = seq
            actor, move = None, None
            try:
                apply_chance(ev.outcome)  # type: ignore[union-attr]
            except RuleViolation as exc:
                out.divergences.append(Divergence(seq, exc.kind, str(exc)))
                stopped = True
                break
            if keep_frames:
                score = score_of()
        if keep_frames:
            rnd, phase = phase_of()
            add_frame(Frame(seq, ev.kind, actor, move, rnd, phase, score))
    out.replayed = len(out.frames) if keep_frames else _replayed(events, out.divergences, stopped)
    _conclude(out, state, record, not stopped and until is None)
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


class Replaying:
    """A replay kept by code that applies a record's events to the state itself, as it makes them.

    The BGA importer drives our engine through the whole game to build a
    record (it settles what the log leaves implicit by asking the rules).
    Replaying the record afterwards would run the engine through the same
    game a second time; instead the importer reports each event here as it
    applies it, and :meth:`finish` gives the :class:`Replay` that
    :func:`replay` would give for the finished record (the same frames,
    divergences, milestones, score, ranking and status) - provided the
    events were applied under the record's own ruleset, in order, each
    reported right after it was applied, and none refused (a refused event
    stops the import, not the replay).

    ``observation`` compares facts as they will read back from the record's
    JSON (a tuple reads back as a list), so its divergences are the replay's.
    """

    __slots__ = ("state", "out", "keep_frames", "_shown", "_score", "_round", "_phase", "_add")

    def __init__(self, state: State, *, keep_frames: bool = True) -> None:
        self.state = state
        self.out = Replay(record=None, status=INCOMPLETE, state=state)
        self.keep_frames = keep_frames
        self._shown: list[Any] = [None, b""]  # the facts the state last handed out, and their JSON
        self._score: Score = state.score() if keep_frames else {}
        self._round, self._phase = state.phase() if keep_frames else (None, "")
        self._add = self.out.frames.append

    def applied(self, seq: int, kind: str, actor: str | None, move: Move | None) -> None:
        """Event ``seq`` (a move of ``actor``, or a chance outcome) has just been applied.

        Only a replay that keeps frames notes anything here: a caller may skip it for one that
        does not (``keep_frames`` false)."""
        if self.keep_frames:
            state = self.state
            self._score = score = state.score()
            self._round, self._phase = rnd, phase = state.phase()
            self._add(Frame(seq, kind, actor, move, rnd, phase, score))

    def observation(self, seq: int, facts: dict[str, Any]) -> None:
        """Event ``seq`` is the observation ``facts``: compared with the state here."""
        recorded = orjson.loads(orjson.dumps(facts))  # the facts as the record's JSON gives them back
        _compare_observation(self.state, seq, recorded, self.out.divergences, self._shown)
        if self.keep_frames:  # an observation changes nothing: the last frame's phase and score hold
            self._add(Frame(seq, "observe", None, None, self._round, self._phase, self._score))

    def finish(self, record: Record) -> Replay:
        """The replay of ``record``, whose events are the ones reported, in order."""
        out = self.out
        out.record = record
        out.replayed = len(record.events)
        _conclude(out, self.state, record, True)
        return out


def _replayed(events: list[Event], divergences: list[Divergence], stopped: bool) -> int:
    """Events replayed: all of them, or those before the one that stopped the replay."""
    return divergences[-1].seq if stopped else len(events)


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
