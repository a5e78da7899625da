"""The military phase: dead-pool recovery, the Spartan choice, and the order of commit turns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..board import DEAD, HELD
from ..components import CITY_KEYS, INFLUENCE, UNIT_TYPES, UNITS
from ..moves import ChooseFirstCommitter, RecoverUnit

if TYPE_CHECKING:
    from ..board import Board

MAX_UNITS = 2
MAX_UNITS_WITH_CUBE = 4


def power_name(power: str) -> str:
    return power.capitalize()


def a_unit(power: str, unit_type: str) -> str:
    name = power_name(power)
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} {unit_type}"


# ---- dead-pool recovery -------------------------------------------------------------


def dead_types(s: Board, city: str) -> list[str]:
    dead = {u.type for u in UNITS if u.power == city and s.unit_at[u.id] == DEAD}
    return [t for t in UNIT_TYPES if t in dead]


def recovery_queue(s: Board, start: str) -> list[list[str]]:
    """(player, city) pairs, clockwise from ``start``: every city a player leads with units in the dead pool."""
    out = []
    for p in s.in_order_from(start):
        for c in CITY_KEYS:
            if s.leader[c] == p and dead_types(s, c):
                out.append([p, c])
    return out


def recover(s: Board, player: str, city: str, unit_type: str) -> None:
    """The lowest-strength dead unit of that type returns to the city's leader."""
    dead = [u for u in UNITS if s.unit_at[u.id] == DEAD and u.power == city and u.type == unit_type]
    unit = min(dead, key=lambda u: (u.strength, UNITS.index(u)))
    s.unit_at[unit.id] = HELD
    s.unit_holder[unit.id] = player


def choice_cities(s: Board, player: str) -> list[str]:
    """The cities whose recovery ``player`` chooses now: the head of the queue (``bga``: any of his
    cities in the queue, which then all need a choice)."""
    if s.ruleset != "bga":
        return [s.recovery_queue[0][1]]
    return [c for p, c in s.recovery_queue if p == player]


def recover_unit_options(s: Board, player: str) -> Iterator[RecoverUnit]:
    for city in choice_cities(s, player):
        for t in UNIT_TYPES:
            yield RecoverUnit(city=city, unit_type=t)


def recover_unit_check(s: Board, player: str, move: RecoverUnit) -> str | None:
    cities = choice_cities(s, player)
    if move.city not in cities:
        return f"{player} recovers a unit of {' or '.join(map(power_name, cities))} now, not of {move.city}"
    if move.unit_type not in dead_types(s, move.city):
        return f"{player} cannot take back a {power_name(move.city)} {move.unit_type}: none is in the dead pool"
    return None


def recover_unit(s: Board, player: str, move: RecoverUnit) -> None:
    recover(s, player, move.city, move.unit_type)
    s.recovery_queue.remove([player, move.city])


def run_recoveries(s: Board) -> bool:
    """Recover automatically where only one type is dead; True when a player must choose.

    ``bga``: each player's automatic recoveries come first, then his choices, in the order he likes.
    """
    while s.recovery_queue:
        player, city = s.recovery_queue[0]
        if s.ruleset == "bga":
            for entry in [e for e in s.recovery_queue if e[0] == player]:
                types = dead_types(s, entry[1])
                if len(types) == 1:
                    recover(s, player, entry[1], types[0])
                    s.recovery_queue.remove(entry)
            if s.recovery_queue and s.recovery_queue[0][0] == player:
                s.cur = player
                return True
            continue
        types = dead_types(s, city)
        if len(types) > 1:
            s.cur = player
            return True
        recover(s, player, city, types[0])
        s.recovery_queue.pop(0)
    return False


# ---- the Spartan choice ---------------------------------------------------------------


def choose_first_committer_options(s: Board, player: str) -> Iterator[ChooseFirstCommitter]:
    for p in s.players:
        yield ChooseFirstCommitter(player=p)


def choose_first_committer_check(s: Board, player: str, move: ChooseFirstCommitter) -> str | None:
    if move.player not in s.players:
        return f"{player} cannot name {move.player!r} to commit first: not a player of this game"
    return None


def choose_first_committer(s: Board, player: str, move: ChooseFirstCommitter) -> None:
    s.first_committer = move.player
    s.commit_next = move.player


# ---- commit turns -------------------------------------------------------------------------------


def finish_commit_turn(s: Board, player: str) -> None:
    """The commit turn ends (``bga``: after a granted permission the next player's turn is free, Q3)."""
    if s.ruleset == "bga" and s.commit_granted:
        s.free_turn_for = s.next_player(player)
        # the rulebook's next turn (as next_commit_turn finds it) spends a tile; the free one never does
        start, shards = s.commit_next or s.next_player(player), s.commit_shards
        official = _tile_holder(s, start, shards)
        if official is None and shards == 2:
            official, shards = _tile_holder(s, start, 1), 1
        rulebook = ("the commit turns would be over" if official is None
                    else f"{official} would commit next, spending a {shards}-shard tile")
        s.depart("free_commit_turn_after_grant",
                 f"{player} was granted a permission this turn: {s.free_turn_for} commits next without "
                 f"spending a tile; by the rulebook {rulebook}")
    s.cur = None


def _tile_holder(s: Board, start: str, shards: int) -> str | None:
    for p in s.in_order_from(start):
        if any(INFLUENCE[t].shards == shards for t in s.hands[p]):
            return p
    return None


def spend_tile(s: Board, player: str, shards: int) -> None:
    tile = next(t for t in s.hands[player] if INFLUENCE[t].shards == shards)
    s.hands[player].remove(tile)
    s.spent.append(tile)


def begin_commit_turn(s: Board, player: str) -> None:
    s.cur = player
    s.turn_sent = []
    s.turn_face_down = len(s.face_down)
    s.commit_sent = 0
    s.commit_cube_city = None
    s.commit_denied = []
    s.commit_granted = False


def next_commit_turn(s: Board) -> str | None:
    """The next player to commit (his tile already spent), or None when every tile is used.

    Two-shard tiles first, then one-shard tiles, clockwise from the chosen first player.
    ``bga``: after a granted permission the next player in seat order commits without a tile.
    """
    if s.free_turn_for is not None:
        p = s.free_turn_for
        s.free_turn_for = None
        s.commit_next = s.next_player(p)
        return p
    assert s.commit_next is not None
    while True:
        holder = _tile_holder(s, s.commit_next, s.commit_shards)
        if holder is not None:
            spend_tile(s, holder, s.commit_shards)
            s.commit_next = s.next_player(holder)
            return holder
        if s.commit_shards == 1:
            return None
        s.commit_shards = 1



def start_military(s: Board) -> None:
    """Official: recovery from the Sparta leader (the start player if none), then his choice.
    ``bga``: the choice first (its recovery follows, :func:`after_spartan_choice`)."""
    s.commit_shards = 2
    s.free_turn_for = None
    if s.ruleset != "bga":
        assert s.start_player is not None
        s.recovery_queue = recovery_queue(s, s.leader["sparta"] or s.start_player)


def after_spartan_choice(s: Board) -> None:
    """``bga``: the recovery follows the choice, from the chosen player."""
    if s.ruleset == "bga":
        assert s.first_committer is not None
        s.recovery_queue = recovery_queue(s, s.first_committer)


def no_spartan_choice(s: Board) -> None:
    """Sparta has no leader: the round's start player commits first."""
    s.first_committer = s.commit_next = s.start_player
