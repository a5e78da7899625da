"""Games a player left (BGA's zombies): counted as games, left out of win rates, scores and strategy
figures, as BGA leaves them out of its statistics (``analytics.distinct.PLAYED_OUT``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics import queries as q
from analytics import stats
from analytics.db import connect_readonly
from analytics.queries import run
from ingest.pipeline import ingest

from .test_pages import open_page, texts

LOGS = Path(__file__).resolve().parents[1] / "ingest" / "bga_logs" / "coal_baron"
LEFT = LOGS / "coalbaron_2p_seed22018.log.json.gz"      # the first seat left at a draw-five
PLAYED = LOGS / "coalbaron_3p_seed42204.log.json.gz"    # played to the end by all three


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("left") / "g.duckdb"
    ingest([str(LEFT), str(PLAYED)], path, workers=0, publish_every=0)
    return path


def test_a_game_a_player_left_is_a_game_but_not_in_the_statistics(db: Path) -> None:
    assert run(db, q.summary)["games"] == 2 and run(db, q.summary)["left"] == 1
    assert run(db, q.title_game_counts, title="coal_baron") == {"games": 2, "complete": 2, "finished": 1, "left": 1}
    rates = run(db, q.seat_win_rates)
    assert rates.get_column("player_count").unique().to_list() == [3]  # the two-player game a player left is not there
    assert run(db, q.title_player_counts, title="coal_baron") == [(3, 1)]
    assert set(run(db, q.breakdown_by_rank, title="coal_baron").get_column("rank")) == {1, 2, 3}
    con = connect_readonly(str(db))
    try:
        assert stats.overview(con)["left_table"][0] == 1
        assert set(stats.win_rate_by_seat(con).get_column("player_count")) == {3}
    finally:
        con.close()


def test_the_pages_say_what_they_leave_out(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    said = "1 game in which a player left the table is not counted here"
    assert said in texts(open_page(db, None, monkeypatch))
    at = open_page(db, "strategy", monkeypatch)
    at.selectbox(key="strategy_title").select("coal_baron").run()
    assert said in texts(at)
