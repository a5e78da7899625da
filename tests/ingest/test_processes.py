"""Real processes: kill -9 in the middle of an ingest, and readers while an ingest writes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from ctrlc import press, start

from analytics.db import NoDatabase, connect_readonly
from ingest.pipeline import ingest
from ingest.schema import tables
from replay.record import write_records
from replay.simulate import simulate

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
N_FILES, PER_FILE = 6, 400


def gamerec(*args: str) -> list[str]:
    """`gamerec ARGS` as a real process, with the toy game registered."""
    code = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); import toygame; "
            "from gamerec_cli.main import main; main(prog_name='gamerec')")
    return [sys.executable, "-c", code, *args]


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("big")
    for i in range(N_FILES):
        write_records(simulate("toy", PER_FILE, 21, start=i * PER_FILE), folder / f"part-{i:02d}.jsonl.gz")
    return folder


def table_counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t.name: con.execute(f"SELECT count(*) FROM {t.name}").fetchone()[0]
                for t in tables() if t.name != "ingest_runs"}
    finally:
        con.close()


def snapshot_games(db: Path) -> int:
    try:
        con = connect_readonly(db)
    except NoDatabase:
        return 0
    try:
        return con.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        con.close()


def assert_whole(db: Path) -> None:
    """No partial and no doubled game: every game has all its rows, exactly once."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        one = con.execute
        assert one("SELECT count(*) - count(DISTINCT game_id) FROM games").fetchone() == (0,)
        assert one("""SELECT count(*) FROM games g LEFT JOIN (SELECT game_id, count(*) n, count(DISTINCT seq) d
                      FROM events GROUP BY game_id) e USING (game_id)
                      WHERE e.n IS DISTINCT FROM g.n_events OR e.d <> e.n""").fetchone() == (0,)
        assert one("""SELECT count(*) FROM games g LEFT JOIN (SELECT game_id, count(*) n FROM players
                      GROUP BY game_id) p USING (game_id) WHERE p.n IS DISTINCT FROM g.player_count""").fetchone() == (0,)
        for t in ("events", "players", "score_timeline", "score_breakdown", "milestones", "records"):
            assert one(f"SELECT count(*) FROM {t} WHERE game_id NOT IN (SELECT game_id FROM games)").fetchone() == (0,), t
        assert one("SELECT count(*) FROM (SELECT game_id FROM records GROUP BY game_id HAVING count(*) > 1)"
                   ).fetchone() == (0,)
    finally:
        con.close()


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def test_kill_9_in_the_middle_then_rerun_loses_and_doubles_nothing(tmp_path: Path, big: Path) -> None:
    total = N_FILES * PER_FILE
    reference = tmp_path / "ref.duckdb"
    ingest([str(big)], reference, workers=2, publish_every=-1)

    db = tmp_path / "g.duckdb"
    proc = subprocess.Popen(gamerec("ingest", str(big), "--db", str(db), "--batch-size", "40",
                                    "--publish-every", "0.2"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    deadline = time.monotonic() + 60
    try:
        # kill it once readers can see some games, i.e. for sure in the middle of the run
        while snapshot_games(db) < 200:
            assert proc.poll() is None, f"the ingest ended before it could be killed: {proc.stderr.read()!r}"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert workers, "the ingest runs no worker process"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    # its workers, whom nobody will send a task again, leave too
    deadline = time.monotonic() + 20
    while (left := [w for w in workers if _alive(w)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"worker processes {left} outlived their killed parent"

    assert_whole(db)
    partial = table_counts(db)["games"]
    assert 200 <= partial < total

    rerun = subprocess.run(gamerec("ingest", str(big), "--db", str(db)), capture_output=True, cwd=ROOT,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert_whole(db)
    assert table_counts(db) == table_counts(reference)
    con = duckdb.connect(str(db), read_only=True)
    try:
        runs = con.execute("SELECT status, skipped FROM ingest_runs ORDER BY run_id").fetchall()
    finally:
        con.close()
    # the killed run never finished; the rerun skipped what the killed run had committed
    assert runs[0][0] == "running" and runs[1] == ("finished", partial)


def test_readers_keep_answering_while_an_ingest_writes(tmp_path: Path, big: Path) -> None:
    db = tmp_path / "g.duckdb"
    stop = tmp_path / "stop"
    reader_code = f"""
import sys, time, pathlib
from analytics.db import connect_readonly, NoDatabase
db, stop = {str(db)!r}, pathlib.Path({str(stop)!r})
end = time.monotonic() + 240  # a safety net only: longer than the writer may take below
while not stop.exists() and time.monotonic() < end:
    try:
        con = connect_readonly(db)
    except NoDatabase:
        time.sleep(0.02)
        continue
    n = con.execute("SELECT count(*) FROM games").fetchone()[0]
    e = con.execute("SELECT count(*) FROM events").fetchone()[0]
    con.close()
    print(n, e, flush=True)
    time.sleep(0.02)
"""
    reader = subprocess.Popen([sys.executable, "-c", reader_code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT)
    writer = subprocess.Popen(gamerec("ingest", str(big), "--db", str(db), "--batch-size", "50",
                                      "--publish-every", "0.2"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 60
    while snapshot_games(db) < 100 and writer.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    # `gamerec stats` too, started while the ingest is writing
    assert writer.poll() is None, "the ingest ended too early for this test"
    stats = subprocess.run(gamerec("stats", "--db", str(db)), capture_output=True, text=True, cwd=ROOT,
                           timeout=60)
    assert stats.returncode == 0 and "games per title and status" in stats.stdout, stats.stderr
    w_out, w_err = writer.communicate(timeout=120)
    time.sleep(0.3)
    stop.touch()
    out, err = reader.communicate(timeout=60)
    assert writer.returncode == 0, w_err
    assert reader.returncode == 0 and err == "", err
    seen = [tuple(int(x) for x in line.split()) for line in out.splitlines()]
    assert len(seen) > 5
    games = [g for g, _ in seen]
    assert games == sorted(games), "counts went backwards"
    # the reader saw the database grow while the ingest was writing, and the end state
    assert len(set(games)) >= 3
    assert games[-1] == N_FILES * PER_FILE


def test_a_second_writer_and_a_non_database_file_are_clear_errors(tmp_path: Path) -> None:
    write_records(simulate("toy", 3, 22), tmp_path / "r.jsonl")
    db = tmp_path / "held.duckdb"
    holder = duckdb.connect(str(db))  # this process holds the write lock
    try:
        res = subprocess.run(gamerec("ingest", str(tmp_path / "r.jsonl"), "--db", str(db)),
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert res.returncode == 2
        assert f"is open for writing by process {os.getpid()}" in res.stderr
        assert "Traceback" not in res.stderr + res.stdout
        res = subprocess.run(gamerec("stats", "--db", str(db)), capture_output=True, text=True, cwd=ROOT,
                             timeout=60)
        assert res.returncode == 2 and "no snapshot has been published yet" in res.stderr
    finally:
        holder.close()
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database\n")
    for args in (("ingest", str(tmp_path / "r.jsonl")), ("stats",), ("export", "--parquet", str(tmp_path / "pq"))):
        res = subprocess.run(gamerec(*args, "--db", str(junk)), capture_output=True, text=True, cwd=ROOT,
                             timeout=60)
        assert res.returncode == 2, args
        assert "not a valid DuckDB database file" in res.stderr and "Traceback" not in res.stderr, args


def test_ctrl_c_stops_cleanly_and_marks_the_run_interrupted(tmp_path: Path, big: Path) -> None:
    db = tmp_path / "g.duckdb"
    # a new session, so the signal goes to the whole process group, as Ctrl-C in a terminal does
    proc = start(gamerec("ingest", str(big), "--db", str(db), "--batch-size", "40", "--publish-every", "0.2"),
                 cwd=ROOT)
    out, err = press(proc, lambda: snapshot_games(db) >= 100, within=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err + out
    assert_whole(db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        (status, ok), = con.execute("SELECT status, ok FROM ingest_runs").fetchall()
        games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        con.close()
    assert status == "interrupted" and ok == games < N_FILES * PER_FILE
    assert snapshot_games(db) == games  # what was committed is published for readers



def test_a_worker_killed_while_replaying_stops_the_run_in_one_line_then_a_rerun_completes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The system's out-of-memory killer takes a worker: its task is lost, and the run says so (it waited for
    ever). The worker here kills itself on a marked file's records (``ctrlc.build_batch_or_die``)."""
    from ctrlc import build_batch_or_die

    import ingest.pipeline as pipeline
    from ingest.writer import IngestError

    write_records(simulate("toy", 120, 23), tmp_path / "in" / "a.jsonl")
    write_records(simulate("toy", 30, 24), tmp_path / "in" / "b-die.jsonl")
    write_records(simulate("toy", 120, 25), tmp_path / "in" / "c.jsonl")
    db = tmp_path / "g.duckdb"
    monkeypatch.setattr(pipeline, "build_batch", build_batch_or_die)

    def waited_too_long(signum: int, frame: object) -> None:
        raise TimeoutError("the ingest waits for ever for the task of the dead worker")

    signal.signal(signal.SIGALRM, waited_too_long)
    signal.alarm(120)  # the run polls its workers, so the alarm's exception reaches it
    with pytest.raises(IngestError, match=r"a replay worker stopped abruptly \(killed, perhaps by the system for "
                                          r"lack of memory\) while the records from .*/in/[a-c]\S*\.jsonl line \d+ on were "
                                          r"replayed; every batch committed is complete, rerun to finish"):
        try:
            ingest([str(tmp_path / "in")], db, workers=2, batch_records=40, publish_every=-1)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
    assert_whole(db)
    assert table_counts(db)["games"] <= 120
    monkeypatch.undo()
    summary = ingest([str(tmp_path / "in")], db, workers=2, publish_every=-1)
    assert summary.counts.new + summary.counts.skipped == 270 and table_counts(db)["games"] == 270
