"""Influence special tiles: Perikles, Plague and Alkibiades (before taking a tile or after resolving it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..components import CITY_KEYS, SPECIAL
from ..moves import AlkibiadesMove, PlayAlkibiades, PlayPerikles, PlayPlague
from .influence import bad_city, city_name

if TYPE_CHECKING:
    from ..board import Board


def _special_check(s: Board, player: str, key: str) -> str | None:
    if not s.may_hold_special(player, key):
        return f"{player} cannot play {SPECIAL[key].name}: it is not his special tile"
    if s.special_used[player]:
        return f"{player} cannot play {SPECIAL[key].name}: he has already used it"
    if s.special_played_this_turn:
        return f"{player} cannot play {SPECIAL[key].name}: he already played a special tile this turn"
    return None


def _special_played(s: Board, player: str, key: str) -> None:
    s.bind_special(player, key)
    s.special_used[player] = True
    s.special_played_this_turn = True


def play_perikles_options(s: Board, player: str) -> Iterator[PlayPerikles]:
    if s.may_hold_special(player, "perikles"):
        yield PlayPerikles()


def play_perikles_check(s: Board, player: str, move: PlayPerikles) -> str | None:
    return _special_check(s, player, "perikles")


def play_perikles(s: Board, player: str, move: PlayPerikles) -> None:
    """Perikles: two of the player's cubes into Athens (30-cube limit applies)."""
    _special_played(s, player, "perikles")
    s.add_cubes(player, "athens", 2)


def play_plague_options(s: Board, player: str) -> Iterator[PlayPlague]:
    if s.may_hold_special(player, "plague"):
        for c in CITY_KEYS:
            yield PlayPlague(city=c)


def play_plague_check(s: Board, player: str, move: PlayPlague) -> str | None:
    return _special_check(s, player, "plague") or bad_city(player, "strike with the Plague", move.city)


def plague_losses(s: Board, city: str) -> dict[str, int]:
    """Half of each player's cubes there, rounded down, counting his candidate cube; taken from ordinary cubes."""
    out = {}
    for p in s.players:
        count = s.cubes[city][p] + (s.alpha[city] == p) + (s.beta[city] == p)
        out[p] = min(count // 2, s.cubes[city][p])
    return out


def play_plague(s: Board, player: str, move: PlayPlague) -> None:
    _special_played(s, player, "plague")
    for p, n in plague_losses(s, move.city).items():
        s.cubes[move.city][p] -= n
    s.score_changed()


def play_alkibiades_options(s: Board, player: str) -> Iterator[PlayAlkibiades]:
    if s.may_hold_special(player, "alkibiades"):
        yield PlayAlkibiades()


def play_alkibiades_check(s: Board, player: str, move: PlayAlkibiades) -> str | None:
    return _special_check(s, player, "alkibiades")


def play_alkibiades(s: Board, player: str, move: PlayAlkibiades) -> None:
    """Alkibiades: two cube moves follow (the turn then goes on at ``resume_step``)."""
    _special_played(s, player, "alkibiades")
    s.alkibiades_left = 2


def alkibiades_move_options(s: Board, player: str) -> Iterator[AlkibiadesMove]:
    for src in CITY_KEYS:
        for p in s.players:
            if s.cubes[src][p] > 0:
                for dst in CITY_KEYS:
                    if dst != src:
                        yield AlkibiadesMove(owner=p, from_city=src, to_city=dst)


def alkibiades_move_check(s: Board, player: str, move: AlkibiadesMove) -> str | None:
    bad = bad_city(player, "move a cube from", move.from_city) or bad_city(player, "move a cube to", move.to_city)
    if bad:
        return bad
    if move.owner not in s.players:
        return f"{player} cannot move a cube of {move.owner!r}: not a player of this game"
    if move.from_city == move.to_city:
        return f"{player} cannot move a cube from {city_name(move.from_city)} to the same city (Alkibiades)"
    if s.cubes[move.from_city][move.owner] == 0:
        return (f"{player} cannot move a cube of {move.owner} out of {city_name(move.from_city)} (Alkibiades): "
                f"{move.owner} has no cube there outside the candidate spaces")
    return None


def alkibiades_move(s: Board, player: str, move: AlkibiadesMove) -> bool:
    """Alkibiades: one cube moves city to city (candidate cubes stay put).  Whether another move
    follows (one is left, and some cube can move)."""
    s.cubes[move.from_city][move.owner] -= 1
    s.cubes[move.to_city][move.owner] += 1  # the same cubes on the board: the score does not change
    s.alkibiades_left -= 1
    return s.alkibiades_left > 0 and any(True for _ in alkibiades_move_options(s, player))


