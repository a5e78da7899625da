"""``gamerec import bga``: saved Board Game Arena logs -> ``gamerec/1`` records (thin: the work is in ingest.bga)."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.group("import")
def import_group() -> None:
    """Import games recorded elsewhere as gamerec/1 records."""


@import_group.command("bga")
@click.argument("paths", nargs=-1, required=True)
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Output directory (one .json per table).")
@click.option("--game", "game", default=None, help="Force the title (a game id, e.g. pax_pamir) instead of recognising it.")
@click.option("--table", "table", type=click.Path(dir_okay=False), default=None,
              help="The table file for a single log (default: <name>.table.json beside each log, if present).")
def bga(paths: tuple[str, ...], out: str, game: str | None, table: str | None) -> None:
    """Turn saved BGA logs (files or folders; .json, .json.gz, saved replay pages) into records.

    Each log becomes OUT/<record id>.json.  A log that cannot be imported is
    named with the packet, notification and reason; the others still
    convert; the exit status is then 1.  See docs/bga-import.md.
    """
    from ingest.bga import BgaImportError, import_file, log_files
    from replay.record import write_records

    try:
        files = list(log_files(paths))
    except BgaImportError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if table is not None and len(files) != 1:
        click.echo(f"error: --table goes with exactly one log, not {len(files)}", err=True)
        sys.exit(2)
    if not files:
        click.echo("error: no saved logs found in " + ", ".join(paths) + " (.json, .json.gz, .html)", err=True)
        sys.exit(2)
    outdir = Path(out)
    done = refused = disagreeing = 0
    for f in files:
        try:
            imp = import_file(f, game=game, table=table)
        except BgaImportError as exc:
            refused += 1
            click.echo(f"refused: {exc}", err=True)
            continue
        rec = imp.record
        target = outdir / f"{rec.id}.json"
        write_records([rec], target)
        done += 1
        status = "finished" if rec.result is not None else "unfinished"
        click.echo(f"{f} -> {target}: {rec.game}, {len(rec.players)} players, {len(rec.events)} events "
                   f"from {imp.packets} packets ({status})")
        for w in imp.warnings:
            click.echo(f"  note: {w}")
        if imp.mismatches:
            disagreeing += 1
            for m in imp.mismatches:
                click.echo(f"  mismatch: {m}")
    summary = f"imported {done} of {len(files)} logs into {outdir}"
    if refused:
        summary += f"; {refused} refused"
    if disagreeing:
        summary += f"; {disagreeing} with BGA facts our rules do not reproduce (gamerec verify shows where)"
    click.echo(summary)
    sys.exit(1 if refused or disagreeing else 0)


COMMANDS = [import_group]
