"""A BGA log imported and replayed in one engine run gives the replay of the record it builds.

``ingest``, ``verify`` and ``replay`` take the replay of an imported log from the import's own
engine run (``import_replayed``): it must be exactly what replaying the written record gives -
the same JSON report, frames, milestones, divergences and status - for every shared log, and for
a log edited by hand whose BGA score our rules do not give.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from ingest.bga.convert import import_replayed, ingest_items, log_files, replay_items, replay_log
from ingest.bga.log import parse_log, read_log
from ingest.rows import EventRows
from replay.record import RawItem, iter_raw, loads
from replay.replayer import COMPLETE, DIVERGED, INVALID, Replay, replay

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs")
needs_logs = pytest.mark.skipif(not LOGS.is_dir(), reason="../shared/bga-logs is not here")
ALL_LOGS = [str(p.relative_to(LOGS)) for p in log_files([str(LOGS)])] if LOGS.is_dir() else []


def assert_same(one: Replay, two: Replay) -> None:
    assert one.to_json() == two.to_json()
    assert one.frames == two.frames
    assert one.replayed == two.replayed and one.status == two.status
    assert one.milestones == two.milestones
    assert [d.to_dict() for d in one.divergences] == [d.to_dict() for d in two.divergences]
    assert one.state is not None and two.state is not None and one.state.is_over() == two.state.is_over()


@needs_logs
@pytest.mark.parametrize("name", ALL_LOGS)
def test_the_one_run_is_the_replay_of_the_record(name: str) -> None:
    blob, one = import_replayed(read_log(LOGS / name))
    rec = loads(blob)
    assert one.record is not None and one.record.sha256 == rec.sha256
    assert one.status == COMPLETE and len(one.frames) == len(rec.events) > 0
    assert_same(one, replay(rec))
    # verify's form: no frames
    _, quick = import_replayed(read_log(LOGS / name), keep_frames=False)
    assert_same(quick, replay(rec, keep_frames=False))


OLD_CAGE = Path(__file__).resolve().parent / "bga_logs" / "coal_baron" / "coalbaron_3p_seed42301.log.json.gz"


def test_a_log_read_by_its_second_reading_gives_its_observers_that_reading_only() -> None:
    """Coal Baron's 2024 cage of six is its log's second reading: the first is refused part way, and
    the observers ingest gives the import's run (its rows) start again with the second."""
    one = EventRows()
    blob, got = import_replayed(read_log(OLD_CAGE), keep_frames=False, observers=(one,))
    rec = loads(blob)
    assert rec.options.get("cage_capacity") == 6 and got.status == COMPLETE
    two = EventRows()
    replay(rec, keep_frames=False, observers=(two,))
    assert len(one.rounds) == len(rec.events)
    for noted in ("rounds", "phases", "t_seq", "t_pid", "t_cat", "t_pts"):
        assert getattr(one, noted) == getattr(two, noted), noted


@needs_logs
def test_a_ruleset_other_than_the_records_is_replayed_after_the_import() -> None:
    name = next(n for n in ALL_LOGS if n.startswith("pax_pamir/"))
    blob, one = import_replayed(read_log(LOGS / name), ruleset="official")
    assert_same(one, replay(loads(blob), ruleset="official"))


def edited_pax() -> tuple[dict[str, Any], str]:
    with gzip.open(LOGS / "pax_pamir" / "paxpamir_3p_seed402.log.json.gz") as fh:
        obj = json.load(fh)
    for p in obj["data"]["logs"]:
        for n in p["data"]:
            if n["type"] == "dominanceCheckScores" and n["args"]["scores"]:
                row = next(iter(n["args"]["scores"].values()))
                row["newScore"] += 1
                return obj, str(row["playerId"])
    raise AssertionError("no dominance check in the log")


@needs_logs
def test_a_bga_score_our_rules_do_not_give_diverges_at_the_same_event() -> None:
    obj, player = edited_pax()
    blob, one = import_replayed(parse_log(obj, "edited.json"))
    two = replay(loads(blob))
    assert one.status == DIVERGED
    d = one.divergences[0]
    assert d.kind == "observation_mismatch" and d.key == f"score.{player}" and d.recorded == d.replayed + 1
    assert_same(one, two)


@needs_logs
def test_ingest_reader_ships_logs_with_their_table_file_and_drops_table_files(tmp_path: Path) -> None:
    src = LOGS / "pax_pamir"
    items = list(ingest_items(iter_raw([str(src)])))
    logs = [(it.source, table) for it, table in items]
    assert len(logs) == len(list(src.glob("*.log.json.gz")))
    for source, table in logs:
        assert table == source.replace(".log.json.gz", ".table.json")
    # a record passes as a record; a log without a table file has "" for its table
    (tmp_path / "a.log.json").write_bytes(gzip.decompress((src / "paxpamir_2p_seed401.log.json.gz").read_bytes()))
    rec = import_replayed(read_log(src / "paxpamir_2p_seed401.log.json.gz"))[0]
    (tmp_path / "r.json").write_bytes(rec)
    got = {Path(it.source).name: table for it, table in ingest_items(iter_raw([str(tmp_path)]))}
    assert got == {"a.log.json": "", "r.json": None}


@needs_logs
def test_the_worker_step_gives_the_record_json_and_its_replay_or_the_refusal() -> None:
    path = LOGS / "pax_pamir" / "paxpamir_2p_seed401.log.json.gz"
    raw = gzip.decompress(path.read_bytes())
    table = str(path).replace(".log.json.gz", ".table.json")
    got = replay_log(str(path), 1, raw, table)
    assert got is not None
    blob, r = got
    assert (r.source, r.line) == (str(path), 1)
    assert blob == import_replayed(read_log(path))[0]
    assert replay_log("t.table.json", 1, Path(table).read_bytes(), None) is None
    cut = raw.replace(b'"dominanceCheckScores"', b'"someNotificationNobodySends"', 1)
    raw_out, bad = replay_log("cut.json", 1, cut, table)  # type: ignore[misc]
    assert raw_out == cut and bad.status == INVALID and bad.record is None
    assert "someNotificationNobodySends" in str(bad.error) and "\n" not in str(bad.error)
    other_out, other = replay_log("x.json", 1, b'{"not": "a log"}', None)  # type: ignore[misc]
    assert other.status == INVALID and other_out == b'{"not": "a log"}'


@needs_logs
def test_verify_and_replay_take_logs_records_and_table_files_alike(tmp_path: Path) -> None:
    path = LOGS / "copenhagen" / sorted(p.name for p in (LOGS / "copenhagen").glob("*.log.json.gz"))[0]
    rec = import_replayed(read_log(path))[0]
    items = [RawItem(str(path), 1, gzip.decompress(path.read_bytes())), RawItem("r.json", 1, rec),
             RawItem(str(path).replace(".log.json.gz", ".table.json"), 1,
                     Path(str(path).replace(".log.json.gz", ".table.json")).read_bytes())]
    out = list(replay_items(items, keep_frames=False))
    assert [r.status for r in out] == [COMPLETE, COMPLETE]
    assert out[0].to_json() == {**out[1].to_json(), "source": str(path)}


@needs_logs
def test_ingest_imports_logs_in_its_workers_as_it_did_in_its_reader(tmp_path: Path) -> None:
    import shutil

    import duckdb

    from ingest.pipeline import ingest

    logs = tmp_path / "logs"
    logs.mkdir()
    for p in sorted((LOGS / "pax_pamir").glob("*.log.json.gz"))[:2]:
        shutil.copy(p, logs / p.name)
        table = p.name.replace(".log.json.gz", ".table.json")
        shutil.copy(LOGS / "pax_pamir" / table, logs / table)
    obj, _ = edited_pax()
    obj["data"]["logs"][3]["data"][0]["type"] = "someNotificationNobodySends"
    (logs / "refused.log.json").write_bytes(json.dumps(obj).encode())
    outs = []
    for workers in (0, 2):
        db = tmp_path / f"w{workers}.duckdb"
        s = ingest([str(logs)], db, workers=workers, publish_every=-1)
        assert (s.counts.records, s.counts.new, s.counts.quarantined) == (3, 2, 1)
        con = duckdb.connect(str(db), read_only=True)
        games = con.execute("SELECT game_id, status, record_sha256, n_events FROM games ORDER BY 1").fetchall()
        events = con.execute("SELECT game_id, seq, kind, player_id, move_type, payload, round, phase "
                             "FROM events ORDER BY 1, 2").fetchall()
        (err,) = con.execute("SELECT error FROM quarantine").fetchone()  # type: ignore[misc]
        assert "refused.log.json: packet" in err and "someNotificationNobodySends" in err
        for gid, status, sha, _ in games:
            (text,) = con.execute("SELECT raw FROM records WHERE game_id = ?", [gid]).fetchone()  # type: ignore[misc]
            assert status == COMPLETE and sha == loads(text.encode()).sha256  # the hash of the record's JSON
        con.close()
        outs.append((games, events))
        again = ingest([str(logs)], db, workers=workers, publish_every=-1)
        assert (again.counts.skipped, again.counts.new, again.counts.quarantined) == (2, 0, 1)
    assert outs[0] == outs[1]


@needs_logs
def test_ingest_tells_logs_records_table_files_and_copies_apart_as_before(tmp_path: Path) -> None:
    """The counts for the cases where a log's bytes alone do not decide: the same log with and
    without its table file is one id and one game, kept with its table file (the one that says more),
    the other skipped with a note; the same log and table elsewhere, and a repeated non-log, are
    skipped; a lone table file is no record; a record whose first bytes do not name its format is
    still a record (here: a pretty-printed copy of the log's record: the same game, skipped)."""
    import shutil

    from ingest.pipeline import ingest

    src = LOGS / "pax_pamir"
    d = tmp_path / "in"
    (d / "c").mkdir(parents=True)
    log, table = src / "paxpamir_2p_seed401.log.json.gz", src / "paxpamir_2p_seed401.table.json"
    for target in (d / "a.log.json.gz", d / "b.json.gz", d / "c" / "a.log.json.gz"):
        shutil.copy(log, target)
    for target in (d / "a.table.json", d / "c" / "a.table.json", d / "lonely.table.json"):
        shutil.copy(table, target)
    (d / "notes.json").write_bytes(b'{"not": "a log"}\n')
    (d / "notes2.json").write_bytes(b'{"not": "a log"}\n')
    (d / "empty.json").write_bytes(b"")
    rec = json.loads(import_replayed(read_log(log))[0])
    (d / "pretty.json").write_text(json.dumps(rec, indent=1))
    db = tmp_path / "g.duckdb"
    s = ingest([str(d)], db, workers=1, publish_every=-1)
    assert (s.counts.records, s.counts.new, s.counts.skipped, s.counts.quarantined) == (7, 1, 4, 2)
    assert s.counts.same_in_run == 2 and s.counts.conflicts == 0
    s = ingest([str(d)], db, workers=1, publish_every=-1)
    assert (s.counts.records, s.counts.new, s.counts.skipped, s.counts.quarantined) == (7, 0, 5, 2)


FACTS = [
    {"hand_size": {"p1": 0}},  # a few facts of one player, agreeing
    {"hand_size": {"p1": 1}},  # disagreeing
    {"hand_size": {"p1": False}},  # 0 == False in Python, not in a record
    {"hand_size": {"p9": 0}},  # no such player
    {"abilities": {"p.2": {"any_cards": "unused"}}, "deck_size": 71},  # nested, agreeing
    {"abilities": {"p.2": {"any_cards": "used"}}},  # nested, disagreeing
    {"abilities": {"p.2": 3}},  # a value where the rules keep an object
    {"harbour": [None] * 7, "rebuilds": 0},  # a list, agreeing
    {"harbour": (None,) * 7},  # a tuple reads back from the record as a list
    {"score": {"p1": 0, "p.2": 0}, "covered": {"p1": 0, "p.2": 0}},  # every player's, agreeing
    {"hand_size": {"p1.x": None}},  # a dotted name (read as hand_size.p1.x, nothing there: None agrees)
    {"hand_size": {"p.2": 0}},  # a player id with a dot (the record's replay reads it as hand_size.p.2)
    {"covered": {"p1.x": 1}, "hand_size": {"p.2": 0}},  # a dotted name, disagreeing
    {"hand_size": {}},  # nothing named
]


@pytest.mark.parametrize("facts", FACTS)
def test_an_observation_kept_by_the_one_run_diverges_exactly_where_the_records_replay_does(
        facts: dict[str, Any]) -> None:
    """An observation fed to the loop as the import makes it (``VerifyMade``) is settled leaf by leaf
    against the state (no JSON written): its divergences must be the record's replay's, whatever the
    facts' shape."""
    from replay.games import get_game
    from replay.record import ObserveEvent, Record, dumps
    from replay.replayer import Replaying

    players = ["p1", "p.2"]  # a dot in an id: facts are named by dotted paths
    state = get_game("copenhagen").initial_state(players, {"ruleset": "bga"})
    one = Replaying(state)
    events = [ObserveEvent(facts, "bga", None), ObserveEvent(facts, "bga", None)]  # a repeated announcement
    for ev in events:
        one.loop.feed(ev)
    rec = Record(game="copenhagen", id="t", players=[{"id": p, "name": None} for p in players],
                 events=events, options={"ruleset": "bga"})
    fed = one.finish(rec)
    twice = replay(loads(dumps(rec)))
    assert [d.to_dict() for d in fed.divergences] == [d.to_dict() for d in twice.divergences]
    assert fed.frames == twice.frames
