"""Elections: each city picks its leader; players who lead no city become Persian leaders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import HELD, POOL, STACK
from ..components import CITY_KEYS, PERSIA, UNITS

if TYPE_CHECKING:
    from ..board import Board


def hold_election(s: Board, city: str) -> None:
    """Unopposed: the candidate leads. Contested: more cubes (candidate cubes aside) wins, ties to alpha;
    the winner removes as many of his own cubes as the loser has there."""
    a, b = s.alpha[city], s.beta[city]
    a_cubes = s.cubes[city][a] if a is not None else 0
    b_cubes = s.cubes[city][b] if b is not None else 0
    winner: str | None = None
    removed = 0
    if a is not None and b is not None:
        if a_cubes >= b_cubes:
            winner, removed = a, b_cubes
        else:
            winner, removed = b, a_cubes
        s.cubes[city][winner] -= removed
    elif a is not None:
        winner = a
    s.alpha[city] = None
    s.beta[city] = None
    s.score_changed()
    s.add_milestone("election", round=s.round, city=city, alpha_player=a, alpha_cubes=a_cubes,
                    beta_player=b, beta_cubes=b_cubes, winner=winner, cubes_removed=removed)
    s.leader[city] = winner
    if winner is None:
        return
    if city == "athens":
        s.last_athens_leader = winner
    for u in UNITS:
        if u.power == city and s.unit_at[u.id] == STACK:
            s.unit_at[u.id] = HELD
            s.unit_holder[u.id] = winner


def hold_elections(s: Board) -> None:
    for city in CITY_KEYS:
        hold_election(s, city)
    s.persian_leaders = [p for p in s.players if not any(s.leader[c] == p for c in CITY_KEYS)]
    if s.persian_leaders:
        for u in UNITS:
            if u.power == PERSIA and s.unit_at[u.id] == STACK:
                s.unit_at[u.id] = POOL
