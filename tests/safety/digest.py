"""The safety net: one digest per record, so that a change which should alter nothing is seen to alter nothing.

A digest is what replaying and ingesting one record gives, in one line::

    corpus  where  id  record  status  frames  frames_hash  score  rows

``where`` is the record's file (relative to its corpus) and line; ``record``
hashes the record's JSON (for a BGA log: the record its import wrote), so a
changed input is told from a changed replay; ``status``, the number of frames
and a hash of every frame (seq, kind, actor, move, round, phase, score by
category) come from the replay; ``score`` is the final total per player;
``rows`` hashes every row ``gamerec ingest`` builds for the record, in every
table, leaving out only what belongs to the run (when, which run, which
engine version, the file it came from).  Hashes are the first 16 hex digits of
a SHA-256.

The corpora: ``bundled`` (every record under ``data/``), ``bga-fixtures``
(the BGA logs kept in ``tests/ingest/bga_logs``), ``bga-logs`` and
``bga-logs-every-action`` (the shared BGA logs in ``../shared``, when they are
there), each read and imported as ``gamerec ingest`` reads them, and ``sim``:
``--sim N`` simulated records per title (seed :data:`SEED`; player counts
cycle, so any prefix covers every count).

``python tests/safety/digest.py --sim 10000 --workers 2 --out tests/safety/digests.tsv.gz``
writes the committed file; ``--check FILE`` recomputes and compares instead
(exit 1 and one line per difference).  ``tests/safety/test_digests.py``
recomputes a subset in the test suite.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import multiprocessing
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import msgspec
import orjson

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
if str(REPO) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(REPO))

from ingest import milestones  # noqa: E402
from ingest.bga.convert import ingest_items, replay_log  # noqa: E402
from ingest.rows import Batch, Job, build_batch  # noqa: E402
from replay.games import available, get_game  # noqa: E402
from replay.record import Item, RecordError, iter_raw, loads  # noqa: E402
from replay.replayer import Replay, replay_item  # noqa: E402
from replay.simulate import player_counts, simulate_one, simulated_id  # noqa: E402

SEED = 29
"""The seed of the simulated corpus (issue 29)."""
DIGESTS = HERE / "digests.tsv.gz"
COLUMNS = ("corpus", "where", "id", "record", "status", "frames", "frames_hash", "score", "rows")
RUN_COLUMNS = {"games": ("ingested_at", "engine_version", "source_file", "source_line", "run_id")}
"""Columns that say which run wrote a row, not what the record is: left out of ``rows``."""
CHUNK = 50
"""Records per task (a batch of ``build_batch``)."""
UNSIMULATED = "unsimulated"
"""The status of a simulated record the simulator failed to write (``rows`` hashes the error)."""


def shared_dir() -> Path:
    """``../shared`` beside the repository, as the BGA importer tests find it."""
    path = REPO.parent / "shared"
    return path if path.is_dir() else Path("/work/shared")


def file_corpora() -> dict[str, Path]:
    """Corpus name -> the directory of its records or logs (those that are here)."""
    shared = shared_dir()
    roots = {
        "bundled": REPO / "data",
        "bga-fixtures": REPO / "tests" / "ingest" / "bga_logs",
        "bga-logs": shared / "bga-logs",
        "bga-logs-every-action": shared / "bga-logs-every-action",
    }
    return {name: root for name, root in roots.items() if root.is_dir()}


@dataclass(frozen=True, slots=True)
class Digest:
    corpus: str
    where: str
    id: str
    record: str
    status: str
    frames: int
    frames_hash: str
    score: str
    rows: str

    def line(self) -> str:
        return "\t".join(str(getattr(self, c)) for c in COLUMNS)

    @classmethod
    def parse(cls, line: str) -> Digest:
        f = line.rstrip("\n").split("\t")
        if len(f) != len(COLUMNS):
            raise ValueError(f"a digest line has {len(COLUMNS)} tab-separated fields, not {len(f)}: {line!r}")
        return cls(f[0], f[1], f[2], f[3], f[4], int(f[5]), f[6], f[7], f[8])

    @property
    def key(self) -> tuple[str, str]:
        return self.corpus, self.where

    def differences(self, other: Digest) -> list[str]:
        """The fields that differ, ``record`` first (a different input explains all the rest)."""
        return [c for c in COLUMNS[2:] if getattr(self, c) != getattr(other, c)]


def _hash(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()[:16]


def _frames_hash(r: Replay) -> str:
    frames = msgspec.to_builtins(r.frames)
    return _hash(orjson.dumps(frames, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))


def _rows_hash(batch: Batch, spans: dict[str, tuple[int, int]]) -> str:
    h = hashlib.sha256()
    for name in sorted(spans):
        start, stop = spans[name]
        table = batch.tables[name].slice(start, stop - start)
        drop = [c for c in RUN_COLUMNS.get(name, ()) if c in table.column_names]
        h.update(name.encode() + b"\n")
        h.update(orjson.dumps(table.drop_columns(drop).to_pydict(), default=str,
                              option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS))
    return h.hexdigest()[:16]


# (source, line, raw, table file or None when the item is not a BGA log)
Raw = tuple[str, "int | None", bytes, "str | None"]


def digest_items(corpus: str, root: str, items: Sequence[Raw]) -> list[Digest]:
    """The digests of ``items``: their rows from :func:`ingest.rows.build_batch`, as ``gamerec
    ingest`` builds them, and their frames from the same replay call it makes."""
    job = Job([(i, src, line, raw) for i, (src, line, raw, _) in enumerate(items)], 0,
              datetime(2000, 1, 1), list(milestones.MILESTONE_TABLES), None,
              {i: t for i, (_, _, _, t) in enumerate(items) if t is not None})
    batch = build_batch(job)
    outcomes = {o.ordinal: o for o in batch.outcomes}
    prefix = root.rstrip("/") + "/"
    out = []
    for i, (src, line, raw, table) in enumerate(items):
        if table is not None:
            got = replay_log(src, line, raw, table)
            if got is None:  # a table file after all
                continue
            raw, r = got
        else:
            try:
                item = Item(src, line, raw, record=loads(raw, src, line))
            except RecordError as exc:
                item = Item(src, line, raw, error=exc)
            r = replay_item(item)
        o = outcomes[i]
        where = f"{src.removeprefix(prefix)}:{line if line is not None else ''}"
        if o.spans is None:  # quarantined: what it stores is the reason
            rows = _hash((o.error or "").replace(prefix, "").encode())
        else:
            rows = _rows_hash(batch, o.spans)
        score = ",".join(f"{p}={t}" for p, t in r.totals.items())
        out.append(Digest(corpus, where, o.game_id or "", _hash(raw.strip()), o.status, len(r.frames),
                          _frames_hash(r), score or "-", rows))
    return out


def file_tasks(corpus: str, root: Path, under: str | None = None) -> Iterator[tuple[str, str, list[Raw]]]:
    """``(corpus, root, items)`` chunks of a directory's records and logs (``under``: of one folder of
    it), read as ingest reads them."""
    chunk: list[Raw] = []
    for it, table in ingest_items(iter_raw([str(root / under if under else root)])):
        chunk.append((it.source, it.line, it.raw, table))
        if len(chunk) == CHUNK:
            yield corpus, str(root), chunk
            chunk = []
    if chunk:
        yield corpus, str(root), chunk


def sim_tasks(n: int, titles: Iterable[str]) -> Iterator[tuple[str, int, int]]:
    """``(title, start, stop)`` chunks of the simulated corpus."""
    for title in titles:
        for start in range(0, n, CHUNK):
            yield title, start, min(n, start + CHUNK)


def digest_sim(title: str, start: int, stop: int) -> list[Digest]:
    game = get_game(title)
    counts = player_counts(game, None)
    items: list[Raw] = []
    failed: list[Digest] = []
    for i in range(start, stop):
        n = counts[i % len(counts)]
        try:
            rec = simulate_one(game, n, SEED, i)
        except Exception as exc:  # noqa: BLE001 - a simulator bug is a fact to keep, not a reason to stop
            why = _hash(f"{type(exc).__name__}: {exc}".encode())
            failed.append(Digest("sim", f"{title}:{i}", simulated_id(title, SEED, n, i), "-", UNSIMULATED, 0,
                                 "-", "-", why))
            continue
        items.append((title, i, orjson.dumps(rec.to_dict()), None))
    got = digest_items("sim", "", items) if items else []
    return sorted(got + failed, key=lambda d: int(d.where.rpartition(":")[2]))


def _run_file_task(task: tuple[str, str, list[Raw]]) -> list[Digest]:
    return digest_items(*task)


def _run_sim_task(task: tuple[str, int, int]) -> list[Digest]:
    return digest_sim(*task)


def compute(sim: int, titles: Sequence[str], workers: int = 1, corpora: Sequence[str] | None = None,
            progress: bool = False) -> Iterator[Digest]:
    """Every digest, in a fixed order: the file corpora (``corpora``: only these), then ``sim``
    simulated records per title, in the order of ``titles``."""
    roots = {c: r for c, r in file_corpora().items() if corpora is None or c in corpora}
    ftasks = [t for c, r in roots.items() for t in file_tasks(c, r)]
    stasks = list(sim_tasks(sim, titles))
    if workers <= 1:
        yield from (d for t in ftasks for d in _run_file_task(t))
        yield from (d for t in stasks for d in _run_sim_task(t))
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for part in pool.imap(_run_file_task, ftasks):
            yield from part
        for done, part in enumerate(pool.imap(_run_sim_task, stasks), start=1):
            yield from part
            if progress:
                print(f"{done}/{len(stasks)} simulated chunks done ({part[-1].id})", file=sys.stderr, flush=True)


def cpu_seconds() -> float:
    """CPU time of this process and its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def write(digests: Sequence[Digest], path: Path) -> None:
    text = "".join(d.line() + "\n" for d in digests)
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # mtime 0: the same digests give the same bytes
        f.write(("\t".join(COLUMNS) + "\n" + text).encode())


def read(path: Path) -> list[Digest]:
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    return [Digest.parse(line) for line in lines[1:]]


def compare(expected: Sequence[Digest], got: Sequence[Digest]) -> list[str]:
    """One line per record whose digest differs, is missing or is new (the first 50)."""
    want = {d.key: d for d in expected}
    have = {d.key: d for d in got}
    problems = []
    for key, g in have.items():
        e = want.get(key)
        if e is None:
            problems.append(f"{key[0]} {key[1]} ({g.id}): no digest recorded for it")
        elif diff := e.differences(g):
            why = ("the input changed (record hash): regenerate the digests if that was meant"
                   if "record" in diff else "replays or ingests differently")
            shown = "; ".join(f"{c}: {getattr(e, c)} -> {getattr(g, c)}" for c in diff if c != "record")
            problems.append(f"{key[0]} {key[1]} ({g.id}): {why}: {shown}")
    for key, e in want.items():
        if key not in have:
            problems.append(f"{key[0]} {key[1]} ({e.id}): recorded, but no longer read")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", type=int, default=200, help="simulated records per title (default 200)")
    ap.add_argument("--game", action="append", help="only these titles' simulated records")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, help="write the digests here (.tsv.gz)")
    ap.add_argument("--check", type=Path, help="compare with these digests (only the records computed)")
    args = ap.parse_args(argv)
    titles = args.game or available()
    t0 = cpu_seconds()
    got = []
    partial = args.out.with_name(args.out.name + ".partial") if args.out else None
    with partial.open("w") if partial else open(os.devnull, "w") as f:
        for d in compute(args.sim, titles, args.workers, progress=True):
            got.append(d)
            f.write(d.line() + "\n")
            f.flush()
    print(f"{len(got)} digests ({args.sim} simulated per title), {cpu_seconds() - t0:.0f} CPU s",
          file=sys.stderr)
    if args.out and partial:
        write(got, args.out)
        partial.unlink()
        print(f"wrote {args.out}", file=sys.stderr)
    if args.check:
        problems = compare([d for d in read(args.check) if d.key in {g.key for g in got}], got)
        for p in problems[:50]:
            print(p)
        if problems:
            print(f"{len(problems)} records differ", file=sys.stderr)
            return 1
        print(f"all {len(got)} digests agree", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
