"""``gamerec``: simulate, replay, verify, ingest, stats, export, dashboard, bench.

Bad input never shows a traceback: every command turns gamerec's own errors
into a one-line message naming file, line and event, and a non-zero exit.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import orjson

from gamerec_cli.options import VIEWER_OPTION
from replay.games import GAME_IDS, UnknownGame, get_game
from replay.record import Item, RecordError, iter_raw, loads, write_records
from replay.replayer import COMPLETE, DIVERGED, INVALID, Replay, replay_item

RECORDS_PER_FILE = 500


def _no_records(paths: tuple[str, ...]) -> str:
    """"No records found", naming what was skipped."""
    from replay.record import skipped_files

    skipped = skipped_files(paths)
    return "no records found in " + ", ".join(paths or ("-",)) + (f"; {skipped}" if skipped else "")


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, default=str).decode()


class _Gamerec(click.Group):
    """The command group; Ctrl-C anywhere in a command is a one-line message and exit status 130."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # a command with work to keep says more where it catches it
            _fail("interrupted", 130)
        except Exception as exc:
            if _raised_by_ctrl_c(exc):  # a library's own error for it (DuckDB: "Query interrupted")
                _fail("interrupted", 130)
            raise


def _raised_by_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` was raised from a ``KeyboardInterrupt`` (its cause or context, however deep)."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


@click.group(cls=_Gamerec, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gamerec")
def main() -> None:
    """Replay, verify and analyse recorded board games."""


# --------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------


MAX_SEED = 2**63 - 1


@main.command()
@click.option("--game", "game_id", required=True, type=click.Choice(GAME_IDS), help="Game id.")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="Player count (default: cycle through every allowed count).")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="How many games.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), required=True,
              help="Output directory (files already there are never overwritten).")
@click.option("--ruleset", type=click.Choice(["official", "bga"]), default=None)
@click.option("--observe-every", type=click.IntRange(min=0), default=10, show_default=True,
              help="Add an observe event every N events (0: only at the end).")
@click.option("--view", "view", default=None, metavar="SEAT",
              help="Write each record as seat SEAT (p1, p2, ...) saw the game: other players' hidden "
                   "draws unknown (null), revealed when the rules reveal them.")
def simulate(game_id: str, players: int | None, games: int, seed: int, out: str, ruleset: str | None,
             observe_every: int, view: str | None) -> None:
    """Play GAMES seeded games with the random and greedy agents and write records.

    Record ids name the title, seed, player count, any non-default setting and
    the game's index (sim-copenhagen-s7-3p-000000), so corpora simulated with
    other settings never share an id; file names carry the same parts.
    """
    from rich.progress import Progress

    from replay.simulate import config_tag
    from replay.simulate import simulate as run

    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        _fail(str(exc))
    if players is not None and not game.min_players <= players <= game.max_players:
        _fail(f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}")
    if view is not None:
        seats = {f"p{i}" for i in range(1, (players or game.min_players) + 1)}
        if view not in seats:
            _fail(f"--view {view}: no such seat in every game simulated (seats: {', '.join(sorted(seats))})")
    options = {"ruleset": ruleset} if ruleset else None
    outdir = Path(out)
    stem = f"{game_id}-s{seed}-{f'{players}p' if players else 'allp'}{config_tag(options, observe_every, view=view)}"
    paths = [outdir / f"{stem}-{k:04d}.jsonl.gz" for k in range((games + RECORDS_PER_FILE - 1) // RECORDS_PER_FILE)]
    existing = [p for p in paths if p.exists()]
    if existing:
        _fail(f"{existing[0]} already exists (simulated earlier with the same settings?); "
              "remove it or choose another --out")
    written = 0
    with Progress(transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task(f"simulating {game_id}", total=games)
        for k, path in enumerate(paths):
            start = k * RECORDS_PER_FILE
            n = min(RECORDS_PER_FILE, games - start)

            def batch(start: int = start, n: int = n) -> Iterator[Any]:
                for rec in run(game_id, n, seed, players, start=start, observe_every=observe_every,
                               options=options, view=view):
                    progress.advance(task)
                    yield rec

            written += write_records(batch(), path)
    click.echo(f"wrote {written} {game_id} records to {outdir}")


# --------------------------------------------------------------------------
# replay / verify
# --------------------------------------------------------------------------


def _items(paths: tuple[str, ...], viewer: str | None = None) -> Iterator[Item]:
    """Records from ``paths``, with BGA logs among them imported on the fly (table files passed over)."""
    from ingest.bga.convert import bga_items
    from ingest.sources import with_pages

    for raw in bga_items(iter_raw(with_pages(paths or ("-",))), viewer=viewer):
        if raw.error is not None:
            yield Item(raw.source, raw.line, raw.raw, error=raw.error)
            continue
        try:
            yield Item(raw.source, raw.line, raw.raw, record=loads(raw.raw, raw.source, raw.line))
        except RecordError as exc:
            yield Item(raw.source, raw.line, raw.raw, error=exc)


def _replays(paths: tuple[str, ...], **kw: Any) -> Iterator[Replay]:
    """Every record replayed; a BGA log imported and replayed in one run of the engine."""
    from ingest.bga.convert import replay_items
    from ingest.sources import with_pages

    yield from replay_items(iter_raw(with_pages(paths or ("-",))), **kw)


RULESET_OPTION = click.option(
    "--ruleset", type=click.Choice(["official", "bga"]), default=None,
    help="Replay under these rules whatever the record says (a BGA game under official shows where BGA "
         "departs from the rulebook).")


@main.command("replay")
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record.")
@click.option("--at", "at", type=click.IntRange(min=0), default=None,
              help="Stop after event SEQ (0-based, within the record's events) and show that state.")
@click.option("--snapshot", is_flag=True, help="Include the full state snapshot in --json output.")
@RULESET_OPTION
@VIEWER_OPTION
def replay_cmd(paths: tuple[str, ...], as_json: bool, at: int | None, snapshot: bool, ruleset: str | None,
               viewer: str | None) -> None:
    """Replay records (or BGA logs) and show the final (or --at SEQ) state and score breakdown.

    Exit 0 if every record replayed clean, 1 if any diverged or is invalid,
    2 if there was no record or --at lies past a record's last event.
    """
    if snapshot and not as_json:
        raise click.UsageError("--snapshot adds the state to the --json output; give --json too")
    bad = out_of_range = total = 0
    replays = (_replays(paths, ruleset=ruleset, viewer=viewer) if at is None
               else _replays_until(paths, at, ruleset, viewer))
    for r in replays:
        total += 1
        if r is None:
            out_of_range += 1
            continue
        if r.status in (INVALID, DIVERGED):
            bad += 1
        if as_json:
            obj = r.to_json(details=True)
            if at is not None:
                obj["at"] = at
            if snapshot and r.state is not None:
                obj["snapshot"] = r.state.snapshot()
            click.echo(_dumps(obj))
        else:
            _print_replay(r, at)
    if total == 0:
        _fail(_no_records(paths))
    sys.exit(2 if out_of_range else 1 if bad else 0)


def _replays_until(paths: tuple[str, ...], at: int, ruleset: str | None,
                   viewer: str | None = None) -> Iterator[Replay | None]:
    """Every record replayed up to event ``at`` (``None``, said on stderr, for one that has no such event)."""
    for item in _items(paths, viewer):
        if item.record is not None and at >= len(item.record.events):
            n = len(item.record.events)
            have = f"events 0 to {n - 1}" if n else "no events"
            click.echo(f"error: {item.source}:{item.line}: {item.record.id}: --at {at} is out of range "
                       f"(this record has {have})", err=True)
            yield None
            continue
        yield replay_item(item, until=at, ruleset=ruleset)


def _names(rec: Any) -> dict[str, str]:
    """Player id -> how the text output names the player: "Name (id)", or the id without a name."""
    out = {}
    for p in rec.players:
        pid = str(p.get("id"))
        name = p.get("name")
        out[pid] = f"{name} ({pid})" if name and str(name) != pid else pid
    return out


def _with_names(text: str, rec: Any) -> str:
    """``text`` (an engine's message) with each player id that stands alone given its name."""
    from replay.engine import with_names

    return with_names(text, {str(p.get("id")): str(p["name"]) for p in rec.players if p.get("name")})


def _title(game_id: str) -> str:
    try:
        return get_game(game_id).title
    except UnknownGame:
        return game_id


def _print_replay(r: Replay, at: int | None) -> None:
    if r.record is None:
        click.echo(f"{r.source}:{r.line or ''} invalid: {r.error}")
        return
    rec = r.record
    head = f"{rec.id} ({_title(rec.game)}, {len(rec.players)} players): {r.status}"
    first = r.first_divergence
    if first is not None:
        head += f", first divergence at event {first.seq}"
    if at is not None:
        shown = min(at, r.replayed - 1)
        if shown < at:
            head += (f"; the replay stops at event {first.seq if first is not None else shown + 1}, so the state "
                     f"shown is after event {shown}, not {at}" if shown >= 0 else
                     f"; the replay stops before event 0, so no event of --at {at} is shown")
        else:
            head += f"; state after event {at}"
    click.echo(head)
    names = _names(rec)
    for pid, cats in r.score.items():
        total = sum(cats.values())
        parts = ", ".join(f"{k} {v}" for k, v in cats.items() if v)
        rank = f" rank {r.ranking[pid]}" if pid in r.ranking else ""
        click.echo(f"  {names.get(pid, pid)}: {total}{rank}" + (f"  ({parts})" if parts else ""))
    for d in r.divergences:
        click.echo(f"  event {d.seq}: {d.kind}: {_with_names(d.message, rec)}")


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record.")
@click.option("--quiet", "-q", is_flag=True, help="Only the summary and the problems.")
@RULESET_OPTION
@VIEWER_OPTION
def verify(paths: tuple[str, ...], as_json: bool, quiet: bool, ruleset: str | None, viewer: str | None) -> None:
    """Check records (or BGA logs) against the rules; exit 1 if any diverged or is invalid."""
    counts: dict[str, int] = {}
    for r in _replays(paths, keep_frames=False, ruleset=ruleset, viewer=viewer):
        counts[r.status] = counts.get(r.status, 0) + 1
        if as_json:
            click.echo(_dumps(r.to_json(details=False)))
            continue
        if r.status == INVALID:
            click.echo(f"invalid: {r.error}")
        elif r.status == DIVERGED:
            assert r.record is not None
            d = r.divergences[0]
            more = f" (+{len(r.divergences) - 1} more)" if len(r.divergences) > 1 else ""
            click.echo(f"diverged: {r.source}:{r.line}: {r.record.id}: event {d.seq}: {d.kind}: "
                       f"{_with_names(d.message, r.record)}{more}")
        elif not quiet and r.status != COMPLETE:
            assert r.record is not None
            click.echo(f"{r.status}: {r.source}:{r.line}: {r.record.id}")
    total = sum(counts.values())
    if not as_json:
        summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        click.echo(f"{total} records: {summary or 'none found'}", err=as_json)
    if total == 0:
        _fail(_no_records(paths))
    sys.exit(1 if counts.get(INVALID) or counts.get(DIVERGED) else 0)


def _register_extra_commands() -> None:
    """Commands that live in their own modules (one per layer), if present."""
    import importlib

    for name in ("ingest_cmds", "import_cmd", "dashboard_cmd", "bench_cmd", "analyse_cmd", "departures_cmd"):
        try:
            module = importlib.import_module(f"gamerec_cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"gamerec_cli.{name}":
                continue
            raise
        for command in module.COMMANDS:
            main.add_command(command)


_register_extra_commands()


if __name__ == "__main__":
    main()
