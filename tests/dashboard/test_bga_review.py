"""A BGA log ingested straight from its saved file shows on Game review with its table, link and viewer."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import orjson
import pytest

from analytics.queries import run
from analytics.review import bga_table, record_for_game
from ingest.pipeline import ingest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ingest"))

from paxlog import ANN, TABLE, opening_game  # noqa: E402

from .test_pages import open_page, texts  # noqa: E402


@pytest.fixture(scope="module")
def bga_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bga")
    (folder / "t.log.json.gz").write_bytes(gzip.compress(orjson.dumps(opening_game().envelope())))
    (folder / "t.table.json").write_bytes(orjson.dumps({
        "game": "paxpamir", "table_id": TABLE, "version": "c417f7127f3e", "viewer": str(ANN),
        "players": [{"id": str(ANN), "name": "Ann", "player_no": 1, "table_order": 1},
                    {"id": "91000002", "name": "Bob", "player_no": 2, "table_order": 2}]}))
    db = folder / "g.duckdb"
    s = ingest([str(folder)], db, workers=0, publish_every=-1)
    assert s.counts.new == 1 and s.counts.quarantined == 0
    return db


def test_the_bga_source_of_an_ingested_log(bga_db: Path) -> None:
    rec = run(bga_db, record_for_game, game_id=f"bga-{TABLE}")  # no private channel: the id has no viewer
    assert rec is not None
    assert bga_table(rec) == {"table_id": TABLE, "url": f"https://boardgamearena.com/table?table={TABLE}",
                              "viewer": str(ANN), "viewer_name": "Ann", "version": "c417f7127f3e", "notes": []}
    assert [p["name"] for p in rec.players] == ["Ann", "Bob"]


def test_game_review_shows_table_link_and_viewer(bga_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(bga_db, "game_review", monkeypatch)
    body = texts(at)
    assert f"Board Game Arena table [{TABLE}](https://boardgamearena.com/table?table={TABLE})" in body
    assert "as seen by **Ann**" in body


PERIKLES_NOTE = Path(__file__).resolve().parents[1] / "ingest" / "bga_logs" / "perikles" / "perikles_4p_seed20302.log.json.gz"
"""A log whose zombie's repeated picks the reveals cannot tell apart: the import settles it, with a note."""


def test_game_review_shows_what_the_import_settled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "g.duckdb"
    s = ingest([str(PERIKLES_NOTE)], db, workers=0, publish_every=-1)
    assert s.counts.new == 1
    at = open_page(db, "game_review", monkeypatch)
    shown = [i.value for i in at.info]
    assert any(v.startswith("Settled on import, where the log does not tell: packets 66, 82, 115, 136: ")
               and "the record takes the earliest 2" in v for v in shown), shown
