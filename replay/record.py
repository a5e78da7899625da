"""The ``gamerec/1`` record: read, validate, write.

A record is one JSON object (see ``docs/record-format.md``).  Files hold one
record (``.json``) or one per line (``.jsonl``), optionally gzip-compressed
(``.gz``).  :func:`iter_records` streams records from files, directories
(recursively, in sorted order) and standard input (``-``) without loading a
whole file: a 1 GB JSONL file is read line by line.

Validation is strict.  Every problem is a :class:`RecordError` that names the
file, the line, the event index and the JSON path::

    games.jsonl:12: event 7 at $.events[7].move.slot: Expected `int`, got `str`

Reading never stops at the first bad record: each item that
:func:`iter_records` yields carries either a :class:`Record` or the error,
with the raw text, so a caller can quarantine it and go on.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any, ClassVar, Union

import msgspec
import orjson

from replay.engine import Game, GamerecError, Move
from replay.games import UnknownGame, get_game

FORMAT = "gamerec/1"
RECORD_SUFFIXES = (".json", ".jsonl", ".json.gz", ".jsonl.gz")
EVENT_EXTRA_ORDER = ("at", "note", "src")
"""The keys an event may carry besides its own, in the order a record read is given them (and
written): one order whatever the file's, so that the same events always write the same bytes."""
EVENT_EXTRAS = frozenset(EVENT_EXTRA_ORDER)
MAX_ID_LENGTH = 256
"""The longest record id accepted (ids name files and database keys)."""


def _iso_time(text: str) -> bool:
    """Whether ``text`` is an ISO 8601 date or date-time (``Z`` for UTC allowed)."""
    t = text.strip()
    if t.endswith(("Z", "z")):
        t = t[:-1] + "+00:00"
    try:
        datetime.fromisoformat(t)
    except ValueError:
        return False
    return True


TOP_LEVEL_KNOWN = ("format", "game", "id", "source", "played_at", "players", "options", "events", "result")


class RecordError(GamerecError):
    """A record that is not a valid ``gamerec/1`` record.

    ``source`` is the file (or ``<stdin>``), ``line`` the 1-based line in it
    (``None`` when unknown), ``event`` the event index, ``path`` the JSON path.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str = "",
        line: int | None = None,
        event: int | None = None,
        path: str = "$",
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.source = source
        self.line = line
        self.event = event
        self.path = path

    def located(self, source: str, line: int | None) -> RecordError:
        self.source = source
        self.line = line
        return self

    def __str__(self) -> str:
        where = self.source or "<record>"
        if self.line is not None:
            where += f":{self.line}"
        loc = []
        if self.event is not None:
            loc.append(f"event {self.event}")
        if self.path and self.path != "$":
            loc.append(f"at {self.path}")
        return f"{where}: " + (" ".join(loc) + ": " if loc else "") + self.reason


# --------------------------------------------------------------------------
# The record types
# --------------------------------------------------------------------------


class MoveEvent(msgspec.Struct, gc=False):
    """``{"player": ID, "move": {...}}`` — a player's decision.

    Events are msgspec structs, made in C (a record holds hundreds) and left out of the
    garbage collector's sight (they hold plain data, never a cycle)."""

    player: str
    move: Move
    extra: dict[str, Any] | None = None

    kind: ClassVar[str] = "move"

    def written(self) -> Any:
        """What :func:`dumps` writes for it (a struct shaped like :meth:`to_dict`'s object)."""
        return _written(self, _MoveOut, self.player, self.move)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "move": self.move.to_dict()}
        if self.extra:
            out.update(self.extra)
        return out


class ChanceEvent(msgspec.Struct, gc=False):
    """``{"chance": {...}}`` — what randomness revealed."""

    outcome: dict[str, Any]
    extra: dict[str, Any] | None = None

    kind: ClassVar[str] = "chance"

    def written(self) -> Any:
        """What :func:`dumps` writes for it (see :meth:`MoveEvent.written`)."""
        return _written(self, _ChanceOut, self.outcome)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"chance": self.outcome}
        if self.extra:
            out.update(self.extra)
        return out


class ObserveEvent(msgspec.Struct, gc=False):
    """``{"observe": {...}}`` — facts the source claims about the state here."""

    facts: dict[str, Any]
    origin: str | None = None
    extra: dict[str, Any] | None = None

    kind: ClassVar[str] = "observe"

    def written(self) -> Any:
        """What :func:`dumps` writes for it (see :meth:`MoveEvent.written`)."""
        return _written(self, _ObserveOut, self.facts, self.origin)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"observe": self.facts}
        if self.origin is not None:
            out["origin"] = self.origin
        if self.extra:
            out.update(self.extra)
        return out


Event = MoveEvent | ChanceEvent | ObserveEvent


@dataclass(slots=True)
class Record:
    """One game record."""

    game: str
    id: str
    players: list[dict[str, Any]]
    events: list[Event]
    options: dict[str, Any] = field(default_factory=dict)
    source: dict[str, Any] | None = None
    played_at: str | None = None
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    sha256: str = ""
    booleans: bool = True
    """Whether the record's observations may hold a JSON ``true`` or ``false``: :func:`loads`
    looks in its text (not at all when it read the record at once and found no observation);
    a record made in memory may.  A record without one has no boolean observation, so the
    replayer compares its observations as plain values (``True == 1`` in Python, never in a
    record)."""
    observation_texts: dict[int, msgspec.Raw] = field(default_factory=dict, compare=False, repr=False)
    """The JSON text of each observation as the record gives it (event index -> text), when
    :func:`loads` read the record at once; empty otherwise.  The replayer settles an observation
    of facts that did not change since one that agreed with them when its text is that one's
    text: the same text is the same facts."""

    @property
    def player_ids(self) -> list[str]:
        return [str(p["id"]) for p in self.players]

    def to_dict(self) -> dict[str, Any]:
        return self._as_dict([e.to_dict() for e in self.events])

    def _as_dict(self, events: list[Any]) -> dict[str, Any]:
        """The record's JSON object, with ``events`` as its events."""
        out: dict[str, Any] = {"format": FORMAT, "game": self.game, "id": self.id}
        if self.source is not None:
            out["source"] = self.source
        if self.played_at is not None:
            out["played_at"] = self.played_at
        out["players"] = self.players
        out["options"] = self.options
        out["events"] = events
        if self.result is not None:
            out["result"] = self.result
        out.update(self.extra)
        return out


def dumps(record: Record) -> bytes:
    """The record as compact JSON (one line, no trailing newline), deterministic.

    The same bytes as ``orjson.dumps(record.to_dict())``, written by msgspec
    with each event handed over as a struct shaped like its JSON object
    (:meth:`MoveEvent.written`): no dict is built per event, and a record
    holds hundreds.  The two libraries write a record's plain values alike
    (tests hold them to it, over every bundled record).
    """
    return _ENCODE(record._as_dict([e.written() for e in record.events]))


_ENCODE = msgspec.json.Encoder().encode


class _MoveOut(msgspec.Struct, omit_defaults=True, gc=False):
    """A move event as a record writes it (``src``: when it is the event's only extra key)."""

    player: str
    move: Move
    src: Any = None


class _ChanceOut(msgspec.Struct, omit_defaults=True, gc=False):
    chance: Any
    src: Any = None


class _ObserveOut(msgspec.Struct, omit_defaults=True, gc=False):
    observe: Any
    origin: Any = None
    src: Any = None


def _written(event: Event, out: Callable[..., Any], *fields: Any) -> Any:
    """``event`` as ``out`` (one of the structs above) made of ``fields``, and of its ``src`` when
    that is its only extra key and not null; any other extra keys: its dict (:meth:`to_dict`)."""
    extra = event.extra
    if not extra:
        return out(*fields)
    src = extra.get("src") if len(extra) == 1 else None
    return event.to_dict() if src is None else out(*fields, src)


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def _err(reason: str, path: str = "$", event: int | None = None) -> RecordError:
    return RecordError(reason, path=path, event=event)


def _typename(v: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer",
            float: "number", type(None): "null"}.get(type(v), type(v).__name__)


def _expect(v: Any, typ: type | tuple[type, ...], path: str, what: str, event: int | None = None) -> None:
    if not isinstance(v, typ) or (isinstance(v, bool) and typ in (int, (int, float))):
        if typ is int and _huge_integer(v):
            raise _err(f"{what} must be an integer of at most 64 bits, got {_HUGE}", path, event)
        raise _err(f"{what} must be {_describe_type(typ)}, got {_typename(v)}", path, event)


_HUGE = "a number too large for one (beyond 64 bits)"


def _huge_integer(v: Any) -> bool:
    """Whether ``v`` is what the JSON reader makes of an integer literal beyond 64 bits: a whole float."""
    return type(v) is float and v.is_integer() and abs(v) >= 2**63


def _lookup_path(obj: Any, sub: str) -> Any:
    """The value at ``sub`` (``".slot"``, ``".cards[2]"``) inside ``obj``, or None."""
    for name, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", sub):
        try:
            obj = obj[name] if name else obj[int(index)]
        except (KeyError, IndexError, TypeError):
            return None
    return obj


def _describe_type(typ: type | tuple[type, ...]) -> str:
    names = {dict: "an object", list: "an array", str: "a string", int: "an integer", float: "a number"}
    if isinstance(typ, tuple):
        return " or ".join(names.get(t, t.__name__) for t in typ)
    return names.get(typ, typ.__name__)


def parse_record(obj: Any, read_events: Callable[[Any, Game, set[str]], list[Event]] | None = None) -> Record:
    """Validate a decoded JSON value as a ``gamerec/1`` record.

    Raises :class:`RecordError` (without file/line; callers add them).  ``read_events``: how
    ``obj["events"]`` is read, if not a decoded JSON list (see :func:`_read_events_at_once`).
    """
    _expect(obj, dict, "$", "a record")
    fmt = obj.get("format")
    if fmt != FORMAT:
        raise _err(f"unsupported format {fmt!r} (expected {FORMAT!r})", "$.format")
    game_id = obj.get("game")
    _expect(game_id, str, "$.game", "game")
    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        raise _err(str(exc), "$.game") from None
    rid = obj.get("id")
    _expect(rid, str, "$.id", "id")
    if not rid:
        raise _err("id must not be empty", "$.id")
    if len(rid) > MAX_ID_LENGTH:
        raise _err(f"id is {len(rid):,} characters long; at most {MAX_ID_LENGTH} are allowed", "$.id")
    if not rid.isprintable():
        raise _err("id holds a control character (a line break, a tab...)", "$.id")
    players = _parse_players(obj.get("players"), game)
    ids = {p["id"] for p in players}
    options = obj.get("options", {})
    _expect(options, dict, "$.options", "options")
    _check_options(options, game)
    source = obj.get("source")
    if source is not None:
        _expect(source, dict, "$.source", "source")
    played_at = obj.get("played_at")
    if played_at is not None:
        _expect(played_at, str, "$.played_at", "played_at")
        if not _iso_time(played_at):
            raise _err(f"played_at {played_at[:40]!r} is not an ISO 8601 date or time "
                       "(e.g. 2026-11-21T10:00:00Z)", "$.played_at")
    raw_events = obj.get("events")
    if read_events is None:
        if raw_events is None:
            raise _err("missing events", "$.events")
        _expect(raw_events, list, "$.events", "events")
        events = _parse_events(raw_events, game, ids)
    else:
        events = read_events(raw_events, game, ids)
    result = obj.get("result")
    if result is not None:
        _parse_result(result, ids)
    extra = {k: v for k, v in obj.items() if k not in TOP_LEVEL_KNOWN}
    return Record(
        game=game_id, id=rid, players=players, events=events, options=options, source=source,
        played_at=played_at, result=result, extra=extra,
    )


def _parse_players(players: Any, game: Game) -> list[dict[str, Any]]:
    if players is None:
        raise _err("missing players", "$.players")
    _expect(players, list, "$.players", "players")
    if not players:
        raise _err("a record needs at least one player", "$.players")
    seen: set[str] = set()
    for i, p in enumerate(players):
        path = f"$.players[{i}]"
        _expect(p, dict, path, "a player")
        _expect(p.get("id"), str, path + ".id", "a player id")
        if "name" in p and p["name"] is not None:
            _expect(p["name"], str, path + ".name", "a player name")
        if p["id"] in seen:
            raise _err(f"player id {p['id']!r} appears twice", path + ".id")
        seen.add(p["id"])
    if not game.min_players <= len(players) <= game.max_players:
        raise _err(
            f"{game.title} is played by {game.min_players} to {game.max_players} players, "
            f"this record has {len(players)}",
            "$.players",
        )
    return list(players)


def _check_options(options: Mapping[str, Any], game: Game) -> None:
    for k, v in options.items():
        if k not in game.option_keys:
            raise _err(f"unknown option {k!r} for {game.title} (known: {', '.join(game.option_keys)})",
                       f"$.options.{k}")
        if k == "ruleset" and v not in game.rulesets:
            raise _err(f"unknown ruleset {v!r} (known: {', '.join(game.rulesets)})", "$.options.ruleset")


_FORMS = ("move", "chance", "observe")
_ALLOWED = {
    "move": EVENT_EXTRAS | {"move", "player"},
    "chance": EVENT_EXTRAS | {"chance"},
    "observe": EVENT_EXTRAS | {"observe", "origin"},
}


def _parse_events(raw_events: list[Any], game: Game, players: set[str]) -> list[Event]:
    """Every event of a record.  The usual ones are read at once when all is well: a move
    event of a known player and move type, a chance event that draws, an observation of known
    keys; anything else (and anything wrong, which it words) goes through
    :func:`_parse_any_event`."""
    out: list[Event] = []
    add = out.append
    move_types, parse_move, observable = game.move_type_names, game.parse_move, game.observable_key_set
    bare = game.bare_moves
    for i, ev in enumerate(raw_events):
        if type(ev) is dict:
            n = len(ev)
            if n == 2:
                player, raw_move = ev.get("player"), ev.get("move")
                mtype = raw_move.get("type") if type(raw_move) is dict else None
                if type(player) is str and player in players and type(mtype) is str and mtype in move_types:
                    move = bare.get(mtype) if len(raw_move) == 1 else None  # type: ignore[arg-type]
                    if move is not None:
                        add(MoveEvent(player, move, None))
                        continue
                    try:
                        add(MoveEvent(player, parse_move(raw_move), None))
                        continue
                    except msgspec.ValidationError:
                        pass  # worded below
            elif n == 1:
                outcome = ev.get("chance")
                if (type(outcome) is dict and len(outcome) == 2 and type(outcome.get("draw")) is str
                        and type(outcome.get("items")) is list):
                    add(ChanceEvent(outcome, None))
                    continue
            facts = ev.get("observe")
            if type(facts) is dict and observable.issuperset(facts):
                origin = ev.get("origin")
                if n == (1 if origin is None else 2) and (origin is None or type(origin) is str):
                    add(ObserveEvent(facts, origin, None))
                    continue
        add(_parse_any_event(ev, i, game, players))
    return out


def _parse_any_event(ev: Any, i: int, game: Game, players: set[str]) -> Event:
    if type(ev) is not dict:
        raise _err(f"an event must be an object, got {_typename(ev)}", f"$.events[{i}]", i)
    has_move, has_chance, has_observe = "move" in ev, "chance" in ev, "observe" in ev
    if has_move + has_chance + has_observe != 1:
        keys = ", ".join(sorted(map(str, ev))) or "no keys"
        raise _err(
            "unknown event form: an event is exactly one of a move "
            f"({{\"player\", \"move\"}}), a chance or an observe object (got {keys})",
            f"$.events[{i}]", i,
        )
    extra = None
    if len(ev) > (2 if has_move else 1):
        form = "move" if has_move else "chance" if has_chance else "observe"
        allowed = _ALLOWED[form]
        unknown = [k for k in ev if k not in allowed]
        if unknown:
            raise _err(f"unknown field {unknown[0]!r} in a {form} event", f"$.events[{i}].{unknown[0]}", i)
        extra = {k: ev[k] for k in EVENT_EXTRA_ORDER if k in ev} or None
    if has_move:
        player = ev.get("player")
        if type(player) is not str:
            if player is None:
                raise _err("a move event needs a player", f"$.events[{i}].player", i)
            _expect(player, str, f"$.events[{i}].player", "player", i)
        if player not in players:
            raise _err(f"player {player!r} is not in this record's players", f"$.events[{i}].player", i)
        raw_move = ev["move"]
        if type(raw_move) is not dict:
            _expect(raw_move, dict, f"$.events[{i}].move", "move", i)
        mtype = raw_move.get("type")
        if type(mtype) is not str:
            raise _err("a move needs a string type", f"$.events[{i}].move.type", i)
        if mtype not in game.move_type_names:
            raise _err(f"unknown move type {mtype!r} for {game.title}", f"$.events[{i}].move.type", i)
        try:
            move = game.parse_move(raw_move)
        except msgspec.ValidationError as exc:
            reason, sub = _split_msgspec(str(exc))
            if reason.startswith("Expected `int`") and _huge_integer(_lookup_path(raw_move, sub)):
                reason = f"Expected an integer of at most 64 bits, got {_HUGE}"
            raise _err(reason, f"$.events[{i}].move{sub}", i) from None
        return MoveEvent(player, move, extra)
    if has_chance:
        outcome = ev["chance"]
        _check_chance(outcome, i)
        return ChanceEvent(outcome, extra)
    path = f"$.events[{i}]"
    facts = ev["observe"]
    _expect(facts, dict, f"{path}.observe", "observe", i)
    for k in facts:
        if k not in game.observable_key_set:
            raise _err(f"unknown observable key {k!r} for {game.title}", f"{path}.observe.{k}", i)
    origin = ev.get("origin")
    if origin is not None:
        _expect(origin, str, f"{path}.origin", "origin", i)
    return ObserveEvent(facts, origin, extra)


def _split_msgspec(msg: str) -> tuple[str, str]:
    """``"Expected `int`, got `str` - at `$.slot`"`` -> (reason, ``".slot"``)."""
    if " - at `$" in msg:
        reason, _, rest = msg.rpartition(" - at `$")
        return reason, rest.rstrip("`")
    return msg, ""


def _check_chance(outcome: Any, i: int) -> None:
    path = f"$.events[{i}].chance"
    if type(outcome) is not dict:
        _expect(outcome, dict, path, "a chance outcome", i)
    if "draw" in outcome:
        if type(outcome["draw"]) is not str:
            _expect(outcome["draw"], str, f"{path}.draw", "draw (the deck name)", i)
        items = outcome.get("items")
        if items is None:
            raise _err("a draw needs items", f"{path}.items", i)
        _expect(items, list, f"{path}.items", "items", i)
        n_allowed = 2
    elif "roll" in outcome:
        _expect(outcome["roll"], list, f"{path}.roll", "roll", i)
        for j, d in enumerate(outcome["roll"]):
            if type(d) is not int:
                _expect(d, int, f"{path}.roll[{j}]", "a die", i)
        n_allowed = 1
    elif "choose" in outcome:
        _expect(outcome["choose"], str, f"{path}.choose", "choose", i)
        if "value" not in outcome:
            raise _err("a random choice needs a value", f"{path}.value", i)
        n_allowed = 2
    elif "reveal" in outcome:
        _expect(outcome["reveal"], str, f"{path}.reveal", "reveal (the zone shown)", i)
        items = outcome.get("items")
        if items is None:
            raise _err("a reveal needs items", f"{path}.items", i)
        _expect(items, list, f"{path}.items", "items", i)
        for j, it in enumerate(items):
            if it is None:
                raise _err("a revealed item cannot be unknown (null)", f"{path}.items[{j}]", i)
        n_allowed = 2
    else:
        keys = ", ".join(sorted(outcome)) or "no keys"
        raise _err(f"unknown chance form (expected draw, roll, choose or reveal; got {keys})", path, i)
    if len(outcome) > n_allowed:
        known = {"draw", "items", "roll", "choose", "value", "reveal"}
        k = next((k for k in outcome if k not in known), next(iter(outcome)))
        raise _err(f"unknown field {k!r} in a chance outcome", f"{path}.{k}", i)


def _parse_result(result: Any, players: set[str]) -> None:
    _expect(result, dict, "$.result", "result")
    for key in ("score", "rank"):
        if key in result:
            _expect(result[key], dict, f"$.result.{key}", key)
            for pid, v in result[key].items():
                if pid not in players:
                    raise _err(f"player {pid!r} is not in this record's players", f"$.result.{key}.{pid}")
                _expect(v, (int, float), f"$.result.{key}.{pid}", f"a {key}")
    if "end" in result:
        _expect(result["end"], str, "$.result.end", "end")


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------


@dataclass(slots=True)
class Item:
    """One record read from a source: the record, or the error, with its raw text."""

    source: str
    line: int | None
    raw: bytes
    record: Record | None = None
    error: RecordError | None = None

    @property
    def ok(self) -> bool:
        return self.record is not None


def loads(raw: bytes | str, source: str = "<record>", line: int | None = None) -> Record:
    """Decode and validate one record; raises :class:`RecordError` with its location.

    A record is first read at once by :func:`_read_at_once`; one it has any doubt about is
    read again the general way (``orjson`` and a walk over the decoded JSON), which gives
    the same record or words what is wrong."""
    data = raw.encode() if isinstance(raw, str) else raw
    rec = _read_at_once(data)
    # a record read at once without observations has no boolean to compare (see Record.booleans)
    observes = rec is None or bool(rec.observation_texts)
    if rec is None:
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON ({_json_reason(exc, data)})", source=source, line=line) from None
        try:
            rec = parse_record(obj)
        except RecordError as exc:
            raise exc.located(source, line) from None
    rec.sha256 = hashlib.sha256(data.strip()).hexdigest()
    rec.booleans = observes and (b"true" in data or b"false" in data)
    return rec


# --------------------------------------------------------------------------
# Reading a record at once
# --------------------------------------------------------------------------


class _Doubt(Exception):
    """A record that :func:`_read_at_once` leaves to the general reading."""


_ABSENT = msgspec.Raw()
"""A top-level field or an event field the JSON does not have (an empty :class:`msgspec.Raw`)."""


class _Top(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A record's top level as msgspec reads it: the values other than ``format``, ``game`` and
    ``id`` kept as their JSON text (the events are read by the game's own event type, the rest
    by ``orjson``, as the general reading reads them)."""

    format: str
    game: str
    id: str
    events: msgspec.Raw
    players: msgspec.Raw = _ABSENT
    options: msgspec.Raw = _ABSENT
    source: msgspec.Raw = _ABSENT
    played_at: msgspec.Raw = _ABSENT
    result: msgspec.Raw = _ABSENT


_TOP = msgspec.json.Decoder(_Top)


@dataclass(frozen=True)
class _EventReader:
    """How :func:`_read_events_at_once` reads one game's events."""

    plain: msgspec.json.Decoder[Any]
    """Events without extra fields (``at``, ``note``, ``src``): the usual ones."""
    extras: msgspec.json.Decoder[Any]
    """Events that may have them."""


_EVENT_READERS: dict[tuple[str, tuple[type[Move], ...]], _EventReader] = {}


def _event_reader(game: Game) -> _EventReader:
    """The decoders of a list of ``game``'s events: each event an object of the fields any
    event form may have, the move read straight into the game's move structs (its ``type``
    picks the struct), every other value kept as its JSON text."""
    key = (game.id, game.moves)
    reader = _EVENT_READERS.get(key)
    if reader is None:
        unset = msgspec.UnsetType
        fields: list[tuple[str, Any, Any]] = [
            ("player", Union[str, unset], msgspec.UNSET),  # noqa: UP007
            ("move", Union[game._move_type, unset], msgspec.UNSET),  # noqa: UP007
            ("chance", msgspec.Raw, _ABSENT),
            ("observe", msgspec.Raw, _ABSENT),
            ("origin", Union[str, unset], msgspec.UNSET),  # noqa: UP007
        ]
        plain = msgspec.defstruct(f"{game.id}_event", fields, forbid_unknown_fields=True, gc=False)
        extras = msgspec.defstruct(f"{game.id}_event_extras",
                                   fields + [(k, msgspec.Raw, _ABSENT) for k in sorted(EVENT_EXTRAS)],
                                   forbid_unknown_fields=True, gc=False)
        reader = _EVENT_READERS[key] = _EventReader(msgspec.json.Decoder(list[plain]),  # type: ignore[valid-type]
                                                    msgspec.json.Decoder(list[extras]))  # type: ignore[valid-type]
    return reader


_DIGITS_ONLY = bytes(57 if c in b"0123456789" else 32 for c in range(256))
"""A translation table: every digit becomes a 9, every other byte a space."""
_LONG_NUMBER = b"9" * 20


def _read_at_once(data: bytes) -> Record | None:
    """The record in ``data`` read by msgspec in one pass, or ``None`` when it leaves any doubt.

    The top level and the events are read into structs (:class:`_Top`, :func:`_event_reader`);
    every value the general reading gets from ``orjson`` (players, options, chance outcomes,
    observations, ...) is still decoded by ``orjson`` from its own text, so that the two
    readings give the same record (``orjson`` reads an integer beyond 64 bits as a float,
    msgspec as an integer, also in a move; so a text with a run of 20 digits is left to the
    general reading, which names such an integer).  Anything unusual (an unknown field, a value of an unexpected
    type, an event the quick checks of :func:`_parse_events` would not take at once, any
    error) returns ``None``: the general reading then reads the record again and words the
    error, so what is accepted and every message stay exactly as they were."""
    if _LONG_NUMBER in data.translate(_DIGITS_ONLY):
        return None  # an integer of 20 digits or more may be beyond 64 bits: msgspec would take it
    try:
        top = _TOP.decode(data)
        obj: dict[str, Any] = {"format": top.format, "game": top.game, "id": top.id, "events": top.events}
        for name in ("players", "options", "source", "played_at", "result"):
            text = getattr(top, name)
            if text is not _ABSENT:
                obj[name] = orjson.loads(memoryview(text))
        texts: dict[int, msgspec.Raw] = {}
        rec = parse_record(obj, lambda raw, game, ids: _read_events_at_once(raw, game, ids, texts))
        rec.observation_texts = texts
        return rec
    except Exception:  # any doubt (msgspec's, orjson's, UTF-8 and our own errors): the general reading decides
        return None


def _read_events_at_once(raw: Any, game: Game, players: set[str], texts: dict[int, msgspec.Raw]) -> list[Event]:
    """The events of a record (``raw``: their JSON text) read by the game's event decoder;
    ``texts`` gets each observation's text (see :attr:`Record.observation_texts`)."""
    reader = _event_reader(game)
    try:
        events = reader.plain.decode(raw)
        with_extras = False
    except msgspec.ValidationError:  # an extra field, or something the general reading words
        events = reader.extras.decode(raw)
        with_extras = True
    out: list[Event] = []
    add = out.append
    observable, decode = game.observable_key_set, orjson.loads
    unset, absent = msgspec.UNSET, _ABSENT
    extra = None
    for ev in events:
        move = ev.move
        if with_extras:
            extra = {k: decode(memoryview(getattr(ev, k))) for k in EVENT_EXTRA_ORDER
                     if getattr(ev, k) is not absent} or None
        if move is not unset:
            player = ev.player
            if player in players and ev.chance is absent and ev.observe is absent and ev.origin is unset:
                add(MoveEvent(player, move, extra))
                continue
            raise _Doubt
        origin = ev.origin
        chance = ev.chance
        if chance is not absent:
            if ev.observe is not absent or ev.player is not unset or origin is not unset:
                raise _Doubt
            outcome = decode(memoryview(chance))
            if not (type(outcome) is dict and len(outcome) == 2 and type(outcome.get("draw")) is str
                    and type(outcome.get("items")) is list):
                _check_chance(outcome, len(out))  # as the general reading checks it
            add(ChanceEvent(outcome, extra))
        elif ev.observe is not absent and ev.player is unset:
            text = ev.observe
            facts = decode(memoryview(text))
            if type(facts) is not dict or not observable.issuperset(facts):
                raise _Doubt
            texts[len(out)] = text
            add(ObserveEvent(facts, None if origin is unset else origin, extra))
        else:
            raise _Doubt
    return out


GZIP_MAGIC = b"\x1f\x8b"


def _json_reason(exc: Exception, data: bytes) -> str:
    msg = str(exc).split(":", 1)[0]
    if not data.strip():
        return "empty input"
    what = binary_kind(data)
    if what is not None:
        return what
    if data.lstrip()[:1] in (b"{", b"[") and data.rstrip()[-1:] not in (b"}", b"]"):
        return f"{msg}; the text looks truncated"
    return msg


def binary_kind(data: bytes) -> str | None:
    """What ``data`` is if it is not text at all (gzip-compressed data, other binary data), else None."""
    if data.startswith(GZIP_MAGIC):
        return ("this is gzip-compressed data, not JSON text: decompress it first, or give the file "
                "a name ending in .gz")
    head = data[:4096]
    if b"\x00" in head:
        return "this is binary data, not JSON text"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as err:
        if err.start < len(head) - 4:  # not just a character cut at the end of the sample
            return "this is binary data (or text that is not UTF-8), not JSON text"
    return None


def _item(raw: bytes, source: str, line: int | None) -> Item:
    try:
        return Item(source, line, raw, record=loads(raw, source, line))
    except RecordError as exc:
        return Item(source, line, raw, error=exc)


@dataclass(slots=True)
class RawItem:
    """One record's raw text (not yet parsed), or the error that kept a file from being read.

    ``done_bytes`` is how far reading has got over all inputs, in bytes on
    disk (compressed bytes for ``.gz``), for progress bars.
    """

    source: str
    line: int | None
    raw: bytes
    error: RecordError | None = None
    done_bytes: int = 0


def record_files(path: Path) -> Iterator[Path]:
    """Record files under ``path`` (itself, or recursively in sorted order)."""
    if path.is_dir():
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(RECORD_SUFFIXES):
                    yield Path(root) / name
    else:
        yield path


def skipped_files(paths: Iterable[str | Path], limit: int = 5) -> str:
    """The files under the directories among ``paths`` that are not read as records, in words
    (``""`` if none): for a message that found no records."""
    names: list[str] = []
    count = 0
    for p in paths:
        path = Path(p)
        if str(p) == "-" or not path.is_dir():
            continue
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(RECORD_SUFFIXES):
                    count += 1
                    if len(names) < limit:
                        names.append(str(Path(root) / name))
    if not count:
        return ""
    more = f" and {count - len(names)} more" if count > len(names) else ""
    return (f"skipped {count} file(s) whose names do not end in .json, .jsonl, .json.gz or .jsonl.gz "
            f"(suffixes are case-sensitive): {', '.join(names)}{more}")


def iter_raw(paths: Iterable[str | Path], stdin: IO[bytes] | None = None) -> Iterator[RawItem]:
    """Split every input into raw records, in order, without parsing them.

    ``paths`` are files, directories (recursively, sorted) or ``-`` (standard
    input: JSON lines, or one pretty-printed record).  ``.jsonl`` holds one
    record per line, ``.json`` one record; either may be gzip-compressed.
    """
    done = 0
    for p in paths:
        if str(p) == "-":
            for item in _raw_stream(stdin if stdin is not None else sys.stdin.buffer, "<stdin>"):
                item.done_bytes = done
                yield item
            continue
        path = Path(p)
        if not path.exists():
            yield RawItem(str(path), None, b"", RecordError("no such file or directory", source=str(path)),
                          done)
            continue
        for f in record_files(path):
            size = 0
            for item in _raw_file(str(f)):
                size = max(size, item.done_bytes)
                item.done_bytes += done
                yield item
            try:
                done += os.path.getsize(f)
            except OSError:
                done += size


def iter_records(paths: Iterable[str | Path], stdin: IO[bytes] | None = None) -> Iterator[Item]:
    """Stream every record from ``paths`` (files, directories, ``-``), parsed and validated.

    Unreadable files and bad records come out as items carrying the error, so
    one bad line never hides the good ones around it.
    """
    for raw in iter_raw(paths, stdin):
        if raw.error is not None:
            yield Item(raw.source, raw.line, raw.raw, error=raw.error)
        else:
            yield _item(raw.raw, raw.source, raw.line)


def _disk_position(fh: IO[bytes]) -> int:
    try:
        return fh.tell()
    except (OSError, ValueError):
        return 0


def _raw_file(name: str) -> Iterator[RawItem]:
    try:
        disk = open(name, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        yield RawItem(name, None, b"", RecordError(f"cannot open: {exc.strerror}", source=name))
        return
    with disk:
        fh: IO[bytes] = gzip.GzipFile(fileobj=disk, mode="rb") if name.endswith(".gz") else disk  # type: ignore[assignment]
        line = 0
        try:
            not_text = _not_a_text_file(name, fh)
            if not_text is not None:
                yield RawItem(name, None, b"", RecordError(not_text, source=name), done_bytes=_disk_position(disk))
                return
            if name.endswith((".jsonl", ".jsonl.gz")):
                for line, text in enumerate(fh, start=1):  # noqa: B007 - line is used after the loop
                    if text.strip():
                        if text.strip() in (b"{", b"["):  # the first line opens a value spread over many
                            yield _spread_over_lines(name, line, text, fh, disk)
                            return
                        yield RawItem(name, line, text.rstrip(b"\r\n"), done_bytes=_disk_position(disk))
                        break
                after = line + 1
                for line, text in enumerate(fh, start=after):  # noqa: B007 - line is used after the loop
                    if text.strip():
                        yield RawItem(name, line, text.rstrip(b"\r\n"), done_bytes=_disk_position(disk))
            else:
                line = 1
                yield RawItem(name, 1, fh.read(), done_bytes=_disk_position(disk))
        except (OSError, EOFError, zlib.error) as exc:
            reason = "corrupt or truncated gzip data" if name.endswith(".gz") else "read error"
            at = line + 1 if line else None
            yield RawItem(name, at, b"", RecordError(f"{reason} ({exc})", source=name, line=at),
                          done_bytes=_disk_position(disk))


def _not_a_text_file(name: str, fh: IO[bytes]) -> str | None:
    """Why the file is not JSON text at all (gzip data under a name without .gz, binary data), or None."""
    peek = getattr(fh, "peek", None)
    head = peek(4096)[:4096] if peek is not None else b""
    what = binary_kind(head) if head else None
    if what is None:
        return None
    if head.startswith(GZIP_MAGIC) and not name.endswith(".gz"):
        return "gzip-compressed data under a name without .gz: rename it to end in .gz"
    return what


def _spread_over_lines(name: str, line: int, first: bytes, fh: IO[bytes], disk: IO[bytes]) -> RawItem:
    """A ``.jsonl`` file whose first line opens a pretty-printed value: one error for the whole file
    (its whole text kept as the raw text, for the quarantine)."""
    raw = first + fh.read()
    what = "a JSON array" if first.strip() == b"[" else "one record"
    return RawItem(name, line, raw.strip(), RecordError(
        f"this .jsonl file holds {what} pretty-printed over many lines, but JSON Lines needs one whole "
        "record per line: save a single record as .json, or write one record per line (e.g. `jq -c`)",
        source=name, line=line), done_bytes=_disk_position(disk))


def _raw_stream(fh: IO[bytes], name: str) -> Iterator[RawItem]:
    """Standard input: JSON lines, or one (possibly pretty-printed) JSON record."""
    first = b""
    n = 0
    for text in fh:
        n += 1
        if text.strip():
            first = text
            break
    if not first:
        return
    try:
        orjson.loads(first)
    except orjson.JSONDecodeError:
        yield RawItem(name, n, first + fh.read())
        return
    yield RawItem(name, n, first.rstrip(b"\r\n"))
    for k, text in enumerate(fh, start=n + 1):
        if text.strip():
            yield RawItem(name, k, text.rstrip(b"\r\n"))


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------


def write_records(records: Iterable[Record], path: str | Path) -> int:
    """Write records to ``path`` (``.json`` for one record; ``.jsonl``; ``.gz``).

    Gzip output is deterministic (no timestamp or file name in the header).
    Returns the number of records written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    n = 0
    try:
        with open(tmp, "wb") as raw:
            if path.name.endswith(".gz"):
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                    for rec in records:
                        gz.write(dumps(rec) + b"\n")
                        n += 1
            else:
                for rec in records:
                    raw.write(dumps(rec) + b"\n")
                    n += 1
    except BaseException:
        tmp.unlink(missing_ok=True)  # a half-written file must not be left behind
        raise
    os.replace(tmp, path)
    return n
