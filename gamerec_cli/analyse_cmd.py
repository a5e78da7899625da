"""``gamerec analyse``: win chances by rollouts, turning points and alternatives (docs/analysis.md)."""

from __future__ import annotations

import sys

import click
from rich.console import Console

from gamerec_cli.ingest_cmds import DB_OPTION, _fail
from gamerec_cli.options import VIEWER_OPTION


@click.command("analyse")
@click.argument("paths", nargs=-1, required=True)
@click.option("--rollouts", type=click.IntRange(min=1), default=64, show_default=True,
              help="Rollouts per position (and per alternative at a turning point).")
@click.option("--at", "at", type=click.Choice(["turns", "decisions"]), default="turns", show_default=True,
              help="Positions: the start of each player's turn, or before every move.")
@click.option("--agent", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True,
              help="The agent that plays every seat of the rollouts.")
@click.option("--explain", type=click.IntRange(min=0), default=3, show_default=True,
              help="How many of the worst falls per game get their alternatives rolled out.")
@click.option("--alternatives", type=click.IntRange(min=2), default=6, show_default=True,
              help="At most this many moves tried at a turning point (the played move included).")
@click.option("--hidden", type=click.Choice(["resample", "known"]), default="resample", show_default=True,
              help="What only some players saw: unknown and dealt afresh per rollout, or taken as known.")
@click.option("--method", type=click.Choice(["value", "rollouts"]), default=None,
              help="Chances by the title's value model or by rollouts (default: the value model where the "
                   "title has one, else rollouts).")
@click.option("--choices/--no-choices", default=None,
              help="With the value model, judge every decision against the player's other moves (default: for "
                   "the titles whose model judges them well, docs/analysis.md).")
@click.option("--id", "ids", multiple=True, help="Only the record(s) with this id (repeatable).")
@VIEWER_OPTION
@DB_OPTION
@click.option("--workers", type=click.IntRange(min=0), default=None,
              help="Local processes (default: one per core; 0 or 1: this process).")
@click.option("--scheduler", default=None, help="A Dask scheduler (tcp://host:8786) to run the rollouts on.")
def analyse(paths: tuple[str, ...], rollouts: int, at: str, agent: str, explain: int, alternatives: int, hidden: str,
            method: str | None, choices: bool | None, ids: tuple[str, ...], viewer: str | None, db: str, workers: int | None,
            scheduler: str | None) -> None:
    """Estimate every player's win chance at every position of each record, find the turning points and
    the alternatives at the worst falls, and store them (tables win_chances, turning_points, ...).

    Deterministic: the same records, settings and engine version give the same numbers.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ingest.winchances import Done, plan, run
    from ingest.writer import IngestError
    from replay.analysis import AnalysisError, Settings
    from replay.simulate import MAX_EVENTS

    try:
        settings = Settings(rollouts=rollouts, at=at, agent=agent, explain=explain, alternatives=alternatives,
                            hidden=hidden, method=method, choices=choices)
    except AnalysisError as exc:
        _fail(str(exc))
    records, errors, units = plan(paths, settings, ids, viewer)
    for e in errors:
        click.echo(f"invalid: {e}", err=True)
    if not records:
        _fail(("no record with id " + ", ".join(ids) + " in " if ids else "no readable records in ") + ", ".join(paths))
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True)

    def report(d: Done) -> None:
        out.print(f"{d.record_id} ({d.game}, {'value model' if d.method == 'value' else 'rollouts'}): "
                  f"{d.positions} positions in {d.seconds:.1f}s"
                  + (f" ({d.cpu_seconds:.1f}s of CPU)" if d.cpu_seconds is not None else "")
                  + ("" if d.ingested else " — not in the database yet: `gamerec ingest` it to see it in Game review")
                  + (f" — {d.note}" if d.note else "")
                  + (f" — the rules stop it at {d.stopped}" if d.stopped else "")
                  + (f" — {d.capped} rollout(s) did not end within {MAX_EVENTS:,} events and are left out of "
                     "their estimates" if d.capped else ""))
        if d.choices:
            out.print(f"  choices: {d.choices}")
        for v in d.verdicts:
            out.print(f"  {v}")

    with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("analyse", total=units)
        try:
            summary = run(records, db, settings, workers=workers, scheduler=scheduler,
                          progress=lambda n: progress.advance(task, n), on_done=report)
        except (IngestError, AnalysisError) as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted; every game analysed so far is stored", 130)
    for e in summary.errors:
        click.echo(f"error: {e}", err=True)
    click.echo(f"analysed {len(summary.done)} record(s) with {settings.describe()} into {db}")
    sys.exit(1 if errors or summary.errors else 0)


@click.command("calibrate")
@click.option("--game", "game_id", required=True, help="Game id.")
@click.option("--method", type=click.Choice(["value", "rollouts"]), default=None,
              help="Measure the title's value model or the rollouts (default: the value model where the title "
                   "has one).")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Simulated games whose positions are estimated (value: played by the value agent at every "
                   "seat; rollouts: by --players-agent).")
@click.option("--players", type=int, default=None,
              help="Player count (default: value, the title's smallest; rollouts, cycle through the allowed counts).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--rollouts", type=click.IntRange(min=0), default=None,
              help="Rollouts per position (rollouts: 64; value: 16, the greedy-rollout Brier on the same "
                   "positions, 0 to skip it).")
@click.option("--every", type=click.IntRange(min=1), default=4, show_default=True,
              help="Estimate at every N-th turn start of each game.")
@click.option("--agent", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True,
              help="The agent that plays the rollouts (method rollouts).")
@click.option("--players-agent", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True,
              help="The agent that plays the simulated games (method rollouts).")
@click.option("--strength-games", type=click.IntRange(min=0), default=None,
              help="value: the value agent against greedy (200); rollouts: greedy against random (40); "
                   "seats alternating; 0: skip.")
@click.option("--workers", type=click.IntRange(min=0), default=None,
              help="value: local processes the games are spread over (default: one per core; the figures "
                   "do not depend on it).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: brier, no_skill, strength, rollout_brier...")
def calibrate_cmd(game_id: str, method: str | None, games: int, players: int | None, seed: int, rollouts: int | None,
                  every: int, agent: str, players_agent: str, strength_games: int | None, workers: int | None,
                  as_json: bool) -> None:
    """How good the win chances are for one title: calibration on simulated games (Brier score against
    the no-skill one), and the strength of the agent behind them (docs/analysis.md)."""
    import orjson

    from ingest.winchances import local_mapper
    from ingest.writer import IngestError
    from replay.analysis import AnalysisError, Settings, calibrate, calibrate_value, strength, wilson
    from replay.evaluator import ModelError, load_model
    from replay.games import UnknownGame, get_game
    from replay.simulate import SimulationError

    try:
        game = get_game(game_id)
        if method is None:
            method = "value" if load_model(game_id) is not None else "rollouts"
    except (UnknownGame, ModelError) as exc:
        _fail(str(exc))
    if players is not None and not game.min_players <= players <= game.max_players:
        _fail(f"--players {players}: {game.title} is played by {game.min_players} to {game.max_players} players "
              "(leave --players out for the default)")
    if method == "value":
        try:
            with local_mapper(workers) as mapper:
                vc = calibrate_value(game_id, games, seed, players=players, every=every,
                                     rollouts=16 if rollouts is None else rollouts,
                                     strength_games=200 if strength_games is None else strength_games, mapper=mapper)
        except (AnalysisError, SimulationError, IngestError) as exc:
            _fail(str(exc))
        out = vc.as_json()
        if as_json:
            click.echo(orjson.dumps(out, option=orjson.OPT_SORT_KEYS).decode())
            return
        click.echo(f"{game.title}: {out['positions']} positions of {games} games played by the value agent at every "
                   f"seat ({vc.players} players), the chance of the player to move by the value model")
        line = f"Brier score {out['brier']:.3f} (no-skill baseline {out['no_skill']:.3f}"
        if "rollout_brier" in out:
            line += f"; {out['rollouts']} greedy rollouts on the same positions {out['rollout_brier']:.3f}"
            if "rollout_brier_default" in out:
                line += (f", {out['default_rollouts']} (analyse's default) {out['rollout_brier_default']:.3f},"
                         f" unlimited {out['rollout_brier_unlimited']:.3f}")
        click.echo(line + ")")
        for b in out["bins"]:
            won_text = "—" if b["won"] is None else f"{b['won']:.0%}"
            click.echo(f"  given {b['low']:.0%}–{b['high']:.0%}: {b['positions']:4d} positions, won {won_text}")
        if vc.strength_games:
            lo, hi = out["strength_ci"]
            click.echo(f"value agent against greedy ({vc.players} players, {vc.strength_games} games, "
                       f"{'seats alternating' if vc.players == 2 else 'one value seat, rotating'}): wins "
                       f"{vc.strength:.0%} (95% interval {lo:.0%}–{hi:.0%}; an equal share would be "
                       f"{1 / vc.players:.0%})")
        return
    n_rollouts = 64 if rollouts is None else rollouts
    try:
        settings = Settings(rollouts=n_rollouts, agent=agent, method="rollouts")
    except AnalysisError as exc:
        _fail(str(exc))
    conv = [n for n in (4, 8, 16, 32, 64, 128) if n < n_rollouts]
    try:
        cal = calibrate(game_id, games, seed, settings, players=players, players_agent=players_agent, every=every,
                        convergence=conv)
    except AnalysisError as exc:
        _fail(str(exc))
    n_strength = 40 if strength_games is None else strength_games
    n_players = players or game.min_players
    share, n = strength(game_id, n_strength, seed, players=n_players) if n_strength else (float("nan"), 0)
    if as_json:
        out = {"game": game_id, "method": "rollouts", "games": games, "positions": len(cal.pairs),
               "rollouts": n_rollouts, "agent": agent, "brier": cal.brier(), "no_skill": cal.baseline_brier(),
               "convergence": {str(k): v for k, v in cal.convergence.items()},
               "bins": [{"low": lo, "high": hi, "positions": m, "won": None if m == 0 else won}
                        for lo, hi, m, won in cal.bins()]}
        if n:
            out.update(strength=share, strength_games=n, strength_ci=list(wilson(share, n)), strength_against="random")
        click.echo(orjson.dumps(out, option=orjson.OPT_SORT_KEYS).decode())
        return
    click.echo(f"{game.title}: {len(cal.pairs)} positions of {games} games played by {players_agent} agents, "
               f"estimated with {settings.describe()} (the chance of the player to move)")
    click.echo(f"Brier score {cal.brier():.3f} (no-skill baseline {cal.baseline_brier():.3f})")
    for lo, hi, m, won in cal.bins():
        share_text = "—" if m == 0 else f"{won:.0%}"
        click.echo(f"  given {lo:.0%}–{hi:.0%}: {m:4d} positions, won {share_text}")
    for k, d in cal.convergence.items():
        click.echo(f"  {k:4d} rollouts: mean distance to the {n_rollouts}-rollout estimate {d:.3f}")
    if n:
        click.echo(f"greedy against random ({n_players} players, {n} games, seats alternating): "
                   f"greedy wins {share:.0%} (an equal share would be {1 / n_players:.0%})")


@click.command("train")
@click.option("--game", "game_id", required=True, help="Game id.")
@click.option("--games", type=click.IntRange(min=2), default=300, show_default=True,
              help="Self-play games per iteration.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--iterations", type=click.IntRange(min=1), default=3, show_default=True,
              help="Rounds of self-play: greedy games first, then games of the model trained so far.")
@click.option("--players", type=int, default=None, help="Player count (default: cycle through the allowed counts).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Folder for value-model.txt and value-model.json (default: the title's package data).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local processes that play each iteration's games (the model does not depend on it).")
@click.option("--explore", type=click.FloatRange(0.0, 1.0), default=0.0, show_default=True,
              help="The share of games after the first iteration played by exploring agents (the value "
                   "agent, with a random move at one decision in ten): the model learns positions after "
                   "moves its agent would not play, as the judging of choices reads them.")
def train_cmd(game_id: str, games: int, seed: int, iterations: int, players: int | None, out: str | None,
              workers: int, explore: float) -> None:
    """Train a title's value model (the win chances of `analyse --method value`) from self-play.

    Deterministic: the same command gives a byte-identical model (docs/analysis.md)."""
    import time

    from replay.evaluator import ModelError
    from replay.games import UnknownGame
    from replay.simulate import SimulationError
    from replay.training import TrainingError, train, write

    command = f"gamerec train --game {game_id} --games {games} --seed {seed} --iterations {iterations}" \
              + (f" --players {players}" if players is not None else "") \
              + (f" --explore {explore:g}" if explore else "")
    c0 = time.process_time()
    try:
        trained = train(game_id, games, seed, iterations, players, command=command,
                        progress=lambda line: click.echo(line, err=True), workers=workers,
                        explore=explore)
        folder = write(trained, out)
    except (UnknownGame, TrainingError, ModelError, SimulationError) as exc:
        _fail(str(exc))
    click.echo(f"{game_id}: value model of {trained.meta['trained']['rows']} rows written to {folder} "
               f"({time.process_time() - c0:.0f} s of CPU)")


COMMANDS = [analyse, calibrate_cmd, train_cmd]
