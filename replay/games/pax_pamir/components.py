"""Pax Pamir's components, loaded once from ``data/*.json``.

Court cards (1-100), event cards (101-116, of which 101-104 are the Dominance
Checks), the Wakhan's AI cards (1-24), the map (regions, borders, adjacency) and the
game's fixed numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def _load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


@dataclass(frozen=True, slots=True)
class CourtCard:
    id: int
    name: str
    suit: str
    rank: int
    region: str
    patriot: str | None
    prize: str | None
    impact: tuple[str, ...]
    actions: tuple[str, ...]
    ability: str | None


@dataclass(frozen=True, slots=True)
class EventCard:
    id: int
    name: str
    purchased: str
    discarded: str


@dataclass(frozen=True, slots=True)
class WakhanCard:
    """One of the Wakhan's AI cards: the front of the card she has drawn decides her turn.

    ``pragmatic_loyalty`` is the order in which she takes a coalition as her own (the first
    one no other player is loyal to); the region order, the action priorities and the arrows
    (which point into the back of the next card of her deck: ``columns``, ``rows``) are her
    decision procedure.
    """

    id: int
    pragmatic_loyalty: tuple[str, ...]
    region_order: tuple[str, ...]
    actions: tuple[str, ...]
    column_arrow: int
    row_arrow: int
    columns: tuple[int, ...]
    rows: tuple[str, ...]


_MAP = _load("map.json")

REGIONS: tuple[str, ...] = tuple(_MAP["regions"])
BORDERS: dict[str, tuple[str, str]] = {b: (r[0], r[1]) for b, r in sorted(_MAP["borders"].items())}
BORDER_IDS: tuple[str, ...] = tuple(BORDERS)
COALITIONS: tuple[str, ...] = tuple(_MAP["coalitions"])
SUITS: tuple[str, ...] = tuple(_MAP["suits"])
BLOCKS_PER_COALITION: int = _MAP["blocks_per_coalition"]
CYLINDERS_PER_PLAYER: int = _MAP["cylinders_per_player"]
STARTING_RUPEES: int = _MAP["starting_rupees"]
GIFT_VALUES: tuple[int, ...] = tuple(_MAP["gift_values"])
FAVORED_AT_START: str = _MAP["favored_suit_at_start"]
RULER_AGAINST_PLAYERS_ONLY = "ruler_against_players_only"
"""The record option (and departure) of a game BGA's code of before 19 October 2023 played: rulership
compares a player's ruling pieces with the other players' only (:meth:`PaxState.compute_ruler`)."""
NO_OVERTHROW_FOR_TAKEN_TRIBES = "no_overthrow_for_taken_tribes"
"""The record option (and departure) of a game BGA's code of before 16 October 2023 played: a player's
last tribe taken from a region to be placed elsewhere (component limit) overthrows nothing there."""
PUBLIC_WITHDRAWAL_HOLDS_RUPEES = "public_withdrawal_holds_rupees"
"""The record option (and departure) of a game BGA's code of before 1 October 2023 played: rupees paid
onto Public Withdrawal stay on it, as on any market card, until it is discarded (:func:`market.put_rupees`)."""
PILES: tuple[tuple[int, int], ...] = tuple((p["events"], p["dominance_checks"]) for p in _MAP["deck"]["piles"])
_DC = _MAP["dominance_check"]
DC_LEAD: int = _DC["lead_needed"]
DC_LEAD_FATIGUE: int = _DC["lead_needed_conflict_fatigue"]
DC_SUCCESS_POINTS: tuple[int, ...] = tuple(_DC["successful_points"])
DC_FAIL_POINTS: tuple[int, ...] = tuple(_DC["unsuccessful_points"])
DC_FINAL_MULTIPLIER: int = _DC["final_multiplier"]
WINNING_LEAD: int = _DC["winning_lead"]

ADJACENT: dict[str, tuple[str, ...]] = {
    r: tuple(sorted(b[1] if b[0] == r else b[0] for b in BORDERS.values() if r in b)) for r in REGIONS
}
BORDERS_OF: dict[str, tuple[str, ...]] = {r: tuple(b for b, rs in BORDERS.items() if r in rs) for r in REGIONS}
BORDER_BETWEEN: dict[tuple[str, str], str] = {}
for _b, (_x, _y) in BORDERS.items():
    BORDER_BETWEEN[(_x, _y)] = _b
    BORDER_BETWEEN[(_y, _x)] = _b

COURT: dict[int, CourtCard] = {
    c["id"]: CourtCard(c["id"], c["name"], c["suit"], c["rank"], c["region"], c["patriot"], c["prize"],
                       tuple(c["impact"]), tuple(c["actions"]), c["ability"])
    for c in _load("court_cards.json")
}
EVENTS: dict[int, EventCard] = {
    e["id"]: EventCard(e["id"], e["name"], e["purchased"], e["discarded"]) for e in _load("events.json")
}
WAKHAN_CARDS: dict[int, WakhanCard] = {
    w["id"]: WakhanCard(w["id"], tuple(w["front"]["pragmatic_loyalty"]), tuple(w["front"]["region_order"]),
                        tuple(w["front"]["actions"]), w["front"]["column_arrow"], w["front"]["row_arrow"],
                        tuple(w["back"]["columns"]), tuple(w["back"]["rows"]))
    for w in _load("wakhan_cards.json")["cards"]
}
"""The Wakhan's AI deck, by card number (BGA's ``wakhan_card_<n>``)."""
DOMINANCE_CHECKS: tuple[int, ...] = tuple(e for e, c in EVENTS.items() if c.purchased == "dominance_check")
OTHER_EVENTS: tuple[int, ...] = tuple(e for e in EVENTS if e not in DOMINANCE_CHECKS)
COURT_IDS: tuple[int, ...] = tuple(sorted(COURT))



def _event_with(effect: str) -> int:
    return next(e.id for e in EVENTS.values() if effect in (e.purchased, e.discarded))


# Event cards by the effect the rules name them by (either half of the card).
PUBLIC_WITHDRAWAL: int = _event_with("public_withdrawal")
NEW_TACTICS: int = _event_with("new_tactics")
KOH_I_NOOR: int = _event_with("koh_i_noor_recovered")
EMBARRASSMENT_OF_RICHES: int = _event_with("embarrassment_of_riches")
COURTLY_MANNERS: int = _event_with("courtly_manners")
DISREGARD_FOR_CUSTOMS: int = _event_with("disregard_for_customs")
RUMOR: int = _event_with("rumor")
CONFLICT_FATIGUE: int = _event_with("conflict_fatigue")
NATIONALISM: int = _event_with("nationalism")
NATION_BUILDING: int = _event_with("nation_building")
PASHTUNWALI_VALUES: int = _event_with("pashtunwali_values")

ABILITY_CARDS: dict[str, tuple[int, ...]] = {}
for _c in COURT.values():
    if _c.ability:
        ABILITY_CARDS[_c.ability] = ABILITY_CARDS.get(_c.ability, ()) + (_c.id,)


def card_name(card: int) -> str:
    """A card's printed name (events by their two effects)."""
    if card in COURT:
        return COURT[card].name
    if card in EVENTS:
        return EVENTS[card].name
    return f"card {card}"


def is_event(card: int) -> bool:
    return card in EVENTS
