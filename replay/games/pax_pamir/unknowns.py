"""Market cards a record never named, and how a ``reveal`` names one (the win-chance rollouts deal them).

Everything in Pax Pamir is face up but the deck, so the only card a record can
leave unknown is one drawn into the market that the record never names
(:data:`~replay.games.pax_pamir.market.UNKNOWN_CARD`): a Board Game Arena log
never shows the opening market, and names a card only when it is bought,
moved, discarded or given rupees.  Such a card is one of the cards nobody has
seen, of the kinds its pile still holds: the deck is six piles, the first of
court cards only, the others court cards with events (and, from the third,
Dominance Checks) shuffled in, and each pile is drawn out before the next.

Which pile a card came from follows from the refill order: the market is
filled column by column, top before bottom, and an unknown card never moved
(a move would have named it).  So, in that order, the first unknown cards are
the court cards of the first pile (the engine counted them as court cards when
they were drawn), and the rest are the cards whose kind stayed open
(:attr:`PaxState.unknown_drawn`, per pile, in pile order).

A zone per unknown cell, ``market:<row>,<col>`` (the record's numbers, as in a ``buy`` move: row 0
the top, col 0 the leftmost); its pool weighs every unseen
card so that a uniform pick follows the pile's make-up, as a draw from that
pile would (:func:`~replay.games.pax_pamir.market.draw_pool`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from replay.engine import ImpossibleChance
from replay.games.pax_pamir.components import COURT, DOMINANCE_CHECKS, EVENTS, PUBLIC_WITHDRAWAL, card_name
from replay.games.pax_pamir.market import UNKNOWN_CARD, cell_name, draw_pool, unseen_groups
from replay.hidden import HiddenPool

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

MARKET_ZONE = "market:"

FIRST_PILE = None
"""The pile of an unknown card whose kind was known when it was drawn (a court card of the first pile)."""


def zone_name(row: int, col: int) -> str:
    return f"{MARKET_ZONE}{row},{col}"


def kind_of(card: int) -> int:
    """0 a court card, 1 an event, 2 a Dominance Check (the pile make-up's order)."""
    return 0 if card in COURT else (2 if card in DOMINANCE_CHECKS else 1)


def unknown_cells(s: PaxState) -> dict[tuple[int, int], int | None]:
    """Each market cell holding an unknown card, in refill order, with the pile it came from
    (:data:`FIRST_PILE` for a court card of known kind)."""
    from replay.games.pax_pamir.state import MARKET_CELLS

    cells = [(r, c) for r, c in MARKET_CELLS if s.market[r][c] == UNKNOWN_CARD]
    open_kind: list[int | None] = [i for i, n in enumerate(s.unknown_drawn) for _ in range(n)]
    piles = [FIRST_PILE] * max(0, len(cells) - len(open_kind)) + open_kind
    return dict(zip(cells, piles))


def pool(s: PaxState, pile: int | None) -> HiddenPool:
    """What an unknown card of ``pile`` may be, weighted as a draw from that pile."""
    if pile is FIRST_PILE:
        return HiddenPool("court cards", [(c, 1) for c in unseen_groups(s)[0]])
    return HiddenPool(f"pile {pile + 1}", draw_pool(s, pile))


def unknown_zones(s: PaxState) -> dict[str, tuple[int, Any, dict[Any, int]]]:
    """``market:<row>,<col>`` -> one unknown card, its pool, nothing known there."""
    if UNKNOWN_CARD not in s.market[0] and UNKNOWN_CARD not in s.market[1]:
        return {}
    return {zone_name(r, c): (1, pool(s, pile), {}) for (r, c), pile in unknown_cells(s).items()}


def reveal(s: PaxState, zone: str, items: list[Any]) -> None:
    """``{"reveal": "market:<row>,<col>", "items": [card]}``: the card in that cell is named."""
    row_col = zone[len(MARKET_ZONE):].split(",") if zone.startswith(MARKET_ZONE) else []
    if len(row_col) != 2 or not all(x.isdigit() for x in row_col) or not (
            int(row_col[0]) < 2 and int(row_col[1]) < 6):
        raise ImpossibleChance(f"Pax Pamir reveals a market card only ('market:<row>,<col>', row 0-1, "
                               f"column 0-5), not {zone!r}")
    row, col = int(row_col[0]), int(row_col[1])
    where = f"the market card in {cell_name(row, col)}"
    if len(items) != 1 or not isinstance(items[0], int) or isinstance(items[0], bool) \
            or (items[0] not in COURT and items[0] not in EVENTS):
        raise ImpossibleChance(f"{where}: a reveal names one card id, not {items}")
    card: int = items[0]
    held = s.market[row][col]
    if held == card:
        return
    if held != UNKNOWN_CARD:
        raise ImpossibleChance(f"{where} is {'empty' if held is None else card_name(held)}, not "
                               f"{card_name(card)}")
    pile = unknown_cells(s)[(row, col)]
    if card in s.seen:
        raise ImpossibleChance(f"{where} cannot be {card_name(card)}: that card was already seen")
    kind = kind_of(card)
    if pile is FIRST_PILE:
        if kind != 0:
            raise ImpossibleChance(f"{where} came from the first pile: a court card, not {card_name(card)}")
    else:
        left = s.piles[pile]
        if left[kind] <= 0:
            raise ImpossibleChance(f"{where} came from pile {pile + 1}, which holds no "
                                   f"{('court card', 'event', 'Dominance Check')[kind]} it could be")
        left[kind] -= 1
        s.unknown_drawn[pile] -= 1
        s.deck_changed()
    s.seen.add(card)
    s.market[row][col] = card
    if card == PUBLIC_WITHDRAWAL and s.ruleset != "bga":
        s.market_rupees[row][col] = 0
