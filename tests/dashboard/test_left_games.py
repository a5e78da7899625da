"""Games a player left (BGA's zombies): counted as games, left out of win rates, scores and strategy
figures, as BGA leaves them out of its statistics (``analytics.distinct.PLAYED_OUT``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from analytics import players, stats
from analytics import queries as q
from analytics.db import connect_readonly
from analytics.queries import run
from ingest.pipeline import ingest

from .test_pages import open_page, texts

LOGS = Path(__file__).resolve().parents[1] / "ingest" / "bga_logs" / "coal_baron"
LEFT = LOGS / "coalbaron_2p_seed22018.log.json.gz"      # the first seat left at a draw-five
PLAYED = LOGS / "coalbaron_3p_seed42204.log.json.gz"    # played to the end by all three


def conceded(to: Path) -> Path:
    """The first 20 packets of :data:`LEFT`, then the second seat concedes (BGA's ``playerConcedeGame``
    and its end of game, which ranks the seat who conceded last)."""
    raw: dict[str, Any] = json.loads(gzip.decompress(LEFT.read_bytes()))
    logs = raw["data"]["logs"]
    end = next(n for n in logs[-1]["data"] if n["type"] == "gameStateChange" and n["args"].get("id") == 99)
    end["args"]["args"]["table"]["concede"] = True
    for row in end["args"]["args"]["result"]:  # the scores so far (none yet), and who conceded
        row["zombie"], row["concede"], row["score"] = 0, int(row["player"] == "84100182"), "0"
        row["rank"] = 2 if row["player"] == "84100182" else 1
    last = dict(logs[19], packet_id=str(int(logs[19]["packet_id"]) + 1), move_id=str(int(logs[19]["move_id"]) + 1),
                data=[{"uid": "concede1", "type": "playerConcedeGame", "log": "", "args": {"player_name": "Birch18"}},
                      end])
    raw["data"]["logs"] = [*logs[:20], last]
    for packet in raw["data"]["logs"]:  # another table
        packet["table_id"] = 900099999
        packet["channel"] = packet["channel"].replace(str(900022018), "900099999")
    out = to / "coalbaron_2p_conceded.log.json.gz"
    out.write_bytes(gzip.compress(json.dumps(raw).encode()))
    return out


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("left")
    path = tmp / "g.duckdb"
    ingest([str(LEFT), str(PLAYED), str(conceded(tmp))], path, workers=0, publish_every=0)
    return path


def test_games_a_player_left_or_conceded_are_games_but_not_in_the_statistics(db: Path) -> None:
    assert run(db, q.summary)["games"] == 3 and run(db, q.summary)["left"] == 2
    assert run(db, q.title_game_counts, title="coal_baron") == {"games": 3, "complete": 2, "finished": 1, "left": 2}
    rates = run(db, q.seat_win_rates)
    assert rates.get_column("player_count").unique().to_list() == [3]  # neither two-player game is there
    assert run(db, q.title_player_counts, title="coal_baron") == [(3, 1)]
    assert set(run(db, q.breakdown_by_rank, title="coal_baron").get_column("rank")) == {1, 2, 3}
    con = connect_readonly(str(db))
    try:
        assert stats.overview(con)["left_table"][0] == 2
        assert set(stats.win_rate_by_seat(con).get_column("player_count")) == {3}
    finally:
        con.close()


def test_a_concession_is_a_loss_in_a_persons_record(db: Path) -> None:
    """Our rules never reach the end of a conceded game: its ranks are BGA's, who ranks the seat that
    conceded last; a person's record counts it (the statistics do not, above)."""
    seats = run(db, lambda con: con.execute(
        "SELECT p.player_id, p.rank, p.won, g.status, g.winner FROM players p JOIN games g USING (game_id) "
        "WHERE g.result_end = 'concede' ORDER BY p.seat").fetchall())
    assert seats == [("84100181", 1, True, "incomplete", "84100181"), ("84100182", 2, False, "incomplete", "84100181")]
    overall = run(db, players.record, player_id="84100182")["overall"].row(0, named=True)
    assert (overall["played"], overall["games"], overall["wins"]) == (2, 2, 1)  # the table the other left: a win


def test_the_pages_say_what_they_leave_out(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    said = "2 games in which a player left the table or conceded are not counted here"
    assert said in texts(open_page(db, None, monkeypatch))
    at = open_page(db, "strategy", monkeypatch)
    at.selectbox(key="strategy_title").select("coal_baron").run()
    assert said in texts(at)
