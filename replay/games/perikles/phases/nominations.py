"""Nominations: filling the alpha and beta candidate spaces (also used by the Candidate symbol)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..components import CITY_KEYS
from ..moves import Nominate

if TYPE_CHECKING:
    from ..board import Board


def nominate_options(s: Board, player: str) -> Iterator[Nominate]:
    for c in CITY_KEYS:
        for p in s.players:
            yield Nominate(city=c, nominee=p)


def nominate_check(s: Board, player: str, move: Nominate) -> str | None:
    """A free space; the nominator has influence there; the nominee has a cube there and is not alpha."""
    c = move.city
    if c not in CITY_KEYS:
        return f"{player} cannot nominate in {c!r}: the cities are {', '.join(CITY_KEYS)}"
    name = c.capitalize()
    if move.nominee not in s.players:
        return f"{player} cannot nominate {move.nominee!r} in {name}: not a player of this game"
    if s.alpha[c] is not None and s.beta[c] is not None:
        return f"{player} cannot nominate in {name}: both candidate spaces are taken ({s.alpha[c]}, {s.beta[c]})"
    if not s.has_influence(player, c):
        return f"{player} cannot nominate in {name}: he has no cube there and is not one of its candidates"
    if s.cubes[c][move.nominee] == 0:
        return f"{player} cannot nominate {move.nominee} in {name}: {move.nominee} has no cube there outside the candidate spaces"
    if s.alpha[c] == move.nominee:
        return f"{player} cannot nominate {move.nominee} in {name}: {move.nominee} is already its alpha candidate"
    return None


def can_nominate(s: Board, player: str) -> bool:
    """Whether :func:`nominate_check` accepts one of the nominations (its conditions, without the messages)."""
    for c in CITY_KEYS:
        alpha = s.alpha[c]
        if (alpha is None or s.beta[c] is None) and s.has_influence(player, c):
            cubes = s.cubes[c]
            if any(cubes[p] != 0 and p != alpha for p in s.players):
                return True
    return False


def nominate(s: Board, player: str, move: Nominate) -> None:
    """One of the nominee's cubes moves onto alpha if it is free, else onto beta."""
    c = move.city
    s.cubes[c][move.nominee] -= 1
    if s.alpha[c] is None:
        s.alpha[c] = move.nominee
    else:
        s.beta[c] = move.nominee
    # the cube only moves onto a candidate space: the score does not change


def first_nominator(s: Board, start: str) -> str | None:
    """The first player from ``start`` (clockwise, ``start`` included) who can nominate."""
    for p in s.in_order_from(start):
        if can_nominate(s, p):
            return p
    return None


def bga_nominator(s: Board, last: str) -> str | None:
    """BGA's next nominator after ``last``; ``None`` when its search never finds one.

    BGA looks at the next player in order: if he can nominate, he does; if not, it passes
    over him and the player after him, and looks again from there, as often as it takes.
    Each look moves two seats on, so with four players only every other seat is ever looked
    at: when none of those can nominate, BGA's search goes round for ever.
    """
    looked: set[str] = set()
    seat = last
    while seat not in looked:
        looked.add(seat)
        after = s.next_player(seat)
        if can_nominate(s, after):
            return after
        seat = s.next_player(after)
    return None


def next_nominator(s: Board, last: str) -> str | None:
    """Who nominates after ``last``: the next player able to (official); ``None`` when nobody can.

    ``bga``: :func:`bga_nominator`, which passes over two players for each one who cannot
    nominate.  Where that search never ends (four players, none able among the seats it looks
    at: the table hangs on BGA) the rulebook's nominator is taken.
    """
    official = first_nominator(s, s.next_player(last))
    if s.ruleset != "bga" or official is None:
        return official
    nxt = bga_nominator(s, last)
    if nxt is None:
        return official
    if nxt != official:
        s.depart("nomination_skips_two", f"{_passed_over(s, last, nxt)}: {nxt} nominates next; "
                 f"by the rulebook {official} would")
    return nxt


def _passed_over(s: Board, last: str, nxt: str) -> str:
    """What BGA's search did between ``last`` and ``nxt``, one pair of seats at a time."""
    steps = []
    seat = last
    while s.next_player(seat) != nxt:
        after = s.next_player(seat)
        seat = s.next_player(after)
        steps.append(f"{after} cannot nominate, so BGA passes over {seat} too")
    return "; then ".join(steps)
