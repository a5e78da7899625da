"""Game review's win chances: chart, turning points, alternatives (AppTest and the browser)."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from analytics import queries as q
from analytics.queries import run
from ingest.pipeline import ingest
from ingest.winchances import run as analyse_into
from replay.analysis import Settings
from replay.games import get_game
from replay.record import dumps, iter_records
from replay.simulate import simulate_one

from .browser import exceptions, wait_title
from .test_pages import open_page, texts


def ingested_and_analysed(root: Path, recs: list[Any], settings: Settings, analysed: int) -> Path:
    """A database of ``recs`` (ingested from one file, as a user would) with the first ``analysed`` of
    them analysed with ``settings``."""
    path = root / "games.jsonl.gz"
    with gzip.open(path, "wb") as fh:
        for r in recs:
            fh.write(dumps(r) + b"\n")
    db = root / "games.duckdb"
    ingest([str(path)], db, workers=0, publish_every=0)
    stored = [item.record for item in iter_records([str(path)]) if item.record is not None]  # their sha256 known
    assert not analyse_into(stored[:analysed], db, settings, workers=0).errors
    return db


@pytest.fixture(scope="module")
def analysed_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    recs = [simulate_one(get_game("copenhagen"), 2, 21, i) for i in range(2)]
    db = ingested_and_analysed(tmp_path_factory.mktemp("wc"), recs, Settings(
        rollouts=8, agent="random", explain=2, alternatives=4, method="rollouts"), 1)
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
    assert "95% interval (%)" in table.columns  # rollouts: a sampled estimate
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
    assert f"gamerec analyse PATH --id {plain}" in texts(at)


def test_win_chance_chart_in_the_browser(analysed_db: tuple[Path, str, str], dashboard_server: Callable[[Path], str],
                                        chromium: Any) -> None:
    db, analysed, _ = analysed_db
    server = dashboard_server(db)
    page = chromium.new_page(viewport={"width": 1400, "height": 3000})
    page.goto(f"{server}/review?game={analysed}&seq=5")
    wait_title(page, "Game review")
    page.wait_for_selector("text=Win chances", timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('.vega-embed').length >= 2",
                           timeout=30_000)  # the score chart and the win-chance chart
    seq = int(run(db, q.game_alternatives, game_id=analysed)["seq"][0])  # a fall, explained
    page.get_by_role("button", name=re.compile(rf"^Event {seq}$")).first.click()
    page.wait_for_selector("text=The alternatives at event", timeout=30_000)
    page.screenshot(path="/tmp/gamerec-dashboard-win-chances.png", full_page=True)
    assert not exceptions(page)


def test_win_chance_chart_shares_the_step_axis_and_rule() -> None:
    import polars as pl

    from dashboard import charts

    df = pl.DataFrame({"seq": [-1, -1, 10, 10], "player_id": ["p1", "p2", "p1", "p2"],
                       "chance": [0.5, 0.5, 0.8, 0.2], "ci_low": [0.4, 0.4, 0.7, 0.1],
                       "ci_high": [0.6, 0.6, 0.9, 0.3], "rollouts": [64] * 4, "mover": ["p1"] * 4,
                       "move_seq": [0, 0, 11, 11]})
    tps = pl.DataFrame({"seq": [11], "player_id": ["p1"], "after_seq": [10], "chance_before": [0.5],
                        "chance_after": [0.8], "delta": [0.3], "direction": ["rise"], "move": ["x"],
                        "verdict": ["Ana did x: Ana's chance rose from 50% to 80%"]})
    spec = charts.with_step(charts.win_chances(df, tps, 40, 0, {"p1": "Ana"}).to_dict(), 7)
    assert spec["datasets"][charts.STEP_DATA] == [{"seq": 7}]
    assert len(spec["layer"]) == 4
    line = spec["layer"][1]
    end = 40 + charts.final_width(40)  # the score chart's axis, its final step included
    assert line["encoding"]["x"]["scale"]["domain"] == [0, end]
    rows = next(v for k, v in spec["datasets"].items() if k != charts.STEP_DATA and len(v) == 6)
    assert min(r["seq"] for r in rows) == 0 and max(r["seq"] for r in rows) == end  # clipped, closed at the end
    # issue 26: a fixed plot height whatever the legend takes, nothing drawn past 100%
    assert spec["height"] == 220 and spec["autosize"] == {"type": "fit-x", "contains": "padding"}
    for layer in spec["layer"][:3]:
        assert layer["mark"]["clip"] is True
        assert layer["encoding"]["y"]["scale"] == {"domain": [0, 1], "clamp": True}
    assert {r["player"] for r in rows} == {"Ana (p1)", "p2"}
