"""Score categories (locations, statues, cubes) and the final ranking with its tiebreaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import CITY, CITY_KEYS

if TYPE_CHECKING:
    from .board import Board

CATEGORIES: tuple[str, ...] = ("locations", "statues", "cubes")


def score_breakdown(s: Board) -> dict[str, dict[str, int]]:
    """Location tiles' VP (scored when claimed), statues at their city's current value, one VP per cube."""
    players = s.players
    statues = dict.fromkeys(players, 0)
    cubes = dict.fromkeys(players, 0)
    for c in CITY_KEYS:
        value, in_city, raised = CITY[c].statue_value(s.defeats[c]), s.cubes[c], s.statues[c]
        for p in players:
            cubes[p] += in_city[p]
            statues[p] += raised[p] * value
        for candidate in (s.alpha[c], s.beta[c]):
            if candidate is not None:
                cubes[candidate] += 1
    vp = s.location_vp
    return {p: {"locations": vp[p], "statues": statues[p], "cubes": cubes[p]} for p in players}


def tiebreak_key(s: Board, player: str) -> tuple[int, int, int]:
    """Total, then location-tile VP, then the number of statues."""
    total = sum(s.score()[player].values())
    return (total, s.location_vp[player], s.statue_count(player))


def ranking(s: Board) -> dict[str, int]:
    keys = {p: tiebreak_key(s, p) for p in s.players}
    return {p: 1 + sum(1 for q in s.players if keys[q] > keys[p]) for p in s.players}
