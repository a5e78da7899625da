"""A player who left the table (``bga``): BGA's zombie decides for them, one fixed answer per step
(``replay/games/pax_pamir/zombie.py``).  The whole-game properties (they never decide again, the
game still ends, a record with the move replays complete) are in ``tests/core/test_leave_table.py``."""

from __future__ import annotations

from pax_pamir_helpers import illegal, play, setup, spies, to_court, to_hand
from test_wakhan import W, wakhan_game

from replay.decisions import LEAVE_TABLE
from replay.games.pax_pamir import tasks
from replay.games.pax_pamir.court import DiscardTask
from replay.games.pax_pamir.moves import Buy, EndTurn, OfferBribe, Tax
from replay.games.pax_pamir.wakhan import HandTask
from replay.games.pax_pamir.zombie import LOGGED, ZOMBIE_TURN


def test_who_left_passes_each_turn_and_keeps_cards_over_the_limits() -> None:
    """The first player leaves with four cards in hand (limit 2), then passes as BGA's zombie does
    (its logged ``pass``, their one legal move: nothing else is accepted); no discard is asked (BGA
    skips it), and their later turns are passes too."""
    s = setup(3, ruleset="bga")
    first, second, third = s.players[2], s.players[0], s.players[1]  # BGA's first player is p3
    assert s.turn() == first
    to_hand(s, first, 12, 18, 19, 20)
    play(s, LEAVE_TABLE)
    assert s.left == (first,) and s.turn() == first
    assert list(s.legal_moves()) == [EndTurn()]
    illegal(s, Buy(row=0, col=0), "zombie plays for them", "answers the", "with end turn")
    play(s, EndTurn())
    assert s.turn() == second
    play(s, EndTurn())
    assert s.turn() == third
    play(s, EndTurn())
    assert s.turn() == first and len(s.hands[first]) == 4
    play(s, EndTurn())
    assert s.turn() == second and s.snapshot()["left"] == [first]


def test_a_discard_asked_of_who_left_is_skipped() -> None:
    s = setup(ruleset="bga")
    first = s.turn()
    assert isinstance(first, str)
    to_hand(s, first, 12, 18, 19, 20)
    play(s, EndTurn())
    assert isinstance(s.stack[-1], DiscardTask) and s.turn() == first
    play(s, LEAVE_TABLE)
    assert s.turn() != first and len(s.hands[first]) == 4


def test_who_left_refuses_a_bribe() -> None:
    """The second player left; the first taxes with a card the second's spies hold hostage and
    offers 1 of the 2 rupees due: the zombie refuses (BGA's ``declineBribe``), so nothing is paid."""
    s = setup(ruleset="bga")
    first = s.turn()
    assert isinstance(first, str)
    play(s, EndTurn())
    second = s.turn()
    assert isinstance(second, str) and second != first
    play(s, LEAVE_TABLE)
    play(s, EndTurn())  # BGA's zombie's pass
    assert s.turn() == first
    to_court(s, first, 11)
    spies(s, 11, second, 2)
    s.market_rupees[0][0] = 3
    rupees = dict(s.rupees)
    play(s, Tax(card=11))
    play(s, OfferBribe(amount=1))
    assert s.rupees == rupees and s.turn() == first


def test_the_wakhan_cannot_leave_and_nobody_leaves_by_the_rulebook() -> None:
    s = wakhan_game()
    illegal(s, LEAVE_TABLE, "is the Wakhan", player=W)
    official = setup(ruleset="official")
    illegal(official, LEAVE_TABLE, "only Board Game Arena's ruleset")


def test_every_step_that_awaits_a_person_has_a_zombie_answer() -> None:
    """A new kind of decision must say what BGA's zombie does there (the Wakhan's hand is hers only)."""

    def every(cls: type) -> set[type]:
        return {cls, *(c for sub in cls.__subclasses__() for c in every(sub))}

    decisions = {c for c in every(tasks.Task) if c.decision and c is not tasks.Task}
    assert decisions - set(ZOMBIE_TURN) - set(LOGGED) == {HandTask}
    assert not set(ZOMBIE_TURN) & set(LOGGED)
