"""A finished game's archive log may hold every player's private channel (a replay on BGA can be
watched as any player saw it): it is read as one seat's view.

The pinned ``*_all_views`` logs are harness logs as the harness wrote them, with every player's
private notifications (``tests/ingest/bga_logs/README.md``).  Each player's view of one must be
the record of the log that player alone would have saved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from gamerec_cli.main import main
from ingest.bga import BgaImportError, import_log
from ingest.bga.log import parse_bytes, read_bytes
from replay.record import dumps
from replay.replayer import COMPLETE, replay

ALL_VIEWS = sorted((Path(__file__).resolve().parent / "bga_logs").glob("*/*_all_views.log.json.gz"))


def own_download(obj: dict[str, Any], viewer: str) -> dict[str, Any]:
    """The log as ``viewer`` alone saves it: the table channel and their own private channel."""
    mine = f"/player/p{viewer}"
    logs = [p for p in obj["data"]["logs"] if not p["channel"].startswith("/player/") or p["channel"] == mine]
    return {"status": obj["status"], "data": {"players": obj["data"]["players"], "logs": logs}}


def record_json(obj: dict[str, Any], source: str, viewer: str | None = None) -> dict[str, Any]:
    rec = import_log(parse_bytes(orjson.dumps(obj), source), viewer=viewer).record
    return orjson.loads(dumps(rec))  # type: ignore[no-any-return]


def test_every_title_has_a_pinned_log_with_every_players_private_channel() -> None:
    titles = {p.parent.name for p in ALL_VIEWS}
    assert titles == {"coal_baron", "copenhagen", "pax_pamir", "perikles"}
    for path in ALL_VIEWS:
        log = parse_bytes(read_bytes(path), str(path))
        assert len(log.views) >= 2 and log.viewer is None, path.name


@pytest.mark.parametrize("path", ALL_VIEWS, ids=lambda p: p.parent.name)
def test_each_players_view_is_the_record_of_their_own_download(path: Path) -> None:
    obj = orjson.loads(read_bytes(path))
    for p in obj["data"]["players"]:
        pid = str(p["id"])
        whole = record_json(obj, str(path), viewer=pid)
        own = record_json(own_download(obj, pid), str(path))
        note = whole["source"].pop("notes")[0]
        assert note.endswith(f"the view of {p['name']} ({pid}), as asked (--viewer)")
        assert whole["events"] == own["events"] and whole["players"] == own["players"]
        assert whole["options"] == own["options"] and whole["result"] == own["result"]
        assert whole["id"] == f"bga-{whole['source']['table_id']}-{pid}" and whole["source"]["viewer"] == pid
        if own["source"]["viewer"] is not None:  # they had private notifications: their download names them
            assert whole == own
        # by name, whatever its case
        assert record_json(obj, str(path), viewer=p["name"].upper())["id"] == whole["id"]


@pytest.mark.parametrize("path", ALL_VIEWS, ids=lambda p: p.parent.name)
def test_without_a_viewer_the_record_is_the_first_players_view_and_replays(path: Path) -> None:
    """The first player in turn order with private notifications in the log (here the first but
    in the Pax Pamir log, whose first player got none)."""
    log = parse_bytes(read_bytes(path), str(path))
    views = log.views
    imp = import_log(log)
    rec = imp.record
    first = next(p["id"] for p in rec.players if p["id"] in views)
    assert (first == rec.players[0]["id"]) is (path.parent.name != "pax_pamir")
    assert rec.source is not None and rec.source["viewer"] == first and rec.id.endswith(f"-{first}")
    assert {q.channel for q in log.packets if q.private} == {f"/player/p{first}"}
    assert imp.warnings[0].endswith("the first player in turn order with private notifications; "
                                    "--viewer picks another")
    assert replay(rec).status == COMPLETE


def test_a_viewer_who_did_not_play_is_refused_with_the_players_named() -> None:
    path = next(p for p in ALL_VIEWS if p.parent.name == "perikles")
    with pytest.raises(BgaImportError, match=r"--viewer Nobody: no such player at this table \(players: .*\(\d+\)"):
        import_log(parse_bytes(read_bytes(path), str(path)), viewer="Nobody")


def test_a_log_of_one_view_is_that_view_whatever_viewer_is_asked() -> None:
    path = next(p for p in ALL_VIEWS if p.parent.name == "coal_baron")
    obj = orjson.loads(read_bytes(path))
    first, second = (str(p["id"]) for p in obj["data"]["players"][:2])
    own = own_download(obj, first)
    assert record_json(own, "x", viewer=second) == record_json(own, "x")


def test_the_commands_take_viewer(tmp_path: Path) -> None:
    path = next(p for p in ALL_VIEWS if p.parent.name == "perikles")
    obj = orjson.loads(read_bytes(path))
    second = obj["data"]["players"][1]
    run = CliRunner().invoke
    res = run(main, ["import", "bga", str(path), "--out", str(tmp_path / "out"), "--viewer", second["name"]])
    assert res.exit_code == 0, res.output
    assert f"this record is the view of {second['name']}" in res.output
    written = list((tmp_path / "out").glob("*.json"))
    assert [w.name for w in written] == [f"bga-{obj['data']['logs'][0]['table_id']}-{second['id']}.json"]
    res = run(main, ["verify", str(path), "--viewer", str(second["id"]), "--json"])
    assert res.exit_code == 0 and orjson.loads(res.output)["id"] == written[0].stem
    res = run(main, ["verify", str(path), "--viewer", "Nobody"])
    assert res.exit_code == 1 and "--viewer Nobody: no such player" in res.output
    res = run(main, ["verify", str(path), "--json"], env={"GAMEREC_VIEWER": second["name"]})
    assert res.exit_code == 0 and orjson.loads(res.output)["id"] == written[0].stem


def test_ingest_takes_viewer(tmp_path: Path) -> None:
    import duckdb

    path = next(p for p in ALL_VIEWS if p.parent.name == "copenhagen")
    second = orjson.loads(read_bytes(path))["data"]["players"][1]
    db = tmp_path / "g.duckdb"
    res = CliRunner().invoke(main, ["ingest", str(path), "--db", str(db), "--workers", "0", "--viewer", second["name"]])
    assert res.exit_code == 0, res.output
    with duckdb.connect(str(db), read_only=True) as con:
        (game_id,), = con.sql("SELECT game_id FROM games").fetchall()
    assert game_id.endswith(f"-{second['id']}")


def test_analyse_and_departures_take_viewer() -> None:
    from ingest.winchances import plan
    from replay.analysis import Settings

    path = next(p for p in ALL_VIEWS if p.parent.name == "coal_baron")
    second = orjson.loads(read_bytes(path))["data"]["players"][1]
    records, errors, _ = plan([str(path)], Settings(), viewer=second["name"])
    assert errors == [] and len(records) == 1 and records[0].id.endswith(f"-{second['id']}")
    res = CliRunner().invoke(main, ["departures", str(path), "--json"], env={"GAMEREC_VIEWER": "Nobody"})
    assert res.exit_code == 1 and orjson.loads(res.output)["records"] == {"invalid": 1}
