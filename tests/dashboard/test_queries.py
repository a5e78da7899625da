"""The analytics queries behind the dashboard, on a real ingested fixture database."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from analytics import queries as q
from analytics.queries import DatabaseMissing, run

from .conftest import DIVERGED_ID, TITLES


def test_summary_and_games_by_title(sample_db: Path) -> None:
    s = run(sample_db, q.summary)
    assert s["games"] == 3 * len(TITLES)
    assert s["diverged"] == 1
    assert s["quarantined"] == 1
    df = run(sample_db, q.games_by_title_status)
    per_title = df.group_by("title").agg(pl.col("games").sum())
    assert dict(per_title.iter_rows()) == {t: 3 for t in TITLES}
    assert set(df.get_column("status")) == {"complete", "diverged"}


def test_titles_and_filter_options(sample_db: Path) -> None:
    assert run(sample_db, q.titles) == sorted(TITLES)
    opts = run(sample_db, q.filter_options)
    assert opts["title"] == sorted(TITLES)
    assert "diverged" in opts["status"]


def test_top_scores_are_sorted_and_filterable(sample_db: Path) -> None:
    top = run(sample_db, q.top_scores, limit=5)
    scores = top.get_column("final_score").to_list()
    assert scores == sorted(scores, reverse=True) and len(scores) == 5
    only = run(sample_db, q.top_scores, limit=50, title="copenhagen")
    assert set(only.get_column("title")) == {"copenhagen"}


def test_game_list_filters(sample_db: Path) -> None:
    everything = run(sample_db, q.game_list)
    assert everything.height == 3 * len(TITLES)
    diverged = run(sample_db, q.game_list, status="diverged")
    assert diverged.get_column("game_id").to_list() == [DIVERGED_ID]
    two = run(sample_db, q.game_list, player_count=2)
    assert two.height and set(two.get_column("player_count")) == {2}
    found = run(sample_db, q.game_list, search="-000002")
    assert found.height == len(TITLES) and all(g.endswith("-000002") for g in found.get_column("game_id"))
    # paging: every game once over the pages, each page knowing how many match in all
    pages = [run(sample_db, q.game_list, limit=4, offset=k) for k in range(0, everything.height, 4)]
    assert [g for p in pages for g in p.get_column("game_id")] == everything.get_column("game_id").to_list()
    assert {int(p.get_column("total")[0]) for p in pages} == {everything.height}


def test_user_text_is_a_parameter_not_sql(sample_db: Path) -> None:
    hostile = "x'; DROP TABLE games; --"
    assert run(sample_db, q.game_list, search=hostile).is_empty()
    assert run(sample_db, q.game_header, game_id=hostile) is None
    assert run(sample_db, q.summary)["games"] == 3 * len(TITLES)


def test_score_distribution_counts_every_finished_player(sample_db: Path) -> None:
    dist = run(sample_db, q.score_distribution, bins=10)
    players = run(sample_db, q.summary)["player_seats"]
    assert int(dist.get_column("players").sum()) == players
    assert (dist.get_column("bin_end") > dist.get_column("bin_start")).all()


def test_seat_win_rates(sample_db: Path) -> None:
    rates = run(sample_db, q.seat_win_rates)
    assert rates.get_column("seat").min() == 1
    assert ((rates.get_column("win_rate") >= 0) & (rates.get_column("win_rate") <= 1)).all()
    first = rates.filter(pl.col("seat") == 1)
    # every finished game once: the complete ones and the one whose only divergence is an observation
    finished = sum(run(sample_db, q.title_game_counts, title=t)["finished"] for t in TITLES)
    assert int(first.get_column("games").sum()) == finished == 3 * len(TITLES)


def test_game_detail_queries(sample_db: Path) -> None:
    header = run(sample_db, q.game_header, game_id=DIVERGED_ID)
    assert header is not None and header["status"] == "diverged"
    players = run(sample_db, q.game_players, game_id=DIVERGED_ID)
    assert players.get_column("seat").to_list() == list(range(1, players.height + 1))
    events = run(sample_db, q.game_events, game_id=DIVERGED_ID)
    assert events.get_column("seq").to_list() == list(range(header["n_events"]))
    timeline = run(sample_db, q.game_timeline, game_id=DIVERGED_ID)
    assert timeline.get_column("seq").max() == header["n_events"]
    divs = run(sample_db, q.game_divergences, game_id=DIVERGED_ID)
    assert divs.height >= 1 and divs.get_column("kind")[0] == "observation_mismatch"
    assert divs.get_column("seq")[0] == header["first_divergence_seq"]
    assert run(sample_db, q.game_record_raw, game_id=DIVERGED_ID).startswith("{")


def test_diverged_games_first_divergence(sample_db: Path) -> None:
    games = run(sample_db, q.diverged_games)
    assert games.get_column("game_id").to_list() == [DIVERGED_ID]
    row = games.row(0, named=True)
    assert row["kind"] == "observation_mismatch"
    assert int(row["recorded"]) == int(row["replayed"]) + 1
    assert run(sample_db, q.diverged_games, kind="illegal_move").is_empty()
    kinds = run(sample_db, q.divergence_kinds)
    assert kinds.get_column("games").to_list() == [1]
    keys = run(sample_db, q.divergence_keys)
    assert keys.select("kind", "what", "games").rows() == [("observation_mismatch", "score", 1)]


def test_breakdowns_sum_to_final_scores(sample_db: Path) -> None:
    for title in TITLES:
        by_rank = run(sample_db, q.breakdown_by_rank, title=title)
        assert by_rank.height and by_rank.get_column("rank").min() == 1
        vs = run(sample_db, q.breakdown_winners_vs_rest, title=title)
        assert set(vs.get_column("group")) <= {"winners", "others"}
        edge = run(sample_db, q.category_edge, title=title)
        assert set(edge.columns) == {"category", "winners", "others", "edge", "games"}
    gid = run(sample_db, q.game_list, title=TITLES[0], status="complete").get_column("game_id")[0]
    named = run(sample_db, q.game_breakdown_named, game_id=gid)
    players = run(sample_db, q.game_players, game_id=gid)
    totals = named.group_by("rank").agg(pl.col("points").sum()).sort("rank")
    assert sorted(totals.get_column("points").to_list(), reverse=True) == sorted(
        players.get_column("final_score").to_list(), reverse=True)


@pytest.mark.skipif("coal_baron" not in TITLES, reason="no Coal Baron engine")
def test_coal_baron_queries(sample_db: Path) -> None:
    pts = run(sample_db, q.shift_points)
    assert set(pts.get_column("shift")) <= {1, 2, 3} and pts.height
    deciders = run(sample_db, q.shift_deciders)
    assert deciders.height and deciders.get_column("games").max() <= 3
    gid = run(sample_db, q.shift_games)[0]
    ranks = run(sample_db, q.shift_rankings_of_game, game_id=gid)
    assert ranks.height and ranks.get_column("rank").min() == 1


@pytest.mark.skipif("pax_pamir" not in TITLES, reason="no Pax Pamir engine")
def test_pax_pamir_queries(sample_db: Path) -> None:
    success = run(sample_db, q.dominance_success_by_check)
    if success.is_empty():
        pytest.skip("the simulated games reached no dominance check")
    assert (success.get_column("successful") <= success.get_column("checks")).all()
    gid = run(sample_db, q.dominance_games)[0]
    checks = run(sample_db, q.dominance_checks_of_game, game_id=gid)
    assert checks.height
    loyalty = run(sample_db, q.pax_final_loyalty)
    for _, part in loyalty.group_by("group"):
        assert part.get_column("share").sum() == pytest.approx(1.0)


def test_title_game_counts(sample_db: Path) -> None:
    counts = run(sample_db, q.title_game_counts, title=DIVERGED_ID.split("-")[1])
    assert counts == {"games": 3, "complete": 2, "finished": 3, "left": 0}
    assert run(sample_db, q.title_game_counts, title="chess") == {"games": 0, "complete": 0, "finished": 0, "left": 0}


def test_copenhagen_lines(sample_db: Path) -> None:
    lines = run(sample_db, q.copenhagen_lines)
    assert set(lines.get_column("line")) == {"row", "column"}
    assert (lines.get_column("games") <= 3).all()


def test_missing_tables_give_empty_frames(tmp_path: Path) -> None:
    db = tmp_path / "bare.duckdb"
    duckdb.connect(str(db)).close()
    assert run(db, q.summary)["games"] == 0
    for fn in (q.games_by_title_status, q.score_distribution, q.seat_win_rates, q.divergence_kinds,
               q.dominance_success_by_check, q.shift_points, q.copenhagen_lines, q.quarantined):
        assert run(db, fn).is_empty()
    assert run(db, q.titles) == []
    assert run(db, q.game_header, game_id="x") is None


def test_missing_database(tmp_path: Path) -> None:
    with pytest.raises(DatabaseMissing):
        run(tmp_path / "nothing.duckdb", q.summary)


def test_db_version_changes_when_the_ingest_publishes(sample_records: Path, tmp_path: Path) -> None:
    from ingest.pipeline import ingest

    db = tmp_path / "v.duckdb"
    assert q.db_version(db) == (0,)
    ingest([str(next(sample_records.iterdir()))], db, workers=0, publish_every=0)
    v1 = q.db_version(db)
    ingest([str(sample_records)], db, workers=0, publish_every=0)
    assert q.db_version(db) != v1


def test_reading_while_a_writer_holds_the_database(sample_records: Path, tmp_path: Path) -> None:
    from ingest.pipeline import ingest

    db = tmp_path / "busy.duckdb"
    ingest([str(sample_records)], db, workers=0, publish_every=0)
    writer = duckdb.connect(str(db))  # as an ingest in progress would
    try:
        writer.execute("DELETE FROM games")  # not yet published: readers still see the snapshot
        assert run(db, q.summary)["games"] == 3 * len(TITLES)
    finally:
        writer.close()


def test_dashboard_shows_the_last_result_while_the_database_is_busy(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboard import data

    monkeypatch.setenv("GAMEREC_DB", str(sample_db))
    first = data.q("summary")

    def busy(*args: object, **kwargs: object) -> None:
        raise q.DatabaseBusy("locked")

    monkeypatch.setattr(data, "_cached", busy)
    assert data.q("summary") == first
    with pytest.raises(q.DatabaseBusy):
        data.q("top_scores", limit=3)  # never read before: nothing to fall back on


def _dominance_db() -> duckdb.DuckDBPyConnection:
    """Three games: final checks at check 2, 3 and 4 (the 4th card after fewer resolutions), two not final."""
    from ingest.schema import create_schema

    con = duckdb.connect()
    create_schema(con)
    rows = [  # game, seq, check_no, is_final, successful
        ("a", 10, 1, False, False), ("a", 20, 2, True, True),
        ("b", 10, 1, False, True), ("b", 30, 3, True, False),
        ("c", 10, 1, False, False), ("c", 20, 2, False, False), ("c", 40, 4, True, True),
    ]
    for gid in ("a", "b", "c"):
        con.execute("INSERT INTO games (game_id, title, source_kind, status) VALUES (?, 'pax_pamir', 'simulated', "
                    "'complete')", [gid])
    for gid, seq, no, final, ok in rows:
        for player in ("p1", "p2"):
            con.execute("INSERT INTO pax_pamir_dominance_checks (game_id, seq, check_no, is_final, successful, "
                        "player_id, points) VALUES (?, ?, ?, ?, ?, ?, 1)", [gid, seq, no, final, ok, player])
    return con


def test_dominance_success_puts_every_final_check_in_one_group() -> None:
    df = q.dominance_success_by_check(_dominance_db())
    assert df.select("check", "checks", "successful").rows() == [
        ("check 1", 3, 1), ("check 2", 1, 0), ("final check", 3, 2)]
    assert df.get_column("success_rate").max() <= 1.0
    from dashboard import charts

    spec = charts.dominance_success(df).to_dict()
    assert spec["layer"][0]["encoding"]["y"]["stack"] is None


def test_strategy_counts_every_finished_game_and_no_unfinished_one() -> None:
    """Three finished games whose winners were each loyal elsewhere, one unfinished game: 3 games, not 1 or 4."""
    con = _dominance_db()  # games a, b, c
    con.execute("DELETE FROM pax_pamir_dominance_checks")
    loyalty = {("a", "p1"): "afghan", ("a", "p2"): "russian", ("b", "p1"): "british", ("b", "p2"): "afghan",
               ("c", "p1"): "russian", ("c", "p2"): "british", ("d", "p1"): "afghan", ("d", "p2"): "afghan"}
    for (gid, pid), coalition in loyalty.items():
        con.execute("INSERT INTO pax_pamir_dominance_checks (game_id, seq, check_no, is_final, successful, "
                    "player_id, loyalty, influence, points) VALUES (?, 5, 1, false, false, ?, ?, 1, 0)",
                    [gid, pid, coalition])
        won = None if gid == "d" else pid == "p1"
        con.execute("INSERT INTO players (game_id, player_id, seat, won) VALUES (?, ?, ?, ?)",
                    [gid, pid, int(pid[1]), won])
    df = q.pax_final_loyalty(con)
    assert set(df.get_column("total_games")) == {3}
    assert df.get_column("games").max() == 1
    for _, part in df.group_by("group"):
        assert part.get_column("players").sum() == 3


def test_listed_rows_carry_the_whole_count_not_the_display_limit() -> None:
    con = _dominance_db()
    for i in range(5):
        con.execute("INSERT INTO quarantine (source, line, error) VALUES ('bad.jsonl', ?, 'not valid JSON')", [i])
    shown = q.quarantined(con, limit=2)
    assert shown.height == 2 and set(shown.get_column("total")) == {5}
    for i in range(4):
        con.execute("INSERT INTO games (game_id, title, status) VALUES (?, 'copenhagen', 'diverged')", [f"g{i}"])
        for k in range(2):  # two divergences at the same event: the first is divergence_no 0
            con.execute("INSERT INTO divergences (game_id, seq, kind, message, divergence_no) "
                        "VALUES (?, 7, ?, 'm', ?)", [f"g{i}", "observation_mismatch" if k == 0 else "result_mismatch", k])
    games = q.diverged_games(con, limit=3)
    assert games.height == 3 and set(games.get_column("total")) == {4}
    assert set(games.get_column("kind")) == {"observation_mismatch"}


def test_seat_win_rates_name_the_agents_that_played_the_seat(sample_db: Path) -> None:
    rates = run(sample_db, q.seat_win_rates)
    assert rates.get_column("agents").is_not_null().all()  # every fixture game is simulated
    for row in rates.iter_rows(named=True):
        counts = [int(part.rsplit(" ", 1)[1]) for part in row["agents"].split(", ")]
        assert sum(counts) == row["games"]
        assert all(part.split(" ")[0] in ("greedy", "random") for part in row["agents"].split(", "))
    title = TITLES[0]
    by_agent = run(sample_db, q.agent_win_rates, title=title)
    assert set(by_agent.get_column("agent")) <= {"greedy", "random"} and by_agent.height
    seats = rates.filter(pl.col("title") == title).get_column("games").sum()
    assert by_agent.get_column("games").sum() == seats
