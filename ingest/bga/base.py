"""The base every game's BGA importer plugs into.

A game importer is a :class:`GameImporter` subclass that reads like the log
it imports: a table ``handlers`` mapping each notification type to one small
function, and a set ``ignored`` of the types it deliberately skips::

    def purchase_card(imp: PaxImporter, n: Notif) -> None:
        row, col = cell(n.args["marketLocation"])
        imp.move(n.args["playerId"], "buy", row=row, col=col)

    class PaxImporter(GameImporter):
        game_id = "pax_pamir"
        signature = frozenset({"purchaseCard", "dominanceCheckScores", ...})
        handlers = {"purchaseCard": purchase_card, ...}
        ignored = frozenset({"shiftMarketMessage", ...})

The base drives everything else (see ``docs/bga-import.md``):

* the notifications come in log order, minus the ones the importer's undo
  hook (:meth:`GameImporter.cancelled`) says were undone;
* a type with no handler is ignored when it is in ``ignored`` or is a
  framework notification (:data:`FRAMEWORK_TYPES`); any other type stops the
  import (fail closed);
* handlers emit events through :meth:`move`, :meth:`chance` and
  :meth:`observe`; each is applied at once to a live engine state under the
  ``bga`` ruleset, so a log our rules cannot follow fails at the packet that
  caused it, with the engine's reason;
* every event carries ``src`` (packet id, and the notification's uid);
* the end-of-game state change (``gameStateChange`` id 99) gives the
  record's ``result``; a log without one (an abandoned table) imports as far
  as it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar, NoReturn

import msgspec

from ingest.bga.errors import BgaImportError
from ingest.bga.log import BgaLog, Notif
from replay.decisions import LEAVE_TABLE, TaskState
from replay.engine import OVER, ChanceRequest, Game, GamerecError, Move, RuleViolation, State
from replay.games import get_game
from replay.loop import Loop
from replay.record import ChanceEvent, Event, MoveEvent, ObserveEvent
from replay.replayer import Replaying

FRAMEWORK_TYPES = frozenset({
    "gameStateChange",
    "gameStateChangePrivateArg",
    "gameStateMultipleActiveUpdate",
    "updateReflexionTime",
    "simpleNode",
    "simpleNote",
    "wakeupPlayers",
    "gameResultNeutralized",  # a player left early: BGA will not count the result (no game facts)
    "allPlayersAreZombie",    # everyone left: the end of game follows
    "timeJokerUsed",          # a turn-based player takes holiday time (their clock only)
    "leaveGameState",         # the state machine leaves a state (no game facts)
})
"""Notifications BGA's framework sends for every game (state machine, clocks,
the "End of game" line).  They carry no game facts; an importer may still
handle one (``gameStateChange`` where state ids matter) by listing it in its
``handlers``."""

END_STATE_ID = 99
"""BGA's ``gameEnd`` state: its ``gameStateChange`` carries ``args.result``."""

Handler = Callable[[Any, Notif], None]


_SEQ = attrgetter("seq")
"""A notification's position in the log (a sort key)."""


_STRUCTS: dict[str, dict[str, type[Move]]] = {}
"""Game id -> its move types -> their structs."""


def _structs_of(game: Game) -> dict[str, type[Move]]:
    """A game's move types -> their structs."""
    got = _STRUCTS.get(game.id)
    if got is None:
        got = _STRUCTS[game.id] = {str(m.__struct_config__.tag): m for m in game.moves}
    return got


_UNASKED = object()
"""The engine's turn is not known since the last event (see :meth:`GameImporter.turn`)."""


def is_end_state(n: Notif) -> bool:
    """A ``gameStateChange`` to BGA's ``gameEnd`` (id 99); its args are decoded only if they may say so."""
    raw = n.raw_args
    if type(raw) is msgspec.Raw and b"99" not in bytes(raw):
        return False
    return isinstance(n.args, dict) and n.args.get("id") in (END_STATE_ID, str(END_STATE_ID))


@dataclass(slots=True)
class Mismatch:
    """A fact BGA announced that our rules do not reproduce (left for ``verify`` to report)."""

    notif: Notif
    key: str
    bga: Any
    ours: Any

    def __str__(self) -> str:
        return f"{self.notif.where()}: BGA says {self.key} is {self.bga!r}, our rules give {self.ours!r}"


class GameImporter:
    """One game's importer: the notification table, hooks, and the builder it drives.

    Subclasses set the class attributes and write one function per
    notification type.  Handlers call :meth:`move`, :meth:`chance` and
    :meth:`observe`; :attr:`state` is the live engine state (read it, never
    change it); :meth:`fail` refuses the log at the current notification.
    """

    game_id: ClassVar[str] = ""
    """Our game id (``pax_pamir``)."""
    bga_name: ClassVar[str] = ""
    """BGA's name of the game (``paxpamir``), as a table file's ``game`` gives it: what the title's
    ``Game`` declares, unless the subclass sets it (a test's toy title)."""
    signature: ClassVar[frozenset[str]] = frozenset()
    """Notification types that identify this title (no other supported title sends them)."""
    handlers: ClassVar[Mapping[str, Handler]] = {}
    ignored: ClassVar[frozenset[str]] = frozenset()
    """Types deliberately skipped (besides :data:`FRAMEWORK_TYPES`), each for a documented reason."""
    states: ClassVar[frozenset[int] | None] = None
    """With a ``gameStateChange`` handler: the state ids it reads (the others, most of a log, are
    not visited); ``None``: every state change."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.bga_name and cls.game_id:
            cls.bga_name = get_game(cls.game_id).bga_name

    def __init__(self, log: BgaLog, players: list[str], names: dict[str, str | None],
                 variant: Mapping[str, Any] | None = None) -> None:
        self.log = log
        self.variant: Mapping[str, Any] = variant or {}
        """The record options of one reading of the log (:meth:`variants`), added to :meth:`options`."""
        self.players = players
        """Our player ids (BGA's ids as strings), in seat order."""
        self.names = names
        self.game: Game = get_game(self.game_id)
        self._move_structs = _structs_of(self.game)
        self._bare_moves = self.game.bare_moves
        self.loop = Loop(self.game.initial_state(players, self.options()))
        """The replay loop the events are fed to as they are made (:meth:`_emit`, :meth:`observe`):
        it applies them to :attr:`state`.  :meth:`replay_into` gives it the observers of the
        record's replay, so that the import's own engine run is that replay (no second run)."""
        self.events: list[Event] = []
        self.mismatches: list[Mismatch] = []
        self.notes: list[str] = []
        """What the log leaves open and the record had to settle (said by ``gamerec import``)."""
        self.current: Notif | None = None
        self.ended: Notif | None = None
        """The end-of-game ``gameStateChange`` (id 99), once seen."""
        self.cancelled_uids: set[str] = set()
        """What :meth:`cancelled` gave (set before :meth:`prepare`)."""
        self._named: dict[str, set[str]] | None = None
        """Name -> the ids the log's notifications give beside it (read once, when first needed)."""
        self._turn: Any = _UNASKED
        self._src_of: Notif | None = None
        self._src_last: dict[str, Any] | None = None
        self.compare = True
        """Compare each of BGA's observations with our state as it is emitted (noting a
        :class:`Mismatch`).  Off when the record is replayed right after the import (``ingest``,
        ``verify``): the replay compares every observation at its event anyway."""
        self.replaying: Replaying | None = None
        """Set by :meth:`replay_into`: the record's replay, made as the events are fed."""
        self.conceded: str | None = None
        """The player BGA's ``playerConcedeGame`` names: the game ends there (:func:`player_concedes`)."""
        self.zombies: frozenset[str] = frozenset()
        """The players BGA's end of game marks as having left the table (``zombie`` in its result
        rows; set by :meth:`run`): the only ones :meth:`passed_over` may make leave."""
        self._silent_zombies = getattr(type(self.state), "player_left", TaskState.player_left) \
            is not TaskState.player_left
        """Whether the title's rules say what BGA's zombie does (:meth:`TaskState.player_left`): in the
        others, BGA's zombie acts through logged actions only, and nobody is made to leave."""

    @property
    def state(self) -> State:
        """The live engine state: the one the replay loop applies the events to (read it, never
        change it, except to set up a position before the first event, as a test does)."""
        return self.loop.state

    @state.setter
    def state(self, state: State) -> None:
        self.loop.state = state

    def replay_into(self, replaying: Replaying) -> None:
        """Before :meth:`run`: feed every event to ``replaying``'s loop (a replay over
        :attr:`state`, under the record's own ruleset), so that the import is the record's replay."""
        if replaying.loop.state is not self.state or self.events:
            raise ValueError("a replay of the import is set up on its state, before the first event")
        self.replaying = replaying
        self.loop = replaying.loop

    # ---- hooks a game may override ------------------------------------------

    def options(self) -> dict[str, Any]:
        """The record's ``options`` (``ruleset`` is always ``bga``)."""
        return {"ruleset": "bga"}

    @classmethod
    def seat_order(cls, log: BgaLog, players: list[str]) -> list[str]:
        """The players in turn order as the log shows it.

        Default: the order in which ``gameStateChange`` notifications first
        make each player active (single-active states), players never seen
        active keeping their listed order at the end.  A game whose log shows
        turn order otherwise overrides this.
        """
        order: list[str] = []
        for n in log.by_type().get("gameStateChange", ()):
            if not isinstance(n.args, dict):
                continue
            if n.args.get("type") != "activeplayer":
                continue
            pid = n.args.get("active_player")
            pid = None if pid is None else str(pid)
            if pid in players and pid not in order:
                order.append(pid)
                if len(order) == len(players):
                    break
        return order + [p for p in players if p not in order]

    @classmethod
    def variants(cls, log: BgaLog, players: list[str]) -> list[Mapping[str, Any]]:
        """The readings of the log to try in turn, each some options for the record (:attr:`variant`):
        the first whose import goes through is the record; when none does, the refusal of the one
        that came furthest into the log is the answer (the first's, at the same packet).  Default:
        the one reading.  A title overrides this where the log alone leaves a table option open
        that the rules depend on (the table file, when present, says it)."""
        return [{}]

    def cancelled(self) -> set[str]:
        """The uids of undone notifications (they produce no events). Default: none."""
        return set()

    def cleared_uids(self) -> set[str]:
        """Every uid a ``clearTurn`` lists: the undo of the games whose BGA code marks undone
        notifications that way (each ``clearTurn`` lists all those cancelled so far)."""
        out: set[str] = set()
        for n in self.log.by_type().get("clearTurn", ()):
            if isinstance(n.args, dict):
                out.update(str(u) for u in n.args.get("notifIds") or ())
        return out

    def prepare(self) -> None:
        """Called once before the first notification (pre-scans: hidden setups, undo)."""

    def finish(self) -> None:
        """Called once after the last notification (e.g. a game's own final observations)."""

    # ---- what handlers call -------------------------------------------------

    def move(self, player: Any, type_: str, /, **fields: Any) -> None:
        """Emit and apply a move of ``player`` (a BGA id, str or int)."""
        pid = player if type(player) is str else str(player)
        mv = self._move_of(type_, fields)
        if pid not in self.players:
            self.fail(f"player {pid} is not at this table")
        if self.zombies:  # (a move of one who left is what BGA's zombie logs: the rules check it)
            self.passed_over(pid)
            self._left_before_answer(pid, mv)
        self._emit(MoveEvent(pid, mv, self._src()))

    def _move_of(self, type_: str, fields: dict[str, Any]) -> Move:
        """The move ``type_`` with ``fields``, validated as a record's move is (``parse_move``:
        converted to the move's struct, strictly); a bad value is refused at this notification."""
        if not fields:  # a move of its type alone: the engine keeps one of each
            bare = self._bare_moves.get(type_)
            if bare is not None:
                return bare
        cls = self._move_structs.get(type_) if fields else None
        try:
            if cls is not None:  # straight to the struct: the type is known, no dict with it is built
                return msgspec.convert(fields, type=cls, strict=True)
            return self.game.parse_move({"type": type_, **fields})
        except Exception as exc:  # msgspec.ValidationError: the importer built a bad move
            self.fail(f"cannot build a {type_!r} move from it ({exc})")

    def chance(self, outcome: dict[str, Any]) -> None:
        """Emit and apply a chance outcome (what BGA revealed)."""
        if self.zombies and "reveal" not in outcome:  # (a reveal may come at any time)
            self.passed_over(None)
        self._emit(ChanceEvent(outcome, self._src()))

    def passed_over(self, acting: str | None) -> None:
        """A player who left the table (BGA's zombie) leaves in the record where BGA passes over them.

        BGA's framework plays a zombie's turns by the title's zombie rule; in Copenhagen and Coal
        Baron that is a pass that leaves no notification, in Pax Pamir a skipped discard (its other
        answers are logged, and played as their moves).  So when BGA goes on (a move of
        ``acting``, or randomness when ``acting`` is ``None``) while our rules await a decision of
        a player its end of game marks as a zombie, that player left here: a ``leave_table`` move
        of theirs comes first (the rules then end their turn as BGA's zombie does, and pass over
        them from then on).  A player not so marked is never made to leave: our rules refuse what
        comes instead.  The end of game is the evidence, so a log without one cannot have a player
        leave.  :meth:`move` and :meth:`chance` call it; a handler that asks what our rules await
        before BGA's randomness (:meth:`awaits_chance`) calls it first."""
        if not self._silent_zombies:
            return
        t = self.turn()
        while type(t) is str and t != acting and t in self.zombies and t not in getattr(self.state, "left", ()):
            self.leave_table(t)
            t = self.turn()

    def left_here(self, pid: str, mv: Move) -> bool:
        """Make ``pid`` leave the table here if BGA's zombie explains ``mv``: the end of game marks
        them a zombie, they have not left yet, our rules await their decision and refuse ``mv``
        there.  Then they left at that decision, which BGA's zombie took in silence (a Pax Pamir spy
        or road skipped); the title's zombie rule judges the step (:meth:`TaskState.player_left`).
        Whether they left."""
        state = self.state
        if pid not in self.zombies or not isinstance(state, TaskState) or pid in state.left \
                or self.turn() != pid or not state.refuses(pid, mv):
            return False
        self.leave_table(pid)
        return True

    def _left_before_answer(self, pid: str, mv: Move) -> None:
        """A zombie's logged answer (a Pax Pamir ``pass``) while our rules still await another
        decision of that player: they left at that decision (:meth:`left_here`)."""
        state = self.state
        if isinstance(state, TaskState) and any(mv == a for a in state.logged_answers()):  # (a move may not hash)
            self.left_here(pid, mv)

    def leave_table(self, player: str) -> None:
        """``player``, whom the end of game marks as a zombie, leaves the table here."""
        self._emit(MoveEvent(player, LEAVE_TABLE, self._src()))

    def _emit(self, event: MoveEvent | ChanceEvent) -> None:
        """Feed a move or chance outcome to the replay loop (:attr:`loop`), which applies it; then
        it joins the record.  One the rules refuse refuses the log here."""
        if self.conceded is not None:
            self.fail(f"the game goes on after {self.conceded} conceded it")
        self._turn = _UNASKED
        try:
            self.loop.feed(event)
        except RuleViolation as exc:
            self.fail(f"our rules cannot follow it: {exc}")
        self.events.append(event)

    def observe(self, facts: dict[str, Any]) -> None:
        """Emit BGA's claim about the state here (``origin: "bga"``).

        It is not enforced: a fact our rules do not reproduce is noted as a
        :class:`Mismatch` and stays in the record, where ``verify`` reports
        it as an ``observation_mismatch`` at this event.  (With
        :attr:`compare` off, only the replay compares it.)
        """
        if self.compare:
            ours = self.state.observe(facts.keys())
            for key, bga_v in _flatten("", facts):
                our_v = _lookup(ours, key)
                if bga_v != our_v:
                    assert self.current is not None
                    self.mismatches.append(Mismatch(self.current, key, bga_v, our_v))
        event = ObserveEvent(facts, "bga", self._src())
        self.loop.feed(event)
        self.events.append(event)

    def player_by_name(self, name: Any) -> str | None:
        """The one player a notification names only by name, else ``None``.

        The table's names (table file, envelope) are the players' names today; the log's are the
        names of the day, which a player may have changed since.  So a name the table does not
        know is looked up in the notifications that give it beside a player id."""
        text = str(name)
        who = [p for p in self.players if self.names.get(p) == text]
        if not who:
            if self._named is None:
                self._named = {}
                for pid, said in self.log.names_given():
                    if pid in self.players:
                        self._named.setdefault(said, set()).add(pid)
            who = sorted(self._named.get(text, ()))
        return who[0] if len(who) == 1 else None

    def fail(self, reason: str) -> NoReturn:
        """Refuse the log at the current notification."""
        n = self.current
        raise BgaImportError(reason, file=self.log.source, packet=n.packet_id if n else None,
                             notif=n.type if n else None, uid=n.uid if n else None)

    def turn(self) -> Any:
        """Whose turn the engine says it is (a player id, a :class:`ChanceRequest` or ``OVER``).

        Asked once per event: the state changes only when an event is applied, and working out
        a chance request can cost the engine something (what a part-known deck may still hold).
        """
        t = self._turn
        if t is _UNASKED:
            t = self._turn = self.state.turn()
        return t

    def awaits_chance(self) -> ChanceRequest | None:
        t = self.turn()
        return t if isinstance(t, ChanceRequest) else None

    def is_over(self) -> bool:
        return self.turn() is OVER

    # ---- the driver -----------------------------------------------------------

    def run(self) -> None:
        """Feed every notification to its handler, in log order."""
        self.current = None
        cancelled = self.cancelled_uids = self._guard(self.cancelled)
        self.zombies = self._zombies(self._end_state(cancelled))
        self._guard(self.prepare)
        handlers = {**FRAMEWORK_HANDLERS, **self.handlers}
        skip = self.ignored | FRAMEWORK_TYPES
        by_type = self.log.by_type()
        unknown = [by_type[t][0] for t in by_type if t not in handlers and t not in skip]
        stop = min(unknown, key=lambda n: n.seq) if unknown else None
        # only the handled notifications are visited, in log order (framework ones are most of a log)
        visited = self._visited(by_type, handlers)
        if stop is not None:
            visited = [n for n in visited if n.seq <= stop.seq]
        with self._refused_here():  # what a handler raises becomes a refusal at its notification
            for n in visited:
                if cancelled and n.uid in cancelled:
                    continue
                self.current = n
                handlers[n.type](self, n)
        if stop is not None:
            self.current = stop
            self.fail(f"unknown notification type {stop.type!r} for {self.game.title}: "
                      "the importer cannot map it, so it stops here rather than guess")
        self.ended = self._end_state(cancelled)
        self.current = self.ended
        if self.conceded is not None and (self.result() or {}).get("end") != "concede":
            self.fail(f"BGA says {self.conceded} conceded the game, but its end of game does not")
        self._guard(self.finish)

    def _zombies(self, end: Notif | None) -> frozenset[str]:
        """The players the end of game's result rows mark ``zombie`` (none without an end)."""
        rows = _result_rows(end) if end is not None else None
        return frozenset(str(r.get("player")) for r in rows or ()
                         if isinstance(r, dict) and _truthy(r.get("zombie")) and str(r.get("player")) in self.players)

    def _visited(self, by_type: dict[str, list[Notif]], handlers: Mapping[str, Handler]) -> list[Notif]:
        """The notifications of handled types, in log order (state changes only to :attr:`states`)."""
        states = self.states
        if states is None or "gameStateChange" not in handlers:
            return self.log.of_types(t for t in by_type if t in handlers)
        picked = [n for t in by_type if t in handlers and t != "gameStateChange" for n in by_type[t]]
        picked += self.log.state_changes(states)
        picked.sort(key=_SEQ)
        return picked

    def _end_state(self, cancelled: set[str]) -> Notif | None:
        """BGA's end of game: a ``gameStateChange`` to id 99 after the log's last game notification."""
        handlers, skip = self.handlers, FRAMEWORK_TYPES | self.ignored  # (the framework's handled types are not skipped)
        for n in reversed(self.log.notifs):
            if n.type == "gameStateChange" and n.uid not in cancelled and is_end_state(n):
                return n
            if n.type in handlers or n.type not in skip:
                return None
        return None

    @contextmanager
    def _refused_here(self) -> Iterator[None]:
        """Handlers or hooks at work: what they raise becomes a refusal at the current notification
        (if any), never a traceback."""
        try:
            yield
        except BgaImportError:
            raise
        except RuleViolation as exc:
            self.fail(f"our rules cannot follow it: {exc}")
        except GamerecError as exc:
            self.fail(str(exc))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            self.fail(f"unexpected arguments ({type(exc).__name__}: {exc})")

    def _guard(self, step: Callable[[], Any]) -> Any:
        """A hook at work (undo, the pre-scans, the end), refused like a handler."""
        with self._refused_here():
            return step()

    def _src(self) -> dict[str, Any] | None:
        """The events' ``src`` for the current notification (one dict for all its events; never changed)."""
        n = self.current
        if n is self._src_of:
            return self._src_last
        self._src_of, self._src_last = n, None if n is None else {"src": n.src()}
        return self._src_last

    # ---- the end ---------------------------------------------------------------

    def result(self) -> dict[str, Any] | None:
        """The record's ``result`` from the end-of-game packet (``None`` for an abandoned table)."""
        if self.ended is None:
            return None
        args = self.ended.args.get("args") if isinstance(self.ended.args, dict) else None
        rows = _result_rows(self.ended)
        if rows is None:
            return {"end": "normal"}
        score: dict[str, int] = {}
        rank: dict[str, int] = {}
        end = "normal"
        for row in rows:
            if not isinstance(row, dict):
                continue
            pid = str(row.get("player"))
            if pid not in self.players:
                continue
            s, r = self._result_number(row, "score"), self._result_number(row, "rank")
            if s is not None:
                score[pid] = s
            if r is not None:
                rank[pid] = r
            if _truthy(row.get("concede")):
                end = "concede"
            elif _truthy(row.get("zombie")) and end == "normal":
                end = "zombie"
        table = args.get("table") if isinstance(args, dict) else None
        if isinstance(table, dict) and _truthy(table.get("concede")):
            end = "concede"
        out: dict[str, Any] = {}
        if score:
            out["score"] = score
        if rank:
            out["rank"] = rank
        out["end"] = end
        return out

    def _result_number(self, row: dict[str, Any], key: str) -> int | None:
        """A player's final ``score`` or ``rank`` in the end-of-game packet: ``None`` when BGA gives
        none (empty); anything else that is not a whole number refuses the log there."""
        v = row.get(key)
        if v is None or v == "":
            return None
        number = _as_int(v)
        if number is None:
            self.current = self.ended
            self.fail(f"BGA's final {key} of player {row.get('player')} is {v!r}, not a whole number")
        return number


# ---- what BGA's framework sends for every game, and the importers read ----------------------


def player_concedes(imp: GameImporter, n: Notif) -> None:
    """``playerConcedeGame``: the player BGA names conceded, and the game ends here; its end of game
    (state 99) must say so (a conceded game replays as far as it went: ``incomplete``).  Real logs
    give ``player_id`` beside ``player_name``: the id, where it is a seated player's, else the name
    (the name a log gives is that day's, which a table file's may not be)."""
    a = n.args if isinstance(n.args, dict) else {}
    pid, name = a.get("player_id"), a.get("player_name")
    who = str(pid) if pid is not None and str(pid) in imp.players else None
    if who is None and name is not None:
        who = imp.player_by_name(name)
    if who is None:
        said = repr(name) if pid is None else f"player {pid} ({name!r})"
        imp.fail(f"BGA says {said} conceded the game, and no one player of this table is so named")
    imp.conceded = who


def turn_skipped(imp: GameImporter, n: Notif) -> None:
    """``skipTurnOfPlayer``: the player ran out of time, and BGA's framework played their turn by the
    title's zombie rule.  Our rules know that rule only for a player who left for good (the end of
    game marks them ``zombie``), who leaves where BGA first passes over them
    (:meth:`GameImporter.passed_over`); a skipped turn of one who played on is refused."""
    pid = str(n.args["player_id"])
    if pid not in imp.players:
        imp.fail(f"BGA skips the turn of {pid}, who is not at this table")
    if pid not in imp.zombies:
        imp.fail(f"BGA skipped {pid}'s turn (out of time), and {pid} played on to the end: a turn played by "
                 "BGA's zombie rule for a player who stays is not known to our rules")


def zombie_back(imp: GameImporter, n: Notif) -> None:
    """``zombieBack``: a player who had left came back to the table.  Our rules know no player who
    returns (``leave_table`` is for good), so the log is refused here."""
    imp.fail(f"{n.args.get('player_id')} came back to the table after leaving it: our rules know no player "
             "who returns")


FRAMEWORK_HANDLERS: dict[str, Handler] = {
    "playerConcedeGame": player_concedes,
    "skipTurnOfPlayer": turn_skipped,
    "zombieBack": zombie_back,
}
"""BGA's framework notifications every importer reads (a title's own handlers come first)."""


def _result_rows(end: Notif) -> list[Any] | None:
    """The per-player rows of an end-of-game state change (``args.args.result``), if it has them."""
    args = end.args.get("args") if isinstance(end.args, dict) else None
    rows = args.get("result") if isinstance(args, dict) else None
    return rows if isinstance(rows, list) else None


def _as_int(v: Any) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            return None
    return None


def _truthy(v: Any) -> bool:
    return v not in (None, False, 0, "0", "", "false")


def _flatten(prefix: str, value: Any) -> Iterable[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(f"{prefix}.{k}" if prefix else str(k), v)
    else:
        yield prefix, value


def _lookup(value: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value
