"""Rule 7.2, coat-of-arms bonuses: an ability tile, a white tile placed at once, or a refresh."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import Placement, cell_name, placement_at, placements
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


def ability_problem(s: CopenhagenState, pid: str, ability: str) -> str | None:
    """An ability tile of a kind the player does not own yet, still in the supply."""
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


def take_ability(s: CopenhagenState, pid: str, ability: str) -> None:
    s.ability_supply[ability] -= 1
    s.seats[pid].gain_ability(ability)


def white_spot(x: int, y: int) -> Placement | None:
    """Where a white tile on cell ``(x, y)`` lies (None: outside the facade)."""
    return placement_at(white_tile(), x, y, 0, 0)


def white_problem(s: CopenhagenState, pid: str, x: int, y: int) -> str | None:
    """A white tile is placed at once, on an empty cell that is supported, while one is left."""
    if s.white <= 0:
        return f"{pid} cannot place a white tile: all {components().white_count} are already placed"
    problem = position_problem(s.seats[pid].facade, white_spot(x, y))
    if problem is not None:
        return f"{pid} cannot place a white tile at {cell_name(x, y)}: {problem}"
    return None


def place_white(s: CopenhagenState, pid: str, spot: Placement) -> None:
    s.white -= 1
    s.seats[pid].facade.place(spot, components().white)


def may_refresh(s: CopenhagenState, p: Player) -> bool:
    """Official: only when an owned tile is used (a refresh that turns nothing is no choice).
    BGA offers it at every coat of arms, even with nothing to turn back (a wasted bonus)."""
    return p.any_used() or s.ruleset == "bga"


def refresh_problem(s: CopenhagenState, pid: str) -> str | None:
    if not may_refresh(s, s.seats[pid]):
        return f"{pid} cannot refresh ability tiles: none of {pid}'s tiles is used"
    return None


def refresh_abilities(s: CopenhagenState, pid: str) -> None:
    p = s.seats[pid]
    if not p.any_used():
        s.depart("refresh_with_nothing_used", f"{pid} takes the refresh bonus with no ability tile used "
                                              "(BGA offers it; the rulebook has nothing to refresh)")
    p.abilities = {a: False for a in p.abilities}
