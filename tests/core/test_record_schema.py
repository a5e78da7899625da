"""The published JSON Schema of a record (docs/record-schema.json): generated from the structs the
reader decodes into, it is the committed file, every bundled record is valid under it, and it
refuses the records the reader refuses for their form."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import orjson
import pytest

from replay.games import available
from replay.record import RecordError, dumps, loads, schema_text
from replay.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "record-schema.json"


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)  # a valid JSON Schema (2020-12)
    return jsonschema_rs.validator_for(schema)


def test_the_committed_schema_is_the_one_the_structs_give() -> None:
    assert SCHEMA_FILE.read_text() == schema_text(), (
        "docs/record-schema.json is out of date: python -m replay.record > docs/record-schema.json")


def test_every_bundled_record_is_valid(validator: Any) -> None:
    files = sorted((ROOT / "data").glob("*/*.jsonl.gz"))
    if not files:
        pytest.skip("no bundled records under data/")
    titles = set()
    n = 0
    for f in files:
        for line in gzip.decompress(f.read_bytes()).splitlines():
            rec = orjson.loads(line)
            errors = [str(e) for e in validator.iter_errors(rec)][:1]
            assert not errors, f"{f.name}: {rec['id']}: {errors}"
            titles.add(rec["game"])
            n += 1
    assert n >= 100 and titles == set(available())


@pytest.mark.parametrize("game", available())
def test_simulated_records_and_seat_views_are_valid(validator: Any, game: str) -> None:
    for rec in [*simulate(game, 2, 5, observe_every=3), *simulate(game, 1, 6, view="p2")]:
        assert validator.is_valid(orjson.loads(dumps(rec))), rec.id


def _bad(change: Any) -> dict[str, Any]:
    rec = copy.deepcopy(_BASE)
    change(rec)
    return rec


def _move(rec: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in rec["events"] if "move" in e)


def _chance(rec: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in rec["events"] if "chance" in e)


BAD = {
    "format": lambda r: r.update(format="gamerec/2"),
    "unknown game": lambda r: r.update(game="chess"),
    "empty id": lambda r: r.update(id=""),
    "long id": lambda r: r.update(id="x" * 300),
    "id with a line break": lambda r: r.update(id="a\nb"),
    "one player": lambda r: r["players"].pop(),
    "unknown player field": lambda r: r["players"][0].update(seat=1),
    "unknown option": lambda r: r["options"].update(speed=2),
    "unknown ruleset": lambda r: r["options"].update(ruleset="house"),
    "no events": lambda r: r.pop("events"),
    "event of no form": lambda r: r["events"].append({"dance": 1}),
    "event of two forms": lambda r: r["events"].append({"chance": {"roll": [1]}, "observe": {}}),
    "a move without player": lambda r: _move(r).pop("player"),
    "a chance with a player": lambda r: _chance(r).update(player="p1"),
    "unknown move type": lambda r: _move(r)["move"].update(type="fly"),
    "unknown move field": lambda r: _move(r)["move"].update(x=1),
    "mistyped move field": lambda r: r["events"].append({"player": "p1", "move": {"type": "take_card", "slot": "3"}}),
    "unknown chance form": lambda r: _chance(r).update(chance={"coin": 1}),
    "a die that is not an integer": lambda r: _chance(r).update(chance={"roll": [1, "x"]}),
    "a revealed unknown item": lambda r: _chance(r).update(chance={"reveal": "hand:p1", "items": [None]}),
    "unknown observable key": lambda r: r["events"].append({"observe": {"mood": 1}}),
    "observe with an origin not text": lambda r: r["events"].append({"observe": {}, "origin": 3}),
    "a score that is not a number": lambda r: r.update(result={"score": {"p1": "many"}}),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_schema_refuses_what_the_reader_refuses(validator: Any, name: str) -> None:
    rec = _bad(BAD[name])
    with pytest.raises(RecordError):
        loads(orjson.dumps(rec))
    assert not validator.is_valid(rec)


def test_the_base_of_the_bad_records_is_valid(validator: Any) -> None:
    assert validator.is_valid(_BASE) and loads(orjson.dumps(_BASE))


_BASE = orjson.loads(dumps(next(simulate("copenhagen", 1, 3, observe_every=5))))
