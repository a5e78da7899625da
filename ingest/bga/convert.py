"""A BGA log -> one ``gamerec/1`` record; and the file-level front ends.

:func:`import_log` is the whole import of one log: recognise the title,
settle who played (BGA's ids as strings, BGA's names, the log's turn order),
run the game's importer, and assemble the record.  :func:`import_file`
reads the file (and its table file) first.  :func:`bga_items` lets every
reader of records (``ingest``, ``verify``, ``replay``) take BGA logs mixed
with records: each raw item is sniffed, logs are imported on the fly, table
files are passed over.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

from ingest.bga.base import GameImporter, Mismatch
from ingest.bga.errors import BgaImportError
from ingest.bga.log import (
    LOG_SUFFIXES,
    BgaLog,
    attach_table,
    collector_paused,
    companion_table,
    decode,
    is_table_file,
    parse_bytes,
    parse_log,
    read_log,
    read_table_file,
)
from ingest.bga.registry import detect
from replay.engine import GamerecError
from replay.record import RawItem, Record, RecordError, dumps

TABLE_URL = "https://boardgamearena.com/table?table={}"


@dataclass(slots=True)
class Imported:
    """One imported log: the record, and what the import noticed on the way."""

    record: Record
    log: BgaLog
    mismatches: list[Mismatch] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def packets(self) -> int:
        return len(self.log.packets)


def import_file(path: str | Path, *, game: str | None = None, table: str | Path | None = None) -> Imported:
    """Read and import one saved log (``table``: its table file; default: the one beside it)."""
    return import_log(read_log(path, table), game=game)


def import_log(log: BgaLog, *, game: str | None = None, compare: bool = True) -> Imported:
    """Import a read log; raises :class:`BgaImportError`.

    ``compare=False`` leaves BGA's observations unchecked (no ``mismatches``): for a record that
    is replayed next, whose replay compares each of them at its event.
    """
    with collector_paused():
        return _import_log(log, game, compare)


def record_to_replay(log: BgaLog, *, game: str | None = None) -> Record:
    """The record of a read log, for a caller that replays it next (``ingest``, ``verify``,
    ``replay``, the bench): BGA's observations are left to that replay (``compare=False``) and the
    log is released (:meth:`BgaLog.release`) whether the import succeeds or not."""
    try:
        return import_log(log, game=game, compare=False).record
    finally:
        log.release()


def _import_log(log: BgaLog, game: str | None, compare: bool) -> Imported:
    cls = detect(log, game)
    ids, names = _who_played(log)
    if not cls.game_id:
        raise BgaImportError("importer without a game id", file=log.source)
    seats = cls.seat_order(log, ids)
    try:
        imp = cls(log, seats, names)
    except GamerecError as exc:  # e.g. a player count the game does not allow
        raise BgaImportError(f"cannot set up the game: {exc}", file=log.source) from None
    imp.compare = compare
    imp.run()
    return Imported(_record(imp, seats, names), log, imp.mismatches, _warnings(imp))


def _who_played(log: BgaLog) -> tuple[list[str], dict[str, str | None]]:
    """Player ids (table file, else envelope, else the clocks in the state changes) and their names."""
    names: dict[str, str | None] = {}
    ids: list[str] = []
    if log.table is not None and log.table.players:
        ordered = sorted(log.table.players, key=lambda p: (_num(p.get("table_order")), _num(p.get("player_no"))))
        ids = [str(p["id"]) for p in ordered]
        names.update({str(p["id"]): p.get("name") for p in ordered})
    if not ids and log.players:
        ids = [p["id"] for p in log.players]
    for p in log.players:
        if names.get(p["id"]) is None and p.get("name") is not None:
            names[p["id"]] = p["name"]
    if not ids:
        for n in log.notifs:
            if n.type == "gameStateChange" and isinstance(n.args, dict):
                total = (n.args.get("reflexion") or {}).get("total")
                if isinstance(total, dict) and total:
                    ids = [str(k) for k in total]
                    break
    if not ids:
        raise BgaImportError("cannot tell who played: no players in the envelope, no table file, and no "
                             "clocks in the state changes", file=log.source)
    # names the notifications give (``player_name`` beside ``player_id`` / ``playerId``)
    missing = {p for p in ids if names.get(p) is None}
    if missing:
        for n in log.notifs:
            a = n.args
            if isinstance(a, dict) and "player_name" in a:
                pid = a.get("player_id", a.get("playerId"))
                if pid is not None and str(pid) in missing:
                    names[str(pid)] = str(a["player_name"])
                    missing.discard(str(pid))
                    if not missing:
                        break
    return ids, names


def _num(v: Any) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return 1 << 30


def _record(imp: GameImporter, seats: list[str], names: dict[str, str | None]) -> Record:
    log = imp.log
    table_id = log.table_id
    viewer = log.viewer
    if table_id is not None:
        rid = f"bga-{table_id}" + (f"-{viewer}" if viewer else "")
    else:
        blob = orjson.dumps([[n.uid, n.type] for n in log.notifs])
        rid = "bga-" + hashlib.sha256(blob).hexdigest()[:16]
    source: dict[str, Any] = {"kind": "bga", "table_id": table_id, "viewer": viewer}
    if viewer is not None and names.get(viewer):
        source["viewer_name"] = names[viewer]
    source["version"] = log.table.version if log.table is not None else None
    source["game"] = imp.bga_name
    if table_id is not None:
        source["url"] = TABLE_URL.format(table_id)
    first_time = next((p.time for p in log.packets if p.time is not None), None)
    played_at = (datetime.fromtimestamp(first_time, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                 if first_time is not None else None)
    players = [{"id": p, "name": names.get(p)} for p in seats]
    return Record(game=imp.game_id, id=rid, players=players, events=imp.events, options=imp.options(),
                  source=source, played_at=played_at, result=imp.result())


def _warnings(imp: GameImporter) -> list[str]:
    out = []
    table = imp.log.table
    if imp.ended is None:
        if table is not None and table.finished:
            out.append("the table file says the game finished, but the log has no end-of-game packet: "
                       "the log looks cut short; imported as far as it goes")
        else:
            out.append("no end-of-game packet (an abandoned or unfinished table): imported as far as it goes")
    res = imp.result() or {}
    if table is not None and table.players and "score" in res:
        for p in table.players:
            s = p.get("score")
            if s is not None and str(p["id"]) in res["score"] and int(s) != res["score"][str(p["id"])]:
                out.append(f"the table file gives player {p['id']} a score of {s}, the end-of-game packet "
                           f"{res['score'][str(p['id'])]}")
    return out


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------


def log_files(paths: Iterable[str]) -> Iterator[Path]:
    """The saved logs under ``paths`` (files as given; folders recursively, sorted; table files skipped)."""
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise BgaImportError("no such file or directory", file=str(p))
        if not path.is_dir():
            yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(LOG_SUFFIXES) and not name.endswith(".table.json"):
                    yield Path(root) / name


def out_name(record: Record) -> str:
    return record.id + ".json"


# --------------------------------------------------------------------------
# BGA logs among records (ingest, verify, replay)
# --------------------------------------------------------------------------


def sniff(raw: bytes) -> tuple[str, Any]:
    """``("record", None)``, ``("table", obj)``, ``("bga", decoded)`` or ``("other", None)``.

    Records (``{"format": ...}``) are told apart cheaply; anything else is
    decoded once and classified.
    """
    head = raw[:200].lstrip()
    if head.startswith(b"{") and b'"format"' in head[:40]:
        return "record", None
    if not head.startswith((b"{", b"[", b"<")) and b"g_gamelogs" not in raw:
        return "other", None
    try:
        obj = decode(raw, "")
    except BgaImportError:
        return "other", None
    if isinstance(obj, dict) and "format" in obj:
        return "record", None
    if is_table_file(obj):
        return "table", obj
    try:
        parse_log(obj, "")
    except BgaImportError:
        return "other", None
    return "bga", obj


def bga_items(items: Iterable[RawItem], *, game: str | None = None) -> Iterator[RawItem]:
    """Pass records through; import BGA logs into records; drop table files.

    A log that cannot be imported becomes an item carrying the one-line
    error (quarantined by ``ingest``, ``invalid`` for ``verify``).
    """
    for it in items:
        if it.error is not None or it.source.endswith((".jsonl", ".jsonl.gz")):
            yield it
            continue
        head = it.raw[:200].lstrip()
        if head.startswith(b"{") and b'"format"' in head[:40]:
            yield it  # a record
            continue
        with collector_paused():  # one pause for reading, importing and writing the record
            out = _bga_item(it, game)
        if out is not None:
            yield out


def _bga_item(it: RawItem, game: str | None) -> RawItem | None:
    """One raw item that is not a record: as it is (not a log), ``None`` (a table file), or the
    record imported from it (or the one-line error)."""
    try:
        log = parse_bytes(gzip.decompress(it.raw) if it.raw[:2] == b"\x1f\x8b" else it.raw, it.source)
    except BgaImportError:
        kind, obj = sniff(it.raw)
        if kind == "table":
            return None
        if kind != "bga":
            return it
        log = None
    try:
        if log is None:
            log = parse_log(obj, it.source)
        tpath = companion_table(Path(it.source)) if it.source != "<stdin>" else None
        if tpath is not None:
            attach_table(log, read_table_file(tpath))
        rec = record_to_replay(log, game=game)
    except BgaImportError as exc:
        return RawItem(it.source, it.line, it.raw, RecordError(exc.located_reason(), source=it.source), it.done_bytes)
    return RawItem(it.source, it.line, dumps(rec), None, it.done_bytes)
