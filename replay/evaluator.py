"""The value function of a title: each player's win chance read off the public state.

A title that has one ships two files in ``replay/games/<game>/data/``:

* ``value-model.txt`` — a LightGBM model (its text format), trained by
  ``gamerec train`` (:mod:`replay.training`) on self-play outcomes;
* ``value-model.json`` — ``{"format": 1, "game": ..., "names": [...], "trained": {...}}``: the
  names of the model's inputs, in order, and how it was trained (the command that reproduces it).

The inputs come from the title's ``replay/games/<game>/features.py``, which says what a player's
position is, as numbers, from what every player can see (:data:`NAMES`, :func:`features`) and
how far the game has gone (:data:`GLOBAL_NAMES`, :func:`global_features`).  The core builds one
row per player (:meth:`FeatureSet.rows`)::

    global features + own features + max over the opponents + mean over the opponents
    + [player count, seat index, whether the player is to move]

so a model compares a player with the others without each title writing those comparisons.  The
model predicts each player's win share; the chances of a position are those predictions divided
by their sum (they add up to one); a finished game gives its real win shares.

A model is loaded only when its names are the code's (:class:`ModelError` otherwise): a model
trained before a title's features changed must be trained again, never read with shifted
inputs.  :class:`ValueAgent` plays by the model: a one-move look-ahead that keeps the move after
which the mover's chance is the highest — in a title whose turn is several moves, the position once
the mover's action is done (:func:`after_move`).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from replay.engine import OVER, ChanceRequest, Move, State
from replay.games import optional_module
from replay.simulate import GreedyAgent, ValueAgent, sample_outcome

__all__ = ["FeatureSet", "ModelError", "ValueAgent", "ValueModel", "after_move", "feature_set", "installed",
           "load_model", "looked_ahead", "settled", "worker_context"]

FORMAT = 1
"""The version of ``value-model.json``'s layout."""
MODEL_FILE = "value-model.txt"
META_FILE = "value-model.json"
GAMES_DIR = Path(__file__).with_name("games")
SHARED_NAMES = ("players", "seat", "to_move")
"""The last three inputs of every row: player count, seat index (0 = first), the player is to move."""


class ModelError(RuntimeError):
    """A value model that cannot be used (files that do not match the code, an unreadable model)."""


# --------------------------------------------------------------------------
# Features
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class FeatureSet:
    """A title's features (its ``features.py``) and the rows the core builds from them."""

    game: str
    names: tuple[str, ...]
    global_names: tuple[str, ...]
    player_features: Callable[[State, str], list[float]]
    game_features: Callable[[State], list[float]]
    mid_action: Callable[[State], bool] | None = None
    """For a title whose turn is several moves (Coal Baron: a work space, then its mining steps), whether
    ``state`` is in the middle of the mover's action: a move is then judged by the position once the
    action is done (:func:`after_move`), and training takes no position from inside an action."""
    progress: Callable[[State], float] | None = None
    """How far the game has moved on (never falls): the value agent's guard against stalling
    (:class:`ValueAgent`); ``None`` for a title whose games always move on."""
    whole_turn: bool = False
    """The value agent judges a move at the end of the mover's turn (the rest played by the greedy
    agent), not right after it."""
    shortlist: int | None = None
    """The value agent reads the model only on the moves that the greedy agent's own evaluation
    ranks among its best ``shortlist`` (ties included); ``None``: on every move."""
    lookahead: int = 0
    """An analysis reads a position's chances this many changes of the player to move later, as the
    mean over :data:`DRAWS` continuations played by the value agent (:meth:`ValueModel.read`); 0: where
    it stands."""
    choices: bool = False
    """An analysis judges every choice by default (:class:`replay.analysis.Choice`): set by a title
    whose model's preferred moves are better when played out (``python -m benchmarks.choice_check``)."""
    every_player: Callable[[State], list[list[float]]] | None = None
    """Every player's features at once, in seat order (``features_of_all`` in the title's
    ``features.py``): for a title whose features share work across the players; ``None``: one
    ``player_features`` call per player."""

    @property
    def row_names(self) -> list[str]:
        """The names of a row's inputs, in order (the model's feature names)."""
        return [*self.global_names, *(f"own_{n}" for n in self.names), *(f"max_{n}" for n in self.names),
                *(f"mean_{n}" for n in self.names), *SHARED_NAMES]

    def rows(self, state: State) -> list[list[float]]:
        """One row per player of ``state``, in seat order (:meth:`matrix` of that one state)."""
        rows: list[list[float]] = self.matrix([state]).tolist()
        return rows

    def matrix(self, states: Sequence[State]) -> np.ndarray:
        """The rows of every player of every state, state after state, each in seat order: one array.

        The opponents' maximum and mean are taken for all the states of one player count at once
        (the mean adds the opponents in seat order, as a row of one state alone would)."""
        counts = [len(s.players) for s in states]
        heads, width = len(self.global_names), len(self.names)
        out = np.empty((sum(counts), heads + 3 * width + len(SHARED_NAMES)))
        firsts = np.cumsum([0, *counts[:-1]], dtype=np.intp)
        for n in sorted(set(counts)):
            which = [k for k, c in enumerate(counts) if c == n]
            group = [states[k] for k in which]
            per = np.array([self.every_player(s) if self.every_player is not None
                            else [self.player_features(s, p) for p in s.players] for s in group],
                           dtype=float).reshape(len(group), n, width)
            rows = np.empty((len(group), n, out.shape[1]))
            rows[:, :, :heads] = np.array([self.game_features(s) for s in group],
                                          dtype=float).reshape(len(group), 1, heads)
            rows[:, :, heads:heads + width] = per
            for i in range(n):
                others = per[:, [j for j in range(n) if j != i], :]
                rows[:, i, heads + width:heads + 2 * width] = others.max(axis=1) if n > 1 else 0.0
                rows[:, i, heads + 2 * width:heads + 3 * width] = others.sum(axis=1) / (n - 1) if n > 1 else 0.0
            rows[:, :, -3] = n
            rows[:, :, -2] = np.arange(n)
            rows[:, :, -1] = [[1.0 if s.turn() == p else 0.0 for p in s.players] for s in group]
            out[(firsts[which][:, None] + np.arange(n)).ravel()] = rows.reshape(-1, out.shape[1])
        return out


@cache
def feature_set(game_id: str) -> FeatureSet | None:
    """The features of ``game_id`` (``replay/games/<game>/features.py``), or ``None`` if it has none yet."""
    mod = optional_module(f"replay.games.{game_id}.features")
    if mod is None:
        return None
    names = tuple(mod.NAMES)
    global_names = tuple(getattr(mod, "GLOBAL_NAMES", ()))
    game_features: Callable[[State], list[float]] = getattr(mod, "global_features", lambda state: [])
    return FeatureSet(game_id, names, global_names, mod.features, game_features, getattr(mod, "mid_action", None),
                      getattr(mod, "progress", None), bool(getattr(mod, "WHOLE_TURN", False)),
                      getattr(mod, "SHORTLIST", None), int(getattr(mod, "LOOKAHEAD", 0)),
                      every_player=getattr(mod, "features_of_all", None),
                      choices=bool(getattr(mod, "CHOICES", False)))


FOLLOW_UP_SEED = "follow-up"
"""The seed of the greedy agent that completes an action in :func:`after_move`."""
FOLLOW_UP_LIMIT = 200
"""At most this many follow-up moves complete an action in :func:`after_move` (an action always ends
sooner; the bound only guards against a title whose ``mid_action`` never says it is done)."""


def after_move(state: State, player: str, move: Move) -> State:
    """The position a value model judges ``move`` by: ``move`` played by ``player`` on a copy of
    ``state``; then, in a title with ``mid_action`` in its features, the rest of the mover's action
    played by the greedy agent (its own tie-breaks seeded afresh each time, so the result depends on
    the position only), up to the first position where the action is done, chance decides or
    another player is to move.  A one-move look-ahead inside an action (one cage move of the mining
    steps) would compare positions the model cannot tell apart: it compares finished actions."""
    trial = state.copy()
    trial.play(player, move)
    return finish_action(trial, player)


def finish_action(trial: State, player: str) -> State:
    """:func:`after_move` once its move is played on ``trial`` (which it goes on playing, in place):
    the rest of ``player``'s action, as the greedy agent plays it."""
    fs = feature_set(trial.game_id)
    if fs is None or fs.mid_action is None:
        return trial
    agent: GreedyAgent | None = None
    for _ in range(FOLLOW_UP_LIMIT):
        if trial.turn() != player or not fs.mid_action(trial):
            break
        agent = agent or GreedyAgent(random.Random(FOLLOW_UP_SEED))
        trial.play(player, agent.choose(trial, player))
    return trial


DRAWS = 8
"""A judged position where chance is to decide is read as the mean over this many draws (:func:`settled`)."""
DRAW_SEED = 20261128
"""The seed of the ``i``-th of those draws is ``DRAW_SEED + i``: the same position, the same draws."""


def settled(state: State, draw: int) -> State:
    """A copy of ``state``, which awaits chance, with the ``draw``-th seeded outcome of each chance
    step sampled from the pool the rules ask it from (what the public may see come up, never the
    record's own draw) until a decision is open or the game is over.  When the rules turn up
    face-down items (Perikles' counters at a battle), what the viewer does not know is first dealt
    at random from what it cannot rule out (:func:`replay.analysis.determinise`), as a look-ahead
    does.

    The model learnt from turn starts, where someone is to move; a move whose action ends on a
    draw (a card taken in Copenhagen, the harbour refilled) would otherwise be read at a position
    where nobody is, unlike a move that passes the turn straight on."""
    from replay.analysis import AnalysisError, determinise

    copy = state.copy()
    copy.reveals = []  # a copy shares the list with its original
    rng = random.Random(DRAW_SEED + draw)
    dealt = False
    for _ in range(FOLLOW_UP_LIMIT):
        t = copy.turn()
        if not isinstance(t, ChanceRequest):
            break
        if t.kind != "reveal":
            copy.reveal(sample_outcome(t, rng))
        elif not dealt:  # face-down items turned up: what the viewer does not know is dealt first
            determinise(copy, rng)
            dealt = True
        else:
            raise AnalysisError(f"the rules await a reveal of {t.name} after every unknown item was dealt")
    copy.reveals.clear()
    return copy


def looked_ahead(state: State, turns: int, draw: int,
                 mid_action: Callable[[State], bool] | None = None) -> State:
    """The ``draw``-th seeded continuation of ``state``: a copy played on by the value agent at every
    seat (the title's model must be loaded or :func:`installed`) until the player to move has changed
    ``turns`` times and nobody is inside an action (``mid_action``), or the game is over.  What the
    public does not know is dealt at random from what it knows is left
    (:func:`replay.analysis.determinise`) and chance is drawn from the rules' pools: the continuation
    reads nothing hidden."""
    from replay.analysis import determinise, play_out

    rng = random.Random(DRAW_SEED + draw)
    trial = state.copy()
    trial.reveals = []  # a copy shares the list with its original
    determinise(trial, rng)
    movers: list[str] = []

    def far_enough(s: State, mover: str) -> bool:
        if not movers or movers[-1] != mover:
            movers.append(mover)
        return len(movers) > turns and not (mid_action is not None and mid_action(s))

    play_out(trial, rng, ValueAgent.name, until=far_enough)
    trial.reveals.clear()
    return trial


# --------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------


def worker_context() -> multiprocessing.context.BaseContext:
    """How to start worker processes that may load a value model: ``forkserver`` (``spawn`` on
    Windows), never a plain fork.  Parsing a model starts LightGBM's OpenMP threads; a child forked
    from a process that has them, and parses a model in turn, waits for threads it does not have,
    for ever."""
    return multiprocessing.get_context("spawn" if os.name == "nt" else "forkserver")


def model_dir(game_id: str) -> Path:
    """Where a title's shipped model lives: its package's ``data`` folder."""
    return GAMES_DIR / game_id / "data"


class ValueModel:
    """A trained value function for one title (the LightGBM booster and its feature set)."""

    def __init__(self, game: str, booster: Any, features: FeatureSet, meta: dict[str, Any]) -> None:
        self.game = game
        self.booster = booster
        self.features = features
        self.meta = meta

    @classmethod
    def from_files(cls, game_id: str, folder: Path | str) -> ValueModel:
        """Load ``value-model.txt`` and ``value-model.json`` from ``folder`` (the version check)."""
        folder = Path(folder)
        meta_path, model_path = folder / META_FILE, folder / MODEL_FILE
        try:
            meta = json.loads(meta_path.read_text())
            text = model_path.read_text()
        except (OSError, ValueError) as exc:
            raise ModelError(f"{game_id}: cannot read the value model in {folder}: {exc}") from None
        return cls.from_text(game_id, text, meta, where=str(folder))

    @classmethod
    def from_text(cls, game_id: str, text: str, meta: dict[str, Any], where: str = "memory") -> ValueModel:
        import lightgbm

        fs = feature_set(game_id)
        if fs is None:
            raise ModelError(f"{game_id}: a value model in {where}, but the title has no features.py")
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            got = meta.get("format") if isinstance(meta, dict) else meta
            raise ModelError(f"{game_id}: the value model in {where} has format {got!r}; this version reads "
                             f"format {FORMAT}: train it again (gamerec train --game {game_id})")
        if meta.get("game") != game_id:
            raise ModelError(f"{game_id}: the value model in {where} is {meta.get('game')!r}'s")
        names = list(meta.get("names") or ())
        if names != fs.row_names:
            missing = [n for n in fs.row_names if n not in names]
            extra = [n for n in names if n not in fs.row_names]
            detail = "; ".join(part for part in (
                f"the code has {', '.join(missing[:5])} that the model lacks" if missing else "",
                f"the model has {', '.join(extra[:5])} that the code lacks" if extra else "",
            ) if part) or "the same names in another order"
            raise ModelError(f"{game_id}: the value model in {where} was trained on other features ({detail}): "
                             f"train it again (gamerec train --game {game_id})")
        try:
            booster = lightgbm.Booster(model_str=text)
        except lightgbm.basic.LightGBMError as exc:
            raise ModelError(f"{game_id}: the value model in {where} does not load: {exc}") from None
        if booster.feature_name() != names:
            raise ModelError(f"{game_id}: the value model in {where} does not match its own names file")
        return cls(game_id, booster, fs, meta)

    # ---- predictions -----------------------------------------------------

    def chances(self, state: State) -> dict[str, float]:
        """Each player's win chance at ``state`` (they sum to one; a finished game: the real win shares)."""
        return self.chances_many([state])[0]

    def chances_many(self, states: Sequence[State]) -> list[dict[str, float]]:
        """:meth:`chances` of several states, with one prediction call for all of them."""
        live = [s for s in states if s.turn() is not OVER]
        raw = iter(self.booster.predict(self.features.matrix(live), num_threads=1) if live else ())
        out = []
        for s in states:
            if s.turn() is OVER:
                out.append(win_shares(s))
                continue
            values = [min(1.0, max(1e-6, float(next(raw)))) for _ in s.players]
            total = sum(values)
            out.append({p: v / total for p, v in zip(s.players, values)})
        return out

    def judge(self, children: Sequence[State]) -> list[dict[str, float]]:
        """The chances a move is judged by, for each position after a move (:func:`after_move`):
        :meth:`chances_many`, except that a position where chance is to decide is read as the mean
        over :data:`DRAWS` :func:`settled` draws.  One prediction call for all of them."""
        return self._mean_over(children, lambda child: [settled(child, i) for i in range(DRAWS)]
                               if isinstance(child.turn(), ChanceRequest) else None)

    def read(self, states: Sequence[State], turns: int | None = None) -> list[dict[str, float]]:
        """The chances an analysis gives each position: :meth:`chances_many`, or, for a title whose
        features ask for a look-ahead (``LOOKAHEAD = k`` in its ``features.py``; ``turns``, if
        given, instead), the mean over :data:`DRAWS` :func:`looked_ahead` continuations of ``k``
        changes of the player to move (a finished game: its result).  One prediction call for all
        of them."""
        k = self.features.lookahead if turns is None else turns
        if not k:
            return self.chances_many(states)
        mid_action = self.features.mid_action
        with installed(self):  # the continuations are played by this model
            return self._mean_over(states, lambda s: None if s.turn() is OVER
                                   else [looked_ahead(s, k, i, mid_action) for i in range(DRAWS)])

    def _mean_over(self, states: Sequence[State],
                   stand_ins: Callable[[State], list[State] | None]) -> list[dict[str, float]]:
        """Per state, the mean of the chances of its ``stand_ins`` (the state itself when it has
        none), with one prediction call for all of them."""
        expanded: list[State] = []
        spans: list[tuple[int, int]] = []
        for s in states:
            start = len(expanded)
            more = stand_ins(s)
            if more is None:
                expanded.append(s)
            else:
                expanded.extend(more)
            spans.append((start, len(expanded) - start))
        read = self.chances_many(expanded)
        out = []
        for s, (start, n) in zip(states, spans):
            if n == 1:
                out.append(read[start])
            else:
                out.append({p: sum(c[p] for c in read[start:start + n]) / n for p in s.players})
        return out


def win_shares(state: State) -> dict[str, float]:
    """Who won a finished game: 1 for a sole winner, 1/k each for k players tied first."""
    ranking = state.ranking()
    first = [p for p in state.players if ranking[p] == 1]
    return {p: (1.0 / len(first) if p in first else 0.0) for p in state.players}


_installed: dict[str, ValueModel | None] = {}


@cache
def _shipped(game_id: str) -> ValueModel | None:
    folder = model_dir(game_id)
    if not (folder / MODEL_FILE).exists() and not (folder / META_FILE).exists():
        return None
    return ValueModel.from_files(game_id, folder)


def load_model(game_id: str) -> ValueModel | None:
    """The value model of ``game_id``: the one shipped in its package (loaded once), or ``None`` if the
    title has none yet.  A shipped model that does not match the code raises :class:`ModelError`."""
    if game_id in _installed:
        return _installed[game_id]
    return _shipped(game_id)


@contextmanager
def installed(model: ValueModel) -> Iterator[ValueModel]:
    """Make ``model`` the one :func:`load_model` gives for its title while the block runs (training
    plays the model being trained, not the shipped one)."""
    before = _installed.get(model.game, _MISSING)
    _installed[model.game] = model
    try:
        yield model
    finally:
        if before is _MISSING:
            del _installed[model.game]
        else:
            _installed[model.game] = before


_MISSING: Any = object()
