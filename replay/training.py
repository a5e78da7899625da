"""Training a title's value model (:mod:`replay.evaluator`) from self-play: ``gamerec train``.

Iteration 0 plays ``games`` games greedy agent against greedy agent; each later iteration plays
``games`` more with the model trained so far: half of them the value agent against itself, half
against the greedy agent (seats alternating).  From every game, positions are sampled at the
decisions, *as the public saw them* (:func:`replay.analysis.positions`: hidden draws unknown, as
an analysis sees a position; none from the middle of an action, in a title that names it: the value
agent judges moves by the position once the action is done), and each player's row
(:meth:`FeatureSet.rows`) is labelled with that player's final win share.  After each iteration a LightGBM model is fitted to all the rows so
far (cross-entropy on the win share, fixed parameters, one thread, deterministic, seeded), and
the last one is the result.

Everything is seeded from the command's arguments, never the clock: the same command gives a
byte-identical model.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay.engine import Game
from replay.evaluator import (
    FORMAT,
    META_FILE,
    MODEL_FILE,
    ModelError,
    ValueModel,
    feature_set,
    installed,
    model_dir,
    worker_context,
)
from replay.games import get_game
from replay.simulate import player_counts, simulate_one

ROUNDS = 200
"""Boosting rounds (trees) of every model."""
FIRST_INDEX = 1_000_000
"""Training games are simulated games ``FIRST_INDEX`` onwards of their seed, so the games that
``gamerec calibrate`` measures with (indexes from 0) never share their draws with training games."""
POSITIONS_PER_GAME = 40
"""At most this many decisions of one game become training positions (spread over the game)."""


def lgb_params(seed: int) -> dict[str, Any]:
    """LightGBM's parameters: fixed, single-threaded and deterministic (byte-identical models)."""
    return {
        "objective": "cross_entropy",  # the label is a win share in [0, 1]
        "learning_rate": 0.05,
        "num_leaves": 15,
        "min_data_in_leaf": 40,
        "feature_fraction": 0.8,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "lambda_l2": 1.0,
        "deterministic": True,
        "force_row_wise": True,
        "num_threads": 1,
        "seed": seed,
        "verbose": -1,
    }


class TrainingError(RuntimeError):
    """Training cannot run (a title without features, a bad argument)."""


@dataclass
class Rows:
    """Training rows and their labels, with the game each came from."""

    x: list[list[float]] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)

    def extend(self, other: Rows) -> None:
        self.x += other.x
        self.y += other.y
        self.games += other.games


@dataclass
class Trained:
    """The result of :func:`train`: the model and how it did along the way."""

    model: ValueModel
    text: str
    meta: dict[str, Any]
    log: list[str]


def game_rows(game: Game, record_players: int, seed: int, index: int, agents: list[str], stride_seed: str) -> Rows:
    """Play one game and turn its decisions, as the public saw them, into labelled rows."""
    from replay.analysis import DECISIONS, positions

    fs = feature_set(game.id)
    assert fs is not None
    record = simulate_one(game, record_players, seed, index, observe_every=0, agents=agents)
    assert record.result is not None
    rank = record.result["rank"]
    first = [p for p in record.player_ids if rank[p] == 1]
    share = {p: (1.0 / len(first) if p in first else 0.0) for p in record.player_ids}
    chart, _ = positions(record, DECISIONS)
    inside = fs.mid_action
    chart = [pos for pos in chart if pos.mover is not None and not (inside is not None and inside(pos.state))]
    out = Rows()
    if not chart:
        return out
    stride = max(1, len(chart) // POSITIONS_PER_GAME)
    start = random.Random(stride_seed).randrange(stride)
    picked = [pos.state for pos in chart[start::stride]]
    out.x = fs.matrix(picked).tolist()
    out.y = [share[p] for s in picked for p in s.players]
    out.games = [index] * len(out.y)
    return out


def fit(rows: Rows, names: list[str], seed: int, rounds: int = ROUNDS) -> Any:
    """A LightGBM booster fitted to ``rows`` (deterministic)."""
    import lightgbm
    import numpy as np

    data = lightgbm.Dataset(np.asarray(rows.x, dtype=np.float64), label=np.asarray(rows.y, dtype=np.float64),
                            feature_name=names, free_raw_data=True, params={"verbose": -1})
    return lightgbm.train(lgb_params(seed), data, num_boost_round=rounds)


def brier(booster: Any, rows: Rows, players: list[int]) -> float:
    """Mean squared error of the normalised predictions on ``rows`` (grouped by ``players`` rows per
    position, in order)."""
    import numpy as np

    if not rows.x:
        return float("nan")
    raw = np.clip(booster.predict(np.asarray(rows.x), num_threads=1), 1e-6, 1.0)
    err = 0.0
    i = 0
    for n in players:
        total = float(raw[i:i + n].sum())
        for j in range(i, i + n):
            err += (raw[j] / total - rows.y[j]) ** 2
        i += n
    return err / len(rows.x)


def exploring(index: int, explore: float) -> bool:
    """Whether game ``index`` of an iteration after the first is one of the ``explore`` share of
    exploring games (spread evenly over the iteration)."""
    return int((index + 1) * explore) > int(index * explore)


def line_up(iteration: int, index: int, n_players: int, explore: float = 0.0) -> list[str]:
    """Who plays game ``index`` of ``iteration``: greedy agents first; then the ``explore`` share of
    games the exploring agent at every seat (:class:`replay.simulate.ExploringAgent`); the others, by
    their index, the value agent at every seat (even) or one value agent, its seat rotating, against
    greedy ones (odd).  With ``explore`` 0.5 the exploring games are the odd ones, so every other game
    is the value agent's at every seat."""
    if iteration == 0:
        return ["greedy"] * n_players
    if exploring(index, explore):
        return ["exploring"] * n_players
    if index % 2 == 0:
        return ["value"] * n_players
    seat = (index // 2) % n_players
    return ["value" if s == seat else "greedy" for s in range(n_players)]


Task = tuple[str, int, int, int, list[str], str]
"""One training game: title, player count, seed, index, the agents, the seed of its positions' stride."""


def _rows(task: Task) -> Rows:
    game_id, n, seed, index, agents, stride_seed = task
    return game_rows(get_game(game_id), n, seed, index, agents, stride_seed)


_worker_models: dict[int, ValueModel] = {}
"""In a worker process: the model of the tasks so far, by the hash of its text (parsed once)."""


def _rows_task(job: tuple[Task, str | None, dict[str, Any] | None]) -> Rows:
    """:func:`game_rows` of one game in a worker process, with the model (its text and meta) installed
    if there is one."""
    task, text, meta = job
    if text is None or meta is None:
        return _rows(task)
    key = hash(text)
    model = _worker_models.get(key)
    if model is None:
        _worker_models.clear()
        model = _worker_models[key] = ValueModel.from_text(task[0], text, meta)
    with installed(model):
        return _rows(task)


def train(game_id: str, games: int, seed: int, iterations: int, players: int | None = None,
          command: str = "", progress: Callable[[str], None] | None = None, workers: int = 1,
          explore: float = 0.0) -> Trained:
    """Train ``game_id``'s value model by ``iterations`` rounds of self-play of ``games`` games each,
    the ``explore`` share of them after the first iteration played by exploring agents.
    ``workers`` local processes play an iteration's games; the model does not depend on how many.
    They start from a fork server (:func:`replay.evaluator.worker_context`), so a script that calls
    this with ``workers > 1`` keeps its own work under ``if __name__ == "__main__":``."""
    import lightgbm

    game = get_game(game_id)
    fs = feature_set(game_id)
    if fs is None:
        raise TrainingError(f"{game_id} has no features yet (replay/games/{game_id}/features.py)")
    if games < 2 or iterations < 1:
        raise TrainingError("training needs at least 2 games and 1 iteration")
    if not 0.0 <= explore <= 1.0:
        raise TrainingError(f"the share of exploring games is between 0 and 1, not {explore}")
    if players is not None and not game.min_players <= players <= game.max_players:
        raise TrainingError(f"{game.title} is played by {game.min_players} to {game.max_players} players, "
                            f"not {players}")
    counts = player_counts(game, players)
    names = fs.row_names
    data = Rows()
    per_position: list[int] = []
    log: list[str] = []
    booster: Any = None
    model: ValueModel | None = None
    meta: dict[str, Any] = {}
    for it in range(iterations):
        new = Rows()
        new_sizes: list[int] = []
        tasks: list[Task] = []
        for k in range(games):
            index = FIRST_INDEX + it * games + k
            n = counts[k % len(counts)]
            tasks.append((game_id, n, seed, index, line_up(it, k, n, explore), f"{game_id}:{seed}:{index}:positions"))
        for (_, n, *_), r in zip(tasks, _play(tasks, model, workers)):
            new.extend(r)
            new_sizes += [n] * (len(r.x) // n)
        check = ""
        if booster is not None:  # the model so far, on positions it has not seen
            check = f"; the previous model's Brier on them {brier(booster, new, new_sizes):.3f}"
        data.extend(new)
        per_position += new_sizes
        booster = fit(data, names, seed)
        meta = {"format": FORMAT, "game": game_id, "names": names,
                "trained": {"command": command, "games": games, "seed": seed, "iterations": iterations,
                            "players": players, "rows": len(data.x), "rounds": ROUNDS,
                            "lightgbm": lightgbm.__version__}}
        if explore:
            meta["trained"]["explore"] = explore
        model = ValueModel(game_id, booster, fs, meta)
        kind = "greedy" if it == 0 else "value agent" + (f", {explore:.0%} exploring" if explore else "")
        line = (f"iteration {it}: {games} games ({kind}), "
                f"{len(new.x)} rows, {len(data.x)} in all{check}")
        log.append(line)
        if progress:
            progress(line)
    assert model is not None
    text = booster.model_to_string(num_iteration=-1)
    return Trained(ValueModel.from_text(game_id, text, meta), text, meta, log)


def _play(tasks: list[Task], model: ValueModel | None, workers: int) -> list[Rows]:
    """:func:`game_rows` of every task, in order, with ``model`` installed: in this process, or over
    ``workers`` local processes (each parses the model from its text once)."""
    if workers <= 1 or len(tasks) < 2:
        if model is None:
            return [_rows(t) for t in tasks]
        with installed(model):
            return [_rows(t) for t in tasks]
    from concurrent.futures import ProcessPoolExecutor

    text = model.booster.model_to_string(num_iteration=-1) if model is not None else None
    jobs = [(t, text, model.meta if model is not None else None) for t in tasks]
    with ProcessPoolExecutor(max_workers=workers, mp_context=worker_context()) as pool:
        return list(pool.map(_rows_task, jobs, chunksize=max(1, len(jobs) // (4 * workers))))


def write(trained: Trained, out: Path | str | None = None) -> Path:
    """Write the model's two files into ``out`` (default: the title's package data folder)."""
    folder = Path(out) if out is not None else model_dir(trained.model.game)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / MODEL_FILE).write_text(trained.text)
        (folder / META_FILE).write_text(json.dumps(trained.meta, indent=1) + "\n")
    except OSError as exc:
        raise ModelError(f"cannot write the value model into {folder}: {exc}") from None
    return folder
