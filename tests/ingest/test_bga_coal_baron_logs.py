"""The shared Coal Baron BGA logs end to end, and hand-edited copies caught at the right event."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from ingest.bga import BgaImportError, import_file, import_log, parse_log
from ingest.bga.log import attach_table, read_table_file
from replay.record import ObserveEvent, dumps, loads
from replay.replayer import COMPLETE, DIVERGED, replay

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs" / "coal_baron"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/coal_baron")
FILES = sorted(LOGS.glob("*.log.json.gz")) if LOGS.is_dir() else []
EVERY_ACTION = LOGS.parent.parent / "bga-logs-every-action" / "coal_baron"
EVERY_FILES = sorted(EVERY_ACTION.glob("*.log.json.gz")) if EVERY_ACTION.is_dir() else []
"""Logs whose players take every action the client offers (undo, preferences)."""
needs_logs = pytest.mark.skipif(not FILES, reason=f"the shared Coal Baron BGA logs are not at {LOGS}")
from bgatest import raw_log, table_of  # noqa: E402


def imported(raw: dict[str, Any], path: Path) -> Any:
    log = parse_log(raw, str(path))
    attach_table(log, read_table_file(path.with_name(path.name.replace(".log.json.gz", ".table.json"))))
    return import_log(log)


@needs_logs
@pytest.mark.parametrize("path", FILES + EVERY_FILES, ids=lambda p: p.name.split(".")[0])
def test_every_shared_log_imports_and_replays_complete_with_bga_final_scores(path: Path) -> None:
    imp = import_file(path)
    assert imp.mismatches == [] and imp.warnings == []
    rec = loads(dumps(imp.record))
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:3]
    table = table_of(path)
    assert r.totals == {p["id"]: p["score"] for p in table["players"]}
    assert [p["id"] for p in rec.players] == [p["id"] for p in sorted(table["players"], key=lambda p: p["player_no"])]
    # every shift majority BGA announced is an observation checked against our milestone there
    majorities = sum(1 for p in raw_log(path)["data"]["logs"] for n in p["data"] if n["type"] == "endShiftMajority")
    checked = [ev for ev in rec.events if isinstance(ev, ObserveEvent) and "shift_ranking" in ev.facts
               and any("rank" in v for s in ev.facts["shift_ranking"].values()
                       for c in s.values() for v in c.values())]
    assert len(checked) == majorities
    assert len({(m["shift"], m["category"]) for m in r.milestones}) == 4 + 8 + 12


def first(raw: dict[str, Any], type_: str, pred: Any = lambda n: True) -> tuple[int, int, dict[str, Any]]:
    for i, p in enumerate(raw["data"]["logs"]):
        for j, n in enumerate(p["data"]):
            if n["type"] == type_ and pred(n):
                return i, j, n
    raise AssertionError(f"no {type_}")


@needs_logs
def test_a_majority_changed_by_one_point_is_caught_at_that_event_naming_category_and_player() -> None:
    path = FILES[0]
    raw = copy.deepcopy(raw_log(path))
    _, _, n = first(raw, "endShiftMajority")
    n["args"]["p"] += 1
    pid = str(n["args"]["player_id"])
    imp = imported(raw, path)
    assert len(imp.mismatches) >= 1
    rec = loads(dumps(imp.record))
    r = replay(rec)
    assert r.status == DIVERGED
    d = r.divergences[0]
    ev = rec.events[d.seq]
    assert isinstance(ev, ObserveEvent) and ev.extra is not None and ev.extra["src"]["uid"] == n["uid"]
    shift = next(iter(ev.facts["shift_ranking"]))
    category = next(iter(ev.facts["shift_ranking"][shift]))
    assert d.kind == "observation_mismatch" and d.key == f"shift_ranking.{shift}.{category}.{pid}.points"
    assert (d.recorded, d.replayed) == (n["args"]["p"], n["args"]["p"] - 1)
    assert category in d.message and pid in d.message
    assert str(d.recorded) in d.message and str(d.replayed) in d.message


@needs_logs
def test_a_final_scoring_item_changed_is_caught_at_that_event() -> None:
    path = FILES[1]
    raw = copy.deepcopy(raw_log(path))
    _, _, n = first(raw, "endGameScoringCoals")
    n["args"]["n"] += 3
    rec = loads(dumps(imported(raw, path).record))
    d = replay(rec).divergences[0]
    assert d.key == f"final_scoring.end_coal.{n['args']['player_id']}.value"
    assert rec.events[d.seq].extra["src"]["uid"] == n["uid"]  # type: ignore[union-attr,index]


def without_packet(raw: dict[str, Any], type_: str, pred: Any = lambda n: True) -> tuple[dict[str, Any], int]:
    out = copy.deepcopy(raw)
    i, _, _ = first(out, type_, pred)
    pid = int(out["data"]["logs"][i]["packet_id"])
    del out["data"]["logs"][i]
    return out, pid


@needs_logs
@pytest.mark.parametrize("type_, pred", [
    ("placeWorkers", lambda n: n["args"]["space"].startswith("mining")),
    ("placeWorkers", lambda n: n["args"]["space"].startswith("bank")),
    ("refillFactorySpace", lambda n: True),
    ("movePitCage", lambda n: True),
    ("giveCardTo", lambda n: True),          # a draft pick
    ("endShiftMajority", lambda n: True),
])
def test_a_removed_packet_is_refused_or_caught(type_: str, pred: Any) -> None:
    path = FILES[0]  # its first majority is scored after shift 2, mid-log
    raw, pid = without_packet(raw_log(path), type_, pred)
    try:
        imp = imported(raw, path)
    except BgaImportError as exc:
        assert exc.packet is not None and exc.packet >= pid - 1, str(exc)
        assert path.name in str(exc)
        return
    r = replay(loads(dumps(imp.record)))
    assert r.status == DIVERGED and imp.mismatches


@needs_logs
def test_a_log_cut_before_its_end_is_said_to_be_cut() -> None:
    path = FILES[2]
    raw = copy.deepcopy(raw_log(path))
    del raw["data"]["logs"][-1]   # the last turn's refill, the last shift's scoring, the end
    imp = imported(raw, path)
    assert imp.record.result is None and any("cut short" in w for w in imp.warnings)


def official(name: str) -> tuple[Any, list[Any]]:
    """A shared log imported, then replayed under the rulebook instead of BGA's rules."""
    rec = loads(dumps(import_file(LOGS / f"{name}.log.json.gz").record))
    rec.options["ruleset"] = "official"
    return rec, replay(rec).divergences


def src_packet(rec: Any, seq: int) -> int:
    out: int = rec.events[seq].to_dict()["src"]["packet"]
    return out


@needs_logs
def test_the_bga_departures_documented_with_their_packets() -> None:
    """docs/games/coal_baron.md lists the packets where BGA departs from the rulebook: replayed under
    the official rules, these logs part from it exactly there."""
    rec, divs = official("coalbaron_4p_seed303")       # row 1: no second place after a tie for first
    first = divs[0]
    assert (first.key, first.recorded, first.replayed) == ("shift_ranking.3.carts_grey.84103034.points", 0, 6)
    assert src_packet(rec, first.seq) == 600
    rec, divs = official("coalbaron_2p_seed301")       # row 2: pit balance over the whole pit
    first = divs[0]
    assert (first.key, first.recorded, first.replayed) == ("final_scoring.end_pit_balance.84103011.value", 1, 5)
    assert src_packet(rec, first.seq) == 387
    rec, divs = official("coalbaron_4p_seed306")       # row 6: BGA's supply of 32 cubes per colour
    first = divs[0]
    assert first.kind == "impossible_chance" and src_packet(rec, first.seq - 1) == 458


PINNED = Path(__file__).resolve().parent / "bga_logs" / "coal_baron"
CAGE_OF_SIX = PINNED / "coalbaron_3p_seed42301.log.json.gz"
"""BGA's code of 2024-04-30: packet 181 loads a sixth cube into a cage; packet 480 scores a second
place after a tie of two for first."""
TWO_WAY_TIE = PINNED / "coalbaron_3p_seed42204.log.json.gz"
"""BGA's code of 2024-05-31 (the cage fixed, the tie not yet): packet 493 scores a second place after
a tie of two for first."""


@pytest.mark.parametrize(("path", "options", "departures"), [
    (CAGE_OF_SIX, {"cage_capacity": 6, "second_place_after_two_way_tie": True}, {"cage_holds_six"}),
    (TWO_WAY_TIE, {"second_place_after_two_way_tie": True}, set()),
], ids=["cage_of_six", "two_way_tie"])
def test_a_log_of_bgas_older_code_imports_under_its_rules(path: Path, options: dict[str, Any],
                                                          departures: set[str]) -> None:
    """The record names the older code's rules as options; its replay is complete, and a sixth cube
    in the cage is a departure from the rulebook."""
    imp = import_file(path)
    rec = imp.record
    assert rec.options == {"ruleset": "bga", **options}
    assert rec.source is not None and len(rec.source["notes"]) == len(options) and imp.warnings == rec.source["notes"]
    assert all(f"option {option}" in note for option, note in zip(sorted(options), sorted(rec.source["notes"])))
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:3]
    assert r.state is not None
    assert departures <= {d["rule"] for d in r.state.departures}
    assert ("cage_holds_six" in {d["rule"] for d in r.state.departures}) == ("cage_capacity" in options)


def test_todays_code_reads_as_todays_rules() -> None:
    rec = import_file(PINNED / "coalbaron_3p_seed20000.log.json.gz").record
    assert rec.options == {"ruleset": "bga"} and rec.source is not None and "notes" not in rec.source


def test_without_the_tie_evidence_the_log_reads_as_todays_code() -> None:
    """The second place of packet 493 is what tells the older code: a copy whose place there is
    another is read as today's code, with no note, and BGA's claim there is a divergence."""
    raw = raw_log(TWO_WAY_TIE)
    tie: dict[str, Any] | None = None
    for packet in raw["data"]["logs"]:
        if packet["packet_id"] == "493":
            tie = next(n for n in packet["data"] if n["type"] == "endShiftMajority" and str(n["args"]["pos"]) == "2"
                       and str(n["args"]["i"]) == "12")
            tie["args"]["pos"] = 3
    assert tie is not None
    rec = imported(raw, TWO_WAY_TIE).record
    assert rec.options == {"ruleset": "bga"} and rec.source is not None and "notes" not in rec.source
    assert replay(rec).status == DIVERGED


STOP_AS_CAGE_MOVE = PINNED / "coalbaron_2p_seed46013.log.json.gz"
"""BGA's code of 2024-03-23 (``1f5ed69``, before ``100e327``): packets 54, 74, 104 and 203 are stops of
mining sent as ``movePitCage``, ``a``/``b`` the steps left and the space's steps."""


def test_a_stop_of_mining_logged_as_a_cage_move_is_read_from_its_english_message() -> None:
    rec = import_file(STOP_AS_CAGE_MOVE).record
    stops = [e.extra["src"]["packet"] for e in rec.events
             if e.kind == "move" and e.move.to_dict()["type"] == "stop_mining"]
    assert {54, 74, 104, 203} <= set(stops)
    assert replay(rec).status == COMPLETE


def test_in_another_language_such_a_stop_is_refused_where_it_stands() -> None:
    raw = raw_log(STOP_AS_CAGE_MOVE)
    for packet in raw["data"]["logs"]:
        for n in packet["data"]:
            if n["type"] == "movePitCage":
                n["log"] = n["log"].replace("stops with", "s'arrête avec")
    with pytest.raises(BgaImportError, match=r"packet 54 \(movePitCage\): BGA moves 84100131's cage from level 9"):
        imported(raw, STOP_AS_CAGE_MOVE)
