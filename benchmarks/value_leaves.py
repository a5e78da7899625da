"""The value model read at the leaves of short continuations played by the value agent, against the
model alone and against greedy rollouts played to the end (issue 30's calibration target).

``gamerec calibrate`` compares the model's chance of the player to move with the mean of greedy
rollouts from the same position.  This asks whether the two combine: from each position, a few
seeded continuations (the unknown cards dealt at random, the value agent at every seat) go on
for ``k`` changes of the player to move, to the next position where nobody is inside an action,
and the model reads the chances there (a finished game reads its result), as an analysis does for
a title whose ``features.py`` sets ``LOOKAHEAD`` (:meth:`replay.evaluator.ValueModel.read`).  The
positions and the rollouts are :func:`replay.analysis.calibrate_value`'s own (games of the value agent at every
seat, every ``every``-th turn start), so its Brier scores line up with ``gamerec calibrate``'s::

    python -m benchmarks.value_leaves copenhagen --games 60 --every 6 --turns 0,2,4,8 --rollouts 32
"""

from __future__ import annotations

from typing import Any

import click

from replay.analysis import ROLLOUTS, Settings, calibration_positions, per_rollout
from replay.evaluator import DRAWS, load_model, worker_context
from replay.games import get_game

Job = tuple[str, int, int, int, int, tuple[int, ...], int]
"""One calibration game: title, players, seed, game index, every, continuation depths, rollouts."""


def _game(job: Job) -> list[tuple[dict[int, float], float | None, float]]:
    """One calibration game: per picked position, the mover's chance at each depth, the rollouts'
    estimate (None without rollouts) and the mover's win share."""
    game_id, players, seed, index, every, depths, rollouts = job
    model = load_model(game_id)
    assert model is not None
    record, picked, first = calibration_positions(game_id, players, seed, index, every)
    rolled = Settings(rollouts=max(rollouts, 1), agent="greedy", method=ROLLOUTS)
    out = []
    for pos in picked:
        mover = pos.mover
        assert mover is not None
        by_depth = {k: model.read([pos.state], turns=k)[0][mover] for k in depths}
        rollout = None
        if rollouts:
            results = per_rollout(pos.state, record.id, pos.seq, rolled)
            rollout = sum(r[mover] for r in results) / len(results) if results else None
        out.append((by_depth, rollout, 1.0 / len(first) if mover in first else 0.0))
    return out


def value_leaves(game_id: str, games: int, seed: int, every: int, depths: tuple[int, ...],
                 rollouts: int, workers: int, players: int | None = None) -> dict[str, Any]:
    """Brier scores of the model read after each continuation depth, of the rollouts and of no skill,
    over the positions of ``games`` value-agent games (``players``: the title's fewest by default)."""
    if load_model(game_id) is None:
        raise click.ClickException(f"{game_id} has no value model")
    n = players or get_game(game_id).min_players
    jobs = [(game_id, n, seed, i, every, depths, rollouts) for i in range(games)]
    with worker_context().Pool(workers) as pool:
        rows = [row for part in pool.map(_game, jobs) for row in part]
    if not rows:
        raise click.ClickException("no positions")
    mean = sum(won for *_, won in rows) / len(rows)
    out: dict[str, Any] = {
        "game": game_id, "games": games, "seed": seed, "positions": len(rows), "draws": DRAWS,
        "no_skill": sum((mean - won) ** 2 for *_, won in rows) / len(rows),
        "model_after": {k: sum((d[k] - won) ** 2 for d, _, won in rows) / len(rows) for k in depths},
    }
    rolled = [(r, won) for _, r, won in rows if r is not None]
    if rolled:
        out["rollouts"] = rollouts
        out["rollout_brier"] = sum((r - won) ** 2 for r, won in rolled) / len(rolled)
    return out


@click.command()
@click.argument("game_id")
@click.option("--games", default=60, show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--every", default=6, show_default=True, help="Every n-th turn start (as gamerec calibrate).")
@click.option("--turns", default="0,2,4,8", show_default=True, help="Continuation depths, in changes of mover.")
@click.option("--rollouts", default=32, show_default=True, help="Greedy rollouts to the end (0: none).")
@click.option("--workers", default=2, show_default=True)
@click.option("--players", type=int, default=None, help="Player count (default: the title's fewest, as calibrate).")
def main(game_id: str, games: int, seed: int, every: int, turns: str, rollouts: int,
         workers: int, players: int | None) -> None:
    depths = tuple(int(t) for t in turns.split(","))
    r = value_leaves(game_id, games, seed, every, depths, rollouts, workers, players)
    click.echo(f"{game_id}, seed {seed}: {r['positions']} positions of {games} games; "
               f"no-skill Brier {r['no_skill']:.4f}")
    for k, b in r["model_after"].items():
        click.echo(f"  model after {k} turns ({DRAWS if k else 1} continuations): {b:.4f}")
    if "rollout_brier" in r:
        click.echo(f"  {r['rollouts']} greedy rollouts to the end: {r['rollout_brier']:.4f}")


if __name__ == "__main__":
    main()
