"""Reading a Board Game Arena log, whatever envelope it was saved in.

BGA sends a table's history to the browser as *packets*; each packet holds
one or more *notifications* (``{"uid", "type", "log", "args"}``).  A user
saves that history in one of several envelopes, all read here into one
:class:`BgaLog`:

* the archive log (``logs.html``), 2026 form:
  ``{"status": 1, "data": {"players": [...], "logs": [packet, ...]}}``;
* the archive log, 2020–21 form: ``{"status": 1, "data": {"data": {"data": [packet, ...]}}}``;
* a bare JSON list of packets;
* the replay page's ``g_gamelogs`` — the saved HTML page (the assignment
  ``g_gamelogs = ...;`` is found in it) or the object itself
  (``{"status": 1, "data": {"valid": 1, "data": [packet, ...]}}``, a packet list,
  or ``{"data": [...]}`` / ``{"logs": [...]}``);
* the in-game notification history as browser extensions save it:
  ``{"currentPlayerId", "players": {id: {...}}, "packets": [...], ...}``.

Files may be ``.json`` or ``.json.gz`` (or ``.html``).  Real logs have
quirks, all absorbed here so that game importers never see them: ids are
sometimes strings and sometimes ints (player ids are always ``str`` here,
packet/move ids ``int``), the viewer's private channel (``/player/p<id>``)
is mixed with the public one, private notifications have public
``<type>_spectator`` mirrors, and a packet saved twice appears twice.

A *table file* (what BGA's table page shows: players with their order and
final score, the implementation's version, the viewer) is optional; it is
read by :func:`read_table_file`.
"""

from __future__ import annotations

import builtins
import functools
import gc
import gzip
import html
import json
import operator
import re
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import orjson

from ingest.bga.errors import BgaImportError

S = TypeVar("S", bound=msgspec.Struct)


_seq = operator.attrgetter("seq")
"""A notification's place in the log (a sort key)."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused inside (as it was, afterwards).

    Reading and importing a log allocates tens of thousands of objects that
    all live until the import ends; the collector would walk them again and
    again (7-14% of an import, measured).  Whatever the import leaves as
    garbage is collected after it: nothing, when the caller releases the log
    (:meth:`BgaLog.release`); a log left linked costs a collection of all its
    notifications when the collector next runs (~1 ms for a Pax Pamir log).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


LOG_SUFFIXES = (".json", ".json.gz", ".html", ".htm", ".html.gz")
SPECTATOR_SUFFIX = "_spectator"


class Packet(msgspec.Struct):
    """One packet: the notifications BGA sent together on one channel.

    The common envelopes are decoded straight into these (ids given as digits become ints);
    :func:`_packets` normalises the rest."""

    channel: Any = ""
    packet_id: int | None = None  # BGA writes them as text or as numbers (decoded with strict=False)
    move_id: int | None = None
    time: int | None = None
    notifs: list[Notif] = msgspec.field(default_factory=list, name="data")

    @property
    def private(self) -> bool:
        """Sent on a player's private channel (the viewer's; an archive log of a finished game may
        hold every player's, until :meth:`BgaLog.take_view` keeps one)."""
        return self.channel.startswith("/player/")  # type: ignore[no-any-return]


class Notif(msgspec.Struct, repr_omit_defaults=True, eq=False):
    """One notification: ``type``, ``args`` (as BGA sent them), where it came from.

    ``args`` is decoded from the file's JSON the first time it is read: most
    notifications of a log (clocks, state changes) are never looked into.
    The common envelopes are decoded straight into these; the fields after
    ``uid`` are filled in afterwards (their JSON names are not BGA's, and
    whatever a file might hold under them is overwritten).
    """

    type: str
    raw_args: msgspec.Raw = msgspec.field(default=msgspec.Raw(b"null"), name="args")
    """The args as read: raw JSON until :attr:`args` decodes them (then the decoded value)."""
    raw_log: Any = msgspec.field(default="", name="log")
    uid: Any = None
    """The notification's uid (``str``, or ``None`` when it has none)."""
    packet: Any = msgspec.field(default=None, name="gamerec:packet")
    """The :class:`Packet` it came in."""
    seq: Any = msgspec.field(default=-1, name="gamerec:seq")
    """Position in the whole log (0-based; set by :attr:`BgaLog.notifs`)."""

    @property
    def index(self) -> int:
        """Position in its packet (0-based; asked for rarely, so found when asked)."""
        return next(i for i, n in enumerate(self.packet.notifs) if n is self)

    @property
    def args(self) -> Any:
        a = self.raw_args
        if type(a) is msgspec.Raw:
            a = self.raw_args = msgspec.json.decode(a) if a else None  # type: ignore[assignment]
        return a

    def args_as(self, typ: builtins.type[S]) -> S:
        """The args read into ``typ``, a :class:`msgspec.Struct` that names only the fields a
        handler reads (typed ``Any``: values come as BGA wrote them): the rest is skipped, not
        built.  For a notification that restates something big the import never reads
        (Perikles' ``sendBattle`` carries the whole table of wars: 1 KB each, 7 ms of a 270 ms
        import to decode).  Not cached; args already decoded (or built by hand) are converted.
        A missing field raises ``msgspec.ValidationError`` (a ``ValueError``)."""
        a = self.raw_args
        if type(a) is msgspec.Raw:
            dec = _STRUCT_DECODERS.get(typ)
            if dec is None:
                dec = _STRUCT_DECODERS[typ] = msgspec.json.Decoder(typ)
            return dec.decode(a)  # type: ignore[no-any-return]
        return msgspec.convert(a, typ)

    def args_keeping(self, *keys: str) -> Any:
        """The args with the values of ``keys`` left as raw JSON (``msgspec.Raw``): for a big value
        that is only counted or rarely read (Copenhagen's whole board in every placement).  Not
        cached; args already decoded (or built by hand) come back as they are."""
        a = self.raw_args
        if type(a) is not msgspec.Raw:
            return a
        try:
            parts = _RAW_VALUES.decode(a)
        except (msgspec.ValidationError, msgspec.DecodeError):  # not an object
            return self.args
        return {k: v if k in keys else msgspec.json.decode(v) for k, v in parts.items()}

    @property
    def log(self) -> str:
        """The log line's template (``""`` when BGA sent none, or something else than text)."""
        text = self.raw_log
        return text if type(text) is str else ""

    @property
    def state_id(self) -> int | None:
        """A ``gameStateChange``'s state id (``args.id``), its other args left undecoded."""
        a = self.raw_args
        if type(a) is msgspec.Raw:
            m = _ID_FIRST.match(a)  # BGA writes the id first: read it without scanning the rest
            if m is not None:
                return int(m.group(1))
            try:
                sid = _STATE_ID.decode(a).id
            except (msgspec.ValidationError, msgspec.DecodeError):
                return None
        else:
            sid = a.get("id") if isinstance(a, dict) else None
        return _int(sid)

    @property
    def packet_id(self) -> int | None:
        return self.packet.packet_id  # type: ignore[no-any-return]

    def src(self) -> dict[str, Any]:
        """The event's ``src``: the packet id, and the uid when the packet holds several notifications."""
        out: dict[str, Any] = {"packet": self.packet.packet_id}
        if self.uid is not None and len(self.packet.notifs) > 1:
            out["uid"] = self.uid
        return out

    def where(self) -> str:
        pid = self.packet.packet_id
        return f"packet {pid if pid is not None else '?'} ({self.type})"


class _StateId(msgspec.Struct):
    id: Any = None


_STATE_ID = msgspec.json.Decoder(_StateId)
_STRUCT_DECODERS: dict[type, msgspec.json.Decoder[Any]] = {}


@functools.cache
def _state_pattern(ids: frozenset[int]) -> re.Pattern[bytes]:
    """Raw ``gameStateChange`` args that start with their id: group 1 is set when it is one of
    ``ids`` (no match: the id is not written first, read it otherwise)."""
    alternatives = b"|".join(str(i).encode() for i in sorted(ids))
    return re.compile(rb'\{"id":(?:(' + alternatives + rb')|-?\d+)[,}]')
_RAW_VALUES = msgspec.json.Decoder(dict[str, msgspec.Raw])
_ID_FIRST = re.compile(rb'\{"id":(-?\d+)[,}]')


@dataclass(slots=True)
class TableInfo:
    """What BGA's table page tells about a table (the optional table file)."""

    table_id: int | None = None
    game: str | None = None
    """BGA's name of the game (``paxpamir``, ``coalbaron`` ...)."""
    version: str | None = None
    viewer: str | None = None
    players: list[dict[str, Any]] = field(default_factory=list)
    """``id`` (str), ``name``, ``color``, ``player_no``, ``table_order``, ``score``, ``score_aux``."""
    finished: bool | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class BgaLog:
    """A BGA log, envelope removed, ids normalised, duplicates dropped."""

    source: str
    envelope: str
    """Which envelope it came in (``archive-2026``, ``archive-2020``, ``replay-page``, ``packets``,
    ``g_gamelogs``, ``notification-history``)."""
    packets: list[Packet]
    players: list[dict[str, Any]] = field(default_factory=list)
    """``{"id": str, "name": str | None}`` as the envelope lists them (may be empty)."""
    viewer: str | None = None
    views: tuple[str, ...] = ()
    """The players whose private channels the log holds when it holds more than one (a finished
    game's archive, which lets a replay be watched as any player saw it); ``()`` once
    :meth:`take_view` has kept one, or when the log is one player's view."""
    table_id: int | None = None
    table: TableInfo | None = None
    own_ids: tuple[int | None, str | None] | None = None
    """The table id and viewer the log itself gives, before a table file adds its own
    (``None``: no table file was attached, :attr:`table_id` and :attr:`viewer` are the log's)."""
    _notifs: list[Notif] | None = None
    _by_type: dict[str, list[Notif]] | None = None
    _linked: list[Packet] = field(default_factory=list)
    """The packets the notifications were linked to (:meth:`_index`), kept through :meth:`reorder`."""

    @property
    def notifs(self) -> list[Notif]:
        """Every notification in log order (computed once: the packets are not changed after reading)."""
        if self._notifs is None:
            self._index()
        return self._notifs  # type: ignore[return-value]

    def names_given(self) -> Iterator[tuple[str, str]]:
        """``(player id, name)`` wherever a notification names a player beside their id
        (``player_name``, or Pax Pamir's ``tkn_playerName``, beside ``player_id`` or ``playerId``),
        in log order: the names of the day the game was played."""
        for n in self.notifs:
            a = n.args
            if isinstance(a, dict):
                pid = a.get("player_id", a.get("playerId"))
                name = a.get("player_name", a.get("tkn_playerName"))
                if pid is not None and name is not None:
                    yield str(pid), str(name)

    def by_type(self) -> dict[str, list[Notif]]:
        """Notification type -> its notifications in log order (computed once)."""
        if self._by_type is None:
            self._index()
        return self._by_type  # type: ignore[return-value]

    def _index(self, link: bool = False) -> None:
        """:attr:`notifs` and :meth:`by_type`, and each notification's place (:attr:`Notif.seq`) and,
        with ``link``, its packet (:attr:`Notif.packet`: the packet it was read in, kept when an
        importer reorders or splits packets), in one pass over the log: most of a log is state
        changes and clocks nothing else visits, and a pass per question was a tenth of a Pax
        Pamir import."""
        notifs: list[Notif] = []
        by_type: dict[str, list[Notif]] = {}
        add, of_type = notifs.append, by_type.get
        seq = 0
        if link:
            self._linked = self.packets
        for p in self.packets:
            for n in p.notifs:
                if link:
                    n.packet = p
                n.seq = seq
                seq += 1
                add(n)
                same = of_type(n.type)
                if same is None:
                    by_type[n.type] = [n]
                else:
                    same.append(n)
        self._notifs, self._by_type = notifs, by_type

    def of_types(self, types: Iterable[str]) -> list[Notif]:
        """The notifications of these types, in log order."""
        by = self.by_type()
        picked = [n for t in set(types) if t in by for n in by[t]]
        picked.sort(key=_seq)
        return picked

    def state_changes(self, ids: frozenset[int]) -> list[Notif]:
        """The ``gameStateChange`` notifications to the states ``ids``, in log order.

        Most of a log is state changes and an importer reads a few states: BGA writes the id
        first, so one look at each one's raw args tells (its id read otherwise when not)."""
        wanted = _state_pattern(ids).match
        out: list[Notif] = []
        for n in self.by_type().get("gameStateChange", ()):
            a = n.raw_args
            m = wanted(a) if type(a) is msgspec.Raw else None
            if m is not None:
                if m.group(1) is not None:
                    out.append(n)
            elif n.state_id in ids:  # the id elsewhere, as text, or args built by hand
                out.append(n)
        return out

    def types(self) -> set[str]:
        return set(self.by_type())

    def release(self) -> None:
        """Empty every packet as read, for a caller done with the log.

        A packet holds its notifications and each notification its packet:
        left linked, a dropped log is garbage only the cyclic collector can
        free, at the cost of a walk over every notification (a sixth of a
        Pax Pamir import).  With the packets emptied (a few thousand, where
        the notifications are tens of thousands), it is freed the moment it
        is dropped.  Afterwards the packets hold no notifications and
        :attr:`notifs` is gone; a notification still names its packet.
        """
        for p in self._linked:
            p.notifs = []
        self._notifs = self._by_type = None

    def take_view(self, viewer: str) -> None:
        """Keep the table channel and ``viewer``'s private channel, as ``viewer`` saw the game: a
        record is one seat's view (other players' private packets dropped)."""
        own = f"/player/p{viewer}"
        self.reorder([p for p in self.packets if not p.private or p.channel == own])
        self.viewer, self.views = viewer, ()
        if self.own_ids is not None:
            self.own_ids = (self.own_ids[0], viewer)

    def reorder(self, packets: list[Packet]) -> None:
        """Put the packets in another order (an importer's ``prepare`` that knows where a private packet
        belongs); :attr:`notifs` follows."""
        self.packets = packets
        self._notifs = None
        self._by_type = None


# --------------------------------------------------------------------------
# Reading files
# --------------------------------------------------------------------------


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes, gunzipped when it is gzip data (whatever its name)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise BgaImportError(f"cannot read: {exc.strerror}", file=name) from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise BgaImportError(f"corrupt or truncated gzip data ({exc})", file=name) from None
    return data


_GAMELOGS = re.compile(rb"g_gamelogs\s*=\s*")


def _head(data: bytes) -> bytes:
    """The first byte that is not white space (``b""`` for none), without copying the whole file."""
    return data[:64].lstrip()[:1] or data.lstrip()[:1]


_PRE = re.compile(rb"<pre\b[^>]*>(.*?)</pre>", re.S | re.I)


def _shown_json(data: bytes, source: str) -> Any:
    """The JSON a browser showed as text and saved as a web page (the archive log opened in a
    browser, then *Save as... Web page*: the JSON in a ``<pre>``, ``<``, ``>`` and ``&`` escaped);
    ``None`` when the page shows no JSON."""
    for block in _PRE.findall(data):
        text = html.unescape(block.decode("utf-8", errors="replace")).strip()
        if text[:1] in ("{", "["):
            try:
                return orjson.loads(text)
            except orjson.JSONDecodeError as exc:
                raise BgaImportError(f"the JSON this page shows is not valid JSON ({str(exc).split(':', 1)[0]})",
                                     file=source) from None
    return None


def decode(data: bytes, source: str) -> Any:
    """The JSON value of a saved log: plain JSON, or ``g_gamelogs`` found in a saved HTML page."""
    head = _head(data)
    if head in (b"{", b"["):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise BgaImportError(f"not valid JSON ({str(exc).split(':', 1)[0]})", file=source) from None
    m = _GAMELOGS.search(data)
    if m is None:
        if head == b"<":
            shown = _shown_json(data, source)
            if shown is not None:
                return shown
            raise BgaImportError("an HTML page without g_gamelogs: save the replay page of the table "
                                 "(or its archive log), see docs/bga-import.md", file=source)
        raise BgaImportError("neither JSON nor a saved BGA replay page", file=source)
    text = data[m.end():].decode("utf-8", errors="replace")
    try:
        value, _ = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as exc:
        raise BgaImportError(f"g_gamelogs in this page is not valid JSON ({exc.msg})", file=source) from None
    return value


def read_log(path: str | Path, table: str | Path | None = None) -> BgaLog:
    """Read a saved log file; ``table`` is its table file (default: the ``<name>.table.json`` beside it)."""
    name = str(path)
    log = parse_bytes(read_bytes(path), name)
    tpath = Path(table) if table is not None else companion_table(Path(path))
    if tpath is not None:
        attach_table(log, read_table_file(tpath))
    return log


def companion_table(path: Path) -> Path | None:
    """``X.table.json`` for a log saved as ``X.log.json(.gz)``, ``X.json(.gz)`` or ``X.html``, if it exists."""
    name = path.name
    for suffix in (".log.json.gz", ".log.json", ".json.gz", ".json", ".html.gz", ".html", ".htm"):
        if name.endswith(suffix):
            cand = path.with_name(name[: -len(suffix)] + ".table.json")
            return cand if cand.is_file() and cand != path else None
    return None


def is_table_file(obj: Any) -> bool:
    """A table file (not a log): an object with ``players`` carrying ``player_no``/``table_order``.

    A log keeps its packets in a list (``data``, ``packets`` or ``logs``); a table
    file may still say how many packets the table had (``"packets": 74``).
    """
    if not isinstance(obj, dict) or "format" in obj or "data" in obj or isinstance(obj.get("packets"), list):
        return False
    players = obj.get("players")
    return (isinstance(players, list) and bool(players) and isinstance(players[0], dict)
            and ("player_no" in players[0] or "table_order" in players[0]) and "table_id" in obj)


class _TableFile(msgspec.Struct):
    """The fields of a table file :func:`parse_table` reads (the moves it lists are skipped, not decoded)."""

    players: Any = msgspec.UNSET
    table_id: Any = msgspec.UNSET
    game: Any = msgspec.UNSET
    version: Any = msgspec.UNSET
    viewer: Any = msgspec.UNSET
    finished: Any = msgspec.UNSET
    options: Any = msgspec.UNSET


_TABLE_FILE = msgspec.json.Decoder(_TableFile)


def read_table_file(path: str | Path) -> TableInfo:
    name = str(path)
    data = read_bytes(path)
    try:
        fields = _TABLE_FILE.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError):  # not an object, or not JSON: said below
        pass
    else:
        return parse_table({k: v for k in _TableFile.__struct_fields__
                            if (v := getattr(fields, k)) is not msgspec.UNSET}, name)
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise BgaImportError(f"table file is not valid JSON ({str(exc).split(':', 1)[0]})", file=name) from None
    return parse_table(obj, name)


def parse_table(obj: Any, source: str) -> TableInfo:
    if not isinstance(obj, dict) or not isinstance(obj.get("players"), list):
        raise BgaImportError("not a BGA table file (expected an object with a players list)", file=source)
    players = []
    for p in obj["players"]:
        if not isinstance(p, dict) or "id" not in p:
            raise BgaImportError("a table file player needs an id", file=source)
        q = dict(p)
        q["id"] = str(p["id"])
        players.append(q)
    viewer = obj.get("viewer")
    options = obj.get("options")
    return TableInfo(
        table_id=_int(obj.get("table_id")), game=_str(obj.get("game")), version=_str(obj.get("version")),
        viewer=None if viewer is None else str(viewer), players=players,
        finished=obj.get("finished") if isinstance(obj.get("finished"), bool) else None,
        options=options if isinstance(options, dict) else {},
    )


def attach_table(log: BgaLog, table: TableInfo) -> None:
    """Join a table file to its log; refuses a table file of another table."""
    if table.table_id is not None and log.table_id is not None and table.table_id != log.table_id:
        raise BgaImportError(f"the table file is for table {table.table_id}, the log for table {log.table_id}",
                             file=log.source)
    log.table = table
    if log.own_ids is None:
        log.own_ids = (log.table_id, log.viewer)
    if log.table_id is None:
        log.table_id = table.table_id
    if table.viewer is not None:
        if log.viewer is not None and log.viewer != table.viewer:
            raise BgaImportError(f"the table file names viewer {table.viewer}, the log's private channel "
                                 f"is player {log.viewer}'s", file=log.source)
        log.viewer = table.viewer


# --------------------------------------------------------------------------
# The fast path: the common envelopes decoded with the notifications' args kept raw
# --------------------------------------------------------------------------


class _Logs(msgspec.Struct):
    logs: list[Packet]
    players: Any = None


class _Archive(msgspec.Struct):
    status: Any
    data: _Logs


class _History(msgspec.Struct):
    packets: list[Packet]
    players: Any = None
    currentPlayerId: Any = None  # noqa: N815 - BGA's name


_FAST: tuple[tuple[str, msgspec.json.Decoder[Any]], ...] = tuple(
    (envelope, msgspec.json.Decoder(typ, strict=False))
    for envelope, typ in (("archive-2026", _Archive), ("notification-history", _History),
                          ("packets", list[Packet]))
)
"""The common envelopes, decoded straight into packets (ids given as digits become ints; any other
id makes the file take the general path, where :func:`_int` reads it the same way)."""


def parse_bytes(data: bytes, source: str) -> BgaLog:
    """A saved log's bytes -> :class:`BgaLog`.

    The common envelopes are decoded straight into packets whose arguments
    stay raw JSON until read; anything else (and any error, for its precise
    message) goes through :func:`decode` and :func:`parse_log`.
    """
    with collector_paused():
        return _parse_bytes(data, source)


def _parse_bytes(data: bytes, source: str) -> BgaLog:
    text = data if _head(data) in (b"{", b"[") else None
    if text is not None:
        for envelope, decoder in _FAST:
            try:
                obj = decoder.decode(text)
            except (msgspec.ValidationError, msgspec.DecodeError):
                continue
            if isinstance(obj, _Archive):
                if obj.status not in (1, "1", True):
                    break
                return _assemble(envelope, obj.data.logs, obj.data.players, None, source)
            if isinstance(obj, _History):
                return _assemble(envelope, obj.packets, obj.players, obj.currentPlayerId, source)
            return _assemble(envelope, obj, None, None, source)
    return parse_log(decode(data, source), source)


# --------------------------------------------------------------------------
# Envelopes
# --------------------------------------------------------------------------


def _kind(value: Any) -> str:
    """A JSON value's kind, in words."""
    kinds = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    return kinds.get(type(value), type(value).__name__)


def _looks_like_packets(value: Any) -> bool:
    return (isinstance(value, list) and (not value or (isinstance(value[0], dict) and "data" in value[0]
                                                        and isinstance(value[0]["data"], list))))


def parse_log(obj: Any, source: str) -> BgaLog:
    """A decoded log in any known envelope -> :class:`BgaLog` (raises :class:`BgaImportError`)."""
    players: Any = None
    viewer: Any = None
    if isinstance(obj, dict) and "status" in obj and ("data" in obj or "error" in obj):
        if obj.get("status") not in (1, "1", True):
            err = obj.get("error") or obj.get("message") or "no reason given"
            raise BgaImportError(f"BGA answered with an error, not a log: {err}", file=source)
        data = obj.get("data")
        if isinstance(data, dict) and isinstance(data.get("logs"), list):
            envelope, packets, players = "archive-2026", data["logs"], data.get("players")
        elif (isinstance(data, dict) and isinstance(data.get("data"), dict)
              and isinstance(data["data"].get("data"), list)):
            envelope, packets, players = "archive-2020", data["data"]["data"], data.get("players")
        elif isinstance(data, dict) and _looks_like_packets(data.get("data")):
            envelope, packets, players = "replay-page", data["data"], data.get("players")
        elif _looks_like_packets(data):
            envelope, packets = "archive", data
        elif isinstance(data, dict) and "logs" in data:
            raise BgaImportError(f"an archive log whose data.logs is {_kind(data['logs'])}, not a list of packets",
                                 file=source)
        else:
            raise BgaImportError("an archive envelope without packets (expected data.logs, data.data or "
                                 "data.data.data)",
                                 file=source)
    elif isinstance(obj, dict) and isinstance(obj.get("packets"), list):
        envelope, packets = "notification-history", obj["packets"]
        players, viewer = obj.get("players"), obj.get("currentPlayerId")
    elif isinstance(obj, dict) and "format" in obj:
        raise BgaImportError(f"this is a {obj.get('format')!r} record, not a BGA log", file=source)
    elif isinstance(obj, dict) and _looks_like_packets(obj.get("data")):
        envelope, packets, players = "g_gamelogs", obj["data"], obj.get("players")
    elif isinstance(obj, dict) and _looks_like_packets(obj.get("logs")):
        envelope, packets, players = "g_gamelogs", obj["logs"], obj.get("players")
    elif _looks_like_packets(obj):
        envelope, packets = "packets", obj
    elif is_table_file(obj):
        raise BgaImportError("this is a table file, not a log (pass it with --table, or keep it beside "
                             "its log as <name>.table.json)", file=source)
    else:
        raise BgaImportError("not a BGA log: no packets found (see docs/bga-import.md for the envelopes read)",
                             file=source)
    return _assemble(envelope, packets, players, viewer, source)


def _assemble(envelope: str, packets: list[Any], players: Any, viewer: Any, source: str) -> BgaLog:
    log = BgaLog(source=source, envelope=envelope, packets=_packets(packets, source),
                 players=_players(players, source))
    log.viewer = None if viewer in (None, "", 0, "0") else str(viewer)
    _channels(log)
    log._index(link=True)
    uids = list(map(_uid, log.notifs))
    if not _ascending_text(uids) and (len(set(uids)) != len(uids) or set(map(type, uids)) - {str}):
        _same_uids(log.packets)
        log.reorder(log.packets)
    mirrors = _spectator_mirrors(log)
    if _private_state_copies(log) or mirrors:
        log.reorder(log.packets)
    return log


_uid = operator.attrgetter("uid")


def _int(value: Any) -> int | None:
    """An id as BGA writes it (an int, or its digits as text) -> ``int``; anything else -> ``None``."""
    if type(value) is int:
        return value
    if type(value) is str:
        text = value.strip()
        digits = text[1:] if text[:1] == "-" else text
        return int(text) if digits.isascii() and digits.isdigit() else None
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return None


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _packets(raw: list[Any], source: str) -> list[Packet]:
    """Packets (dicts from :func:`decode`, or structs from the fast path) -> :class:`Packet`."""
    out: list[Packet] = []
    seen_packets: dict[tuple[str, int], list[Any]] = {}
    for i, p in enumerate(raw):
        if type(p) is Packet:  # decoded as one (the fast path)
            packet, channel, pid, notifs = p, p.channel, p.packet_id, p.notifs
            if type(channel) is not str:
                channel = p.channel = str(channel or "")
        elif isinstance(p, dict) and isinstance(p.get("data"), list):
            channel, pid_, move_id, time_ = p.get("channel"), p.get("packet_id"), p.get("move_id"), p.get("time")
            notifs = [_notif(n, _int(pid_), source) for n in p["data"]]
            if type(channel) is not str:
                channel = str(channel or "")
            pid = pid_ if type(pid_) is int else _int(pid_)
            packet = Packet(channel, pid, move_id if type(move_id) is int else _int(move_id),
                            time_ if type(time_) is int else _int(time_), notifs)
        else:
            raise BgaImportError(f"packet #{i + 1} in the file is not a packet (no notifications list)",
                                 file=source)
        if pid is not None:
            key = (channel, pid)
            seen = seen_packets.get(key)
            if seen is not None:
                if _contents(seen) == _contents(notifs):
                    continue  # the same packet saved twice
                raise BgaImportError(f"packet {pid} appears twice on {channel or 'its channel'} "
                                     "with different contents", file=source)
            seen_packets[key] = notifs
        out.append(packet)
    return out


def _ascending_text(uids: list[Any]) -> bool:
    """Whether the uids are text, each after the one before (then no two are the same): BGA's are
    hexadecimal stamps that grow through a log, told without hashing every one of them."""
    try:
        return not uids or type(uids[0]) is str and all(map(operator.lt, uids, islice(uids, 1, None)))
    except TypeError:  # a uid that is not text (or none at all)
        return False


def _same_uids(packets: list[Packet]) -> None:
    """Uids as text; a notification saved twice (same uid, type and args) is read once.

    A uid reused for a different notification (a private packet's uids may
    repeat the public packet's) is a notification of its own.
    """
    seen: dict[str, Notif] = {}
    for packet in packets:
        kept: list[Notif] = []
        for n in packet.notifs:
            uid = n.uid
            if uid is not None:
                if type(uid) is not str:
                    uid = n.uid = str(uid)
                prev = seen.get(uid)
                if prev is not None and prev.type == n.type and prev.raw_args == n.raw_args:
                    continue
                seen[uid] = n
            kept.append(n)
        packet.notifs = kept


def _notif(n: Any, packet_id: int | None, source: str) -> Notif:
    """A notification decoded as a plain dict -> :class:`Notif` (the fast path decodes them directly)."""
    if not isinstance(n, dict) or not isinstance(n.get("type"), str):
        raise BgaImportError(f"packet {packet_id}: a notification without a type", file=source)
    return Notif(n["type"], n.get("args"), n.get("log"), n.get("uid"))  # type: ignore[arg-type]


def _contents(notifs: list[Notif]) -> list[tuple[Any, ...]]:
    """What two copies of a packet must agree on (uids compared as text: they are normalised in place)."""
    return [(n.type, None if n.uid is None else str(n.uid), n.raw_log, n.raw_args) for n in notifs]


def _players(raw: Any, source: str) -> list[dict[str, Any]]:
    if raw is None:
        return []
    items = list(raw.values()) if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        raise BgaImportError("the envelope's players are neither a list nor an object", file=source)
    out = []
    for p in items:
        if isinstance(p, dict) and p.get("id") is not None:
            name = p.get("name")
            out.append({"id": str(p["id"]), "name": None if name is None else str(name)})
    return out


_TABLE = re.compile(r"^/table/t(\d+)$")
_PLAYER = re.compile(r"^/player/p(\d+)$")


def _channels(log: BgaLog) -> None:
    """The table id and the viewer, from the channels (a private channel is the viewer's)."""
    privates = set()
    for channel in dict.fromkeys(p.channel for p in log.packets):  # each channel once, in log order
        m = _TABLE.match(channel)
        if m and log.table_id is None:
            log.table_id = int(m.group(1))
        m = _PLAYER.match(channel)
        if m:
            privates.add(m.group(1))
    if len(privates) > 1:  # every player's view: the importer keeps one (BgaLog.take_view)
        log.views = tuple(sorted(privates, key=int))
    elif privates:
        (only,) = privates
        if log.viewer is not None and log.viewer != only:
            raise BgaImportError(f"the log names viewer {log.viewer}, but its private channel is player "
                                 f"{only}'s", file=log.source)
        log.viewer = only


def _private_state_copies(log: BgaLog) -> bool:
    """Drop the copies of a state change sent on a player's own channel (whether any were dropped).

    A state whose arguments hold something for one player's eyes only (``_private``: Coal Baron's
    five drawn tiles, the Perikles special tiles a player may play) reaches each player in a copy
    of its ``gameStateChange`` on their own channel, beside the table's, and may come before it
    in the log.  The table's is the state change; a private copy of a state the table's channel
    also enters in the same move is dropped (what it adds is not read: its exact form is not
    public).  One with no public twin is kept.
    """
    if log.viewer is None and not log.views:  # no private channel (_channels): nothing to look for
        return False
    states = log.by_type().get("gameStateChange", ())
    if not any(n.packet.private for n in states):
        return False
    public = {(n.packet.move_id, n.state_id) for n in states if not n.packet.private}
    dropped = False
    for p in log.packets:
        if p.private and any(n.type == "gameStateChange" for n in p.notifs):
            kept = [n for n in p.notifs if n.type != "gameStateChange" or (p.move_id, n.state_id) not in public]
            dropped = dropped or len(kept) < len(p.notifs)
            p.notifs = kept
    return dropped


def _spectator_mirrors(log: BgaLog) -> bool:
    """Drop ``<type>_spectator`` mirrors when the viewer's own private notifications are present
    (whether any were dropped).

    BGA sends a private notification to its player's channel and a public
    ``_spectator`` copy for spectators.  A player's log holds both: the
    mirror only repeats (less of) what the private one says.  A log without
    a private channel (a spectator's, or a game with no private
    notifications) keeps them under their own type, for an importer that
    wants them to handle.
    """
    if not any(p.private for p in log.packets):
        return False
    mirrors = {t for t in log.by_type() if t.endswith(SPECTATOR_SUFFIX)}
    if not mirrors:
        return False
    for p in log.packets:
        if not any(n.type in mirrors for n in p.notifs):
            continue
        p.notifs = [n for n in p.notifs if n.type not in mirrors]
    return True
