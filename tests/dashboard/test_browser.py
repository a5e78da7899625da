"""Browser tests: ``gamerec dashboard`` started as a user would, every page loaded in headless Chromium.

Fails on any exception a page shows (Streamlit renders them as ``stException``
elements) and on a page without its title.  Screenshots go to
``/tmp/gamerec-dashboard-<page>.png``.  The same pages on a Parquet lake's
catalog (``gamerec ingest --lake``) must show the numbers of the one-machine
database holding the same records.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .browser import exceptions, settle, wait_title
from .conftest import DIVERGED_ID, TITLES

PAGES = [
    ("", "Overview"),
    ("review", "Game review"),
    ("breakdowns", "Score breakdowns"),
    ("dominance", "Pax Pamir dominance checks"),
    ("shifts", "Coal Baron shift rankings"),
    ("strategy", "Strategy statistics"),
    ("players", "Players"),
    ("components", "Components"),
    ("divergences", "Divergences"),
    ("departures", "BGA departures"),
]


def test_every_page_loads_without_exception(sample_db: Path, dashboard_server: Callable[[Path], str],
                                            chromium: Any) -> None:
    server = dashboard_server(sample_db)
    page = chromium.new_page(viewport={"width": 1400, "height": 2200})
    page.goto(server)
    for path, title in PAGES:
        if path:  # the other pages through the sidebar, as a user moves around
            page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()
            page.wait_for_url(re.compile(rf"/{path}(\?.*)?$"), timeout=30_000)
        wait_title(page, title)
        page.screenshot(path=f"/tmp/gamerec-dashboard-{path or 'overview'}.png")
        assert not exceptions(page), f"/{path}: {exceptions(page)[0]}"
        assert page.get_by_text("Page not found").count() == 0, path
    # a deep link loads on its own too
    page.goto(f"{server}/divergences")
    wait_title(page, "Divergences")
    # Game review reacts in the browser: the Next button moves one event on
    page.goto(f"{server}/review")
    wait_title(page, "Game review")
    page.wait_for_selector("text=Event 0 of", timeout=30_000)
    page.wait_for_selector(".gr-board", timeout=30_000)  # the board view is drawn
    page.wait_for_selector(".vega-embed", timeout=30_000)  # and the score timeline
    page.get_by_role("button", name="Next").click()
    page.wait_for_selector("text=Event 1 of", timeout=30_000)
    settle(page)
    assert not exceptions(page)


# what a user reads on a few pages: the figures, and the game review of the diverged game
LAKE_PAGES = [
    ("", "Overview"),
    ("dominance", "Pax Pamir dominance checks"),
    ("divergences", "Divergences"),
    ("shifts", "Coal Baron shift rankings"),
    ("strategy", "Strategy statistics"),
    (f"review?game={DIVERGED_ID}&seq=5", "Game review"),
]


def _read_figures(page: Any) -> list[str]:
    shown = (page.locator('[data-testid="stMetric"]').all_inner_texts()
             + page.locator("h2, h3").all_inner_texts()
             + page.locator('[data-testid="stCaptionContainer"]').all_inner_texts())
    return [" ".join(t.split()) for t in shown]


def _figures(page: Any, server: str) -> dict[str, list[str]]:
    """The figures each page shows, read once the page has stopped changing.

    A page whose script has finished may still be drawing what it sent (a loaded CI machine showed the
    subheader of the dominance page before its metrics), so a page counts as read when two readings
    half a second apart agree.
    """
    seen: dict[str, list[str]] = {}
    for path, title in LAKE_PAGES:
        page.goto(f"{server}/{path}")
        wait_title(page, title)
        page.wait_for_selector('[data-testid="stMetric"], h3', timeout=30_000)
        assert not exceptions(page), f"/{path}: {exceptions(page)[0]}"
        before, now = None, _read_figures(page)
        for _ in range(40):
            if now == before:
                break
            page.wait_for_timeout(500)
            settle(page)
            before, now = now, _read_figures(page)
        seen[path] = now
    return seen


def test_the_dashboard_on_a_lake_shows_the_numbers_of_the_one_machine_database(
        sample_db: Path, sample_lake: Path, dashboard_server: Callable[[Path], str], chromium: Any) -> None:
    page = chromium.new_page(viewport={"width": 1400, "height": 2200})
    one = _figures(page, dashboard_server(sample_db))
    lake = _figures(page, dashboard_server(sample_lake))
    page.screenshot(path="/tmp/gamerec-dashboard-lake-review.png")
    overview = " ".join(lake[""])
    assert f"Games {3 * len(TITLES)}" in overview and "Diverged games 1" in overview, overview
    assert "Quarantined records 1" in overview
    assert any("Diverged games (1)" in h for h in lake["divergences"])
    assert any(c.startswith("Based on ") for c in lake["shifts"]), lake["shifts"]
    for path, _ in LAKE_PAGES:
        assert lake[path] == one[path], path
