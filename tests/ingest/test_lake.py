"""The Parquet lake on a real Dask cluster: `dask scheduler` and `dask worker` processes on 127.0.0.1.

The lake must hold exactly the rows the one-machine ingest writes for the same
records (compared table by table through the catalog), a rerun must change
nothing, a worker killed in the middle of a run must leave a lake that a rerun
completes, and `gamerec stats` must read the catalog.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import ingest
from ingest.schema import tables
from replay.record import write_records
from replay.simulate import simulate

pytest.importorskip("distributed", reason="the lake needs dask[distributed]")

from ingest.lake import ingest_lake  # noqa: E402

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")]))
NOT_COMPARED = {"ingested_at", "at", "started_at", "finished_at", "run_id"}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _worker(address: str) -> subprocess.Popen[bytes]:
    # --preload registers the tests' toy game in the worker process
    return subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nworkers", "1", "--nthreads", "1",
                             "--no-dashboard", "--preload", "toygame", "--host", "127.0.0.1"],
                            env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.fixture(scope="module")
def scheduler() -> object:
    port = _port()
    address = f"tcp://127.0.0.1:{port}"
    sched = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port",
                              str(port), "--no-dashboard"], env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    workers = [_worker(address), _worker(address)]
    from distributed import Client

    deadline = time.monotonic() + 120
    while True:
        try:
            with Client(address, timeout="5s") as c:
                c.wait_for_workers(2, timeout=60)
            break
        except (OSError, TimeoutError):
            assert time.monotonic() < deadline, "the Dask scheduler did not come up"
            time.sleep(0.5)
    yield address
    for p in (*workers, sched):
        _stop(p)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lake-corpus")
    for i in range(8):
        write_records(simulate("toy", 60, 31, start=i * 60), folder / f"part-{i:02d}.jsonl.gz")
    # one unreadable line among good ones, and the same record in a second file
    good = (folder / "part-00.jsonl.gz").read_bytes()
    bad = folder / "mixed.jsonl"
    bad.write_text('{"format": "gamerec/1", "game": "toy"\n')
    with open(bad, "a") as fh:
        import gzip

        fh.write(gzip.decompress(good).decode().splitlines()[0] + "\n")
    return folder


def _rows(con: duckdb.DuckDBPyConnection, prefix: str, name: str) -> list[tuple]:
    t = {t.name: t for t in tables()}[name]
    cols = ", ".join(f'"{c}"' for c in t.column_names if c not in NOT_COMPARED)
    return sorted(con.execute(f"SELECT {cols} FROM {prefix}.{name}").fetchall(), key=repr)


def assert_same(lake: Path, db: Path) -> None:
    con = duckdb.connect()
    con.execute(f"ATTACH '{lake / 'gamerec.duckdb'}' AS lake (READ_ONLY)")
    con.execute(f"ATTACH '{db}' AS one (READ_ONLY)")
    try:
        for t in tables():
            if t.name == "ingest_runs":
                continue
            assert _rows(con, "lake", t.name) == _rows(con, "one", t.name), t.name
    finally:
        con.close()


def test_lake_on_a_dask_cluster_equals_the_one_machine_database(tmp_path: Path, scheduler: str,
                                                                corpus: Path) -> None:
    db = tmp_path / "one.duckdb"
    ingest([str(corpus)], db, workers=0, publish_every=-1)
    lake = tmp_path / "lake"
    s = ingest_lake([str(corpus)], str(lake), scheduler=scheduler)
    assert s.shards == 9 and s.shards_skipped == 0
    assert s.records == 8 * 60 + 2 and s.statuses["invalid"] == 1
    assert_same(lake, db)
    # nothing half-written is left, and every data file belongs to a committed shard
    assert not [p for p in lake.rglob(".tmp-*")]
    # a rerun skips every shard and changes no table
    again = ingest_lake([str(corpus)], str(lake), scheduler=scheduler)
    assert again.shards_skipped == 9 and again.records == s.records and not again.rows
    assert_same(lake, db)
    con = duckdb.connect(str(lake / "gamerec.duckdb"), read_only=True)
    assert con.execute("SELECT count(*), max(run_id) FROM ingest_runs").fetchone() == (2, 2)
    con.close()
    # `gamerec stats` reads the catalog
    res = subprocess.run([sys.executable, "-m", "gamerec_cli.main", "stats", "--db", str(lake / "gamerec.duckdb")],
                         capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "games per title and status" in res.stdout and "480" in res.stdout


def test_a_worker_killed_mid_run_then_a_rerun_completes_the_lake(tmp_path: Path, scheduler: str,
                                                                 corpus: Path) -> None:
    db = tmp_path / "one.duckdb"
    ingest([str(corpus)], db, workers=0, publish_every=-1)
    extra = _worker(scheduler)
    lake = tmp_path / "lake"
    run = subprocess.Popen([sys.executable, "-m", "gamerec_cli.main", "ingest", str(corpus), "--lake", str(lake),
                            "--scheduler", scheduler], env=ENV, cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not list((lake / "_manifest").glob("*.parquet")) and run.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        _stop(extra)  # SIGKILL to the worker and its nanny, whatever it was doing
        run.communicate(timeout=300)
    finally:
        _stop(extra)
        if run.poll() is None:
            run.kill()
    rerun = subprocess.run([sys.executable, "-m", "gamerec_cli.main", "ingest", str(corpus), "--lake", str(lake),
                            "--scheduler", scheduler], env=ENV, cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    # 1 if the shard with the unreadable line was left for the rerun (it goes to quarantine again)
    assert rerun.returncode in (0, 1) and "Traceback" not in rerun.stderr, rerun.stderr
    assert_same(lake, db)


def test_byte_ranges_of_a_big_jsonl_cover_every_line_once_with_its_number(tmp_path: Path) -> None:
    from ingest.lake import _read_shard, plan

    path = tmp_path / "big.jsonl"
    write_records(simulate("toy", 40, 5), path)
    with open(path, "a") as fh:
        fh.write("\n   \n")  # blank lines are not records, and still count as lines
    write_records(simulate("toy", 3, 6), tmp_path / "more.jsonl")
    text = (tmp_path / "more.jsonl").read_bytes()
    with open(path, "ab") as fh:
        fh.write(text)
    lines = path.read_bytes().split(b"\n")
    want = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    for split in (97, 1000, 4096, 10**9):
        shards = [s for s in plan([str(path)], split_bytes=split) if s.source == str(path)]
        assert (len(shards) > 1) == (split < path.stat().st_size)
        got = [(it.line, it.raw) for s in shards for it in _read_shard(s)[1]]
        assert got == want, split
