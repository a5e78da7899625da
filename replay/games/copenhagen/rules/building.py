"""Rule 6, building a facade tile: supply, position, support, cost, payment, placement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import (
    FLIPS,
    ROTATIONS,
    Placement,
    cell_name,
    coat_cells_mask,
    placement_at,
    row_mask,
)
from replay.games.copenhagen.moves import Build
from replay.games.copenhagen.rules.taking import held
from replay.hidden import HiddenPool, could_hold, take

if TYPE_CHECKING:
    from replay.games.copenhagen.board import Facade, Player
    from replay.games.copenhagen.state import CopenhagenState

CONSTRUCTION_DISCOUNT = "construction_discount"
CHANGE_OF_COLORS = "change_of_colors"


def build_cost(size: int, same_color: bool, construction_discount: bool) -> int:
    """Size in cards, one less when touching the same colour (once), one less with the discount tile."""
    return max(0, size - int(same_color) - int(construction_discount))


def position_problem(facade: Facade, p: Placement | None) -> str | None:
    """Why a tile cannot go there (inside, on empty cells, supported), or None."""
    if p is None:
        return "it would stick out of the 5 x 9 facade"
    if p.mask & facade.covered:
        taken = [cell_name(i % components().width, i // components().width) for i in p.cells
                 if facade.covered >> i & 1]
        return f"cell{'s' if len(taken) > 1 else ''} {'; '.join(taken)} {'are' if len(taken) > 1 else 'is'} already covered"
    if not (p.grounded or p.below & facade.covered):
        return ("it would float: no cell of it is on the street level (row 1) "
                "or directly above a covered cell")
    return None


def coats_of_arms_earned(facade: Facade, p: Placement) -> int:
    """Coat-of-arms cells the tile covers, plus coat-of-arms rows (y = 1, 3, 5) it completes."""
    n = (p.mask & coat_cells_mask()).bit_count()
    for y in components().coat_rows:
        if y in p.rows and facade.covered & row_mask(y) == row_mask(y):
            n += 1
    return n


def build_problem(s: CopenhagenState, pid: str, m: Build) -> str | None:
    """Why ``pid`` cannot build ``m`` (every check, in the order a player would explain them), or None."""
    comp = components()
    p = s.seats[pid]
    tile = f"{m.color}-{m.size}"
    what = f"the {m.size}-cell {m.color} tile"
    if m.color == comp.white:
        return f"{pid} cannot build a white tile: white tiles only come as coat-of-arms bonuses"
    if m.color not in comp.colors:
        return f"{pid} cannot build a {m.color} tile: the tile colours are {', '.join(comp.colors)}"
    if tile not in comp.shapes:
        return f"{pid} cannot build {what}: tiles have {', '.join(map(str, comp.sizes()))} cells"
    if s.tiles[tile] <= 0:
        return f"{pid} cannot build {what}: none is left in the supply"
    if m.rotation not in ROTATIONS or m.flip not in FLIPS:
        return (f"{pid} cannot build {what} turned {m.rotation} and flipped {m.flip}: "
                "rotation is 0, 90, 180 or 270 and flip is 0 or 180")
    placement = placement_at(tile, m.x, m.y, m.rotation, m.flip)
    problem = position_problem(p.facade, placement)
    if problem is not None:
        return (f"{pid} cannot build {what} at {cell_name(m.x, m.y)} "
                f"(rotation {m.rotation}, flip {m.flip}): {problem}")
    assert placement is not None
    if m.construction_discount and not p.can_use(CONSTRUCTION_DISCOUNT):
        return f"{pid} cannot use the construction discount: {pid} {_lacks(p, CONSTRUCTION_DISCOUNT)}"
    same = p.facade.touches(placement, m.color)
    cost = build_cost(m.size, same, m.construction_discount)
    return payment_problem(p, m, cost, what, same, s.cards, s.ruleset == "bga")


def _lacks(p: Player, ability: str) -> str:
    name = components().ability_name(ability)
    return f"does not own the {name} tile" if ability not in p.abilities else f"has already used {name}"


def _cards(pay: dict[str, int]) -> str:
    return " and ".join(f"{n} {c}" for c, n in pay.items()) + " cards"


def payment_problem(p: Player, m: Build, cost: int, what: str, same: bool, pool: HiddenPool,
                    bga: bool = False) -> str | None:
    """Why the payment is wrong, or None.  The payment: exactly the cost, in the tile's colour (or the changed colour).

    ``bga``: BGA spends an activated change of colours at the next placement even when no
    card of the changed colour pays for it (or the tile is of another colour than the one
    the activation named); ``change_from`` is then that colour, or the tile's own colour
    when the record does not know it (the activation is private): the tile is spent and
    no card changes colour.
    """
    comp = components()
    pid = p.id
    frm = m.change_from
    if frm is not None:
        if not p.can_use(CHANGE_OF_COLORS):
            return f"{pid} cannot use change of colours: {pid} {_lacks(p, CHANGE_OF_COLORS)}"
        if frm not in comp.colors or (frm == m.color and not bga):
            return (f"{pid} cannot change {frm} cards into {m.color}: change of colours turns cards "
                    f"of another colour ({', '.join(c for c in comp.colors if c != m.color)}) "
                    f"into the tile's colour")
    discounts = []
    if same:
        discounts.append("1 less for touching a tile of the same colour")
    if m.construction_discount:
        discounts.append("1 less for the construction discount")
    price = f"{what} costs {cost} card{'s' if cost != 1 else ''}" + (f" ({', '.join(discounts)})" if discounts else "")
    allowed = (m.color,) if frm is None else (m.color, frm)
    for c, n in m.pay.items():
        if c not in allowed:
            kinds = " or ".join(allowed)
            return f"{pid} cannot pay {what} with {c} cards: {price}, paid in {kinds} cards"
        if n <= 0:
            return f"{pid} lists {n} {c} cards in the payment: list only colours actually paid"
    paid = sum(m.pay.values())
    if paid != cost:
        return f"{pid} pays {paid} card{'s' if paid != 1 else ''} for {what}, but {price}"
    hand = p.hand
    for c, n in m.pay.items():
        have = hand.get(c, 0)
        if have < n and not hand.get(None):
            return (f"{pid} cannot pay {n} {c} card{'s' if n != 1 else ''} for {what}: "
                    f"{pid} holds {have} {c} card{'s' if have != 1 else ''}")
    if hand.get(None) and not could_hold(hand, m.pay, pool):
        return (f"{pid} cannot pay {_cards(m.pay)} for {what}: {pid} holds {held(hand)}, and no "
                "colours of the unknown cards allowed by the cards seen elsewhere make up the payment")
    if frm is not None and m.pay.get(frm, 0) == 0 and not bga:
        return (f"{pid} uses change of colours from {frm} but pays no {frm} card: "
                "the tile is only spent when it pays for at least one card")
    return None


def pay_and_place(s: CopenhagenState, pid: str, m: Build) -> Placement:
    """Pay the cards (face up to the discard pile), spend the tiles used, place the tile: where it lies."""
    p = s.seats[pid]
    placement = placement_at(f"{m.color}-{m.size}", m.x, m.y, m.rotation, m.flip)
    assert placement is not None
    for c, n in m.pay.items():
        take(p.hand, c, s.cards, f"{pid}'s payment", n)  # the discarded cards are face up
        s.discard[c] += n
    if m.construction_discount:
        p.use(CONSTRUCTION_DISCOUNT)
    if m.change_from is not None:
        if m.change_from == m.color or m.pay.get(m.change_from, 0) == 0:
            s.depart("change_of_colours_unspent",
                     f"{pid} spends change of colours on the {m.size}-cell {m.color} tile without paying "
                     f"a {m.change_from} card with it (BGA spends it; under the rulebook it stays unused)")
        p.use(CHANGE_OF_COLORS)
    s.tiles[f"{m.color}-{m.size}"] -= 1
    p.facade.place(placement, m.color)
    return placement
