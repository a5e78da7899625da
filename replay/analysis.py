"""Win chances by rollouts, turning points and the alternatives a player had.

A *win chance* is estimated the way a backgammon program estimates equity:
from a position, the rest of the game is played out many times (a
*rollout*) by the simulator's agents, and each player's chance is the share
of rollouts they won (a tie for first shares the win equally between the
tied players, so the chances of a position add up to one).

What the players could not know at that position is sampled afresh in each
rollout, never read from the record:

* the state is rebuilt from the record's events *up to* the position and no
  further, so the order of the decks, the dice still to roll and every other
  future chance outcome does not exist in it: whenever the rules ask for
  randomness during a rollout (:meth:`State.turn` returns a
  :class:`ChanceRequest`), the outcome is drawn at random from the
  request's own pool (``replay.simulate.sample_outcome``);
* the position is the game *as the public saw it* (:func:`positions`): a
  draw the rules show only to some players (``ChanceRequest.visible_to``)
  is unknown there, and at the start of each rollout the unknown items are
  dealt at random among the identities still unaccounted for
  (:func:`determinise`, through the game's :meth:`State.unknown_zones`).
  What is resampled and what is taken as known, per title, is listed in
  ``docs/analysis.md``.

Every rollout is seeded from ``(record id, seq, rollout index, agent)``
(:func:`rollout_seed`), never from the clock, so an analysis is
reproducible: the same record, settings and engine version give the same
numbers, in any process and on any number of cores.  The number of rollouts
is not part of the seed: the first 64 rollouts of a 256-rollout estimate are
exactly the 64 rollouts of a 64-rollout one.

A *turning point* is a turn after which the mover's own chance fell (or
rose) the most, by more than the sampling error of the two estimates.  For
the worst falls, :func:`alternatives` rolls out the other moves the player
had at that decision (all of them, or the strongest few by a one-move
look-ahead when there are many), the played move included, with the same
seeds for every candidate (common random numbers: the candidates face the
same draws as far as the game lets them), and says in words which would
have kept the most chance.

An estimate is only as good as the agents that play the rollouts; their
calibration and strength are measured in ``docs/analysis.md``.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from replay import ENGINE_VERSION
from replay.engine import OVER, ChanceRequest, Move, Outcome, RuleViolation, State, with_names
from replay.evaluator import ModelError, ValueModel, after_move, finish_action, load_model, win_shares
from replay.games import get_game
from replay.loop import Loop
from replay.record import ChanceEvent, Event, MoveEvent, Record
from replay.simulate import AGENTS, MAX_EVENTS, SimulationError, _value, sample_outcome

TURNS = "turns"
DECISIONS = "decisions"
AT_CHOICES = (TURNS, DECISIONS)
PUBLIC = "(public)"
"""The viewer of the chart's positions: a spectator who sees what every player sees and nothing more."""
RESAMPLE = "resample"
KNOWN = "known"
HIDDEN_CHOICES = (RESAMPLE, KNOWN)
VALUE = "value"
ROLLOUTS = "rollouts"
METHODS = (VALUE, ROLLOUTS)
VALUE_TURN = 0.10
"""With the value method, a turn is a turning point when it moves the mover's chance by more than this."""
ROLLOUT_TURN = 0.05
"""With rollouts, a turning point also exceeds the sampling error of its two estimates."""
Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""

T = TypeVar("T")
R = TypeVar("R")
Mapper = Callable[[Callable[[T], R], Iterable[T]], Iterable[R]]
"""An order-preserving ``map`` (the builtin, ``Pool.imap``, a Dask client's map...)."""


class AnalysisError(RuntimeError):
    """A record that cannot be analysed (unknown agent, a rollout that cannot go on)."""


@dataclass(frozen=True)
class Settings:
    """How an analysis is made.

    ``rollouts`` per position (and per alternative); ``at`` is ``"turns"``
    (the start of each player's turn) or ``"decisions"`` (before every
    move); ``agent`` plays every seat of every rollout; ``explain`` is how
    many of the worst falls per game get their alternatives rolled out, and
    ``alternatives`` caps the moves tried at each (the played move
    included); ``hidden`` is ``"resample"`` (what only some players saw is
    unknown at the position and drawn afresh in each rollout) or ``"known"``
    (everything the record names up to the position is taken as known).
    """

    rollouts: int = 64
    at: str = TURNS
    agent: str = "greedy"
    explain: int = 3
    alternatives: int = 6
    hidden: str = RESAMPLE
    method: str | None = None
    """``"value"`` (the title's value model), ``"rollouts"``, or ``None``: the value model when the
    title has one, else rollouts (:meth:`for_game`)."""
    choices: bool | None = None
    """With the value method, whether every decision is judged against the player's other moves
    (:class:`Choice`); ``None``: where the title's features say its model judges them well
    (``CHOICES`` in its ``features.py``, :meth:`for_game`)."""

    def __post_init__(self) -> None:
        if self.method is not None and self.method not in METHODS:
            raise AnalysisError(f"the method is {' or '.join(METHODS)}, not {self.method!r}")
        if self.rollouts < 1:
            raise AnalysisError(f"at least one rollout is needed, not {self.rollouts}")
        if self.at not in AT_CHOICES:
            raise AnalysisError(f"positions are taken at {' or '.join(AT_CHOICES)}, not {self.at!r}")
        if self.agent not in AGENTS:
            raise AnalysisError(f"unknown agent {self.agent!r} (known: {', '.join(AGENTS)})")
        if self.hidden not in HIDDEN_CHOICES:
            raise AnalysisError(f"hidden information is {' or '.join(HIDDEN_CHOICES)}, not {self.hidden!r}")
        if self.explain < 0 or self.alternatives < 2:
            raise AnalysisError("explain must be >= 0 and alternatives >= 2")

    def describe(self) -> str:
        rollouts = f"{self.rollouts} rollouts by the {self.agent} agent"
        how = {VALUE: "the value model", ROLLOUTS: rollouts}.get(
            self.method or "", f"the value model (where a title has none, {rollouts})")
        return f"{how} at {self.at}"

    def for_game(self, game_id: str) -> tuple[Settings, str | None]:
        """These settings with the method decided for ``game_id``, and a note when a title without a value
        model falls back to rollouts."""
        if self.method == ROLLOUTS:
            return self, None
        try:
            model = load_model(game_id)
        except ModelError as exc:
            raise AnalysisError(str(exc)) from None
        if model is not None:
            judge = model.features.choices if self.choices is None else self.choices
            return replace(self, method=VALUE, choices=judge), None
        if self.method == VALUE:
            raise AnalysisError(f"{game_id} has no value model yet: train one (gamerec train --game {game_id}) "
                                "or analyse it with --method rollouts")
        return replace(self, method=ROLLOUTS), f"{game_id} has no value model yet: chances by rollouts"


# --------------------------------------------------------------------------
# Estimates
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """One player's win chance from ``rollouts`` rollouts (``wins`` counts a shared first place fractionally)."""

    wins: float
    rollouts: int
    exact: bool = False
    """A value model's chance (``wins`` is the chance, ``rollouts`` 1): no sampling error."""

    @classmethod
    def of_model(cls, chance: float) -> Estimate:
        return cls(chance, 1, True)

    @property
    def chance(self) -> float:
        return self.wins / self.rollouts if self.rollouts else 0.0

    def interval(self) -> tuple[float, float]:
        """The Wilson score interval at 95%: honest near 0 and 1, where the normal one is not (a model's
        chance has none: the interval is the chance)."""
        if self.exact:
            return (self.chance, self.chance)
        n = self.rollouts
        if n == 0:
            return (0.0, 1.0)
        p = self.chance
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        # never exclude the estimate itself (rounding near 0 and 1)
        return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))

    def std_error(self) -> float:
        """Standard error of :attr:`chance`, with the Agresti-Coull correction (never zero; zero for a
        model's chance)."""
        if self.exact:
            return 0.0
        n = self.rollouts
        p = (self.wins + 2) / (n + 4)
        return math.sqrt(p * (1 - p) / (n + 4))


def rollout_seed(record_id: str, seq: int, index: int, agent: str, what: str = "position") -> str:
    """The seed of one rollout: which record, which position, which rollout, which agent, what for."""
    return f"{record_id}:{seq}:{what}:{index}:{agent}"


def play_out(state: State, rng: random.Random, agent: str,
             until: Callable[[State, str], bool] | None = None) -> State:
    """Play ``state`` (modified in place) to the end, or to the first decision where ``until(state,
    player to move)`` holds: the agent decides for every seat, ``rng`` draws chance."""
    player_agent = AGENTS[agent](rng)
    for _ in range(MAX_EVENTS):
        t = state.turn()
        if t is OVER:
            return state
        if isinstance(t, ChanceRequest):
            if t.kind == "reveal":  # face-down items the rules turn up: dealt by determinise, or nothing can
                raise AnalysisError(f"the rules await a reveal of {t.name}, and this game does not say how "
                                    "to deal its unknown items (State.unknown_zones)")
            state.reveal(sample_outcome(t, rng))
        else:
            assert isinstance(t, str)
            if until is not None and until(state, t):
                return state
            state.play(t, player_agent.choose(state, t))
    raise RolloutCapped(f"a rollout did not end within {MAX_EVENTS} events")


class RolloutCapped(SimulationError):
    """A rollout did not end within the simulator's event limit (:data:`MAX_EVENTS`)."""


def determinise(state: State, rng: random.Random) -> None:
    """Give every unknown item of ``state`` an identity, at random among those still possible.

    A game that holds unknown items in zones (a hand of cards drawn face
    down) says where they are with :meth:`State.unknown_zones`: zone name ->
    ``(how many unknown items, the HiddenPool they belong to, what is known to be there)``.  Unknown
    items are exchangeable (any of them may be any identity not yet
    accounted for), so dealing each zone's count from the pool's unaccounted
    copies, one zone after the other (the zones are asked for again after
    each deal, so a game may narrow a zone's pool by what an earlier deal
    bound), is a uniformly random deal consistent with everything known.
    Each zone is bound with a ``reveal`` event, the way a record would
    reveal it.  The face-down deck stays face down: its
    draws come from the pool's remaining copies when the rules ask for them.
    """
    dealt: set[str] = set()
    while True:  # the zones are asked for again after each deal: a deal may narrow the next zone's pool
        zones = state.unknown_zones()
        pending = sorted(z for z, (count, _, _) in zones.items() if count > 0)
        if not pending:
            return
        zone = pending[0]
        if zone in dealt:
            raise AnalysisError(f"revealing {zone} did not bind its {zones[zone][0]} unknown item(s)")
        count, pool, known = zones[zone]
        copies = [item for item, n in pool.possible() for _ in range(n)]
        if len(copies) < count:
            raise AnalysisError(f"zone {zone} holds {count} unknown item(s), but only {len(copies)} "
                                "identities are unaccounted for")
        # a reveal shows the zone's content: what is known to be there, and the dealt identities
        shown = [item for item, n in known.items() for _ in range(n)] + rng.sample(copies, count)
        state.reveal({"reveal": zone, "items": shown})
        dealt.add(zone)


def rollouts(state: State, seeds: Iterable[str], agent: str,
             first: tuple[str, Move] | None = None) -> tuple[dict[str, float], int]:
    """Total win shares over one rollout per seed from ``state`` (left untouched), and how many
    rollouts ended.

    ``first`` is a move played before the agents take over (an alternative).  A rollout that does
    not end within the simulator's event limit has no winner: it is left out of the shares and
    of the count (so the estimate rests on the rollouts that ended, and says how many).
    """
    wins = dict.fromkeys(state.players, 0.0)
    ended = 0
    for seed in seeds:
        rng = random.Random(seed)
        trial = state.copy()
        try:
            if first is not None:  # played before the deal: what the move names is known, not dealt
                trial.play(*first)
            determinise(trial, rng)
            play_out(trial, rng, agent)
        except RolloutCapped:
            continue
        except AnalysisError as exc:
            raise AnalysisError(f"rollout {seed} cannot go on: {exc}") from None
        except Exception as exc:  # the engine refused (or broke on) its own play: an engine bug, in one line
            raise AnalysisError(f"rollout {seed} cannot go on: {type(exc).__name__}: {exc}") from None
        for p, w in win_shares(trial).items():
            wins[p] += w
        ended += 1
    return wins, ended


def estimate(state: State, record_id: str, seq: int, settings: Settings) -> dict[str, Estimate]:
    """Every player's win chance at ``state`` (the position after event ``seq``)."""
    n = settings.rollouts
    if state.is_over():
        return {p: Estimate(w * n, n) for p, w in win_shares(state).items()}
    seeds = (rollout_seed(record_id, seq, i, settings.agent) for i in range(n))
    wins, ended = rollouts(state, seeds, settings.agent)
    return {p: Estimate(w, ended) for p, w in wins.items()}


# --------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------


@dataclass
class Position:
    """A point of the game where chances are estimated.

    ``seq`` is the last event applied (-1: none yet), so the position is what
    the viewer shows at step ``seq``; ``move_seq`` is the event that follows
    (the decision taken here, ``None`` at the end); ``mover`` who decides.
    """

    seq: int
    move_seq: int | None
    mover: str | None
    state: State
    chances: dict[str, Estimate] = field(default_factory=dict)


def as_seen(request: ChanceRequest, outcome: Outcome, viewer: str) -> Outcome:
    """A chance outcome as ``viewer`` saw it: the items of a draw shown only to others are unknown."""
    if request.visible_to is None or viewer in request.visible_to or request.kind != "draw" \
            or "draw" not in outcome:
        return outcome
    return {**outcome, "items": [None] * len(outcome.get("items") or ())}


def _walk(record: Record, hidden: str, viewer: str) -> Iterator[tuple[int, State, str | None]]:
    """Replay ``record`` as ``viewer`` saw it; yield ``(seq, state before event seq, None)`` for every
    event, then ``(len(events), final state, why the replay stopped or None)``.

    With ``hidden="resample"`` the record is replayed alongside a second
    state that gets what ``viewer`` got — a draw the rules show only to some
    players (:attr:`ChanceRequest.visible_to`) arrives with unknown items, a
    move arrives as :meth:`State.redact_move` shows it to the viewer, and
    what the rules turn face up later (:attr:`State.reveals`) arrives as
    ``reveal`` events — and the yielded states are that second state's.
    With ``hidden="known"``, or for a game that cannot deal its unknown
    items (:func:`can_deal`), they are the record's own.
    """
    game = get_game(record.game)
    full = game.initial_state(record.player_ids, record.options)
    if hidden == RESAMPLE and can_deal(full):
        seen = game.initial_state(record.player_ids, dict(record.options))
    else:
        seen = full
    # the record's replay, and the seat's (fed what the seat saw of each event, numbered as the record's)
    replaying, seeing = Loop(full), (Loop(seen) if seen is not full else None)
    for seq, ev in enumerate(record.events):
        full.seq = seen.seq = seq
        yield seq, seen, None
        try:
            shown: Event | None = None
            if seeing is not None:  # what the seat saw, told by the state before the event
                if isinstance(ev, MoveEvent):
                    shown = MoveEvent(ev.player, full.redact_move(ev.player, ev.move, viewer))
                elif isinstance(ev, ChanceEvent):
                    request = full.turn()
                    shown = ChanceEvent(as_seen(request, ev.outcome, viewer)
                                        if isinstance(request, ChanceRequest) else ev.outcome)
            replaying.feed(ev)
            if seeing is not None:
                if shown is not None:
                    seeing.seq = seq
                    seeing.feed(shown)
                for outcome in full.reveals:  # what the rules turned face up, as reveal events
                    seeing.seq = seq
                    seeing.feed(ChanceEvent(outcome))
            full.reveals.clear()
        except RuleViolation as exc:
            yield seq, seen, f"event {seq}: {exc.kind}: {exc}"
            return
    yield len(record.events), seen, None


def can_deal(state: State) -> bool:
    """Whether rollouts can deal this game's unknown items afresh (it names them: ``unknown_zones``).

    A game that does not is analysed with what the record names taken as
    known, even with ``hidden="resample"``: hiding an item the rollouts then
    could not deal would leave the rules waiting for a reveal, or let the
    owner's agent pick its identity.
    """
    return type(state).unknown_zones is not State.unknown_zones


def positions(record: Record, at: str = TURNS, hidden: str = RESAMPLE) -> tuple[list[Position], str | None]:
    """The positions of ``record`` to analyse, as the public saw them, and why the record stopped early
    (``None`` if it did not).

    ``at="turns"``: before the first move of every turn (a move by a player
    other than the previous mover); ``"decisions"``: before every move.  The
    final position (game over) comes last when the record reaches it.  A move
    by someone other than the player to move (one a game lets any player make
    at any time) is no position of its own.  ``hidden`` as in :func:`_walk` (the viewer is the public, a spectator who
    sees what every player sees).  Nothing after a position is used for it.
    An event the rules refuse ends the positions there.
    """
    out: list[Position] = []
    previous: str | None = None
    stop: str | None = None
    final: State | None = None
    for seq, state, why in _walk(record, hidden, PUBLIC):
        if why is not None:
            stop = why
            break
        if seq == len(record.events):
            final = state
            break
        ev = record.events[seq]
        if isinstance(ev, MoveEvent):
            turn = state.turn()
            if ev.player != turn:
                continue  # a move a player may make whoever is to move (a Perikles standing permission)
            if at == DECISIONS or ev.player != previous:
                out.append(Position(seq - 1, seq, turn, state.copy()))
            previous = ev.player
    if final is not None and final.is_over():
        out.append(Position(_end_seq(record), None, None, final.copy()))
    return out, stop


def state_before(record: Record, seq: int, hidden: str, viewer: str) -> State:
    """The state before event ``seq`` as ``viewer`` saw it (a copy)."""
    for s, state, why in _walk(record, hidden, viewer):
        if s == seq and why is None:
            return state.copy()
        if why is not None:
            break
    raise AnalysisError(f"event {seq} of {record.id} is not reached by the replay")


def _end_seq(record: Record) -> int:
    """The index of the last move or chance event (where the game ended)."""
    for i in range(len(record.events) - 1, -1, -1):
        if isinstance(record.events[i], MoveEvent | ChanceEvent):
            return i
    return -1


# --------------------------------------------------------------------------
# Turning points and alternatives
# --------------------------------------------------------------------------


@dataclass
class Alternative:
    """One move the player had at a turning point, and the chance it kept."""

    move: Move
    words: str
    estimate: Estimate
    played: bool


@dataclass
class TurningPoint:
    """A turn after which the mover's chance moved a lot (``delta`` < 0: it fell)."""

    seq: int
    """The event that started the turn (the decision)."""
    player: str
    before: Estimate
    after: Estimate
    after_seq: int
    words: str
    alternatives: list[Alternative] = field(default_factory=list)

    @property
    def delta(self) -> float:
        return self.after.chance - self.before.chance

    @property
    def direction(self) -> str:
        return "fall" if self.delta < 0 else "rise"

    def verdict(self, names: dict[str, str] | None = None) -> str:
        """The turning point in words, with the best alternative when one kept more."""
        names = names or {}
        who = names.get(self.player, self.player)
        head = (f"{self.words}: {who}'s chance {'fell' if self.delta < 0 else 'rose'} from "
                f"{self.before.chance:.0%} to {self.after.chance:.0%}")
        if not self.alternatives:
            return head
        played = next((a for a in self.alternatives if a.played), None)
        best = max(self.alternatives, key=lambda a: a.estimate.chance)
        if played is None:
            return head
        if len(self.alternatives) == 1:
            return head + f"; it was the only move {who} had"
        if best is played or best.estimate.chance <= played.estimate.chance:
            return head + f"; none of the {len(self.alternatives) - 1} other moves tried kept more " \
                          f"({played.estimate.chance:.0%} for the move played)"
        kept, against = _apart(best.estimate.chance, played.estimate.chance)
        return head + f"; {best.words} kept {kept} against {against}"


def _apart(a: float, b: float) -> tuple[str, str]:
    """Two different chances as percentages, with a decimal more when whole percents would show them equal."""
    for digits in (0, 1, 2):
        x, y = f"{a:.{digits}%}", f"{b:.{digits}%}"
        if x != y:
            break
    return x, y


def _names(record: Record) -> dict[str, str]:
    return {str(p["id"]): str(p.get("name") or p["id"]) for p in record.players}


def _words(state: State, player: str, move: Move, names: dict[str, str]) -> str:
    try:
        text = state.describe_move(player, move)
    except Exception:  # a describer bug must not hide the analysis
        text = f"{player}: {move.type}"
    return with_names(text, names)


def turning_points(chart: Sequence[Position], record: Record, limit: int = 3,
                   threshold: float = ROLLOUT_TURN) -> list[TurningPoint]:
    """The turns after which the mover's own chance fell the most and rose the most (``limit`` of each).

    A change counts only when it exceeds ``threshold`` and the sampling error of the two
    estimates (1.96 standard errors of the difference: none for a value model's chances).
    """
    names = _names(record)
    found: list[TurningPoint] = []
    for here, nxt in zip(chart, chart[1:]):
        if here.mover is None or here.move_seq is None:
            continue
        before, after = here.chances[here.mover], nxt.chances[here.mover]
        delta = after.chance - before.chance
        noise = Z95 * math.hypot(before.std_error(), after.std_error())
        if abs(delta) < max(noise, threshold):
            continue
        ev = record.events[here.move_seq]
        assert isinstance(ev, MoveEvent)
        words = _words(here.state, ev.player, ev.move, names)
        found.append(TurningPoint(here.move_seq, here.mover, before, after, nxt.seq, words))
    falls = sorted((t for t in found if t.delta < 0), key=lambda t: (t.delta, t.seq))[:limit]
    rises = sorted((t for t in found if t.delta > 0), key=lambda t: (-t.delta, t.seq))[:limit]
    return sorted(falls + rises, key=lambda t: t.seq)


def unknown_count(state: State) -> int:
    """How many unknown items the state holds in the zones it names (:meth:`State.unknown_zones`)."""
    return sum(n for n, _, _ in state.unknown_zones().values())


def _binds_unknown(state: State, player: str, move: Move, before: int) -> bool:
    trial = state.copy()
    trial.play(player, move)
    return unknown_count(trial) < before


def candidates(state: State, player: str, played: Move, limit: int) -> list[Move]:
    """The moves worth rolling out at a decision: all legal moves if there are at most ``limit``, else the
    played move and the ``limit - 1`` best others by a one-move look-ahead (the greedy agent's value).

    A move other than the played one that would name an item the record leaves unknown (a special
    tile nobody has seen: a BGA log does not show even the mover's own until it is played) is left
    out, since the player may not have held it."""
    moves = list(state.legal_moves())
    others = [m for m in moves if m != played]
    hidden = unknown_count(state)
    if hidden:
        others = [m for m in others if not _binds_unknown(state, player, m, hidden)]
    if len(others) + 1 > limit:
        scored = []
        for i, m in enumerate(others):
            trial = state.copy()
            trial.play(player, m)
            scored.append((-_value(trial, player), i, m))
        scored.sort(key=lambda x: (x[0], x[1]))
        others = [m for _, _, m in scored[: limit - 1]]
    return [played, *others]


def alternatives(state: State, player: str, played: Move, record: Record, seq: int,
                 settings: Settings) -> list[Alternative]:
    """Roll out each candidate move at the decision before event ``seq`` (the same seeds for all)."""
    names = _names(record)
    out = []
    for m in candidates(state, player, played, settings.alternatives):
        seeds = [rollout_seed(record.id, seq, i, settings.agent, "alternative") for i in range(settings.rollouts)]
        wins, ended = rollouts(state, seeds, settings.agent, first=(player, m))
        out.append(Alternative(m, _words(state, player, m, names), Estimate(wins[player], ended), m == played))
    return out


def judged_moves(state: State, player: str, played: Move, model: ValueModel) -> list[tuple[Move, float]]:
    """Every legal move at the decision, the played one first, with the mover's chance after it: the
    move applied to ``state`` (the mover's view; the rest of the action played as the greedy agent
    judges it, :func:`~replay.evaluator.after_move`) and read by the value model
    (:meth:`~replay.evaluator.ValueModel.judge`).  A move that would name an item the record leaves
    unknown is left out, as in :func:`candidates`."""
    hidden = unknown_count(state)
    tried, children = [played], [after_move(state, player, played)]
    for m in state.legal_moves():
        if m == played:
            continue
        trial = state.copy()
        trial.play(player, m)
        if hidden and unknown_count(trial) < hidden:
            continue  # it names an item the record leaves unknown (see candidates)
        tried.append(m)
        children.append(finish_action(trial, player))
    chances = model.judge(children)
    return [(m, c[player]) for m, c in zip(tried, chances)]


def value_alternatives(state: State, player: str, played: Move, record: Record, model: ValueModel,
                       limit: int, judged: list[tuple[Move, float]] | None = None) -> list[Alternative]:
    """The played move and the ``limit - 1`` best others of :func:`judged_moves` (``judged``, if it is
    already known), as alternatives."""
    names = _names(record)
    judged = judged if judged is not None else judged_moves(state, player, played, model)
    kept = sorted(range(1, len(judged)), key=lambda i: (-judged[i][1], i))[: limit - 1]
    return [Alternative(judged[i][0], _words(state, player, judged[i][0], names), Estimate.of_model(judged[i][1]),
                        i == 0) for i in [0, *kept]]


@dataclass
class Choice:
    """One decision judged against every other move its player had (the value method): the model's
    reading of the mover's chance after the move played and after the best move (:func:`judged_moves`).

    Unlike the change between two positions, which includes the draws and the other players' moves
    that follow, ``given_away`` is what the choice itself cost, as the model sees it: 0 when the
    played move is the best one, or the only one."""

    seq: int
    """The position (the last event applied before the decision)."""
    move_seq: int
    """The move played."""
    player: str
    moves: int
    """How many moves were judged (1: the player had no choice)."""
    played: float
    best: float
    best_move: Move
    best_words: str
    played_words: str

    @property
    def given_away(self) -> float:
        return self.best - self.played


def choice(pos: Position, state: State, judged: list[tuple[Move, float]], names: dict[str, str]) -> Choice:
    """The :class:`Choice` at ``pos`` from its :func:`judged_moves` (``state``: the mover's view); of
    moves judged equal, the played one counts as the best."""
    assert pos.mover is not None and pos.move_seq is not None
    best_move, best = max(judged, key=lambda judged_move: judged_move[1])  # the first of equals: the played one
    return Choice(pos.seq, pos.move_seq, pos.mover, len(judged), judged[0][1], best, best_move,
                  _words(state, pos.mover, best_move, names), _words(state, pos.mover, judged[0][0], names))


def movers_views(record: Record, chart: Sequence[Position], hidden: str) -> dict[int, State]:
    """The state before each decision of ``chart`` (by ``move_seq``) as its mover saw it: their own
    hand known, the others' as hidden as for the public (with ``hidden="known"``: the position's own
    state).  One replay per player."""
    if hidden != RESAMPLE:
        return {pos.move_seq: pos.state for pos in chart if pos.move_seq is not None}
    wanted: dict[str, set[int]] = {}
    for pos in chart:
        if pos.mover is not None and pos.move_seq is not None:
            wanted.setdefault(pos.mover, set()).add(pos.move_seq)
    views: dict[int, State] = {}
    for player, seqs in wanted.items():
        last = max(seqs)
        for seq, state, why in _walk(record, hidden, player):
            if why is not None or seq > last:
                break
            if seq in seqs:
                views[seq] = state.copy()
    return views


# --------------------------------------------------------------------------
# The whole analysis of one record
# --------------------------------------------------------------------------


@dataclass
class Analysis:
    """Win chances at every position of one record, its turning points and their alternatives."""

    record_id: str
    game: str
    settings: Settings
    positions: list[Position]
    turning_points: list[TurningPoint]
    names: dict[str, str] = field(default_factory=dict)
    """Player id -> display name (for the verdicts)."""
    stopped: str | None = None
    engine_version: str = ENGINE_VERSION
    note: str | None = None
    """Why the method is not the default one (a title without a value model falls back to rollouts)."""
    choices: list[Choice] = field(default_factory=list)
    """Every decision of the chart judged against the player's other moves (the value method only)."""

    @property
    def capped(self) -> int:
        """Rollouts that did not end within the simulator's event limit (left out of their estimates)."""
        if self.settings.method == VALUE:
            return 0
        n = self.settings.rollouts
        out = 0
        for pos in self.positions:
            e = next(iter(pos.chances.values()), None)
            if e is not None:
                out += max(0, n - e.rollouts)
        for t in self.turning_points:
            out += sum(max(0, n - alt.estimate.rollouts) for alt in t.alternatives)
        return out

    def choice_quality(self) -> list[tuple[str, int, float, float]]:
        """Per player who had a choice of two moves or more: ``(player, how many such choices, the mean
        chance they gave away, the share of best moves)``, in the order the players first chose."""
        by: dict[str, list[float]] = {}
        for c in self.choices:
            if c.moves >= 2:
                by.setdefault(c.player, []).append(c.given_away)
        return [(p, len(v), sum(v) / len(v), sum(x <= 0 for x in v) / len(v)) for p, v in by.items()]

    def chart(self) -> Iterator[tuple[int, str, Estimate]]:
        """``(seq, player, estimate)`` for every position and player, in order."""
        for pos in self.positions:
            for p, e in pos.chances.items():
                yield pos.seq, p, e


def _estimate_task(args: tuple[State, str, int, Settings]) -> dict[str, Estimate]:
    return estimate(*args)


def _alternatives_task(args: tuple[State, str, Move, Record, int, Settings]) -> list[Alternative]:
    return alternatives(*args)


def analyse(record: Record, settings: Settings | None = None, *, mapper: Mapper[Any, Any] | None = None,
            progress: Callable[[int], None] | None = None) -> Analysis:
    """Estimate the win chances at every position of ``record``, find its turning points and roll out the
    alternatives at the worst falls.

    ``mapper`` spreads the work (one task per position, then one per
    explained turning point); the result does not depend on it.
    ``progress(n)`` is called as positions and alternatives are done.
    """
    settings, note = (settings or Settings()).for_game(record.game)
    if settings.method == VALUE:
        return _analyse_by_value(record, settings, progress)
    run: Mapper[Any, Any] = mapper or map
    chart, stopped = positions(record, settings.at, settings.hidden)
    tasks = [(pos.state, record.id, pos.seq, settings) for pos in chart]
    for pos, chances in zip(chart, run(_estimate_task, tasks)):
        pos.chances = chances
        if progress:
            progress(1)
    points = turning_points(chart, record, limit=max(settings.explain, 3))
    falls = sorted((t for t in points if t.delta < 0), key=lambda t: (t.delta, t.seq))[: settings.explain]
    by_seq = {pos.move_seq: pos for pos in chart}
    jobs = []
    for t in falls:
        ev = record.events[t.seq]
        assert isinstance(ev, MoveEvent)
        # the decision as its player saw it: their own hand known, the others' as hidden as for the public
        state = state_before(record, t.seq, settings.hidden, t.player) if settings.hidden == RESAMPLE \
            else by_seq[t.seq].state
        jobs.append((state, t.player, ev.move, record, t.seq, settings))
    for t, alts in zip(falls, run(_alternatives_task, jobs)):
        t.alternatives = alts
        if progress:
            progress(1)
    return Analysis(record.id, record.game, settings, chart, points, _names(record), stopped, note=note)


def _analyse_by_value(record: Record, settings: Settings, progress: Callable[[int], None] | None) -> Analysis:
    """:func:`analyse` with the title's value model: every position's chances in one prediction, turning
    points by a fixed change (:data:`VALUE_TURN`), alternatives scored by the model from the mover's view.
    Quick enough to run in this process whatever the mapper."""
    model = load_model(record.game)
    assert model is not None
    chart, stopped = positions(record, settings.at, settings.hidden)
    for pos, chances in zip(chart, model.read([pos.state for pos in chart])):
        pos.chances = {p: Estimate.of_model(c) for p, c in chances.items()}
    if progress:
        progress(len(chart))
    names = _names(record)
    points = turning_points(chart, record, limit=max(settings.explain, 3), threshold=VALUE_TURN)
    falls = sorted((t for t in points if t.delta < 0), key=lambda t: (t.delta, t.seq))[: settings.explain]
    fallen = {t.seq for t in falls}
    decided = [pos for pos in chart if settings.choices or pos.move_seq in fallen]
    views = movers_views(record, decided, settings.hidden)
    judged: dict[int, list[tuple[Move, float]]] = {}
    choices = []
    for pos in decided:
        if pos.mover is None or pos.move_seq is None or pos.move_seq not in views:
            continue
        ev = record.events[pos.move_seq]
        assert isinstance(ev, MoveEvent)
        view = views[pos.move_seq]
        judged[pos.move_seq] = judged_moves(view, pos.mover, ev.move, model)
        if settings.choices:
            choices.append(choice(pos, view, judged[pos.move_seq], names))
    for t in falls:
        ev = record.events[t.seq]
        assert isinstance(ev, MoveEvent)
        t.alternatives = value_alternatives(views[t.seq], t.player, ev.move, record, model, settings.alternatives,
                                            judged[t.seq])
        if progress:
            progress(1)
    return Analysis(record.id, record.game, settings, chart, points, names, stopped, choices=choices)


# --------------------------------------------------------------------------
# How good the estimates are: calibration, convergence, agent strength
# --------------------------------------------------------------------------


@dataclass
class Calibration:
    """Predicted chances against outcomes, over positions of simulated games.

    ``pairs`` holds ``(predicted chance of the player to move, their win share at the end)``;
    ``convergence`` maps a rollout count to the mean absolute difference between the estimate from
    that many rollouts and the one from all of them (the same positions).
    """

    game: str
    settings: Settings
    players_agent: str
    games: int
    pairs: list[tuple[float, float]] = field(default_factory=list)
    convergence: dict[int, float] = field(default_factory=dict)

    def brier(self) -> float:
        """Mean squared error of the predictions (0 is perfect)."""
        return sum((p - w) ** 2 for p, w in self.pairs) / len(self.pairs) if self.pairs else float("nan")

    def baseline_brier(self) -> float:
        """The Brier score of always predicting the overall win rate of the player to move (no skill)."""
        if not self.pairs:
            return float("nan")
        rate = sum(w for _, w in self.pairs) / len(self.pairs)
        return sum((rate - w) ** 2 for _, w in self.pairs) / len(self.pairs)

    def bins(self, edges: Sequence[float] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)) -> list[tuple[float, float, int, float]]:
        """``(low, high, positions, won share)`` per predicted-chance bin (the last bin includes 1)."""
        out = []
        for i, (lo, hi) in enumerate(zip(edges, edges[1:])):
            last = i == len(edges) - 2
            inside = [w for p, w in self.pairs if lo <= p < hi or (last and p == hi)]
            out.append((lo, hi, len(inside), sum(inside) / len(inside) if inside else float("nan")))
        return out


def calibrate(game_id: str, games: int, seed: int, settings: Settings, *, players: int | None = None,
              players_agent: str = "greedy", every: int = 4, convergence: Sequence[int] = ()) -> Calibration:
    """Simulate ``games`` games played by ``players_agent`` at every seat, estimate the chance of the player
    to move at every ``every``-th turn start (starting at turn ``game index % every``, so that every seat
    is the player to move in some games), and pair it with how the game ended.

    Positions of one game share its outcome: the figures rest on ``games`` independent outcomes, not on
    as many as there are positions.

    The estimates see only what the public saw at the position (``settings.hidden``); the outcome is
    the simulated game's.  ``convergence`` lists smaller rollout counts to compare with the full one.
    """
    from replay.simulate import player_counts, simulate_one

    game = get_game(game_id)
    counts = player_counts(game, players)
    cal = Calibration(game_id, settings, players_agent, games)
    diffs: dict[int, list[float]] = {n: [] for n in convergence if n < settings.rollouts}
    for i in range(games):
        n_players = counts[i % len(counts)]
        record = simulate_one(game, n_players, seed, i, observe_every=0, agents=[players_agent] * n_players)
        assert record.result is not None
        rank = record.result["rank"]
        first = [p for p in record.player_ids if rank[p] == 1]
        chart, _ = positions(record, TURNS, settings.hidden)
        for pos in chart[i % every::every]:  # the offset turns with the game: every seat gets its share
            if pos.mover is None:
                continue
            results = per_rollout(pos.state, record.id, pos.seq, settings)
            mine = [r[pos.mover] for r in results]
            if not mine:
                continue
            p = sum(mine) / len(mine)
            cal.pairs.append((p, 1.0 / len(first) if pos.mover in first else 0.0))
            for n in diffs:
                diffs[n].append(abs(sum(mine[:n]) / n - p))
    cal.convergence = {n: sum(d) / len(d) for n, d in diffs.items() if d}
    return cal


def per_rollout(state: State, record_id: str, seq: int, settings: Settings) -> list[dict[str, float]]:
    """The win shares of each rollout from ``state``, in seed order (the same seeds as :func:`estimate`)."""
    out = []
    for i in range(settings.rollouts):
        wins, ended = rollouts(state, [rollout_seed(record_id, seq, i, settings.agent)], settings.agent)
        if ended:  # a rollout that did not end has no winner to calibrate against
            out.append(wins)
    return out


def strength(game_id: str, games: int, seed: int, strong: str = "greedy", weak: str = "random",
             players: int = 2) -> tuple[float, int]:
    """The share of games (ties shared) that ``strong`` wins against ``weak``, seats alternating, and the
    number of games; with more than two players one seat is ``strong`` and the others ``weak``."""
    from replay.simulate import simulate_one

    game = get_game(game_id)
    won = 0.0
    for i in range(games):
        seat = i % players
        agents = [strong if s == seat else weak for s in range(players)]
        record = simulate_one(game, players, seed, i, observe_every=0, agents=agents)
        assert record.result is not None
        rank = record.result["rank"]
        first = [p for p in record.player_ids if rank[p] == 1]
        me = record.player_ids[seat]
        if me in first:
            won += 1.0 / len(first)
    return won / games, games


def wilson(share: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``share`` of ``n`` trials."""
    return Estimate(share * n, n).interval()


@dataclass
class ValueCalibration:
    """How good a title's value model is (``gamerec calibrate`` with the value method).

    ``pairs`` hold ``(the model's chance of the player to move, their win share at the end)`` at
    positions of games the value agent played at every seat, and ``rollout_pairs`` the greedy-rollout
    estimate at the same positions, with ``rollout_noise``, each estimate's sampling variance (the
    variance of its rollouts' shares over their number: unbiased); ``strength`` is the value agent's
    share of wins against greedy agents (one value seat, rotating).
    """

    game: str
    games: int
    players: int
    pairs: list[tuple[float, float]] = field(default_factory=list)
    rollout_pairs: list[tuple[float, float]] = field(default_factory=list)
    rollout_noise: list[float] = field(default_factory=list)
    rollouts: int = 0
    strength: float = float("nan")
    strength_games: int = 0

    def as_json(self) -> dict[str, Any]:
        value = Calibration(self.game, Settings(method=VALUE), "value", self.games, self.pairs)
        out: dict[str, Any] = {
            "game": self.game, "method": VALUE, "players": self.players, "games": self.games,
            "positions": len(self.pairs), "brier": value.brier(), "no_skill": value.baseline_brier(),
            "bins": [{"low": lo, "high": hi, "positions": n, "won": None if n == 0 else won}
                     for lo, hi, n, won in value.bins()],
        }
        if self.rollout_pairs:
            rolled = Calibration(self.game, Settings(method=ROLLOUTS), "value", self.games, self.rollout_pairs)
            out["rollout_brier"] = rolled.brier()
            out["rollouts"] = self.rollouts
            # a rollout estimate's Brier score is the one of its expectation plus its sampling variance:
            # without the variance, what as many rollouts as one likes would score
            if not any(math.isnan(v) for v in self.rollout_noise):
                noise = statistics.fmean(self.rollout_noise)
                out["rollout_brier_unlimited"] = rolled.brier() - noise
                # and what the rollouts of ``gamerec analyse``'s default count would score: the same
                # expectation, with the variance of one rollout (noise times the count) over that count
                default = Settings().rollouts
                out["default_rollouts"] = default
                out["rollout_brier_default"] = rolled.brier() - noise + noise * self.rollouts / default
        if self.strength_games:
            lo, hi = wilson(self.strength, self.strength_games)
            out.update(strength=self.strength, strength_games=self.strength_games, strength_ci=[lo, hi],
                       strength_against="greedy")
        return out


def calibration_positions(game_id: str, n_players: int, seed: int, index: int,
                          every: int) -> tuple[Record, list[Position], list[str]]:
    """Game ``index`` of a value calibration, played by the value agent at every seat: the record, the
    positions measured (every ``every``-th turn start with a player to move, the offset turning with
    the game) and the players who finished first."""
    from replay.simulate import simulate_one

    record = simulate_one(get_game(game_id), n_players, seed, index, observe_every=0, agents=["value"] * n_players)
    assert record.result is not None
    rank = record.result["rank"]
    chart, _ = positions(record, TURNS)
    picked = [pos for pos in chart[index % every::every] if pos.mover is not None]
    return record, picked, [p for p in record.player_ids if rank[p] == 1]


def _calibration_game(job: tuple[str, int, int, int, int, int]) -> tuple[list[tuple[float, float]],
                                                                         list[tuple[float, float]], list[float]]:
    """One game of :func:`calibrate_value`: per picked position, the model's chance of the player to move
    and their win share; the mean of the rollouts and its sampling variance, with the same share."""
    game_id, n_players, seed, i, every, rollouts = job
    model = load_model(game_id)
    assert model is not None
    record, picked, first = calibration_positions(game_id, n_players, seed, i, every)
    rolled = Settings(rollouts=max(rollouts, 1), agent="greedy", method=ROLLOUTS)
    pairs, rollout_pairs, noise = [], [], []
    for pos, chances in zip(picked, model.read([pos.state for pos in picked])):
        assert pos.mover is not None
        won = 1.0 / len(first) if pos.mover in first else 0.0
        pairs.append((chances[pos.mover], won))
        if rollouts:
            results = per_rollout(pos.state, record.id, pos.seq, rolled)
            if results:
                shares = [r[pos.mover] for r in results]
                rollout_pairs.append((statistics.fmean(shares), won))
                noise.append(statistics.variance(shares) / len(shares) if len(shares) > 1 else math.nan)
    return pairs, rollout_pairs, noise


def calibrate_value(game_id: str, games: int, seed: int, *, players: int | None = None, every: int = 4,
                    rollouts: int = 16, strength_games: int = 200,
                    mapper: Mapper[Any, Any] | None = None) -> ValueCalibration:
    """Measure ``game_id``'s value model: its Brier score on positions of ``games`` games the value agent
    played at every seat (every ``every``-th turn start, the offset turning with the game), the Brier
    score of ``rollouts`` greedy rollouts on the same positions (0: skipped), and the value agent's
    strength over ``strength_games`` games against greedy agents (2 players: seats alternating; more:
    one value agent against greedy ones).  ``mapper`` spreads the games (one task each; the shipped
    model is the one measured there); the figures do not depend on it."""
    if load_model(game_id) is None:
        raise AnalysisError(f"{game_id} has no value model yet: train one (gamerec train --game {game_id})")
    n_players = players or get_game(game_id).min_players
    cal = ValueCalibration(game_id, games, n_players, rollouts=rollouts)
    jobs = [(game_id, n_players, seed, i, every, rollouts) for i in range(games)]
    for pairs, rolled, noise in (mapper or map)(_calibration_game, jobs):
        cal.pairs.extend(pairs)
        cal.rollout_pairs.extend(rolled)
        cal.rollout_noise.extend(noise)
    if strength_games:
        cal.strength, cal.strength_games = strength(game_id, strength_games, seed, strong="value", weak="greedy",
                                                    players=n_players)
    return cal
