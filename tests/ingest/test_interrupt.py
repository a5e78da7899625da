"""Ctrl-C during an ingest: taken between two steps, never inside one, and never in the clean-up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest
from ctrlc import press

from ingest.interrupt import Interrupt
from ingest.pipeline import ingest
from ingest.writer import Database, snapshot_path
from replay.record import write_records
from replay.simulate import simulate

pytestmark = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                reason="signals reach the main thread only")


def ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def runs(db: Path) -> list[tuple[str, int, int]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT r.status, r.ok, (SELECT count(*) FROM games) FROM ingest_runs r").fetchall()
    finally:
        con.close()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("toy") / "r.jsonl"
    write_records(simulate("toy", 300, 4), path)
    return path


def test_ctrl_c_is_noted_raised_once_at_a_check_and_the_handler_given_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    with Interrupt() as stop:
        try:
            ctrl_c()
        except KeyboardInterrupt:
            pytest.fail("Ctrl-C was raised where it arrived")
        assert stop.requested  # Python ran the handler at once: nothing was raised here
        with pytest.raises(KeyboardInterrupt):
            stop.check()
        stop.check()  # once: the clean-up that follows is not stopped again
    assert signal.getsignal(signal.SIGINT) is before
    with pytest.raises(KeyboardInterrupt):
        ctrl_c()


def test_ctrl_c_pressed_twice_stops_the_process_at_once() -> None:
    code = ("import os, signal, time; from ingest.interrupt import Interrupt\n"
            "with Interrupt():\n"
            "    os.kill(os.getpid(), signal.SIGINT); time.sleep(0.1)\n"
            "    print('noted', flush=True)\n"
            "    os.kill(os.getpid(), signal.SIGINT); time.sleep(5)\n"
            "    print('not stopped')\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (res.returncode, res.stdout) == (130, "noted\n")
    assert res.stderr.startswith("error: interrupted again: stopped at once")


def test_outside_the_main_thread_it_changes_nothing() -> None:
    seen: list[object] = []

    def other() -> None:
        stop = Interrupt()
        stop.install()
        seen.append(signal.getsignal(signal.SIGINT))
        stop.restore()

    before = signal.getsignal(signal.SIGINT)
    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen == [before]


@pytest.mark.parametrize("workers", [0, 1])
def test_ctrl_c_in_the_middle_stops_the_run_whole_and_marked_interrupted(tmp_path: Path, records: Path,
                                                                        workers: int) -> None:
    db = tmp_path / "g.duckdb"
    batches = []

    def progress(n: int, done: int) -> None:  # the writer's thread, after each committed batch
        batches.append(n)
        if len(batches) == 2:
            ctrl_c()

    with pytest.raises(KeyboardInterrupt):
        ingest([str(records)], db, workers=workers, batch_records=40, publish_every=0, progress=progress)
    (status, ok, games), = runs(db)
    assert status == "interrupted" and ok == games and 0 < games < 300
    # the snapshot readers use holds what was committed
    con = duckdb.connect(str(snapshot_path(db)), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (games,)
    finally:
        con.close()
    # the rerun finishes the job
    summary = ingest([str(records)], db, workers=workers, publish_every=-1)
    assert summary.counts.new == 300 - games and summary.counts.skipped == games


def test_ctrl_c_during_the_clean_up_of_a_finished_run_changes_nothing(tmp_path: Path, records: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "g.duckdb"
    counts = Database.table_counts

    def pressed(self: Database) -> dict[str, int]:  # the last statements of the run
        ctrl_c()
        return counts(self)

    monkeypatch.setattr(Database, "table_counts", pressed)
    try:
        summary = ingest([str(records)], db, workers=1, publish_every=-1)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C in the clean-up stopped it")
    assert summary.counts.new == 300
    assert runs(db) == [("finished", 300, 300)]


def test_ctrl_c_stops_an_ingest_waiting_on_a_pipe_that_never_ends(tmp_path: Path) -> None:
    """Reading stdin may wait for ever: there Ctrl-C is taken at once, not at the next line."""
    db = tmp_path / "g.duckdb"
    quiet, never = os.pipe()  # nothing is ever written to it, and it is never closed
    try:
        proc = subprocess.Popen([sys.executable, "-c", "import gamerec_cli; gamerec_cli.run()", "ingest", "-",
                                 "--db", str(db)], stdin=quiet, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        try:
            out, err = press(proc, lambda: snapshot_path(db).exists())  # the empty database is published
        finally:
            if proc.poll() is None:
                proc.kill()
    finally:
        os.close(quiet)
        os.close(never)
    assert proc.returncode == 130, err
    assert err == "error: interrupted; every batch written so far is complete, rerun to finish\n"
