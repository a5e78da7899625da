"""Browser smoke test: start ``gamerec dashboard`` as a user would and load every page in Chromium.

Fails on any exception a page shows (Streamlit renders them as ``stException``
elements) and on a page without its title.  Screenshots go to
``/tmp/gamerec-dashboard-<page>.png``.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PAGES = [
    ("", "Overview"),
    ("review", "Game review"),
    ("breakdowns", "Score breakdowns"),
    ("dominance", "Pax Pamir dominance checks"),
    ("shifts", "Coal Baron shift rankings"),
    ("strategy", "Strategy statistics"),
    ("divergences", "Divergences"),
]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise AssertionError(f"gamerec dashboard exited with {proc.returncode}:\n{out}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the dashboard did not answer on port {port} within {timeout}s")


@pytest.fixture
def server(sample_db: Path) -> object:
    port = _free_port()
    gamerec = Path(sys.executable).with_name("gamerec")
    cmd = [str(gamerec)] if gamerec.exists() else [sys.executable, "-m", "gamerec_cli.main"]
    proc = subprocess.Popen([*cmd, "dashboard", "--db", str(sample_db), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_healthy(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _settle(page: object) -> None:
    """Wait until the script run behind the page has finished."""
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=60_000)
    page.wait_for_selector("h1", timeout=30_000)


def _wait_title(page: object, title: str) -> None:
    """Wait until the page showing is ``title`` and its script run has finished."""
    page.wait_for_function("t => document.querySelector('h1')?.innerText.trim() === t", arg=title,
                           timeout=60_000)
    _settle(page)


def test_every_page_loads_without_exception(server: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 2200})
            page.goto(server)
            for path, title in PAGES:
                if path:  # the other pages through the sidebar, as a user moves around
                    page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()
                    page.wait_for_url(re.compile(rf"/{path}(\?.*)?$"), timeout=30_000)
                _wait_title(page, title)
                page.screenshot(path=f"/tmp/gamerec-dashboard-{path or 'overview'}.png")
                errors = page.locator('[data-testid="stException"]')
                assert errors.count() == 0, f"/{path}: {errors.first.inner_text()}"
                assert page.get_by_text("Page not found").count() == 0, path
            # a deep link loads on its own too
            page.goto(f"{server}/divergences")
            _wait_title(page, "Divergences")
            # Game review reacts in the browser: the Next button moves one event on
            page.goto(f"{server}/review")
            _wait_title(page, "Game review")
            page.wait_for_selector("text=Event 0 of", timeout=30_000)
            page.wait_for_selector(".gr-board", timeout=30_000)  # the board view is drawn
            page.wait_for_selector(".vega-embed", timeout=30_000)  # and the score timeline
            page.get_by_role("button", name="Next").click()
            page.wait_for_selector("text=Event 1 of", timeout=30_000)
            _settle(page)
            assert page.locator('[data-testid="stException"]').count() == 0
        finally:
            browser.close()
