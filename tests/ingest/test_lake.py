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
from typing import Any

import duckdb
import pytest
from ctrlc import has_files, press, start

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
    first = _lines(folder / "part-00.jsonl.gz")[0]
    bad = folder / "mixed.jsonl"
    bad.write_text('{"format": "gamerec/1", "game": "toy"\n' + first + "\n")
    # ids used twice in one run by different content: in two files (the file read first wins), and
    # twice in one file (the first line wins); each loser is quarantined as the one-machine ingest does
    other = _lines(folder / "part-03.jsonl.gz")[4]
    fresh = _lines(folder / "part-05.jsonl.gz")[2].replace('"id":', '"id": "toy-twice", "old_id":', 1)
    (folder / "conflict.jsonl").write_text("\n".join([_edited(other), fresh, _edited(fresh)]) + "\n")
    return folder


def _lines(path: Path) -> list[str]:
    import gzip

    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode().splitlines()


def _edited(line: str) -> str:
    """The same id with other content: a player renamed, so each record says something the other does not
    (one that only added to the other would be the same game saved two ways, not a conflict)."""
    import json

    obj = json.loads(line)
    obj["players"][0]["name"] = f"{obj['players'][0].get('name') or 'someone'} (edited)"
    return json.dumps(obj)


def _rows(con: duckdb.DuckDBPyConnection, prefix: str, name: str, skip: set[str] | frozenset[str] = frozenset()
          ) -> list[tuple]:
    t = {t.name: t for t in tables()}[name]
    cols = ", ".join(f'"{c}"' for c in t.column_names if c not in NOT_COMPARED | skip)
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
    assert s.shards == 10 and s.shards_skipped == 0
    assert s.records == 8 * 60 + 2 + 3 and s.replayed == s.records
    # the unreadable line, and the two records whose id another record already had in this run
    assert (s.counts.quarantined, s.counts.conflicts, s.counts.skipped) == (3, 2, 1)
    assert_same(lake, db)
    con = duckdb.connect(str(lake / "gamerec.duckdb"), read_only=True)
    kinds = con.execute("SELECT kind, count(*) FROM quarantine GROUP BY kind ORDER BY kind").fetchall()
    assert kinds == [("duplicate_id", 2), ("unreadable", 1)]
    con.close()
    # nothing half-written is left, and every data file belongs to a committed shard
    assert not [p for p in lake.rglob(".tmp-*")]
    # a rerun skips every shard and changes no table
    again = ingest_lake([str(corpus)], str(lake), scheduler=scheduler)
    assert again.shards_skipped == 10 and again.records == s.records and again.replayed == 0 and not again.rows
    assert (again.counts.new, again.counts.replaced, again.counts.quarantined) == (0, 0, 3)
    ingest([str(corpus)], db, workers=0, publish_every=-1)
    assert_same(lake, db)
    con = duckdb.connect(str(lake / "gamerec.duckdb"), read_only=True)
    assert con.execute("SELECT count(*), max(run_id) FROM ingest_runs").fetchone() == (2, 2)
    con.close()
    # `gamerec stats` reads the catalog
    res = subprocess.run([sys.executable, "-m", "gamerec_cli.main", "stats", "--db", str(lake / "gamerec.duckdb")],
                         capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "games per title and status" in res.stdout and "481" in res.stdout


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
    # 1: the unreadable line and the id conflicts go to quarantine in every run, as in the one-machine ingest
    assert rerun.returncode == 1 and "Traceback" not in rerun.stderr, rerun.stderr
    assert_same(lake, db)


def test_a_client_killed_mid_run_then_a_rerun_completes_the_lake(tmp_path: Path, scheduler: str,
                                                                 corpus: Path) -> None:
    db = tmp_path / "one.duckdb"
    ingest([str(corpus)], db, workers=0, publish_every=-1)
    lake = tmp_path / "lake"
    cmd = [sys.executable, "-m", "gamerec_cli.main", "ingest", str(corpus), "--lake", str(lake), "--scheduler",
           scheduler]
    run = subprocess.Popen(cmd, env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not list((lake / "_manifest").glob("*.parquet")) and run.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        _stop(run)  # SIGKILL: no run list, no catalog written by this run
    assert not (lake / "_runs").exists() or not list((lake / "_runs").glob("*.parquet"))
    rerun = subprocess.run(cmd, env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 1 and "Traceback" not in rerun.stderr, rerun.stderr
    assert_same(lake, db)
    con = duckdb.connect(str(lake / "gamerec.duckdb"), read_only=True)
    assert con.execute("SELECT run_id, records FROM ingest_runs").fetchall() == [(1, 8 * 60 + 2 + 3)]
    con.close()


def test_ctrl_c_stops_a_run_on_a_local_cluster_in_one_line_then_a_rerun_completes(tmp_path: Path) -> None:
    """Ctrl-C in a terminal reaches the cluster's workers too: they ignore it (each died with a traceback)."""
    corpus = tmp_path / "records"  # a real title: the local cluster's workers know no test game
    for i in range(6):
        write_records(simulate("copenhagen", 25, 40 + i), corpus / f"part-{i:02d}.jsonl.gz")
    db = tmp_path / "one.duckdb"
    ingest([str(corpus)], db, workers=0, publish_every=-1)
    lake = tmp_path / "lake"
    cmd = [sys.executable, "-m", "gamerec_cli.main", "ingest", str(corpus), "--lake", str(lake), "--workers", "2"]
    run = start(cmd, env=ENV, cwd=ROOT)
    out, err = press(run, has_files(lake / "_manifest", "*.parquet"), timeout=120)
    assert run.returncode == 130, err
    assert "Traceback" not in err and err.rstrip().endswith(
        "error: interrupted; every shard committed so far is complete, rerun to finish"), err
    rerun = subprocess.run(cmd, env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
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


def test_a_rerun_replays_only_the_records_not_in_the_lake(tmp_path: Path, scheduler: str) -> None:
    """The manifest is per record: a changed record, an appended one and a moved one, each as the one-machine
    ingest sees them (the lake equals its database after every run), with only new content replayed."""
    src = tmp_path / "records"
    src.mkdir()
    for i in range(3):
        write_records(simulate("toy", 20, 9, start=i * 20), src / f"f{i}.jsonl")
    write_records(simulate("toy", 90, 10, start=100), src / "big.jsonl")
    split = (src / "big.jsonl").stat().st_size // 3 + 1  # the big file is three byte ranges, then four
    lake, db = tmp_path / "lake", tmp_path / "one.duckdb"

    def both(folder: str, lake_url: str) -> Any:
        ingest([str(src)], db, workers=0, publish_every=-1)
        s = ingest_lake([folder], lake_url, scheduler=scheduler, split_bytes=split)
        assert_same(lake, db)
        return s

    # file:// URLs are the local disk, for the input and for the lake
    s = both(f"file://{src}", f"file://{lake}")
    assert (s.shards, s.records, s.replayed, s.counts.new) == (6, 150, 150, 150)
    # one record of f1 changed: f1 is a new shard, and only that record is replayed (it replaces the game)
    lines = (src / "f1.jsonl").read_text().splitlines()
    lines[6] = _edited(lines[6])
    (src / "f1.jsonl").write_text("\n".join(lines) + "\n")
    s = both(str(src), str(lake))
    assert (s.shards_skipped, s.replayed, s.counts.replaced, s.counts.skipped) == (5, 1, 1, 149)
    # a record appended to the big file: only it is replayed, though the last range moved
    with open(src / "big.jsonl", "a") as fh:
        fh.write(_lines(src / "f0.jsonl")[0].replace('"id":', '"id": "appended", "old_id":', 1) + "\n")
    s = both(str(src), str(lake))
    assert (s.replayed, s.counts.new, s.counts.skipped) == (1, 1, 150)
    # a record moved from f2 to a new file: nothing is replayed, the game stays once
    lines = (src / "f2.jsonl").read_text().splitlines()
    (src / "f2.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    (src / "f3.jsonl").write_text(lines[-1] + "\n")
    s = both(str(src), str(lake))
    assert (s.replayed, s.counts.new, s.counts.replaced, s.counts.skipped) == (0, 0, 0, 151)
    con = duckdb.connect(str(lake / "gamerec.duckdb"), read_only=True)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (151, 151)
    runs = con.execute("SELECT run_id, records, ok + diverged, replaced, skipped FROM ingest_runs ORDER BY 1")
    assert runs.fetchall() == [(1, 150, 150, 0, 0), (2, 150, 1, 1, 149), (3, 151, 1, 0, 150), (4, 151, 0, 0, 151)]
    con.close()


BGA_LOGS = TESTS / "ingest" / "bga_logs"


def test_the_run_says_what_the_imports_of_its_new_games_settled(tmp_path: Path, scheduler: str) -> None:
    """A BGA log whose import settled what it left open (a Perikles zombie's pairs) is counted with its
    note, as the one-machine ingest counts it; a rerun writes nothing and says nothing.  A lake whose
    manifests predate the ``notes`` column still takes new games."""
    import pyarrow.parquet as pq

    src = tmp_path / "logs"
    src.mkdir()
    untold = BGA_LOGS / "perikles" / "perikles_4p_seed20302.log.json.gz"
    for log in (untold, BGA_LOGS / "copenhagen" / "copenhagen_4p_seed20103.log.json.gz"):
        (src / log.name).write_bytes(log.read_bytes())
    lake = tmp_path / "lake"
    c = ingest_lake([str(src)], str(lake), scheduler=scheduler).counts
    assert (c.new, c.settled, len(c.settled_notes)) == (2, 1, 1)
    assert c.settled_notes[0].startswith(f"{src / untold.name}: packets 66, 82, 115, 136: ")
    assert ingest_lake([str(src)], str(lake), scheduler=scheduler).counts.settled == 0
    for m in (lake / "_manifest").glob("*.parquet"):  # as an older gamerec wrote them
        pq.write_table(pq.read_table(m).drop_columns(["notes"]), m)
    third = BGA_LOGS / "coal_baron" / "coalbaron_3p_seed22102.log.json.gz"
    (src / third.name).write_bytes(third.read_bytes())
    c = ingest_lake([str(src)], str(lake), scheduler=scheduler).counts
    assert (c.new, c.skipped, c.settled) == (1, 2, 0)


def test_a_lake_on_s3_through_fsspec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Input and lake on an S3 server (moto's, on 127.0.0.1) through s3fs, replayed by a worker process."""
    s3fs = pytest.importorskip("s3fs", reason="the S3 test needs s3fs")
    server_mod = pytest.importorskip("moto.server", reason="the S3 test needs moto[server]")
    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        for k, v in {"AWS_ENDPOINT_URL": f"http://{host}:{port}", "AWS_ACCESS_KEY_ID": "gamerec",
                     "AWS_SECRET_ACCESS_KEY": "gamerec", "AWS_DEFAULT_REGION": "us-east-1"}.items():
            monkeypatch.setenv(k, v)  # the local cluster's worker processes inherit them
        s3fs.S3FileSystem.clear_instance_cache()
        fs = s3fs.S3FileSystem()
        fs.mkdir("gamerec")
        local = tmp_path / "records"
        local.mkdir()
        write_records(simulate("coal_baron", 4, 3), local / "a.jsonl")
        write_records(simulate("coal_baron", 3, 4), local / "b.jsonl.gz")
        fs.put(str(local) + "/", "gamerec/records/", recursive=True)
        db = tmp_path / "one.duckdb"
        ingest([str(local)], db, workers=0, publish_every=-1)
        s = ingest_lake(["s3://gamerec/records"], "s3://gamerec/lake", workers=1)
        assert (s.shards, s.records, s.replayed) == (2, 7, 7)
        assert fs.exists("gamerec/lake/gamerec.duckdb") and not fs.glob("gamerec/lake/**/.tmp-*")
        again = ingest_lake(["s3://gamerec/records"], "s3://gamerec/lake", workers=1)
        assert (again.shards_skipped, again.replayed, again.counts.skipped) == (2, 0, 7)
        catalog = tmp_path / "catalog.duckdb"  # DuckDB opens database files from the local disk only
        fs.get("gamerec/lake/gamerec.duckdb", str(catalog))
        con = duckdb.connect()
        con.register_filesystem(fs)  # the views read s3:// through s3fs (or DuckDB's httpfs, where installed)
        con.execute(f"ATTACH '{catalog}' AS lake (READ_ONLY)")
        con.execute(f"ATTACH '{db}' AS one (READ_ONLY)")
        assert con.execute("SELECT min(source_file) FROM lake.games").fetchone()[0].startswith("s3://gamerec/")
        for t in tables():
            if t.name != "ingest_runs":
                assert _rows(con, "lake", t.name, {"source_file"}) == _rows(con, "one", t.name, {"source_file"})
        con.close()
    finally:
        server.stop()


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc to read a memory map")
def test_a_workers_peak_memory_is_its_own_not_the_clients_it_was_started_from() -> None:
    # Linux carries ru_maxrss over fork and exec: a worker started from a big client must not report it
    import multiprocessing

    from ingest.lake import _maxrss

    ballast = bytearray(300 << 20)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        child_kib = pool.apply(_maxrss)
    assert _maxrss() >= 300 << 10
    assert child_kib < 200 << 10, f"a fresh worker reported {child_kib >> 10} MiB"
    del ballast
