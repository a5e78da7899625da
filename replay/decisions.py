"""The task stack: one way for every game to say what the rules are waiting for.

A game in progress is always waiting for something: a player's decision, a
card to come off the deck, or nothing at all (the rules simply carry on).
This module, ``replay.decisions``, gives every title one mechanism for it.

The state keeps a **stack of tasks** (:attr:`TaskState.stack`).  The task on
top is the one the game is waiting for.  A task is one of three kinds:

* a **decision** (``decision = True``): ``player`` chooses one move.  The task
  lists its *candidates* (:meth:`Task.candidates`: every move that might be
  legal, a superset of the legal ones), *checks* one (:meth:`Task.check`:
  ``None`` when the move is legal, otherwise the reason in words a player
  would understand) and *applies* a checked move (:meth:`Task.apply`);
* a **chance** step (``decision = False`` and :meth:`Task.request` gives a
  :class:`~replay.engine.ChanceRequest`): the rules wait for randomness, and
  :meth:`Task.reveal` applies the outcome;
* an **automatic** step (``decision = False`` and no request): the rules do it
  at once (:meth:`Task.run`), with nobody to ask.

A task changes the stack itself: it pops itself when it is done
(:meth:`TaskState.pop`) and pushes the steps that follow
(:meth:`TaskState.push`; the last pushed is done first).  After every event
the state runs the automatic steps and closes the decisions that have nothing
left to decide (:meth:`TaskState.advance`) until it waits again.

:class:`TaskState` is the base a title's state derives from.  It implements
the protocol of :class:`~replay.engine.State` from the stack:

* ``turn()``: the player of the top decision, or the top chance step's request;
* ``legal_moves()``: exactly the candidates that pass the check, in the
  candidates' order;
* ``_play()``: the move is of a type the task accepts, then the check, then
  ``apply``; an :class:`~replay.engine.IllegalMove` carries the check's reason;
* ``_reveal()``: the top task's ``reveal``.

So the moves a game lists and the moves it accepts cannot drift apart: both
come from the same check.  A game writes its tasks (one class per point where
the rules wait, named from the rulebook) and the rules they call; the core
drives them.

A title's tasks derive from ``Task[TheirState]``, so that their methods are
typed with the title's state::

    @dataclass(slots=True)
    class ChooseLoyalty(Task["PaxState"]):
        accepts = (ChooseLoyaltyMove,)
        ...

A task is a slotted dataclass: its fields are what the step remembers (which
card, how many left), and a snapshot may show them (:func:`task_view`).

Most decisions have one shape: list the moves of a type the rules module
offers, check one with the module's check, carry it out with the module's
rule, then say what follows.  A :class:`DeclaredDecision` says that once, as
data: its ``choices``, one :func:`choice` per move type (options, check,
rule, then what follows), from which the core derives ``accepts``,
``candidates``, ``check`` and ``apply``::

    @dataclass(slots=True)
    class TakeATile(InfluenceStep, Decision):
        awaiting = "take an influence tile"
        choices = (choice(TakeTile, take_tile_options, take_tile_check, take_tile,
                          then=cubes_and_symbol),
                   ...)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any, ClassVar, Generic, TypeVar

from replay.engine import OVER, ChanceRequest, IllegalMove, Move, Outcome, State, Turn, check_outcome_form


class LeaveTable(Move, tag="leave_table", frozen=True):
    """The player to move has left the table for good: Board Game Arena made them a *zombie*,
    whose turns its framework plays from then on by the title's own zombie rule (most often: pass).

    A record has it only under the ``bga`` ruleset (the rulebook knows no player who leaves), in a
    title that says what BGA's zombie does (:meth:`TaskState.player_left`).  It is no choice within
    the game, so ``legal_moves()`` never lists it and agents never play it."""

    doing: ClassVar[str] = "leave the table"
    """The move as the verb phrase a refusal uses."""

    @staticmethod
    def describe(player: str) -> str:
        return f"{player} leaves the table: Board Game Arena plays their turns from now on (a zombie)"


LEAVE_TABLE = LeaveTable()

S = TypeVar("S", bound="TaskState[Any]")
T = TypeVar("T", bound="Task[Any]")


@dataclass(slots=True)
class Task(Generic[S]):
    """One point where the rules wait (or one step they take by themselves).

    Class attributes say what kind of step it is:

    * ``decision`` — whether ``player`` decides (the default) or not;
    * ``accepts`` — the move types the decision takes (any other type is
      refused before the check, with :attr:`awaiting` in the message);
    * ``awaiting`` — what the decision is, in words ("choice of a starting
      loyalty"), for messages;
    * ``awaits_chance`` — set by the class itself: whether it defines
      :meth:`request`;
    * ``reveals_at_once`` — set by the class itself: whether it defines
      :meth:`outcome_at_once`;
    * ``may_close`` — set by the class itself: whether it defines :meth:`is_open`
      (a decision that does not is open until its move);
    * ``accepted`` — set by the class itself: the types of :attr:`accepts` as a set,
      the fast test of a move's type (``isinstance`` against a tuple of move types
      costs a call per type that does not match).
    """

    player: str
    decision: ClassVar[bool] = True
    accepts: ClassVar[tuple[type[Move], ...]] = ()
    awaiting: ClassVar[str] = ""
    awaits_chance: ClassVar[bool] = False
    reveals_at_once: ClassVar[bool] = False
    may_close: ClassVar[bool] = False
    accepted: ClassVar[frozenset[type[Move]]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # (not ``super()``: the slotted dataclass is a new class, the one the name now holds)
        super(Task, cls).__init_subclass__(**kwargs)
        cls.awaits_chance = cls.request is not Task.request
        cls.reveals_at_once = cls.outcome_at_once is not Task.outcome_at_once
        cls.may_close = cls.is_open is not Task.is_open
        cls.accepted = frozenset(cls.accepts)

    # ---- a decision

    def is_open(self, s: S) -> bool:
        """False when the decision has nothing left to decide: it then closes by itself
        (:meth:`TaskState.advance` pops it and calls :meth:`close`)."""
        return True

    def close(self, s: S) -> None:
        """What happens when the decision is over and closed by itself."""

    def candidates(self, s: S) -> Iterable[Move]:
        """Every move that might be legal, in a fixed order (the legal moves keep it)."""
        return ()

    def check(self, s: S, player: str, move: Move) -> str | None:
        """``None`` when ``move`` (of a type in :attr:`accepts`) is legal now; otherwise why
        not, in words.  Changes nothing."""
        return None

    def apply(self, s: S, player: str, move: Move) -> None:
        """Apply a checked move (every decision overrides this)."""

    def describe(self) -> str:
        """What the decision waits for, in words."""
        return self.awaiting

    def refuse(self, s: S, player: str, move: Move) -> str:
        """Why ``move``, of a type the decision does not accept, is refused, in words (a title may
        word it its own way)."""
        return (f"{player} cannot {move.type.replace('_', ' ')} now: the rules await "
                f"{player}'s {self.describe()}")

    # ---- an automatic step

    def run(self, s: S) -> None:
        """Do the step; it pops itself or replaces itself with what follows."""

    # ---- a chance step

    def request(self, s: S) -> ChanceRequest | None:
        """The randomness awaited now, or ``None`` when the step has nothing to draw (it then
        runs as an automatic step)."""
        return None

    def awaits(self, s: S) -> bool:
        """Whether the step awaits randomness now.  A task whose request is costly to make
        (a pool of every card the deck could give) answers without making it."""
        return self.request(s) is not None

    def reveal(self, s: S, req: ChanceRequest, outcome: Outcome) -> None:
        """Apply a chance outcome (already checked against ``req``)."""

    def outcome_at_once(self, s: S, outcome: Outcome) -> ChanceRequest | None:
        """The fast path of a chance step: when ``outcome`` is certainly possible, told
        without making the request, the request to hand :meth:`reveal`; otherwise ``None``,
        and the outcome goes the checked way (the request is made and the outcome checked
        against it)."""
        return None


class TaskState(State, Generic[T]):
    """A state whose rules wait on a stack of tasks of type ``T`` (see the module's text).

    A title names its own task base: ``class PaxState(TaskState[Task])``.

    A subclass sets up its first tasks in ``__init__`` (push them, then call
    :meth:`advance`) and sets :attr:`over` when the game ends.  Two hooks let it
    take a faster way without leaving the protocol: :meth:`apply_decision` and
    :meth:`apply_outcome` (the state after the event must be the one the plain
    way gives).
    """

    _plain_decisions: ClassVar[bool] = True
    """Set by the class itself: whether it keeps :meth:`apply_decision` as it is (a move is then
    applied without the hook's call)."""
    _plain_outcomes: ClassVar[bool] = True
    """The same for :meth:`apply_outcome`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._plain_decisions = cls.apply_decision is TaskState.apply_decision
        cls._plain_outcomes = cls.apply_outcome is TaskState.apply_outcome

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.stack: list[T] = []
        """The pending steps; the top one (the last) is what the game waits for."""
        self.over: bool = False
        """Set by the rule that ends the game."""
        self.left: tuple[str, ...] = ()
        """The players who left the table (:class:`LeaveTable`), in the order they left."""

    # ---- the protocol, from the stack

    def turn(self) -> Turn:
        if self.over:
            return OVER
        t = self.stack[-1]
        if t.decision:
            return t.player
        req = t.request(self)
        assert req is not None, "advance() leaves a chance step on top only when it awaits randomness"
        return req

    def legal_moves(self) -> Iterator[Move]:
        if self.over:
            return iter(())
        t = self.stack[-1]
        if not t.decision:
            return iter(())
        player = t.player
        if self.left and player in self.left:  # only what BGA's zombie logs here
            answer = self.answer_for_left(t)
            return iter(() if answer is None else (answer,))
        return (m for m in t.candidates(self) if t.check(self, player, m) is None)

    def _play(self, player: str, move: Move) -> None:
        t = self.stack[-1]
        if self.left and player in self.left:
            self._zombie_answer(t, player, move)
        if type(move) not in t.accepted and not isinstance(move, t.accepts):
            if type(move) is LeaveTable:
                self._leave_table(t, player)
                return
            raise IllegalMove(t.refuse(self, player, move))
        reason = t.check(self, player, move)
        if reason is not None:
            raise IllegalMove(reason)
        self.apply_decision(t, player, move)

    def _play_legal(self, player: str, move: Move) -> None:
        self._decide(self.stack[-1], player, move)

    def _decide(self, t: T, player: str, move: Move) -> None:
        """Apply a checked or trusted move: :meth:`apply_decision`, or, when the title keeps that
        hook as it is, its work without its call and without :meth:`advance`'s when an open
        decision is next (the usual case: advance would return at once)."""
        if not self._plain_decisions:
            self.apply_decision(t, player, move)
            return
        t.apply(self, player, move)
        if not self.over:
            top = self.stack[-1]
            if not top.decision or top.may_close or self.left:
                self.advance()

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        self.apply_outcome(self.stack[-1], request, outcome)

    def _move_at_once(self, player: str, move: Move) -> bool:
        """The usual case of the checked path: the top task is a decision of ``player`` that
        accepts the move and whose check passes (anything else goes the long way, which says
        what is wrong)."""
        if self.over or (self.left and player in self.left):
            return False
        t = self.stack[-1]
        if t.decision and t.player == player and (type(move) in t.accepted or isinstance(move, t.accepts)) \
                and t.check(self, player, move) is None:
            self._decide(t, player, move)
            return True
        return False

    def _chance_at_once(self, outcome: Outcome) -> bool:
        """The usual case of the checked path for chance: a chance step is on top.  Its fast path
        (:meth:`Task.outcome_at_once`) when it has one; otherwise its request, the outcome checked
        against it (:func:`~replay.engine.check_outcome_form`, as the long way does) and revealed.
        Anything else goes the long way, which says what is wrong."""
        if self.over:
            return False
        t = self.stack[-1]
        if t.decision:
            return False
        req = t.outcome_at_once(self, outcome) if t.reveals_at_once else None
        if req is None:
            req = t.request(self)
            assert req is not None, "advance() leaves a chance step on top only when it awaits randomness"
            check_outcome_form(req, outcome)
        if self._plain_outcomes:  # (as :meth:`_decide` does for a move)
            t.reveal(self, req, outcome)
            if not self.over:
                top = self.stack[-1]
                if not top.decision or top.may_close or self.left:
                    self.advance()
        else:
            self.apply_outcome(t, req, outcome)
        return True

    def _zombie_answer(self, t: T, player: str, move: Move) -> None:
        """Refuse a move of ``player``, who left the table, other than BGA's zombie's answer to
        ``t`` (:meth:`answer_for_left`)."""
        answer = self.answer_for_left(t)
        if move != answer:
            raise IllegalMove(f"{player} left the table: Board Game Arena's zombie plays for them, and "
                              + (f"it answers the {t.describe()} with {answer.type.replace('_', ' ')}"
                                 if answer is not None else f"it makes no move at the {t.describe()}"))

    def _leave_table(self, t: T, player: str) -> None:
        """:class:`LeaveTable`: ``player``, whose decision ``t`` is, leaves for good; the title ends
        what they were doing as BGA's zombie does (:meth:`player_left`), then the rules go on."""
        if self.ruleset != "bga":
            raise IllegalMove(f"{player} cannot leave the table: only Board Game Arena's ruleset (bga) "
                              "knows a player who left (a zombie)")
        self.left = (*self.left, player)
        try:
            self.player_left(t, player)
        except IllegalMove:
            self.left = self.left[:-1]
            raise
        self.advance()

    # ---- hooks

    def player_left(self, task: T, player: str) -> None:
        """``player`` has just joined :attr:`left` at their decision ``task``: end it as BGA's
        zombie does; from then on they decide nothing but what BGA's zombie logs
        (:meth:`answer_for_left`).  Raise :class:`IllegalMove`, changing
        nothing, where BGA's zombie rule is not known.  Default: a title without the rule."""
        raise IllegalMove(f"{player} left the table (a zombie), and our rules do not know how Board Game "
                          f"Arena plays {self.game_id}'s zombies")

    def decide_for_left(self, task: T) -> bool:
        """``task``, a decision of a player who left the table, has come up: take it as BGA's zombie
        does (or drop it), so that the rules go on, and say so (``True``).  Only a title whose
        zombie still has decisions brought to it says how (Pax Pamir); by default the rules await
        the player (``False``), as where a title passes over such players it never comes to it."""
        return False

    def refuses(self, player: str, move: Move) -> bool:
        """Whether the rules would refuse ``move`` of ``player`` now (checked without playing it):
        the decision on top is not theirs, does not take that kind of move, or its check fails."""
        if self.over or (self.left and player in self.left):
            return True
        t = self.stack[-1]
        if not t.decision or t.player != player or (type(move) not in t.accepted and not isinstance(move, t.accepts)):
            return True
        return t.check(self, player, move) is not None

    def logged_answers(self) -> tuple[Move, ...]:
        """Every move :meth:`answer_for_left` may name: what BGA's zombie logs in this title (none
        by default)."""
        return ()

    def answer_for_left(self, task: T) -> Move | None:
        """The move BGA's zombie makes, and logs, at ``task``, a decision of a player who left the
        table: the rules await it as that player's one legal move, so the record holds it where
        the log shows it.  ``None`` (the default) where BGA's zombie leaves no trace: there
        :meth:`decide_for_left` takes the step, or the title never comes to such a player."""
        return None

    def apply_decision(self, task: T, player: str, move: Move) -> None:
        """Apply a checked (or trusted) move to the decision on top, then run the rules until
        they wait.  A game may override it to note the change or take a shortcut that ends
        in the same state."""
        task.apply(self, player, move)
        self.advance()

    def apply_outcome(self, task: T, request: ChanceRequest, outcome: Outcome) -> None:
        """Apply a checked chance outcome to the chance step on top, then run the rules until
        they wait (a game may override it like :meth:`apply_decision`)."""
        task.reveal(self, request, outcome)
        self.advance()

    # ---- driving the stack

    def advance(self) -> None:
        """Run automatic steps and close finished decisions until the game waits (a decision
        that is open, a chance step that awaits randomness) or is over."""
        stack = self.stack
        try:
            while not self.over:
                t = stack[-1]
                if t.decision:
                    if not t.may_close or t.is_open(self):
                        if not self.left or t.player not in self.left or not self.decide_for_left(t):
                            return
                        continue
                    stack.pop()
                    t.close(self)
                elif t.awaits_chance and t.awaits(self):
                    return
                else:
                    t.run(self)
        except IndexError:
            if stack:  # raised by a rule, not by an empty stack
                raise
            raise RuntimeError("engine bug: the rules have nothing left to do but the game is not over") from None

    def push(self, task: T) -> None:
        """``task`` is done next (before everything already on the stack)."""
        self.stack.append(task)

    def pop(self, task: T) -> None:
        """Remove ``task`` (normally the top one) from the stack."""
        stack = self.stack
        if stack and stack[-1] is task:
            stack.pop()
            return
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is task:
                del stack[i]
                return

    def copied_stack(self) -> list[T]:
        """The stack with every task copied (for :meth:`State.copy`)."""
        return [clone_task(t) for t in self.stack]


def clone_task(t: T) -> T:
    """A copy of ``t`` that shares nothing it may change (its lists are copied)."""
    cls = type(t)
    plan = _CLONING.get(cls)
    if plan is None:
        plan = _CLONING[cls] = _cloning(cls)
    slots, fields = plan
    new = object.__new__(cls)
    for name in slots:
        try:
            v = getattr(t, name)
        except AttributeError:  # a slot never set
            continue
        object.__setattr__(new, name, list(v) if name in fields and isinstance(v, list) else v)
    if hasattr(t, "__dict__"):
        for name, v in t.__dict__.items():
            new.__dict__[name] = list(v) if name in fields and isinstance(v, list) else v
    return new


_CLONING: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def _cloning(cls: type) -> tuple[tuple[str, ...], frozenset[str]]:
    """What :func:`clone_task` copies of a task class: every slot of its classes, and which of
    its attributes are dataclass fields (a list there is copied, not shared)."""
    slots: dict[str, None] = {}
    for k in reversed(cls.__mro__):
        declared = k.__dict__.get("__slots__", ())
        for name in (declared,) if isinstance(declared, str) else declared:
            if name not in ("__dict__", "__weakref__"):
                slots[name] = None
    return tuple(slots), frozenset(_field_names(cls))


_FIELDS: dict[type, tuple[str, ...]] = {}
_SHOWN: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def task_view(t: Task[Any]) -> dict[str, Any]:
    """A task as a snapshot shows it: ``{"task": <class name>, <field>: <value>...}`` for every
    field not starting with ``_`` (a pending :class:`ChanceRequest` is left out: the state shows
    what it is drawn from; a move is shown as its record object, a tuple as a list)."""
    out: dict[str, Any] = {"task": type(t).__name__}
    names = _SHOWN.get(type(t))
    if names is None:
        names = _SHOWN[type(t)] = tuple(n for n in _field_names(type(t)) if not n.startswith("_"))
    for name in names:
        v = getattr(t, name)
        if isinstance(v, ChanceRequest):
            continue
        out[name] = list(v) if isinstance(v, tuple) else (v.to_dict() if isinstance(v, Move) else v)
    return out


# ---- a declared decision ------------------------------------------------------------------------

M = TypeVar("M", bound=Move)
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Choice:
    """One kind of move a declared decision offers, said once as the rulebook says it: the move
    type and the three functions of the title's rules that make it, then what follows.  Made by
    :func:`choice`, which checks that the functions agree.

    * ``move`` — the move type (the decision :attr:`~Task.accepts` it);
    * ``options`` — ``options(s, player)``: the moves of that type that might be legal, in a
      fixed order (:func:`only` makes the options of a move that takes no argument);
    * ``check`` — ``check(s, player, move)``: ``None`` when legal, else why not, in words;
      ``None`` (no function) when every listed move is legal;
    * ``rule`` — ``rule(s, player, move)``: the rule the move carries out; what it returns is
      handed to ``then``; ``None`` when the move itself changes nothing (ending a turn);
    * ``ends`` — whether the decision is over once the rule is done (the core pops it, before
      ``then``); ``False`` keeps it open for another move (a special tile played first);
    * ``then`` — ``then(task, s, player, result)``: what follows — the steps it pushes (after
      the pop, so they are done first), the next player...  A method of the task serves
      (its first parameter is the task)."""

    move: type[Move]
    options: Callable[[Any, str], Iterable[Move]]
    check: Callable[[Any, str, Any], str | None] | None
    rule: Callable[[Any, str, Any], Any] | None
    ends: bool
    then: Callable[[Any, Any, str, Any], None] | None


def choice(move: type[M], options: Callable[[S, str], Iterable[M]],
           check: Callable[[S, str, M], str | None] | None = None,
           rule: Callable[[S, str, M], R] | None = None, *,
           ends: bool = True, then: Callable[[T, S, str, R], None] | None = None) -> Choice:
    """A :class:`Choice`.  Its type parameters tie the functions together, so that ``mypy`` checks
    that they agree on the move type, the state and what the rule returns to ``then``."""
    return Choice(move, options, check, rule, ends, then)


def only(move: M) -> Callable[[object, str], tuple[M]]:
    """The options of a move that takes no argument (``finish_turn``): that one move, always."""
    moves = (move,)

    def options(s: object, player: str) -> tuple[M]:
        return moves

    return options


@dataclass(slots=True)
class DeclaredDecision(Task[S]):
    """A decision whose rule is said once, as data: its :attr:`choices`, one :class:`Choice` per
    move type it takes, and the core derives the rest.

    * :attr:`~Task.accepts` is the choices' move types, in order;
    * :meth:`candidates` lists each choice's ``options`` in turn (so the legal moves come in the
      choices' order);
    * :meth:`check` is the check of the move's choice;
    * :meth:`apply` runs the move's ``rule``, pops the decision if the choice ``ends`` it, then
      runs ``then`` (what follows).

    So a task reads like the rulebook's step::

        @dataclass(slots=True)
        class PlaceTheAnyCube(InfluenceStep, Decision):
            \"\"\"Step 3 for an Any tile: its cube into a city of the player's choice.\"\"\"
            awaiting = "choose the city for the Any tile's cube"
            choices = (choice(mv.PlaceAnyCube, influence.place_any_cube_options,
                              influence.place_any_cube_check, influence.place_any_cube,
                              then=then_step_5),)

    A title derives its declared decisions from its own task base and this class
    (``class Decision(Task, decisions.DeclaredDecision["PeriklesState"])``); a task may still
    override a derived method and call this class's (keeping a cache while the moves are listed,
    say).  ``choice_of`` (set by the class itself) maps each move type to its choice."""

    choices: ClassVar[tuple[Choice, ...]] = ()
    choice_of: ClassVar[dict[type[Move], Choice]] = {}
    _options: ClassVar[tuple[Callable[[Any, str], Iterable[Move]], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        cls.accepts = tuple(c.move for c in cls.choices)
        cls.choice_of = {c.move: c for c in cls.choices}
        cls._options = tuple(c.options for c in cls.choices)
        # (then the base's, which derives ``accepted`` from ``accepts``)
        super(DeclaredDecision, cls).__init_subclass__(**kwargs)

    def _choice(self, move: Move) -> Choice:
        """The choice of a move whose type is a subclass of an accepted one (the others are
        found in :attr:`choice_of` at once)."""
        return next(c for c in self.choices if isinstance(move, c.move))

    def candidates(self, s: S) -> Iterable[Move]:
        options = self._options
        if len(options) == 1:
            return options[0](s, self.player)
        player = self.player
        return chain.from_iterable(o(s, player) for o in options)

    def check(self, s: S, player: str, move: Move) -> str | None:
        check = (self.choice_of.get(type(move)) or self._choice(move)).check
        return None if check is None else check(s, player, move)

    def apply(self, s: S, player: str, move: Move) -> None:
        c = self.choice_of.get(type(move)) or self._choice(move)
        rule = c.rule
        result = None if rule is None else rule(s, player, move)
        if c.ends:
            s.pop(self)
        then = c.then
        if then is not None:
            then(self, s, player, result)
