"""Rules 3 and 8: dealing, the harbour refill, the deck rebuild and the mermaid.

The facade cards are one family of hidden components (:class:`replay.hidden.HiddenPool`):
``s.cards`` accounts for every card of the original deck whose colour the record
has shown, wherever it is now.  A card drawn face down (a starting hand seen from
another seat) stays *unknown*: it counts for the hand size, and a later move that
spends or discards it names its colour, which must still be possible.

The deck is a :class:`replay.hidden.PartlyKnownDeck`: its cards are shuffled, so
only their number is known, and what a draw may reveal is what its family has not
yet accounted for.  Until the first rebuild that family is the original deck (so
an unknown card in a hand and the deck share one account); a rebuilt deck is the
discard pile, whose cards are all known: it becomes a family of its own.

The mermaid is kept apart: ``aside`` (3-4 players, until the deck is rebuilt),
``deck`` (somewhere in the bottom ten cards: declared, not simulated — the draw
pool holds it only when it may be the next card) or ``harbour`` (revealed: the
game ends after this turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import ChanceRequest, ImpossibleChance
from replay.games.copenhagen.components import components
from replay.hidden import HiddenPool, PartlyKnownDeck


def slot_name(slot: int) -> str:
    """A harbour slot as a player counts it, from 1 at the left (a record's ``slot`` counts from 0)."""
    return f"harbour slot {slot + 1}"

if TYPE_CHECKING:
    from replay.games.copenhagen.state import CopenhagenState

DECK = "deck"
DRAW = "facade"  # the name of the card deck in chance events: "facade cards"
MERMAID = "mermaid"
UNSEEN = "?"
"""A harbour slot holding a card whose colour the record does not show (face up, but
not written down by the record's source); ``None`` is an empty slot."""


def new_deck(per_color: int) -> tuple[HiddenPool, PartlyKnownDeck]:
    """The shuffled facade cards at setup: ``per_color`` cards of each colour (the mermaid apart)."""
    pool = HiddenPool(DRAW, [(c, per_color) for c in components().colors])
    return pool, PartlyKnownDeck(DRAW, pool)


def deck_size(s: CopenhagenState) -> int:
    """Cards in the deck, the mermaid included when it is in there."""
    return len(s.deck) + (1 if s.mermaid == DECK else 0)


def deck_counts(s: CopenhagenState) -> dict[str, int] | None:
    """The deck's cards by colour, when the record determines them (every other card of
    its family is known); ``None`` while unknown cards elsewhere could be any of them."""
    pool = s.deck.pool
    if pool.unknown != s.deck.hidden:
        return None
    return {c: pool.unaccounted(c) for c in components().colors}


def mermaid_may_come(s: CopenhagenState) -> bool:
    """The mermaid lies among the bottom ten cards: it can be the next card once ten or fewer remain."""
    return s.mermaid == DECK and deck_size(s) <= components().mermaid_bottom


def draw_request(s: CopenhagenState, count: int, reason: str,
                 visible_to: tuple[str, ...] | None = None) -> ChanceRequest:
    """Exactly the cards that may come up next: the mermaid only when it may be the next card."""
    pool = s.deck.pool.possible()
    if count == 1 and s.mermaid == DECK and s.deck.hidden < components().mermaid_bottom:
        pool += ((MERMAID, 1),)  # mermaid_may_come, inlined: this runs for every card revealed
    return ChanceRequest("draw", DRAW, count=count, pool=pool, reason=reason, visible_to=visible_to)


def may_come_next(s: CopenhagenState, card: object) -> bool:
    """Whether one card drawn now may be ``card`` (what :func:`draw_request`'s pool holds for a
    single card), told without making the pool."""
    if type(card) is not str:
        return False
    if card == MERMAID:
        return s.mermaid == DECK and s.deck.hidden < components().mermaid_bottom
    return s.deck.pool.could_be(card)


def next_empty_slot(s: CopenhagenState) -> int | None:
    """The first harbour slot without a card (refilled first), or None when every slot has one."""
    harbour = s.harbour
    return harbour.index(None) if None in harbour else None


def take_from_deck(s: CopenhagenState, items: list[str | None], why: str) -> None:
    """Cards come off the deck: each shown colour must be one its family has not accounted for yet."""
    if s.rebuilds and None in items:
        raise ImpossibleChance(f"a card drawn for {why} cannot be unknown: after a rebuild every card of "
                               "the deck was seen in the discard pile, and cards are dealt face up")
    s.deck.draw_hidden(list(items), f"a card drawn for {why}")


def deal_harbour(s: CopenhagenState, items: list[str | None]) -> None:
    """Setup 6: seven cards face up into harbour slots 0-6, in slot order."""
    take_from_deck(s, items, "the harbour")
    s.harbour = [UNSEEN if c is None else c for c in items]


def deal_starting_hand(s: CopenhagenState, pid: str, items: list[str | None]) -> None:
    """Setup 7: the starting hand of the next player in turn order (2, 3, 3, 4 cards),
    dealt face down: only that player sees it."""
    take_from_deck(s, items, f"{pid}'s starting hand")
    hand = s.seats[pid].hand
    for card in items:
        hand[card] = hand.get(card, 0) + 1


def rebuild_deck(s: CopenhagenState) -> None:
    """The deck is empty and a card is needed: the discard pile becomes the new deck,
    and the mermaid (if still set aside) goes in among its bottom ten cards.

    Every card of the discard pile is known, so the new deck is a family of its own:
    what it may reveal is exactly the pile's colours, whatever unknown cards the hands hold.
    """
    pile = {c: n for c, n in s.discard.items() if n}
    s.deck = PartlyKnownDeck(DRAW, HiddenPool(DRAW, pile))
    s.discard = {c: 0 for c in components().colors}
    if s.mermaid == "aside":
        s.mermaid = DECK
    s.rebuilds += 1


def refill_slot(s: CopenhagenState, slot: int, card: str | None) -> None:
    """Fill ``slot`` with the revealed card; the mermaid stops the refill and ends the game."""
    if card == MERMAID:
        s.mermaid = "harbour"
        s.harbour[slot] = MERMAID
        return
    take_from_deck(s, [card], slot_name(slot))
    s.harbour[slot] = UNSEEN if card is None else card
