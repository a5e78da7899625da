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

Layout (``K`` is a shard's key, a hash of its file name, byte range and content)::

    DIR/<table>/title=<title>/K.parquet   rows of the games shard K replayed, by title (+ a _shard column)
    DIR/quarantine/K.parquet              records of shard K that could not be read
    DIR/_manifest/K.parquet               one row per record of shard K: id, content hash, status,
                                          file, line, and the *holder*: the shard whose files hold
                                          its rows (K, or an earlier shard with the same content)
    DIR/_runs/run-000001.parquet          the shards of a finished run, in input order
    DIR/ingest_runs/run-000001.parquet    one row per finished run
    DIR/gamerec.duckdb                    the catalog (views), rebuilt at the end of a run

**Per record, like the one-machine ingest.**  A shard whose manifest exists
is skipped whole.  Otherwise a first, cheap task per shard (a *probe*) reads
it and hashes its records; the client looks the hashes up in the lake's
manifests, and the shard's task replays only the records whose content is
not in the lake yet (a changed record in an otherwise unchanged file, the
records appended to a big file), writing manifest rows for the others that
point at the shard already holding their rows (a record moved to another
file is not replayed again).  The catalog then decides, per game id, as the
one-machine ingest does: within a run the first record with an id (input
order) is the game; a later record with the same id and the same content is
skipped, one with other content is quarantined (``duplicate_id``); a game
is replaced when a later run brings other content under its id.

**Safety.**  A task writes every file under a temporary name and renames it;
its manifest is written last and is the shard's commit mark; the run's list
of shards is written after every task, and the catalog reads only shards of
finished runs.  A task killed half-way leaves files no reader sees; Dask
reruns it elsewhere, or the next run does, under the same names.  The
catalog is written under a temporary name and renamed, so readers see the
previous catalog or the new one.

Paths may be fsspec URLs (``s3://bucket/lake``, ``gs://...``) when the
matching filesystem package is installed (``s3fs``, ``gcsfs``); the catalog
then needs DuckDB's ``httpfs`` extension (and credentials) to read them.
"""

from __future__ import annotations

import hashlib
import io
import os
import resource
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import fsspec
import pyarrow as pa
import pyarrow.parquet as pq

from ingest import schema
from ingest.bga.convert import bga_items
from ingest.duck import first_row, scalar
from ingest.interrupt import ignored_by_children
from ingest.rows import Batch, Job, Outcome, build_batch, raw_sha256, settle
from ingest.sources import expand
from ingest.writer import (
    NOTES_KEPT,
    IngestError,
    conflict_error,
    same_game,
    same_game_note,
    settled_notes,
    utcnow,
)
from replay import ENGINE_VERSION
from replay.record import RECORD_SUFFIXES, RawItem, RecordError, iter_raw
from replay.replayer import DIVERGED, INVALID

CATALOG = "gamerec.duckdb"
MANIFEST = "_manifest"
RUNS = "_runs"
SPLIT_BYTES = 64 << 20
"""Uncompressed ``.jsonl`` files larger than this are cut into byte ranges of about this size."""
CHUNK_RECORDS = 256
"""A task replays its shard this many records at a time (bounded memory), appending row groups."""
SHARD_COLUMN = "_shard"
ORDINAL_COLUMN = "_ordinal"
"""Every data row carries the shard and the place in it of the record it comes from (its holder)."""

MANIFEST_SCHEMA = pa.schema([
    ("shard", pa.string()), ("ordinal", pa.int64()), ("game_id", pa.string()), ("record_sha256", pa.string()),
    ("title", pa.string()), ("status", pa.string()), ("holder", pa.string()), ("holder_ordinal", pa.int64()),
    ("source", pa.string()), ("line", pa.int32()), ("replayed", pa.bool_()), ("run_id", pa.int32()),
    ("notes", pa.list_(pa.string())),
])
"""One row per record of a shard, in input order (``ordinal``); its rows are those of record
``holder_ordinal`` of shard ``holder`` (null for unreadable records).  ``notes``: what the BGA log
of a record replayed here left open and its import settled (``source.notes``; null when none, and
on a row whose record was replayed elsewhere: its holder's row has them).  Manifests of older lakes
have no such column (read with ``union_by_name``)."""

RUN_SCHEMA = pa.schema([
    ("run_id", pa.int32()), ("position", pa.int64()), ("shard", pa.string()), ("started_at", pa.timestamp("us")),
])
"""The shards of a finished run, ``position`` being the shard's place in the run's input."""

Known = dict[str, tuple[str, str | None, str, str, int]]
"""Content hash -> (game id, title, status, holder, holder ordinal) of records whose rows are in the lake."""


@dataclass(frozen=True)
class Shard:
    """A piece of the input one task replays: a whole file, or bytes ``[start, stop)`` of a ``.jsonl``."""

    source: str
    index: int
    """Position of the shard in the run's input (orders records across shards)."""
    start: int = 0
    stop: int | None = None


@dataclass
class Probe:
    """What the first task learnt of a shard not yet in the lake: its key and its records' content hashes."""

    key: str
    hashes: list[str]


@dataclass
class ShardResult:
    key: str
    skipped: bool
    """The whole shard was in the lake already (its manifest exists)."""
    records: int
    replayed: int = 0
    """Records replayed by this task (the others were in the lake already)."""
    statuses: dict[str, int] = field(default_factory=dict)
    """Statuses of the replayed records."""
    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    worker_kib: int = 0
    cpu: float = 0.0
    """CPU seconds the task used in its worker process."""


@dataclass
class RunCounts:
    """What a finished run did, decided per game id as the one-machine ingest decides (see the module doc)."""

    records: int = 0
    ok: int = 0
    diverged: int = 0
    skipped: int = 0
    quarantined: int = 0
    """Unreadable records and id conflicts."""
    conflicts: int = 0
    new: int = 0
    replaced: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    """Statuses of the games this run wrote."""
    conflict_examples: list[str] = field(default_factory=list)
    same_in_run: int = 0
    """Records skipped as one game with another input of the run under their id (the one saying more kept)."""
    same_in_run_notes: list[str] = field(default_factory=list)
    settled: int = 0
    """Games written whose BGA log left something open that the import settled (``source.notes``)."""
    settled_notes: list[str] = field(default_factory=list)
    """The first few of those notes, each after its input's place (``file: note``)."""


@dataclass
class LakeSummary:
    lake: str
    run_id: int
    shards: int
    shards_skipped: int
    records: int
    replayed: int
    counts: RunCounts
    rows: dict[str, int]
    """Rows written to Parquet by this run's tasks."""
    seconds: float
    worker_kib: int
    dashboard: str | None = None
    worker_cpu: float = 0.0
    """CPU seconds of every task, summed over the workers."""

    @property
    def statuses(self) -> dict[str, int]:
        return self.counts.statuses

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
    """A path that names another filesystem than the local disk (``file://`` is the local disk)."""
    return "://" in path and not path.startswith("file://")


def _local(path: str) -> str:
    """``file:///x`` as ``/x``; any other path as it is."""
    return str(fsspec.core.strip_protocol(path)) if path.startswith("file://") else path


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
            files += expand([_local(p)])
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
# the tasks (workers)
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


def shard_key(shard: Shard, data: bytes, viewer: str | None = None) -> str:
    """A shard's name in the lake: its place in its file and its bytes (and ``--viewer``, which
    changes the records of the BGA logs in it)."""
    h = hashlib.sha256(f"{shard.source}\0{shard.start}\0{shard.stop}\0".encode())
    h.update(hashlib.sha256(data).digest())
    if viewer is not None:
        h.update(f"viewer\0{viewer}".encode())
    return h.hexdigest()[:32]


def _put(fs: Any, final: str, write: Callable[[Any], None]) -> None:
    """Write ``final`` under a temporary name in the same folder, then rename it."""
    folder, name = final.rsplit("/", 1)
    fs.makedirs(folder, exist_ok=True)
    tmp = f"{folder}/.tmp-{uuid.uuid4().hex}-{name}"
    with fs.open(tmp, "wb") as fh:
        write(fh)
    fs.mv(tmp, final)


def _committed(fs: Any, root: str, key: str) -> ShardResult | None:
    """The result of a shard already in the lake (its manifest exists), else ``None``."""
    manifest = f"{root}/{MANIFEST}/{key}.parquet"
    if not fs.exists(manifest):
        return None
    with fs.open(manifest, "rb") as fh:
        n = pq.ParquetFile(fh).metadata.num_rows
    return ShardResult(key, True, n, worker_kib=_maxrss())


def _open_shard(shard: Shard, lake: str, viewer: str | None = None) -> tuple[Any, str, str, Any, ShardResult | None]:
    """``(fs, root, key, items, done)`` of a shard: its records, and its result if the lake already holds it."""
    fs, root = _fs(lake)
    data, items = _read_shard(shard)
    key = shard_key(shard, data, viewer)
    return fs, root, key, items, _committed(fs, root, key)


def probe_shard(shard: Shard, lake: str, viewer: str | None = None) -> ShardResult | Probe:
    """First task of a shard when the lake is not empty: skip it whole, or hash its records."""
    _, _, key, items, done = _open_shard(shard, lake, viewer)
    if done is not None:
        return done
    return Probe(key, [raw_sha256(it.raw) for it in bga_items(items, viewer=viewer) if it.error is None])


def run_shard(shard: Shard, lake: str, run_id: int, at: Any, ruleset: str | None = None,
              known: Known | None = None, viewer: str | None = None) -> ShardResult:
    """Replay the records of one shard that are not in ``known`` into the lake (a Dask task; safe to rerun)."""
    t0, c0 = time.perf_counter(), time.process_time()
    fs, root, key, items, done = _open_shard(shard, lake, viewer)
    if done is not None:
        return done
    known = known or {}
    settle()
    out = _ShardWriter(fs, root, key)
    manifest: list[tuple[Any, ...]] = []
    statuses: dict[str, int] = {}
    quarantine: list[Outcome] = []
    chunk: list[tuple[int, str, int | None, bytes]] = []

    def add(batch: Batch) -> None:
        for o in batch.outcomes:
            statuses[o.status] = statuses.get(o.status, 0) + 1
            if o.status == INVALID:
                quarantine.append(o)
            good = o.status != INVALID
            manifest.append((key, o.ordinal, o.game_id, o.raw_sha256, o.title, o.status, key if good else None,
                             o.ordinal if good else None, o.source, o.line, True, run_id, list(o.notes) or None))
        out.add(batch, [o for o in batch.outcomes if o.status != INVALID])

    def flush() -> None:
        if chunk:
            batch = build_batch(Job(list(chunk), run_id, at, None, ruleset))
            chunk.clear()
            add(batch)

    for ordinal, it in enumerate(bga_items(items, viewer=viewer)):
        sha = raw_sha256(it.raw)
        if it.error is not None:
            add(Batch([Outcome(ordinal, it.source, it.line, sha, INVALID, error=str(it.error), raw=it.raw)]))
        elif sha in known:
            gid, title, status, holder, at_ordinal = known[sha]
            manifest.append((key, ordinal, gid, sha, title, status, holder, at_ordinal, it.source, it.line, False,
                             run_id, None))
        else:
            chunk.append((ordinal, it.source, it.line, it.raw))
            if len(chunk) >= CHUNK_RECORDS:
                flush()
    flush()
    rows = out.close()
    if quarantine:
        qt = _quarantine_table(quarantine, run_id, at, key)
        _put(fs, f"{root}/quarantine/{key}.parquet", lambda fh: pq.write_table(qt, fh, compression="zstd"))
        rows["quarantine"] = qt.num_rows
    manifest.sort(key=lambda r: r[1])
    mt = pa.Table.from_pylist([dict(zip(MANIFEST_SCHEMA.names, r)) for r in manifest], schema=MANIFEST_SCHEMA)
    # the commit mark, last
    _put(fs, f"{root}/{MANIFEST}/{key}.parquet", lambda fh: pq.write_table(mt, fh, compression="zstd"))
    return ShardResult(key, False, len(manifest), sum(statuses.values()), statuses, rows,
                       time.perf_counter() - t0, _maxrss(), time.process_time() - c0)


def _maxrss() -> int:
    """This worker's peak resident memory in KiB, since its program started.

    ``ru_maxrss`` is no good here: Linux carries it over ``fork`` and ``exec``, so a Dask
    worker started from a client holding 500 MB reports at least 500 MB whatever it used.
    The memory map's own high-water mark (``VmHWM``) starts afresh with the program.
    """
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _quarantine_table(bad: list[Outcome], run_id: int, at: Any, key: str) -> pa.Table:
    t = schema.QUARANTINE
    data = {
        "source": [o.source for o in bad], "line": [o.line for o in bad], "error": [o.error for o in bad],
        "raw": [(o.raw or b"").decode("utf-8", "backslashreplace") for o in bad], "at": [at] * len(bad),
        "raw_sha256": [o.raw_sha256 for o in bad], "game_id": [o.game_id for o in bad],
        "kind": ["unreadable" if o.game_id is None else "engine_error" for o in bad], "run_id": [run_id] * len(bad),
    }
    sch = t.arrow_schema()
    table = pa.Table.from_arrays([pa.array(data[c], sch.field(c).type) for c in t.column_names], schema=sch)
    return table.append_column(SHARD_COLUMN, pa.array([key] * len(bad), pa.string()))


class _ShardWriter:
    """One Parquet file per (table, title) for a shard, appended a row group per chunk."""

    def __init__(self, fs: Any, root: str, key: str) -> None:
        self.fs, self.root, self.key = fs, root, key
        self.open: dict[tuple[str, str], tuple[Any, Any, str, str]] = {}
        self.rows: dict[str, int] = {}

    def add(self, batch: Batch, good: list[Outcome]) -> None:
        if not good:
            return
        by_title: dict[str, list[Outcome]] = {}
        for o in good:
            by_title.setdefault(o.title or "unknown", []).append(o)
        for name, table in batch.tables.items():
            if table.num_rows == 0:
                continue
            table = table.append_column(SHARD_COLUMN, pa.array([self.key] * table.num_rows, pa.string()))
            for title, outs in by_title.items():
                idx: list[int] = []
                ordinals: list[int] = []
                for o in outs:
                    span = (o.spans or {}).get(name)
                    if span:
                        idx.extend(range(*span))
                        ordinals.extend([o.ordinal] * (span[1] - span[0]))
                if idx:
                    part = table.take(pa.array(idx, pa.int64()))
                    self._write(name, title, part.append_column(ORDINAL_COLUMN, pa.array(ordinals, pa.int64())))

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

    # Ctrl-C in a terminal reaches the whole process group: only this process takes it and stops the run
    # in one line, instead of each worker dying with a traceback
    with ignored_by_children():
        cluster = LocalCluster(n_workers=workers or usable_cpus(), threads_per_worker=1, processes=True,
                               dashboard_address="127.0.0.1:0")
    return Client(cluster), cluster


def _listing(fs: Any, folder: str, pattern: str = "*.parquet") -> list[str]:
    """The committed files of ``folder`` (never the temporary ``.tmp-*`` ones), sorted."""
    if not fs.exists(folder):
        return []
    return sorted(f for f in fs.glob(f"{folder}/{pattern}") if not f.rsplit("/", 1)[-1].startswith("."))


def _next_run(fs: Any, root: str) -> int:
    runs = _listing(fs, f"{root}/ingest_runs", "run-*.parquet") + _listing(fs, f"{root}/{RUNS}", "run-*.parquet")
    return 1 + max((int(Path(r).stem.split("-")[1]) for r in runs), default=0)


def _url(lake: str) -> Callable[[str], str]:
    """Turns a path of the lake's filesystem into what DuckDB reads (a local absolute path, or a URL)."""
    proto = lake.split("://", 1)[0] + "://" if _is_url(lake) else ""
    return (lambda p: proto + p) if proto else (lambda p: str(Path(p).resolve()))


class _KnownHashes:
    """The client's index of the lake's records (content hash -> game id, title, status, holder).

    Built once per run from the committed manifests, in a DuckDB database of
    its own (it spills to disk past its memory limit); each probe's hashes are
    joined against it.
    """

    def __init__(self, fs: Any, root: str, url: Callable[[str], str]) -> None:
        self.con = _connect(":memory:", fs)
        found = _listing(fs, f"{root}/{MANIFEST}")
        manifests = [url(m) for m in found]
        self.empty = not manifests
        if manifests:
            with fs.open(found[0], "rb") as fh:
                if "holder" not in pq.read_schema(fh).names:
                    raise IngestError(f"{root} was written by an older gamerec (one manifest per shard, not per "
                                      "record); ingest into a new lake folder")
            self.con.execute(f"""CREATE TABLE known AS
                SELECT record_sha256 AS sha, game_id, title, status, holder, holder_ordinal
                FROM read_parquet({_files_sql(manifests)}, union_by_name = true) WHERE holder IS NOT NULL
                QUALIFY row_number() OVER (PARTITION BY record_sha256 ORDER BY holder, holder_ordinal) = 1""")

    def lookup(self, hashes: list[str]) -> Known:
        if self.empty or not hashes:
            return {}
        self.con.register("probe", pa.table({"sha": pa.array(hashes, pa.string())}))
        try:
            rows = self.con.execute("SELECT k.sha, k.game_id, k.title, k.status, k.holder, k.holder_ordinal FROM known k "
                                    "SEMI JOIN probe p ON k.sha = p.sha").fetchall()
        finally:
            self.con.unregister("probe")
        return {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in rows}

    def close(self) -> None:
        self.con.close()


def ingest_lake(paths: Sequence[str], lake: str, *, scheduler: str | None = None, workers: int | None = None,
                ruleset: str | None = None, viewer: str | None = None,
                progress: Callable[[int, int], None] | None = None,
                on_dashboard: Callable[[str], None] | None = None, split_bytes: int = SPLIT_BYTES) -> LakeSummary:
    """Replay every record under ``paths`` on Dask into the lake ``lake``; rebuild its catalog."""
    t0 = time.perf_counter()
    started = utcnow()
    lake = _local(lake)
    shards = plan(paths, split_bytes)
    if not shards:
        raise IngestError("no records found in " + ", ".join(paths) + " (record files end in "
                          ".json, .jsonl, .json.gz or .jsonl.gz)")
    fs, root = _fs(lake)
    fs.makedirs(root, exist_ok=True)
    run_id = _next_run(fs, root)
    known = _KnownHashes(fs, root, _url(lake))
    client, cluster = _client(scheduler, workers)
    from distributed import as_completed

    dashboard = getattr(client, "dashboard_link", None)
    try:  # a scheduler started with --no-dashboard has none; its link would point nowhere
        if "dashboard" not in client.scheduler_info().get("services", {}):
            dashboard = None
    except (OSError, AttributeError, KeyError):
        pass
    if on_dashboard is not None and dashboard:
        on_dashboard(dashboard)
    results: dict[int, ShardResult] = {}
    try:
        common = {"pure": False, "retries": 2}
        if known.empty:  # nothing to look up: replay every shard at once
            futures = client.map(run_shard, shards, lake=lake, run_id=run_id, at=started, ruleset=ruleset,
                                 viewer=viewer, **common)
        else:
            futures = client.map(probe_shard, shards, lake=lake, viewer=viewer, **common)
        of = {f.key: s for f, s in zip(futures, shards)}
        pending = as_completed(futures)
        for fut in pending:
            shard = of.pop(fut.key)
            r = _result(fut, shard)
            if isinstance(r, Probe):
                nxt = client.submit(run_shard, shard, lake, run_id, started, ruleset, known.lookup(r.hashes),
                                    viewer, **common)
                of[nxt.key] = shard
                pending.add(nxt)
                continue
            results[shard.index] = r
            if progress is not None:
                progress(len(results), len(shards))
    finally:
        known.close()
        client.close()
        if cluster is not None:
            cluster.close()
    # the run's list of shards makes it a finished run; then its counts and the catalog
    listing = pa.table({"run_id": pa.array([run_id] * len(shards), pa.int32()),
                        "position": pa.array([s.index for s in shards], pa.int64()),
                        "shard": pa.array([results[s.index].key for s in shards], pa.string()),
                        "started_at": pa.array([started] * len(shards), pa.timestamp("us"))}, schema=RUN_SCHEMA)
    _put(fs, f"{root}/{RUNS}/run-{run_id:06d}.parquet", lambda fh: pq.write_table(listing, fh))
    counts = build_catalog(lake, run=(run_id, started, list(paths), len({s.source for s in shards})))
    rows: dict[str, int] = {}
    for r in results.values():
        for k, v in r.rows.items():
            rows[k] = rows.get(k, 0) + v
    assert counts is not None
    return LakeSummary(lake, run_id, len(shards), sum(1 for r in results.values() if r.skipped), counts.records,
                       sum(r.replayed for r in results.values()), counts, rows, time.perf_counter() - t0,
                       max((r.worker_kib for r in results.values()), default=0), dashboard,
                       sum(r.cpu for r in results.values()))


def _result(fut: Any, shard: Shard) -> Any:
    """A task's result, or one line saying which shard failed and why."""
    try:
        return fut.result()
    except (KeyboardInterrupt, SystemExit, IngestError):
        raise
    except BaseException as exc:  # anything a worker raised, a worker lost for good, the scheduler gone
        where = shard.source + (f" bytes {shard.start}-{shard.stop}" if shard.stop is not None else "")
        raise IngestError(f"{where}: the task failed on the cluster ({type(exc).__name__}: {exc}); every "
                          "shard committed so far is kept, rerun to finish") from None


# --------------------------------------------------------------------------
# the catalog (client)
# --------------------------------------------------------------------------


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _files_sql(files: list[str]) -> str:
    return "[" + ", ".join(_lit(f) for f in files) + "]"


def _empty(t: schema.Table) -> str:
    cols = ", ".join(f'CAST(NULL AS {typ}) AS "{c}"' for c, typ in t.columns)
    return f"SELECT {cols} WHERE false"


_DECIDE = f"""
-- every record of every finished run, in that run's input order
CREATE TEMP TABLE run_records AS
    SELECT r.run_id, r.position, r.started_at, m.ordinal, m.game_id, m.record_sha256 AS sha, m.title, m.status,
           m.holder, m.holder_ordinal, m.source, m.line
    FROM lake_runs r JOIN lake_manifest m USING (shard);
-- per run and id, the first readable record: the game that run kept
CREATE TEMP TABLE picks AS
    SELECT * FROM run_records WHERE status <> '{INVALID}' AND game_id IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY run_id, game_id ORDER BY position, ordinal) = 1;
-- a later record of a run with the id of its pick and other content: quarantined, unless it is one game
-- with the pick saved two ways (resolved by _same_in_run)
CREATE TEMP TABLE conflicts AS
    SELECT c.run_id, c.started_at, c.game_id, c.sha, c.holder, c.holder_ordinal, c.source, c.line,
           p.source AS first_source, p.line AS first_line, c.position, c.ordinal,
           p.holder AS first_holder, p.holder_ordinal AS first_ordinal
    FROM run_records c JOIN picks p USING (run_id, game_id)
    WHERE c.status <> '{INVALID}' AND c.sha <> p.sha;
CREATE TEMP TABLE same_in_run (run_id BIGINT, note VARCHAR)
"""

_CURRENT = """
-- per id, the game of the latest run that had it: what the lake holds
CREATE TABLE lake_current AS
    SELECT game_id, holder AS shard, holder_ordinal AS ordinal, sha AS record_sha256, run_id FROM picks
    QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY run_id DESC) = 1
"""


def build_catalog(lake: str, run: tuple[int, datetime, list[str], int] | None = None) -> RunCounts | None:
    """(Re)build ``LAKE/gamerec.duckdb``: views over the lake's Parquet, written then renamed.

    With ``run`` (``run_id, started_at, paths, files``, a run whose shard list
    is written), the run's counts are worked out, written to ``ingest_runs``
    and returned.
    """
    lake = _local(lake)
    fs, root = _fs(lake)
    url = _url(lake)
    proto = lake.split("://", 1)[0] + "://" if _is_url(lake) else ""
    manifests = _listing(fs, f"{root}/{MANIFEST}")
    run_lists = _listing(fs, f"{root}/{RUNS}")
    scratch = tempfile.mkdtemp(prefix="gamerec-catalog-") if proto else None
    local_tmp = Path(scratch) / CATALOG if scratch else Path(root) / f".{CATALOG}.tmp"
    for leftover in (local_tmp, local_tmp.with_name(local_tmp.name + ".wal")):
        if leftover.exists():
            leftover.unlink()
    con = _connect(str(local_tmp), fs)
    counts: RunCounts | None = None
    try:
        if manifests and run_lists:
            con.execute(f"CREATE TEMP TABLE lake_manifest AS SELECT {', '.join(MANIFEST_SCHEMA.names)} FROM read_parquet("
                        f"{_files_sql([url(m) for m in manifests])}, union_by_name = true)")
            con.execute(f"CREATE TEMP TABLE lake_runs AS SELECT * FROM read_parquet("
                        f"{_files_sql([url(r) for r in run_lists])}) "
                        "WHERE shard IN (SELECT DISTINCT shard FROM lake_manifest)")
        else:
            con.execute(f"CREATE TEMP TABLE lake_manifest AS SELECT * FROM ({_empty_arrow(MANIFEST_SCHEMA)})")
            con.execute(f"CREATE TEMP TABLE lake_runs AS SELECT * FROM ({_empty_arrow(RUN_SCHEMA)})")
        for stmt in _DECIDE.split(";"):
            if stmt.strip():
                con.execute(stmt)
        _same_in_run(con, fs, root, url)
        con.execute(_CURRENT)
        con.execute("CREATE TABLE lake_shard_runs AS SELECT shard, max(run_id) AS run_id FROM lake_runs GROUP BY shard")
        _conflict_rows(con, fs, root, url)
        if run is not None:
            counts = _run_counts(con, run[0])
            _write_run(fs, root, run, counts)
        holders = {r[0] for r in con.execute("SELECT DISTINCT shard FROM lake_current").fetchall()}
        for t in schema.game_tables():
            files = [url(f) for f in _listing(fs, f"{root}/{t.name}", "*/*.parquet") if Path(f).stem in holders]
            cols = ", ".join(f't."{c}"' for c in t.column_names)
            if files:
                con.execute(f"""CREATE VIEW {t.name} AS SELECT {cols}
                    FROM read_parquet({_files_sql(files)}, hive_partitioning = false, union_by_name = true) t
                    SEMI JOIN lake_current c
                    ON t.game_id = c.game_id AND t.{SHARD_COLUMN} = c.shard AND t.{ORDINAL_COLUMN} = c.ordinal""")
            else:
                con.execute(f"CREATE VIEW {t.name} AS {_empty(t)}")
        _quarantine_view(con, fs, root, url)
        runs = [url(f) for f in _listing(fs, f"{root}/ingest_runs", "run-*.parquet")]
        t = schema.INGEST_RUNS
        cols = ", ".join(f'"{c}"' for c in t.column_names)
        con.execute(f"CREATE VIEW ingest_runs AS SELECT {cols} FROM read_parquet({_files_sql(runs)})" if runs
                    else f"CREATE VIEW ingest_runs AS {_empty(t)}")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    final = f"{root}/{CATALOG}"
    if proto:
        fs.put_file(str(local_tmp), final + ".tmp")
        fs.mv(final + ".tmp", final)
        shutil.rmtree(scratch or local_tmp.parent, ignore_errors=True)
    else:
        os.replace(local_tmp, final)
    return counts


def _connect(path: str, fs: Any) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection for the client's own queries over the lake (through ``fs`` when it is not local)."""
    con = duckdb.connect(path)
    con.execute("SET memory_limit = '1GB'")
    if "file" not in fs.protocol and "local" not in fs.protocol:
        con.register_filesystem(fs)  # DuckDB reads s3://, gs://... through the fsspec filesystem itself
    return con


def _empty_arrow(sch: pa.Schema) -> str:
    types = {pa.string(): "VARCHAR", pa.int64(): "BIGINT", pa.int32(): "INTEGER", pa.bool_(): "BOOLEAN",
             pa.timestamp("us"): "TIMESTAMP", pa.list_(pa.string()): "VARCHAR[]"}
    cols = ", ".join(f'CAST(NULL AS {types[f.type]}) AS "{f.name}"' for f in sch)
    return f"SELECT {cols} WHERE false"


def _conflict_rows(con: duckdb.DuckDBPyConnection, fs: Any, root: str, url: Callable[[str], str]) -> None:
    """``lake_conflicts``: the quarantine rows of id conflicts, worded as the one-machine ingest words them."""
    t = schema.QUARANTINE
    con.execute(f"CREATE TABLE lake_conflicts AS {_empty(t)}")
    rows = con.execute("""SELECT run_id, started_at, game_id, sha, holder, holder_ordinal, source, line,
               first_source, first_line
        FROM conflicts QUALIFY row_number() OVER (PARTITION BY source, line, sha ORDER BY run_id DESC) = 1
        ORDER BY run_id, source, line""").fetchall()
    if not rows:
        return
    raw = _raws(con, fs, root, url, [(r[4], r[5]) for r in rows])
    data = {
        "source": [r[6] for r in rows], "line": [r[7] for r in rows],
        "error": [conflict_error(r[6], r[7], r[2], r[8], r[9]) for r in rows],
        "raw": [str(raw.get((r[4], r[5]), "")) for r in rows], "at": [r[1] for r in rows],
        "raw_sha256": [r[3] for r in rows], "game_id": [r[2] for r in rows],
        "kind": ["duplicate_id"] * len(rows), "run_id": [r[0] for r in rows],
    }
    sch = t.arrow_schema()
    con.register("conflict_rows",
                 pa.Table.from_arrays([pa.array(data[c], sch.field(c).type) for c in t.column_names], schema=sch))
    try:
        con.execute("INSERT INTO lake_conflicts SELECT * FROM conflict_rows")
    finally:
        con.unregister("conflict_rows")


def _raws(con: duckdb.DuckDBPyConnection, fs: Any, root: str, url: Callable[[str], str],
          keys: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The stored record text (``records.raw``) of each ``(holder shard, ordinal)``."""
    files = [url(f) for f in _listing(fs, f"{root}/records", "*/*.parquet") if Path(f).stem in {h for h, _ in keys}]
    if not files:
        return {}
    con.register("raw_keys", pa.table({"holder": pa.array([h for h, _ in keys], pa.string()),
                                       "ordinal": pa.array([n for _, n in keys], pa.int64())}))
    try:
        return {(h, n): str(text) for h, n, text in con.execute(
            f"SELECT t.{SHARD_COLUMN}, t.{ORDINAL_COLUMN}, t.raw FROM read_parquet({_files_sql(files)}) t "
            f"SEMI JOIN raw_keys k ON t.{SHARD_COLUMN} = k.holder AND t.{ORDINAL_COLUMN} = k.ordinal"
        ).fetchall()}
    finally:
        con.unregister("raw_keys")


def _same_in_run(con: duckdb.DuckDBPyConnection, fs: Any, root: str, url: Callable[[str], str]) -> None:
    """Resolve the conflicts that are one game saved two ways, as the one-machine ingest does
    (:func:`ingest.writer.same_game`): a record that says less than its id's current pick is skipped, one
    that only adds to it becomes the pick; the rest stay conflicts.  Notes go to ``same_in_run``."""
    import orjson

    rows = con.execute("""SELECT run_id, game_id, holder, holder_ordinal, source, line, first_holder, first_ordinal,
               first_source, first_line
        FROM conflicts ORDER BY run_id, game_id, position, ordinal""").fetchall()
    if not rows:
        return
    raw = _raws(con, fs, root, url, [k for r in rows for k in ((r[2], r[3]), (r[6], r[7]))])

    def parsed(key: tuple[str, int]) -> object:
        try:
            return orjson.loads(raw[key]) if key in raw else None
        except orjson.JSONDecodeError:
            return None

    resolved: list[tuple[int, str, int]] = []  # (run, holder, ordinal) of the conflicts that are not any more
    taken: dict[tuple[int, str], tuple[str, int | None]] = {}  # (run, id) -> the (source, line) that is the pick now
    notes: list[tuple[int, str]] = []
    current: dict[tuple[int, str], tuple[tuple[str, int], tuple[str, int | None]]] = {}
    for run_id, gid, holder, ordinal, source, line, f_holder, f_ordinal, f_source, f_line in rows:
        key, at = (holder, ordinal), (source, line)
        first_key, first_at = current.get((run_id, gid), ((f_holder, f_ordinal), (f_source, f_line)))
        rel = same_game(parsed(first_key), parsed(key))
        if rel is None:
            continue
        resolved.append((run_id, holder, ordinal))
        if rel == "less":
            notes.append((run_id, same_game_note(gid, first_at, at)))
        else:
            notes.append((run_id, same_game_note(gid, at, first_at)))
            current[(run_id, gid)] = (key, at)
            taken[(run_id, gid)] = at
    if resolved:
        con.register("resolved", pa.table({"run_id": pa.array([r[0] for r in resolved], pa.int64()),
                                           "holder": pa.array([r[1] for r in resolved], pa.string()),
                                           "holder_ordinal": pa.array([r[2] for r in resolved], pa.int64())}))
        try:
            con.execute("DELETE FROM conflicts c USING resolved r WHERE c.run_id = r.run_id "
                        "AND c.holder = r.holder AND c.holder_ordinal = r.holder_ordinal")
        finally:
            con.unregister("resolved")
    for (run_id, gid), (source, line) in taken.items():
        con.execute("""UPDATE picks p SET position = r.position, ordinal = r.ordinal, sha = r.sha, title = r.title,
                           status = r.status, holder = r.holder, holder_ordinal = r.holder_ordinal,
                           source = r.source, line = r.line
                       FROM run_records r
                       WHERE p.run_id = ? AND p.game_id = ? AND r.run_id = p.run_id AND r.game_id = p.game_id
                         AND r.source = ? AND r.line IS NOT DISTINCT FROM ?""", [run_id, gid, source, line])
    if notes:
        con.executemany("INSERT INTO same_in_run VALUES (?, ?)", notes)


def _quarantine_view(con: duckdb.DuckDBPyConnection, fs: Any, root: str, url: Callable[[str], str]) -> None:
    """Unreadable records of the shards of finished runs (each once, with its latest run), and id conflicts."""
    t = schema.QUARANTINE
    shards = {r[0] for r in con.execute("SELECT shard FROM lake_shard_runs").fetchall()}
    files = [url(f) for f in _listing(fs, f"{root}/quarantine") if Path(f).stem in shards]
    cols = ", ".join(f'"{c}"' for c in t.column_names)
    if not files:
        con.execute(f"CREATE VIEW quarantine AS SELECT {cols} FROM lake_conflicts")
        return
    qcols = ", ".join(f'q."{c}"' for c in t.column_names if c != "run_id")
    con.execute(f"""CREATE VIEW quarantine AS
        SELECT {cols} FROM (
            SELECT {qcols}, s.run_id FROM read_parquet({_files_sql(files)}) q
            JOIN lake_shard_runs s ON q.{SHARD_COLUMN} = s.shard
            QUALIFY row_number() OVER (PARTITION BY q.source, q.line, q.raw_sha256 ORDER BY s.run_id DESC) = 1)
        UNION ALL BY NAME SELECT {cols} FROM lake_conflicts""")


def _run_counts(con: duckdb.DuckDBPyConnection, run_id: int) -> RunCounts:
    """What run ``run_id`` did, from the decision tables (counted as the one-machine ingest counts)."""
    records, invalid = first_row(con.execute(
        f"SELECT count(*), count(*) FILTER (WHERE status = '{INVALID}' OR game_id IS NULL) "
        "FROM run_records WHERE run_id = ?", [run_id]))  # type: ignore[misc]
    conflicts = scalar(con.execute("SELECT count(*) FROM conflicts WHERE run_id = ?", [run_id]))
    con.execute("""
        CREATE OR REPLACE TEMP TABLE run_written AS
        WITH prev AS (SELECT game_id, sha FROM picks WHERE run_id < $1
                      QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY run_id DESC) = 1)
        SELECT p.*, prev.sha IS NOT NULL AS replaced
        FROM picks p LEFT JOIN prev USING (game_id)
        WHERE p.run_id = $1 AND (prev.sha IS NULL OR prev.sha <> p.sha)""", [run_id])
    written = con.execute("SELECT status, replaced, count(*) FROM run_written GROUP BY ALL").fetchall()
    c = RunCounts(records=int(records), conflicts=int(conflicts), quarantined=int(invalid) + int(conflicts))
    for status, replaced, n in written:
        c.statuses[status] = c.statuses.get(status, 0) + n
        if status == DIVERGED:
            c.diverged += n
        else:
            c.ok += n
        if replaced:
            c.replaced += n
        else:
            c.new += n
    c.skipped = c.records - c.quarantined - c.ok - c.diverged
    c.conflict_examples = [r[0] for r in con.execute(
        "SELECT error FROM lake_conflicts WHERE run_id = ? ORDER BY source, line LIMIT ?", [run_id, NOTES_KEPT]).fetchall()]
    notes = [r[0] for r in con.execute("SELECT note FROM same_in_run WHERE run_id = ?", [run_id]).fetchall()]
    c.same_in_run, c.same_in_run_notes = len(notes), notes[:NOTES_KEPT]
    settled = con.execute("""
        SELECT w.source, m.notes FROM run_written w
        JOIN lake_manifest m ON m.shard = w.holder AND m.ordinal = w.holder_ordinal
        WHERE len(m.notes) > 0 ORDER BY w.position, w.ordinal""").fetchall()
    c.settled = len(settled)
    c.settled_notes = [line for source, ns in settled for line in settled_notes(source, ns)][:NOTES_KEPT]
    return c


def _write_run(fs: Any, root: str, run: tuple[int, datetime, list[str], int], c: RunCounts) -> None:
    import orjson

    run_id, started, paths, files = run
    t = schema.INGEST_RUNS
    row = {
        "run_id": run_id, "started_at": started, "finished_at": utcnow(), "files": files, "records": c.records,
        "ok": c.ok, "diverged": c.diverged, "quarantined": c.quarantined, "skipped": c.skipped,
        "replaced": c.replaced, "paths": orjson.dumps(list(paths)).decode(), "engine_version": ENGINE_VERSION,
        "status": "finished",
    }
    sch = t.arrow_schema()
    table = pa.Table.from_arrays([pa.array([row[c]], sch.field(c).type) for c in t.column_names], schema=sch)
    _put(fs, f"{root}/ingest_runs/run-{run_id:06d}.parquet", lambda fh: pq.write_table(table, fh))


__all__ = ["LakeSummary", "RunCounts", "Shard", "build_catalog", "ingest_lake", "plan", "probe_shard", "run_shard"]
