"""End of round: leaders become statues, everything resets, the game may end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import ImpossibleChance

from .. import unknowns
from ..board import BATTLE, HELD, POOL
from ..components import CITY_KEYS, GAME_END_DEFEATS, ROUNDS, UNITS

if TYPE_CHECKING:
    from ..board import Board


def raise_statues(s: Board) -> None:
    """Every current leader gains a statue in the city he led."""
    for c in CITY_KEYS:
        leader = s.leader[c]
        if leader is not None:
            s.statues[c][leader] += 1
            s.score_changed()


def clear_round(s: Board) -> None:
    """Relationships, permissions and leaders end; every unit with a player goes home."""
    s.relations = {}
    s.permissions = {}
    s.main_player = {}
    for u in UNITS:
        if s.unit_at[u.id] in (HELD, POOL, BATTLE):
            s.send_home(u.id)
    for c in CITY_KEYS:
        s.leader[c] = None
    s.persian_leaders = []


def game_ends(s: Board) -> bool:
    """After the third round, or when Athens or Sparta has four defeats (checked at round end)."""
    if s.round >= ROUNDS:
        return True
    return any(s.defeats[c] >= n for c, n in GAME_END_DEFEATS.items())


def next_start_player(s: Board) -> str | None:
    """This round's leader of Athens; else the most recent earlier one; else the start player stays."""
    return s.leader["athens"] or s.last_athens_leader or s.start_player


def end_round(s: Board) -> None:
    hidden = unknowns.still_hidden(s)
    if hidden:
        raise ImpossibleChance(f"round {s.round} ends, but {hidden}")
    raise_statues(s)
    s.start_player = next_start_player(s)
    clear_round(s)
    if game_ends(s):
        s.over = True
        return
    s.round += 1
    s.spent = []
    s.hands = {p: [] for p in s.players}
    s.display = [None] * len(s.display)
    s.locations = []
