"""Rules 3 and 8: dealing, the harbour refill, the deck rebuild and the mermaid.

The deck is kept as cards left by colour (its order is what chance reveals),
plus where the mermaid is: ``aside`` (3-4 players, until the deck is
rebuilt), ``deck`` (somewhere in the bottom ten cards) or ``harbour``
(revealed: the game ends after this turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import ChanceRequest, ImpossibleChance
from replay.games.copenhagen.components import components

if TYPE_CHECKING:
    from replay.games.copenhagen.state import CopenhagenState

DECK = "deck"
DRAW = "facade"  # the name of the card deck in chance events: "facade cards"
MERMAID = "mermaid"


def deck_size(s: CopenhagenState) -> int:
    """Cards in the deck, the mermaid included when it is in there."""
    return sum(s.deck.values()) + (1 if s.mermaid == DECK else 0)


def mermaid_may_come(s: CopenhagenState) -> bool:
    """The mermaid lies among the bottom ten cards: it can be the next card once ten or fewer remain."""
    return s.mermaid == DECK and deck_size(s) <= components().mermaid_bottom


def draw_request(s: CopenhagenState, count: int, reason: str) -> ChanceRequest:
    """Exactly the cards that may come up next: the mermaid only when it may be the next card."""
    pool = [(c, n) for c, n in s.deck.items() if n]
    if count == 1 and s.mermaid == DECK and sum(s.deck.values()) < components().mermaid_bottom:
        pool.append((MERMAID, 1))  # mermaid_may_come, inlined: this runs for every card revealed
    return ChanceRequest("draw", DRAW, count=count, pool=tuple(pool), reason=reason)


def next_empty_slot(s: CopenhagenState) -> int | None:
    for i, card in enumerate(s.harbour):
        if card is None:
            return i
    return None


def take_from_deck(s: CopenhagenState, items: list[str], why: str) -> None:
    """Remove revealed coloured cards from the deck (the generic check already matched the pool)."""
    left = dict(s.deck)
    for card in items:
        if left.get(card, 0) <= 0:
            raise ImpossibleChance(f"a {card} card cannot be drawn for {why}: the deck has no {card} card left")
        left[card] -= 1
    s.deck = left


def deal_harbour(s: CopenhagenState, items: list[str]) -> None:
    """Setup 6: seven cards face up into harbour slots 0-6, in slot order."""
    take_from_deck(s, items, "the harbour")
    s.harbour = list(items)


def deal_starting_hand(s: CopenhagenState, pid: str, items: list[str]) -> None:
    """Setup 7: the starting hand of the next player in turn order (2, 3, 3, 4 cards)."""
    take_from_deck(s, items, f"{pid}'s starting hand")
    hand = s.seats[pid].hand
    for card in items:
        hand[card] += 1


def rebuild_deck(s: CopenhagenState) -> None:
    """The deck is empty and a card is needed: the discard pile becomes the new deck,
    and the mermaid (if still set aside) goes in among its bottom ten cards."""
    s.deck = dict(s.discard)
    s.discard = {c: 0 for c in components().colors}
    if s.mermaid == "aside":
        s.mermaid = DECK
    s.rebuilds += 1


def refill_slot(s: CopenhagenState, slot: int, card: str) -> None:
    """Fill ``slot`` with the revealed card; the mermaid stops the refill and ends the game."""
    if card == MERMAID:
        s.mermaid = "harbour"
        s.harbour[slot] = MERMAID
        return
    take_from_deck(s, [card], f"harbour slot {slot}")
    s.harbour[slot] = card
