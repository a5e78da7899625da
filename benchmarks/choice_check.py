"""Whether the moves the value model prefers at a choice are better when the game is played out.

A choice (:class:`replay.analysis.Choice`) compares the model's readings of the moves a player had.
This takes games of greedy agents (two, or the title's least count, or ``--players``: players who
choose as a simple heuristic does, not as the model would), finds every choice the model says gave away at least ``--threshold`` of win chance,
and plays the position on after the move played and after the model's best move, ``--playouts``
times each with the value agent at every seat (what the model estimates), from the mover's view
with the hidden items dealt afresh each time.  It prints each such choice and, over all of them,
the mean chance given away by the model and by the playouts, and how often the playouts find the
model's best move better, worse or level::

    python -m benchmarks.choice_check pax_pamir --games 8
    python -m benchmarks.choice_check coal_baron --games 3 --model /tmp/explored   # a model of gamerec train --out
"""

from __future__ import annotations

import random

import click

from replay.analysis import RESAMPLE, Settings, analyse, determinise, play_out, state_before
from replay.engine import Move, State
from replay.evaluator import ValueModel, after_move, installed, load_model, win_shares
from replay.games import get_game
from replay.record import MoveEvent
from replay.simulate import simulate_one


def played_out(view: State, player: str, move: Move, playouts: int, seed: str) -> float:
    """``player``'s mean win share over ``playouts`` value-agent games from ``view`` after ``move``."""
    total = 0.0
    for i in range(playouts):
        state = after_move(view, player, move)
        rng = random.Random(f"{seed}:{i}")
        determinise(state, rng)
        play_out(state, rng, "value")
        total += win_shares(state)[player]
    return total / playouts


def choice_check(game_id: str, games: int, seed: int, threshold: float, playouts: int,
                 players: int | None = None) -> list[tuple[float, float]]:
    """``(chance given away by the model, by the playouts)`` for every choice of ``games`` greedy games
    of ``players`` (default: two, or the title's least count) that the model says gave away at least
    ``threshold``; each is printed as it is measured."""
    if load_model(game_id) is None:
        raise click.ClickException(f"{game_id} has no value model")
    game = get_game(game_id)
    n = players or max(2, game.min_players)
    out = []
    for g in range(games):
        rec = simulate_one(game, n, seed, g, observe_every=0, agents=["greedy"] * n)
        for c in analyse(rec, Settings(method="value", explain=0, choices=True)).choices:
            if c.moves < 2 or c.given_away < threshold:
                continue
            ev = rec.events[c.move_seq]
            assert isinstance(ev, MoveEvent)
            view = state_before(rec, c.move_seq, RESAMPLE, c.player)
            key = f"{rec.id}:{c.move_seq}"
            # the same seeds for both moves: their playouts face the same deals as far as the game lets them
            mine = played_out(view, c.player, ev.move, playouts, f"{seed}:{key}")
            best = played_out(view, c.player, c.best_move, playouts, f"{seed}:{key}")
            out.append((c.given_away, best - mine))
            click.echo(f"{key}: the model {c.played:.3f} -> {c.best:.3f}; played out {mine:.3f} -> {best:.3f}")
    return out


@click.command()
@click.argument("game_id")
@click.option("--games", default=8, show_default=True)
@click.option("--seed", default=31, show_default=True)
@click.option("--threshold", default=0.05, show_default=True, help="The least chance given away looked at.")
@click.option("--playouts", default=16, show_default=True)
@click.option("--players", type=int, help="Player count (default: two, or the title's least count).")
@click.option("--model", "folder", type=click.Path(exists=True, file_okay=False),
              help="Judge with the value model in this folder (gamerec train --out), not the shipped one.")
def main(game_id: str, games: int, seed: int, threshold: float, playouts: int, players: int | None,
         folder: str | None) -> None:
    if folder is None:
        rows = choice_check(game_id, games, seed, threshold, playouts, players)
    else:
        with installed(ValueModel.from_files(game_id, folder)):
            rows = choice_check(game_id, games, seed, threshold, playouts, players)
    if not rows:
        click.echo("no choice gave away that much")
        return
    n = len(rows)
    better = sum(d > 0 for _, d in rows)
    worse = sum(d < 0 for _, d in rows)
    click.echo(f"{game_id}: {n} choices of {games} greedy games giving away >= {threshold:.0%} by the model: "
               f"given away {sum(m for m, _ in rows) / n:.3f} by the model, {sum(d for _, d in rows) / n:.3f} "
               f"played out; the model's best move better in {better}, worse in {worse}, level in {n - better - worse}")


if __name__ == "__main__":
    main()
