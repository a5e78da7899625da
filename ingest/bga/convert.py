"""A BGA log -> one ``gamerec/1`` record; and the file-level front ends.

:func:`import_log` is the whole import of one log: recognise the title,
settle who played (BGA's ids as strings, BGA's names, the log's turn order),
run the game's importer, and assemble the record.  :func:`import_file`
reads the file (and its table file) first.  :func:`bga_items` lets every
reader of records take BGA logs mixed with records: each raw item is
sniffed, logs are imported on the fly, table files are passed over.

A log that is replayed next (``ingest``, ``verify``, ``replay``) is imported
and replayed in **one engine run**: the import drives our engine through the
whole game anyway (it settles what the log leaves implicit by asking the
rules), feeding each event as it makes it to the replay loop
(:class:`~replay.loop.Loop`) of a :class:`~replay.replayer.Replaying`: the
record's replay comes out of the import itself (:func:`import_replayed`),
equal to replaying the written record.  ``ingest``
does this in its workers (:func:`replay_log`), its reader only telling logs
from records (:func:`ingest_items`).
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Iterable, Iterator, Sequence
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
from replay.loop import Observer
from replay.record import Item, RawItem, Record, RecordError, dumps, loads
from replay.replayer import INVALID, Replay, Replaying, replay, replay_item

TABLE_URL = "https://boardgamearena.com/table?table={}"


@dataclass(slots=True)
class Imported:
    """One imported log: the record, and what the import noticed on the way."""

    record: Record
    log: BgaLog
    mismatches: list[Mismatch] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    replayed: Replay | None = None
    """The record's replay, from the import's own engine run (see :func:`import_replayed`)."""

    @property
    def packets(self) -> int:
        return len(self.log.packets)


def import_file(path: str | Path, *, game: str | None = None, table: str | Path | None = None,
                viewer: str | None = None) -> Imported:
    """Read and import one saved log (``table``: its table file; default: the one beside it;
    ``viewer``: see :func:`import_log`)."""
    return import_log(read_log(path, table), game=game, viewer=viewer)


def import_log(log: BgaLog, *, game: str | None = None, compare: bool = True,
               viewer: str | None = None) -> Imported:
    """Import a read log; raises :class:`BgaImportError`.

    ``compare=False`` leaves BGA's observations unchecked (no ``mismatches``): for a record that
    is replayed next, whose replay compares each of them at its event.  ``viewer`` (a player's id
    or name) is whose view a log holding every player's private channels becomes (see
    :func:`_one_view`); a log of one player's view is that player's.
    """
    with collector_paused():
        return _import_log(log, game, compare, viewer=viewer)


def record_to_replay(log: BgaLog, *, game: str | None = None, viewer: str | None = None) -> Record:
    """The record of a read log, for a caller that replays it next (``ingest``, ``verify``,
    ``replay``, the bench): BGA's observations are left to that replay (``compare=False``) and the
    log is released (:meth:`BgaLog.release`) whether the import succeeds or not."""
    try:
        return import_log(log, game=game, compare=False, viewer=viewer).record
    finally:
        log.release()


def import_replayed(log: BgaLog, *, game: str | None = None, ruleset: str | None = None,
                    keep_frames: bool = True, observers: Sequence[Observer] = (),
                    viewer: str | None = None) -> tuple[bytes, Replay]:
    """The record of a read log, as JSON, and its replay, from one run of the engine.

    The replay is what :func:`replay.replayer.replay` gives for
    ``loads(json)`` (``ruleset``: under that ruleset, ``keep_frames``: with
    frames, ``observers``: watched by these too), without running the engine through the game a
    second time;
    only a ``ruleset`` other than the record's own (``bga``) needs a replay
    of its own after the import.  The log is released (:meth:`BgaLog.release`)
    either way; raises :class:`BgaImportError`.
    """
    try:
        with collector_paused():
            imported = _import_log(log, game, False, replaying=True, ruleset=ruleset, keep_frames=keep_frames,
                                   observers=observers, viewer=viewer)
            rec = imported.record
            blob = dumps(rec)
            rec.sha256 = hashlib.sha256(blob).hexdigest()  # as loads() gives it (no surrounding blanks here)
            rec.booleans = b"true" in blob or b"false" in blob
    finally:
        log.release()
    if imported.replayed is not None:
        return blob, imported.replayed
    return blob, replay(loads(blob, log.source), ruleset=ruleset, keep_frames=keep_frames, observers=observers)


def _import_log(log: BgaLog, game: str | None, compare: bool, *, replaying: bool = False,
                ruleset: str | None = None, keep_frames: bool = True,
                observers: Sequence[Observer] = (), viewer: str | None = None) -> Imported:
    cls = detect(log, game)
    ids, names = _who_played(log)
    if not cls.game_id:
        raise BgaImportError("importer without a game id", file=log.source)
    seats = cls.seat_order(log, ids)
    view = _one_view(log, viewer, seats, names) if log.views else None
    variants = cls.variants(log, seats)
    refused: BgaImportError | None = None
    for variant in variants:  # the table's options, or (when the log alone cannot say) each reading in turn
        try:
            imp = cls(log, seats, names, variant)
        except GamerecError as exc:  # e.g. a player count the game does not allow
            raise BgaImportError(f"cannot set up the game: {exc}", file=log.source) from None
        imp.compare = compare
        if replaying and ruleset in (None, imp.options().get("ruleset")):
            imp.replay_into(Replaying(imp.state, keep_frames=keep_frames, observers=observers))
        try:
            imp.run()
            break
        except BgaImportError as exc:
            refused = _further(refused, exc)
            if variant is variants[-1]:
                raise refused from None
    if view is not None:
        imp.notes.insert(0, view)
    rec = _record(imp, seats, names)
    done = imp.replaying.finish(rec) if imp.replaying is not None else None
    return Imported(rec, log, imp.mismatches, _warnings(imp), done)


def _one_view(log: BgaLog, wanted: str | None, seats: list[str], names: dict[str, str | None]) -> str:
    """Cut a log holding every player's private channels to one player's view, and say whose.

    The archive of a finished game lets its replay be watched as any player saw it, so a log saved
    from it may hold every player's private notifications.  A record is one seat's view (what
    that player and the public saw: the engines keep the rest hidden), so the log is read as the
    view of ``wanted`` (an id or a name; ``gamerec ... --viewer``), else of the viewer its table
    file names, else of the first player in turn order who has private notifications in it (not
    an automated opponent, who has none); every download of the game then gives the same record.
    """
    if wanted is not None:
        who = next((p for p in seats if p == wanted), None) or next(
            (p for p in seats if (names.get(p) or "").casefold() == wanted.casefold()), None)
        if who is None:
            raise BgaImportError(f"--viewer {wanted}: no such player at this table (players: "
                                 + ", ".join(f"{names.get(p) or '?'} ({p})" for p in seats) + ")",
                                 file=log.source)
        how = "as asked (--viewer)"
    elif log.viewer is not None:
        who, how = log.viewer, "the viewer its table file (or envelope) names"
    else:
        who = next((p for p in seats if p in log.views), seats[0])
        how = "the first player in turn order with private notifications; --viewer picks another"
    if who not in seats:
        raise BgaImportError(f"the viewer {who} did not play at this table", file=log.source)
    log.take_view(who)
    return (f"the log holds every player's private notifications; this record is the view of "
            f"{names.get(who) or who} ({who}), {how}")


def _further(kept: BgaImportError | None, new: BgaImportError) -> BgaImportError:
    """Of two readings' refusals, the one that came further into the log (the earlier reading's
    when they stop at the same packet): the reading that explains more of it says more of why not."""
    if kept is None or (new.packet or -1) > (kept.packet or -1):
        return new
    return kept


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
        for pid, name in log.names_given():
            if pid in missing:
                names[pid] = name
                missing.discard(pid)
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
    # the id comes from the log alone, so that the same download is the same game with or
    # without its table file (which only adds to ``source``)
    own_table, own_viewer = log.own_ids if log.own_ids is not None else (table_id, viewer)
    if own_table is not None:
        rid = f"bga-{own_table}" + (f"-{own_viewer}" if own_viewer else "")
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
    if imp.notes:  # what the log left open and the record settled (also said by ``gamerec import``)
        source["notes"] = list(imp.notes)
    first_time = next((p.time for p in log.packets if p.time is not None), None)
    played_at = (datetime.fromtimestamp(first_time, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                 if first_time is not None else None)
    players = [{"id": p, "name": names.get(p)} for p in seats]
    return Record(game=imp.game_id, id=rid, players=players, events=imp.events, options=imp.options(),
                  source=source, played_at=played_at, result=_result(imp))


def _result(imp: GameImporter) -> dict[str, Any] | None:
    """The end-of-game packet's result, where a table file claims another final score taking the
    table file's: the replay then checks that claim too, and a disagreement is a ``result_mismatch``
    (never a ``complete`` game whose two sources disagree)."""
    result = imp.result()
    table = imp.log.table
    if result is None or table is None or not isinstance(result.get("score"), dict):
        return result
    for p in table.players:
        claimed = _table_score(p.get("score"))
        pid = str(p.get("id"))
        if claimed is not None and pid in result["score"] and claimed != result["score"][pid]:
            result["score"][pid] = claimed
    return result


def _table_score(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _warnings(imp: GameImporter) -> list[str]:
    out = list(imp.notes)
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
            s = _table_score(p.get("score"))
            if s is not None and str(p["id"]) in res["score"] and s != res["score"][str(p["id"])]:
                out.append(f"the table file gives player {p['id']} a score of {s}, the end-of-game packet "
                           f"{res['score'][str(p['id'])]}: the record's result takes the table file's, "
                           "and its replay checks it (a result_mismatch where our rules disagree)")
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


def bga_items(items: Iterable[RawItem], *, game: str | None = None, viewer: str | None = None) -> Iterator[RawItem]:
    """Pass records through; import BGA logs into records; drop table files.

    A log that cannot be imported becomes an item carrying the one-line
    error (quarantined by ``ingest``, ``invalid`` for ``verify``).
    """
    for it in items:
        if not _maybe_log(it):
            yield it
            continue
        with collector_paused():  # one pause for reading, importing and writing the record
            out = _bga_item(it, game, viewer)
        if out is not None:
            yield out


def _maybe_log(it: RawItem) -> bool:
    """Whether a raw item may be a BGA log (or its table file): not an error, a JSON line or a record."""
    if it.error is not None or it.source.endswith((".jsonl", ".jsonl.gz")):
        return False
    head = it.raw[:200].lstrip()
    return not (head.startswith(b"{") and b'"format"' in head[:40])


def _read(raw: bytes, source: str) -> BgaLog | str:
    """The log in ``raw``, or what it is instead: ``"table"`` (a table file) or ``"other"`` (not a
    BGA log: left to the record reader, which says what is wrong with it).  Raises
    :class:`BgaImportError` for a log that cannot be read."""
    data = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    _not_a_list_of_records(data, source)
    try:
        return parse_bytes(data, source)
    except BgaImportError as exc:
        first = exc
    kind, obj = sniff(raw)
    if kind == "table":
        return "table"
    if kind == "bga":
        return parse_log(obj, source)
    if _bga_shaped(data):
        raise first  # a BGA log the reader refuses: its own reason, not the record reader's
    return "other"


_BGA_KEYS = frozenset({"status", "logs", "packets", "currentPlayerId", "g_gamelogs"})
_PACKET_KEYS = frozenset({"packet_id", "packet_type", "channel", "move_id"})


def _bga_shaped(data: bytes) -> bool:
    """Whether decoded ``data`` has the shape of a BGA log (an envelope's keys, or packets), whatever
    is wrong inside it."""
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        return False
    if isinstance(obj, dict):
        return "format" not in obj and bool(_BGA_KEYS & obj.keys())
    if isinstance(obj, list) and obj and isinstance(obj[0], dict):
        return bool(_PACKET_KEYS & obj[0].keys())
    return False


def _not_a_list_of_records(data: bytes, source: str) -> None:
    """Refuse a JSON list of gamerec records (which the packet reader would take for packets)."""
    head = data[:200].lstrip()
    if not (head.startswith(b"[") and b'"format"' in head):
        return
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        return
    if isinstance(obj, list) and obj and all(isinstance(o, dict) and "format" in o for o in obj):
        raise BgaImportError(f"a JSON list of {len(obj)} records, not a BGA log: a record file holds one record "
                             "(.json) or one record per line (.jsonl)", file=source)


def _table_of(source: str) -> str | None:
    """The path of the table file saved beside the log ``source``, if there is one."""
    tpath = companion_table(Path(source)) if source != "<stdin>" else None
    return str(tpath) if tpath is not None else None


def _bga_item(it: RawItem, game: str | None, viewer: str | None = None) -> RawItem | None:
    """One raw item that is not a record: as it is (not a log), ``None`` (a table file), or the
    record imported from it (or the one-line error)."""
    try:
        log = _read(it.raw, it.source)
        if isinstance(log, str):
            return None if log == "table" else it
        tpath = _table_of(it.source)
        if tpath is not None:
            attach_table(log, read_table_file(tpath))
        rec = record_to_replay(log, game=game, viewer=viewer)
    except BgaImportError as exc:
        return RawItem(it.source, it.line, it.raw, RecordError(exc.located_reason(), source=it.source), it.done_bytes)
    return RawItem(it.source, it.line, dumps(rec), None, it.done_bytes)


# --------------------------------------------------------------------------
# ingest: the reader tells logs apart, the workers import and replay them
# --------------------------------------------------------------------------


def ingest_items(items: Iterable[RawItem]) -> Iterator[tuple[RawItem, str | None]]:
    """``ingest``'s reader: every raw item with, for one that may be a BGA log, the path of its table
    file (``""`` without one), else ``None``; table files are dropped.

    Nothing is imported here: the workers import and replay each log (:func:`replay_log`), many at
    a time.  Only an item that may be a table file is decoded here, to drop it as :func:`bga_items`
    does.
    """
    for it in items:
        if not _maybe_log(it):
            yield it, None
        elif _table_file(it):
            continue
        else:
            yield it, _table_of(it.source) or ""


def _table_file(it: RawItem) -> bool:
    """Whether a raw item is a table file, decided as :func:`bga_items` decides it; only an item
    that names ``table_id`` and a player's ``player_no`` or ``table_order`` (which a table file
    must, and logs do not) is decoded to tell."""
    raw = it.raw
    if b'"table_id"' not in raw or (b'"player_no"' not in raw and b'"table_order"' not in raw):
        return False
    with collector_paused():
        try:
            return _read(raw, it.source) == "table"
        except BgaImportError:
            return False


def replay_log(source: str, line: int | None, raw: bytes, table: str | None, *, game: str | None = None,
               ruleset: str | None = None, keep_frames: bool = True,
               observers: Sequence[Observer] = (), viewer: str | None = None) -> tuple[bytes, Replay] | None:
    """An item :func:`ingest_items` took for a BGA log, imported and replayed in one engine run.

    Gives the record's JSON and its replay; for a log that cannot be imported, the log's own bytes
    and an ``invalid`` replay with the one-line reason; for an item that is no log after all, the
    item replayed as a record (which says what is wrong with it); ``None`` for a table file.
    ``table`` is the table file's path (``""`` or ``None``: none); ``observers`` watch the replay
    (:func:`replay.replayer.replay`).
    """
    with collector_paused():  # one pause for reading, importing and writing (see _replay_log)
        return _replay_log(source, line, raw, table, game, ruleset, keep_frames, observers, viewer)


def _replay_log(source: str, line: int | None, raw: bytes, table: str | None, game: str | None,
                ruleset: str | None, keep_frames: bool,
                observers: Sequence[Observer] = (), viewer: str | None = None) -> tuple[bytes, Replay] | None:
    """:func:`replay_log` with the collector paused.  A function of its own, so that the log is
    dropped (freed at once: it is released) before the collector runs again; left alive, it would
    be walked by the collector's first pass."""
    try:
        log = _read(raw, source)
        if isinstance(log, str):
            if log == "table":
                return None
            return raw, replay_item(_as_record(source, line, raw), ruleset=ruleset, keep_frames=keep_frames,
                                    observers=observers)
        if table:
            attach_table(log, read_table_file(table))
        blob, r = import_replayed(log, game=game, ruleset=ruleset, keep_frames=keep_frames, observers=observers,
                                  viewer=viewer)
    except BgaImportError as exc:
        err = RecordError(exc.located_reason(), source=source)
    except Exception as exc:  # an engine bug must not take a whole batch down (as replay_item)
        err = RecordError(f"engine error while importing: {type(exc).__name__}: {exc}", source=source, line=line)
    else:
        r.source, r.line = source, line
        return blob, r
    return raw, Replay(record=None, status=INVALID, error=err, source=source, line=line)


def replay_items(items: Iterable[RawItem], *, game: str | None = None, ruleset: str | None = None,
                 keep_frames: bool = True, viewer: str | None = None) -> Iterator[Replay]:
    """``verify`` and ``replay``: every record replayed, and every BGA log imported and replayed in one
    engine run (table files passed over), in input order."""
    for it in items:
        if _maybe_log(it):
            got = replay_log(it.source, it.line, it.raw, _table_of(it.source), game=game, ruleset=ruleset, viewer=viewer,
                             keep_frames=keep_frames)
            if got is not None:
                yield got[1]
        else:
            yield replay_item(_as_record(it.source, it.line, it.raw, it.error), ruleset=ruleset,
                              keep_frames=keep_frames)


def _as_record(source: str, line: int | None, raw: bytes, error: RecordError | None = None) -> Item:
    """A raw item read as a record (or the error that kept it from being one)."""
    if error is not None:
        return Item(source, line, raw, error=error)
    try:
        return Item(source, line, raw, record=loads(raw, source, line))
    except RecordError as exc:
        return Item(source, line, raw, error=exc)
