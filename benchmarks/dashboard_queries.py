"""Dashboard benchmark for ``gamerec bench``: page loads on a large database, Game review steps.

:func:`run` builds a database of ``n_games`` games (100,000; 10,000 with
``quick``): a base corpus of simulated games of every title is ingested for
real, then its per-game rows are copied under new game ids up to the target
size.  Copies keep every per-game table (games, players, events, scores,
divergences, milestone tables, the stored records, the win chances): the
Components page and the deeper strategy tables scan the moves in ``events``.

It then measures, on that database:

* every page's script run under Streamlit's AppTest, first load (cold
  queries) and a fresh session after it (the "after first load" figure the
  dashboard promises to keep under 1 s);
* Game review's step: replaying the record to the step, the board and the
  score chart (compute only), and a whole Next-button rerun of the page.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

QUICK_GAMES = 10_000
FULL_GAMES = 100_000
APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PAGES: list[tuple[str, str | None, dict[str, str]]] = [
    ("overview", None, {}),
    ("game_review", "views/game_review.py", {}),
    ("score_breakdowns", "views/score_breakdowns.py", {}),
    ("pax_pamir", "views/pax_pamir.py", {}),
    ("coal_baron", "views/coal_baron.py", {}),
    ("strategy", "views/strategy.py", {}),
    ("players (the rating ladder)", "views/players.py", {}),
    # simulated records name their seats p1, p2...: p1 sits in every game, the largest profile there is
    ("players (p1's profile)", "views/players.py", {"player": "p1"}),
    ("components", "views/components.py", {}),
    ("divergences", "views/divergences.py", {}),
    ("departures", "views/departures.py", {}),
]
SKIP_WHEN_COPYING: set[str] = set()


def build_database(db: Path, n_games: int, base_games: int, *, titles: list[str] | None = None,
                   pool: int | None = None, workers: int | None = None) -> dict[str, Any]:
    """Ingest ``base_games`` simulated games into ``db`` and copy them up to ``n_games`` games.

    ``pool`` distinct games per title are simulated (the base corpus repeats them under new ids);
    ``workers`` is the ingest's process count (default: one per core).
    """
    from benchmarks.ingest_speed import write_corpus
    from ingest.pipeline import ingest
    from ingest.schema import game_tables
    from ingest.writer import snapshot_path

    corpus = db.parent / "corpus"
    base = min(base_games, n_games)
    write_corpus(corpus, base, titles=titles, pool=pool or max(5, base // 20))
    t0 = time.perf_counter()
    ingest([str(corpus)], db, workers=workers)
    ingest_s = time.perf_counter() - t0
    full, rest = divmod(n_games - base, base)
    t1 = time.perf_counter()
    con = duckdb.connect(str(db))
    try:
        con.execute("SET enable_progress_bar = false")
        have = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        con.execute("CREATE TEMP TABLE base_ids AS SELECT game_id FROM games")
        con.execute("CREATE TEMP TABLE cut_ids AS SELECT game_id FROM base_ids ORDER BY game_id LIMIT ?", [rest])
        for table in game_tables():
            if table.name not in have or table.name in SKIP_WHEN_COPYING:
                continue
            select = ", ".join("b.game_id || '-c' || k.range::VARCHAR" if c == "game_id" else f'b."{c}"'
                               for c in table.column_names)
            # copies 1..full of every game, then copy full+1 of the first `rest` games: n_games in all
            con.execute(f"INSERT INTO {table.name} SELECT {select} FROM {table.name} b, range(1, ?) k "
                        "WHERE b.game_id IN (SELECT game_id FROM base_ids)", [full + 1])
            con.execute(f"INSERT INTO {table.name} SELECT {select} FROM {table.name} b, range(?, ?) k "
                        "WHERE b.game_id IN (SELECT game_id FROM cut_ids)", [full + 1, full + 2])
        con.execute("CHECKPOINT")
        total = int(con.execute("SELECT count(*) FROM games").fetchone()[0])  # type: ignore[index]
    finally:
        con.close()
    snap = snapshot_path(db)
    if snap.exists():
        snap.unlink()  # readers fall back to the (now larger) database file itself
    return {"games": total, "base": base, "ingest_s": ingest_s, "copy_s": time.perf_counter() - t1,
            "bytes": db.stat().st_size}


@contextmanager
def _env(db: Path) -> Iterator[None]:
    old = os.environ.get("GAMEREC_DB")
    os.environ["GAMEREC_DB"] = str(db)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("GAMEREC_DB", None)
        else:
            os.environ["GAMEREC_DB"] = old


_COMPONENTS: list[Any] = []


def _app_test() -> Any:
    """A new AppTest session of the dashboard, sharing one scan of the installed Streamlit components.

    A new AppTest scans every installed package for Streamlit components on its first run (0.2-0.8 s
    here); a running server does that once at start, never per visitor, so the scan is done once for
    the whole benchmark and kept out of every page's time.
    """
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=600)
    if not _COMPONENTS:
        try:
            from streamlit.components.v2.component_manager import BidiComponentManager
        except ImportError:  # an older Streamlit: no component scan to share
            return at
        manager = BidiComponentManager()
        manager.discover_and_register_components(start_file_watching=False)
        _COMPONENTS.append(manager)
    if hasattr(at, "_bidi_component_manager"):
        at._bidi_component_manager = _COMPONENTS[0]
    return at


def _page_run(page: str | None, clock: Callable[[], float] = time.perf_counter,
              params: dict[str, str] | None = None) -> tuple[float, float, Any]:
    """One page's script run in a new session, as (wall seconds, CPU seconds of this process, AppTest):
    the Overview (the default page) as the session's first run, any other page switched to after it
    (AppTest needs one run before a switch), opened with the query ``params`` (a link).  The CPU figure
    is the one to compare on a busy machine: AppTest's run also waits, polling, for the script thread."""
    at = _app_test()
    for k, v in (params or {}).items():
        at.query_params[k] = v
    if page is not None:
        at.run()
        at.switch_page(page)
    c0, t0 = time.process_time(), clock()
    at.run()
    return clock() - t0, time.process_time() - c0, at


def _pages(db: Path, warm_runs: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with _env(db):
        for name, page, params in PAGES:
            cold, cold_cpu, at = _page_run(page, params=params)
            if at.exception:
                rows.append({"metric": f"page {name}", "value": "failed", "unit": "",
                             "detail": str(at.exception[0].value)[:200]})
                continue
            runs = [_page_run(page, params=params)[:2] for _ in range(warm_runs)]
            warm, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
            rows.append({"metric": f"page {name}, after first load", "value": warm * 1000, "unit": "ms",
                         "detail": f"AppTest script run, new session (best of {warm_runs}; CPU {cpu * 1000:.0f} ms); "
                                   f"first load {cold * 1000:.0f} ms (CPU {cold_cpu * 1000:.0f} ms)"})
    return rows


def _steps(db: Path, per_title: int) -> list[dict[str, Any]]:
    from analytics import queries
    from analytics.review import Stepper, record_for_game
    from dashboard import boards, charts

    rng = random.Random(7)
    rows = []
    for title in queries.run(db, queries.titles):
        gid = queries.run(db, queries.game_list, title=title, limit=1).get_column("game_id")[0]
        t0 = time.perf_counter()
        record = queries.run(db, record_for_game, game_id=gid)
        stepper = Stepper(record)
        names = {str(p["id"]): str(p.get("name") or p["id"]) for p in record.players}
        timeline = queries.run(db, queries.game_timeline, game_id=gid)
        spec = charts.score_timeline(timeline, 0, [], names).to_dict()
        open_s = time.perf_counter() - t0
        times = []
        for _ in range(per_title):
            seq = rng.randrange(len(stepper))
            t1 = time.perf_counter()
            step = stepper.step(seq)
            boards.render(title, step.snapshot, names)
            charts.with_step(spec, seq)
            times.append(time.perf_counter() - t1)
        times.sort()
        rows.append({
            "metric": f"review step {title}", "value": statistics.median(times) * 1000, "unit": "ms",
            "detail": f"replay + board + chart marker, median of {per_title}, "
                      f"p95 {times[int(0.95 * (len(times) - 1))] * 1000:.1f} ms; {len(stepper)} events; "
                      f"opening the game {open_s * 1000:.0f} ms",
        })
    return rows


def _review_rerun(db: Path, clicks: int) -> dict[str, Any]:
    with _env(db):
        at = _app_test()
        at.run()
        at.switch_page("views/game_review.py").run()
        times = []
        for _ in range(clicks):
            t0 = time.perf_counter()
            at.button(key="review_next").click().run()
            times.append(time.perf_counter() - t0)
        failed = bool(at.exception)
    if failed:
        return {"metric": "review Next click", "value": "failed", "unit": "", "detail": str(at.exception[0].value)}
    return {"metric": "review Next click (page rerun)", "value": statistics.median(times) * 1000, "unit": "ms",
            "detail": f"Game review rerun after Next (AppTest), median of {clicks}"}


def _quiet_streamlit() -> None:
    """No "missing ScriptRunContext" / "No runtime found" warnings: AppTest and the caches are
    used outside ``streamlit run`` on purpose here.  (A filter, because AppTest resets levels.)"""
    import logging

    for name in ("streamlit.runtime.scriptrunner_utils.script_run_context",
                 "streamlit.runtime.caching.cache_data_api", "streamlit.runtime.caching.cache_resource_api"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _DropWarnings) for f in logger.filters):
            logger.addFilter(_DropWarnings())


class _DropWarnings:
    def filter(self, record: Any) -> bool:
        return bool(record.levelno >= 40)


def run(quick: bool, n_games: int | None = None, base_games: int | None = None) -> list[dict[str, Any]]:
    """Benchmark rows: ``{"metric", "value", "unit", "detail"}``."""
    _quiet_streamlit()
    n = n_games or (QUICK_GAMES if quick else FULL_GAMES)
    base = base_games or (100 if quick else 1_000)
    with tempfile.TemporaryDirectory(prefix="gamerec-dash-bench-") as tmp:
        db = Path(tmp) / "dash.duckdb"
        built = build_database(db, n, base, pool=3 if quick else None)
        rows: list[dict[str, Any]] = [{
            "metric": "dashboard database", "value": built["games"], "unit": "games",
            "detail": f"{built['base']:,} simulated games ingested ({built['ingest_s']:.1f} s), copied to "
                      f"{built['games']:,} in {built['copy_s']:.1f} s; {built['bytes'] / 2**20:,.0f} MiB",
        }]
        rows += _pages(db, 2 if quick else 3)
        rows += _steps(db, 10 if quick else 30)
        rows.append(_review_rerun(db, 5 if quick else 10))
    return rows


if __name__ == "__main__":
    import sys

    for row in run("--quick" in sys.argv):
        value = row["value"]
        shown = f"{value:,.1f}" if isinstance(value, float) else f"{value}"
        print(f"{row['metric']:<45} {shown:>12} {row['unit']:<6} {row['detail']}")
