"""The task stack of ``replay.decisions`` on a small game of its own: a pile of stones.

Each turn a die is rolled (a chance step); the player to move then takes 1 to 3 stones, at
most the roll (a decision); an automatic step passes the turn.  Whoever takes the last stone
wins.  A player who rolls a 6 may first take a second turn's worth (a decision that closes by
itself when no stone is left).

The same take, declared (:class:`DeclaredTake`, a ``DeclaredDecision``): its rules are the
functions ``take_options``, ``take_check`` and ``take_stones``; a player may also knock on the
table (the decision stays open) or pass; three stones taken earn a bonus take.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from replay.decisions import DeclaredDecision, Task, TaskState, choice, clone_task, only, task_view
from replay.engine import (
    OVER,
    ChanceRequest,
    IllegalMove,
    ImpossibleChance,
    MissingChance,
    Move,
    Outcome,
    WrongPlayer,
)


class Take(Move, tag="take", frozen=True):
    stones: int


class Pass(Move, tag="pass", frozen=True):
    pass


class Knock(Move, tag="knock", frozen=True):
    pass


class Pile(TaskState[Task[Any]]):
    game_id = "pile"

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.stones = int(options.get("stones", 7))
        self.rolled = 0
        self.held: dict[str, int] = {p: 0 for p in players}
        self.quick = 0
        self.knocks = 0
        self.push(Roll(players[0]))
        self.advance()

    def score(self) -> dict[str, dict[str, int]]:
        return {p: {"stones": self.held[p]} for p in self.players}

    def snapshot(self) -> dict[str, Any]:
        return {"stones": self.stones, "rolled": self.rolled, "held": dict(self.held), "knocks": self.knocks,
                "pending": [task_view(t) for t in self.stack]}


@dataclass(slots=True)
class Roll(Task[Pile]):
    """The die of the turn."""

    decision = False

    def request(self, s: Pile) -> ChanceRequest:
        return ChanceRequest("roll", "die", count=1, sides=6)

    def reveal(self, s: Pile, req: ChanceRequest, outcome: Outcome) -> None:
        s.rolled = outcome["roll"][0]
        s.pop(self)
        s.push(NextTurn(self.player))
        s.push(TakeStones(self.player))
        if s.rolled == 6:
            s.push(TakeStones(self.player, bonus=True))

    def outcome_at_once(self, s: Pile, outcome: Outcome) -> ChanceRequest | None:
        s.quick += 1
        return self.request(s) if outcome.get("roll") in ([1], [2]) else None


@dataclass(slots=True)
class TakeStones(Task[Pile]):
    """Take 1 to 3 stones, at most the roll; a bonus take may be passed."""

    bonus: bool = False
    accepts = (Take, Pass)
    awaiting = "take of stones"

    def is_open(self, s: Pile) -> bool:
        return s.stones > 0

    def candidates(self, s: Pile) -> Iterable[Move]:
        yield from (Take(stones=n) for n in (1, 2, 3))
        yield Pass()

    def check(self, s: Pile, player: str, move: Move) -> str | None:
        if isinstance(move, Pass):
            return None if self.bonus else f"{player} must take stones"
        assert isinstance(move, Take)
        if move.stones > min(3, s.rolled, s.stones):
            return f"{player} cannot take {move.stones}: at most {min(3, s.rolled, s.stones)}"
        return None

    def apply(self, s: Pile, player: str, move: Move) -> None:
        s.pop(self)
        if isinstance(move, Take):
            s.stones -= move.stones
            s.held[player] += move.stones


@dataclass(slots=True)
class NextTurn(Task[Pile]):
    decision = False

    def run(self, s: Pile) -> None:
        s.pop(self)
        if s.stones == 0:
            s.over = True
            return
        nxt = s.players[(s.players.index(self.player) + 1) % len(s.players)]
        s.push(Roll(nxt))


def pile(stones: int = 7) -> Pile:
    return Pile(["a", "b"], {"stones": stones})


def test_the_stack_drives_the_protocol() -> None:
    s = pile()
    assert isinstance(s.turn(), ChanceRequest)
    s.apply_chance({"roll": [2]})
    assert s.turn() == "a"
    assert list(s.legal_moves()) == [Take(stones=1), Take(stones=2)]  # the candidates that pass, in order
    s.apply_move("a", Take(stones=2))
    assert isinstance(s.turn(), ChanceRequest) and s.stack[-1].player == "b"  # the automatic step ran


def test_a_refused_move_carries_the_check_s_reason_and_changes_nothing() -> None:
    s = pile()
    s.apply_chance({"roll": [2]})
    before = s.snapshot()
    with pytest.raises(IllegalMove, match="a cannot take 3: at most 2"):
        s.apply_move("a", Take(stones=3))
    with pytest.raises(IllegalMove, match="a must take stones"):
        s.apply_move("a", Pass())
    with pytest.raises(WrongPlayer):
        s.apply_move("b", Take(stones=1))
    assert s.snapshot() == before


def test_a_move_of_a_type_the_task_does_not_take_says_what_is_awaited() -> None:
    class Other(Move, tag="other", frozen=True):
        pass

    s = pile()
    s.apply_chance({"roll": [3]})
    with pytest.raises(IllegalMove, match="a cannot other now: the rules await a's take of stones"):
        s.apply_move("a", Other())


def test_a_move_while_chance_is_awaited_is_missing_chance() -> None:
    with pytest.raises(MissingChance):
        pile().apply_move("a", Take(stones=1))


def test_a_decision_with_nothing_left_closes_by_itself() -> None:
    s = pile(stones=2)
    s.apply_chance({"roll": [6]})  # a bonus take, then the turn's own
    s.apply_move("a", Take(stones=2))  # nothing left: the turn's own take closes, the game ends
    assert s.turn() is OVER and s.totals() == {"a": 2, "b": 0}


def test_the_chance_fast_path_is_taken_only_when_the_task_says_so() -> None:
    s = pile()
    s.apply_chance({"roll": [1]})
    assert s.quick == 1 and s.rolled == 1
    s.apply_move("a", Take(stones=1))
    s.apply_chance({"roll": [4]})  # asked, declined: the checked way
    assert s.quick == 2 and s.rolled == 4
    with pytest.raises(ImpossibleChance, match="a d6 cannot show 7"):
        pile().apply_chance({"roll": [7]})


def test_the_trusted_path_applies_a_legal_move() -> None:
    s = pile()
    s.reveal({"roll": [3]})
    s.play("a", Take(stones=3))
    assert s.stones == 4 and s.stack[-1].player == "b"


def test_an_empty_stack_before_the_end_is_an_engine_bug() -> None:
    s = pile()
    s.stack.clear()
    with pytest.raises(RuntimeError, match="nothing left to do"):
        s.advance()


def test_a_copied_task_shares_no_list_and_a_view_shows_public_fields() -> None:
    @dataclass(slots=True)
    class Marks(Task[Pile]):
        marks: list[int]
        _hidden: int = 0

    t = Marks("a", [1], 5)
    c = clone_task(t)
    assert c == t and type(c) is Marks and c._hidden == 5
    c.marks.append(2)
    assert t.marks == [1]

    @dataclass  # no slots of its own: its fields live in a __dict__
    class Notes(Marks):
        notes: list[str] = dataclasses.field(default_factory=list)

    n = Notes("b", [3], 0, ["x"])
    n.aside = [7]  # type: ignore[attr-defined]  # not a field: shared, as copy.copy would
    m = clone_task(n)
    assert m == n and m.aside is n.aside  # type: ignore[attr-defined]
    m.notes.append("y")
    m.marks.append(4)
    assert (n.notes, n.marks) == (["x"], [3])
    assert task_view(t) == {"task": "Marks", "player": "a", "marks": [1]}
    assert Roll.awaits_chance and Roll.reveals_at_once and not TakeStones.awaits_chance


# ---- the same take, declared


def take_options(s: Pile, player: str) -> Iterator[Take]:
    return (Take(stones=n) for n in (1, 2, 3))


def take_check(s: Pile, player: str, move: Take) -> str | None:
    most = min(3, s.rolled, s.stones)
    return None if move.stones <= most else f"{player} cannot take {move.stones}: at most {most}"


def take_stones(s: Pile, player: str, move: Take) -> int:
    s.stones -= move.stones
    s.held[player] += move.stones
    return move.stones


def bonus_after_three(task: Task[Pile], s: Pile, player: str, taken: int) -> None:
    if taken == 3:
        s.push(TakeStones(player, bonus=True))


def knock(s: Pile, player: str, move: Knock) -> None:
    s.knocks += 1


@dataclass(slots=True)
class DeclaredTake(DeclaredDecision[Pile]):
    awaiting = "take of stones"
    choices = (choice(Take, take_options, take_check, take_stones, then=bonus_after_three),
               choice(Knock, only(Knock()), rule=knock, ends=False),
               choice(Pass, only(Pass())))

    def refuse(self, s: Pile, player: str, move: Move) -> str:
        return f"{player} may take, knock or pass, not {move.type}"


def declared(rolled: int, stones: int = 7) -> Pile:
    """``a`` to take, declared, after a roll of ``rolled`` (the turn passes to ``b`` next)."""
    s = pile(stones)
    s.rolled = rolled
    s.stack = [NextTurn("a"), DeclaredTake("a")]
    return s


def test_a_declared_decision_lists_its_choices_options_that_pass_their_checks_in_order() -> None:
    s = declared(rolled=2)
    task = s.stack[-1]
    assert DeclaredTake.accepts == (Take, Knock, Pass)
    assert list(s.legal_moves()) == [Take(stones=1), Take(stones=2), Knock(), Pass()]
    assert list(s.legal_moves()) == [m for m in task.candidates(s) if task.check(s, "a", m) is None]
    assert task.check(s, "a", Take(stones=3)) == "a cannot take 3: at most 2"


def test_a_declared_decision_refuses_a_move_of_another_type_in_the_title_s_words() -> None:
    class Other(Move, tag="other", frozen=True):
        pass

    s = declared(rolled=2)
    before = s.snapshot()
    with pytest.raises(IllegalMove, match="^a may take, knock or pass, not other$"):
        s.apply_move("a", Other())
    with pytest.raises(IllegalMove, match="^a cannot take 3: at most 2$"):
        s.apply_move("a", Take(stones=3))
    assert s.snapshot() == before


def test_a_declared_decision_runs_the_rule_then_what_follows() -> None:
    s = declared(rolled=2)
    s.apply_move("a", Take(stones=2))  # the rule, the decision ends, nothing follows: the turn passes
    assert (s.stones, s.held["a"]) == (5, 2) and type(s.stack[-1]) is Roll and s.stack[-1].player == "b"

    s = declared(rolled=3)
    s.apply_move("a", Take(stones=3))  # what follows is told the rule's result: a bonus take
    assert s.stones == 4 and [type(t) for t in s.stack] == [NextTurn, TakeStones]
    assert isinstance(s.stack[-1], TakeStones) and s.stack[-1].bonus


def test_a_declared_choice_that_does_not_end_the_decision_keeps_it_open() -> None:
    s = declared(rolled=2)
    s.apply_move("a", Knock())
    s.apply_move("a", Knock())
    assert s.knocks == 2 and type(s.stack[-1]) is DeclaredTake
    s.apply_move("a", Pass())  # no rule, no check: the decision just ends
    assert s.knocks == 2 and s.stones == 7 and s.stack[-1].player == "b"


def test_a_move_of_a_subclass_of_a_declared_type_goes_to_that_type_s_choice() -> None:
    class GreedyTake(Take, tag="greedy_take", frozen=True):
        pass

    s = declared(rolled=2)
    with pytest.raises(IllegalMove, match="^a cannot take 3: at most 2$"):
        s.apply_move("a", GreedyTake(stones=3))
    s.apply_move("a", GreedyTake(stones=2))
    assert s.stones == 5 and s.stack[-1].player == "b"
