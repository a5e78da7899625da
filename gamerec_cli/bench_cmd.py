"""``gamerec bench``: the benchmark table, every figure measured in one run."""

from __future__ import annotations

import importlib
import os
import platform
import resource
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from replay.bench import bench_chess, bench_replay
from replay.games import available


def _layer_rows(module: str, quick: bool) -> list[dict[str, Any]]:
    """Rows from a layer's own bench module (``ingest.bench``, ``dashboard.bench``), if it exists."""
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
def bench(quick: bool, games: tuple[str, ...], skip_ingest: bool, skip_dashboard: bool) -> None:
    """Replay events/s and games/s per game against python-chess, ingest and dashboard figures."""
    console = Console()
    n_games, runs = (30, 3) if quick else (200, 5)
    titles = list(games) or available()
    console.print(f"gamerec bench ({'quick' if quick else 'full'}) on {platform.python_implementation()} "
                  f"{platform.python_version()}, {os.cpu_count()} cores; median of {runs} runs, one core")

    table = Table(title="Replay (decode + validate + replay, one core)")
    for col in ("corpus", "games", "events/game", "events/s", "games/s", "events/s vs python-chess"):
        table.add_column(col, justify="right" if col != "corpus" else "left")
    rows = []
    for gid in titles:
        with console.status(f"replaying {gid}..."):
            rows.append(bench_replay(gid, n_games, runs))
    plies = round(sum(r.events_per_game for r in rows) / len(rows)) if rows else 100
    with console.status("python-chess reference..."):
        ref = bench_chess(n_games, max(plies, 20), runs)
    for r in rows:
        ratio = f"{r.events_per_s / ref.events_per_s:.2f}x" if ref else "n/a (pip install gamerec[bench])"
        table.add_row(r.name, str(r.games), f"{r.events_per_game:.0f}", f"{r.events_per_s:,.0f}",
                      f"{r.games_per_s:,.1f}", ratio)
    if ref:
        table.add_row(ref.name, str(ref.games), f"{ref.events_per_game:.0f}", f"{ref.events_per_s:,.0f}",
                      f"{ref.games_per_s:,.1f}", "1.00x")
    console.print(table)

    extra: list[dict[str, Any]] = []
    if not skip_ingest:
        with console.status("ingest..."):
            extra += _layer_rows("ingest.bench", quick)
    if not skip_dashboard:
        with console.status("dashboard queries..."):
            extra += _layer_rows("dashboard.bench", quick)
    if extra:
        t2 = Table(title="Ingest and dashboard")
        for col in ("metric", "value", "unit", "detail"):
            t2.add_column(col, justify="right" if col == "value" else "left")
        for row in extra:
            v = row.get("value")
            t2.add_row(str(row.get("metric")), f"{v:,.1f}" if isinstance(v, float) else str(v),
                       str(row.get("unit", "")), str(row.get("detail", "")))
        console.print(t2)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    console.print(f"peak memory of this process: {peak:,.0f} MiB")


COMMANDS = [bench]
