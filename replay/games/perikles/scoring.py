"""Score categories (locations, statues, cubes) and the final ranking with its tiebreaks."""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from .components import CITY

if TYPE_CHECKING:
    from .board import Board

CATEGORIES: tuple[str, ...] = ("locations", "statues", "cubes")


def score_breakdown(s: Board) -> dict[str, dict[str, int]]:
    """Location tiles' VP (scored when claimed), statues at their city's current value, one VP per cube
    (a candidate's cube included)."""
    players = s.players
    in_cities = list(s.cubes.values())
    cubes = {p: sum(map(itemgetter(p), in_cities)) for p in players}
    for candidate in (*s.alpha.values(), *s.beta.values()):
        if candidate is not None:
            cubes[candidate] += 1
    statues = dict.fromkeys(players, 0)
    defeats = s.defeats
    for c, raised in s.statues.items():
        if any(raised.values()):
            value = CITY[c].statue_value(defeats[c])
            for p, n in raised.items():
                statues[p] += n * value
    vp = s.location_vp
    return {p: {"locations": vp[p], "statues": statues[p], "cubes": cubes[p]} for p in players}


def tiebreak_key(s: Board, player: str) -> tuple[int, int, int]:
    """Total, then location-tile VP, then the number of statues."""
    total = sum(s.score()[player].values())
    return (total, s.location_vp[player], s.statue_count(player))


def ranking(s: Board) -> dict[str, int]:
    keys = {p: tiebreak_key(s, p) for p in s.players}
    return {p: 1 + sum(1 for q in s.players if keys[q] > keys[p]) for p in s.players}
