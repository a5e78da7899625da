"""Seeded agents that play complete legal games and write records.

Two agents exist for every game: :class:`RandomAgent` (a uniformly random
legal move) and :class:`GreedyAgent` (tries a sample of legal moves on a copy
of the state and keeps the one with the best :meth:`State.evaluate`-style
value for itself).  Chance is sampled from the request's outcome space with
the same seeded generator and written into the record as explicit outcomes,
so the record replays without any generator.

Every ``observe_every`` events the simulator adds an ``observe`` event with
``score``, ``legal_count`` and ``state_hash`` (origin ``simulator``), and the
record ends with a ``result`` (score and rank).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from replay import ENGINE_VERSION
from replay.engine import OVER, ChanceRequest, Game, Move, Outcome, State, pool_items
from replay.games import get_game
from replay.record import ChanceEvent, Event, MoveEvent, ObserveEvent, Record

NAMES = ("Ana", "Ben", "Chloe", "Dev", "Eli")
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
MAX_EVENTS = 50_000


class SimulationError(RuntimeError):
    """The engine produced a game that cannot go on (no legal move, no end)."""


def sample_outcome(req: ChanceRequest, rng: random.Random) -> Outcome:
    """A random outcome for ``req``, drawn with ``rng``."""
    if req.kind == "draw":
        items = list(pool_items(req.pool))
        lo = req.count if req.min_count is None else req.min_count
        n = min(req.count, len(items))
        if n < lo:
            raise SimulationError(f"cannot draw {lo} from the {req.name} deck: only {len(items)} left")
        drawn = rng.sample(items, n)
        return {"draw": req.name, "items": [list(x) if isinstance(x, tuple) else x for x in drawn]}
    if req.kind == "roll":
        return {"roll": [rng.randint(1, req.sides) for _ in range(req.count)]}
    return {"choose": req.name, "value": rng.choice(list(req.options))}


class RandomAgent:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State, player: str) -> Move:
        moves = list(state.legal_moves())
        if not moves:
            raise SimulationError(f"{player} has no legal move at {state.phase()}")
        return moves[self.rng.randrange(len(moves))]


class GreedyAgent:
    """Tries up to ``breadth`` legal moves on copies and keeps the best one.

    The value of a position for a player is the state's ``evaluate(player)``
    if the game defines one, otherwise its own total minus the best other
    total.  Ties are broken at random (seeded).
    """

    name = "greedy"

    def __init__(self, rng: random.Random, breadth: int = 12) -> None:
        self.rng = rng
        self.breadth = breadth

    def choose(self, state: State, player: str) -> Move:
        moves = list(state.legal_moves())
        if not moves:
            raise SimulationError(f"{player} has no legal move at {state.phase()}")
        if len(moves) > self.breadth:
            moves = self.rng.sample(moves, self.breadth)
        best: list[Move] = []
        best_value = float("-inf")
        for m in moves:
            trial = state.copy()
            trial.play(player, m)
            v = _value(trial, player)
            if v > best_value:
                best, best_value = [m], v
            elif v == best_value:
                best.append(m)
        return best[self.rng.randrange(len(best))]


def _value(state: State, player: str) -> float:
    evaluate: Callable[[str], float] | None = getattr(state, "evaluate", None)
    if evaluate is not None:
        return evaluate(player)
    totals = state.totals()
    others = [v for p, v in totals.items() if p != player]
    return totals[player] - (max(others) if others else 0)


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def player_counts(game: Game, players: int | None) -> list[int]:
    return [players] if players else list(range(game.min_players, game.max_players + 1))


def simulate_one(game: Game, n_players: int, seed: int, index: int, *, observe_every: int = 10,
                 options: dict[str, Any] | None = None, agents: Sequence[str] | None = None) -> Record:
    """Play one complete game and return its record (deterministic in its arguments)."""
    rng = random.Random(f"{game.id}:{seed}:{index}")
    pids = [f"p{i + 1}" for i in range(n_players)]
    if agents is None:
        agents = ["greedy" if (index + i) % 2 == 0 else "random" for i in range(n_players)]
    seat_agents = {p: AGENTS[a](random.Random(f"{game.id}:{seed}:{index}:{p}")) for p, a in zip(pids, agents)}
    opts = dict(options or {})
    state = game.initial_state(pids, opts)
    events: list[Event] = []
    while True:
        t = state.turn()
        if t is OVER:
            break
        if len(events) >= MAX_EVENTS:
            raise SimulationError(f"{game.id} game {index} did not end within {MAX_EVENTS} events")
        state.seq = len(events)
        if isinstance(t, ChanceRequest):
            outcome = sample_outcome(t, rng)
            state.reveal(outcome)
            events.append(ChanceEvent(outcome))
        else:
            assert isinstance(t, str)
            move = seat_agents[t].choose(state, t)
            state.play(t, move)
            events.append(MoveEvent(t, move))
        if observe_every and len(events) % observe_every == 0:
            events.append(ObserveEvent(state.observe(["score", "legal_count", "state_hash"]), "simulator"))
    events.append(ObserveEvent(state.observe(["score", "state_hash"]), "simulator"))
    result = {"score": state.totals(), "rank": state.ranking(), "end": "normal"}
    return Record(
        game=game.id,
        id=f"sim-{game.id}-s{seed}-{index:06d}",
        players=[{"id": p, "name": NAMES[i]} for i, p in enumerate(pids)],
        events=events,
        options=opts,
        source={"kind": "simulated", "engine": ENGINE_VERSION, "seed": seed,
                "agents": {p: a for p, a in zip(pids, agents)}},
        played_at=(EPOCH + timedelta(minutes=index)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        result=result,
    )


def simulate(game_id: str, games: int, seed: int, players: int | None = None, *,
             start: int = 0, observe_every: int = 10, options: dict[str, Any] | None = None) -> Iterator[Record]:
    """Yield ``games`` simulated records; player counts cycle when ``players`` is None."""
    game = get_game(game_id)
    counts = player_counts(game, players)
    for i in range(start, start + games):
        yield simulate_one(game, counts[i % len(counts)], seed, i, observe_every=observe_every,
                           options=options)
