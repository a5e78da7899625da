"""Rule 5, taking cards: first card, adjacent second card, any cards, additional card,
the hand limit, and going on to build with both actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.games.copenhagen.components import components
from replay.games.copenhagen.moves import BothActions, Discard, TakeCard
from replay.games.copenhagen.rules.harbour import UNSEEN, slot_name
from replay.hidden import could_hold, take

if TYPE_CHECKING:
    from replay.games.copenhagen.board import Player
    from replay.games.copenhagen.state import CopenhagenState

ANY_CARDS = "any_cards"
ADDITIONAL_CARD = "additional_card"
BOTH_ACTIONS = "both_actions"


def adjacent(slot: int, other: int) -> bool:
    """Harbour slots next to each other (the row does not wrap around)."""
    return abs(slot - other) == 1


def second_card_slots(s: CopenhagenState, p: Player) -> list[int]:
    """Slots the second card may come from: next to the emptied slot, or anywhere with any cards."""
    first = s.first_slot
    assert first is not None
    anywhere = p.can_use(ANY_CARDS)
    return [i for i, c in enumerate(s.harbour) if c is not None and (anywhere or adjacent(i, first))]


def may_take_third(s: CopenhagenState, p: Player) -> bool:
    return s.cards_taken == 2 and p.can_use(ADDITIONAL_CARD)


def cards_in_harbour(s: CopenhagenState) -> list[TakeCard]:
    """A card from any slot that holds one."""
    return [TakeCard(slot=i) for i, c in enumerate(s.harbour) if c is not None]


# ---- the first card


def first_card_options(s: CopenhagenState, pid: str) -> list[TakeCard]:
    return cards_in_harbour(s)


def first_card_problem(s: CopenhagenState, pid: str, move: TakeCard) -> str | None:
    """The first card comes from any slot with a card."""
    return slot_problem(s, pid, move.slot, "first")


def slot_problem(s: CopenhagenState, pid: str, slot: int, nth: str) -> str | None:
    """Why the ``nth`` card cannot come from ``slot`` (outside the harbour, or empty), or None."""
    n = components().harbour_slots
    if not 0 <= slot < n:
        return f"{pid} cannot take a card from slot {slot}: a record's harbour slots are 0 to {n - 1}"
    if s.harbour[slot] is None:
        return (f"{pid} cannot take a {nth} card from {slot_name(slot)}: that slot is empty "
                "(empty slots are refilled only at the end of the turn)")
    return None


def take_first_card(s: CopenhagenState, pid: str, move: TakeCard) -> None:
    _take(s, pid, move.slot)
    s.first_slot = move.slot


# ---- the second card


def second_card_options(s: CopenhagenState, pid: str) -> list[TakeCard]:
    return [TakeCard(slot=i) for i in second_card_slots(s, s.seats[pid])]


def second_card_problem(s: CopenhagenState, pid: str, move: TakeCard) -> str | None:
    """The second card comes from a slot next to the first one, or from anywhere with any cards."""
    slot = move.slot
    why = slot_problem(s, pid, slot, "second")
    if why is not None:
        return why
    p = s.seats[pid]
    first = s.first_slot
    assert first is not None
    if not adjacent(slot, first) and not p.can_use(ANY_CARDS):
        lack = "has no unused any-cards tile" if ANY_CARDS not in p.abilities else "has already used any cards"
        return (f"{pid} cannot take the second card from {slot_name(slot)}: it must lie next to "
                f"{slot_name(first)} (slot {first if first > 0 else first + 2}"
                f"{f' or {first + 2}' if 0 < first < components().harbour_slots - 1 else ''}), "
                f"and {pid} {lack}")
    return None


def take_second_card(s: CopenhagenState, pid: str, move: TakeCard) -> None:
    """A second card from a slot not next to the first one spends any cards."""
    first = s.first_slot
    assert first is not None
    if not adjacent(move.slot, first):
        s.seats[pid].use(ANY_CARDS)
    _take(s, pid, move.slot)


# ---- a third card (additional card)


def third_card_options(s: CopenhagenState, pid: str) -> list[TakeCard]:
    return cards_in_harbour(s) if may_take_third(s, s.seats[pid]) else []


def third_card_problem(s: CopenhagenState, pid: str, move: TakeCard) -> str | None:
    """A third card needs an unused additional-card tile; it comes from any slot with a card."""
    p = s.seats[pid]
    if not may_take_third(s, p):
        if s.cards_taken >= 3:
            return f"{pid} cannot take a fourth card: at most three cards are taken in a turn"
        why = ("does not own the additional-card tile" if ADDITIONAL_CARD not in p.abilities
               else "has already used the additional-card tile")
        return f"{pid} cannot take a third card: {pid} {why}"
    return slot_problem(s, pid, move.slot, "third")


def take_additional_card(s: CopenhagenState, pid: str, move: TakeCard) -> None:
    """A third card from any slot, spending the additional-card tile."""
    s.seats[pid].use(ADDITIONAL_CARD)
    _take(s, pid, move.slot)


def _take(s: CopenhagenState, pid: str, slot: int) -> None:
    card = s.harbour[slot]
    assert card is not None
    s.harbour[slot] = None
    hand = s.seats[pid].hand
    key = None if card == UNSEEN else card  # a face-up card the record did not name stays unknown
    hand[key] = hand.get(key, 0) + 1
    s.cards_taken += 1
    s.must_discard = s.seats[pid].hand_size > components().hand_limit


def held(hand: dict[str | None, int]) -> str:
    """A hand in words: "2 red, 1 blue and 3 unknown cards"."""
    parts = [f"{n} {c}" for c in components().colors if (n := hand.get(c, 0))]
    if hand.get(None):
        parts.append(f"{hand[None]} unknown")
    return ", ".join(parts) or "no cards"


# ---- the hand limit


def discard_options(s: CopenhagenState, pid: str) -> list[Discard]:
    """One discard per colour the hand holds, or that one of its unknown cards may be."""
    hand = s.seats[pid].hand
    unknown = hand.get(None, 0)
    return [Discard(color=c) for c in components().colors
            if hand.get(c, 0) > 0 or (unknown and s.cards.could_be(c))]


def discard_problem(s: CopenhagenState, pid: str, move: Discard) -> str | None:
    """Discards are face up: a discarded colour the hand holds no known card of names one
    of its unknown cards, which must be able to be that colour."""
    color = move.color
    comp = components()
    if color not in comp.colors:
        return f"{pid} cannot discard a {color} card: the card colours are {', '.join(comp.colors)}"
    hand = s.seats[pid].hand
    if not hand.get(color) and not could_hold(hand, {color: 1}, s.cards):
        return (f"{pid} cannot discard a {color} card: {pid} holds {held(hand)}"
                + (f", and every {color} card is accounted for elsewhere" if hand.get(None) else ""))
    return None


def discard_down(s: CopenhagenState, pid: str, move: Discard) -> None:
    """Hand limit: with more than 7 cards after a card is taken, discard one card of one's choice."""
    take(s.seats[pid].hand, move.color, s.cards, f"{pid}'s discard")
    s.discard[move.color] += 1
    s.must_discard = False


# ---- both actions


def both_actions_options(s: CopenhagenState, pid: str) -> tuple[BothActions, ...]:
    return (BothActions(),) if s.seats[pid].can_use(BOTH_ACTIONS) else ()


def both_actions_problem(s: CopenhagenState, pid: str, move: BothActions) -> str | None:
    p = s.seats[pid]
    if not p.can_use(BOTH_ACTIONS):
        why = "does not own the both-actions tile" if BOTH_ACTIONS not in p.abilities else \
            "has already used the both-actions tile"
        return f"{pid} cannot build after taking cards: {pid} {why}"
    return None


def use_both_actions(s: CopenhagenState, pid: str, move: BothActions) -> None:
    s.seats[pid].use(BOTH_ACTIONS)
