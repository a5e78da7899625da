"""How much reading a move's position while chance is to decide moves the value model's verdict.

An analysis judges each alternative by the position after it (:func:`replay.evaluator.after_move`).
When that position awaits chance (a card taken in Copenhagen ends the turn on the harbour's
refill), nobody is to move there, unlike every position the model learnt from.
:meth:`replay.evaluator.ValueModel.judge` reads such a position as the mean over
:data:`~replay.evaluator.DRAWS` seeded draws instead.  This measures the difference on the turn
starts of value-agent games (two players): for every legal move whose position awaits chance, the
mover's chance read there minus the judged one, and how often the best move changes::

    python -m benchmarks.draw_bias copenhagen --games 4
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict

import click

from replay.engine import OVER, ChanceRequest
from replay.evaluator import after_move, load_model
from replay.games import get_game
from replay.simulate import ValueAgent, sample_outcome


def draw_bias(game_id: str, games: int, seed: int = 1) -> dict[str, object]:
    """Per move type, the mean of (chance read at the draw - chance judged through it), over the
    decisions of ``games`` value-agent games; and the share of decisions whose best move changes."""
    game = get_game(game_id)
    model = load_model(game_id)
    if model is None:
        raise click.ClickException(f"{game_id} has no value model")
    by_type: dict[str, list[float]] = defaultdict(list)
    decisions = changed = 0
    for g in range(games):
        chance_rng = random.Random(f"{seed}:{g}:chance")
        agent = ValueAgent(random.Random(f"{seed}:{g}:agent"))
        state = game.initial_state(["p1", "p2"], {})
        while (turn := state.turn()) is not OVER:
            if isinstance(turn, ChanceRequest):
                state.reveal(sample_outcome(turn, chance_rng))
                continue
            assert isinstance(turn, str)
            player = turn
            moves = list(state.legal_moves())
            if len(moves) > 1:
                children = [after_move(state, player, m) for m in moves]
                read = [c[player] for c in model.chances_many(children)]
                judged = [c[player] for c in model.judge(children)]
                for m, child, r, j in zip(moves, children, read, judged):
                    if isinstance(child.turn(), ChanceRequest):
                        by_type[m.type].append(r - j)
                decisions += 1
                changed += read.index(max(read)) != judged.index(max(judged))
            state.play(player, agent.choose(state, player))
    every = [d for ds in by_type.values() for d in ds]
    return {
        "game": game_id, "games": games, "decisions": decisions,
        "best_move_changes": changed / decisions if decisions else 0.0,
        "moves_at_a_draw": len(every),
        "mean": statistics.fmean(every) if every else 0.0,
        "by_type": {t: (len(ds), statistics.fmean(ds)) for t, ds in sorted(by_type.items())},
    }


@click.command()
@click.argument("game_id")
@click.option("--games", default=4, show_default=True)
@click.option("--seed", default=1, show_default=True)
def main(game_id: str, games: int, seed: int) -> None:
    r = draw_bias(game_id, games, seed)
    click.echo(f"{game_id}: {r['decisions']} decisions of {games} games; the best move changes at "
               f"{r['best_move_changes']:.0%}")
    click.echo(f"{r['moves_at_a_draw']} moves end where chance decides: read there minus judged, "
               f"mean {r['mean']:+.3f}")
    for t, (n, mean) in r["by_type"].items():  # type: ignore[attr-defined]
        click.echo(f"  {t}: {n} moves, {mean:+.3f}")


if __name__ == "__main__":
    main()
