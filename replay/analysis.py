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
* what each game keeps face down at the position (see its docs page and
  ``docs/analysis.md``) follows the engine's hidden-information rules.

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from replay import ENGINE_VERSION
from replay.engine import OVER, ChanceRequest, Move, RuleViolation, State
from replay.games import get_game
from replay.record import ChanceEvent, MoveEvent, Record
from replay.simulate import AGENTS, MAX_EVENTS, SimulationError, _value, sample_outcome

TURNS = "turns"
DECISIONS = "decisions"
AT_CHOICES = (TURNS, DECISIONS)
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
    included).
    """

    rollouts: int = 64
    at: str = TURNS
    agent: str = "greedy"
    explain: int = 3
    alternatives: int = 6

    def __post_init__(self) -> None:
        if self.rollouts < 1:
            raise AnalysisError(f"at least one rollout is needed, not {self.rollouts}")
        if self.at not in AT_CHOICES:
            raise AnalysisError(f"positions are taken at {' or '.join(AT_CHOICES)}, not {self.at!r}")
        if self.agent not in AGENTS:
            raise AnalysisError(f"unknown agent {self.agent!r} (known: {', '.join(AGENTS)})")
        if self.explain < 0 or self.alternatives < 2:
            raise AnalysisError("explain must be >= 0 and alternatives >= 2")

    def describe(self) -> str:
        return f"{self.rollouts} rollouts by the {self.agent} agent at {self.at}"


# --------------------------------------------------------------------------
# Estimates
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """One player's win chance from ``rollouts`` rollouts (``wins`` counts a shared first place fractionally)."""

    wins: float
    rollouts: int

    @property
    def chance(self) -> float:
        return self.wins / self.rollouts if self.rollouts else 0.0

    def interval(self) -> tuple[float, float]:
        """The Wilson score interval at 95%: honest near 0 and 1, where the normal one is not."""
        n = self.rollouts
        if n == 0:
            return (0.0, 1.0)
        p = self.chance
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def std_error(self) -> float:
        """Standard error of :attr:`chance`, with the Agresti-Coull correction (never zero)."""
        n = self.rollouts
        p = (self.wins + 2) / (n + 4)
        return math.sqrt(p * (1 - p) / (n + 4))


def rollout_seed(record_id: str, seq: int, index: int, agent: str, what: str = "position") -> str:
    """The seed of one rollout: which record, which position, which rollout, which agent, what for."""
    return f"{record_id}:{seq}:{what}:{index}:{agent}"


def win_shares(state: State) -> dict[str, float]:
    """Who won a finished game: 1 for a sole winner, 1/k each for k players tied first."""
    ranking = state.ranking()
    first = [p for p in state.players if ranking[p] == 1]
    return {p: (1.0 / len(first) if p in first else 0.0) for p in state.players}


def play_out(state: State, rng: random.Random, agent: str) -> State:
    """Play ``state`` (modified in place) to the end: the agent decides for every seat, ``rng`` draws chance."""
    player_agent = AGENTS[agent](rng)
    for _ in range(MAX_EVENTS):
        t = state.turn()
        if t is OVER:
            return state
        if isinstance(t, ChanceRequest):
            state.reveal(sample_outcome(t, rng))
        else:
            assert isinstance(t, str)
            state.play(t, player_agent.choose(state, t))
    raise SimulationError(f"a rollout did not end within {MAX_EVENTS} events")


def rollouts(state: State, seeds: Iterable[str], agent: str, first: tuple[str, Move] | None = None) -> dict[str, float]:
    """Total win shares over one rollout per seed from ``state`` (left untouched).

    ``first`` is a move played before the agents take over (an alternative).
    """
    wins = dict.fromkeys(state.players, 0.0)
    for seed in seeds:
        rng = random.Random(seed)
        trial = state.copy()
        if first is not None:
            trial.play(*first)
        try:
            play_out(trial, rng, agent)
        except SimulationError as exc:
            raise AnalysisError(f"rollout {seed}: {exc}") from None
        for p, w in win_shares(trial).items():
            wins[p] += w
    return wins


def estimate(state: State, record_id: str, seq: int, settings: Settings) -> dict[str, Estimate]:
    """Every player's win chance at ``state`` (the position after event ``seq``)."""
    n = settings.rollouts
    if state.is_over():
        return {p: Estimate(w * n, n) for p, w in win_shares(state).items()}
    seeds = (rollout_seed(record_id, seq, i, settings.agent) for i in range(n))
    return {p: Estimate(w, n) for p, w in rollouts(state, seeds, settings.agent).items()}


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


def positions(record: Record, at: str = TURNS) -> tuple[list[Position], str | None]:
    """The positions of ``record`` to analyse, and why the record stopped early (``None`` if it did not).

    ``at="turns"``: before the first move of every turn (a move by a player
    other than the previous mover); ``"decisions"``: before every move.  The
    final position (game over) comes last when the record reaches it.  The
    record is replayed on the checked path; an event the rules refuse ends
    the positions there.
    """
    game = get_game(record.game)
    state = game.initial_state(record.player_ids, record.options)
    out: list[Position] = []
    previous: str | None = None
    stop: str | None = None
    for seq, ev in enumerate(record.events):
        state.seq = seq
        if isinstance(ev, MoveEvent):
            if at == DECISIONS or ev.player != previous:
                turn = state.turn()
                if isinstance(turn, str):
                    out.append(Position(seq - 1, seq, turn, state.copy()))
            previous = ev.player
        try:
            if isinstance(ev, MoveEvent):
                state.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                state.apply_chance(ev.outcome)
        except RuleViolation as exc:
            stop = f"event {seq}: {exc.kind}: {exc}"
            break
    if stop is None and state.is_over():
        out.append(Position(_end_seq(record), None, None, state.copy()))
    return out, stop


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
        if best is played or best.estimate.chance <= played.estimate.chance:
            return head + f"; none of the {len(self.alternatives) - 1} alternatives tried kept more " \
                          f"({played.estimate.chance:.0%} for the move played)"
        return head + f"; {best.words} kept {best.estimate.chance:.0%} against {played.estimate.chance:.0%}"


def _names(record: Record) -> dict[str, str]:
    return {str(p["id"]): str(p.get("name") or p["id"]) for p in record.players}


def _words(state: State, player: str, move: Move, names: dict[str, str]) -> str:
    try:
        text = state.describe_move(player, move)
    except Exception:  # a describer bug must not hide the analysis
        text = f"{player}: {move.type}"
    name = names.get(player)
    if name and text.startswith(player + " "):
        text = name + text[len(player):]
    return text


def turning_points(chart: Sequence[Position], record: Record, limit: int = 3) -> list[TurningPoint]:
    """The turns after which the mover's own chance fell the most and rose the most (``limit`` of each).

    A change counts only when it exceeds the sampling error of the two
    estimates (1.96 standard errors of the difference) and five points.
    """
    names = _names(record)
    found: list[TurningPoint] = []
    for here, nxt in zip(chart, chart[1:]):
        if here.mover is None or here.move_seq is None:
            continue
        before, after = here.chances[here.mover], nxt.chances[here.mover]
        delta = after.chance - before.chance
        noise = Z95 * math.hypot(before.std_error(), after.std_error())
        if abs(delta) < max(noise, 0.05):
            continue
        ev = record.events[here.move_seq]
        assert isinstance(ev, MoveEvent)
        words = _words(here.state, ev.player, ev.move, names)
        found.append(TurningPoint(here.move_seq, here.mover, before, after, nxt.seq, words))
    falls = sorted((t for t in found if t.delta < 0), key=lambda t: (t.delta, t.seq))[:limit]
    rises = sorted((t for t in found if t.delta > 0), key=lambda t: (-t.delta, t.seq))[:limit]
    return sorted(falls + rises, key=lambda t: t.seq)


def candidates(state: State, player: str, played: Move, limit: int, rng: random.Random) -> list[Move]:
    """The moves worth rolling out at a decision: all legal moves if there are at most ``limit``, else the
    played move and the ``limit - 1`` best others by a one-move look-ahead (the greedy agent's value)."""
    moves = list(state.legal_moves())
    others = [m for m in moves if m != played]
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
    rng = random.Random(rollout_seed(record.id, seq, 0, settings.agent, "candidates"))
    out = []
    for m in candidates(state, player, played, settings.alternatives, rng):
        seeds = [rollout_seed(record.id, seq, i, settings.agent, "alternative") for i in range(settings.rollouts)]
        wins = rollouts(state, seeds, settings.agent, first=(player, m))
        out.append(Alternative(m, _words(state, player, m, names), Estimate(wins[player], settings.rollouts),
                               m == played))
    return out


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
    settings = settings or Settings()
    run: Mapper[Any, Any] = mapper or map
    chart, stopped = positions(record, settings.at)
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
        pos = by_seq[t.seq]
        ev = record.events[t.seq]
        assert isinstance(ev, MoveEvent)
        jobs.append((pos.state, t.player, ev.move, record, t.seq, settings))
    for t, alts in zip(falls, run(_alternatives_task, jobs)):
        t.alternatives = alts
        if progress:
            progress(1)
    return Analysis(record.id, record.game, settings, chart, points, _names(record), stopped)


def work_units(record: Record, settings: Settings) -> int:
    """How many progress steps :func:`analyse` reports for ``record`` (positions + explained falls)."""
    chart, _ = positions(record, settings.at)
    return len(chart) + min(settings.explain, max(len(chart) - 1, 0))
