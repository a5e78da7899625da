"""Setup placement and the influence phase: taking tiles, shards, symbols, influence special tiles."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..board import UNKNOWN
from ..components import ANY, CITY_KEYS, INFLUENCE, INFLUENCE_TILES, SPECIAL, tiles_per_player
from ..moves import (
    Assassinate,
    PlaceAnyCube,
    PlaceCube,
    TakeTile,
)

if TYPE_CHECKING:
    from ..board import Board


def city_name(city: str) -> str:
    return city.capitalize()


def bad_city(player: str, what: str, city: str) -> str | None:
    if city not in CITY_KEYS:
        return f"{player} cannot {what} {city!r}: the cities are {', '.join(CITY_KEYS)}"
    return None


# ---- initial placement -------------------------------------------------------


def place_cube_options(s: Board, player: str) -> Iterator[PlaceCube]:
    for c in CITY_KEYS:
        yield PlaceCube(city=c)


def place_cube_check(s: Board, player: str, move: PlaceCube) -> str | None:
    return bad_city(player, "place a cube in", move.city)


def place_cube(s: Board, player: str, move: PlaceCube) -> None:
    """Initial placement: one cube per player per lap, two laps from the first player."""
    s.add_cubes(player, move.city, 1)
    s.placements_left -= 1
    s.cur = s.next_player(player)


# ---- taking a tile -------------------------------------------------------------


def held_categories(s: Board, player: str) -> set[str]:
    return {INFLUENCE[t].category for t in s.hands[player]}


def take_tile_options(s: Board, player: str) -> Iterator[TakeTile]:
    for i, t in enumerate(s.display):
        if t is not None and t != UNKNOWN:
            yield TakeTile(slot=i + 1)


def take_tile_check(s: Board, player: str, move: TakeTile) -> str | None:
    """The colour rule: no second tile of a category held this round, unless every tile on display is one."""
    if not 1 <= move.slot <= len(s.display) or s.display[move.slot - 1] is None:
        return f"{player} cannot take the tile in slot {move.slot}: there is no tile there"
    if s.display[move.slot - 1] == UNKNOWN:
        return f"{player} cannot take the tile in slot {move.slot}: the record never named it"
    tile = INFLUENCE[s.display[move.slot - 1] or ""]
    held = held_categories(s, player)
    if tile.category in held:
        offered = {INFLUENCE[t].category for t in s.display if t is not None and t != UNKNOWN}
        what = "an Any tile" if tile.category == ANY else f"a {city_name(tile.city)} tile"
        if not offered <= held:
            return (f"{player} cannot take {tile.id} from slot {move.slot}: he already holds {what} this round "
                    f"(colour rule), and the display still offers "
                    f"{', '.join(sorted(offered - held))}")
        unknown = s.display.count(UNKNOWN)
        if unknown and unknown > sum(1 for t, _ in deck_pool(s) if INFLUENCE[t].category in held):
            return (f"{player} cannot take {tile.id} from slot {move.slot}: he already holds {what} this round "
                    f"(colour rule), and the display's unnamed tiles cannot all be of cities he holds")
    return None


def take_tile(s: Board, player: str, move: TakeTile) -> str:
    """The tile leaves the display for the player's hand (its slot is refilled after the turn);
    returns it."""
    tile_id = s.display[move.slot - 1]
    assert tile_id is not None
    s.display[move.slot - 1] = None
    s.refill_slot = move.slot
    s.hands[player].append(tile_id)
    s.take(player, "influence tile", tile_id)
    return tile_id


def place_any_cube_options(s: Board, player: str) -> Iterator[PlaceAnyCube]:
    for c in CITY_KEYS:
        yield PlaceAnyCube(city=c)


def place_any_cube_check(s: Board, player: str, move: PlaceAnyCube) -> str | None:
    if move.city is None:
        if s.placeable(player, 1):
            return f"{player} must name the city for the Any tile's cube: he has a cube to place"
        return None  # the 30-cube limit leaves it unplaced, wherever it was meant to go
    return bad_city(player, "put the Any tile's cube in", move.city)


def place_any_cube(s: Board, player: str, move: PlaceAnyCube) -> None:
    if move.city is not None:
        s.add_cubes(player, move.city, 1)


# ---- the Assassin symbol ----------------------------------------------------------


def assassinate_options(s: Board, player: str) -> Iterator[Assassinate]:
    for c in CITY_KEYS:
        for p in s.players:
            if s.cubes[c][p] > 0:
                yield Assassinate(city=c, victim=p, space="city")
        a, b = s.alpha[c], s.beta[c]
        if a is not None:
            yield Assassinate(city=c, victim=a, space="alpha")
        if b is not None:
            yield Assassinate(city=c, victim=b, space="beta")


def assassinate_check(s: Board, player: str, move: Assassinate) -> str | None:
    bad = bad_city(player, "assassinate in", move.city)
    if bad:
        return bad
    if move.victim not in s.players:
        return f"{player} cannot assassinate a cube of {move.victim!r}: not a player of this game"
    if move.space == "city":
        if s.cubes[move.city][move.victim] == 0:
            return f"{player} cannot remove a cube of {move.victim} in {city_name(move.city)}: {move.victim} has no cube there"
    elif move.space in ("alpha", "beta"):
        holder = s.alpha[move.city] if move.space == "alpha" else s.beta[move.city]
        if holder != move.victim:
            return (f"{player} cannot remove {move.victim}'s {move.space} candidate in {city_name(move.city)}: "
                    f"the {move.space} space holds {holder or 'no cube'}")
    else:
        return f"{player} cannot assassinate on space {move.space!r}: the spaces are city, alpha and beta"
    return None


def assassinate(s: Board, player: str, move: Assassinate) -> None:
    """Remove one cube; if the alpha candidate goes, the beta candidate moves up."""
    c = move.city
    if move.space == "city":
        s.cubes[c][move.victim] -= 1
    elif move.space == "alpha":
        s.alpha[c], s.beta[c] = s.beta[c], None
    else:
        s.beta[c] = None
    s.score_changed()


# ---- after the tile: a last chance for a special tile ----------------------------------


def can_play_influence_special(s: Board, player: str) -> bool:
    """Whether the turn has an ``after`` step: an unused influence special tile (seat view: any unused
    special tile, since which tile it is may be secret)."""
    if s.special_used[player] or s.special_played_this_turn:
        return False
    if s.seat_view:
        return True
    tile = s.special[player]
    return tile is not None and SPECIAL[tile].timing == "influence"


# ---- turn flow ------------------------------------------------------------------------


def begin_turn(s: Board, player: str) -> None:
    s.cur = player
    s.special_played_this_turn = False


def tiles_to_take(s: Board) -> int:
    return tiles_per_player(len(s.players)) * len(s.players)


def start_influence(s: Board) -> None:
    s.takes = 0


def end_of_turn(s: Board) -> bool:
    """A tile taken: whether that was the phase's last tile (else the slot is refilled)."""
    s.takes += 1
    return s.takes == tiles_to_take(s)


def deck_pool(s: Board) -> tuple[tuple[str, int], ...]:
    """The face-down influence tiles: neither on display, in a hand nor spent."""
    out_of_deck: set[str | None] = set(s.spent)
    out_of_deck.update(s.display)  # (an empty display slot adds None, which is no tile's id)
    for hand in s.hands.values():
        out_of_deck.update(hand)
    return tuple([(t.id, 1) for t in INFLUENCE_TILES if t.id not in out_of_deck])
