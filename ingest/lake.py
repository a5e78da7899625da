"""Beyond one machine: replay on a Dask cluster into a Parquet lake.

``gamerec ingest PATH... --lake DIR [--scheduler ADDRESS] [--workers N]``
runs the same records-to-rows code as the one-machine ingest
(:func:`ingest.rows.build_batch`) as Dask tasks, one per *shard* of the input
(a record file, or a byte range of a big uncompressed ``.jsonl``), on the
cluster at ``ADDRESS`` or on a local cluster with one worker process per
core.  Each task writes Parquet files under ``DIR`` and the client, at the
end, rebuilds ``DIR/gamerec.duckdb``: a catalog of views with the tables and
columns of the one-machine database, so ``gamerec stats``, ``export`` and
``dashboard`` read a lake as they read a database.

Layout (``K`` is the shard's key, a hash of its source and content)::

    DIR/<table>/title=<title>/K.parquet   per-game tables, partitioned by title
    DIR/quarantine/K.parquet              records that could not be read
    DIR/_manifest/K.parquet               one row per record of shard K (id, content hash,
                                          status, file, line): the shard's commit mark
    DIR/ingest_runs/run-000001.parquet    one per run
    DIR/gamerec.duckdb                    the catalog (views), rebuilt at the end of a run

Safety: a task writes every file under a temporary name and renames it; the
manifest of a shard is written last, and the catalog lists only the files of
shards that have a manifest, so a task killed half-way leaves nothing a
reader sees; its rerun (Dask reschedules it on another worker, or the next
run does) writes the same names again.  A rerun skips every shard whose
manifest exists.  A game present in several shards (the same record in two
files, or a changed record in a later file) is read from one of them: the
latest content of its id, in the earliest shard that holds that content —
what the one-machine ingest keeps.  The catalog itself is written under a
temporary name and renamed, so readers see the previous catalog or the new
one.

Paths may be fsspec URLs (``s3://bucket/lake``, ``gs://...``) when the
matching filesystem package is installed (``s3fs``, ``gcsfs``); the catalog
then needs DuckDB's ``httpfs`` extension (and credentials) to read them.
"""

from __future__ import annotations

import hashlib
import io
import os
import resource
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import fsspec
import pyarrow as pa
import pyarrow.parquet as pq

from ingest import schema
from ingest.bga.convert import bga_items
from ingest.rows import Batch, Job, build_batch
from ingest.sources import expand
from ingest.writer import IngestError, utcnow
from replay import ENGINE_VERSION
from replay.record import RECORD_SUFFIXES, RawItem, RecordError, iter_raw
from replay.replayer import DIVERGED, INVALID

CATALOG = "gamerec.duckdb"
MANIFEST = "_manifest"
SPLIT_BYTES = 64 << 20
"""Uncompressed ``.jsonl`` files larger than this are cut into byte ranges of about this size."""
CHUNK_RECORDS = 256
"""A task replays its shard this many records at a time (bounded memory), appending row groups."""
SHARD_COLUMN = "_shard"

MANIFEST_SCHEMA = pa.schema([
    ("game_id", pa.string()), ("record_sha256", pa.string()), ("title", pa.string()), ("status", pa.string()),
    ("shard", pa.string()), ("source", pa.string()), ("line", pa.int32()), ("run_id", pa.int32()),
    ("ordinal", pa.int64()),
])


@dataclass(frozen=True)
class Shard:
    """A piece of the input one task replays: a whole file, or bytes ``[start, stop)`` of a ``.jsonl``."""

    source: str
    index: int
    """Position of the shard in the run's input (orders records across shards)."""
    start: int = 0
    stop: int | None = None


@dataclass
class ShardResult:
    key: str
    skipped: bool
    records: int
    statuses: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    worker_kib: int = 0


@dataclass
class LakeSummary:
    lake: str
    run_id: int
    shards: int
    shards_skipped: int
    records: int
    statuses: dict[str, int]
    rows: dict[str, int]
    seconds: float
    worker_kib: int
    dashboard: str | None = None

    @property
    def records_per_second(self) -> float:
        return self.records / self.seconds if self.seconds > 0 else 0.0


# --------------------------------------------------------------------------
# planning (client)
# --------------------------------------------------------------------------


def _fs(url: str) -> tuple[Any, str]:
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:
        raise IngestError(f"cannot use {url}: {exc} (install the fsspec filesystem for it, e.g. s3fs)") from None
    return fs, path.rstrip("/") if path != "/" else path


def _is_url(path: str) -> bool:
    return "://" in path and not path.startswith("file://")


def plan(paths: Sequence[str], split_bytes: int = SPLIT_BYTES) -> list[Shard]:
    """The shards of ``paths`` (files, folders, fsspec URLs), in input order."""
    files: list[str] = []
    for p in paths:
        if p == "-":
            raise IngestError("--lake reads files, not standard input (the tasks run on other machines)")
        if _is_url(p):
            fs, root = _fs(p)
            if not fs.exists(root):
                raise IngestError(f"no such file or directory: {p}")
            found = [root] if fs.isfile(root) else sorted(fs.find(root))
            proto = p.split("://", 1)[0]
            files += [f"{proto}://{f}" for f in found if f.endswith(RECORD_SUFFIXES)]
        else:
            files += expand([p])
    shards: list[Shard] = []
    for f in files:
        size = _size(f)
        if f.endswith(".jsonl") and size > split_bytes:
            for start in range(0, size, split_bytes):
                shards.append(Shard(f, len(shards), start, min(size, start + split_bytes)))
        else:
            shards.append(Shard(f, len(shards)))
    return shards


def _size(path: str) -> int:
    if _is_url(path):
        fs, p = _fs(path)
        return int(fs.size(p))
    return os.path.getsize(path)


# --------------------------------------------------------------------------
# one task (worker)
# --------------------------------------------------------------------------


def _read_shard(shard: Shard) -> tuple[bytes, Iterator[RawItem]]:
    """The shard's bytes as stored, or their hash (for its key), and its raw records."""
    if not _is_url(shard.source) and shard.stop is None:
        h = hashlib.sha256()
        with open(shard.source, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        return h.digest(), iter_raw([shard.source])
    fs, p = _fs(shard.source) if _is_url(shard.source) else (fsspec.filesystem("file"), shard.source)
    if shard.stop is None:
        data = fs.cat_file(p)
        return data, _raw_bytes(shard.source, data, 1)
    # a byte range of a .jsonl: the lines that *start* inside [start, stop)
    with fs.open(p, "rb") as fh:
        line = 1
        if shard.start > 0:
            fh.seek(0)
            left = shard.start - 1  # is the byte before `start` a newline?
            while left > 0:
                chunk = fh.read(min(left, 8 << 20))
                line += chunk.count(b"\n")
                left -= len(chunk)
            prev = fh.read(1)
            if prev != b"\n":  # `start` is inside a line owned by the previous range
                rest = fh.readline()
                line += 1
                if not rest.endswith(b"\n"):
                    return b"", iter(())
            else:
                line += 1
        begin = fh.tell()
        data = fh.read(max(0, shard.stop - begin))
        if data and not data.endswith(b"\n"):
            data += fh.readline()
    return data, _raw_bytes(shard.source, data, line)


def _raw_bytes(source: str, data: bytes, first_line: int) -> Iterator[RawItem]:
    if source.endswith(".gz"):
        import gzip

        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            yield RawItem(source, None, b"", RecordError(f"corrupt or truncated gzip data ({exc})", source=source))
            return
    if source.endswith((".json", ".json.gz")):
        yield RawItem(source, 1, data)
        return
    for n, text in enumerate(io.BytesIO(data), start=first_line):
        if text.strip():
            yield RawItem(source, n, text.rstrip(b"\r\n"))


def shard_key(shard: Shard, data: bytes) -> str:
    h = hashlib.sha256(f"{shard.source}\0{shard.start}\0{shard.stop}\0".encode())
    h.update(hashlib.sha256(data).digest())
    return h.hexdigest()[:32]


def _put(fs: Any, final: str, write: Callable[[Any], None]) -> None:
    """Write ``final`` under a temporary name in the same folder, then rename it."""
    folder, name = final.rsplit("/", 1)
    fs.makedirs(folder, exist_ok=True)
    tmp = f"{folder}/.tmp-{uuid.uuid4().hex}-{name}"
    with fs.open(tmp, "wb") as fh:
        write(fh)
    fs.mv(tmp, final)


def run_shard(shard: Shard, lake: str, run_id: int, at: Any, ruleset: str | None = None) -> ShardResult:
    """Replay one shard into the lake (runs as a Dask task; safe to run again)."""
    t0 = time.perf_counter()
    fs, root = _fs(lake)
    data, items = _read_shard(shard)
    key = shard_key(shard, data)
    manifest = f"{root}/{MANIFEST}/{key}.parquet"
    if fs.exists(manifest):
        n = pq.ParquetFile(fs.open(manifest, "rb")).metadata.num_rows
        return ShardResult(key, True, n, worker_kib=_maxrss())
    out = _ShardWriter(fs, root, key)
    manifest_rows: dict[str, list[Any]] = {f.name: [] for f in MANIFEST_SCHEMA}
    statuses: dict[str, int] = {}
    quarantine: list[Any] = []
    ordinal = shard.index << 32
    chunk: list[tuple[int, str, int | None, bytes]] = []

    def flush() -> None:
        if not chunk:
            return
        batch = build_batch(Job(list(chunk), run_id, at, None, ruleset))
        chunk.clear()
        _add(batch)

    def _add(batch: Batch) -> None:
        good = [o for o in batch.outcomes if o.status != INVALID]
        for o in batch.outcomes:
            statuses[o.status] = statuses.get(o.status, 0) + 1
            if o.status == INVALID:
                quarantine.append(o)
        for o in batch.outcomes:  # every record, read or not: a rerun counts them as skipped
            for name, value in (("game_id", o.game_id), ("record_sha256", o.raw_sha256), ("title", o.title),
                                ("status", o.status), ("shard", key), ("source", o.source), ("line", o.line),
                                ("run_id", run_id), ("ordinal", o.ordinal)):
                manifest_rows[name].append(value)
        out.add(batch, good)

    for it in bga_items(items):
        if it.error is not None:
            _add(Batch([_invalid(ordinal, it)]))
        else:
            chunk.append((ordinal, it.source, it.line, it.raw))
            if len(chunk) >= CHUNK_RECORDS:
                flush()
        ordinal += 1
    flush()
    rows = out.close()
    if quarantine:
        qt = _quarantine_table(quarantine, run_id, at)
        _put(fs, f"{root}/quarantine/{key}.parquet", lambda fh: pq.write_table(qt, fh, compression="zstd"))
        rows["quarantine"] = qt.num_rows
    mt = pa.table(manifest_rows, schema=MANIFEST_SCHEMA)
    _put(fs, manifest, lambda fh: pq.write_table(mt, fh, compression="zstd"))  # the commit mark, last
    return ShardResult(key, False, sum(statuses.values()), statuses, rows, time.perf_counter() - t0, _maxrss())


def _maxrss() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _invalid(ordinal: int, it: RawItem) -> Any:
    from ingest.rows import Outcome, raw_sha256

    return Outcome(ordinal, it.source, it.line, raw_sha256(it.raw), INVALID, error=str(it.error), raw=it.raw)


def _quarantine_table(bad: list[Any], run_id: int, at: Any) -> pa.Table:
    t = schema.QUARANTINE
    data = {
        "source": [o.source for o in bad], "line": [o.line for o in bad], "error": [o.error for o in bad],
        "raw": [(o.raw or b"").decode("utf-8", "backslashreplace") for o in bad], "at": [at] * len(bad),
        "raw_sha256": [o.raw_sha256 for o in bad], "game_id": [o.game_id for o in bad],
        "kind": ["unreadable" if o.game_id is None else "engine_error" for o in bad], "run_id": [run_id] * len(bad),
    }
    sch = t.arrow_schema()
    return pa.Table.from_arrays([pa.array(data[c], sch.field(c).type) for c in t.column_names], schema=sch)


class _ShardWriter:
    """One Parquet file per (table, title) for a shard, appended a row group per chunk."""

    def __init__(self, fs: Any, root: str, key: str) -> None:
        self.fs, self.root, self.key = fs, root, key
        self.open: dict[tuple[str, str], tuple[Any, Any, str, str]] = {}
        self.rows: dict[str, int] = {}

    def add(self, batch: Batch, good: list[Any]) -> None:
        if not good:
            return
        by_title: dict[str, list[Any]] = {}
        for o in good:
            by_title.setdefault(o.title or "unknown", []).append(o)
        for name, table in batch.tables.items():
            if table.num_rows == 0:
                continue
            table = table.append_column(SHARD_COLUMN, pa.array([self.key] * table.num_rows, pa.string()))
            for title, outs in by_title.items():
                idx: list[int] = []
                for o in outs:
                    span = (o.spans or {}).get(name)
                    if span:
                        idx.extend(range(*span))
                if idx:
                    self._write(name, title, table.take(pa.array(idx, pa.int64())))

    def _write(self, name: str, title: str, table: pa.Table) -> None:
        k = (name, title)
        if k not in self.open:
            folder = f"{self.root}/{name}/title={title}"
            self.fs.makedirs(folder, exist_ok=True)
            final = f"{folder}/{self.key}.parquet"
            tmp = f"{folder}/.tmp-{uuid.uuid4().hex}-{self.key}.parquet"
            fh = self.fs.open(tmp, "wb")
            self.open[k] = (pq.ParquetWriter(fh, table.schema, compression="zstd"), fh, tmp, final)
        self.open[k][0].write_table(table)
        self.rows[name] = self.rows.get(name, 0) + table.num_rows

    def close(self) -> dict[str, int]:
        for writer, fh, tmp, final in self.open.values():
            writer.close()
            fh.close()
            self.fs.mv(tmp, final)
        return self.rows


# --------------------------------------------------------------------------
# the run (client)
# --------------------------------------------------------------------------


def _client(scheduler: str | None, workers: int | None) -> tuple[Any, Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise IngestError("--lake runs on Dask: pip install 'gamerec[lake]' (dask[distributed])") from None

    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None
        except OSError as exc:
            raise IngestError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    from ingest.pipeline import usable_cpus

    cluster = LocalCluster(n_workers=workers or usable_cpus(), threads_per_worker=1, processes=True,
                           dashboard_address="127.0.0.1:0")
    return Client(cluster), cluster


def _next_run(fs: Any, root: str) -> int:
    runs = fs.glob(f"{root}/ingest_runs/run-*.parquet") if fs.exists(f"{root}/ingest_runs") else []
    return 1 + max((int(Path(r).stem.split("-")[1]) for r in runs), default=0)


def ingest_lake(paths: Sequence[str], lake: str, *, scheduler: str | None = None, workers: int | None = None,
                ruleset: str | None = None, progress: Callable[[int, int], None] | None = None,
                on_dashboard: Callable[[str], None] | None = None) -> LakeSummary:
    """Replay every record under ``paths`` on Dask into the lake ``lake``; rebuild its catalog."""
    t0 = time.perf_counter()
    started = utcnow()
    shards = plan(paths)
    fs, root = _fs(lake)
    fs.makedirs(root, exist_ok=True)
    run_id = _next_run(fs, root)
    client, cluster = _client(scheduler, workers)
    from distributed import as_completed

    dashboard = getattr(client, "dashboard_link", None)
    if on_dashboard is not None and dashboard:
        on_dashboard(dashboard)
    results: list[ShardResult] = []
    status = "failed"
    try:
        futures = client.map(run_shard, shards, lake=lake, run_id=run_id, at=started, ruleset=ruleset,
                             pure=False, retries=2)
        done = 0
        for fut in as_completed(futures):
            results.append(fut.result())
            done += 1
            if progress is not None:
                progress(done, len(shards))
        status = "finished"
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    statuses: dict[str, int] = {}
    rows: dict[str, int] = {}
    for r in results:
        for k, v in r.statuses.items():
            statuses[k] = statuses.get(k, 0) + v
        for k, v in r.rows.items():
            rows[k] = rows.get(k, 0) + v
    skipped = sum(r.records for r in results if r.skipped)
    records = sum(r.records for r in results)
    _write_run(fs, root, run_id, started, paths, len(shards), records, statuses, skipped, status)
    build_catalog(lake)
    return LakeSummary(lake, run_id, len(shards), sum(1 for r in results if r.skipped), records, statuses,
                       rows, time.perf_counter() - t0, max((r.worker_kib for r in results), default=0), dashboard)


def _write_run(fs: Any, root: str, run_id: int, started: Any, paths: Sequence[str], files: int, records: int,
               statuses: dict[str, int], skipped: int, status: str) -> None:
    import orjson

    t = schema.INGEST_RUNS
    row = {
        "run_id": run_id, "started_at": started, "finished_at": utcnow(), "files": files, "records": records,
        "ok": sum(v for k, v in statuses.items() if k not in (INVALID, DIVERGED)),
        "diverged": statuses.get(DIVERGED, 0), "quarantined": statuses.get(INVALID, 0), "skipped": skipped,
        "replaced": 0, "paths": orjson.dumps(list(paths)).decode(), "engine_version": ENGINE_VERSION,
        "status": status,
    }
    sch = t.arrow_schema()
    table = pa.Table.from_arrays([pa.array([row[c]], sch.field(c).type) for c in t.column_names], schema=sch)
    _put(fs, f"{root}/ingest_runs/run-{run_id:06d}.parquet", lambda fh: pq.write_table(table, fh))


# --------------------------------------------------------------------------
# the catalog
# --------------------------------------------------------------------------


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _files_sql(files: list[str]) -> str:
    return "[" + ", ".join(_lit(f) for f in files) + "]"


def _empty(t: schema.Table) -> str:
    cols = ", ".join(f'CAST(NULL AS {typ}) AS "{c}"' for c, typ in t.columns)
    return f"SELECT {cols} WHERE false"


def build_catalog(lake: str) -> Path | str:
    """(Re)build ``LAKE/gamerec.duckdb``: views over the committed Parquet files, written then renamed."""
    fs, root = _fs(lake)
    proto = lake.split("://", 1)[0] + "://" if _is_url(lake) else ""

    def url(p: str) -> str:
        return proto + p if proto else str(Path(p).resolve())

    manifests = sorted(fs.glob(f"{root}/{MANIFEST}/*.parquet"))
    keys = {Path(m).stem for m in manifests}

    def committed(folder: str) -> list[str]:
        found = fs.glob(f"{folder}/**/*.parquet") if fs.exists(folder) else []
        return sorted(url(f) for f in found if not Path(f).name.startswith(".") and Path(f).stem in keys)

    local_tmp = Path(root) / f".{CATALOG}.tmp" if not proto else Path(os.getcwd()) / f".{CATALOG}.{os.getpid()}.tmp"
    for leftover in (local_tmp, local_tmp.with_name(local_tmp.name + ".wal")):
        if leftover.exists():
            leftover.unlink()
    con = duckdb.connect(str(local_tmp))
    try:
        if manifests:
            con.execute(f"""CREATE TABLE lake_current AS
                WITH m AS (SELECT * FROM read_parquet({_files_sql([url(m) for m in manifests])})
                           WHERE status <> 'invalid'),
                latest AS (SELECT game_id, arg_max(record_sha256, (run_id, ordinal)) AS sha FROM m GROUP BY game_id)
                SELECT m.game_id, arg_min(m.shard, (m.run_id, m.ordinal)) AS shard
                FROM m JOIN latest l ON m.game_id = l.game_id AND m.record_sha256 = l.sha
                GROUP BY m.game_id""")
        else:
            con.execute("CREATE TABLE lake_current (game_id VARCHAR, shard VARCHAR)")
        for t in schema.game_tables():
            files = committed(f"{root}/{t.name}")
            cols = ", ".join(f't."{c}"' for c in t.column_names)
            if files:
                con.execute(f"""CREATE VIEW {t.name} AS SELECT {cols}
                    FROM read_parquet({_files_sql(files)}, hive_partitioning = false, union_by_name = true) t
                    SEMI JOIN lake_current c ON t.game_id = c.game_id AND t.{SHARD_COLUMN} = c.shard""")
            else:
                con.execute(f"CREATE VIEW {t.name} AS {_empty(t)}")
        for t, folder in ((schema.QUARANTINE, "quarantine"), (schema.INGEST_RUNS, "ingest_runs")):
            found = sorted(url(f) for f in fs.glob(f"{root}/{folder}/*.parquet")) if fs.exists(f"{root}/{folder}") else []
            if t is schema.QUARANTINE:
                found = [f for f in found if Path(f).stem in keys]
            cols = ", ".join(f'"{c}"' for c in t.column_names)
            if found:
                con.execute(f"CREATE VIEW {t.name} AS SELECT {cols} FROM read_parquet({_files_sql(found)})")
            else:
                con.execute(f"CREATE VIEW {t.name} AS {_empty(t)}")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    final = f"{root}/{CATALOG}"
    if proto:
        fs.put_file(str(local_tmp), final + ".tmp")
        fs.mv(final + ".tmp", final)
        local_tmp.unlink()
        return proto + final
    os.replace(local_tmp, final)
    return Path(final)


__all__ = ["LakeSummary", "Shard", "build_catalog", "ingest_lake", "plan", "run_shard"]
