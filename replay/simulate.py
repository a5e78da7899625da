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

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from replay import ENGINE_VERSION
from replay.engine import OVER, ChanceRequest, Game, Move, Outcome, RuleViolation, State, pool_items
from replay.games import get_game
from replay.loop import Loop
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

    LOOP = 25
    """A choice that closes this many rounds of a cycle of one or two moves is left out."""

    UNDO = 4
    """Choices that alternate with one same move this many rounds make the agent watch for states
    it has been in before (see :meth:`choose`)."""

    def __init__(self, rng: random.Random, breadth: int = 12) -> None:
        self.rng = rng
        self.breadth = breadth
        self.recent: list[Move] = []
        self.trail: dict[str, list[Move]] = {}
        """While :meth:`_undoing`: state hash -> the moves chosen there since."""

    def choose(self, state: State, player: str) -> Move:
        moves = list(state.legal_moves())
        if not moves:
            raise SimulationError(f"{player} has no legal move at {state.phase()}")
        looping = self._looping()
        if looping is not None and len(moves) > 1:
            # one step ahead, a move and its undoing can each look best forever (in Pax Pamir,
            # an action whose bribe step is best withdrawn): break the cycle
            moves = [m for m in moves if m != looping] or moves
        key: str | None = None
        if self._undoing():
            # the same undoing move every other choice, after varying ones (Pax Pamir: a battle in
            # one region, withdrawn at its bribe step, then in another...): a move chosen before at
            # this very state led back to it, so it is left out
            key = state.state_hash()
            tried = self.trail.get(key)
            if tried:
                moves = [m for m in moves if m not in tried] or moves
        elif self.trail:
            self.trail.clear()
        if len(moves) > self.breadth:
            moves = self.rng.sample(moves, self.breadth)
        best: list[Move] = []
        best_value = float("-inf")
        for m, v in zip(moves, self.values(state, player, moves)):
            if v > best_value:
                best, best_value = [m], v
            elif v == best_value:
                best.append(m)
        chosen = best[self.rng.randrange(len(best))]
        self.recent.append(chosen)
        del self.recent[:-2 * self.LOOP]
        if key is not None:
            self.trail.setdefault(key, []).append(chosen)  # a list: a move may hold a dict (unhashable)
        return chosen

    def values(self, state: State, player: str, moves: Sequence[Move]) -> list[float]:
        """How good each move looks to ``player``, one step ahead: the value of the state after it."""
        out = []
        for m in moves:
            trial = state.copy()
            trial.play(player, m)
            out.append(_value(trial, player))
        return out

    def _undoing(self) -> bool:
        """Whether every other one of this agent's last :attr:`UNDO` x 2 choices was one same move
        (the choices between them may vary): the pattern of starting things and undoing them."""
        r = self.recent
        n = 2 * self.UNDO
        if len(r) < n:
            return False
        return any(all(r[-i] == r[-start] for i in range(start + 2, n + 1, 2)) for start in (1, 2))

    def _looping(self) -> Move | None:
        """The move that would close :attr:`LOOP` rounds of a cycle of period one or two in this
        agent's last choices, if they are such a cycle."""
        r = self.recent
        if len(r) < 2 * self.LOOP - 1:
            return None
        for period in (1, 2):
            tail = r[-(self.LOOP * period - 1):]
            if all(tail[i] == tail[i - period] for i in range(period, len(tail))):
                return tail[-period]
        return None


def _value(state: State, player: str) -> float:
    evaluate: Callable[[str], float] | None = getattr(state, "evaluate", None)
    if evaluate is not None:
        return evaluate(player)
    totals = state.totals()
    others = [v for p, v in totals.items() if p != player]
    return totals[player] - (max(others) if others else 0)


PASS_TYPES = frozenset({"end_turn", "end_action", "skip", "skip_action", "stop_mining", "finish_turn",
                        "end_commit", "decline_special"})
"""Move types that end a turn or an action, or decline an option, in any game."""


class PassingAgent:
    """A random agent that often passes: whenever a move of :data:`PASS_TYPES` is legal it
    takes one with probability ``rate``, otherwise a uniformly random legal move.  Its games
    have many short turns (the benchmark's pass-heavy corpus)."""

    name = "passing"

    def __init__(self, rng: random.Random, rate: float = 0.7) -> None:
        self.rng = rng
        self.rate = rate

    def choose(self, state: State, player: str) -> Move:
        moves = list(state.legal_moves())
        if not moves:
            raise SimulationError(f"{player} has no legal move at {state.phase()}")
        passes = [m for m in moves if m.type in PASS_TYPES]
        if passes and self.rng.random() < self.rate:
            return passes[self.rng.randrange(len(passes))]
        return moves[self.rng.randrange(len(moves))]


class ValueAgent(GreedyAgent):
    """Tries up to ``breadth`` legal moves on copies and keeps the one after which the title's value
    model (:mod:`replay.evaluator`) gives the mover the highest win chance (after the rest of the
    mover's action, in a title that names one: :func:`replay.evaluator.after_move`); ties are broken at
    random (seeded).  It keeps :class:`GreedyAgent`'s guards against choices that loop.  A title
    without a value model cannot be played by it (:class:`SimulationError`).

    Two things a title's features may ask for (``replay/games/<game>/features.py``; titles that
    ask for neither are played by the model alone):

    * ``SHORTLIST = k``: the model chooses among the moves the greedy agent's evaluation ranks
      among its best ``k`` (a prior: the model corrects the heuristic, never plays a move it
      thinks poor);
    * ``WHOLE_TURN = True``: a move is judged at the end of the mover's turn, not right after it:
      the greedy agent plays the rest of the turn on the copy (draws sampled from their pools),
      up to the next decision of another player, where the model reads the chances (a turn of
      several actions is judged whole, at the kind of position the model learnt from);
    * ``progress(state)``: how far the game has moved on.  When it has not moved for
      :attr:`STUCK` of this agent's choices, only moves that move it on are tried, if there are
      any (two agents that each wait for the other would otherwise play forever).
    """

    name = "value"

    BREADTH = 128
    """At most this many moves are tried (a sample of them beyond): every move at almost every decision."""

    STUCK = 12
    """This agent's choices without progress (about three of its turns) before it insists on progress."""

    def __init__(self, rng: random.Random, breadth: int = BREADTH) -> None:
        super().__init__(rng, breadth)
        self.progress: float | None = None
        self.stuck = 0
        """This agent's choices since the game's progress last changed."""

    def values(self, state: State, player: str, moves: Sequence[Move]) -> list[float]:
        from replay.evaluator import after_move, load_model

        model = load_model(state.game_id)
        if model is None:
            raise SimulationError(f"{state.game_id} has no value model yet: train one with "
                                  f"gamerec train --game {state.game_id}")
        children = [after_move(state, player, m) for m in moves]
        tried = list(range(len(children)))
        progress = model.features.progress
        if progress is not None:
            tried = self._moving_on(progress, state, children)
        shortlist = model.features.shortlist
        if shortlist is not None and len(tried) > shortlist:
            prior = {i: _value(children[i], player) for i in tried}
            cut = sorted(prior.values(), reverse=True)[shortlist - 1]
            tried = [i for i in tried if prior[i] >= cut]
        if model.features.whole_turn:
            rng = random.Random(self.rng.random())
            for i in tried:
                self._finish_turn(children[i], player, rng)
        out = [-1.0] * len(children)  # below any chance: a move left out is never chosen
        chances = model.chances_many([children[i] for i in tried])
        for i, c in zip(tried, chances):
            out[i] = c[player]
        return out

    TURN_MOVES = 200
    """At most this many moves finish a turn on a copy (the greedy agent's guards end loops sooner)."""

    def _finish_turn(self, state: State, player: str, rng: random.Random) -> None:
        """Play the rest of ``player``'s turn on ``state`` (a copy) by the greedy agent, chance drawn
        with ``rng``, until another player is to decide or the game is over."""
        greedy = GreedyAgent(rng)
        state.reveals = []  # a copy shares the list with its original
        for _ in range(self.TURN_MOVES):
            t = state.turn()
            if isinstance(t, ChanceRequest):
                state.reveal(sample_outcome(t, rng))
            elif t is OVER or t != player:
                break
            else:
                state.play(player, greedy.choose(state, player))
        state.reveals.clear()

    def _moving_on(self, progress: Callable[[State], float], state: State, children: list[State]) -> list[int]:
        """The children to try: all of them, or, when the game has been stuck for :attr:`STUCK` of
        this agent's choices, those that move it on (all of them if none does)."""
        now = progress(state)
        if now != self.progress:
            self.progress, self.stuck = now, 0
        else:
            self.stuck += 1
        everything = list(range(len(children)))
        if self.stuck < self.STUCK:
            return everything
        onward = [i for i, c in enumerate(children) if progress(c) > now]
        return onward or everything


class ExploringAgent(ValueAgent):
    """The value agent, except that at :attr:`RATE` of its decisions with more than one legal move it
    plays a uniformly random one (seeded).  Its games show the value model positions that follow the
    moves its own agent would never play: the ones :class:`replay.analysis.Choice` reads when it judges
    every move a player had (``gamerec train --explore``)."""

    name = "exploring"

    RATE = 0.1

    def choose(self, state: State, player: str) -> Move:
        if self.rng.random() < self.RATE:
            moves = list(state.legal_moves())
            if len(moves) > 1:
                return moves[self.rng.randrange(len(moves))]
        return super().choose(state, player)


AGENTS: dict[str, Any] = {"random": RandomAgent, "greedy": GreedyAgent, "passing": PassingAgent,
                          "value": ValueAgent, "exploring": ExploringAgent}


def player_counts(game: Game, players: int | None) -> list[int]:
    return [players] if players else list(range(game.min_players, game.max_players + 1))


DEFAULT_OBSERVE_EVERY = 10


def config_tag(options: dict[str, Any] | None = None, observe_every: int = DEFAULT_OBSERVE_EVERY,
               agents: Sequence[str] | None = None, view: str | None = None) -> str:
    """The part of a simulated id that names every setting besides seed, players and index.

    Empty for the defaults; otherwise ``-bga`` for the Board Game Arena ruleset,
    ``-obs5`` for an observe event every 5 events, ``-view-p2`` for a record
    written as seat p2 saw the game, and ``-x`` plus eight hex
    digits of a hash for any other option or an explicit agent line-up.  With
    the seed, the player count and the index it makes the id unique per game
    content: two records of one engine version with the same id are the same game.
    """
    opts = dict(options or {})
    parts = []
    ruleset = opts.pop("ruleset", "official")
    if ruleset != "official":
        parts.append(str(ruleset))
    if observe_every != DEFAULT_OBSERVE_EVERY:
        parts.append(f"obs{observe_every}")
    if view is not None:
        parts.append(f"view-{view}")
    if opts or agents is not None:
        blob = repr((sorted((str(k), repr(v)) for k, v in opts.items()), list(agents or ())))
        parts.append("x" + hashlib.sha256(blob.encode()).hexdigest()[:8])
    return "".join(f"-{p}" for p in parts)


def simulated_id(game_id: str, seed: int, n_players: int, index: int, tag: str = "") -> str:
    """``sim-copenhagen-s7-3p-000000``: title, seed, player count, settings tag, game index."""
    return f"sim-{game_id}-s{seed}-{n_players}p{tag}-{index:06d}"


def simulate_one(game: Game, n_players: int, seed: int, index: int, *,
                 observe_every: int = DEFAULT_OBSERVE_EVERY,
                 options: dict[str, Any] | None = None, agents: Sequence[str] | None = None,
                 view: str | None = None) -> Record:
    """Play one complete game and return its record (deterministic in its arguments).

    With ``view`` (a seat's player id, ``"p2"``) the record is written as that
    seat saw the game: the items of draws it did not see are unknown
    (``null``), moves are as it saw them (:meth:`State.redact_move`), and what
    the rules later turn face up comes as ``reveal`` events.  The record is
    replayed while it is written (a *shadow* state), and its observations are
    that replay's, so they are what the seat's own engine would say.
    """
    if observe_every < 0:
        raise ValueError(f"observe_every must be 0 or more, not {observe_every}")
    tag = config_tag(options, observe_every, agents, view)
    rng = random.Random(f"{game.id}:{seed}:{index}")
    pids = [f"p{i + 1}" for i in range(n_players)]
    if view is not None and view not in pids:
        raise ValueError(f"no seat {view!r} in a {n_players}-player game (seats: {', '.join(pids)})")
    if agents is None:
        agents = ["greedy" if (index + i) % 2 == 0 else "random" for i in range(n_players)]
    seat_agents = {p: AGENTS[a](random.Random(f"{game.id}:{seed}:{index}:{p}")) for p, a in zip(pids, agents)}
    opts = dict(options or {})
    if view is not None:
        opts = {**dict(game.view_options), **opts}
    state = game.initial_state(pids, opts)
    # the record as it is written, replayed (the one replay loop, fed each event as it is written)
    shadow = Loop(game.initial_state(pids, dict(opts))) if view is not None else None
    seen = state if shadow is None else shadow.state
    events: list[Event] = []

    def write(event: Event) -> None:
        if shadow is not None:
            try:
                shadow.feed(event)
            except RuleViolation as exc:
                raise SimulationError(f"{game.id} game {index} seen from {view}: event {len(events)} "
                                      f"does not replay: {exc}") from exc
        events.append(event)

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
            write(ChanceEvent(_as_seen(t, outcome, view)))
        else:
            assert isinstance(t, str)
            move = seat_agents[t].choose(state, t)
            shown = move if view is None else state.redact_move(t, move, view)
            state.play(t, move)
            write(MoveEvent(t, shown))
        if state.reveals:
            if view is not None:
                for outcome in state.reveals:
                    write(ChanceEvent(outcome))
            state.reveals.clear()
        if observe_every and len(events) % observe_every == 0:
            write(ObserveEvent(seen.observe(["score", "legal_count", "state_hash"]), "simulator"))
    write(ObserveEvent(seen.observe(["score", "state_hash"]), "simulator"))
    result = {"score": state.totals(), "rank": state.ranking(), "end": "normal"}
    source: dict[str, Any] = {"kind": "simulated", "engine": ENGINE_VERSION, "seed": seed,
                              "agents": {p: a for p, a in zip(pids, agents)}}
    if view is not None:
        source["view"] = view
    return Record(
        game=game.id,
        id=simulated_id(game.id, seed, n_players, index, tag),
        players=[{"id": p, "name": NAMES[i]} for i, p in enumerate(pids)],
        events=events,
        options=opts,
        source=source,
        played_at=(EPOCH + timedelta(minutes=index)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        result=result,
    )


def _as_seen(req: ChanceRequest, outcome: Outcome, view: str | None) -> Outcome:
    """A chance outcome as ``view`` saw it: a draw it did not see has unknown items."""
    if view is None or req.visible_to is None or view in req.visible_to or req.kind != "draw":
        return outcome
    return {"draw": outcome["draw"], "items": [None] * len(outcome["items"])}


def simulate(game_id: str, games: int, seed: int, players: int | None = None, *,
             start: int = 0, observe_every: int = DEFAULT_OBSERVE_EVERY,
             options: dict[str, Any] | None = None, view: str | None = None) -> Iterator[Record]:
    """Yield ``games`` simulated records; player counts cycle when ``players`` is None."""
    game = get_game(game_id)
    counts = player_counts(game, players)
    for i in range(start, start + games):
        yield simulate_one(game, counts[i % len(counts)], seed, i, observe_every=observe_every,
                           options=options, view=view)
