"""The gamerec/1 reader: strict validation with precise locations, streaming, writing."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import orjson
import pytest

from replay.record import ChanceEvent, MoveEvent, ObserveEvent, iter_records, loads, write_records
from replay.simulate import simulate


def toy_record(**over: object) -> dict:
    rec = {
        "format": "gamerec/1", "game": "toy", "id": "t1",
        "players": [{"id": "a", "name": "Ana"}, {"id": "b"}],
        "events": [{"chance": {"roll": [3]}}, {"player": "a", "move": {"type": "advance", "steps": 3}},
                   {"observe": {"score": {"a": 3, "b": 0}}}],
    }
    rec.update(over)
    return rec


def err(obj: object) -> str:
    with pytest.raises(Exception) as info:
        loads(orjson.dumps(obj), "f.jsonl", 7)
    return str(info.value)


def test_valid_record_parses_into_typed_events() -> None:
    rec = loads(orjson.dumps(toy_record()), "f.jsonl", 1)
    assert rec.player_ids == ["a", "b"]
    assert isinstance(rec.events[0], ChanceEvent)
    assert isinstance(rec.events[1], MoveEvent) and rec.events[1].move.type == "advance"
    assert isinstance(rec.events[2], ObserveEvent)
    assert len(rec.sha256) == 64


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"format": "gamerec/2"}, "f.jsonl:7: at $.format: unsupported format 'gamerec/2'"),
        ({"game": "chess"}, "f.jsonl:7: at $.game: unknown game 'chess'"),
        ({"players": []}, "f.jsonl:7: at $.players: a record needs at least one player"),
        ({"players": [{"id": "a"}]}, "played by 2 to 3 players, this record has 1"),
        ({"events": [{"dance": 1}]}, "f.jsonl:7: event 0 at $.events[0]: unknown event form"),
        ({"events": [{"player": "a", "move": {"type": "fly"}}]},
         "f.jsonl:7: event 0 at $.events[0].move.type: unknown move type 'fly' for Toy race"),
        ({"events": [{"player": "a", "move": {"type": "advance", "steps": "3"}}]},
         "f.jsonl:7: event 0 at $.events[0].move.steps: Expected `int`, got `str`"),
        ({"events": [{"player": "a", "move": {"type": "advance", "steps": 3, "x": 1}}]},
         "event 0 at $.events[0].move: Object contains unknown field `x`"),
        ({"events": [{"player": "z", "move": {"type": "bank"}}]},
         "event 0 at $.events[0].player: player 'z' is not in this record's players"),
        ({"events": [{"chance": {"roll": [1, "x"]}}]}, "event 0 at $.events[0].chance.roll[1]: a die must be"),
        ({"events": [{"chance": {"coin": 1}}]}, "event 0 at $.events[0].chance: unknown chance form"),
        ({"events": [{"observe": {"mood": 1}}]}, "unknown observable key 'mood'"),
        ({"options": {"ruleset": "house"}}, "at $.options.ruleset: unknown ruleset 'house'"),
        ({"events": None}, "at $.events: Expected `array`, got `null`"),
        ({"format": None}, "f.jsonl:7: at $.format: unsupported format None (expected 'gamerec/1')"),
        ({"players": [{"id": "a", "seat": 1}, {"id": "b"}]}, "at $.players[0]: Object contains unknown field `seat`"),
        ({"events": [{"chance": {"roll": [1]}, "player": "a"}]},
         "event 0 at $.events[0].player: unknown field 'player' in a chance event"),
        ({"events": [{"chance": {"roll": [1]}, "dance": 1}]}, "at $.events[0].dance: unknown field 'dance' in a chance"),
        ({"events": [{"observe": {"score": {}}, "origin": 3}]}, "event 0 at $.events[0].origin: Expected"),
        ({"events": [{"observe": [1]}]}, "event 0 at $.events[0].observe: Expected `object`, got `array`"),
        ({"events": [{"player": "a", "move": {"steps": 1}}]}, "at $.events[0].move.type: a move needs a string type"),
        ({"events": [3]}, "event 0 at $.events[0]: an event must be an object, got integer"),
        ({"played_at": "yesterday"}, "f.jsonl:7: at $.played_at: played_at 'yesterday' is not an ISO 8601 date"),
        ({"id": "x" * 100_000}, "f.jsonl:7: at $.id: id is 100,000 characters long; at most 256"),
        ({"id": "a\nb"}, "at $.id: id holds a control character"),
    ],
)
def test_invalid_records_name_file_line_event_and_path(change: dict, expected: str) -> None:
    assert expected in err(toy_record(**change))


def test_not_json_and_truncated() -> None:
    with pytest.raises(Exception, match=r"f.jsonl:3: not valid JSON"):
        loads(b"hello", "f.jsonl", 3)
    raw = orjson.dumps(toy_record())
    with pytest.raises(Exception, match="looks truncated"):
        loads(raw[: len(raw) // 2], "f.jsonl", 3)


def test_unknown_top_level_fields_are_kept() -> None:
    rec = loads(orjson.dumps(toy_record(platform="x")))
    assert rec.extra == {"platform": "x"}
    assert rec.to_dict()["platform"] == "x"


def test_roundtrip_write_read_all_file_kinds(tmp_path: Path) -> None:
    recs = list(simulate("toy", 6, seed=3))
    write_records(recs, tmp_path / "a.jsonl")
    write_records(recs[:1], tmp_path / "sub" / "b.json")
    write_records(recs, tmp_path / "sub" / "deeper" / "c.jsonl.gz")
    items = list(iter_records([tmp_path]))
    assert [i.ok for i in items] == [True] * 13
    assert [i.source.rsplit("/", 1)[-1] for i in items][:7] == ["a.jsonl"] * 6 + ["b.json"]
    assert [i.record.id for i in items[:6] if i.record] == [r.id for r in recs]
    assert items[0].line == 1 and items[5].line == 6


def test_gzip_output_is_deterministic(tmp_path: Path) -> None:
    recs = list(simulate("toy", 3, seed=5))
    write_records(recs, tmp_path / "x.jsonl.gz")
    write_records(recs, tmp_path / "y.jsonl.gz")
    assert (tmp_path / "x.jsonl.gz").read_bytes() == (tmp_path / "y.jsonl.gz").read_bytes()


def test_bad_lines_do_not_hide_good_ones(tmp_path: Path) -> None:
    good = orjson.dumps(toy_record())
    (tmp_path / "m.jsonl").write_bytes(good + b"\n{oops\n\n" + good.replace(b'"t1"', b'"t2"') + b"\n")
    items = list(iter_records([tmp_path / "m.jsonl"]))
    assert [(i.ok, i.line) for i in items] == [(True, 1), (False, 2), (True, 4)]
    assert items[1].raw == b"{oops"


def test_corrupt_gzip_is_an_error_not_a_crash(tmp_path: Path) -> None:
    data = gzip.compress(orjson.dumps(toy_record()) + b"\n")
    (tmp_path / "bad.jsonl.gz").write_bytes(data[: len(data) // 2])
    (tmp_path / "junk.jsonl.gz").write_bytes(b"this is not gzip")
    items = list(iter_records([tmp_path]))
    assert items and all(not i.ok for i in items)
    assert any("gzip" in str(i.error) for i in items)


def test_missing_path() -> None:
    (item,) = list(iter_records(["/nonexistent/x.jsonl"]))
    assert "no such file" in str(item.error)


def test_stdin_jsonl_and_pretty_json() -> None:
    one = orjson.dumps(toy_record())
    items = list(iter_records(["-"], stdin=io.BytesIO(one + b"\n" + one + b"\n")))
    assert [i.ok for i in items] == [True, True] and items[1].line == 2
    pretty = orjson.dumps(toy_record(), option=orjson.OPT_INDENT_2)
    items = list(iter_records(["-"], stdin=io.BytesIO(pretty)))
    assert [i.ok for i in items] == [True]


def test_jsonl_is_streamed_not_loaded_whole(tmp_path: Path) -> None:
    """Reading the first record of a big file must not read the rest."""
    line = orjson.dumps(toy_record()) + b"\n"
    path = tmp_path / "big.jsonl"
    with open(path, "wb") as fh:
        for _ in range(20000):
            fh.write(line)
    it = iter_records([path])
    first = next(it)
    assert first.ok
    it.close()


def test_a_pretty_printed_record_saved_as_jsonl_is_one_clear_error(tmp_path: Path) -> None:
    pretty = orjson.dumps(toy_record(), option=orjson.OPT_INDENT_2)
    (tmp_path / "p.jsonl").write_bytes(pretty)
    items = list(iter_records([tmp_path / "p.jsonl"]))
    assert len(items) == 1 and items[0].error is not None
    assert "pretty-printed over many lines" in str(items[0].error) and str(items[0].error).startswith(
        f"{tmp_path / 'p.jsonl'}:1: ")
    assert items[0].raw == pretty.strip()  # kept whole, for the quarantine
    (tmp_path / "a.jsonl").write_bytes(orjson.dumps([toy_record()], option=orjson.OPT_INDENT_2))
    assert "holds a JSON array" in str(next(iter_records([tmp_path / "a.jsonl"])).error)
    # the same text as .json, or compacted one per line, reads fine
    (tmp_path / "p.json").write_bytes(pretty)
    assert next(iter_records([tmp_path / "p.json"])).ok


def test_gzip_and_binary_data_are_named_for_what_they_are(tmp_path: Path) -> None:
    line = orjson.dumps(toy_record())
    (tmp_path / "z.jsonl").write_bytes(gzip.compress(line))
    [item] = iter_records([tmp_path / "z.jsonl"])
    assert "gzip-compressed data under a name without .gz" in str(item.error)
    [item] = iter_records(["-"], stdin=io.BytesIO(gzip.compress(line + b"\n" + line)))
    assert "this is gzip-compressed data, not JSON text" in str(item.error)
    assert "truncated" not in str(item.error) and "UTF-8" not in str(item.error)
    [item] = iter_records(["-"], stdin=io.BytesIO(bytes(range(256)) * 8))
    assert "this is binary data" in str(item.error)
    (tmp_path / "b.jsonl").write_bytes(bytes(range(256)) * 8)
    assert len(list(iter_records([tmp_path / "b.jsonl"]))) == 1


def test_an_integer_beyond_64_bits_is_named_so() -> None:
    huge = b"1234567890123456789012345678901"
    raw = orjson.dumps(toy_record()).replace(b'"steps":3', b'"steps":' + huge)
    with pytest.raises(Exception) as info:
        loads(raw, "f.jsonl", 7)
    assert "at most 64 bits" in str(info.value) and "$.events[1].move.steps" in str(info.value)
    assert "got `float`" not in str(info.value)
    raw = orjson.dumps(toy_record()).replace(b'"roll":[3]', b'"roll":[' + huge + b"]")
    with pytest.raises(Exception) as info:
        loads(raw, "f.jsonl", 7)
    assert "at most 64 bits" in str(info.value)


def _dumps_cases() -> list[dict]:
    """Records whose events take every shape dumps() writes: no extra key, ``src`` alone, ``src``
    null, other extra keys, observations with and without an origin, text needing escapes."""
    src = {"packet": 7, "uid": "6b66ef2500041"}
    return [
        toy_record(),
        toy_record(events=[{"chance": {"roll": [3]}, "src": src},
                           {"player": "a", "move": {"type": "advance", "steps": 3}, "src": src},
                           {"observe": {"score": {"a": 3, "b": 0}}, "origin": "bga", "src": src},
                           {"observe": {"score": {"a": 3, "b": 0}}, "src": None},
                           {"player": "b", "move": {"type": "advance", "steps": 1}, "src": None},
                           {"player": "a", "move": {"type": "advance", "steps": 2}, "note": "é \"q\" \n\t/<>", "src": 1},
                           {"chance": {"roll": [1]}, "src": ["x", 1.5, True, None], "note": "n", "at": 3}],
                   result={"score": {"a": 3, "b": 1}}, note="kept", played_at="2026-01-02T03:04:05Z"),
    ]


@pytest.mark.parametrize("case", _dumps_cases())
def test_dumps_writes_what_to_dict_gives(case: dict) -> None:
    """dumps() writes events from structs, not dicts: the bytes must stay orjson's of to_dict()."""
    from replay.record import dumps

    rec = loads(orjson.dumps(case))
    assert dumps(rec) == orjson.dumps(rec.to_dict())
    assert loads(dumps(rec)).to_dict() == rec.to_dict()


def test_dumps_writes_every_bundled_record_as_orjson_does() -> None:
    from replay.record import dumps, iter_raw

    data = Path(__file__).resolve().parents[2] / "data"
    seen = 0
    for item in iter_raw([str(data)]):
        if item.error is None:
            rec = loads(item.raw)
            assert dumps(rec) == orjson.dumps(rec.to_dict()), item.source
            seen += 1
    assert seen > 100


def test_extra_keys_are_kept_in_one_order_whatever_the_file_s() -> None:
    """An event's extra keys come back as ``at``, ``note``, ``src`` (they once followed a set's
    order, which changes from one Python process to the next: the same record wrote other bytes)."""
    from replay.record import dumps

    written = set()
    for ev in ({"chance": {"roll": [1]}, "src": 1, "note": "n", "at": 3},
               {"at": 3, "chance": {"roll": [1]}, "note": "n", "src": 1},
               {"note": "n", "src": 1, "at": 3, "chance": {"roll": [1]}}):
        rec = loads(orjson.dumps(toy_record(events=[ev, {"player": "a", "move": {"type": "advance", "steps": 1}}])))
        assert list(rec.events[0].extra or {}) == ["at", "note", "src"]
        written.add(dumps(rec))
    assert len(written) == 1


@pytest.mark.parametrize("when", ["2026-11-21T10:00:00Z", "2026-11-21", "2026-11-21T10:00:00+02:00",
                                  "2026-11-21 10:00:00"])
def test_iso_times_are_accepted(when: str) -> None:
    assert loads(orjson.dumps(toy_record(played_at=when)), "f.jsonl", 1).played_at == when


def test_no_records_found_names_what_was_skipped(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from gamerec_cli.main import main

    for name in ("rec.JSON", "notes.txt", "pic.png"):
        (tmp_path / name).write_text("{}")
    for args in (["verify", str(tmp_path)], ["replay", str(tmp_path)],
                 ["ingest", str(tmp_path), "--db", str(tmp_path / "g.duckdb")]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, (args, res.output)
        assert "skipped 3 file(s)" in res.output and "rec.JSON" in res.output and "pic.png" in res.output
