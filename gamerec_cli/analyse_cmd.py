"""``gamerec analyse``: win chances by rollouts, turning points and alternatives (docs/analysis.md)."""

from __future__ import annotations

import sys

import click
from rich.console import Console

from gamerec_cli.ingest_cmds import DB_OPTION, _fail


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
@click.option("--id", "ids", multiple=True, help="Only the record(s) with this id (repeatable).")
@DB_OPTION
@click.option("--workers", type=click.IntRange(min=0), default=None,
              help="Local processes (default: one per core; 0 or 1: this process).")
@click.option("--scheduler", default=None, help="A Dask scheduler (tcp://host:8786) to run the rollouts on.")
def analyse(paths: tuple[str, ...], rollouts: int, at: str, agent: str, explain: int, alternatives: int, hidden: str, ids: tuple[str, ...], db: str,
            workers: int | None, scheduler: str | None) -> None:
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
                            hidden=hidden)
    except AnalysisError as exc:
        _fail(str(exc))
    records, errors, units = plan(paths, settings, ids)
    for e in errors:
        click.echo(f"invalid: {e}", err=True)
    if not records:
        _fail(("no record with id " + ", ".join(ids) + " in " if ids else "no readable records in ") + ", ".join(paths))
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True)

    def report(d: Done) -> None:
        out.print(f"{d.record_id} ({d.game}): {d.positions} positions in {d.seconds:.1f}s"
                  + (f" ({d.cpu_seconds:.1f}s of CPU)" if d.cpu_seconds is not None else "")
                  + ("" if d.ingested else " — not in the database yet: `gamerec ingest` it to see it in Game review")
                  + (f" — the rules stop it at {d.stopped}" if d.stopped else "")
                  + (f" — {d.capped} rollout(s) did not end within {MAX_EVENTS:,} events and are left out of "
                     "their estimates" if d.capped else ""))
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
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Simulated games (played by --players-agent at every seat).")
@click.option("--players", type=int, default=None, help="Player count (default: cycle through the allowed counts).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--rollouts", type=click.IntRange(min=2), default=64, show_default=True)
@click.option("--every", type=click.IntRange(min=1), default=4, show_default=True,
              help="Estimate at every N-th turn start of each game.")
@click.option("--agent", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True,
              help="The agent that plays the rollouts.")
@click.option("--players-agent", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True,
              help="The agent that plays the simulated games.")
@click.option("--strength-games", type=click.IntRange(min=0), default=40, show_default=True,
              help="Greedy against random, seats alternating (0: skip).")
def calibrate_cmd(game_id: str, games: int, players: int | None, seed: int, rollouts: int, every: int, agent: str,
                  players_agent: str, strength_games: int) -> None:
    """How good the win chances are for one title: calibration on simulated games, convergence with the
    number of rollouts, and the agents' strength (docs/analysis.md)."""
    from replay.analysis import AnalysisError, Settings, calibrate, strength
    from replay.games import UnknownGame, get_game

    try:
        game = get_game(game_id)
        settings = Settings(rollouts=rollouts, agent=agent)
    except (UnknownGame, AnalysisError) as exc:
        _fail(str(exc))
    if players is not None and not game.min_players <= players <= game.max_players:
        _fail(f"--players {players}: {game.title} is played by {game.min_players} to {game.max_players} players "
              "(leave --players out to cycle through them)")
    conv = [n for n in (4, 8, 16, 32, 64, 128) if n < rollouts]
    try:
        cal = calibrate(game_id, games, seed, settings, players=players, players_agent=players_agent, every=every,
                        convergence=conv)
    except AnalysisError as exc:
        _fail(str(exc))
    click.echo(f"{game.title}: {len(cal.pairs)} positions of {games} games played by {players_agent} agents, "
               f"estimated with {settings.describe()} (the chance of the player to move)")
    click.echo(f"Brier score {cal.brier():.3f} (no-skill baseline {cal.baseline_brier():.3f})")
    for lo, hi, n, won in cal.bins():
        won_text = "—" if n == 0 else f"{won:.0%}"
        click.echo(f"  given {lo:.0%}–{hi:.0%}: {n:4d} positions, won {won_text}")
    for n, d in cal.convergence.items():
        click.echo(f"  {n:4d} rollouts: mean distance to the {rollouts}-rollout estimate {d:.3f}")
    if strength_games:
        n_players = players or game.min_players
        share, n = strength(game_id, strength_games, seed, players=n_players)
        click.echo(f"greedy against random ({n_players} players, {n} games, seats alternating): "
                   f"greedy wins {share:.0%} (an equal share would be {1 / n_players:.0%})")


COMMANDS = [analyse, calibrate_cmd]
