"""analytics.db (read-only snapshot connections) and analytics.stats (the `gamerec stats` queries)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import orjson
import pytest
from click.testing import CliRunner

from analytics import stats
from analytics.db import NoDatabase, connect_readonly, snapshot_path, snapshot_version
from gamerec_cli.main import main
from ingest.pipeline import ingest
from replay.record import dumps, write_records
from replay.replayer import replay
from replay.simulate import simulate


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stats")
    recs = list(simulate("toy", 50, 41))
    lines = [dumps(r) for r in recs]
    # one record that diverges (a wrong observation) and one cut short (incomplete)
    obj = orjson.loads(lines[0])
    obs = next(e for e in obj["events"] if "observe" in e and "score" in e["observe"])
    obs["observe"]["score"]["p1"] += 7
    obj["id"] = "diverged-1"
    cut = orjson.loads(lines[1])
    cut["id"], cut["events"] = "cut-1", cut["events"][:3]
    del cut["result"]
    (folder / "r.jsonl").write_bytes(b"\n".join(lines + [orjson.dumps(obj), orjson.dumps(cut)]) + b"\n")
    path = folder / "g.duckdb"
    ingest([str(folder / "r.jsonl")], path, workers=0, publish_every=-1)
    return path


def test_connect_readonly_reads_the_snapshot_not_the_database(db: Path) -> None:
    assert snapshot_path(db) == db.with_name("g.snapshot.duckdb")
    con = connect_readonly(db)
    path = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
    assert path == (str(snapshot_path(db)),)
    assert con.execute("SELECT count(*) FROM games").fetchone() == (52,)
    with pytest.raises(duckdb.Error):
        con.execute("CREATE TABLE x (a INTEGER)")
    # while a reader holds the snapshot, the database itself stays free for a writer
    w = duckdb.connect(str(db))
    w.close()
    con.close()
    assert snapshot_version(db) is not None


def test_no_database_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(NoDatabase, match="gamerec ingest"):
        connect_readonly(tmp_path / "missing.duckdb")
    assert snapshot_version(tmp_path / "missing.duckdb") is None


def test_stats_queries(db: Path) -> None:
    con = connect_readonly(db)
    by_status = stats.games_by_title_status(con)
    assert by_status.rows() == [("toy", "complete", 50, round(100 * 50 / 52, 1)),
                                ("toy", "diverged", 1, round(100 / 52, 1)),
                                ("toy", "incomplete", 1, round(100 / 52, 1))]
    div = stats.divergences_by_kind(con)
    assert div.select("title", "kind", "games", "first_in_game").rows() == [("toy", "observation_mismatch", 1, 1)]

    # win rate by seat, recomputed by hand from the replays of the finished games
    recs = list(simulate("toy", 50, 41))
    wins: dict[tuple[int, int], list[int]] = {}
    for r in recs:
        rep = replay(r)
        for seat, p in enumerate(r.player_ids, start=1):
            wins.setdefault((len(r.players), seat), []).append(1 if rep.ranking[p] == 1 else 0)
    wr = stats.win_rate_by_seat(con)
    # the diverged game still finished: it counts too
    for title, n, seat, games, won, rate in wr.rows():
        base = wins[(n, seat)]
        assert title == "toy" and games in (len(base), len(base) + 1)
        assert rate == pytest.approx(won / games, abs=1e-4)
    assert sum(r[3] for r in wr.rows()) == sum(len(r.players) for r in recs) + 2

    ms = stats.mean_score_by_category(con)
    assert set(ms["category"]) == {"banked", "position"}
    assert all(lo <= mean <= hi for mean, lo, hi in ms.select("mean", "min", "max").rows())

    ov = stats.overview(con)
    assert ov.select("games", "divergences", "quarantined").row(0) == (52, 1, 0)
    # the title filter is a bound parameter: an odd title matches nothing and breaks nothing
    for fn in (stats.games_by_title_status, stats.divergences_by_kind, stats.win_rate_by_seat,
               stats.mean_score_by_category):
        assert fn(con, "x' OR '1'='1").height == 0
        assert fn(con, "toy").rows() == fn(con).rows()
    assert stats.titles(con) == ["toy"]
    con.close()


def test_stats_command(db: Path) -> None:
    res = CliRunner().invoke(main, ["stats", "--db", str(db)])
    assert res.exit_code == 0, res.output
    for heading in ("games per title and status", "divergences by kind", "win rate by seat",
                    "mean final score by category", "observation_mismatch", "incomplete"):
        assert heading in res.output, heading
    assert "quarantine (latest" not in res.output  # nothing quarantined in this database
    by_env = CliRunner().invoke(main, ["stats"], env={"GAMEREC_DB": str(db)})
    assert by_env.exit_code == 0 and by_env.output == res.output
    res = CliRunner().invoke(main, ["stats", "--db", str(db), "--game", "coal_baron"])
    assert res.exit_code == 2 and "no games of 'coal_baron'" in res.output and "toy" in res.output
    res = CliRunner().invoke(main, ["stats", "--db", str(db.with_name("none.duckdb"))])
    assert res.exit_code == 2 and "no gamerec database" in res.output


def test_stats_on_an_empty_database(tmp_path: Path) -> None:
    write_records([], tmp_path / "empty.jsonl")
    db = tmp_path / "e.duckdb"
    ingest([str(tmp_path / "empty.jsonl")], db, workers=0)
    res = CliRunner().invoke(main, ["stats", "--db", str(db)])
    assert res.exit_code == 0 and "games per title and status: none" in res.output


def test_an_open_reader_keeps_its_snapshot_and_a_new_one_sees_the_next(tmp_path: Path) -> None:
    recs = list(simulate("toy", 20, 43))
    write_records(recs[:10], tmp_path / "a.jsonl")
    write_records(recs[10:], tmp_path / "b.jsonl")
    db = tmp_path / "g.duckdb"
    ingest([str(tmp_path / "a.jsonl")], db, workers=0)
    old = connect_readonly(db)
    v1 = snapshot_version(db)
    ingest([str(tmp_path / "b.jsonl")], db, workers=0)  # the writer is not blocked by the open reader
    assert snapshot_version(db) != v1
    assert old.execute("SELECT count(*) FROM games").fetchone() == (10,)
    new = connect_readonly(db)
    assert new.execute("SELECT count(*) FROM games").fetchone() == (20,)
    old.close()
    new.close()


def test_stats_lists_the_quarantine(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(dumps(next(simulate("toy", 1, 44))) + b"\n{broken\n")
    db = tmp_path / "g.duckdb"
    ingest([str(path)], db, workers=0)
    con = connect_readonly(db)
    assert stats.quarantine(con).select("run_id", "source", "line", "kind").rows() == [(1, str(path), 2, "unreadable")]
    con.close()
    res = CliRunner().invoke(main, ["stats", "--db", str(db)])
    assert res.exit_code == 0 and "quarantine (latest runs first" in res.output and "not valid JSON" in res.output
