"""The command line: exit codes, messages naming file/line/event, never a traceback."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gamerec_cli.main import main
from replay.games import get_game
from replay.record import dumps, write_records
from replay.simulate import simulate_one


def toy_lines(n: int = 3) -> list[bytes]:
    return [dumps(simulate_one(get_game("toy"), 2, 9, i)) for i in range(n)]


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    res = CliRunner().invoke(main, list(args), input=stdin)
    assert "Traceback" not in res.output
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.output


def test_verify_good_records(tmp_path: Path) -> None:
    (tmp_path / "g.jsonl").write_bytes(b"\n".join(toy_lines()) + b"\n")
    code, out = run("verify", str(tmp_path))
    assert code == 0 and "3 records: 3 complete" in out


def test_verify_reports_the_event_and_reason_of_a_hand_edited_record(tmp_path: Path) -> None:
    rec = orjson.loads(toy_lines(1)[0])
    i = next(k for k, e in enumerate(rec["events"]) if "move" in e and e["move"]["type"] == "advance")
    rec["events"][i]["move"]["steps"] += 1
    (tmp_path / "edited.json").write_bytes(orjson.dumps(rec))
    code, out = run("verify", str(tmp_path / "edited.json"))
    assert code == 1
    assert f"edited.json:1: sim-toy-s9-2p-000000: event {i}: illegal_move: " in out
    assert "cannot advance" in out
    assert "Ana cannot advance" in out or "Ben cannot advance" in out  # names, not the record's ids


BAD = {
    "notjson.jsonl": b"this is not json\n",
    "truncated.jsonl": None,  # filled below
    "version.jsonl": b'{"format": "gamerec/9", "game": "toy", "id": "x", "players": [], "events": []}\n',
    "unknown_game.jsonl": b'{"format": "gamerec/1", "game": "go", "id": "x", "players": [], "events": []}\n',
    "no_players.jsonl": b'{"format": "gamerec/1", "game": "toy", "id": "x", "players": [], "events": []}\n',
    "event_form.jsonl": b'{"format": "gamerec/1", "game": "toy", "id": "x", "players": [{"id": "a"}, {"id": "b"}],'
                        b' "events": [{"wave": 1}]}\n',
    "move_type.jsonl": b'{"format": "gamerec/1", "game": "toy", "id": "x", "players": [{"id": "a"}, {"id": "b"}],'
                       b' "events": [{"chance": {"roll": [2]}}, {"player": "a", "move": {"type": "jump"}}]}\n',
}
EXPECT = {
    "notjson.jsonl": "notjson.jsonl:1: not valid JSON",
    "truncated.jsonl": "truncated.jsonl:1: not valid JSON",
    "version.jsonl": "version.jsonl:1: at $.format: unsupported format 'gamerec/9'",
    "unknown_game.jsonl": "unknown_game.jsonl:1: at $.game: unknown game 'go'",
    "no_players.jsonl": "no_players.jsonl:1: at $.players: a record needs at least one player",
    "event_form.jsonl": "event_form.jsonl:1: event 0 at $.events[0]: unknown event form",
    "move_type.jsonl": "move_type.jsonl:1: event 1 at $.events[1].move.type: unknown move type 'jump'",
    "corrupt.jsonl.gz": "corrupt.jsonl.gz:3: corrupt or truncated gzip data",
}


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_bad_input_is_a_clear_message_and_exit_1(tmp_path: Path, name: str) -> None:
    if name == "truncated.jsonl":
        data = toy_lines(1)[0]
        (tmp_path / name).write_bytes(data[: len(data) // 2])
    elif name == "corrupt.jsonl.gz":
        data = gzip.compress(b"\n".join(toy_lines()))
        (tmp_path / name).write_bytes(data[: len(data) - 30])
    else:
        (tmp_path / name).write_bytes(BAD[name])
    code, out = run("verify", str(tmp_path / name))
    assert code == 1
    assert EXPECT[name] in out


def test_replay_json_shape_and_at(tmp_path: Path) -> None:
    write_records([simulate_one(get_game("toy"), 2, 4, 0)], tmp_path / "r.json")
    code, out = run("replay", "--json", str(tmp_path / "r.json"))
    obj = orjson.loads(out.splitlines()[0])
    assert code == 0
    assert {"id", "game", "status", "events", "score", "total", "milestones", "divergences"} <= set(obj)
    assert obj["status"] == "complete" and obj["milestones"][0]["type"] == "finish"
    assert set(obj["score"]["p1"]) == {"position", "banked"}
    code, out = run("replay", "--json", "--at", "2", "--snapshot", str(tmp_path / "r.json"))
    obj = orjson.loads(out)
    assert obj["status"] == "incomplete" and obj["replayed"] == 3 and "snapshot" in obj


def test_replay_at_out_of_range_is_a_clear_error(tmp_path: Path) -> None:
    rec = simulate_one(get_game("toy"), 2, 4, 0)
    write_records([rec], tmp_path / "r.json")
    n = len(rec.events)
    for at in (str(n), "99999"):
        code, out = run("replay", "--at", at, str(tmp_path / "r.json"))
        assert code == 2 and f"--at {at} is out of range (this record has events 0 to {n - 1})" in out
        assert "state after event" not in out
    code, out = run("replay", "--at", "-5", str(tmp_path / "r.json"))
    assert code == 2 and "Invalid value for '--at'" in out
    code, out = run("replay", "--at", str(n - 1), str(tmp_path / "r.json"))
    assert code == 0 and f"complete; state after event {n - 1}" in out
    assert "Ana (p1): " in out  # players by name, with their id


def test_replay_text_says_where_a_diverged_record_stopped_and_snapshot_needs_json(tmp_path: Path) -> None:
    rec = orjson.loads(toy_lines(1)[0])
    i = next(k for k, e in enumerate(rec["events"]) if "move" in e and e["move"]["type"] == "advance")
    rec["events"][i]["move"]["steps"] += 1
    (tmp_path / "edited.json").write_bytes(orjson.dumps(rec))
    code, out = run("replay", "--at", str(i + 3), str(tmp_path / "edited.json"))
    assert code == 1
    assert f"diverged, first divergence at event {i}" in out
    assert f"the state shown is after event {i - 1}, not {i + 3}" in out
    assert f"diverged at event {i + 3}" not in out
    code, out = run("replay", "--snapshot", str(tmp_path / "edited.json"))
    assert code == 2 and "--snapshot" in out and "--json" in out


def test_verify_json_counts_the_events_replayed(tmp_path: Path) -> None:
    rec = simulate_one(get_game("toy"), 2, 4, 0)
    write_records([rec], tmp_path / "r.json")
    code, out = run("verify", "--json", str(tmp_path / "r.json"))
    assert code == 0 and orjson.loads(out)["replayed"] == len(rec.events)
    bad = orjson.loads(dumps(rec))
    i = next(k for k, e in enumerate(bad["events"]) if "move" in e and e["move"]["type"] == "advance")
    bad["events"][i]["move"]["steps"] += 1
    (tmp_path / "bad.json").write_bytes(orjson.dumps(bad))
    code, out = run("verify", "--json", str(tmp_path / "bad.json"))
    obj = orjson.loads(out)
    assert code == 1 and obj["replayed"] == i == obj["first_divergence_seq"]


def test_stdin(tmp_path: Path) -> None:
    code, out = run("verify", "-", stdin=b"\n".join(toy_lines(2)))
    assert code == 0 and "2 records: 2 complete" in out


def test_missing_path_and_empty_dir(tmp_path: Path) -> None:
    code, out = run("verify", str(tmp_path / "nope.jsonl"))
    assert code == 1 and "no such file or directory" in out
    code, out = run("verify", str(tmp_path))
    assert code == 2 and "no records found" in out


def test_real_process_never_prints_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "x.jsonl").write_bytes(b'{"format": "gamerec/1", "game": "copenhagenx"}\n{not json\n')
    proc = subprocess.run([sys.executable, "-m", "gamerec_cli.main", "verify", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "x.jsonl:2: not valid JSON" in proc.stdout


def test_simulate_view_writes_a_seat_view_that_verifies(tmp_path: Path) -> None:
    code, out = run("simulate", "--game", "copenhagen", "--players", "3", "--games", "2", "--seed", "4",
                    "--view", "p2", "--out", str(tmp_path / "v"))
    assert code == 0, out
    files = list((tmp_path / "v").iterdir())
    assert [f.name for f in files] == ["copenhagen-s4-3p-view-p2-0000.jsonl.gz"]
    code, out = run("verify", str(tmp_path / "v"))
    assert code == 0 and "2 complete" in out, out


def test_simulate_view_of_a_seat_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    code, out = run("simulate", "--game", "copenhagen", "--players", "2", "--games", "1",
                    "--view", "p3", "--out", str(tmp_path / "v"))
    assert code != 0 and "--view p3" in out and "Traceback" not in out


def test_simulate_never_overwrites_and_names_players_in_ids(tmp_path: Path) -> None:
    args = ["simulate", "--game", "copenhagen", "--players", "3", "--games", "1", "--seed", "7",
            "--out", str(tmp_path)]
    code, out = run(*args)
    assert code == 0, out
    path = tmp_path / "copenhagen-s7-3p-0000.jsonl.gz"
    before = path.read_bytes()
    assert orjson.loads(gzip.decompress(before))["id"] == "sim-copenhagen-s7-3p-000000"
    code, out = run(*args)
    assert code == 2 and "copenhagen-s7-3p-0000.jsonl.gz already exists" in out
    assert path.read_bytes() == before


@pytest.mark.parametrize("option, value", [("--games", "-3"), ("--games", "0"), ("--observe-every", "-1"),
                                           ("--seed", "18446744073709551617"), ("--seed", "-1"),
                                           ("--players", "0")])
def test_simulate_bad_option_values_are_usage_errors(tmp_path: Path, option: str, value: str) -> None:
    args = {"--game": "copenhagen", "--games": "1", "--seed": "1", "--out": str(tmp_path / "o"), option: value}
    code, out = run("simulate", *[x for kv in args.items() for x in kv])
    assert code == 2 and f"Invalid value for '{option}'" in out
    assert not (tmp_path / "o").exists()


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    def records():  # type: ignore[no-untyped-def]
        yield simulate_one(get_game("toy"), 2, 4, 0)
        raise OverflowError("boom")

    with pytest.raises(OverflowError):
        write_records(records(), tmp_path / "r.jsonl.gz")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_in_a_command_is_one_line_and_exit_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def pressed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    (tmp_path / "g.jsonl").write_bytes(b"\n".join(toy_lines()) + b"\n")
    monkeypatch.setattr("gamerec_cli.main._replays", pressed)
    code, out = run("verify", str(tmp_path))
    assert code == 130 and out == "error: interrupted\n"


def test_a_library_error_raised_from_ctrl_c_is_an_interrupt_too(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def pressed_in_a_query(*args: object, **kwargs: object) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ki:  # what DuckDB's Python client raises for a Ctrl-C in a statement
            raise RuntimeError("Query interrupted") from ki

    (tmp_path / "g.jsonl").write_bytes(b"\n".join(toy_lines()) + b"\n")
    monkeypatch.setattr("gamerec_cli.main._replays", pressed_in_a_query)
    code, out = run("verify", str(tmp_path))
    assert code == 130 and out == "error: interrupted\n"
    monkeypatch.setattr("gamerec_cli.main._replays", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no")))
    with pytest.raises(RuntimeError, match="no"):
        run("verify", str(tmp_path))


def test_ctrl_c_while_the_commands_load_is_exit_130_too(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    import builtins

    import gamerec_cli

    real = builtins.__import__

    def loading(name: str, *args: object, **kwargs: object) -> object:
        if name == "gamerec_cli.main":
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", loading)
    with pytest.raises(SystemExit) as stop:
        gamerec_cli.run()
    assert stop.value.code == 130 and capsys.readouterr().err == "error: interrupted\n"
