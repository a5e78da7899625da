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
@DB_OPTION
@click.option("--workers", type=click.IntRange(min=0), default=None,
              help="Local processes (default: one per core; 0 or 1: this process).")
@click.option("--scheduler", default=None, help="A Dask scheduler (tcp://host:8786) to run the rollouts on.")
def analyse(paths: tuple[str, ...], rollouts: int, at: str, agent: str, explain: int, alternatives: int, hidden: str, db: str,
            workers: int | None, scheduler: str | None) -> None:
    """Estimate every player's win chance at every position of each record, find the turning points and
    the alternatives at the worst falls, and store them (tables win_chances, turning_points, ...).

    Deterministic: the same records, settings and engine version give the same numbers.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ingest.analysis import Done, plan, run
    from ingest.writer import IngestError
    from replay.analysis import AnalysisError, Settings

    try:
        settings = Settings(rollouts=rollouts, at=at, agent=agent, explain=explain, alternatives=alternatives,
                            hidden=hidden)
    except AnalysisError as exc:
        _fail(str(exc))
    records, errors, units = plan(paths, settings)
    for e in errors:
        click.echo(f"invalid: {e}", err=True)
    if not records:
        _fail("no readable records in " + ", ".join(paths))
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True)

    def report(d: Done) -> None:
        out.print(f"{d.record_id} ({d.game}): {d.positions} positions in {d.seconds:.1f}s"
                  + ("" if d.ingested else " — not in the database yet: `gamerec ingest` it to see it in Game review")
                  + (f" — the rules stop it at {d.stopped}" if d.stopped else ""))
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


COMMANDS = [analyse]
