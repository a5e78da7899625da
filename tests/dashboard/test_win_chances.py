"""Game review's win chances: chart, turning points, alternatives (AppTest and the browser)."""

from __future__ import annotations

import gzip
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from analytics import queries as q
from analytics.queries import run
from ingest.analysis import run as analyse_into
from ingest.pipeline import ingest
from replay.analysis import Settings
from replay.games import get_game
from replay.record import dumps, iter_records
from replay.simulate import simulate_one

from .test_browser import CHROMIUM, CHROMIUM_ARGS, _free_port, _wait_healthy, _wait_title
from .test_pages import open_page, texts


@pytest.fixture(scope="module")
def analysed_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    root = tmp_path_factory.mktemp("wc")
    game = get_game("copenhagen")
    recs = [simulate_one(game, 2, 21, i) for i in range(2)]
    path = root / "cph.jsonl.gz"
    with gzip.open(path, "wb") as fh:
        for r in recs:
            fh.write(dumps(r) + b"\n")
    db = root / "wc.duckdb"
    ingest([str(path)], db, workers=0, publish_every=0)
    first = [item.record for item in iter_records([str(path)]) if item.record is not None][:1]
    analyse_into(first, db, Settings(rollouts=8, agent="random", explain=2, alternatives=4), workers=0)
    return db, recs[0].id, recs[1].id


def test_review_shows_chances_turning_points_and_alternatives(analysed_db: tuple[Path, str, str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    db, analysed, _ = analysed_db
    alts = run(db, q.game_alternatives, game_id=analysed)
    assert alts.height, "the fixture game has no explained turning point"
    seq = int(alts["seq"][0])
    at = open_page(db, "game_review", monkeypatch, game=analysed, seq=str(seq))
    assert "Win chances" in [s.value for s in at.subheader]
    page = texts(at)
    assert "Turning points" in page and ("kept" in page or "none of the" in page)
    assert f"The alternatives at event {seq}" in page
    table = at.table[-1].value
    assert "played" in table[""].tolist() and len(table) == alts.filter(alts["seq"] == seq).height
    assert any(m.value.endswith("%") for m in at.metric)  # the chances at this step
    buttons = [b for b in at.button if (b.key or "").startswith("review_tp_")]
    assert buttons
    buttons[-1].click().run()
    assert not at.exception
    assert at.slider(key="review_seq").value == int(buttons[-1].label.split()[-1])


def test_review_without_analysis_says_how_to_compute_it(analysed_db: tuple[Path, str, str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db, _, plain = analysed_db
    at = open_page(db, "game_review", monkeypatch, game=plain, seq="3")
    assert "gamerec analyse" in texts(at)


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"Chromium is not installed at {CHROMIUM}")
def test_win_chance_chart_in_the_browser(analysed_db: tuple[Path, str, str]) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    db, analysed, _ = analysed_db
    port = _free_port()
    gamerec = Path(sys.executable).with_name("gamerec")
    cmd = [str(gamerec)] if gamerec.exists() else [sys.executable, "-m", "gamerec_cli.main"]
    proc = subprocess.Popen([*cmd, "dashboard", "--db", str(db), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_healthy(port, proc)
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 3000})
                page.goto(f"http://127.0.0.1:{port}/review?game={analysed}&seq=5")
                _wait_title(page, "Game review")
                page.wait_for_selector("text=Win chances", timeout=30_000)
                page.wait_for_function("() => document.querySelectorAll('.vega-embed').length >= 2",
                                       timeout=30_000)  # the score chart and the win-chance chart
                page.get_by_role("button", name=re.compile(r"^Event \d+$")).first.click()
                page.wait_for_selector("text=The alternatives at event", timeout=30_000)
                page.screenshot(path="/tmp/gamerec-dashboard-win-chances.png", full_page=True)
                assert page.locator('[data-testid="stException"]').count() == 0
            finally:
                browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
