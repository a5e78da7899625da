"""``gamerec import bga``: saved Board Game Arena logs -> ``gamerec/1`` records (thin: the work is in ingest.bga)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gamerec_cli.options import VIEWER_OPTION


@click.group("import")
def import_group() -> None:
    """Import games recorded elsewhere as gamerec/1 records."""


@import_group.command("bga")
@click.argument("paths", nargs=-1, required=True)
@click.option("--out", type=click.Path(file_okay=False), required=True, help="Output directory (one .json per table).")
@click.option("--game", "game", default=None, help="Force the title (a game id, e.g. pax_pamir) instead of recognising it.")
@click.option("--table", "table", type=click.Path(dir_okay=False), default=None,
              help="The table file for a single log (default: <name>.table.json beside each log, if present).")
@VIEWER_OPTION
@click.option("--force", is_flag=True, help="Replace a record in OUT that holds a different record of the same id.")
def bga(paths: tuple[str, ...], out: str, game: str | None, table: str | None, viewer: str | None,
        force: bool) -> None:
    """Turn saved BGA logs (files or folders; .json, .json.gz, saved replay pages) into records.

    Each log becomes OUT/<record id>.json.  A log that cannot be imported is
    named with the packet, notification and reason; the others still
    convert; the exit status is then 1.  A record already in OUT is never
    replaced by a different one (an edited log of the same table, another
    player's table file) unless --force; inputs that are the same table are
    named.  See docs/bga-import.md.
    """
    import orjson

    from ingest.bga import BgaImportError, import_file, log_files
    from ingest.writer import adds_nothing
    from replay.record import dumps, write_records

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
    done = refused = disagreeing = same = 0
    written: dict[Path, Path] = {}  # record file -> the input of this run that wrote it
    tables: set[Path] = set()  # every record file this run's logs map to
    for f in files:
        try:
            imp = import_file(f, game=game, table=table, viewer=viewer)
        except BgaImportError as exc:
            refused += 1
            click.echo(f"refused: {exc}", err=True)
            continue
        rec = imp.record
        target = outdir / f"{rec.id}.json"
        new = orjson.loads(dumps(rec))
        old: object = None
        if target.exists():
            try:
                old = orjson.loads(target.read_bytes())
            except (OSError, orjson.JSONDecodeError):
                old = target  # not a record we can read: never replaced silently
        first = written.get(target)
        if first is not None and old == new:
            same += 1
            tables.add(target)
            click.echo(f"{f}: the same table as {first}: {target} holds it already")
            continue
        if old is not None and old != new and not force:
            if isinstance(old, (dict, list)) and adds_nothing(new, old):
                same += 1
                tables.add(target)
                whose = f" (from {first})" if first is not None else ""
                click.echo(f"{f}: the same table as {target}{whose}, which says more: kept")
                continue
            if not (isinstance(old, (dict, list)) and adds_nothing(old, new)):
                refused += 1
                whose = f"from {first}" if first is not None else "from an earlier import"
                click.echo(f"refused: {f}: {target} already holds a different record of id {rec.id} ({whose}); "
                           "--force replaces it", err=True)
                continue
        write_records([rec], target)
        written[target] = f
        tables.add(target)
        done += 1
        end = rec.result.get("end") if isinstance(rec.result, dict) else None
        status = ("unfinished" if rec.result is None else "conceded" if end == "concede"
                  else "finished, a player left" if end == "zombie" else "finished")
        verb = ("unchanged" if old == new else "replaced" if force and not (
            isinstance(old, (dict, list)) and adds_nothing(old, new)) else "more of the same table"
            if old is not None else "")
        click.echo(f"{f} -> {target}{' (' + verb + ')' if verb else ''}: {rec.game}, {len(rec.players)} players, "
                   f"{len(rec.events)} events from {imp.packets} packets ({status})")
        for w in imp.warnings:
            click.echo(f"  note: {w}")
        if imp.mismatches:
            disagreeing += 1
            for m in imp.mismatches:
                click.echo(f"  mismatch: {m}")
    summary = f"imported {done + same} of {len(files)} logs into {outdir}"
    if len(tables) != done + same:
        summary += f" as {len(tables)} record file(s)"
        if same:
            summary += f" ({same} the same table as a record there, which says as much or more)"
    if refused:
        summary += f"; {refused} refused"
    if disagreeing:
        summary += f"; {disagreeing} with BGA facts our rules do not reproduce (gamerec verify shows where)"
    click.echo(summary)
    sys.exit(1 if refused or disagreeing else 0)


COMMANDS = [import_group]
