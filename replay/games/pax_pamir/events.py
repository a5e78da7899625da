"""Event cards: what each does when purchased, and when discarded from the market."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir import board, wakhan
from replay.games.pax_pamir.components import DOMINANCE_CHECKS, EVENTS, REGIONS, SUITS
from replay.games.pax_pamir.court import DiscardTask, change_favored_suit
from replay.games.pax_pamir.dominance import resolve_dominance_check
from replay.games.pax_pamir.moves import ChooseSuit, Rebuke, Rumor, SwapHands
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

# Purchased events that stay with the buyer until the next Dominance Check.
LASTING = ("new_tactics", "koh_i_noor_recovered", "courtly_manners", "conflict_fatigue", "nationalism",
           "nation_building", "pashtunwali_values")
BACKING_RUPEES = 3
RIOTS = {"riots_in_punjab": "punjab", "riots_in_herat": "herat", "riots_in_kabul": "kabul",
         "riots_in_persia": "persia"}
SUIT_EVENTS = {"favor_military": "military", "favor_intelligence": "intelligence",
               "favor_political": "political"}


def purchase_event(s: PaxState, player: str, card: int) -> None:
    """A purchased event resolves at once."""
    effect = EVENTS[card].purchased
    if effect == "dominance_check":
        s.dc_cards_done += 1
        s.discard_pile.append(card)
        resolve_dominance_check(s, s.dc_cards_done == len(DOMINANCE_CHECKS))
    elif effect in LASTING:
        s.held_events[player].append(card)
        s.influence_changed(player)
    elif effect == "backing_of_persian_aristocracy":
        s.rupees[player] += BACKING_RUPEES
        s.discard_pile.append(card)
    elif effect == "rumor":
        s.push(RumorTask(player, card))
    elif effect == "other_persuasive_methods":
        s.discard_pile.append(card)
        s.push(SwapHandsTask(player))
    elif effect == "rebuke":
        s.discard_pile.append(card)
        s.push(RebukeTask(player))
    if effect == "pashtunwali_values":
        s.push(ChooseSuitTask(player))


def discard_event(s: PaxState, card: int) -> None:
    """An event discarded from market column 0 during cleanup applies its top half."""
    effect = EVENTS[card].discarded
    if effect in ("embarrassment_of_riches", "disregard_for_customs"):
        s.global_events.append(card)
        s.influence_changed()
        return
    s.discard_pile.append(card)
    if effect == "dominance_check":
        s.dc_cards_done += 1
        resolve_dominance_check(s, s.dc_cards_done == len(DOMINANCE_CHECKS))
    elif effect in SUIT_EVENTS:
        change_favored_suit(s, SUIT_EVENTS[effect])
    elif effect == "failure_to_impress":
        failure_to_impress(s)
    elif effect in RIOTS:
        board.remove_tribes_and_armies(s, RIOTS[effect])
    elif effect == "confidence_failure":
        confidence_failure(s)


def failure_to_impress(s: PaxState) -> None:
    """Every player discards all their prizes."""
    for p in s.players:
        s.discard_pile.extend(s.prizes[p])
        s.prizes[p] = []
    s.influence_changed()


def confidence_failure(s: PaxState) -> None:
    """Every player with cards in hand discards one, the active player first, then clockwise."""
    order = []
    p = s.current
    for _ in s.players:
        if s.hands[p] and p == s.wakhan and s.ruleset == "bga":
            s.depart("wakhan_skips_chosen_discards", "the Wakhan keeps her hand through Confidence Failure")
        elif s.hands[p]:
            order.append(p)
        p = s.next_player(p)
    for p in reversed(order):
        s.push(DiscardTask(p, "confidence_failure", 1))


@dataclass(slots=True)
class RumorTask(Task):
    """Rumor: the buyer names a player whose patriots give no influence until the next check."""

    card: int
    accepts = (Rumor,)
    awaiting = "choice of a player for Rumor"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [Rumor(player=p) for p in s.players]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, Rumor)
        if move.player not in s.players:
            return f"{player} cannot spread a Rumor about {move.player!r}: no such player in this game"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, Rumor)
        s.pop(self)
        s.held_events[move.player].append(self.card)
        s.influence_changed(move.player)


@dataclass(slots=True)
class SwapHandsTask(Task):
    """Other Persuasive Methods: the buyer swaps hands with another player."""

    accepts = (SwapHands,)
    awaiting = "choice of a player to swap hands with (Other Persuasive Methods)"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [SwapHands(player=p) for p in s.players if p != self.player]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, SwapHands)
        if move.player == player:
            return f"{player} cannot swap hands with themself: Other Persuasive Methods names another player"
        if move.player not in s.players:
            return f"{player} cannot swap hands with {move.player!r}: no such player in this game"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, SwapHands)
        s.pop(self)
        s.hands[player], s.hands[move.player] = s.hands[move.player], s.hands[player]
        s.hand_changed(player)
        s.hand_changed(move.player)
        if s.wakhan in (player, move.player) and s.hands[s.wakhan]:  # she plays them at once
            s.push(wakhan.HandTask(s.wakhan, from_person=player != s.wakhan))


@dataclass(slots=True)
class ChooseSuitTask(Task):
    """Pashtunwali Values: the buyer picks the favored suit, which then stays until the next check."""

    accepts = (ChooseSuit,)
    awaiting = "choice of the favored suit (Pashtunwali Values)"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [ChooseSuit(suit=x) for x in SUITS]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, ChooseSuit)
        if move.suit not in SUITS:
            return f"{player} cannot favor {move.suit!r}: the suits are {', '.join(SUITS)}"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, ChooseSuit)
        s.pop(self)
        s.favored = move.suit
        s.fact_changed("favored_suit")


@dataclass(slots=True)
class RebukeTask(Task):
    """Rebuke: the buyer removes every tribe and army from one region."""

    accepts = (Rebuke,)
    awaiting = "choice of a region for Rebuke"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [Rebuke(region=r) for r in REGIONS]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, Rebuke)
        if move.region not in REGIONS:
            return f"{player} cannot rebuke {move.region!r}: the regions are {', '.join(REGIONS)}"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, Rebuke)
        s.pop(self)
        board.remove_tribes_and_armies(s, move.region)
