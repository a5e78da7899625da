"""The BGA importer machinery, on the toy dice race: envelopes, title recognition, refusals, the builder.

The toy importer below is the smallest real importer: one handler per
notification type of a made-up BGA "toyrace" implementation.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from gamerec_cli.main import main
from ingest.bga import BgaImportError, GameImporter, Notif, import_file, import_log, parse_log, read_log
from ingest.bga.log import TableInfo, attach_table, is_table_file
from ingest.bga.registry import register
from replay.record import loads
from replay.replayer import COMPLETE, DIVERGED, INCOMPLETE, replay

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "bga-log-samples"
if not SAMPLES.is_dir():
    SAMPLES = Path("/work/shared/bga-log-samples")

A, B = 84100001, 84100002  # BGA player ids (ints in args, as real logs often have them)
TABLE = 700000123


def roll_die(imp: GameImporter, n: Notif) -> None:
    imp.chance({"roll": [int(n.args["value"])]})


def advance(imp: GameImporter, n: Notif) -> None:
    imp.move(n.args["player_id"], "advance", steps=int(n.args["steps"]))


def bank(imp: GameImporter, n: Notif) -> None:
    imp.move(n.args["player_id"], "bank")


def new_scores(imp: GameImporter, n: Notif) -> None:
    imp.observe({"score": {str(k): int(v) for k, v in n.args["scores"].items()}})


class ToyImporter(GameImporter):
    game_id = "toy"
    bga_name = "toyrace"
    signature = frozenset({"rollDie", "advancePawn"})
    handlers = {"rollDie": roll_die, "advancePawn": advance, "bankRoll": bank, "newScores": new_scores}
    ignored = frozenset({"message"})


register(ToyImporter)


def state(pid: int, sid: int = 10) -> dict[str, Any]:
    return {"uid": f"s{pid}{sid}", "type": "gameStateChange", "log": "",
            "args": {"id": sid, "active_player": str(pid), "type": "activeplayer",
                     "reflexion": {"total": {str(A): None, str(B): None}}}}


def notif(uid: str, type_: str, **args: Any) -> dict[str, Any]:
    return {"uid": uid, "type": type_, "log": "", "args": args}


def end_state(scores: dict[int, int]) -> dict[str, Any]:
    ranked = sorted(scores, key=lambda p: -scores[p])
    return {"uid": "end", "type": "gameStateChange", "log": "", "args": {
        "id": 99, "type": "manager", "args": {"table": {"concede": False}, "result": [
            {"player": str(p), "name": f"n{p}", "score": str(scores[p]), "rank": ranked.index(p) + 1,
             "tie": False, "zombie": 0, "concede": 0} for p in scores]}}}


def packet(pid: int, *notifs: dict[str, Any], channel: str = f"/table/t{TABLE}") -> dict[str, Any]:
    return {"channel": channel, "table_id": TABLE, "packet_id": str(pid), "packet_type": "resend",
            "move_id": str(pid), "time": str(1800000000 + pid), "data": list(notifs)}


def game_packets(finished: bool = True) -> list[dict[str, Any]]:
    """A whole toy game: A rolls 6 and advances; B rolls 3 and banks; A rolls 5 and advances (ends)."""
    ps = [
        packet(1, state(A, 2)),
        packet(2, notif("u1", "rollDie", value=6), notif("u2", "advancePawn", player_id=A, steps="6"), state(B)),
        packet(3, notif("u3", "rollDie", value="3"), notif("u4", "bankRoll", player_id=str(B)),
               notif("u5", "newScores", scores={str(A): 6, str(B): 3}), notif("u6", "message", text="hi"), state(A)),
        packet(4, notif("u7", "rollDie", value=5), notif("u8", "advancePawn", player_id=A, steps=5)),
    ]
    if finished:
        ps.append(packet(5, end_state({A: 11, B: 3}), notif("u9", "simpleNode", player_name="nA")))
    return ps


def players() -> list[dict[str, Any]]:
    return [{"id": str(A), "name": "Ann", "color": "ff0000"}, {"id": B, "name": "Bob", "color": "0000ff"}]


def envelopes() -> dict[str, Any]:
    ps = game_packets()
    return {
        "archive-2026": {"status": 1, "data": {"players": players(), "logs": ps}},
        "archive-2020": {"status": 1, "data": {"valid": 1, "data": {"data": ps}}},
        "replay-page": {"status": 1, "data": {"valid": 1, "data": ps}},   # g_gamelogs as the replay page holds it
        "packets": ps,
        "g_gamelogs": {"data": ps},
        "notification-history": {"currentPlayerId": A, "players": {str(p["id"]): p for p in players()},
                                  "packets": ps, "gamedatas": {}},
    }


def check_record(rec: Any) -> None:
    assert rec.game == "toy"
    assert [p["id"] for p in rec.players] == [str(A), str(B)]
    assert rec.source["kind"] == "bga" and rec.source["table_id"] == TABLE
    assert rec.options == {"ruleset": "bga"}
    kinds = [e.kind for e in rec.events]
    assert kinds == ["chance", "move", "chance", "move", "observe", "chance", "move"]
    assert rec.events[0].extra == {"src": {"packet": 2, "uid": "u1"}}
    assert rec.events[4].origin == "bga"
    assert rec.result == {"score": {str(A): 11, str(B): 3}, "rank": {str(A): 1, str(B): 2}, "end": "normal"}
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences


@pytest.mark.parametrize("name", list(envelopes()))
def test_every_envelope_reads_to_the_same_record(name: str, tmp_path: Path) -> None:
    obj = envelopes()[name]
    log = parse_log(obj, "x.json")
    assert log.envelope == name
    check_record(import_log(log).record)
    # the same, from files: .json and .json.gz
    (tmp_path / "t.json").write_bytes(orjson.dumps(obj))
    (tmp_path / "t.json.gz").write_bytes(gzip.compress(orjson.dumps(obj)))
    a = import_file(tmp_path / "t.json").record
    b = import_file(tmp_path / "t.json.gz").record
    check_record(a)
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("name", ["packets", "replay-page"])
def test_saved_replay_page_with_g_gamelogs(name: str, tmp_path: Path) -> None:
    page = ("<html><head><script>var gameui; g_gamelogs = " + json.dumps(envelopes()[name])
            + ";\nvar g_other = {};</script></head><body>replay</body></html>")
    (tmp_path / "replay.html").write_text(page)
    log = read_log(tmp_path / "replay.html")
    assert log.envelope == name
    check_record(import_log(log).record)


def test_names_come_from_the_envelope_else_the_notifications() -> None:
    rec = import_log(parse_log(envelopes()["archive-2026"], "x")).record
    assert [p["name"] for p in rec.players] == ["Ann", "Bob"]
    ps = game_packets()
    ps[1]["data"][1]["args"]["player_name"] = "Ann2"
    rec = import_log(parse_log(ps, "x")).record  # bare packets: ids from the clocks, names from args
    assert rec.players[0] == {"id": str(A), "name": "Ann2"}
    assert rec.players[1]["name"] is None


def test_seat_order_is_the_logs_turn_order_not_the_envelopes() -> None:
    obj = envelopes()["archive-2026"]
    obj["data"]["players"] = list(reversed(players()))
    rec = import_log(parse_log(obj, "x")).record
    assert [p["id"] for p in rec.players] == [str(A), str(B)]


def test_duplicate_packets_and_uids_are_dropped_ids_of_either_type() -> None:
    ps = game_packets()
    ps.insert(2, json.loads(json.dumps(ps[1])))  # the same packet twice
    ps[3]["packet_id"] = int(ps[3]["packet_id"])  # an int id among strings
    check_record(import_log(parse_log(ps, "x")).record)


def test_same_packet_id_with_other_contents_is_refused() -> None:
    ps = game_packets()
    bad = json.loads(json.dumps(ps[1]))
    bad["data"][0]["uid"] = "other"
    ps.insert(2, bad)
    with pytest.raises(BgaImportError, match="packet 2 appears twice"):
        parse_log(ps, "x")


def test_private_channel_gives_the_viewer_and_spectator_mirrors_are_dropped() -> None:
    ps = game_packets()
    ps.insert(1, packet(10, notif("p1", "rollDie_spectator", value=6), channel=f"/player/p{B}"))
    ps[1]["data"][0]["type"] = "message"  # the private one: ignored by the toy importer
    ps.insert(2, packet(11, notif("p2", "rollDie_spectator", value=6)))
    log = parse_log(ps, "x")
    assert log.viewer == str(B)
    assert "rollDie_spectator" not in log.types()
    rec = import_log(log).record
    assert rec.id == f"bga-{TABLE}-{B}" and rec.source["viewer"] == str(B)


def test_every_players_private_channel_is_read_as_one_view() -> None:
    """A finished game's archive may hold every player's private packets: the record is one seat's
    view (the first player in turn order, the table file's viewer, or the one asked for)."""
    ps = game_packets()
    ps.insert(2, packet(20, notif("x1", "message"), channel=f"/player/p{A}"))
    ps.insert(3, packet(21, notif("x2", "message"), channel=f"/player/p{B}"))
    obj = {"status": 1, "data": {"players": players(), "logs": ps}}
    log = parse_log(obj, "x")
    assert log.views == (str(A), str(B)) and log.viewer is None
    imp = import_log(log)
    check_record(imp.record)
    assert [p.packet_id for p in log.packets if p.private] == [20] and log.views == ()
    assert imp.record.id == f"bga-{TABLE}-{A}" and imp.record.source["viewer_name"] == "Ann"
    assert imp.record.source["notes"] == [
        f"the log holds every player's private notifications; this record is the view of Ann ({A}), "
        "the first player in turn order with private notifications; --viewer picks another"]
    log = parse_log(obj, "x")
    assert import_log(log, viewer="bob").record.id == f"bga-{TABLE}-{B}"
    assert [p.packet_id for p in log.packets if p.private] == [21]
    log = parse_log(obj, "x")
    attach_table(log, TableInfo(table_id=TABLE, viewer=str(B), players=[]))
    rec = import_log(log).record
    assert rec.id == f"bga-{TABLE}-{B}" and "the viewer its table file (or envelope) names" in rec.source["notes"][0]
    with pytest.raises(BgaImportError, match=r"--viewer Cy: no such player at this table \(players: Ann"):
        import_log(parse_log(obj, "x"), viewer="Cy")


def test_table_file_beside_the_log_gives_version_viewer_and_checks_the_table(tmp_path: Path) -> None:
    (tmp_path / "t.log.json.gz").write_bytes(gzip.compress(orjson.dumps(envelopes()["archive-2026"])))
    table = {"game": "toyrace", "version": "abc123", "table_id": TABLE, "viewer": str(A), "finished": True,
             "players": [{"id": str(B), "name": "Bob", "player_no": 2, "table_order": 2, "score": 3},
                         {"id": str(A), "name": "Ann", "player_no": 1, "table_order": 1, "score": 11}]}
    (tmp_path / "t.table.json").write_bytes(orjson.dumps(table))
    imp = import_file(tmp_path / "t.log.json.gz")
    assert imp.record.source["version"] == "abc123"
    assert imp.record.source["viewer"] == str(A) and imp.record.source["viewer_name"] == "Ann"
    assert imp.record.source["url"] == f"https://boardgamearena.com/table?table={TABLE}"
    assert imp.warnings == []
    table["table_id"] = 1
    (tmp_path / "other.json").write_bytes(orjson.dumps(table))
    with pytest.raises(BgaImportError, match="the table file is for table 1"):
        import_file(tmp_path / "t.log.json.gz", table=tmp_path / "other.json")
    table["table_id"], table["game"] = TABLE, "paxpamir"
    (tmp_path / "t.table.json").write_bytes(orjson.dumps(table))
    with pytest.raises(BgaImportError, match="the table file says 'paxpamir'"):
        import_file(tmp_path / "t.log.json.gz")


def test_a_table_file_that_counts_its_packets_is_still_a_table_file_beside_its_log(tmp_path: Path) -> None:
    """The harness's table files say how many packets the table had; verify and ingest of the
    folder read the log with its table file and never take the table file for a record."""
    (tmp_path / "t.log.json.gz").write_bytes(gzip.compress(orjson.dumps(envelopes()["archive-2026"])))
    table = {"game": "toyrace", "table_id": TABLE, "finished": True, "packets": 74, "moves": 74,
             "actions": [], "players": [{"id": str(B), "name": "Bob", "player_no": 2, "score": 3},
                                        {"id": str(A), "name": "Ann", "player_no": 1, "score": 11}]}
    (tmp_path / "t.table.json").write_bytes(orjson.dumps(table))
    assert is_table_file(table) and not is_table_file({**table, "packets": []})
    out = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "1 records: 1 complete" in out.output and "table.json" not in out.output


# ---- refusals: one line naming file, packet, notification, reason -----------------


def test_unknown_notification_type_fails_closed_at_its_packet() -> None:
    ps = game_packets()
    ps[2]["data"].insert(0, notif("zz", "mysteryBonus", amount=3))
    ps[2]["data"].append(notif("zz2", "rollDie", value=1))  # keep the type count as a title signal
    with pytest.raises(BgaImportError) as e:
        import_log(parse_log(ps, "table.json"))
    assert str(e.value) == ("table.json: packet 3 (mysteryBonus): unknown notification type 'mysteryBonus' for "
                            "Toy race: the importer cannot map it, so it stops here rather than guess")


def test_a_move_our_rules_refuse_fails_at_the_packet_that_caused_it() -> None:
    ps = game_packets()
    ps[3]["data"][1]["args"]["steps"] = 4  # the die shows 5
    with pytest.raises(BgaImportError) as e:
        import_log(parse_log(ps, "t.json"))
    assert str(e.value).startswith("t.json: packet 4 (advancePawn): our rules cannot follow it: ")
    assert "the die shows 5" in str(e.value)


def test_bad_arguments_are_one_line_too() -> None:
    ps = game_packets()
    del ps[1]["data"][1]["args"]["steps"]
    with pytest.raises(BgaImportError, match=r"packet 2 \(advancePawn\): unexpected arguments \(KeyError"):
        import_log(parse_log(ps, "t.json"))


def test_refusals_of_titles_and_of_non_logs(tmp_path: Path) -> None:
    only_framework = [packet(1, state(A, 2)), packet(2, state(B))]
    with pytest.raises(BgaImportError, match="no game notifications at all"):
        import_log(parse_log(only_framework, "f"))
    other = [packet(1, notif("a", "cardsEarned", points=3), notif("b", "tileBought"))]
    with pytest.raises(BgaImportError, match="a title gamerec does not import"):
        import_log(parse_log(other, "f"))
    with pytest.raises(BgaImportError, match="no BGA importer for 'praga'"):
        import_log(parse_log(game_packets(), "f"), game="praga")
    with pytest.raises(BgaImportError, match="BGA answered with an error"):
        parse_log({"status": 0, "error": "You must be logged in"}, "f")
    with pytest.raises(BgaImportError, match="not a BGA log"):
        parse_log({"hello": 1}, "f")
    (tmp_path / "p.html").write_text("<html><body>nothing</body></html>")
    with pytest.raises(BgaImportError, match="without g_gamelogs"):
        read_log(tmp_path / "p.html")
    (tmp_path / "t.json").write_text("{not json")
    with pytest.raises(BgaImportError, match="not valid JSON"):
        read_log(tmp_path / "t.json")


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/bga-log-samples is not here")
def test_real_logs_of_other_titles_are_refused_in_one_line() -> None:
    for f in sorted(SAMPLES.glob("*.json")):
        log = read_log(f)
        with pytest.raises(BgaImportError, match="a title gamerec does not import"):
            import_log(log)
    inno = read_log(SAMPLES / "innovation_notificationHistory_823235522.json")
    assert inno.envelope == "notification-history" and inno.viewer == "76419314"
    assert not any(n.type.endswith("_spectator") for n in inno.notifs)
    tok = read_log(SAMPLES / "tokaido_archive_logs_171281676.json")
    assert tok.envelope == "packets" and tok.table_id == 171281676 and len(tok.packets) == 122


# ---- the record: result, abandoned tables, BGA's claims ------------------------------


def test_abandoned_table_imports_as_far_as_it_goes() -> None:
    imp = import_log(parse_log(game_packets(finished=False), "x"))
    assert imp.record.result is None
    assert "no end-of-game packet" in imp.warnings[0]
    assert replay(imp.record).status in (INCOMPLETE, COMPLETE)


def _conceding(end_concede: bool, *before_end: dict[str, Any]) -> list[dict[str, Any]]:
    """The toy game cut short: Bob concedes after A's first turn (BGA's ``playerConcedeGame``), then BGA's
    end of game, which marks the concession or not."""
    end = end_state({A: 6, B: 0})
    end["args"]["args"]["table"]["concede"] = end_concede
    end["args"]["args"]["result"][1]["concede"] = int(end_concede)
    return [*game_packets(finished=False)[:2],
            packet(3, notif("c1", "playerConcedeGame", player_name="Bob"), *before_end),
            packet(4, notif("n1", "gameResultNeutralized", progression=12, player_id=B), end)]


def _with(first: dict[str, Any]) -> list[dict[str, Any]]:
    """The toy game with ``first`` opening B's turn (packet 3)."""
    ps = game_packets()
    ps[2]["data"].insert(0, first)
    return ps


@pytest.mark.parametrize("first", [
    notif("j1", "timeJokerUsed", player_name="Bob", nb_days=1),
    notif("j1", "leaveGameState", id=10)], ids=["timeJokerUsed", "leaveGameState"])
def test_framework_notifications_of_real_logs_change_nothing(first: dict[str, Any]) -> None:
    """Seen in real turn-based logs of other titles: a holiday taken (``timeJokerUsed``), a state
    left (``leaveGameState``); neither carries game facts."""
    check_record(import_log(parse_log(_with(first), "x")).record)


def test_a_conceded_game_imports_as_far_as_it_went() -> None:
    """A real BGA log of a conceded game names who conceded (``playerConcedeGame``) and ends there: the
    record's result says ``concede``, and it replays as far as the game went."""
    rec = import_log(parse_log({"status": 1, "data": {"players": players(), "logs": _conceding(True)}}, "c.json")).record
    assert rec.result is not None and rec.result["end"] == "concede" and rec.result["rank"] == {str(A): 1, str(B): 2}
    assert [e.kind for e in rec.events] == ["chance", "move"]
    assert replay(rec).status == INCOMPLETE


def test_gamerec_import_says_a_game_was_conceded(tmp_path: Path) -> None:
    log = tmp_path / "c.json"
    log.write_text(json.dumps({"status": 1, "data": {"players": players(), "logs": _conceding(True)}}))
    out = CliRunner().invoke(main, ["import", "bga", str(log), "--out", str(tmp_path / "out")])
    assert out.exit_code == 0, out.output
    assert "2 events from 4 packets (conceded)" in out.output


@pytest.mark.parametrize(("packets", "where", "reason"), [
    (_conceding(False), "packet 4 (gameStateChange)", "BGA says 84100002 conceded the game, but its end of game does not"),
    (_conceding(True, notif("r9", "rollDie", value=2)), "packet 3 (rollDie)", "the game goes on after 84100002 conceded it"),
    ([*game_packets()[:2], packet(3, notif("c1", "playerConcedeGame", player_name="Zed")), game_packets()[4]],
     "packet 3 (playerConcedeGame)", "BGA says 'Zed' conceded the game, and no one player of this table is so named"),
    (_with(notif("k1", "skipTurnOfPlayer", player_id=B, zombie=False)),
     "packet 3 (skipTurnOfPlayer)", "BGA skipped 84100002's turn (out of time), and 84100002 played on to the end"),
    (_with(notif("z1", "zombieBack", player_id=B)),
     "packet 3 (zombieBack)", "84100002 came back to the table after leaving it: our rules know no player who returns"),
])
def test_what_bga_says_of_a_concession_a_skipped_turn_or_a_return_is_checked(
        packets: list[dict[str, Any]], where: str, reason: str) -> None:
    with pytest.raises(BgaImportError) as e:
        import_log(parse_log({"status": 1, "data": {"players": players(), "logs": packets}}, "t.json"))
    assert str(e.value).startswith(f"t.json: {where}: {reason}"), str(e.value)


def test_a_bga_score_our_rules_do_not_give_is_kept_and_caught_at_its_event() -> None:
    ps = game_packets()
    ps[2]["data"][2]["args"]["scores"] = {str(A): 6, str(B): 4}  # hand-edited: B's score +1
    imp = import_log(parse_log(ps, "x"))
    assert [str(m) for m in imp.mismatches] == ["packet 3 (newScores): BGA says score.84100002 is 4, our rules give 3"]
    r = replay(imp.record)
    assert r.status == DIVERGED and r.divergences[0].seq == 4 and r.divergences[0].kind == "observation_mismatch"


def test_import_is_deterministic() -> None:
    from replay.record import dumps

    a = dumps(import_log(parse_log(envelopes()["archive-2026"], "x")).record)
    b = dumps(import_log(parse_log(envelopes()["archive-2026"], "x")).record)
    assert a == b
    assert loads(a).to_dict() == loads(b).to_dict()


# ---- the command line -------------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, list(args))
    assert "Traceback" not in res.output
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.output


def write_logs(folder: Path) -> None:
    folder.mkdir()
    (folder / "good.log.json.gz").write_bytes(gzip.compress(orjson.dumps(envelopes()["archive-2026"])))
    (folder / "good.table.json").write_bytes(orjson.dumps(
        {"game": "toyrace", "version": "v9", "table_id": TABLE, "viewer": str(A),
         "players": [{"id": str(A), "name": "Ann", "player_no": 1, "table_order": 1},
                     {"id": str(B), "name": "Bob", "player_no": 2, "table_order": 2}]}))
    ps = game_packets()
    ps[1]["data"][1]["type"] = "mysteryBonus"
    ps[1]["table_id"] = 5
    for p in ps:
        p["channel"] = "/table/t5"
    (folder / "bad.json").write_bytes(orjson.dumps(ps))


def test_cli_import_bga_converts_the_good_and_names_the_bad(tmp_path: Path) -> None:
    write_logs(tmp_path / "logs")
    code, out = run("import", "bga", str(tmp_path / "logs"), "--out", str(tmp_path / "out"))
    assert code == 1
    assert "refused: " in out and "bad.json: packet 2 (mysteryBonus): unknown notification type" in out
    assert "imported 1 of 2 logs" in out
    rec = loads((tmp_path / "out" / f"bga-{TABLE}.json").read_bytes())  # viewer only in the table file: not in the id
    assert rec.source["version"] == "v9"
    code, out = run("verify", str(tmp_path / "out"))
    assert code == 0 and "1 records: 1 complete" in out


def test_cli_verify_and_replay_take_logs_mixed_with_records(tmp_path: Path) -> None:
    write_logs(tmp_path / "logs")
    code, out = run("verify", str(tmp_path / "logs"))
    assert code == 1
    assert "invalid: " in out and "packet 2 (mysteryBonus)" in out and "1 complete" in out
    code, out = run("replay", str(tmp_path / "logs" / "good.log.json.gz"), "--json", "--ruleset", "official")
    assert code == 0 and orjson.loads(out.splitlines()[0])["status"] == COMPLETE


def test_ingest_takes_logs_and_quarantines_the_unimportable(tmp_path: Path) -> None:
    import duckdb

    from ingest.pipeline import ingest

    write_logs(tmp_path / "logs")
    db = tmp_path / "g.duckdb"
    s = ingest([str(tmp_path / "logs")], db, workers=0, publish_every=-1)
    assert s.counts.new == 1 and s.counts.quarantined == 1
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT game_id, source_kind, status FROM games").fetchall() == [
        (f"bga-{TABLE}", "bga", "complete")]
    (err,) = con.execute("SELECT error FROM quarantine").fetchone()  # type: ignore[misc]
    assert "packet 2 (mysteryBonus)" in err
    con.close()
    s = ingest([str(tmp_path / "logs")], db, workers=0, publish_every=-1, ruleset="official")
    assert s.counts.skipped == 1  # same record content: idempotent


def test_args_keeping_leaves_the_named_values_raw_and_decodes_the_rest() -> None:
    import msgspec

    n = Notif("placePolyomino", msgspec.Raw(b'{"player_id": 7, "board": {"a": [1, 2]}, "n": "3"}'))
    a = n.args_keeping("board")
    assert a["player_id"] == 7 and a["n"] == "3" and bytes(a["board"]) == b'{"a": [1, 2]}'
    assert n.args == {"player_id": 7, "board": {"a": [1, 2]}, "n": "3"}  # the args themselves are intact
    assert Notif("x", msgspec.Raw(b"[1]")).args_keeping("board") == [1]
    assert Notif("x", {"board": 1}).args_keeping("board") == {"board": 1}  # built by hand: as it is


def test_args_as_reads_only_the_named_fields_and_refuses_a_missing_one() -> None:

    import msgspec

    class Send(msgspec.Struct):
        location: Any
        slot: Any = msgspec.UNSET

    raw = msgspec.Raw(b'{"location": "delium", "wars": {"athens": {"sparta": "1"}}, "id": "3"}')
    a = Notif("sendBattle", raw).args_as(Send)
    assert a.location == "delium" and a.slot is msgspec.UNSET
    assert Notif("sendBattle", {"location": "x", "slot": "2"}).args_as(Send) == Send("x", "2")  # built by hand
    n = Notif("sendBattle", msgspec.Raw(b'{"slot": 1}'))
    with pytest.raises(ValueError, match="location"):  # the handler's refusal: unexpected arguments
        n.args_as(Send)


def test_a_state_change_id_is_read_alone_whatever_its_place_or_type() -> None:
    import msgspec

    def sid(raw: bytes) -> object:
        return Notif("gameStateChange", msgspec.Raw(raw)).state_id

    assert sid(b'{"id":10,"args":{"x":1}}') == 10 and sid(b'{"name":"a","id":"7"}') == 7
    assert sid(b'{"name":"a"}') is None and sid(b"null") is None and sid(b'{"id":"x"}') is None
    assert Notif("gameStateChange", {"id": 99}).state_id == 99


def test_the_collector_paused_for_an_import_is_as_it_was_afterwards_even_after_a_refusal() -> None:
    import gc

    from ingest.bga.log import collector_paused, parse_bytes

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(BgaImportError):
        parse_bytes(b'{"status": 0, "error": "no"}', "x.json")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # the caller's choice stands
    finally:
        gc.enable()


def test_state_changes_picked_are_those_whose_id_is_named_however_it_is_written() -> None:
    import msgspec

    from ingest.bga.log import BgaLog, Packet, _state_pattern

    def picked(raw: bytes | dict[str, Any], ids: frozenset[int]) -> bool:
        n = Notif("gameStateChange", msgspec.Raw(raw) if isinstance(raw, bytes) else raw)
        log = BgaLog("x.json", "packets", [Packet("/table/t1", 1, 1, 0, [n])])
        return log.state_changes(ids) == [n]

    s = frozenset({3, 10})
    assert picked(b'{"id":10,"args":{}}', s) and picked(b'{"id":3}', s)
    assert not picked(b'{"id":100,"args":{}}', s) and not picked(b'{"id":1}', s)
    assert not picked(b'{"id":-10}', s)
    assert picked(b'{"name":"x","id":"10"}', s) and not picked(b'{"name":"x","id":"11"}', s)  # not first
    assert picked({"id": 3}, s) and not picked({"id": 4}, s)  # built by hand
    assert _state_pattern(s) is _state_pattern(frozenset({10, 3}))  # made once per set


def test_import_never_replaces_a_different_record_and_names_the_same_table(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for name, obj in envelopes().items():  # six envelopes of one table's log
        (logs / f"{name}.json").write_bytes(orjson.dumps(obj))
    out = tmp_path / "out"
    code, text = run("import", "bga", str(logs), "--out", str(out))
    written = sorted(p.name for p in out.iterdir())
    assert "imported 6 of 6 logs" in text and "the same table as" in text
    assert "as 2 record file(s)" in text  # never five for two files
    assert len(written) == 2  # the viewer's envelope names the viewer: bga-T-A; the others bga-T
    for w in written:  # what is there is what the first log of its id gave: nothing silently replaced
        assert loads((out / w).read_bytes()).source["table_id"] == TABLE

    # an edited log of the same table: refused, the record kept, unless --force
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    ps = game_packets()
    ps[4]["data"][0] = end_state({A: 11, B: 9})  # B's final score edited from 3 to 9
    edited = tmp_path / "edited"
    edited.mkdir()
    (edited / "packets.json").write_bytes(orjson.dumps(ps))
    code, text = run("import", "bga", str(edited), "--out", str(out))
    assert code == 1 and "already holds a different record of id" in text and "--force" in text
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    code, text = run("import", "bga", str(edited), "--out", str(out), "--force")
    assert "(replaced)" in text
    assert loads((out / f"bga-{TABLE}.json").read_bytes()).result["score"][str(B)] == 9  # type: ignore[index]

    # the same log again: unchanged, exit 0
    code, text = run("import", "bga", str(edited), "--out", str(out))
    assert code == 0 and "(unchanged)" in text


def test_misshapen_logs_and_record_lists_get_their_own_refusal(tmp_path: Path) -> None:
    archive = envelopes()["archive-2026"]
    archive["data"]["logs"] = {str(i): p for i, p in enumerate(archive["data"]["logs"])}
    (tmp_path / "object.json").write_bytes(orjson.dumps(archive))
    ps = game_packets()
    twin = json.loads(json.dumps(ps[1]))
    twin["data"][0]["args"]["value"] = 1  # packet 2 again, with other contents
    ps.insert(2, twin)
    (tmp_path / "twice.json").write_bytes(orjson.dumps({"status": 1, "data": {"players": players(), "logs": ps}}))
    from replay.record import dumps
    from replay.simulate import simulate

    (tmp_path / "records.json").write_bytes(b"[" + b",".join(dumps(r) for r in simulate("toy", 2, 1)) + b"]")
    code, out = run("verify", str(tmp_path))
    assert code == 1
    lines = {line.split(": ", 2)[1].rsplit("/", 1)[-1]: line for line in out.splitlines() if line.startswith("invalid")}
    assert "data.logs is an object, not a list of packets" in lines["object.json"]
    assert "packet 2 appears twice" in lines["twice.json"] and "different contents" in lines["twice.json"]
    assert "a JSON list of 2 records, not a BGA log" in lines["records.json"]
    assert "unsupported format" not in out and "no game notifications" not in out


def test_when_no_reading_fits_the_refusal_of_the_one_that_came_furthest_is_given() -> None:
    from ingest.bga.convert import _further

    early, late, tie = (BgaImportError(r, packet=p) for r, p in (("a", 5), ("b", 9), ("c", 5)))
    assert _further(None, early) is early
    assert _further(early, late) is late and _further(late, early) is late
    assert _further(early, tie) is early  # at the same packet, the earlier reading's
    assert _further(BgaImportError("no packet"), early) is early


def test_a_conceding_player_renamed_since_the_game_is_found_by_the_name_the_log_gives() -> None:
    """``playerConcedeGame`` names the player only; the envelope's names are today's."""
    ps = _conceding(True)
    ps[0]["data"].append(notif("n0", "message", player_id=B, player_name="Bob"))  # Bob's name then
    env = {"status": 1, "data": {"players": [*players()[:1], {**players()[1], "name": "Robert"}], "logs": ps}}
    assert import_log(parse_log(env, "x")).record.result["end"] == "concede"


def test_a_concession_that_gives_the_players_id_is_read_by_the_id() -> None:
    """Real logs give ``player_id`` beside ``player_name``: a name nobody at the table has today
    (and no notification gives) is no matter when the id is a seated player's."""
    ps = _conceding(True)
    ps[2]["data"][0]["args"] = {"player_name": "Bobby", "player_id": B}
    rec = import_log(parse_log({"status": 1, "data": {"players": players(), "logs": ps}}, "x")).record
    assert rec.result is not None and rec.result["end"] == "concede"
    ps[2]["data"][0]["args"] = {"player_name": "Bobby", "player_id": 1}
    with pytest.raises(BgaImportError, match=r"BGA says player 1 \('Bobby'\) conceded the game"):
        import_log(parse_log({"status": 1, "data": {"players": players(), "logs": ps}}, "x"))


def test_an_archive_log_a_browser_showed_and_saved_as_a_web_page(tmp_path: Path) -> None:
    """Opened in a browser, the archive log shows as text; *Save as... Web page* keeps it in a
    ``<pre>``, with ``<``, ``>`` and ``&`` escaped (BGA's messages hold HTML)."""
    import html

    obj = envelopes()["archive-2026"]
    obj["data"]["logs"][2]["data"][3]["log"] = "<b>hi</b> & bye"  # the "message" note
    page = ('<html><head><meta name="color-scheme" content="light dark"></head><body>'
            '<pre style="word-wrap: break-word; white-space: pre-wrap;">'
            + html.escape(json.dumps(obj), quote=False) + "</pre></body></html>")
    (tmp_path / "logs.html").write_text(page)
    log = read_log(tmp_path / "logs.html")
    assert log.envelope == "archive-2026"
    check_record(import_log(log).record)
    (tmp_path / "bad.html").write_text("<html><body><pre>{\"status\": 1, </pre></body></html>")
    with pytest.raises(BgaImportError, match="the JSON this page shows is not valid JSON"):
        read_log(tmp_path / "bad.html")


def test_verify_and_replay_read_the_replay_pages_in_a_folder_as_ingest_does(tmp_path: Path) -> None:
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "replay.html").write_text("<html><script>g_gamelogs = " + json.dumps(envelopes()["replay-page"])
                                        + ";</script></html>")
    code, out = run("verify", str(folder))
    assert code == 0 and "1 records: 1 complete" in out
    code, out = run("replay", str(folder))
    assert code == 0 and "toy" in out.lower()
