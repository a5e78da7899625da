"""Ingest into DuckDB: schema, counts, idempotence, replacement, quarantine, milestones, stdin."""

from __future__ import annotations

import io
import re
from pathlib import Path

import duckdb
import orjson
import pytest
from click.testing import CliRunner

import replay.replayer
from gamerec_cli.main import main
from ingest import milestones
from ingest.pipeline import ingest
from ingest.rows import parse_time
from ingest.schema import tables
from replay import ENGINE_VERSION
from replay.record import Record, dumps, loads, write_records
from replay.replayer import replay as replay_record
from replay.simulate import simulate

ARCHITECTURE_COLUMNS = {
    "games": ["game_id", "title", "source_kind", "played_at", "player_count", "status", "n_events",
              "first_divergence_seq", "winner", "record_sha256", "ingested_at", "engine_version"],
    "players": ["game_id", "player_id", "name", "seat", "final_score", "rank", "won"],
    "events": ["game_id", "seq", "kind", "player_id", "move_type", "payload", "round", "phase"],
    "score_timeline": ["game_id", "seq", "player_id", "category", "points"],
    "score_breakdown": ["game_id", "player_id", "category", "points"],
    "divergences": ["game_id", "seq", "kind", "key", "recorded", "replayed", "message"],
    "quarantine": ["source", "line", "error", "raw", "at"],
    "ingest_runs": ["run_id", "started_at", "finished_at", "files", "records", "ok", "diverged", "quarantined"],
    "pax_pamir_dominance_checks": ["game_id", "seq", "check_no", "is_final", "threshold", "successful",
                                   "dominant_coalition", "blocks_afghan", "blocks_british", "blocks_russian",
                                   "player_id", "loyalty", "influence", "cylinders", "points"],
    "coal_baron_shift_rankings": ["game_id", "seq", "shift", "category", "player_id", "value", "rank", "points"],
    "copenhagen_completions": ["game_id", "seq", "player_id", "line", "index", "all_windows", "points"],
    "perikles_elections": ["game_id", "seq", "round", "city", "alpha_player", "alpha_cubes", "beta_player",
                           "beta_cubes", "winner", "cubes_removed"],
    "perikles_combats": ["game_id", "seq", "round", "location", "combat_no", "combat_type", "attacker_player",
                         "defender_player", "attack_strength", "defence_strength", "table_column",
                         "attacker_target", "defender_target", "start_tokens_attacker", "start_tokens_defender",
                         "rolls", "winner", "casualty"],
    "milestones": ["game_id", "seq", "title", "type", "payload"],
    "pax_pamir_rulership_changes": ["game_id", "seq"],
    "pax_pamir_loyalty_changes": ["game_id", "seq"],
    "perikles_locations_claimed": ["game_id", "seq"],
}


def toy_records(n: int, seed: int = 3) -> list[Record]:
    return list(simulate("toy", n, seed))


def write(path: Path, records: list[Record]) -> Path:
    write_records(records, path)
    return path


def counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t.name: con.execute(f"SELECT count(*) FROM {t.name}").fetchone()[0] for t in tables()}
    finally:
        con.close()


def query(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def cli(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    res = CliRunner().invoke(main, list(args), input=stdin)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Record]]:
    recs = toy_records(120)
    folder = tmp_path_factory.mktemp("corpus")
    write(folder / "a.jsonl.gz", recs[:70])
    write(folder / "sub" / "b.jsonl", recs[70:119])
    write(folder / "one.json", recs[119:])
    return folder, recs


def test_schema_and_counts_after_ingest(tmp_path: Path, corpus: tuple[Path, list[Record]]) -> None:
    folder, recs = corpus
    db = tmp_path / "g.duckdb"
    s = ingest([str(folder)], db, workers=2, batch_records=16, publish_every=-1)
    assert (s.counts.records, s.counts.new, s.counts.ok, s.counts.quarantined) == (120, 120, 120, 0)
    assert s.files == 3

    con = duckdb.connect(str(db), read_only=True)
    have = {}
    for name, col in con.execute(
        "SELECT table_name, column_name FROM information_schema.columns ORDER BY table_name, ordinal_position"
    ).fetchall():
        have.setdefault(name, []).append(col)
    for table, cols in ARCHITECTURE_COLUMNS.items():
        assert table in have, table
        assert have[table][: len(cols)] == cols, table
    con.close()

    replays = [replay_record(r) for r in recs]
    c = counts(db)
    assert c["games"] == 120 and c["records"] == 120
    assert c["players"] == sum(len(r.players) for r in recs)
    assert c["events"] == sum(len(r.events) for r in recs)
    assert c["milestones"] == sum(len(r.milestones) for r in replays)
    assert c["score_breakdown"] == sum(len(cats) for r in replays for cats in r.score.values())
    assert c["ingest_runs"] == 1 and c["quarantine"] == 0

    rec, rep = recs[5], replays[5]
    g = query(db, "SELECT title, status, n_events, player_count, winner, record_sha256, engine_version, "
                  "source_kind, played_at, first_divergence_seq FROM games WHERE game_id = ?", [rec.id])[0]
    sha = loads(dumps(rec)).sha256
    assert g == ("toy", "complete", len(rec.events), len(rec.players), ",".join(rep.winners), sha,
                 ENGINE_VERSION, "simulated", parse_time(rec.played_at), None)
    players = query(db, "SELECT player_id, seat, final_score, rank, won FROM players WHERE game_id = ? "
                        "ORDER BY seat", [rec.id])
    assert players == [(p, i + 1, rep.totals[p], rep.ranking[p], rep.ranking[p] == 1)
                       for i, p in enumerate(rec.player_ids)]
    # events: payload is the event JSON, round/phase from the replay frames
    ev = query(db, "SELECT seq, kind, player_id, move_type, payload FROM events WHERE game_id = ? ORDER BY seq",
               [rec.id])
    assert [orjson.loads(e[4]) for e in ev] == [e.to_dict() for e in rec.events]
    assert [e[1] for e in ev] == [e.kind for e in rec.events]
    assert all((e[3] is None) == (e[1] != "move") for e in ev)
    # score_timeline: only changes; replaying the changes gives the final breakdown
    tl = query(db, "SELECT seq, player_id, category, points FROM score_timeline WHERE game_id = ? "
                   "ORDER BY seq, player_id, category", [rec.id])
    last: dict[tuple[str, str], int] = {}
    for seq, pid, cat, pts in tl:
        assert last.get((pid, cat), 0) != pts
        assert rep.frames[seq].score[pid][cat] == pts
        last[(pid, cat)] = pts
    final = {(p, c): v for p, cats in rep.score.items() for c, v in cats.items() if v}
    assert {k: v for k, v in last.items() if v} == final
    # the breakdown sums to each player's final score
    assert query(db, "SELECT count(*) FROM (SELECT b.game_id, b.player_id, sum(b.points) AS s, any_value(p.final_score) f "
                     "FROM score_breakdown b JOIN players p USING (game_id, player_id) GROUP BY ALL) "
                     "WHERE s <> f")[0][0] == 0
    # the stored raw record replays to the same game
    raw = query(db, "SELECT raw FROM records WHERE game_id = ?", [rec.id])[0][0]
    assert loads(raw.encode()).sha256 == sha
    # the snapshot for readers was published at the end of the run
    assert s.snapshot.exists() and counts(s.snapshot)["games"] == 120


def test_ingesting_twice_changes_nothing(tmp_path: Path, corpus: tuple[Path, list[Record]]) -> None:
    folder, _ = corpus
    db = tmp_path / "g.duckdb"
    ingest([str(folder)], db, workers=2, publish_every=-1)
    before = counts(db)
    s = ingest([str(folder)], db, workers=2, publish_every=-1)
    assert (s.counts.skipped, s.counts.new, s.counts.replaced) == (120, 0, 0)
    after = counts(db)
    assert after.pop("ingest_runs") == before.pop("ingest_runs") + 1
    assert after == before
    assert query(db, "SELECT count(*), count(DISTINCT game_id) FROM games") == [(120, 120)]
    # readers see the run that changed nothing too (stats' last ingest, the runs table)
    snap = db.with_name("g.snapshot.duckdb")
    assert query(snap, "SELECT run_id, status, skipped FROM ingest_runs ORDER BY run_id") == [
        (1, "finished", 0), (2, "finished", 120)]


def test_changed_record_replaces_the_old_game_completely(tmp_path: Path) -> None:
    recs = toy_records(30, seed=9)
    db = tmp_path / "g.duckdb"
    ingest([str(write(tmp_path / "v1.jsonl", recs))], db, workers=0, publish_every=-1)
    before = counts(db)
    old_sha = query(db, "SELECT record_sha256 FROM games WHERE game_id = ?", [recs[4].id])[0][0]

    # same id, different content: a different game (another seed) under the old id
    other = toy_records(40, seed=10)[33]
    other.id = recs[4].id
    other.players[0]["name"] = "Renamed"
    changed = recs[:4] + [other] + recs[5:]
    s = ingest([str(write(tmp_path / "v2.jsonl", changed))], db, workers=2, publish_every=-1)
    assert (s.counts.replaced, s.counts.skipped, s.counts.new) == (1, 29, 0)

    gid = other.id
    assert query(db, "SELECT count(*) FROM games WHERE game_id = ?", [gid]) == [(1,)]
    new_sha = query(db, "SELECT record_sha256 FROM games WHERE game_id = ?", [gid])[0][0]
    assert new_sha != old_sha and new_sha == loads(dumps(other)).sha256
    assert query(db, "SELECT name FROM players WHERE game_id = ? AND seat = 1", [gid]) == [("Renamed",)]
    assert query(db, "SELECT count(*) FROM events WHERE game_id = ?", [gid]) == [(len(other.events),)]
    assert query(db, "SELECT count(*) FROM players WHERE game_id = ?", [gid]) == [(len(other.players),)]
    expected = dict(before)
    expected["events"] += len(other.events) - len(recs[4].events)
    expected["players"] += len(other.players) - len(recs[4].players)
    after = counts(db)
    for t in ("games", "events", "players", "records", "milestones"):
        assert after[t] == expected[t], t


def test_mixed_file_quarantines_bad_records_and_lands_the_good(tmp_path: Path) -> None:
    good = toy_records(6, seed=4)
    bad_move = orjson.loads(dumps(good[0]))
    bad_move["id"] = "bad-move-type"
    bad_move["events"][1]["move"]["type"] = "teleport"
    lines = [dumps(good[0]), b'{"format": "gamerec/1", "game": "toy", "id": "cut', dumps(good[1]),
             b"not json at all", orjson.dumps(bad_move), dumps(good[2]), b"", dumps(good[3])]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    db = tmp_path / "g.duckdb"

    code, out = cli("ingest", str(path), "--db", str(db))
    assert code == 1
    assert "3 record(s) could not be read" in out and "SELECT" in out and "FROM quarantine" in out
    assert query(db, "SELECT game_id FROM games ORDER BY game_id") == sorted((r.id,) for r in good[:4])
    q = query(db, 'SELECT source, line, error, raw, kind, "at" IS NOT NULL FROM quarantine ORDER BY line')
    assert [(r[0], r[1]) for r in q] == [(str(path), 2), (str(path), 4), (str(path), 5)]
    assert "not valid JSON" in q[0][2] and "truncated" in q[0][2]
    assert q[1][3] == "not json at all"
    assert "teleport" in q[2][2] and f"{path}:5" in q[2][2] and orjson.loads(q[2][3])["id"] == "bad-move-type"
    assert all(r[5] for r in q)

    # a rerun meets the same bad lines: still reported, never duplicated
    code, out = cli("ingest", str(path), "--db", str(db))
    assert code == 1 and "3 record(s)" in out
    assert query(db, "SELECT count(*) FROM quarantine") == [(3,)]
    assert query(db, "SELECT max(run_id) FROM quarantine") == [(2,)]
    assert query(db, "SELECT count(*) FROM games") == [(4,)]
    assert query(db, "SELECT records, ok, skipped, quarantined FROM ingest_runs ORDER BY run_id") == [
        (7, 4, 0, 3), (7, 0, 4, 3)]


def test_diverged_records_are_ingested_with_their_divergences(tmp_path: Path) -> None:
    rec = toy_records(3, seed=5)[1]
    obj = orjson.loads(dumps(rec))
    # lie in the first observation: the replay keeps going and collects the mismatch
    first_obs = next(i for i, e in enumerate(obj["events"]) if "observe" in e and "score" in e["observe"])
    pid = obj["players"][0]["id"]
    obj["events"][first_obs]["observe"]["score"][pid] += 100
    path = tmp_path / "d.jsonl"
    path.write_bytes(orjson.dumps(obj) + b"\n")
    db = tmp_path / "g.duckdb"
    s = ingest([str(path)], db, workers=0, publish_every=-1)
    assert (s.counts.diverged, s.counts.ok, s.counts.quarantined) == (1, 0, 0)
    assert query(db, "SELECT status, first_divergence_seq FROM games") == [("diverged", first_obs)]
    d = query(db, "SELECT seq, kind, key, recorded, replayed, divergence_no FROM divergences")
    assert len(d) == 1
    seq, kind, key, recorded, replayed, no = d[0]
    assert (seq, kind, key, no) == (first_obs, "observation_mismatch", f"score.{pid}", 0)
    assert orjson.loads(recorded) == orjson.loads(replayed) + 100


def test_engine_error_goes_to_quarantine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recs = toy_records(3, seed=6)
    real = replay.replayer.replay

    def flaky(record: Record, **kw: object) -> object:
        if record.id == recs[1].id:
            raise ZeroDivisionError("boom")
        return real(record, **kw)

    monkeypatch.setattr(replay.replayer, "replay", flaky)
    db = tmp_path / "g.duckdb"
    s = ingest([str(write(tmp_path / "r.jsonl", recs))], db, workers=0, publish_every=-1)
    assert (s.counts.ok, s.counts.quarantined) == (2, 1)
    q = query(db, "SELECT line, game_id, kind, error FROM quarantine")
    assert q[0][:3] == (2, recs[1].id, "engine_error") and "ZeroDivisionError: boom" in q[0][3]
    assert query(db, "SELECT count(*) FROM games WHERE game_id = ?", [recs[1].id]) == [(0,)]


@pytest.mark.parametrize("batch_records", [500, 2])
def test_an_id_reused_by_other_content_in_one_run_is_refused_and_said(tmp_path: Path, batch_records: int) -> None:
    recs = toy_records(4, seed=7)
    alt = toy_records(9, seed=8)[7]
    alt.id = recs[2].id
    db = tmp_path / "g.duckdb"
    path = write(tmp_path / "r.jsonl", recs + [recs[0], alt])
    for _run in (1, 2):  # the second run finds the first record present and refuses the other again
        s = ingest([str(path)], db, workers=0, publish_every=-1, batch_records=batch_records)
        assert query(db, "SELECT count(*), count(DISTINCT game_id) FROM games") == [(4, 4)]
        # the first record with the id is kept; the later one is quarantined, never silently dropped
        assert query(db, "SELECT record_sha256 FROM games WHERE game_id = ?",
                     [alt.id]) == [(loads(dumps(recs[2])).sha256,)]
        assert s.counts.records == 6 and s.counts.conflicts == 1 and s.counts.quarantined == 1
        assert s.counts.ok + s.counts.diverged + s.counts.skipped + s.counts.quarantined == 6
        assert len(s.conflicts) == 1 and f"r.jsonl:6: id {alt.id!r} is already used in this run" in s.conflicts[0]
        assert "r.jsonl:3" in s.conflicts[0]
        assert query(db, "SELECT kind, line, game_id FROM quarantine") == [("duplicate_id", 6, alt.id)]
    raw = query(db, "SELECT raw FROM quarantine")[0][0]
    assert loads(raw).sha256 == loads(dumps(alt)).sha256


def test_simulated_corpora_with_other_player_counts_never_collide(tmp_path: Path) -> None:
    for n in (2, 3, 4):
        code, out = cli("simulate", "--game", "copenhagen", "--players", str(n), "--games", "2", "--seed", "7",
                        "--out", str(tmp_path / f"p{n}"))
        assert code == 0, out
    db = tmp_path / "g.duckdb"
    code, out = cli("ingest", str(tmp_path), "--db", str(db), "--workers", "0")
    assert code == 0, out
    assert query(db, "SELECT count(DISTINCT game_id) FROM games") == [(6,)]


def test_cli_says_when_an_id_is_reused_in_one_run(tmp_path: Path) -> None:
    recs = toy_records(2, seed=7)
    alt = toy_records(3, seed=8)[2]
    alt.id = recs[1].id
    write(tmp_path / "a.jsonl", recs)
    write(tmp_path / "b.jsonl", [alt])
    code, out = cli("ingest", str(tmp_path), "--db", str(tmp_path / "g.duckdb"), "--workers", "0")
    assert code == 1
    assert "1 record(s) reuse an id that a different record already has in this run" in out
    assert f"b.jsonl:1: id {alt.id!r} is already used in this run by a different record" in out
    assert "a.jsonl:2" in out


def test_stdin_and_missing_path(tmp_path: Path) -> None:
    recs = toy_records(5, seed=11)
    data = b"".join(dumps(r) + b"\n" for r in recs)
    db = tmp_path / "g.duckdb"
    s = ingest(["-"], db, workers=0, stdin=io.BytesIO(data), publish_every=-1)
    assert s.counts.new == 5
    assert query(db, "SELECT DISTINCT source_file FROM games") == [("<stdin>",)]
    code, out = cli("ingest", "-", "--db", str(db), stdin=data)
    assert code == 0 and "skipped (already present)" in out
    code, out = cli("ingest", str(tmp_path / "nope.jsonl"), "--db", str(db))
    assert code == 2 and "no such file or directory" in out and "Traceback" not in out
    code, out = cli("ingest", "-", "--db", str(db), "--memory-limit", "lots", stdin=data)
    assert code == 2 and "bad memory limit 'lots'" in out



def test_empty_input_is_an_error_like_verify_and_replay(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    db = tmp_path / "new" / "g.duckdb"
    for args in (["ingest", str(tmp_path / "empty"), "--db", str(db)], ["verify", str(tmp_path / "empty")],
                 ["replay", str(tmp_path / "empty")]):
        code, out = cli(*args)
        assert code == 2 and "no records found in" in out, args
    assert not db.exists() and not db.parent.exists()  # no empty database is made
    for command in ("ingest", "verify", "replay"):
        args = [command, "-"] + (["--db", str(db)] if command == "ingest" else [])
        code, out = cli(*args, stdin=b"")
        assert code == 2 and "no records found in -" in out, command
    (tmp_path / "empty" / "blank.jsonl").write_bytes(b"\n\n")
    code, out = cli("ingest", str(tmp_path / "empty"), "--db", str(db))
    assert code == 2 and "no records found in" in out


def test_cli_summary(tmp_path: Path, corpus: tuple[Path, list[Record]]) -> None:
    folder, _ = corpus
    db = tmp_path / "g.duckdb"
    code, out = cli("ingest", str(folder), "--db", str(db), "--workers", "2", "--batch-size", "25")
    assert code == 0, out
    for label in ("records read", "ingested (new)", "skipped (already present)", "replaced", "diverged",
                  "quarantined", "time", "rows per table", "score_timeline"):
        assert label in out, label
    assert "│ records read" in out and "120" in out


def test_milestone_registry_makes_a_typed_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(milestones, "MILESTONE_TABLES", list(milestones.MILESTONE_TABLES))
    milestones.register(milestones.MilestoneTable(
        game="toy", type="finish", table="toy_finishes",
        columns=(("player_id", "VARCHAR"), ("missing", "INTEGER")),
    ))
    recs = toy_records(10, seed=12)
    db = tmp_path / "g.duckdb"
    ingest([str(write(tmp_path / "r.jsonl", recs))], db, workers=2, publish_every=-1)
    rows = query(db, "SELECT game_id, seq, milestone_no, player_id, missing FROM toy_finishes ORDER BY game_id")
    generic = query(db, "SELECT game_id, seq, milestone_no, payload->>'player_id', NULL FROM milestones "
                        "WHERE type = 'finish' ORDER BY game_id")
    assert rows == generic and len(rows) == 10
    with pytest.raises(ValueError):
        milestones.MilestoneTable(game="toy", type="x", table="Bad Name", columns=())
    with pytest.raises(ValueError):
        milestones.MilestoneTable(game="toy", type="x", table="t", columns=(("a", "UUID"),))


def test_coercion_never_fails_a_batch() -> None:
    from ingest.rows import COERCE

    assert COERCE["INTEGER"]("7") == 7 and COERCE["INTEGER"]("x") is None and COERCE["INTEGER"](2**40) is None
    assert COERCE["INTEGER"](3.0) == 3 and COERCE["INTEGER"](True) == 1
    assert COERCE["VARCHAR"](5) == "5" and COERCE["VARCHAR"]({"a": 1}) == '{"a":1}'
    assert COERCE["BOOLEAN"](1) is True and COERCE["BOOLEAN"]("yes") is None
    assert COERCE["JSON"]([1, 2]) == "[1,2]" and COERCE["JSON"](None) is None
    assert parse_time("2026-11-21T10:00:00Z").isoformat() == "2026-11-21T10:00:00"
    assert parse_time("2026-11-21T12:00:00+02:00").isoformat() == "2026-11-21T10:00:00"
    assert parse_time("yesterday") is None


def test_truncated_gzip_lands_the_records_before_the_break(tmp_path: Path) -> None:
    recs = toy_records(300, seed=13)
    full = write(tmp_path / "full.jsonl.gz", recs).read_bytes()
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(full[: len(full) // 2])
    db = tmp_path / "g.duckdb"
    s = ingest([str(cut)], db, workers=2, publish_every=-1)
    landed = s.counts.new
    assert 0 < landed < 300 and s.counts.quarantined == 1
    assert query(db, "SELECT game_id FROM games ORDER BY game_id") == sorted((r.id,) for r in recs[:landed])
    (line, error), = query(db, "SELECT line, error FROM quarantine")
    assert line == landed + 1 and "corrupt or truncated gzip data" in error


def test_rows_are_deterministic_whatever_the_workers_and_batches(tmp_path: Path,
                                                                 corpus: tuple[Path, list[Record]]) -> None:
    folder, _ = corpus
    dumps_by_run = []
    for i, (workers, batch) in enumerate(((0, 500), (2, 7))):
        db = tmp_path / f"g{i}.duckdb"
        ingest([str(folder)], db, workers=workers, batch_records=batch, publish_every=-1)
        con = duckdb.connect(str(db), read_only=True)
        snapshot = {}
        for t in tables():
            cols = [c for c in t.column_names if c not in ("ingested_at", "at", "started_at", "finished_at")]
            sel = ", ".join(f'"{c}"' for c in cols)
            snapshot[t.name] = con.execute(f"SELECT {sel} FROM {t.name}").fetchall()  # storage order
        con.close()
        dumps_by_run.append(snapshot)
    assert dumps_by_run[0] == dumps_by_run[1]


def test_a_milestone_table_declared_later_is_filled_from_the_milestones(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    recs = toy_records(12, seed=14)
    path = write(tmp_path / "r.jsonl", recs)
    monkeypatch.setattr(milestones, "MILESTONE_TABLES", list(milestones.MILESTONE_TABLES))
    late, early = tmp_path / "late.duckdb", tmp_path / "early.duckdb"
    ingest([str(path)], late, workers=0, publish_every=-1)  # before the declaration

    cols = (("player_id", "VARCHAR"), ("type", "JSON"), ("missing", "INTEGER"))
    milestones.register(milestones.MilestoneTable(game="toy", type="finish", table="toy_finishes", columns=cols))
    ingest([str(path)], early, workers=0, publish_every=-1)  # filled by the workers
    s = ingest([str(path)], late, workers=0, publish_every=-1)  # filled from `milestones` on open
    assert s.counts.skipped == 12
    sql = "SELECT * FROM toy_finishes ORDER BY game_id"
    assert query(late, sql) == query(early, sql) and len(query(late, sql)) == 12
    assert query(late, "SELECT DISTINCT type, missing FROM toy_finishes") == [('"finish"', None)]

    # a column added to the declaration later is filled in too
    milestones.register(milestones.MilestoneTable(game="toy", type="finish", table="toy_finishes",
                                                  columns=(*cols, ("seq_again", "BIGINT"))))
    ingest([str(path)], late, workers=0, publish_every=-1)
    assert query(late, "SELECT count(*) FROM toy_finishes WHERE seq_again IS NULL") == [(12,)]  # no such field
    milestones.register(milestones.MilestoneTable(game="toy", type="finish", table="toy_finishes",
                                                  columns=(*cols, ("seq_again", "BIGINT"), ("player", "VARCHAR"))))
    con = duckdb.connect(str(late))
    con.execute("UPDATE milestones SET payload = json_merge_patch(payload, '{\"player\": \"x\"}') WHERE type = 'finish'")
    con.close()
    ingest([str(path)], late, workers=0, publish_every=-1)
    assert query(late, "SELECT DISTINCT player FROM toy_finishes") == [("x",)]


def test_a_record_that_cannot_be_stored_is_quarantined_without_leftover_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.rows as rows_module

    recs = toy_records(5, seed=15)
    real = rows_module._add_game

    def failing(r, *args, **kw):  # type: ignore[no-untyped-def]
        real(r, *args, **kw)  # rows are appended first, then it fails: they must be taken back
        if r.record.id == recs[2].id:
            raise OverflowError("value out of range")

    monkeypatch.setattr(rows_module, "_add_game", failing)
    db = tmp_path / "g.duckdb"
    s = ingest([str(write(tmp_path / "r.jsonl", recs))], db, workers=0, publish_every=-1)
    assert (s.counts.ok, s.counts.quarantined) == (4, 1)
    (line, kind, error), = query(db, "SELECT line, kind, error FROM quarantine")
    assert line == 3 and kind == "engine_error" and "cannot store this record: OverflowError" in error
    for t in ("events", "players", "records", "milestones", "score_timeline", "score_breakdown"):
        assert query(db, f"SELECT count(*) FROM {t} WHERE game_id = ?", [recs[2].id]) == [(0,)], t
    assert query(db, "SELECT count(*) FROM events") == [(sum(len(r.events) for i, r in enumerate(recs) if i != 2),)]


def test_a_database_error_while_writing_is_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ingest.writer import Database

    def full(self: Database, batch: object, at: object) -> bool:
        raise duckdb.IOException("No space left on device")

    monkeypatch.setattr(Database, "write", full)
    path = write(tmp_path / "r.jsonl", toy_records(3, seed=16))
    code, out = cli("ingest", str(path), "--db", str(tmp_path / "g.duckdb"), "--workers", "0")
    assert code == 2 and "database error while writing" in out and "No space left on device" in out
    assert "Traceback" not in out
    assert query(tmp_path / "g.duckdb", "SELECT status FROM ingest_runs") == [("failed",)]


def test_snapshot_copies_are_whole_databases(tmp_path: Path) -> None:
    from ingest.writer import Database, snapshot_path

    db = tmp_path / "g.duckdb"
    ingest([str(write(tmp_path / "r.jsonl", toy_records(20, seed=17)))], db, workers=0, publish_every=-1)
    w = Database(db)
    try:
        w.publish()  # checkpoint + file copy
        assert not list(tmp_path.glob(".*tmp*"))
        w._copy_database(tmp_path / "logical.duckdb")  # the fallback, table by table
    finally:
        w.close()
    assert counts(snapshot_path(db)) == counts(db) == counts(tmp_path / "logical.duckdb")
    assert counts(db)["games"] == 20


def test_stats_prints_stored_text_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Square brackets in a file name or an error are text, not console markup."""
    monkeypatch.chdir(tmp_path)
    Path("g[old].jsonl").write_bytes(b"{not json\n")
    db = tmp_path / "g.duckdb"
    code, _ = cli("ingest", "g[old].jsonl", "--db", str(db), "--workers", "0")
    assert code == 1
    code, out = cli("stats", "--db", str(db))
    assert code == 0 and "[old]" in out


def test_stats_writes_rates_as_percentages(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    ingest([str(write(tmp_path / "r.jsonl", toy_records(4, seed=5)))], db, workers=0, publish_every=-1)
    code, out = cli("stats", "--db", str(db))
    assert code == 0
    rates = [line for line in out.splitlines() if "│ toy" in line and "%" in line]
    assert rates and all(re.search(r"\d+\.\d\d%", line) for line in rates)
    assert not re.search(r"│\s+0\.\d{4}\s+│", out)  # never a bare 0.4925


def test_a_batch_closes_at_its_events_limit_and_the_rows_are_the_same(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.pipeline as pipeline

    recs = toy_records(40)
    path = write(tmp_path / "r.jsonl", recs)
    events = sum(len(r.events) for r in recs)
    seen: dict[int, list[int]] = {}
    for limit in (10**9, events // 5):
        monkeypatch.setattr(pipeline, "BATCH_EVENT_ROWS", limit)
        monkeypatch.setattr(pipeline, "TASK_RECORDS", 4)
        calls = seen[limit] = []
        db = tmp_path / f"l{limit}.duckdb"
        ingest([str(path)], db, workers=0, publish_every=-1, progress=lambda n, _done, c=calls: c.append(n))
        assert counts(db)["events"] == events
    # no limit reached: one batch when the input is all read (the 7 tasks done by then: 4 tasks
    # are in flight at most), then each of the 3 tasks still under way as soon as it is done
    assert seen[10**9] == [28, 32, 36, 40]
    # the events limit, not the records limit (2,000), closed the first batch at about a fifth
    assert seen[events // 5][0] <= 12 and len(seen[events // 5]) > 4, seen
    assert seen[events // 5][-1] == len(recs)


def test_an_event_payload_is_the_records_own_text_of_it(tmp_path: Path) -> None:
    import json

    rec = toy_records(1)[0]
    obj = orjson.loads(dumps(rec))
    # the same record as another tool may write it: spaces after separators, a move's keys reordered
    k = next(i for i, e in enumerate(obj["events"]) if len(e) > 1)
    obj["events"][k] = dict(reversed(obj["events"][k].items()))
    spaced = json.dumps(obj, separators=(", ", ": "))
    assert loads(spaced.encode()).events[k].to_dict() == rec.events[k].to_dict()  # the same event
    path = tmp_path / "spaced.jsonl"
    path.write_text(spaced + "\n")
    db = tmp_path / "p.duckdb"
    ingest([str(path)], db, workers=0, publish_every=-1)
    payloads = [p for (p,) in query(db, "SELECT CAST(payload AS VARCHAR) FROM events ORDER BY seq")]
    assert payloads == [json.dumps(e, separators=(", ", ": ")) for e in obj["events"]]
    assert payloads[k] != orjson.dumps(rec.events[k].to_dict()).decode()


def test_a_record_repeated_within_a_run_on_an_empty_database_lands_once(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.pipeline as pipeline

    monkeypatch.setattr(pipeline, "TASK_RECORDS", 2)  # the copies travel in different tasks
    recs = toy_records(6)
    path = write(tmp_path / "r.jsonl", recs + recs[:3])
    db = tmp_path / "d.duckdb"
    s = ingest([str(path)], db, workers=2, publish_every=-1)
    assert (s.counts.records, s.counts.new, s.counts.skipped, s.counts.conflicts) == (9, 6, 3, 0)
    assert counts(db)["games"] == 6
    assert counts(db)["events"] == sum(len(r.events) for r in recs)


def test_a_row_with_a_value_too_many_or_too_few_is_refused_not_cut() -> None:
    """A table row is one value per column: a value more (or less) is an error, never silently
    dropped (the record would then go to quarantine, whole)."""
    from ingest import schema
    from ingest.rows import _Columns

    cols = _Columns(schema.SCORE_BREAKDOWN)
    cols.row("g", "p1", "influence", 3)
    with pytest.raises(ValueError):
        cols.row("g", "p1", "influence", 3, "extra")
    with pytest.raises(ValueError):
        cols.row("g", "p1")
    assert cols.check() == 1


def test_the_quarantine_hint_runs_with_what_gamerec_installs(tmp_path: Path) -> None:
    import subprocess
    import sys

    from click.testing import CliRunner

    from gamerec_cli.main import main

    (tmp_path / "bad.jsonl").write_text('{"format": "gamerec/1"}\n')
    res = CliRunner().invoke(main, ["ingest", str(tmp_path / "bad.jsonl"), "--db", str(tmp_path / "g.duckdb")])
    assert res.exit_code == 1
    hint = res.output.strip().splitlines()[-1].strip()
    assert hint.startswith("python -c ") and "duckdb " not in hint.split("import duckdb", 1)[0]
    code = hint[len('python -c "'):-1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "bad.jsonl" in out
