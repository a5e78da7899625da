"""The pre-combat window: Brasidas, Phormio, Thessalian Allies and Persian Fleet."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..components import HOPLITE, SIDES, SPECIAL, SPECIAL_TILES, TRIREME, UNIT
from ..moves import DeclineSpecial, PlayBrasidas, PlayPersianFleet, PlayPhormio, PlayThessalianAllies
from .battles import combat_type

if TYPE_CHECKING:
    from ..board import Board


def present_units(s: Board) -> list[str]:
    return s.units_at(s.current_location().key, None, combat_type(s))


def token_sides(s: Board) -> list[str]:
    return [side for side in SIDES if s.tokens[side] == 0]


def tile_eligible(s: Board, tile: str) -> bool:
    """Whether special tile ``tile`` may be played before this combat."""
    if SPECIAL[tile].combat_type != combat_type(s):
        return False
    units = [UNIT[u] for u in present_units(s)]
    if tile == "brasidas":
        return any(u.power == "sparta" and u.type == HOPLITE for u in units)
    if tile == "phormio":
        return any(u.power == "athens" and u.type == TRIREME for u in units)
    return bool(token_sides(s))


def special_eligible(s: Board, player: str) -> bool:
    """Whether ``player`` is asked before this combat: his unused tile is eligible (seat view: he has an
    unused tile and some battle tile is eligible, since which tile he holds may be secret)."""
    if s.special_used[player]:
        return False
    if s.seat_view:
        return any(tile_eligible(s, t.key) for t in SPECIAL_TILES if t.timing == "combat")
    tile = s.special[player]
    return tile is not None and tile_eligible(s, tile)


def next_in_window(s: Board) -> str | None:
    """The next player offered a pre-combat special tile (those not eligible are passed over), or
    None when nobody is left and the dice decide."""
    while s.window:
        p = s.window[0]
        if special_eligible(s, p):
            return p
        s.window.pop(0)
    return None


def _special_check(s: Board, player: str, key: str) -> str | None:
    name = SPECIAL[key].name
    if not s.may_hold_special(player, key):
        return f"{player} cannot play {name}: it is not his special tile"
    if s.special_used[player]:
        return f"{player} cannot play {name}: he has already used it"
    if not tile_eligible(s, key):
        kind = combat_type(s)
        if SPECIAL[key].combat_type != kind:
            return f"{player} cannot play {name} before a {kind} combat: it is for {SPECIAL[key].combat_type} combats"
        if key == "brasidas":
            return f"{player} cannot play {name}: no Spartan hoplite takes part in this combat"
        if key == "phormio":
            return f"{player} cannot play {name}: no Athenian trireme takes part in this combat"
    return None


def _played(s: Board, player: str, key: str) -> None:
    s.bind_special(player, key)
    s.special_used[player] = True
    s.window.pop(0)


def play_brasidas_options(s: Board, player: str) -> Iterator[PlayBrasidas]:
    if s.may_hold_special(player, "brasidas"):
        yield PlayBrasidas()


def play_brasidas_check(s: Board, player: str, move: PlayBrasidas) -> str | None:
    return _special_check(s, player, "brasidas")


def play_brasidas(s: Board, player: str, move: PlayBrasidas) -> None:
    """Brasidas: Spartan hoplites in this combat count double."""
    s.brasidas = True
    _played(s, player, "brasidas")


def play_phormio_options(s: Board, player: str) -> Iterator[PlayPhormio]:
    if s.may_hold_special(player, "phormio"):
        yield PlayPhormio()


def play_phormio_check(s: Board, player: str, move: PlayPhormio) -> str | None:
    return _special_check(s, player, "phormio")


def play_phormio(s: Board, player: str, move: PlayPhormio) -> None:
    """Phormio: Athenian triremes in this combat count double."""
    s.phormio = True
    _played(s, player, "phormio")


def _token_check(s: Board, player: str, key: str, side: str) -> str | None:
    bad = _special_check(s, player, key)
    if bad:
        return bad
    if side not in SIDES:
        return f"{player} cannot give a battle token to {side!r}: the sides are attacker and defender"
    if s.tokens[side] > 0:
        return (f"{player} cannot give the {side} a battle token with {SPECIAL[key].name}: "
                f"the {side} already holds {s.tokens[side]}")
    return None


def play_thessalian_allies_options(s: Board, player: str) -> Iterator[PlayThessalianAllies]:
    if s.may_hold_special(player, "thessalanianallies"):
        for side in SIDES:
            yield PlayThessalianAllies(side=side)


def play_thessalian_allies_check(s: Board, player: str, move: PlayThessalianAllies) -> str | None:
    return _token_check(s, player, "thessalanianallies", move.side)


def play_thessalian_allies(s: Board, player: str, move: PlayThessalianAllies) -> None:
    """Thessalian Allies: one battle token to a side holding none, before a hoplite combat."""
    s.tokens[move.side] += 1
    _played(s, player, "thessalanianallies")


def play_persian_fleet_options(s: Board, player: str) -> Iterator[PlayPersianFleet]:
    if s.may_hold_special(player, "persianfleet"):
        for side in SIDES:
            yield PlayPersianFleet(side=side)


def play_persian_fleet_check(s: Board, player: str, move: PlayPersianFleet) -> str | None:
    return _token_check(s, player, "persianfleet", move.side)


def play_persian_fleet(s: Board, player: str, move: PlayPersianFleet) -> None:
    """Persian Fleet: one battle token to a side holding none, before a trireme combat."""
    s.tokens[move.side] += 1
    _played(s, player, "persianfleet")


def decline_special(s: Board, player: str, move: DeclineSpecial) -> None:
    s.window.pop(0)

