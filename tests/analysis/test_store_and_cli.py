"""``gamerec analyse``: stored rows, replacement, the command's messages."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import polars as pl
import pytest
from click.testing import CliRunner

from analytics import queries as q
from analytics.queries import run
from gamerec_cli.main import main
from ingest.pipeline import ingest
from replay.games import get_game
from replay.record import dumps
from replay.simulate import simulate_one

from . import cardtoy

ARGS = ["--rollouts", "6", "--agent", "random", "--workers", "0", "--explain", "2", "--alternatives", "3"]


def _write(path: Path, lines: list[bytes]) -> Path:
    with gzip.open(path, "wb") as fh:
        for line in lines:
            fh.write(line + b"\n")
    return path


@pytest.fixture
def analysed(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    recs = [simulate_one(cardtoy.GAME, 2, 3, i, agents=["greedy", "random"]) for i in range(2)]
    path = _write(tmp_path / "cards.jsonl.gz", [dumps(r) for r in recs])
    db = tmp_path / "g.duckdb"
    ingest([str(path)], db, workers=0, publish_every=0)
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(db), *ARGS])
    assert res.exit_code == 0, res.output
    return path, db, [r.id for r in recs]


def _rows(db: Path, game_id: str) -> list[tuple[object, ...]]:
    return run(db, q.game_win_chances, game_id=game_id).rows()


def test_analyse_stores_chances_turning_points_and_alternatives(analysed: tuple[Path, Path, list[str]]) -> None:
    path, db, ids = analysed
    for gid in ids:
        info = run(db, q.game_analysis, game_id=gid)
        assert info is not None and info["current"] and info["rollouts"] == 6 and info["agent"] == "random"
        chances = run(db, q.game_win_chances, game_id=gid)
        assert chances.height == info["positions"] * 2
        sums = chances.group_by("seq").agg(pl.col("chance").sum().alias("s"))["s"].to_list()
        assert all(abs(s - 1) < 1e-9 for s in sums)
        assert (chances["ci_low"] <= chances["chance"]).all() and (chances["chance"] <= chances["ci_high"]).all()
    tps = run(db, q.game_turning_points, game_id=ids[0])
    alts = run(db, q.game_alternatives, game_id=ids[0])
    for r in alts.iter_rows(named=True):
        assert r["seq"] in tps["seq"].to_list()
    if alts.height:
        assert alts.filter(alts["played"]).height == alts["seq"].n_unique()


def test_rerun_replaces_with_identical_numbers(analysed: tuple[Path, Path, list[str]]) -> None:
    path, db, ids = analysed
    before = _rows(db, ids[0])
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(db), *ARGS])
    assert res.exit_code == 0, res.output
    assert _rows(db, ids[0]) == before


def test_a_replaced_game_keeps_its_analysis_while_its_replay_is_unchanged(
        analysed: tuple[Path, Path, list[str]], tmp_path: Path) -> None:
    path, db, ids = analysed
    before = _rows(db, ids[0])
    with gzip.open(path) as fh:
        first = orjson.loads(fh.readline())
    first["played_at"] = "2026-05-05T00:00:00Z"  # new content, same id, same replay: the ingest replaces the game
    s = ingest([str(_write(tmp_path / "changed.jsonl.gz", [orjson.dumps(first)]))], db, workers=0, publish_every=0)
    assert s.counts.replaced == 1 and s.counts.stale_analyses == []
    info = run(db, q.game_analysis, game_id=first["id"])
    assert info is not None and info["current"]
    assert _rows(db, first["id"]) == before


def test_a_replaced_game_that_replays_differently_keeps_its_analysis_marked_stale(
        analysed: tuple[Path, Path, list[str]], tmp_path: Path) -> None:
    path, db, ids = analysed
    before = _rows(db, ids[0])
    with gzip.open(path) as fh:
        first = orjson.loads(fh.readline())
    first["events"] = first["events"][:-1]  # the replay changes
    changed = _write(tmp_path / "changed.jsonl.gz", [orjson.dumps(first)])
    res = CliRunner().invoke(main, ["ingest", str(changed), "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "1 game(s) replaced by a record that replays differently" in res.output and first["id"] in res.output
    info = run(db, q.game_analysis, game_id=first["id"])
    assert info is not None and not info["current"]  # kept, and known to be stale
    assert _rows(db, first["id"]) == before
    assert run(db, q.game_analysis, game_id=ids[1])["current"]  # type: ignore[index]


def test_a_record_not_ingested_is_analysed_and_the_user_told(tmp_path: Path) -> None:
    rec = simulate_one(cardtoy.GAME, 2, 4, 0)
    path = _write(tmp_path / "one.jsonl.gz", [dumps(rec)])
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(tmp_path / "x.duckdb"), *ARGS])
    assert res.exit_code == 0, res.output
    assert "not in the database yet" in res.output and "gamerec ingest" in res.output


def test_bad_input_is_one_line_and_exit_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gamerec/1", "game": "copenhagen", "id": "x", "players": [], "events": 3}')
    res = CliRunner().invoke(main, ["analyse", str(bad), "--db", str(tmp_path / "x.duckdb"), *ARGS])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "bad.json" in res.output and "no readable records" in res.output
    res = CliRunner().invoke(main, ["analyse", str(tmp_path / "missing"), "--db", str(tmp_path / "x.duckdb")])
    assert res.exit_code != 0 and "Traceback" not in res.output
    res = CliRunner().invoke(main, ["analyse", str(bad), "--rollouts", "0"])
    assert res.exit_code == 2


def test_a_diverging_record_is_analysed_up_to_where_the_rules_stop_it(tmp_path: Path) -> None:
    rec = simulate_one(get_game("copenhagen"), 2, 8, 0, observe_every=0, agents=["random", "random"])
    obj = orjson.loads(dumps(rec))
    moves = [i for i, e in enumerate(obj["events"]) if "move" in e]
    cut = moves[12]
    obj["events"][cut]["player"] = "p1" if obj["events"][cut]["player"] == "p2" else "p2"  # wrong player
    obj["events"] = obj["events"][: cut + 5]
    obj.pop("result", None)
    path = tmp_path / "div.json"
    path.write_bytes(orjson.dumps(obj))
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(tmp_path / "d.duckdb"), "--rollouts", "1",
                                    "--agent", "random", "--workers", "0", "--explain", "0"])
    assert res.exit_code == 0, res.output
    assert f"the rules stop it at event {cut}: wrong_player" in res.output


def test_a_dask_cluster_gives_the_same_numbers(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from ingest.winchances import run as analyse_into
    from replay.analysis import Settings

    recs = [simulate_one(cardtoy.GAME, 2, 7, 0)]
    settings = Settings(rollouts=4, agent="random", explain=1, alternatives=3)
    analyse_into(recs, tmp_path / "local.duckdb", settings, workers=0)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        analyse_into(recs, tmp_path / "dask.duckdb", settings, scheduler=cluster.scheduler_address)
    assert _rows(tmp_path / "dask.duckdb", recs[0].id) == _rows(tmp_path / "local.duckdb", recs[0].id)
    assert run(tmp_path / "dask.duckdb", q.game_turning_points, game_id=recs[0].id).rows() == \
        run(tmp_path / "local.duckdb", q.game_turning_points, game_id=recs[0].id).rows()


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    path = _write(tmp_path / "one.jsonl.gz", [dumps(simulate_one(cardtoy.GAME, 2, 4, 0))])
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(tmp_path / "x.duckdb"), "--rollouts", "1",
                                    "--scheduler", "tcp://127.0.0.1:9"])
    assert res.exit_code == 2 and "cannot reach the Dask scheduler" in res.output and "Traceback" not in res.output


BGA_LOGS = Path("/work/shared/bga-logs/copenhagen")


@pytest.mark.skipif(not BGA_LOGS.exists(), reason=f"the shared BGA logs are not at {BGA_LOGS}")
def test_a_bga_log_is_analysed_as_ingest_would_import_it(tmp_path: Path) -> None:
    from ingest.winchances import plan
    from replay.analysis import Settings, positions

    log = sorted(BGA_LOGS.glob("*.log.json.gz"))[0]
    settings = Settings(rollouts=1, agent="random", explain=0)
    records, errors, units = plan([str(log)], settings)
    assert errors == [] and len(records) == 1 and records[0].id.startswith("bga-")
    chart, stop = positions(records[0], settings.at, settings.hidden)
    assert stop is None and units == len(chart) > 10
    assert any(p.state.unknown_zones() for p in chart)  # hands the public never saw
    res = CliRunner().invoke(main, ["analyse", str(log), "--db", str(tmp_path / "b.duckdb"), "--rollouts", "1",
                                    "--agent", "random", "--workers", "0", "--explain", "0"])
    assert res.exit_code == 0, res.output
    assert run(tmp_path / "b.duckdb", q.game_win_chances, game_id=records[0].id).height == 2 * len(chart)


def test_local_processes_give_the_same_numbers(tmp_path: Path) -> None:
    from ingest.winchances import run as analyse_into
    from replay.analysis import Settings
    from replay.record import Record

    full = simulate_one(get_game("copenhagen"), 2, 9, 0, observe_every=0, agents=["random", "random"])
    rec = Record(full.game, full.id, full.players, full.events[:60], dict(full.options))
    settings = Settings(rollouts=2, agent="random", explain=1, alternatives=3)
    analyse_into([rec], tmp_path / "one.duckdb", settings, workers=0)
    analyse_into([rec], tmp_path / "two.duckdb", settings, workers=2)
    assert _rows(tmp_path / "two.duckdb", rec.id) == _rows(tmp_path / "one.duckdb", rec.id) != []


def test_can_deal_tells_a_game_that_names_its_unknown_zones() -> None:
    """A game without ``unknown_zones`` cannot have its hidden items dealt (its positions are then the
    record's own, even with ``hidden="resample"``); every title names its zones."""
    from replay.analysis import can_deal
    from replay.engine import Game, State
    from replay.games import available

    class Unzoned(cardtoy.CardState):
        unknown_zones = State.unknown_zones  # type: ignore[assignment]

    game = Game(id="cardtoy", title="toy", min_players=2, max_players=3, moves=cardtoy.GAME.moves,
                state_class=Unzoned)
    state = game.initial_state(["p1", "p2"])
    assert not can_deal(state) and can_deal(cardtoy.GAME.initial_state(["p1", "p2"]))
    for gid in available():
        g = get_game(gid)
        assert can_deal(g.initial_state([f"p{i + 1}" for i in range(g.min_players)])), gid


def test_a_perikles_seat_view_record_is_analysed(tmp_path: Path) -> None:
    """Units committed face down by the other players are dealt in every rollout (they once stopped the
    analysis at the first battle)."""
    from replay.record import MoveEvent, Record

    seat = simulate_one(get_game("perikles"), 3, 1, 0, observe_every=0, view="p1")
    hidden = [i for i, ev in enumerate(seat.events) if isinstance(ev, MoveEvent) and ev.move.type == "send_unit"
              and getattr(ev.move, "strength", 0) is None]
    assert len(hidden) > 3
    cut = Record(seat.game, seat.id, seat.players, seat.events[: hidden[3] + 1], dict(seat.options))
    path = _write(tmp_path / "seat.jsonl.gz", [dumps(cut)])
    db = tmp_path / "p.duckdb"
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(db), "--rollouts", "1",
                                    "--agent", "random", "--workers", "0", "--explain", "0"])
    assert res.exit_code == 0, res.output
    assert "s of CPU)" in res.output  # the work ran in this process: its CPU time is reported
    chances = run(db, q.game_win_chances, game_id=seat.id)
    assert chances.height > 3 * 20


def test_id_picks_records(tmp_path: Path) -> None:
    recs = [simulate_one(cardtoy.GAME, 2, 5, i) for i in range(3)]
    path = _write(tmp_path / "three.jsonl.gz", [dumps(r) for r in recs])
    res = CliRunner().invoke(main, ["analyse", str(path), "--id", recs[1].id, "--db", str(tmp_path / "i.duckdb"),
                                    *ARGS])
    assert res.exit_code == 0, res.output
    assert "analysed 1 record(s)" in res.output and recs[1].id in res.output and recs[0].id not in res.output
    res = CliRunner().invoke(main, ["analyse", str(path), "--id", "nope", "--db", str(tmp_path / "i.duckdb")])
    assert res.exit_code == 2 and "no record with id nope" in res.output


def test_a_database_that_cannot_hold_analyses_is_one_line(tmp_path: Path) -> None:
    import duckdb

    db = tmp_path / "views.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE VIEW win_chances AS SELECT 1 AS x")  # what a lake's catalog holds
    con.close()
    path = _write(tmp_path / "one.jsonl.gz", [dumps(simulate_one(cardtoy.GAME, 2, 4, 0))])
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(db), *ARGS])
    assert res.exit_code == 2 and "cannot store win chances in" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("players", ["2", "-3", "0", "9"])
def test_calibrate_names_a_player_count_the_game_does_not_allow(players: str) -> None:
    game = "perikles" if players == "2" else "coal_baron"
    res = CliRunner().invoke(main, ["calibrate", "--game", game, "--players", players, "--games", "1",
                                    "--rollouts", "2", "--strength-games", "0"])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert f"--players {players}:" in res.output and "players" in res.output
    assert len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize("workers", [0, 2])
def test_ctrl_c_stops_between_positions_and_keeps_every_game_done(tmp_path: Path, workers: int) -> None:
    import os
    import signal
    import threading

    import duckdb

    from ingest.winchances import run as analyse_into
    from ingest.writer import snapshot_path
    from replay.analysis import Settings
    from replay.record import Record

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    full = simulate_one(get_game("copenhagen"), 2, 9, 0, observe_every=0, agents=["random", "random"])
    recs = [Record(full.game, f"{full.id}-{i}", full.players, full.events[:40], dict(full.options))
            for i in range(3)]
    settings = Settings(rollouts=2, agent="random", explain=0, method="rollouts")
    done: list[str] = []
    steps = 0

    def progress(n: int) -> None:
        nonlocal steps
        steps += n
        if len(done) == 1 and steps > 0:
            os.kill(os.getpid(), signal.SIGINT)  # in the second game: taken at its next position

    def on_done(d: object) -> None:
        nonlocal steps
        done.append(str(d))
        steps = 0

    db = tmp_path / "a.duckdb"
    with pytest.raises(KeyboardInterrupt):
        analyse_into(recs, db, settings, workers=workers, progress=progress, on_done=on_done)
    assert len(done) == 1
    con = duckdb.connect(str(snapshot_path(db)), read_only=True)  # the game done is published for readers
    try:
        assert con.execute("SELECT game_id FROM analyses").fetchall() == [(recs[0].id,)]
    finally:
        con.close()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_to_a_real_analyse_with_workers_stops_it_in_one_line(tmp_path: Path) -> None:
    """Ctrl-C in a terminal reaches the workers too: none may die with its task (the command waited for ever)."""
    import sys

    from ctrlc import press, start

    recs = [simulate_one(get_game("copenhagen"), 2, 9, i, observe_every=0) for i in range(8)]
    path = _write(tmp_path / "c.jsonl.gz", [dumps(r) for r in recs])
    proc = start([sys.executable, "-c", "import gamerec_cli; gamerec_cli.run()", "analyse", str(path),
                  "--db", str(tmp_path / "a.duckdb"), "--method", "rollouts", "--rollouts", "4",
                  "--explain", "0", "--workers", "2"])
    assert proc.stdout is not None
    # once the first game is done, the second is under way in the workers
    out, err = press(proc, lambda: "positions in" in proc.stdout.readline())  # type: ignore[union-attr]
    assert proc.returncode == 130, err
    assert err == "error: interrupted; every game analysed so far is stored\n"
