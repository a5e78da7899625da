"""Copenhagen games imported from BGA on the dashboard: cards the log does not show are drawn
face down with their count, never as a colour."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dashboard import boards
from dashboard.titles.copenhagen import hand_html, hand_text
from ingest.bga import import_file
from ingest.pipeline import ingest
from replay.games import get_game
from replay.replayer import state_at

from .test_pages import open_page

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs" / "copenhagen"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/copenhagen")
FILES = sorted(LOGS.glob("*.log.json.gz"))[:2] if LOGS.is_dir() else []
needs_logs = pytest.mark.skipif(not FILES, reason=f"the shared Copenhagen BGA logs are not at {LOGS}")


def test_unknown_cards_are_face_down_with_a_count() -> None:
    assert hand_html({"red": 2, "blue": 0, "?": 3}).count("face down") == 1
    assert "3 face down" in hand_html({"red": 2, "?": 3}) and "#c0392b" in hand_html({"red": 2, "?": 3})
    assert hand_text({"red": 2, "yellow": 0, "?": 1}) == "2 red, 1 face down"
    s = get_game("copenhagen").initial_state(["p1", "p2"], {})
    s.apply_chance({"draw": "facade", "items": ["red", None, "blue", "blue", "green", "purple", "yellow"]})
    s.apply_chance({"draw": "facade", "items": ["red", "red"]})
    s.apply_chance({"draw": "facade", "items": [None, None, None]})
    view = boards.render("copenhagen", s.snapshot(), {"p1": "Ana", "p2": "Ben"})
    html = view.html or ""
    assert html.count("3 face down") == 1 and html.count("▮ face down") == 1  # p2's hand, harbour slot 1
    rows = {r["player"]: r for r in view.resources}
    assert rows["Ben (p2)"]["hand"] == "3 face down" and rows["Ben (p2)"]["cards in hand"] == 3
    assert rows["Ana (p1)"]["hand"] == "2 red"


@needs_logs
def test_an_imported_game_shows_the_hands_as_the_viewer_knew_them() -> None:
    rec = import_file(FILES[0]).record
    state = state_at(rec, len(rec.players) + 3)  # the setup and the first moves: no hand card shown yet
    snap = state.snapshot()
    view = boards.render("copenhagen", snap, {p["id"]: p["name"] for p in rec.players})
    html = view.html or ""
    unknown = {pid: p["hand"].get("?", 0) for pid, p in snap["players"].items()}
    assert all(unknown.values())
    for n in unknown.values():
        if n:
            assert re.search(rf"▮ {n} face down|▮ face down", html)
    for row, pid in zip(view.resources, snap["players"]):
        assert row["cards in hand"] == sum(snap["players"][pid]["hand"].values())


@needs_logs
def test_game_review_opens_on_an_imported_copenhagen_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "cph.duckdb"
    s = ingest([str(f) for f in FILES], db, workers=0, publish_every=-1)
    assert s.counts.new == len(FILES) and s.counts.quarantined == 0
    rec = import_file(FILES[0]).record
    open_page(db, "game_review", monkeypatch, game=rec.id, seq="30")
