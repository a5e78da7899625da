"""The one record reader: msgspec decodes a record straight into its game's structs, and the
checks the structs cannot state run once after.  Whatever the text, reading gives a record or a
RecordError naming where and why, never another exception."""

from __future__ import annotations

import copy
import json
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.games import available
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, RecordError, dumps, loads, parse_record
from replay.simulate import simulate


@pytest.mark.parametrize("game", available())
def test_simulated_records_read_back_as_written(game: str) -> None:
    for rec in simulate(game, 3, 7, observe_every=5):
        back = loads(dumps(rec))
        assert back.events == rec.events and back.players == rec.players and back.options == rec.options
        assert back.result == rec.result and back.source == rec.source and back.id == rec.id
        assert dumps(back) == dumps(rec)
        observed = [i for i, e in enumerate(back.events) if isinstance(e, ObserveEvent)]
        assert sorted(back.observation_texts) == observed
        assert all(orjson.loads(bytes(back.observation_texts[i])) == back.events[i].facts  # type: ignore[union-attr]
                   for i in observed)


def test_each_event_is_its_form_s_type_with_its_extra_keys_and_origin() -> None:
    rec = orjson.loads(dumps(next(simulate("pax_pamir", 1, 3, observe_every=4))))
    rec["events"][0]["note"] = {"text": "opening", "n": [1, 2]}
    rec["events"][1]["at"] = "2026-01-01T00:00:01Z"
    rec["events"][1]["src"] = None
    obs = next(e for e in rec["events"] if "observe" in e)
    obs["origin"] = "bga"
    obs["src"] = 17
    got = loads(orjson.dumps(rec))
    assert got.events[0].extra == {"note": {"text": "opening", "n": [1, 2]}}
    assert got.events[1].extra == {"at": "2026-01-01T00:00:01Z", "src": None}
    observed = next(e for e in got.events if isinstance(e, ObserveEvent))
    assert observed.origin == "bga" and observed.extra == {"src": 17}
    kinds = {type(e) for e in got.events}
    assert kinds == {MoveEvent, ChanceEvent, ObserveEvent}
    assert orjson.loads(dumps(got)) == rec


def test_a_record_given_as_values_is_read_as_its_text_is() -> None:
    rec = orjson.loads(dumps(next(simulate("coal_baron", 1, 5))))
    assert parse_record(rec) == loads(orjson.dumps(rec)) or parse_record(rec).to_dict() == rec
    rec["events"][3] = {"player": rec["players"][0]["id"], "move": {"type": "no_such_move"}}
    with pytest.raises(RecordError, match=r"event 3 at \$\.events\[3\]\.move\.type: unknown move type"):
        parse_record(rec)


@pytest.mark.parametrize("where", ["observe", "chance", "source", "move"])
def test_an_integer_beyond_64_bits_is_refused_wherever_it_is(where: str) -> None:
    huge = 12345678901234567890123
    rec = orjson.loads(dumps(next(simulate("toy", 1, 3, observe_every=1))))
    i = next(i for i, e in enumerate(rec["events"]) if where in e) if where != "source" else None
    if where == "observe":
        rec["events"][i]["observe"]["score"]["a"] = huge
        path = f"$.events[{i}].observe.score.a"
    elif where == "chance":
        rec["events"][i]["chance"] = {"roll": [huge]}
        path = f"$.events[{i}].chance.roll[0]"
    elif where == "move":
        rec["events"][i]["move"]["steps"] = huge
        path = f"$.events[{i}].move.steps"
    else:
        rec["source"] = {"seed": huge}
        path = "$.source.seed"
    with pytest.raises(RecordError) as info:
        loads(json.dumps(rec).encode(), "f.jsonl", 2)
    assert "at most 64 bits" in str(info.value) and f"at {path}:" in str(info.value)
    assert info.value.event == i
    rec2 = copy.deepcopy(rec)
    text = json.dumps(rec2).replace(str(huge), str(2**64 - 1))
    loads(text.encode())  # the largest 64-bit integer is one


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.just(12345678901234567890123),
                    st.text(max_size=3), st.lists(st.integers(0, 3), max_size=2),
                    st.dictionaries(st.sampled_from(["type", "draw", "items", "x", "score"]), st.integers(0, 3),
                                    max_size=2))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_changed_record_is_read_or_refused_with_a_located_error(data: st.DataObject) -> None:
    """Change one value anywhere (an event, its move, chance or observation, the top level): the
    reader gives a record that writes and reads back alike, or a RecordError with the file, the
    line and, for a bad event, its index and a path inside it."""
    rec = copy.deepcopy(_BASE)
    events = rec["events"]
    i = data.draw(st.integers(0, len(events) - 1))
    ev = events[i]
    where = data.draw(st.sampled_from(["event", "move", "chance", "observe", "top", "player"]))
    target: Any = {"event": ev, "move": ev.get("move"), "chance": ev.get("chance"),
                   "observe": ev.get("observe"), "top": rec, "player": rec["players"][0]}[where]
    if not isinstance(target, dict):
        target = ev
    key = data.draw(st.sampled_from(sorted(target) + ["origin", "at", "player", "move", "chance", "observe",
                                                      "type", "surplus"]))
    if data.draw(st.booleans()) and key in target:
        del target[key]
    else:
        target[key] = data.draw(_VALUES)
    raw = json.dumps(rec, separators=(",", ":")).encode()
    try:
        got = loads(raw, "f.jsonl", 9)
    except RecordError as exc:
        text = str(exc)
        assert text.startswith("f.jsonl:9: ") and exc.reason and exc.path.startswith("$")
        if exc.event is not None:
            assert text.startswith(f"f.jsonl:9: event {exc.event} at $.events[{exc.event}]")
        return
    again = loads(dumps(got))
    assert again == got or again.to_dict() == got.to_dict()


_BASE = orjson.loads(dumps(next(simulate("pax_pamir", 1, 11, observe_every=6))))
_BASE["events"] = _BASE["events"][:40]
_BASE.pop("result", None)
