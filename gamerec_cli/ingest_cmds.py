"""``gamerec ingest``, ``gamerec stats`` and ``gamerec export`` (thin: the work is in ingest/ and analytics/)."""

from __future__ import annotations

import sys
from typing import Any

import click
import polars as pl
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gamerec_cli.options import VIEWER_OPTION
from ingest import DEFAULT_DB

DB_OPTION = click.option("--db", "db", default=str(DEFAULT_DB), show_default=True, type=click.Path(dir_okay=False),
                         envvar="GAMEREC_DB", show_envvar=True, help="The DuckDB database file.")


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _console() -> Console:
    # no markup: stored text (errors, paths, names) is printed as written, brackets and all
    return Console(highlight=False, markup=False, soft_wrap=False, width=None if sys.stdout.isatty() else 120)


# --------------------------------------------------------------------------
# ingest
# --------------------------------------------------------------------------


@click.command()
@click.argument("paths", nargs=-1, required=True)
@DB_OPTION
@click.option("--workers", type=click.IntRange(min=0), default=None,
              help="Replay processes (default: one per core; 0: replay in this process).")
@click.option("--batch-size", type=click.IntRange(min=1), default=2000, show_default=True,
              help="At most this many records (and 32 MiB of input, about 490,000 events) per batch; "
                   "one transaction each.")
@click.option("--publish-every", type=click.FloatRange(min=0), default=10.0, show_default=True,
              help="Seconds between snapshots published for readers while the ingest runs.")
@click.option("--memory-limit", default="1GB", show_default=True,
              help="DuckDB's memory limit for the writer (e.g. 512MB); the writer's peak is about this plus 0.6 GB.")
@click.option("--ruleset", type=click.Choice(["official", "bga"]), default=None,
              help="Replay every record under these rules, whatever its options say.")
@VIEWER_OPTION
@click.option("--lake", default=None, metavar="DIR",
              help="Write a Parquet lake (folder or fsspec URL) on a Dask cluster instead of --db; "
                   "DIR/gamerec.duckdb is its catalog (docs/database.md).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="With --lake: the Dask scheduler (tcp://host:8786); default: a local cluster, "
                   "--workers processes (one per core).")
def ingest(paths: tuple[str, ...], db: str, workers: int | None, batch_size: int, publish_every: float,
           memory_limit: str, ruleset: str | None, viewer: str | None, lake: str | None,
           scheduler: str | None) -> None:
    """Replay records or saved BGA logs (files, folders, `-` for stdin) and load them into DuckDB.

    BGA logs are imported on the fly (see `gamerec import bga`); a log that
    cannot be imported goes to quarantine with its reason.

    Idempotent: records already present (same id and content) are skipped, a
    record whose content changed replaces the old game. Unreadable records go
    to the `quarantine` table; the command then exits with status 1. No
    records at all is an error (status 2), as for verify and replay.
    """
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    if scheduler and not lake:
        _fail("--scheduler needs --lake (the one-machine database has one writer)")
    if lake:
        _ingest_lake(paths, lake, scheduler, workers, ruleset, viewer)
        return
    from ingest.pipeline import ingest as run
    from ingest.sources import MissingPath, expand, total_bytes
    from ingest.writer import IngestError

    try:
        files = expand(paths)
    except MissingPath as exc:
        _fail(str(exc))
    if not files:  # nothing to read: no database is created or touched
        from replay.record import skipped_files

        skipped = skipped_files(paths)
        _fail("no records found in " + ", ".join(paths) + (f"; {skipped}" if skipped else " (record files end in "
              ".json, .jsonl, .json.gz or .jsonl.gz)"))
    total = total_bytes(files)
    err = Console(stderr=True)
    with Progress(
        TextColumn("ingesting"), BarColumn(), TaskProgressColumn(), TextColumn("{task.fields[records]} records"),
        TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("ingest", total=total, records=0)

        def advance(records: int, done: int) -> None:
            progress.update(task, completed=done if total is not None else None, records=records)

        try:
            summary = run(list(paths), db, workers=workers, batch_records=batch_size,
                          publish_every=publish_every, progress=advance, memory_limit=memory_limit,
                          ruleset=ruleset, viewer=viewer)
        except (IngestError, MissingPath) as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted; every batch written so far is complete, rerun to finish", 130)
    _print_summary(summary)
    c = summary.counts
    if c.records == 0:
        _fail("no records found in " + ", ".join(paths) + " (the record files are empty)")
    _echo_conflicts(c.conflicts, summary.conflicts)
    if c.quarantined:
        click.echo(
            f"{c.quarantined} record(s) could not be read and went to quarantine; see them with\n"
            f"  gamerec stats --db {summary.db}\n"
            f"or with SQL through DuckDB's Python package, which gamerec installs (run_id {summary.run_id} is "
            "this run):\n"
            f"  python -c \"import duckdb; duckdb.connect('{summary.snapshot}', read_only=True).sql('SELECT source, "
            f"line, error FROM quarantine WHERE run_id = {summary.run_id} ORDER BY source, line').show()\"",
            err=True,
        )
        sys.exit(1)


def _echo_conflicts(n: int, examples: list[str]) -> None:
    """Say which records were refused for reusing an id (the one-machine ingest and the lake alike)."""
    if not n:
        return
    click.echo(f"{n} record(s) reuse an id that a different record already has in this run; "
               "they were not ingested (the first record with each id was), and went to quarantine:", err=True)
    for line in examples:
        click.echo(f"  {line}", err=True)
    if n > len(examples):
        click.echo(f"  ... and {n - len(examples)} more", err=True)


def _ingest_lake(paths: tuple[str, ...], lake: str, scheduler: str | None, workers: int | None,
                 ruleset: str | None, viewer: str | None = None) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ingest.lake import ingest_lake
    from ingest.sources import MissingPath
    from ingest.writer import IngestError

    err = Console(stderr=True)
    if workers == 0:
        _fail("--lake needs at least one worker")
    import logging

    # Dask logs a lost scheduler or a slow worker shutdown with tracebacks; the command says it in one line
    logging.getLogger("distributed").setLevel(logging.ERROR)
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
    with Progress(TextColumn("replaying shards"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("lake", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            s = ingest_lake(list(paths), lake, scheduler=scheduler, workers=workers, ruleset=ruleset, viewer=viewer,
                            progress=advance, on_dashboard=lambda url: err.print(f"Dask dashboard: {url}"))
        except (IngestError, MissingPath) as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted; every shard committed so far is complete, rerun to finish", 130)
    con = _console()
    c = s.counts
    t = Table(title=f"lake ingest run {s.run_id} into {s.lake}", show_header=False, title_justify="left")
    t.add_column("what")
    t.add_column("value", justify="right")
    for k, v in [("shards", f"{s.shards:,} ({s.shards_skipped:,} already in the lake)"),
                 ("records read", f"{c.records:,}"),
                 ("  replayed on the cluster", f"{s.replayed:,}"),
                 ("ingested (new)", f"{c.new:,}"),
                 ("replaced (content changed)", f"{c.replaced:,}"),
                 ("skipped (already present)", f"{c.skipped:,}"),
                 *([("  of which: the same game as another input of this run", f"{c.same_in_run:,}")]
                   if c.same_in_run else []),
                 ("diverged (ingested, with divergences)", f"{c.diverged:,}"),
                 *((f"  status {k}", f"{n:,}") for k, n in sorted(c.statuses.items())),
                 ("quarantined", f"{c.quarantined:,}"),
                 *([("  of which: id already used in this run by other content", f"{c.conflicts:,}")]
                   if c.conflicts else []),
                 ("rows written", f"{sum(s.rows.values()):,}"),
                 ("time", f"{s.seconds:.2f} s ({s.records_per_second:,.0f} records/s)"),
                 ("peak memory per worker", f"{s.worker_kib / 1024:,.0f} MiB"),
                 ("catalog", f"{s.lake.rstrip('/')}/gamerec.duckdb")]:
        t.add_row(k, v)
    con.print(t)
    _echo_same_in_run(c.same_in_run, c.same_in_run_notes)
    _echo_settled(c.settled, c.settled_notes)
    _echo_conflicts(c.conflicts, c.conflict_examples)
    if c.quarantined:
        click.echo(f"{c.quarantined} record(s) went to the lake's quarantine; "
                   f"see them with gamerec stats --db {s.lake.rstrip('/')}/gamerec.duckdb", err=True)
        sys.exit(1)


def _echo_same_in_run(n: int, notes: list[str]) -> None:
    """One line per pair of inputs that were one game (the first few), on standard error."""
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if n > len(notes):
        click.echo(f"note: and {n - len(notes)} more input(s) that were the same game as another", err=True)


def _echo_settled(n: int, notes: list[str]) -> None:
    """The notes of BGA logs that left something open, which their import settled (the first few),
    on standard error, as ``gamerec import`` prints them."""
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if n > 1 or len(notes) < n:
        click.echo(f"note: {n} game(s) of this run settle what their log left open; each record keeps its notes "
                   "(source.notes), and Game review shows them", err=True)


def _print_summary(s: Any) -> None:
    c = s.counts
    con = _console()
    t = Table(title=f"ingest run {s.run_id} into {s.db}", show_header=False, title_justify="left")
    t.add_column("what")
    t.add_column("value", justify="right")
    rows: list[tuple[str, str]] = [
        ("files", f"{s.files:,}"),
        ("records read", f"{c.records:,}"),
        ("ingested (new)", f"{c.new:,}"),
        ("replaced (content changed)", f"{c.replaced:,}"),
        ("skipped (already present)", f"{c.skipped:,}"),
        ("diverged (ingested, with divergences)", f"{c.diverged:,}"),
        ("quarantined", f"{c.quarantined:,}" + (f" ({c.quarantined_new:,} new)" if c.quarantined else "")),
        ("time", f"{s.seconds:.2f} s ({s.records_per_second:,.0f} records/s)"),
        ("  writing / publishing snapshots",
         f"{s.timings.get('write', 0.0):.2f} s / {s.timings.get('publish', 0.0):.2f} s ({s.publishes}x)"),
    ]
    if c.conflicts:
        rows.insert(7, ("  of which: id already used in this run by other content", f"{c.conflicts:,}"))
    if c.same_table:
        rows.insert(5, ("  of which: the same BGA game, stored under another id", f"{c.same_table:,}"))
    if c.richer_kept:
        rows.insert(5, ("  of which: the stored record says more (kept)", f"{c.richer_kept:,}"))
    if c.same_in_run:
        rows.insert(5, ("  of which: the same game as another input of this run", f"{c.same_in_run:,}"))
    after = next(i for i, (k, _) in enumerate(rows) if k.startswith("diverged")) + 1
    rows[after:after] = [(f"  status {status}", f"{n:,}") for status, n in sorted(c.statuses.items())]
    for k, v in rows:
        t.add_row(k, v)
    con.print(t)
    _echo_same_in_run(c.same_in_run, c.same_in_run_notes)
    _echo_settled(c.settled, c.settled_notes)
    if c.stale_analyses:
        shown = ", ".join(c.stale_analyses[:10]) + (", ..." if len(c.stale_analyses) > 10 else "")
        click.echo(f"{len(c.stale_analyses)} game(s) replaced by a record that replays differently keep their "
                   f"win-chance analysis, now stale: {shown}; run gamerec analyse on them again", err=True)
    rt = Table(title="rows per table", title_justify="left")
    rt.add_column("table")
    rt.add_column("added this run", justify="right")
    rt.add_column("total", justify="right")
    for name, total in s.table_rows.items():
        rt.add_row(name, f"{c.rows.get(name, 0):,}", f"{total:,}")
    con.print(rt)


# --------------------------------------------------------------------------
# stats
# --------------------------------------------------------------------------


def _frame_table(title: str, df: pl.DataFrame) -> Table:
    t = Table(title=title, title_justify="left")
    for name, dtype in zip(df.columns, df.dtypes):
        t.add_column(name, justify="right" if dtype.is_numeric() else "left")
    for row in df.iter_rows():
        t.add_row(*(_cell(name, v) for name, v in zip(df.columns, row)))
    return t


def _cell(column: str, v: object) -> str:
    """One value as the dashboard writes it: rates and shares as percentages (two decimals)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:.2%}" if column.endswith(("rate", "share")) else f"{v:,.2f}"
    return str(v)


@click.command()
@DB_OPTION
@click.option("--game", "game", default=None, help="Only this game id (e.g. coal_baron).")
@click.option("--player", "player", default=None, metavar="ID|NAME",
              help="One person across games: record, rating, opponents, decision quality.")
@click.option("--components", is_flag=True,
              help="Every card, tile or action kind of --game: how often taken, win rate with its 95% interval.")
@click.option("--players", "player_count", type=click.IntRange(min=1), default=None,
              help="With --components: only games of this many players.")
@click.option("--source", "source", default=None, metavar="KIND",
              help="With --components: only games from this source (simulated, bga).")
@click.option("--ruleset", "ruleset", type=click.Choice(["official", "bga"]), default=None,
              help="With --components: only games played under these rules.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of tables.")
def stats(db: str, game: str | None, player: str | None, components: bool, player_count: int | None,
          source: str | None, ruleset: str | None, as_json: bool) -> None:
    """Games per title and status, divergences by kind, win rate by seat, mean score by category.

    With --game G, also the title's win rates by what its players look at first. With --player:
    one person across games (record, OpenSkill rating, opponents, decision quality). With
    --components --game G: every card, tile or action kind of the title, how often taken and its
    takers' win rate with a 95% interval. See docs/statistics.md.
    """
    import duckdb

    from analytics import stats as q
    from analytics.db import NoDatabase, connect_readonly

    if player is not None and components:
        _fail("--player and --components are two different reports: ask for one at a time")
    if components and game is None:
        _fail("--components needs --game G (one of: " + ", ".join(_titles()) + ")")
    if not components and (player_count is not None or source is not None or ruleset is not None):
        _fail("--players, --source and --ruleset filter --components only")
    try:
        con = connect_readonly(db)
    except NoDatabase as exc:
        _fail(str(exc))
    try:
        if game is not None and game not in q.titles(con):
            known = ", ".join(q.titles(con)) or "none yet"
            if game not in _titles():
                _fail(f"unknown game {game!r} (games: {', '.join(_titles())})")
            _fail(f"no games of {game!r} in {db} (titles present: {known})")
        if player is not None:
            from gamerec_cli.stats_cmd import player_report

            player_report(con, player, game, as_json)
            return
        if components:
            from gamerec_cli.stats_cmd import components_report

            assert game is not None
            components_report(con, game, player_count, source, ruleset, as_json)
            return
        ov = q.overview(con, game)
        sections = [
            ("games per title and status", q.games_by_title_status),
            ("divergences by kind", q.divergences_by_kind),
            ("win rate by seat (games played out)", q.win_rate_by_seat),
            ("mean final score by category (games played out)", q.mean_score_by_category),
        ]
        from analytics import deeper

        deep = deeper.tables(con, game) if game is not None else []
        if as_json:
            obj: dict[str, Any] = {"database": ov.to_dicts()[0]}
            for title, fn in sections:
                obj[title.split(" (")[0].replace(" ", "_")] = fn(con, game).to_dicts()
            for t in deep:
                obj[t.name] = t.rows.to_dicts()
            click.echo(_json(obj))
            return
        out = _console()
        out.print(_frame_table("database" + (f" ({game})" if game else ""), ov))
        for title, fn in sections:
            df = fn(con, game)
            if df.height:
                out.print(_frame_table(title, df))
            else:
                out.print(Text(title, style="bold") + Text(": none"))
        for t in deep:
            if t.rows.height:
                ci = [f"{lo:.2%}–{hi:.2%}" for lo, hi in zip(t.rows["win_rate_low"], t.rows["win_rate_high"])]
                out.print(_frame_table(f"{t.heading.lower()} (games played out; interval: 95% Wilson)",
                                       t.rows.drop("win_rate_low", "win_rate_high")
                                       .with_columns(pl.Series("95% interval", ci, dtype=pl.String))))
        if game is None and int(ov["quarantined"][0]):
            out.print(_frame_table("quarantine (latest runs first; the raw text is in quarantine.raw)",
                                   q.quarantine(con)))
    except duckdb.Error as exc:
        _fail(f"cannot query {db}: {str(exc).splitlines()[0]}")
    finally:
        con.close()


def _titles() -> list[str]:
    from replay.games import GAME_IDS

    return list(GAME_IDS)


def _json(obj: Any) -> str:
    import orjson

    return orjson.dumps(obj, default=str, option=orjson.OPT_SORT_KEYS).decode()


# --------------------------------------------------------------------------
# export
# --------------------------------------------------------------------------


@click.command()
@click.option("--parquet", "out", required=True, type=click.Path(file_okay=False),
              help="Output folder (one sub-folder per table).")
@DB_OPTION
def export(out: str, db: str) -> None:
    """Write every table as Parquet (partitioned by title where it helps)."""
    from analytics.db import NoDatabase, connect_readonly
    from ingest.export import ExportError, export_parquet

    try:
        con = connect_readonly(db)
    except NoDatabase as exc:
        _fail(str(exc))
    try:
        rows = export_parquet(con, out)
    except ExportError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        _fail(f"interrupted; every table in {out} is whole, some from the last export, and manifest.json is "
              "written once an export ends: rerun to finish", 130)
    finally:
        con.close()
    click.echo(f"exported {len(rows)} tables ({sum(rows.values()):,} rows) to {out}")


COMMANDS = [ingest, stats, export]
