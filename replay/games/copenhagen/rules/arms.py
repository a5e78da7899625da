"""Rule 7.2, coat-of-arms bonuses: an ability tile, a white tile placed at once, or a refresh."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import Placement, cell_name, placement_at, placements
from replay.games.copenhagen.moves import PlaceWhite, RefreshAbilities, TakeAbility
from replay.games.copenhagen.rules.building import position_problem

if TYPE_CHECKING:
    from replay.games.copenhagen.board import Player
    from replay.games.copenhagen.state import CopenhagenState


def white_tile() -> str:
    return f"{components().white}-1"


def abilities_to_take(s: CopenhagenState, p: Player) -> list[str]:
    """Ability kinds the player does not own yet that are still in the supply."""
    return [a for a in components().ability_ids if a not in p.abilities and s.ability_supply[a] > 0]


def white_spots(s: CopenhagenState, p: Player) -> list[Placement]:
    if s.white <= 0:
        return []
    return [w for w in placements(white_tile()) if p.facade.fits(w)]


def any_bonus_possible(s: CopenhagenState, p: Player) -> bool:
    """If none of the three choices is possible, the remaining bonuses are skipped."""
    if abilities_to_take(s, p) or p.any_used():
        return True
    return s.white > 0 and p.facade.covered != (1 << (components().width * components().height)) - 1


# ---- an ability tile


def ability_options(s: CopenhagenState, pid: str) -> list[TakeAbility]:
    return [TakeAbility(ability=a) for a in abilities_to_take(s, s.seats[pid])]


def ability_problem(s: CopenhagenState, pid: str, move: TakeAbility) -> str | None:
    """An ability tile of a kind the player does not own yet, still in the supply."""
    ability = move.ability
    comp = components()
    p = s.seats[pid]
    if ability not in comp.ability_ids:
        return f"{pid} cannot take a {ability!r} tile: the abilities are {', '.join(comp.ability_ids)}"
    name = comp.ability_name(ability)
    if ability in p.abilities:
        return f"{pid} cannot take a {name} tile: {pid} already owns one (one tile of each kind)"
    if s.ability_supply[ability] <= 0:
        return f"{pid} cannot take a {name} tile: none is left in the supply"
    return None


def take_ability(s: CopenhagenState, pid: str, move: TakeAbility) -> None:
    s.ability_supply[move.ability] -= 1
    s.seats[pid].gain_ability(move.ability)


# ---- a white tile


def white_spot(x: int, y: int) -> Placement | None:
    """Where a white tile on cell ``(x, y)`` lies (None: outside the facade)."""
    return placement_at(white_tile(), x, y, 0, 0)


def white_options(s: CopenhagenState, pid: str) -> list[PlaceWhite]:
    return [PlaceWhite(x=w.x, y=w.y) for w in white_spots(s, s.seats[pid])]


def white_problem(s: CopenhagenState, pid: str, move: PlaceWhite) -> str | None:
    """A white tile is placed at once, on an empty cell that is supported, while one is left."""
    x, y = move.x, move.y
    if s.white <= 0:
        return f"{pid} cannot place a white tile: all {components().white_count} are already placed"
    problem = position_problem(s.seats[pid].facade, white_spot(x, y))
    if problem is not None:
        return f"{pid} cannot place a white tile at {cell_name(x, y)}: {problem}"
    return None


def place_white(s: CopenhagenState, pid: str, move: PlaceWhite) -> Placement:
    """The white tile goes on its cell; where it lies is scored like any placement."""
    spot = white_spot(move.x, move.y)
    assert spot is not None
    s.white -= 1
    s.seats[pid].facade.place(spot, components().white)
    return spot


# ---- a refresh


def may_refresh(s: CopenhagenState, p: Player) -> bool:
    """Official: only when an owned tile is used (a refresh that turns nothing is no choice).
    BGA offers it at every coat of arms, even with nothing to turn back (a wasted bonus)."""
    return p.any_used() or s.ruleset == "bga"


def refresh_options(s: CopenhagenState, pid: str) -> tuple[RefreshAbilities, ...]:
    return (RefreshAbilities(),) if may_refresh(s, s.seats[pid]) else ()


def refresh_problem(s: CopenhagenState, pid: str, move: RefreshAbilities) -> str | None:
    if not may_refresh(s, s.seats[pid]):
        return f"{pid} cannot refresh ability tiles: none of {pid}'s tiles is used"
    return None


def refresh_abilities(s: CopenhagenState, pid: str, move: RefreshAbilities) -> None:
    p = s.seats[pid]
    if not p.any_used():
        s.depart("refresh_with_nothing_used", f"{pid} takes the refresh bonus with no ability tile used "
                                              "(BGA offers it; the rulebook has nothing to refresh)")
    p.abilities = {a: False for a in p.abilities}
