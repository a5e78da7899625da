"""The ``gamerec/1`` record: read, validate, write.

A record is one JSON object (see ``docs/record-format.md``).  Files hold one
record (``.json``) or one per line (``.jsonl``), optionally gzip-compressed
(``.gz``).  :func:`iter_records` streams records from files, directories
(recursively, in sorted order) and standard input (``-``) without loading a
whole file: a 1 GB JSONL file is read line by line.

A record is decoded by msgspec straight into its game's structs, which also give its
JSON Schema (``docs/record-schema.json``); what they cannot state is checked once after.
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
import inspect
import os
import re
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Annotated, Any, ClassVar, Literal, Union

import msgspec
import orjson
from msgspec import UNSET, Meta, UnsetType

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
    looks in its text (not at all when the record has no observation); a record made in memory
    may.  A record without one has no boolean observation, so the
    replayer compares its observations as plain values (``True == 1`` in Python, never in a
    record)."""
    observation_texts: dict[int, msgspec.Raw] = field(default_factory=dict, compare=False, repr=False)
    """The JSON text of each observation as the record gives it (event index -> text), when
    :func:`loads` read it; empty for a record made in memory.  The replayer settles an observation
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
# The record as JSON: the structs it is decoded into, and its JSON Schema
# --------------------------------------------------------------------------
#
# A record is decoded by msgspec straight into the structs of its game (:func:`_structs`): the
# top level, every event, every move (the game's moves are a union tagged by ``type``).  What the
# structs cannot say is checked once after decoding, in the order of the checks below: the id's
# form, the player count, the options the game knows, the date, each event's form (an event is a
# move, a chance or an observe object: its form is the key it holds, not a tag's value, so it is
# one struct with the fields of all three), its player, its chance outcome, its observable keys,
# and the result.  The JSON Schema (:func:`record_schema`, ``docs/record-schema.json``) is
# generated from the same structs; it states the checks after decoding too, except those that
# depend on values elsewhere in the record (unique player ids, a move's or a result's player being
# one of the record's) and the date's form.


class Player(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A seat: the record's own player id, and a display name. Players are listed in seat order
    (the turn order at the start); ids are unique."""

    id: str
    name: str | None | UnsetType = UNSET


class _Head(msgspec.Struct, gc=False):
    """What is read first, to choose the game's decoder (every other field is skipped)."""

    format: Any = UNSET
    game: Any = UNSET


_HEAD_DECODE = msgspec.json.Decoder(_Head).decode

_ISO_TIME_SCHEMA = {"description": "ISO 8601 date or date-time (2026-11-21T10:00:00Z, 2026-11-21)"}
_ID_SCHEMA = {"minLength": 1, "maxLength": MAX_ID_LENGTH, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
              "description": "the record's own id, unique per game content"}
_RESULT_SCHEMA = {
    "description": "the final observation: score and rank per player, and how the game ended",
    "properties": {"score": {"type": "object", "additionalProperties": {"type": "number"}},
                   "rank": {"type": "object", "additionalProperties": {"type": "number"}},
                   "end": {"type": "string", "description": "normal, concede, timeout..."}},
}
_CHANCE_FORMS = [
    {"title": "draw", "description": "items drawn from the named deck, in order (null: drawn face down)",
     "type": "object", "properties": {"draw": {"type": "string"}, "items": {"type": "array"}},
     "required": ["draw", "items"], "additionalProperties": False},
    {"title": "roll", "description": "dice", "type": "object",
     "properties": {"roll": {"type": "array", "items": {"type": "integer"}}},
     "required": ["roll"], "additionalProperties": False},
    {"title": "choose", "description": "a random pick (a first player, a seat)", "type": "object",
     "properties": {"choose": {"type": "string"}, "value": {}},
     "required": ["choose", "value"], "additionalProperties": False},
    {"title": "reveal", "description": "hidden items shown to be in a zone", "type": "object",
     "properties": {"reveal": {"type": "string"}, "items": {"type": "array", "items": {"not": {"type": "null"}}}},
     "required": ["reveal", "items"], "additionalProperties": False},
]
_NOT = False  # a JSON Schema that nothing matches: the field is absent
_EVENT_FORMS = {"oneOf": [
    {"title": "move", "required": ["player", "move"],
     "properties": {"chance": _NOT, "observe": _NOT, "origin": _NOT}},
    {"title": "chance", "required": ["chance"],
     "properties": {"player": _NOT, "move": _NOT, "observe": _NOT, "origin": _NOT}},
    {"title": "observe", "required": ["observe"], "properties": {"player": _NOT, "move": _NOT, "chance": _NOT}},
]}


@dataclass(frozen=True)
class _GameStructs:
    """One game's record struct (and its decoder), and its event struct."""

    record: Any
    event: Any
    decode: Callable[[bytes], Any]
    lenient: Callable[[bytes], Any]
    """The same record's decoder that skips unknown top-level fields (those are kept: see loads)."""


_STRUCTS: dict[tuple[str, tuple[type[Move], ...]], _GameStructs] = {}


def _structs(game: Game) -> _GameStructs:
    """The structs of ``game``'s records, made once per game (and per set of move types: tests
    register toy games)."""
    key = (game.id, game.moves)
    got = _STRUCTS.get(key)
    if got is not None:
        return got
    name = "".join(part.title() for part in game.id.split("_"))
    observe = Annotated[msgspec.Raw, Meta(extra_json_schema={
        "type": "object", "propertyNames": {"enum": list(game.observable_keys)},
        "description": "facts the source claims about the state here, compared with the replay's"})]
    event = msgspec.defstruct(f"{name}Event", [
        ("player", Union[str, UnsetType], UNSET),  # noqa: UP007
        ("move", Union[game._move_type, UnsetType], UNSET),  # noqa: UP007
        ("chance", Union[Annotated[dict[str, Any], Meta(extra_json_schema={"oneOf": _CHANCE_FORMS})],  # noqa: UP007
                         UnsetType], UNSET),
        ("observe", Union[observe, UnsetType], UNSET),  # noqa: UP007
        ("origin", Union[str, None, UnsetType], UNSET),  # noqa: UP007
        ("at", Any, UNSET),
        ("note", Any, UNSET),
        ("src", Any, UNSET),
    ], forbid_unknown_fields=True, gc=False)
    options = {"type": "object", "propertyNames": {"enum": list(game.option_keys)},
               "properties": {"ruleset": {"enum": list(game.rulesets)}}}
    fields: list[tuple[str, Any, Any]] = [
        ("format", Literal["gamerec/1"], msgspec.NODEFAULT),
        ("id", Annotated[str, Meta(extra_json_schema=_ID_SCHEMA)], msgspec.NODEFAULT),
        ("players", Annotated[list[Player], Meta(extra_json_schema={
            "minItems": game.min_players, "maxItems": game.max_players})], msgspec.NODEFAULT),
        ("events", list[Annotated[event, Meta(extra_json_schema=_EVENT_FORMS)]],  # type: ignore[valid-type]
         msgspec.NODEFAULT),
        ("options", Annotated[dict[str, Any], Meta(extra_json_schema=options)], {}),
        ("source", Union[dict[str, Any], None], None),  # noqa: UP007
        ("played_at", Union[Annotated[str, Meta(extra_json_schema=_ISO_TIME_SCHEMA)], None], None),  # noqa: UP007
        ("result", Union[Annotated[dict[str, Any], Meta(extra_json_schema=_RESULT_SCHEMA)], None], None),  # noqa: UP007
    ]
    config = {"tag_field": "game", "tag": game.id, "gc": False}
    record = msgspec.defstruct(f"{name}Record", fields, forbid_unknown_fields=True, **config)  # type: ignore[arg-type]
    lenient = msgspec.defstruct(f"{name}RecordLenient", fields, **config)  # type: ignore[arg-type]
    got = _STRUCTS[key] = _GameStructs(record, event, msgspec.json.Decoder(record).decode,
                                       msgspec.json.Decoder(lenient).decode)
    return got


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a ``gamerec/1`` record of any installed game, generated from the structs
    records are decoded into (published as ``docs/record-schema.json``: ``python -m replay.record``)."""
    from replay.games import available

    union: Any = Union[tuple(_structs(get_game(g)).record for g in available())]  # noqa: UP007
    schema = _cleaned(msgspec.json.schema(union))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "gamerec/1 record",
            "description": "One recorded game: see docs/record-format.md.", **schema}


def _cleaned(node: Any) -> Any:
    """``node`` with every ``description`` (a struct's docstring) cleaned as :func:`inspect.cleandoc`
    does: msgspec 0.23 cleans them, earlier versions keep the source's indentation, and the
    published schema must be the same text whichever is installed."""
    if isinstance(node, dict):
        return {k: inspect.cleandoc(v) if k == "description" and isinstance(v, str) else _cleaned(v)
                for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [_cleaned(v) for v in node]
    return node


# --------------------------------------------------------------------------
# The checks after decoding
# --------------------------------------------------------------------------


def _err(reason: str, path: str = "$", event: int | None = None) -> RecordError:
    return RecordError(reason, path=path, event=event)


def _typename(v: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer",
            float: "number", type(None): "null"}.get(type(v), type(v).__name__)


def _expect(v: Any, typ: type | tuple[type, ...], path: str, what: str, event: int | None = None) -> None:
    if not isinstance(v, typ) or (isinstance(v, bool) and typ in (int, (int, float))):
        raise _err(f"{what} must be {_describe_type(typ)}, got {_typename(v)}", path, event)


def _describe_type(typ: type | tuple[type, ...]) -> str:
    names = {dict: "an object", list: "an array", str: "a string", int: "an integer", float: "a number"}
    if isinstance(typ, tuple):
        return " or ".join(names.get(t, t.__name__) for t in typ)
    return names.get(typ, typ.__name__)


def _check_format(fmt: Any) -> None:
    if fmt is UNSET:
        raise _err(f"missing format (expected {FORMAT!r})", "$.format")
    if fmt != FORMAT:
        raise _err(f"unsupported format {fmt!r} (expected {FORMAT!r})", "$.format")


def _game_of(game_id: Any) -> Game:
    if game_id is UNSET:
        raise _err("missing game", "$.game")
    _expect(game_id, str, "$.game", "game")
    try:
        return get_game(game_id)
    except UnknownGame as exc:
        raise _err(str(exc), "$.game") from None


def _check_id(rid: str) -> None:
    if not rid:
        raise _err("id must not be empty", "$.id")
    if len(rid) > MAX_ID_LENGTH:
        raise _err(f"id is {len(rid):,} characters long; at most {MAX_ID_LENGTH} are allowed", "$.id")
    if not rid.isprintable():
        raise _err("id holds a control character (a line break, a tab...)", "$.id")


def _players(players: list[Player], game: Game) -> list[dict[str, Any]]:
    """The players as the record keeps them (``{"id", "name"}``), checked: ids unique, count in range."""
    if not players:
        raise _err("a record needs at least one player", "$.players")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, p in enumerate(players):
        if p.id in seen:
            raise _err(f"player id {p.id!r} appears twice", f"$.players[{i}].id")
        seen.add(p.id)
        out.append({"id": p.id} if p.name is UNSET else {"id": p.id, "name": p.name})
    if not game.min_players <= len(players) <= game.max_players:
        raise _err(
            f"{game.title} is played by {game.min_players} to {game.max_players} players, "
            f"this record has {len(players)}",
            "$.players",
        )
    return out


def _check_options(options: Mapping[str, Any], game: Game) -> None:
    for k, v in options.items():
        if k not in game.option_keys:
            raise _err(f"unknown option {k!r} for {game.title} (known: {', '.join(game.option_keys)})",
                       f"$.options.{k}")
        if k == "ruleset" and v not in game.rulesets:
            raise _err(f"unknown ruleset {v!r} (known: {', '.join(game.rulesets)})", "$.options.ruleset")


def _check_played_at(played_at: str | None) -> None:
    if played_at is not None and not _iso_time(played_at):
        raise _err(f"played_at {played_at[:40]!r} is not an ISO 8601 date or time "
                   "(e.g. 2026-11-21T10:00:00Z)", "$.played_at")


_FACTS = msgspec.json.Decoder(dict[str, Any]).decode


def _events(decoded: list[Any], game: Game, players: set[str], texts: dict[int, msgspec.Raw]) -> list[Event]:
    """Every decoded event as its form's event, checked: one form, the move's player is a player,
    the chance outcome has a known form, the observation only known keys.  ``texts`` gets each
    observation's text (see :attr:`Record.observation_texts`)."""
    out: list[Event] = []
    add = out.append
    observable = game.observable_key_set
    unset = UNSET
    for i, ev in enumerate(decoded):
        extra = None if ev.at is unset and ev.note is unset and ev.src is unset else _extras(ev)
        move = ev.move
        if move is not unset:
            if ev.player in players and ev.chance is unset and ev.observe is unset and ev.origin is unset:
                add(MoveEvent(ev.player, move, extra))
                continue
            raise _event_error(ev, i, players)
        chance = ev.chance
        if chance is not unset:
            if ev.player is not unset or ev.observe is not unset or ev.origin is not unset:
                raise _event_error(ev, i, players)
            if not (len(chance) == 2 and type(chance.get("draw")) is str and type(chance.get("items")) is list):
                _check_chance(chance, i)
            add(ChanceEvent(chance, extra))
            continue
        text = ev.observe
        if text is unset or ev.player is not unset:
            raise _event_error(ev, i, players)
        try:
            facts = _FACTS(text)
        except msgspec.ValidationError as exc:
            raise _from_msgspec(exc, f"$.events[{i}].observe") from None
        if not observable.issuperset(facts):
            k = next(k for k in facts if k not in observable)
            raise _err(f"unknown observable key {k!r} for {game.title}", f"$.events[{i}].observe.{k}", i)
        texts[i] = text
        add(ObserveEvent(facts, ev.origin if ev.origin is not unset else None, extra))
    return out


def _extras(ev: Any) -> dict[str, Any] | None:
    """The keys an event carries besides its own (``at``, ``note``, ``src``), in that order."""
    return {k: v for k in EVENT_EXTRA_ORDER if (v := getattr(ev, k)) is not UNSET} or None


_FORM_FIELDS = {"move": {"player", "move"}, "chance": {"chance"}, "observe": {"observe", "origin"}}


def _event_error(ev: Any, i: int, players: set[str]) -> RecordError:
    """What is wrong with a decoded event that is not one whole form, or names an unknown player."""
    keys = [k for k in ev.__struct_fields__ if getattr(ev, k) is not UNSET]
    return _event_form_error(keys, i) or _err(
        f"player {ev.player!r} is not in this record's players", f"$.events[{i}].player", i)


def _event_form_error(keys: list[str], i: int) -> RecordError | None:
    """The error of an event with these keys, if they are not one form's (with ``at``, ``note``,
    ``src``), else None."""
    forms = [f for f in ("move", "chance", "observe") if f in keys]
    if len(forms) != 1:
        got = ", ".join(sorted(map(str, keys))) or "no keys"
        return _err("unknown event form: an event is exactly one of a move "
                    f"({{\"player\", \"move\"}}), a chance or an observe object (got {got})", f"$.events[{i}]", i)
    allowed = _FORM_FIELDS[forms[0]] | EVENT_EXTRAS
    unknown = [k for k in keys if k not in allowed]
    if unknown:
        return _err(f"unknown field {unknown[0]!r} in a {forms[0]} event", f"$.events[{i}].{unknown[0]}", i)
    if forms[0] == "move" and "player" not in keys:
        return _err("a move event needs a player", f"$.events[{i}].player", i)
    return None


def _check_chance(outcome: dict[str, Any], i: int) -> None:
    """A chance outcome is one of its four forms (``_CHANCE_FORMS``)."""
    path = f"$.events[{i}].chance"
    if "draw" in outcome:
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


def _check_result(result: dict[str, Any] | None, players: set[str]) -> None:
    if result is None:
        return
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
# Integers beyond 64 bits
# --------------------------------------------------------------------------

_DIGITS_ONLY = bytes(57 if c in b"0123456789" else 32 for c in range(256))
"""A translation table: every digit becomes a 9, every other byte a space."""
_LONG_NUMBER = b"9" * 20
_INT_RANGE = (-(2**63), 2**64 - 1)
_HUGE = "an integer must be of at most 64 bits, got a number too large for one (beyond 64 bits)"


def _check_integers(rec: Record) -> None:
    """Refuse an integer beyond 64 bits anywhere in ``rec`` (JSON readers disagree about them, and
    the database cannot hold one), naming where it is."""
    where: list[tuple[str, Any, int | None]] = [
        ("$.options", rec.options, None), ("$.source", rec.source, None), ("$.result", rec.result, None),
        ("$", rec.extra, None)]
    for i, ev in enumerate(rec.events):
        base = f"$.events[{i}]"
        if isinstance(ev, MoveEvent):
            where.append((f"{base}.move", msgspec.to_builtins(ev.move), i))
        elif isinstance(ev, ChanceEvent):
            where.append((f"{base}.chance", ev.outcome, i))
        else:
            where.append((f"{base}.observe", ev.facts, i))
        for k, v in (ev.extra or {}).items():
            where.append((f"{base}.{k}", v, i))
    for path, value, event in where:
        bad = _huge_at(value, path)
        if bad is not None:
            raise _err(_HUGE, bad, event)


def _huge_at(v: Any, path: str) -> str | None:
    """The path of the first integer beyond 64 bits inside ``v``, or None."""
    if type(v) is int:
        return path if not _INT_RANGE[0] <= v <= _INT_RANGE[1] else None
    if isinstance(v, dict):
        for k, x in v.items():
            if (found := _huge_at(x, f"{path}.{k}")) is not None:
                return found
    elif isinstance(v, list):
        for j, x in enumerate(v):
            if (found := _huge_at(x, f"{path}[{j}]")) is not None:
                return found
    return None


# --------------------------------------------------------------------------
# msgspec's errors, located and worded
# --------------------------------------------------------------------------

_EVENT_PATH = re.compile(r"^\$\.events\[(\d+)\]")


def _from_msgspec(exc: msgspec.ValidationError, base: str = "$") -> RecordError:
    """msgspec's error (``"Expected `int`, got `str` - at `$.slot`"``) at ``base`` plus its path."""
    msg = str(exc)
    reason, sub = msg, ""
    if " - at `$" in msg:
        reason, _, rest = msg.rpartition(" - at `$")
        sub = rest.rstrip("`")
    path = base + sub
    m = _EVENT_PATH.match(path)
    return _err(reason, path, int(m.group(1)) if m else None)


def _lookup(obj: Any, path: str) -> Any:
    """The value at ``path`` (``$.events[2].move``) inside ``obj``, or :data:`UNSET`."""
    for name, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path[1:]):
        try:
            obj = obj[name] if name else obj[int(index)]
        except (KeyError, IndexError, TypeError):
            return UNSET
    return obj


def _worded(exc: msgspec.ValidationError, data: bytes, game: Game) -> RecordError:
    """msgspec's error in the words of the record format where it has its own: an event of no
    form or with a field of another form's, an unknown move type, an event that is not an object."""
    err = _from_msgspec(exc)
    path, reason, i = err.path, err.reason, err.event
    if i is None:
        return err
    event = f"$.events[{i}]"
    try:
        ev = _lookup(msgspec.json.decode(data), event)
    except msgspec.DecodeError:
        return err
    if path == event and not isinstance(ev, dict):
        return _err(f"an event must be an object, got {_typename(ev)}", event, i)
    if path == event and reason.startswith("Object contains unknown field"):
        return _event_form_error(list(ev), i) or err
    if path == f"{event}.move.type" or (path == f"{event}.move" and "field `type`" in reason):
        mtype = ev.get("move", {}).get("type")
        if type(mtype) is str:
            return _err(f"unknown move type {mtype!r} for {game.title}", f"{event}.move.type", i)
        return _err("a move needs a string type", f"{event}.move.type", i)
    return err


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
    """Decode and validate one record; raises :class:`RecordError` with its location."""
    data = raw.encode() if isinstance(raw, str) else raw
    try:
        rec = _decode(data)
    except msgspec.DecodeError as exc:
        try:  # orjson words a syntax error better (where, and what it expected)
            orjson.loads(data)
            reason = str(exc)
        except orjson.JSONDecodeError as oexc:
            reason = _json_reason(oexc, data)
        raise RecordError(f"not valid JSON ({reason})", source=source, line=line) from None
    except RecordError as exc:
        raise exc.located(source, line) from None
    rec.sha256 = hashlib.sha256(data.strip()).hexdigest()
    # a record without observations has no boolean to compare (see Record.booleans)
    rec.booleans = bool(rec.observation_texts) and (b"true" in data or b"false" in data)
    return rec


def parse_record(obj: Any) -> Record:
    """A record given as decoded JSON values (a dict), read as its JSON text is; raises
    :class:`RecordError` (without file or line)."""
    return loads(msgspec.json.encode(obj))


def _decode(data: bytes) -> Record:
    """The record in ``data``: decoded into its game's structs, then checked."""
    try:
        head = _HEAD_DECODE(data)
    except msgspec.ValidationError:  # not an object
        raise _err(f"a record must be an object, got {_typename(msgspec.json.decode(data))}") from None
    _check_format(head.format)
    game = _game_of(head.game)
    structs = _structs(game)
    extra: dict[str, Any] = {}
    try:
        top = structs.decode(data)
    except msgspec.ValidationError as exc:
        if not str(exc).startswith("Object contains unknown field"):
            raise _worded(exc, data, game) from None
        try:  # unknown top-level fields are kept
            top = structs.lenient(data)
        except msgspec.ValidationError as exc2:
            raise _worded(exc2, data, game) from None
        extra = {k: v for k, v in msgspec.json.decode(data).items() if k not in TOP_LEVEL_KNOWN}
    _check_id(top.id)
    players = _players(top.players, game)
    ids = {p["id"] for p in players}
    _check_options(top.options, game)
    _check_played_at(top.played_at)
    texts: dict[int, msgspec.Raw] = {}
    events = _events(top.events, game, ids, texts)
    _check_result(top.result, ids)
    rec = Record(game=game.id, id=top.id, players=players, events=events, options=top.options,
                 source=top.source, played_at=top.played_at, result=top.result, extra=extra,
                 observation_texts=texts)
    if _LONG_NUMBER in data.translate(_DIGITS_ONLY):
        _check_integers(rec)  # an integer of 20 digits or more may be beyond 64 bits
    return rec


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


def schema_text() -> str:
    """:func:`record_schema` as the text of ``docs/record-schema.json``."""
    import json

    return json.dumps(record_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # python -m replay.record > docs/record-schema.json
    sys.stdout.write(schema_text())
