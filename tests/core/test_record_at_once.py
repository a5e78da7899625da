"""Reading a record at once (msgspec, the game's own event struct) gives exactly the record the
general reading gives, or leaves the record to it: it never accepts what the general reading
refuses, and every error message stays the general reading's."""

from __future__ import annotations

import copy
import gzip
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.games import available
from replay.record import RecordError, _read_at_once, dumps, loads, parse_record
from replay.simulate import simulate

DATA = Path(__file__).resolve().parents[2] / "data"


def _general(data: bytes) -> Any:
    """The general reading's record, or its error message."""
    try:
        return parse_record(orjson.loads(data))
    except (RecordError, orjson.JSONDecodeError) as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("game", available())
def test_simulated_records_are_read_at_once_as_the_general_reading_reads_them(game: str) -> None:
    for rec in simulate(game, 3, 7, observe_every=5):
        data = dumps(rec)
        fast = _read_at_once(data)
        assert fast is not None, f"{rec.id} was left to the general reading"
        assert fast == _general(data)


def test_bundled_records_are_read_at_once_alike() -> None:
    files = sorted(DATA.glob("*/*.jsonl.gz"))
    if not files:
        pytest.skip("no bundled records under data/")
    read = 0
    for f in files:
        for line in gzip.decompress(f.read_bytes()).splitlines()[:20]:
            fast = _read_at_once(line)
            assert fast is not None and fast == _general(line), f"{f.name}: {line[:80]!r}"
            read += 1
    assert read >= 20 * len({f.parent for f in files})


def test_extra_event_fields_and_origins_are_kept() -> None:
    rec = orjson.loads(dumps(next(simulate("pax_pamir", 1, 3, observe_every=4))))
    rec["events"][0]["note"] = {"text": "opening", "n": [1, 2]}
    rec["events"][1]["at"] = "2026-01-01T00:00:01Z"
    obs = next(e for e in rec["events"] if "observe" in e)
    obs["origin"] = "bga"
    obs["src"] = 17
    data = orjson.dumps(rec)
    fast = _read_at_once(data)
    assert fast is not None and fast == _general(data)
    assert fast.events[0].extra == {"note": {"text": "opening", "n": [1, 2]}}


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.just(12345678901234567890123),
                    st.text(max_size=3), st.lists(st.integers(0, 3), max_size=2),
                    st.dictionaries(st.sampled_from(["type", "draw", "items", "x"]), st.integers(0, 3),
                                    max_size=2))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_changed_event_is_read_alike_or_left_to_the_general_reading(data: st.DataObject) -> None:
    rec = copy.deepcopy(_BASE)
    events = rec["events"]
    i = data.draw(st.integers(0, len(events) - 1))
    ev = events[i]
    where = data.draw(st.sampled_from(["event", "move", "chance", "observe", "top"]))
    target: Any = {"event": ev, "move": ev.get("move"), "chance": ev.get("chance"),
                   "observe": ev.get("observe"), "top": rec}[where]
    if not isinstance(target, dict):
        target = ev
    key = data.draw(st.sampled_from(sorted(target) + ["origin", "at", "player", "move", "chance", "observe",
                                                      "type", "surplus"]))
    if data.draw(st.booleans()) and key in target:
        del target[key]
    else:
        target[key] = data.draw(_VALUES)
    raw = _dump(rec)
    fast = _read_at_once(raw)
    general = _general(raw)
    if fast is not None:
        assert fast == general
    try:
        loaded: Any = loads(raw)
        loaded.sha256, loaded.booleans = "", True
    except RecordError as exc:
        loaded = f"error: {exc}"
    assert loaded == general or str(loaded).endswith(str(general)[len("error: "):])


def _dump(obj: Any) -> bytes:
    """JSON text of ``obj`` (orjson refuses integers beyond 64 bits: those are written by hand)."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        import json

        return json.dumps(obj, separators=(",", ":")).encode()


_BASE = orjson.loads(dumps(next(simulate("pax_pamir", 1, 11, observe_every=6))))
_BASE["events"] = _BASE["events"][:40]
_BASE.pop("result", None)
