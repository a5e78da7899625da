"""``gamerec bench``: the benchmark table, every figure measured in one run."""

from __future__ import annotations

import importlib
import os
import platform
import resource
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import click
import orjson
from rich.console import Console
from rich.table import Table

from benchmarks.replay_speed import (
    CORPORA,
    Against,
    AgainstError,
    Comparison,
    Rate,
    bench_chess,
    bench_replay,
    corpus,
    pass_heavy,
    replay_only_cost,
)
from replay.games import available

QUICK = (30, 3)
"""Games per replay corpus and timed runs of ``--quick``."""
FULL = (200, 5)


def _layer_rows(module: str, quick: bool) -> list[dict[str, Any]]:
    """Rows from a layer's own bench module (``benchmarks.ingest_speed``, ``benchmarks.dashboard_queries``), if it exists."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return []
        raise
    rows: list[dict[str, Any]] = mod.run(quick)
    return rows


@click.command()
@click.option("--quick", is_flag=True, help="Smaller corpora and fewer runs (about a minute).")
@click.option("--game", "games", multiple=True, help="Only these games (default: every game with an engine).")
@click.option("--skip-ingest", is_flag=True, help="Replay figures only.")
@click.option("--skip-dashboard", is_flag=True, help="No dashboard query figures.")
@click.option("--skip-import", is_flag=True, help="No BGA import figures (logs from $GAMEREC_BGA_LOGS or ../shared/bga-logs).")
@click.option("--skip-analysis", is_flag=True, help="No win-chance rollout figures.")
@click.option("--corpus", "corpora", multiple=True, type=click.Choice(CORPORA),
              help="Only these replay corpora (default: all): sim (the simulator's agents), pass-heavy "
                   "(random agents that often pass), observed (pass-heavy with a rich observe event after "
                   "every turn).")
@click.option("--save", "save", type=click.Path(dir_okay=False),
              help="Also write the replay figures as JSON (to compare a later version with --baseline).")
@click.option("--baseline", type=click.Path(exists=True, dir_okay=False),
              help="Replay figures saved by --save from a previous version: adds their speed-up columns.")
@click.option("--against", "against_rev", metavar="REV",
              help="Also replay every corpus with git revision REV of gamerec (exported from this "
                   "checkout), in a process of its own, in turn with this version in another, in this run: "
                   "adds the speed-up column (CPU time, best of the runs, on the records both versions "
                   "replay to the same end).")
def bench(quick: bool, games: tuple[str, ...], skip_ingest: bool, skip_dashboard: bool, skip_import: bool,
          skip_analysis: bool, corpora: tuple[str, ...], save: str | None, baseline: str | None,
          against_rev: str | None) -> None:
    """Replay events/s and games/s per game against python-chess, ingest and dashboard figures."""
    # no console markup: texts like "gamerec[bench]" must print as written
    console = Console(markup=False, highlight=False)
    if not console.is_terminal:
        console = Console(width=150, markup=False, highlight=False)  # a piped table keeps its columns readable
    n_games, runs = QUICK if quick else FULL
    unknown = [g for g in games if g not in available()]
    if unknown:
        raise click.BadParameter(f"no engine for {', '.join(map(repr, unknown))} "
                                 f"(games: {', '.join(available())})", param_hint="'--game'")
    titles = list(games) or available()
    wanted = [c for c in CORPORA if not corpora or c in corpora]
    console.print(f"gamerec bench ({'quick' if quick else 'full'}) on {platform.python_implementation()} "
                  f"{platform.python_version()}, {os.cpu_count()} cores; replay: median CPU time of {runs} "
                  "runs, one core")

    rows: list[Rate] = []
    observed_cost: dict[str, float] = {}
    replay_cost: dict[str, float] = {}
    compared: dict[str, Against] = {}
    stack = ExitStack()
    comparison: Comparison | None = None
    if against_rev:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="gamerec-bench-")))
        try:
            comparison = stack.enter_context(Comparison(against_rev, workdir))
        except AgainstError as exc:
            stack.close()
            raise click.BadParameter(str(exc), param_hint="'--against'") from None
    with stack:
        for gid in titles:
            _replay_rows(gid, wanted, n_games, runs, console, rows, observed_cost, replay_cost, comparison,
                         compared)
    plies = round(sum(r.events_per_game for r in rows) / len(rows)) if rows else 100
    with console.status("python-chess reference..."):
        ref = bench_chess(n_games, max(plies, 20), runs)
    figures = _figures(rows, ref, observed_cost, n_games, runs, replay_cost)
    if comparison is not None:
        figures["against"] = {"rev": comparison.rev, "commit": comparison.sha}
        for name, c in compared.items():
            figures["rows"][name].update(against_records=c.records, against_kept=c.kept,
                                         against_speedup=None if c.speedup is None else round(c.speedup, 4))
    before = orjson.loads(open(baseline, "rb").read()) if baseline else None

    table = Table(title="Replay (decode + validate + replay, one core)")
    cols = ["corpus", "games", "events/game", "events/s", "games/s", "vs python-chess", "observe cost",
            "observe cost (replay only)"]
    if before:
        cols += ["events/s vs before", "vs-chess vs before"]
    if comparison is not None:
        cols.append(f"vs {comparison.rev}")
    for col in cols:
        table.add_column(col, justify="right" if col != "corpus" else "left")
    for r in rows:
        f = figures["rows"][r.name]
        cells = [r.name, str(r.games), f"{r.events_per_game:.0f}", f"{r.events_per_s:,.0f}",
                 f"{r.games_per_s:,.1f}", _x(f.get("vs_chess")), _x(f.get("observe_cost")),
                 _x(f.get("observe_cost_replay"))]
        if before:
            b = before["rows"].get(r.name, {})
            cells += [_x(_div(f["events_per_s"], b.get("events_per_s"))),
                      _x(_div(f.get("vs_chess"), b.get("vs_chess")))]
        if comparison is not None:
            cells.append(_x(f.get("against_speedup")))
        table.add_row(*cells)
    if ref:
        table.add_row(ref.name, str(ref.games), f"{ref.events_per_game:.0f}", f"{ref.events_per_s:,.0f}",
                      f"{ref.games_per_s:,.1f}", "1.00x", "", "", *(["", ""] if before else []),
                      *([""] if comparison is not None else []))
    console.print(table)
    console.print("observe cost: CPU time to decode, validate and replay the observed corpus / the same for "
                  "the same records without their observations; (replay only): the same with the records "
                  "decoded beforehand (the cost of checking the observations alone; best of five runs "
                  "each, in turn)." + ("" if ref else " vs python-chess: n/a (pip install gamerec[bench])"))
    if before:
        console.print(f"before: {baseline} ({before.get('note', '')}); vs-chess vs before compares each "
                      "version's ratio to python-chess measured in its own run (robust to a busier machine)")
    if comparison is not None:
        partial = [f"{c.name} {c.kept} of {c.records}" for c in compared.values() if c.kept < c.records]
        console.print(f"vs {comparison.rev}: CPU time of gamerec at {comparison.rev} "
                      f"(commit {comparison.sha[:12]}, exported with git archive) over this version's, both "
                      "decoding and replaying the same records in processes of their own, in this run: each "
                      f"slice of {Comparison.SLICE} records by one version right after the other, the best of "
                      f"{max(runs, 5)} times per slice, summed; only records both versions replay to the same end "
                      "(complete, same final score and ranking) are timed"
                      + (f": {', '.join(partial)} records" if partial else ": all of them") + ".")
    if save:
        with open(save, "wb") as fh:
            fh.write(orjson.dumps(figures, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
        console.print(f"replay figures written to {save}")

    extra: list[dict[str, Any]] = []
    if not skip_ingest:
        with console.status("ingest..."):
            extra += _layer_rows("benchmarks.ingest_speed", quick)
    if not skip_import:
        with console.status("BGA import..."):
            extra += _layer_rows("benchmarks.bga_import", quick)
    if not skip_dashboard:
        with console.status("dashboard queries..."):
            extra += _layer_rows("benchmarks.dashboard_queries", quick)
    if not skip_analysis:
        from benchmarks.win_chances import run as analysis_rows

        with console.status("win-chance rollouts..."):
            extra += analysis_rows(quick, titles)
    if extra:
        t2 = Table(title="Ingest, dashboard and win-chance analysis")
        for col in ("metric", "value", "unit", "detail"):
            t2.add_column(col, justify="right" if col == "value" else "left")
        for row in extra:
            v = row.get("value")
            shown = (f"{v:,.2f}" if row.get("unit") == "x" else f"{v:,.1f}") if isinstance(v, float) else str(v)
            t2.add_row(str(row.get("metric")), shown,
                       str(row.get("unit", "")), str(row.get("detail", "")))
        console.print(t2)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    console.print(f"peak memory of this process: {peak:,.0f} MiB")


def _replay_rows(gid: str, wanted: list[str], n_games: int, runs: int, console: Console, rows: list[Rate],
                 observed_cost: dict[str, float], replay_cost: dict[str, float],
                 comparison: Comparison | None, compared: dict[str, Against]) -> None:
    """One game's replay corpora: their rates, observe costs and (``comparison``) speed-ups."""
    plain: Rate | None = None
    passing = None
    for name in wanted:
        with console.status(f"replaying {gid} ({name})..."):
            if name != "sim" and passing is None:
                passing = pass_heavy(gid, n_games)
            blobs = corpus(gid, name, n_games, passing=passing)
            rate = bench_replay(gid, n_games, runs, corpus_name=name, blobs=blobs)
            if name == "observed" and plain is None:
                plain = bench_replay(gid, n_games, runs, corpus_name="pass-heavy",
                                     blobs=corpus(gid, "pass-heavy", n_games, passing=passing))
        rows.append(rate)
        if name == "pass-heavy":
            plain = rate
        elif name == "observed":
            assert plain is not None
            observed_cost[rate.name] = rate.seconds / plain.seconds
            with console.status(f"replaying {gid} (observed, records decoded beforehand)..."):
                replay_cost[rate.name] = replay_only_cost(
                    corpus(gid, "observed", n_games, passing=passing),
                    corpus(gid, "pass-heavy", n_games, passing=passing), runs)
        if comparison is not None:
            with console.status(f"replaying {gid} ({name}) with {comparison.rev} and this version in turn..."):
                try:
                    compared[rate.name] = comparison.measure(rate.name, blobs, max(runs, 5))
                except AgainstError as exc:
                    raise click.ClickException(str(exc)) from None


def _div(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _x(v: float | None) -> str:
    return "" if v is None else f"{v:.2f}x"


def _figures(rows: list[Rate], ref: Rate | None, observed_cost: dict[str, float], n_games: int,
             runs: int, replay_cost: dict[str, float]) -> dict[str, Any]:
    """The replay figures of this run, as saved by ``--save`` and read by ``--baseline``."""
    from replay import ENGINE_VERSION

    out: dict[str, Any] = {"engine": ENGINE_VERSION, "games": n_games, "runs": runs,
                           "python": platform.python_version(), "note": "", "rows": {}}
    for r in rows:
        row: dict[str, Any] = {"games": r.games, "events": r.events, "seconds": round(r.seconds, 4),
                               "events_per_s": round(r.events_per_s, 1), "games_per_s": round(r.games_per_s, 2)}
        if ref:
            row["vs_chess"] = round(r.events_per_s / ref.events_per_s, 4)
        if r.name in observed_cost:
            row["observe_cost"] = round(observed_cost[r.name], 4)
        if r.name in replay_cost:
            row["observe_cost_replay"] = round(replay_cost[r.name], 4)
        out["rows"][r.name] = row
    if ref:
        out["python_chess_events_per_s"] = round(ref.events_per_s, 1)
    return out


COMMANDS = [bench]
