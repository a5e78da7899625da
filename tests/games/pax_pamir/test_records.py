"""Records: corruption is reported at the right event with the right kind; bad moves explain
themselves; the worked example of the docs replays."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pax_pamir_helpers import GAME

from replay.record import parse_record
from replay.replayer import COMPLETE, DIVERGED, INCOMPLETE, replay
from replay.simulate import simulate_one


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return simulate_one(GAME, 3, 11, 2).to_dict()


def run(obj: dict[str, Any]) -> Any:
    return replay(parse_record(obj))


def first(obj: dict[str, Any], pred: Any) -> int:
    return next(i for i, e in enumerate(obj["events"]) if pred(e))


def test_the_record_replays_complete(record: dict[str, Any]) -> None:
    r = run(record)
    assert r.status == COMPLETE
    kinds = {m["type"] for m in r.milestones}
    assert {"dominance_check", "loyalty_change"} <= kinds


def test_an_observation_off_by_one(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    i = first(obj, lambda e: "observe" in e and "score" in e["observe"] and e["observe"]["score"]["p2"] > 0)
    obj["events"][i]["observe"]["score"]["p2"] += 1
    r = run(obj)
    assert r.status == DIVERGED
    d = r.divergences[0]
    assert (d.seq, d.kind, d.key) == (i, "observation_mismatch", "score.p2")


def test_game_observables_are_compared(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    i = first(obj, lambda e: "move" in e and e["move"]["type"] == "end_turn")
    obj["events"].insert(i, {"observe": {"rupees": {"p1": 99}, "favored_suit": "gold"}})
    r = run(obj)
    keys = [d.key for d in r.divergences if d.seq == i]
    assert keys == ["rupees.p1", "favored_suit"]


def test_a_move_by_the_wrong_player(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    i = first(obj, lambda e: "move" in e and e["move"]["type"] == "buy")
    obj["events"][i]["player"] = "p3" if obj["events"][i]["player"] != "p3" else "p1"
    r = run(obj)
    d = r.divergences[0]
    assert (d.seq, d.kind) == (i, "wrong_player")


def test_a_dropped_chance_event(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    i = first(obj, lambda e: "choose" in e.get("chance", {}))
    del obj["events"][i]
    r = run(obj)
    d = r.divergences[0]
    assert (d.seq, d.kind) == (i, "missing_chance")
    assert "first chooser" in d.message


def test_an_impossible_draw(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    obj["events"][1]["chance"]["items"] = obj["events"][0]["chance"]["items"]
    r = run(obj)
    d = r.divergences[0]
    assert (d.seq, d.kind) == (1, "impossible_chance")


def test_an_illegal_move_stops_the_replay_with_a_reason(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    i = first(obj, lambda e: "move" in e and e["move"]["type"] == "play")
    obj["events"][i]["move"]["card"] = 0
    r = run(obj)
    d = r.divergences[0]
    assert (d.seq, d.kind) == (i, "illegal_move")
    assert "cannot play card 0: it is not in" in d.message
    assert len(r.frames) == i


def test_a_move_after_the_end(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    obj["events"].append({"player": "p1", "move": {"type": "end_turn"}})
    r = run(obj)
    d = r.divergences[0]
    assert (d.seq, d.kind) == (len(obj["events"]) - 1, "events_after_end")


def test_a_truncated_record_is_incomplete_or_contradicts_its_result(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    obj["events"] = obj["events"][: len(obj["events"]) // 2]
    result = obj.pop("result")
    assert run(obj).status == INCOMPLETE
    obj["result"] = result
    r = run(obj)
    assert r.status == DIVERGED and r.divergences[0].kind == "result_mismatch"


def test_a_wrong_final_score_or_rank(record: dict[str, Any]) -> None:
    obj = copy.deepcopy(record)
    obj["result"]["score"]["p1"] += 5
    obj["result"]["rank"]["p1"] = 9
    r = run(obj)
    assert [d.key for d in r.divergences] == ["score.p1", "rank.p1"]


def test_unknown_move_types_and_fields_are_rejected_on_reading() -> None:
    from replay.record import RecordError

    base = simulate_one(GAME, 2, 1, 0).to_dict()
    i = first(base, lambda e: "move" in e)
    bad = copy.deepcopy(base)
    bad["events"][i]["move"] = {"type": "conquer", "region": "kabul"}
    with pytest.raises(RecordError, match="unknown move type 'conquer'"):
        parse_record(bad)
    bad = copy.deepcopy(base)
    bad["events"][i]["move"] = {"type": "choose_loyalty", "coalition": 3}
    with pytest.raises(RecordError, match="Expected `str`"):
        parse_record(bad)


def test_a_move_out_of_place_names_what_the_rules_await() -> None:
    from pax_pamir_helpers import illegal, setup

    from replay.games.pax_pamir.moves import PlaceRoad, TaxMarket

    s = setup()
    illegal(s, TaxMarket(row=0, col=0), "p1 cannot tax market now", "next action")
    illegal(s, PlaceRoad(border="kabul_punjab"), "cannot place road now")


def test_the_worked_example_in_the_docs_replays_without_divergence() -> None:
    import json
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "games" / "pax_pamir.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)```", doc, re.S)
    assert block is not None
    r = replay(parse_record(json.loads(block.group(1))))
    assert r.status == INCOMPLETE and not r.divergences
    assert r.state is not None and r.state.turn() == "p2"
