"""The shift-rankings page on games imported from Board Game Arena logs: BGA's own majorities."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from analytics import queries as q
from analytics.queries import run
from ingest.pipeline import ingest
from replay.games import get_game

from .test_pages import open_page

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs" / "coal_baron"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/coal_baron")
FILES = sorted(LOGS.glob("*.log.json.gz"))[:3] if LOGS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"the shared Coal Baron BGA logs are not at {LOGS}")


@pytest.fixture(scope="module")
def bga_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("bga") / "bga.duckdb"
    ingest([str(f) for f in FILES], db, workers=0, publish_every=0)
    return db


def bga_majorities(path: Path) -> Counter[tuple[str, str]]:
    """(player, BGA category type) -> points, summed over the shifts, from the log itself."""
    out: Counter[tuple[str, str]] = Counter()
    for packet in json.loads(gzip.decompress(path.read_bytes()))["data"]["logs"]:
        for n in packet["data"]:
            if n["type"] == "endShiftMajority":
                out[(str(n["args"]["player_id"]), n["args"]["type"])] += int(n["args"]["p"])
    return out


BGA_TYPE = {"coal_yellow": "yellow_coal", "coal_brown": "brown_coal", "coal_grey": "grey_coal",
            "coal_black": "black_coal", "transport_barrow": "barrow", "transport_carriage": "carriage",
            "transport_motorcar": "motorcar", "transport_engine": "engine", "carts_yellow": "minecart_yellow",
            "carts_brown": "minecart_brown", "carts_grey": "minecart_grey", "carts_black": "minecart_black"}


def test_imported_games_rankings_are_bgas_and_the_page_shows_them(bga_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    games = run(bga_db, q.shift_games)
    assert len(games) == len(FILES) and all(g.startswith("bga-") for g in games)
    for path in FILES:
        table = json.loads(path.with_name(path.name.replace(".log.json.gz", ".table.json")).read_text())
        game_id = f"bga-{table['table_id']}-{table['viewer']}"
        ranks = run(bga_db, q.shift_rankings_of_game, game_id=game_id)
        assert ranks.height == len(table["players"]) * (4 + 8 + 12)
        ours: Counter[tuple[str, str]] = Counter()
        for row in ranks.iter_rows(named=True):
            if row["points"]:
                ours[(row["player_id"], BGA_TYPE[row["category"]])] += row["points"]
        assert ours == bga_majorities(path)
    at = open_page(bga_db, "coal_baron", monkeypatch)
    assert at.title[0].value == "Coal Baron shift rankings"
    for game_id in games:
        at.selectbox(key="shift_game").select(game_id).run()
        assert not at.exception and at.selectbox(key="shift_game").value == game_id
        assert any("See the board at shift 3" in str(link.label) for link in at.get("page_link"))


def test_game_review_steps_through_an_imported_game_with_face_down_tiles(bga_db: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = run(bga_db, q.shift_games)[0]
    at = open_page(bga_db, None, monkeypatch, game=game_id, seq="12")
    at.switch_page("views/game_review.py").run()
    assert not at.exception and at.slider(key="review_seq").value == 12
    html = "".join(str(getattr(el, "body", "") or getattr(el, "value", "")) for el in at.main)
    assert "face down" in html   # the factory tiles dealt at setup, which the log never names
    for seq in (40, 120, 200):
        at.slider(key="review_seq").set_value(seq).run()
        assert not at.exception and f"Event {seq} of" in "\n".join(str(m.value) for m in at.markdown)


def test_the_departures_page_counts_each_rule_and_links_its_events_to_review(bga_db: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rules = run(bga_db, q.departure_rules, title="coal_baron")
    assert rules.get_column("rule").to_list() == list(get_game("coal_baron").departure_rules)  # every declared one
    stored = run(bga_db, lambda con: con.execute(
        "SELECT rule, count(DISTINCT game_id), count(*) FROM departures GROUP BY rule").fetchall())
    counted = {r["rule"]: (r["games"], r["times"]) for r in rules.iter_rows(named=True) if r["times"]}
    assert counted == {r: (g, t) for r, g, t in stored} and rules.get_column("bga_games")[0] == len(FILES)
    at = open_page(bga_db, "departures", monkeypatch)
    assert at.title[0].value == "BGA departures" and not at.exception
    assert f"Based on {len(FILES)} Coal Baron games under BGA's rules." in [c.value for c in at.caption]
    rule = at.selectbox(key="dep_rule").value
    ex = run(bga_db, q.departure_examples, title="coal_baron", rule=rule)
    game_id, seq = ex.row(0)[0], ex.row(0)[1]
    # review marks the event and says what happened there
    at = open_page(bga_db, None, monkeypatch, game=game_id, seq=str(seq))
    at.switch_page("views/game_review.py").run()
    assert not at.exception
    assert any(f"BGA departs from the rulebook here ({rule.replace('_', ' ')})" in str(w.value) for w in at.warning)


def test_the_departures_page_without_bga_games_says_how_to_get_some(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "sim.duckdb"
    sim = Path(__file__).resolve().parents[2] / "data"
    files = sorted((sim / "coal_baron").glob("*.jsonl.gz"))
    ingest([str(f) for f in files], db, workers=0, publish_every=0)
    at = open_page(db, "departures", monkeypatch)
    assert any("No game in this database was played under BGA's rules" in str(i.value) for i in at.info)
