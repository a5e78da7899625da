"""The engine protocol every game implements, and the errors it raises.

A *game* (:class:`Game`) knows its id, its player counts, its move types and
how to set up an initial :class:`State`.  A *state* is the whole position of
one game in progress.  It is driven by *events*, exactly the events of a
``gamerec/1`` record:

* a **move** — a decision of the player whose turn it is.  Moves are
  :class:`Move` structs (plain, immutable data; one struct class per move
  type, tagged by its ``type`` field);
* a **chance outcome** — what randomness revealed (cards drawn, dice rolled,
  a random first player).  The state never rolls dice itself: when it needs
  randomness, :meth:`State.turn` returns a :class:`ChanceRequest` describing
  what is awaited and which outcomes are possible, and the caller (the
  replayer, from the record; the simulator, from its seeded generator)
  supplies the outcome.

The base class :class:`State` owns the bookkeeping shared by all games: whose
turn it is, the checked path for untrusted events (right player, right kind
of event, legal move) and the fast trusted path, milestones, observations,
the canonical state hash.  A game writes a handful of methods:
``turn``, ``legal_moves``, ``_play`` (one move), ``_reveal`` (one chance
outcome), ``score``, ``snapshot`` and ``observables`` (or derives from
:class:`replay.decisions.TaskState`, which implements the first four from a
stack of pending tasks).  The public paths (``apply_move``, ``apply_chance``,
``play``, ``reveal``) are the base's alone; a game's fast path is a hook they
call (``_move_at_once``, ``_chance_at_once``, ``_play_legal``).

Failures are precise exceptions: :class:`IllegalMove`,
:class:`ImpossibleChance`, :class:`WrongPlayer`, :class:`MissingChance`,
:class:`UnexpectedChance` and :class:`GameOverError`; each carries a message a
player would understand.
"""

from __future__ import annotations

import copy
import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, NamedTuple, Union

import msgspec
import orjson

from replay.departures import Departure, UnknownDeparture

# --------------------------------------------------------------------------
# Moves and chance outcomes: plain data
# --------------------------------------------------------------------------


class Move(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", gc=False):
    """Base of every move type.

    A game declares one subclass per move type, with ``tag="<type>"``::

        class TakeCard(Move, tag="take_card"):
            slot: int

    The ``type`` field of the record selects the class; unknown fields and
    wrongly typed fields are rejected when the record is read.  A move holds
    plain values, never a cycle: the garbage collector does not track it.
    """

    @property
    def type(self) -> str:
        return _MOVE_TYPE_NAMES[type(self)]

    def to_dict(self) -> dict[str, Any]:
        """The move as the plain JSON object a record holds (``type`` first)."""
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out


class _MoveTypeNames(dict[type, str]):
    """Move class -> its ``type`` tag, read from the class once (hot: every stored event asks)."""

    def __missing__(self, cls: type) -> str:
        name = str(cls.__struct_config__.tag)  # type: ignore[attr-defined]
        self[cls] = name
        return name


_MOVE_TYPE_NAMES = _MoveTypeNames()

Outcome = dict[str, Any]
"""A chance outcome as a record holds it, e.g. ``{"draw": "deck", "items": ["red"]}``
or ``{"roll": [3, 5]}`` or ``{"choose": "first_player", "value": "p2"}``."""


@dataclass(frozen=True, slots=True)
class ChanceRequest:
    """What randomness the rules await next.

    ``kind`` is one of:

    * ``"draw"`` — ``count`` items drawn without replacement from the named
      ``deck``; ``pool`` lists the items that may come up, as ``(item,
      copies)`` pairs in a fixed order.  The outcome is
      ``{"draw": deck, "items": [...]}``.  A game may allow fewer items than
      ``count`` when the deck runs out (``min_count``).
    * ``"roll"`` — ``count`` dice with ``sides`` faces.  The outcome is
      ``{"roll": [d1, d2, ...]}``.
    * ``"choose"`` — one of ``options`` picked at random (a random first
      player, a random seat).  The outcome is ``{"choose": name, "value": v}``.

    ``reason`` says in words why the randomness is needed (for messages).

    ``visible_to`` says who sees the outcome: ``None`` for everyone (a card
    dealt face up), or the ids of the players who see it (a card drawn into a
    hand).  A record written from another seat's view writes those items as
    unknown (``null``, see :mod:`replay.hidden`).  The items of a draw may be
    unknown in any record; the rules then hold unknown cards until a move or a
    ``reveal`` event names them.
    """

    kind: str
    name: str
    count: int = 1
    pool: tuple[tuple[Any, int], ...] = ()
    sides: int = 6
    options: tuple[Any, ...] = ()
    min_count: int | None = None
    reason: str = ""
    visible_to: tuple[str, ...] | None = None

    def describe(self) -> str:
        if self.kind == "draw":
            deck = self.name if self.name.endswith("deck") else f"{self.name} deck"  # "deck", "order deck"
            what = f"{self.count} card{'s' if self.count != 1 else ''} from the {deck.replace('_', ' ')}"
        elif self.kind == "roll":
            what = f"a roll of {self.count}d{self.sides}"
        else:
            what = f"a random {self.name.replace('_', ' ')}"
        return what + (f" ({self.reason})" if self.reason else "")


class _Over:
    """The sentinel returned by :meth:`State.turn` when the game has ended."""

    _instance: ClassVar[_Over | None] = None

    def __new__(cls) -> _Over:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OVER"


OVER: Final = _Over()

Turn = str | ChanceRequest | _Over
"""Whose turn it is: a player id, a chance request, or :data:`OVER`."""


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


class GamerecError(Exception):
    """Base of every error gamerec raises on purpose."""


class RuleViolation(GamerecError):
    """An event the rules do not allow at this point (the replay stops there).

    ``kind`` is the divergence kind the replayer reports for it.
    """

    kind: ClassVar[str] = "illegal_move"


class IllegalMove(RuleViolation):
    """A move that breaks a rule ("p2 cannot build ...: needs 4 red cards, has 3")."""

    kind = "illegal_move"


class WrongPlayer(RuleViolation):
    """A move by a player whose turn it is not."""

    kind = "wrong_player"


class ImpossibleChance(RuleViolation):
    """A chance outcome that cannot happen (a card no longer in the deck, a 7 on a d6)."""

    kind = "impossible_chance"


class MissingChance(RuleViolation):
    """A move arrived while the rules await randomness (a draw, a roll)."""

    kind = "missing_chance"


class UnexpectedChance(RuleViolation):
    """A chance outcome arrived while the rules await a player's decision."""

    kind = "impossible_chance"


class GameOverError(RuleViolation):
    """An event after the game has ended."""

    kind = "events_after_end"


# --------------------------------------------------------------------------
# Milestones
# --------------------------------------------------------------------------


class Taken(NamedTuple):
    """A component a player took (:meth:`State.take`): at event ``seq``, ``player`` took
    ``component`` of ``kind``."""

    seq: int
    player: str
    kind: str
    component: str


def milestone(type_: str, seq: int, **fields: Any) -> dict[str, Any]:
    """A milestone record: ``type``, ``seq`` and the fields of its table row."""
    out: dict[str, Any] = {"type": type_, "seq": seq}
    out.update(fields)
    return out


# --------------------------------------------------------------------------
# Game and State
# --------------------------------------------------------------------------


MILESTONE_COLUMN_TYPES = ("VARCHAR", "INTEGER", "BIGINT", "DOUBLE", "BOOLEAN", "JSON")


@dataclass(frozen=True)
class MilestoneTable:
    """A kind of milestone a title's rules note (``State.milestones``) that deserves a typed table.

    ``type`` is the milestone's ``type``; ``table`` the database table its rows go to; ``columns``
    the milestone's fields that get a column each, with a type among :data:`MILESTONE_COLUMN_TYPES`.
    The ingest (:mod:`ingest.milestones`) checks the names and builds the table; every milestone,
    typed or not, also lands whole in the generic ``milestones`` table.
    """

    type: str
    table: str
    columns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Game:
    """A game title: identity, player counts, move types, and its setup.

    ``moves`` lists the game's :class:`Move` subclasses; the record reader
    uses them to validate move objects.  ``state_class`` builds the initial
    state: ``state_class(players, options)``.  ``rulesets`` names the allowed
    values of ``options["ruleset"]`` (the first is the default).
    ``observable_keys`` documents the keys an ``observe`` event may carry.

    The declaration is all the other layers know of a title besides its id
    (``docs/writing-a-game.md``): ``title`` is its name everywhere it is shown,
    ``milestone_tables`` the typed tables of its milestones, ``round_name`` what
    the round number of each step counts (Coal Baron's shift, Pax Pamir's turn),
    ``bga_name`` its name on Board Game Arena.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    moves: tuple[type[Move], ...]
    state_class: type[State]
    rulesets: tuple[str, ...] = ("official", "bga")
    observable_keys: tuple[str, ...] = ("score", "legal_count", "state_hash")
    option_keys: tuple[str, ...] = ("ruleset",)
    view_options: tuple[tuple[str, Any], ...] = ()
    """Options a record seen from one seat needs (``simulate --view`` adds them; Perikles:
    ``seat_view``, under which the order of play never depends on another player's secret)."""
    milestone_tables: tuple[MilestoneTable, ...] = ()
    round_name: str = "round"
    bga_name: str = ""
    """Board Game Arena's name of the title (a table's ``game``: ``coalbaron``); empty if unknown."""
    _move_type: Any = field(default=None, init=False, repr=False, compare=False)
    move_type_names: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    observable_key_set: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    _move_by_tag: dict[str, type[Move]] = field(default_factory=dict, init=False, repr=False, compare=False)
    bare_moves: dict[str, Move] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The move of each type given by its type alone (``{"type": "pass"}``), made once by
    :meth:`parse_move` (record reading looks here first)."""

    def __post_init__(self) -> None:
        union: Any = Union[tuple(self.moves)] if len(self.moves) > 1 else self.moves[0]  # noqa: UP007
        object.__setattr__(self, "_move_type", union)
        object.__setattr__(self, "move_type_names", frozenset(self.move_types()))
        object.__setattr__(self, "observable_key_set", frozenset(self.observable_keys))
        self._move_by_tag.update({str(m.__struct_config__.tag): m for m in self.moves})

    @property
    def departure_rules(self) -> Mapping[str, Departure]:
        """Where BGA departs from this title's rulebook (:mod:`replay.departures`)."""
        return self.state_class.departure_rules

    def move_types(self) -> list[str]:
        return [str(m.__struct_config__.tag) for m in self.moves]

    def parse_move(self, obj: Any) -> Move:
        """Validate a move object from a record; raises ``msgspec.ValidationError``.

        A move whose ``type`` names a known move is converted straight to that
        struct (msgspec caches its type information on a struct class, but
        rebuilds it for a union on every call); anything else goes through the
        union, which gives the error message.  A move given by its type alone
        (``{"type": "pass"}``) is one immutable struct, made once.
        """
        if type(obj) is not dict:
            return msgspec.convert(obj, type=self._move_type, strict=True)  # type: ignore[no-any-return]
        tag = obj.get("type")
        if len(obj) == 1 and type(tag) is str:
            bare = self.bare_moves.get(tag)
            if bare is not None:
                return bare
        cls = self._move_by_tag.get(str(tag))
        if cls is not None and len(obj) == 1:
            bare = self.bare_moves[str(tag)] = msgspec.convert(obj, type=cls, strict=True)
            return bare
        move: Move = msgspec.convert(obj, type=cls or self._move_type, strict=True)
        return move

    def initial_state(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> State:
        opts = dict(options or {})
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalMove(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {len(players)}"
            )
        ruleset = opts.setdefault("ruleset", self.rulesets[0])
        if ruleset not in self.rulesets:
            raise IllegalMove(f"unknown ruleset {ruleset!r} (known: {', '.join(self.rulesets)})")
        return self.state_class(list(players), opts)


class State(ABC):
    """The position of one game in progress.

    Subclasses implement the rules; this class does the bookkeeping.  The
    checked entry points are :meth:`apply_move` and :meth:`apply_chance` (what
    the replayer uses on untrusted records); :meth:`play` and :meth:`reveal`
    are the trusted fast path used by agents that picked a move from
    :meth:`legal_moves`.
    """

    game_id: ClassVar[str] = ""
    departure_rules: ClassVar[Mapping[str, Departure]] = {}
    """The points where BGA departs from the rulebook, by id (the title's ``data/departures.json``)."""
    taken_kinds: ClassVar[tuple[str, ...]] = ()
    """The kinds of component this title's rules note in :attr:`taken` (see :meth:`take`)."""

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        self.players: list[str] = players
        self.options: dict[str, Any] = options
        self.ruleset: str = str(options.get("ruleset", "official"))
        self.milestones: list[dict[str, Any]] = []
        self.departures: list[dict[str, Any]] = []
        """Each step where BGA's behaviour (``ruleset: bga``) changed what happened: ``seq``,
        ``rule`` (an id of :attr:`departure_rules`) and ``happened`` (what BGA's branch did and
        what the rulebook's would have done).  See :mod:`replay.departures`."""
        self.taken: list[Taken] = []
        """Every component a player took whose move names only where it lay (a market column, a
        display slot): noted by the rule that takes it (:meth:`take`), so what was taken is known
        without replaying the game again."""
        self.seq: int = 0
        """The index of the event being applied (set by the replayer/simulator)."""
        self.reveals: list[Outcome] = []
        """``reveal`` outcomes the rules made public while applying the last
        event (a battle turns the committed units face up).  The simulator
        writes them into records seen from one seat (``simulate --view``) and
        clears the list; nothing else reads it."""
        self.epoch: int | None = None
        """``None``, or a number a game moves on with every event that may change an
        observable fact: while it stays the same, :meth:`observed` would hand out the same
        facts, so the replayer need not ask (Pax Pamir: a pass that needs no cleanup)."""

    # ---- to implement per game -------------------------------------------

    @abstractmethod
    def turn(self) -> Turn:
        """Whose turn: a player id, a :class:`ChanceRequest`, or :data:`OVER`."""

    @abstractmethod
    def legal_moves(self) -> Iterable[Move]:
        """The legal moves of the player to move, in a deterministic order."""

    @abstractmethod
    def _play(self, player: str, move: Move) -> None:
        """Check ``move`` against the rules and apply it, or raise :class:`IllegalMove`.

        Called only when ``player`` is the player to move.
        """

    @abstractmethod
    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        """Check a chance outcome against ``request`` and apply it, or raise
        :class:`ImpossibleChance`."""

    @abstractmethod
    def score(self) -> dict[str, dict[str, int]]:
        """Points per player per category; the categories sum to the total."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain, JSON-serialisable data (deterministic order)."""

    def _reveal_zone(self, zone: str, items: list[Any]) -> None:
        """Apply a ``reveal`` event: ``items`` are shown to be in ``zone``.

        Games with hidden zones override this, binding the zone's unknown items
        (see :func:`replay.hidden.reveal_in`) and raising
        :class:`ImpossibleChance` when the revelation is impossible.
        """
        raise ImpossibleChance(f"nothing is hidden in a zone called {zone!r} in this game")

    def unknown_zones(self) -> dict[str, tuple[int, Any, dict[Any, int]]]:
        """Where the state holds unknown items a ``reveal`` event could name: zone -> ``(how many
        unknown items are there, the HiddenPool they belong to, the items known to be there with
        their counts)``.

        The win-chance analysis (``replay.analysis.determinise``) deals the
        unknown ones at random at the start of each rollout, by revealing the
        zone's whole content, one zone at a time, asking for the zones again
        after each deal (so a zone's pool may be made on the spot from the
        state, anything with ``possible()``: a deal then narrows the next).
        The default: none, which also says the game cannot deal what it
        hides; a game that hides nothing held returns ``{}`` itself.  A
        face-down deck's shuffled middle is not a zone: its cards come up
        through chance requests.
        """
        return {}

    def redact_move(self, player: str, move: Move, viewer: str) -> Move:
        """The move as ``viewer`` saw it when ``player`` made it.

        The default is the move itself (every move is public).  A game whose
        moves hide something from the other players (a unit committed face
        down) returns the move with those fields unknown.
        """
        return move

    def observables(self) -> dict[str, Any]:
        """Game-specific observable facts (beyond ``score``, ``legal_count``,
        ``state_hash``), in the vocabulary of ``observe`` events."""
        return {}

    def observables_for(self, keys: AbstractSet[str]) -> dict[str, Any]:
        """The game-specific observable facts of ``keys`` (at least those).

        The default computes them all (:meth:`observables`); a game whose facts
        cost something overrides it to compute only the keys asked for, so that
        an observation after every turn costs little next to the turn itself.
        """
        return self.observables()

    def phase(self) -> tuple[int | None, str]:
        """``(round, phase)`` label of the current point of the game."""
        return (None, "")

    def ranking(self) -> dict[str, int]:
        """Final rank per player (1 = winner; tied players share a rank).

        The default ranks by total score only; games with tiebreaks override it.
        """
        totals = self.totals()
        return {p: 1 + sum(1 for q in self.players if totals[q] > totals[p]) for p in self.players}

    def describe_move(self, player: str, move: Move) -> str:
        """The move in words (for the viewer)."""
        fields = ", ".join(f"{k}={v}" for k, v in move.to_dict().items() if k != "type")
        return f"{player}: {move.type}" + (f" ({fields})" if fields else "")

    # ---- bookkeeping -----------------------------------------------------

    def is_over(self) -> bool:
        return self.turn() is OVER

    def totals(self) -> dict[str, int]:
        return {p: sum(cats.values()) for p, cats in self.score().items()}

    def apply_move(self, player: str, move: Move) -> None:
        """The checked path: right kind of event, right player, legal move.

        The game's fast path comes first (:meth:`_move_at_once`); what it leaves is checked
        here, one rule at a time, so that the error says what is wrong."""
        if self._move_at_once(player, move):
            return
        t = self.turn()
        if t is OVER:
            raise GameOverError(f"the game is over; {player} cannot play {move.type.replace('_', ' ')}")
        if isinstance(t, ChanceRequest):
            if self._move_before_chance(player, move):
                return
            raise MissingChance(
                f"{player} plays {move.type.replace('_', ' ')}, but the rules first await {t.describe()}"
            )
        if t != player:
            raise WrongPlayer(f"it is {t}'s turn, not {player}'s")
        self._play(player, move)

    def apply_chance(self, outcome: Outcome) -> None:
        """The checked path for a chance outcome.

        A ``reveal`` outcome may come at any point, even after the end (hands
        shown at the end of the game): the rules need not await it.  The game's
        fast path comes first (:meth:`_chance_at_once`).
        """
        if "reveal" in outcome:
            self._reveal_zone(str(outcome["reveal"]), list(outcome.get("items") or ()))
            return
        if self._chance_at_once(outcome):
            return
        t = self.turn()
        if t is OVER:
            raise GameOverError("the game is over; no more randomness is expected")
        if not isinstance(t, ChanceRequest):
            raise UnexpectedChance(f"no randomness is expected now: it is {t}'s turn to decide")
        check_outcome_form(t, outcome)
        self._reveal(t, outcome)

    def play(self, player: str, move: Move) -> None:
        """The trusted path (agents): ``move`` came from :meth:`legal_moves`."""
        self._play_legal(player, move)

    def reveal(self, outcome: Outcome) -> None:
        """The trusted path for a chance outcome (the simulator's own draws)."""
        if "reveal" in outcome:
            self._reveal_zone(str(outcome["reveal"]), list(outcome.get("items") or ()))
            return
        t = self.turn()
        assert isinstance(t, ChanceRequest)
        self._reveal(t, outcome)

    # ---- hooks of the public paths (a game's fast paths) -------------------

    def _move_at_once(self, player: str, move: Move) -> bool:
        """A game's fast path for the checked :meth:`apply_move`: apply ``move`` and return
        True when it is certainly legal (the usual case, told cheaply), or change nothing and
        return False, and the move goes the long way.  A game may also take here a move the
        rules allow whoever is to move.  The default: always the long way."""
        return False

    def _move_before_chance(self, player: str, move: Move) -> bool:
        """A move the rules take while they await randomness (Coal Baron: a player who leaves the
        table before their turn's refill is drawn): apply it and return True, or change nothing and
        return False (the move is then refused).  The default: none."""
        return False

    def _chance_at_once(self, outcome: Outcome) -> bool:
        """A game's fast path for the checked :meth:`apply_chance`, like :meth:`_move_at_once`
        (never given a ``reveal`` outcome).  The default: always the long way."""
        return False

    def _play_legal(self, player: str, move: Move) -> None:
        """The trusted :meth:`play`: ``move`` is one of :meth:`legal_moves` (the default checks
        it all the same, with :meth:`_play`)."""
        self._play(player, move)

    def legal_count(self) -> int:
        """How many legal moves the player to move has (0 while chance is awaited or after the end)."""
        if not isinstance(self.turn(), str):
            return 0
        return sum(1 for _ in self.legal_moves())

    def state_hash(self) -> str:
        """SHA-256 (first 16 hex digits) of the canonical JSON of :meth:`snapshot`."""
        blob = orjson.dumps(self.snapshot(), option=orjson.OPT_SORT_KEYS)
        return hashlib.sha256(blob).hexdigest()[:16]

    def observe(self, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """Observable facts, optionally only ``keys`` (cheap keys are computed lazily)."""
        wanted = None if keys is None else keys if isinstance(keys, (set, frozenset)) else set(keys)
        out: dict[str, Any] = {}
        if wanted is None or "score" in wanted:
            out["score"] = self.totals()
        if wanted is None or "legal_count" in wanted:
            out["legal_count"] = self.legal_count()
        if wanted is None or "state_hash" in wanted:
            out["state_hash"] = self.state_hash()
        if wanted is None:
            out.update(self.observables())
        elif len(wanted) > len(out):
            for k, v in self.observables_for(wanted).items():
                if k in wanted:
                    out[k] = v
        return out

    def observed(self, keys: Iterable[str]) -> dict[str, Any]:
        """The facts of ``keys`` for comparing with an ``observe`` event: like :meth:`observe`,
        but a game may hand out its own containers instead of copies, so the result must be
        neither kept nor changed (the replayer copies what it keeps).  A game may even hand out
        the very same object again, but only while none of its facts has changed: the replayer
        then reuses the JSON it made of it."""
        return self.observe(keys)

    def copy(self) -> State:
        """An independent copy (for agents' look-ahead and what-if analysis)."""
        return copy.deepcopy(self)

    def add_milestone(self, type_: str, **fields: Any) -> dict[str, Any]:
        m = milestone(type_, self.seq, **fields)
        self.milestones.append(m)
        return m

    def take(self, player: str, kind: str, component: str) -> None:
        """Note that ``player`` took ``component`` (its id in the title's data, of a kind listed in
        :attr:`taken_kinds`) at this step.

        Called by the rule that moves the component to the player, with what lay at the position
        the move named; a move that names its component (a card played by name) needs no note.
        """
        self.taken.append(Taken(self.seq, player, kind, component))

    def depart(self, rule: str, happened: str) -> None:
        """Note that BGA's rule ``rule`` changed what happens at this step.

        The caller has checked that the ruleset is ``bga`` and that the rulebook's
        branch gives something else here; ``happened`` says what each branch gives.
        """
        if rule not in self.departure_rules:
            raise UnknownDeparture(f"{self.game_id}: no departure called {rule!r}")
        self.departures.append({"seq": self.seq, "rule": rule, "happened": happened})


def check_outcome_form(req: ChanceRequest, outcome: Outcome) -> None:
    """Generic checks of a chance outcome against its request (shape, counts, pool).

    Games add their own checks in ``_reveal``; this catches the common
    mistakes with a clear message.
    """
    if req.kind == "draw":
        deck = outcome.get("draw")
        items = outcome.get("items")
        if deck is None or not isinstance(items, list):
            raise ImpossibleChance(f"expected a draw from the {req.name} deck, got {_short(outcome)}")
        if deck != req.name:
            raise ImpossibleChance(f"expected a draw from the {req.name} deck, not from {deck!r}")
        lo = req.count if req.min_count is None else req.min_count
        if not lo <= len(items) <= req.count:
            need = f"{req.count}" if lo == req.count else f"{lo} to {req.count}"
            raise ImpossibleChance(
                f"expected {need} item(s) from the {req.name} deck, got {len(items)}"
            )
        if req.pool:
            left = dict(req.pool)
            for it in items:
                if it is None:  # drawn face down: any item of the pool
                    continue
                key = it if not isinstance(it, list) else tuple(it)
                if left.get(key, 0) <= 0:
                    raise ImpossibleChance(
                        f"{it!r} cannot be drawn from the {req.name} deck: none left there"
                    )
                left[key] -= 1
    elif req.kind == "roll":
        dice = outcome.get("roll")
        if not isinstance(dice, list):
            raise ImpossibleChance(f"expected a roll of {req.count}d{req.sides}, got {_short(outcome)}")
        if len(dice) != req.count:
            raise ImpossibleChance(f"expected {req.count} dice, got {len(dice)}")
        for d in dice:
            if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= req.sides:
                raise ImpossibleChance(f"a d{req.sides} cannot show {d!r}")
    elif req.kind == "choose":
        if outcome.get("choose") != req.name or "value" not in outcome:
            raise ImpossibleChance(f"expected a random {req.name}, got {_short(outcome)}")
        if req.options and outcome["value"] not in req.options:
            raise ImpossibleChance(
                f"{outcome['value']!r} is not a possible {req.name} "
                f"(possible: {', '.join(map(str, req.options))})"
            )


def _short(obj: Any) -> str:
    text = orjson.dumps(obj).decode()
    return text if len(text) <= 80 else text[:77] + "..."


def pool_items(pool: Iterable[tuple[Any, int]]) -> Iterator[Any]:
    """Expand ``(item, copies)`` pairs into a flat sequence of items."""
    for item, n in pool:
        for _ in range(n):
            yield item


def with_names(text: str, names: Mapping[str, str]) -> str:
    """``text`` (an engine's words, :meth:`State.describe_move`) with every player id that stands alone
    replaced by the player's name (``names``: id -> name; ids without a name of their own are left as
    they are): a move names other players too (a Perikles nominee, a Pax Pamir tax's target)."""
    named = {i: n for i, n in names.items() if n and n != i}
    if not named:
        return text
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(named, key=len, reverse=True))
                         + r")(?![\w-])")
    return pattern.sub(lambda m: named[m.group(1)], text)
