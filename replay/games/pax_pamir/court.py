"""Courts and hands: playing a card (its impact icons), discarding a card from a court
(spies, overthrow, leverage), the loyalty-change procedure and the discard decisions."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import BORDERS_OF, COURT, PASHTUNWALI_VALUES, card_name
from replay.games.pax_pamir.moves import Discard, PlaceRoad, PlaceSpy, Skip
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

LEVERAGE_RUPEES = 2


# ---------------------------------------------------------------- play


def check_side(s: PaxState, player: str, card: int, side: str | None) -> str | None:
    """A card goes to the left or the right end of a court; the first one is played as ``left``."""
    if side not in ("left", "right"):
        return (f"{player} cannot play {card_name(card)} on side {side!r}: a card goes to the left or right end "
                "of the court")
    if not s.courts[player] and side != "left":
        return (f"{player} cannot play {card_name(card)} on the right: the court is empty, the first card is "
                "played as 'left'")
    return None


def play_card(s: PaxState, player: str, card: int, side: str) -> None:
    """Play: the card joins the court at one end, a foreign patriot changes the player's
    loyalty, then the impact icons resolve top to bottom."""
    s.hands[player].remove(card)
    s.hand_changed(player)
    if side == "left":
        s.courts[player].insert(0, card)
    else:
        s.courts[player].append(card)
    s.court_changed(player)
    s.owner[card] = player
    patriot = COURT[card].patriot
    if patriot is not None:  # influence counts the patriots in a court, no other card
        s.influence_changed(player)
    # the icons wait below whatever the loyalty change leaves to decide (a leveraged patriot's
    # repayment discards come first: §5.2 resolves icons after the loyalty change, §11)
    s.push(IconsTask(player, card, 0))
    if patriot is not None and patriot != s.loyalty[player] and player != s.wakhan:  # she has no loyalty
        change_loyalty(s, player, patriot)


@dataclass(slots=True)
class IconsTask(Task):
    """Resolves a played card's impact icons one by one (automatic)."""

    card: int
    index: int
    decision = False

    def run(self, s: PaxState) -> None:
        c = COURT[self.card]
        if s.owner.get(self.card) != self.player or self.index >= len(c.impact):
            s.pop(self)
            return
        icon = c.impact[self.index]
        self.index += 1
        resolve_icon(s, self.player, self.card, icon)


def resolve_icon(s: PaxState, player: str, card: int, icon: str) -> None:
    c = COURT[card]
    loyal = s.loyalty[player] or s.coalition_of(player)  # (the Wakhan's: her pragmatic loyalty)
    if icon == "road":
        s.push(RoadTask(player, c.region))
    elif icon == "army":
        board.place(s, player, "army", c.region, loyal)
    elif icon == "tribe":
        board.place(s, player, "tribe", c.region)
    elif icon == "spy":
        s.push(SpyTask(player, c.region, False))
    elif icon == "leverage":
        s.rupees[player] += LEVERAGE_RUPEES
        s.leveraged.add(card)
    else:
        change_favored_suit(s, icon.removeprefix("favor_"))


def change_favored_suit(s: PaxState, suit: str) -> None:
    """Move the favored-suit marker (ignored while Pashtunwali Values is in force)."""
    if s.event_held(PASHTUNWALI_VALUES):
        return
    s.favored = suit
    s.fact_changed("favored_suit")


@dataclass(slots=True)
class RoadTask(Task):
    """A road icon: the player picks a border touching the card's region."""

    region: str
    accepts = (PlaceRoad,)
    awaiting = "choice of a border for a road"

    def is_open(self, s: PaxState) -> bool:
        return board.can_place(s, self.player, "road", s.coalition_of(self.player))

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [PlaceRoad(border=b) for b in BORDERS_OF[self.region]]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, PlaceRoad)
        if move.border not in BORDERS_OF[self.region]:
            return (f"{player} cannot place the road on {move.border!r}: a road icon of a "
                    f"{self.region.title()} card goes on a border of {self.region.title()} "
                    f"({', '.join(BORDERS_OF[self.region])})")
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, PlaceRoad)
        s.pop(self)
        board.place(s, player, "road", move.border, s.coalition_of(player))

    def describe(self) -> str:
        return f"choice of a border of {self.region.title()} for a road"


def spy_targets(s: PaxState, region: str) -> list[int]:
    """Court cards of a region, in every court (seat order, left to right)."""
    return [c for p in s.players for c in s.courts[p] if COURT[c].region == region]


@dataclass(slots=True)
class SpyTask(Task):
    """A spy icon (or Blackmail at the start of a turn): the player picks a court card of the
    region.  Blackmail may be declined and only reaches cards without any spy; under ``bga`` it
    is offered when such a card exists, and then reaches any card without one of the player's
    own spies (BGA's server; its client shows only the cards without spies)."""

    region: str
    blackmail: bool
    accepts = (PlaceSpy, Skip)

    def _targets(self, s: PaxState) -> list[int]:
        cards = spy_targets(s, self.region)
        if self.blackmail:
            free = [c for c in cards if not s.spies.get(c)]
            if free and s.ruleset == "bga":
                return [c for c in cards if not s.spies.get(c, {}).get(self.player)]
            return free
        return cards

    def is_open(self, s: PaxState) -> bool:
        return bool(self._targets(s)) and board.can_place(s, self.player, "spy")

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [PlaceSpy(card=c) for c in self._targets(s)]
        if self.blackmail:
            out.append(Skip())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        if not isinstance(move, PlaceSpy):
            if self.blackmail:
                return None
            return f"{player} cannot skip the spy icon: every impact icon of a played card is resolved"
        if move.card not in s.owner:
            return f"{player} cannot place a spy on card {move.card}: it is in no court"
        if COURT[move.card].region != self.region:
            return (f"{player} cannot place a spy on {card_name(move.card)}: it is a "
                    f"{COURT[move.card].region.title()} card, the spy must go on a {self.region.title()} card")
        if self.blackmail and move.card not in self._targets(s):
            if s.ruleset == "bga":
                return (f"{player} cannot blackmail {card_name(move.card)}: {player} already has a spy on it "
                        "(BGA's Blackmail reaches a card without one of the player's spies)")
            return (f"{player} cannot blackmail {card_name(move.card)}: Blackmail only reaches a "
                    f"{self.region.title()} card with no spy on it")
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        s.pop(self)
        if isinstance(move, PlaceSpy):
            if self.blackmail and s.spies.get(move.card):
                s.depart("blackmail_spied_card",
                         f"{player} blackmails {card_name(move.card)}, which holds another player's spy (BGA); "
                         "the rulebook's Blackmail reaches only a card with no spy")
            board.place(s, player, "spy", str(move.card))

    def describe(self) -> str:
        if self.blackmail:
            return f"Blackmail decision (a spy on a {self.region.title()} card without spies, or skip)"
        return f"choice of a {self.region.title()} court card for a spy"


# ---------------------------------------------------------------- discarding from a court


def discard_from_court(s: PaxState, player: str, card: int, *, to_pile: bool = True) -> None:
    """A card leaves a court: its spies go home, it is discarded (unless it becomes a prize),
    a political card may overthrow its owner's tribes, a leveraged card is repaid."""
    board.return_all_spies(s, card)
    s.courts[player].remove(card)
    s.court_changed(player)
    del s.owner[card]
    c = COURT[card]
    if c.patriot is not None:  # influence counts the patriots in a court, no other card
        s.influence_changed(player)
    s.used.discard(card)
    if to_pile:
        s.discard_pile.append(card)
    if c.suit == "political":
        board.overthrow_after_last_political(s, player, c.region)
    if is_leveraged(s, card):
        if card not in s.leveraged:
            s.depart("leverage_by_icon",
                     f"{player} repays {card_name(card)}'s leverage, never taken (its icons were not yet resolved; "
                     "BGA judges by the icon); the rulebook repays only a leverage taken")
        s.leveraged.discard(card)
        repay_leverage(s, player)


def is_leveraged(s: PaxState, card: int) -> bool:
    """A court card whose leverage was taken.  ``bga``: any court card with a leverage icon, taken
    or not: Board Game Arena judges by the icon, so a card discarded during its own play, before
    its icons are resolved, is repaid all the same (its 2 rupees never received)."""
    return card in s.leveraged or (s.ruleset == "bga" and "leverage" in COURT[card].impact)


def repay_leverage(s: PaxState, player: str) -> None:
    """A leveraged card was discarded: 2 rupees back to the bank, one more discard for each
    rupee the owner cannot pay (forgiven once the owner has no cards)."""
    paid = min(LEVERAGE_RUPEES, s.rupees[player])
    s.rupees[player] -= paid
    short = LEVERAGE_RUPEES - paid
    if short and player == s.wakhan and s.ruleset == "bga":
        s.depart("wakhan_skips_chosen_discards",
                 f"the Wakhan repays {paid} rupee(s) of leverage and discards nothing for the {short} short")
    elif short:
        s.push(DiscardTask(player, "leverage", short))


def discard_from_hand(s: PaxState, player: str, card: int) -> None:
    s.hands[player].remove(card)
    s.hand_changed(player)
    s.discard_pile.append(card)


# ---------------------------------------------------------------- loyalty


def change_loyalty(s: PaxState, player: str, coalition: str) -> None:
    """The loyalty-change procedure: gifts home, prizes discarded, old patriots discarded,
    the dial turned, every ruler re-checked."""
    old = s.loyalty[player]
    for v in list(s.gifts[player]):
        board.take_gift(s, player, v)
    s.discard_pile.extend(s.prizes[player])
    s.prizes[player] = []
    s.influence_changed(player)
    patriots = old_patriots(s, player, old)
    if len(patriots) > 1 and any(is_leveraged(s, c) for c in patriots):
        # a leveraged one among them: the player discards them one at a time, in an order of
        # their choice (each repayment comes before the next); then the dial turns
        s.push(LoyaltyDialTask(player, old, coalition))
        s.push(PatriotDiscardTask(player, old))
        return
    for card in patriots:
        if card in s.courts[player]:
            discard_from_court(s, player, card)
    turn_loyalty_dial(s, player, old, coalition)


def old_patriots(s: PaxState, player: str, old: str | None) -> list[int]:
    return [c for c in s.courts[player] if COURT[c].patriot is not None and COURT[c].patriot == old]


def turn_loyalty_dial(s: PaxState, player: str, old: str | None, coalition: str) -> None:
    s.loyalty[player] = coalition
    s.influence_changed(player)
    s.add_milestone("loyalty_change", player_id=player, old=old, new=coalition)
    board.recheck_rulers(s)


@dataclass(slots=True)
class PatriotDiscardTask(Task):
    """A loyalty change discards the old coalition's patriots; when one of them is leveraged the
    player discards them one by one, choosing the order (rules §10.3)."""

    old: str | None
    accepts = (Discard,)
    awaiting = "discard of an old-coalition patriot (loyalty change)"

    def is_open(self, s: PaxState) -> bool:
        return bool(old_patriots(s, self.player, self.old))

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [Discard(card=c) for c in old_patriots(s, self.player, self.old)]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, Discard)
        if move.card not in old_patriots(s, player, self.old):
            return (f"{player} cannot discard card {move.card} now: the loyalty change discards the "
                    f"{self.old} patriots of {player}'s court first")
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, Discard)
        discard_from_court(s, player, move.card)


@dataclass(slots=True)
class OverthrowDiscardTask(Task):
    """``bga``: an Overthrow whose political cards include a leveraged one is discarded one card
    at a time, the player choosing each (Board Game Arena asks even for a single card; the rules
    file's §12 **[BGA]**; not the Wakhan).  BGA's server takes any card of the player's court at each step (its
    client offers only the overthrown cards), and asks again while a leveraged one is left; the
    rest then go at once.  The rulebook discards them all at once."""

    region: str
    accepts = (Discard,)
    awaiting = "discard of an overthrown political card"

    def _left(self, s: PaxState) -> list[int]:
        return board.overthrown_cards(s, self.player, self.region)

    def is_open(self, s: PaxState) -> bool:  # BGA's Wakhan discards them all at once, as the rulebook does
        return s.ruleset == "bga" and self.player != s.wakhan and any(is_leveraged(s, c) for c in self._left(s))

    def close(self, s: PaxState) -> None:
        for card in self._left(s):
            discard_from_court(s, self.player, card)

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [Discard(card=c) for c in s.courts[self.player]]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, Discard)
        if move.card not in s.courts[player]:
            return f"{player} cannot discard card {move.card}: it is not in {player}'s court"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, Discard)
        if move.card not in self._left(s):
            s.depart("overthrow_any_card",
                     f"{player} discards {card_name(move.card)} during the Overthrow of {self.region.title()}, "
                     "though it is not one of the overthrown cards (BGA's server accepts any card); the "
                     "rulebook discards exactly the region's political cards")
        discard_from_court(s, player, move.card)

    def describe(self) -> str:
        return f"discard of an overthrown political {self.region.title()} card (or, on BGA, any court card)"


@dataclass(slots=True)
class LoyaltyDialTask(Task):
    """The end of a loyalty change whose patriots were discarded one by one: the dial turns."""

    old: str | None
    coalition: str
    decision = False

    def run(self, s: PaxState) -> None:
        s.pop(self)
        turn_loyalty_dial(s, self.player, self.old, self.coalition)


# ---------------------------------------------------------------- discard decisions

_REASONS = {
    "court_limit": "court is over its limit",
    "hand_limit": "hand is over its limit",
    "leverage": "leverage could not be repaid in full",
    "confidence_failure": "Confidence Failure",
}


@dataclass(slots=True)
class DiscardTask(Task):
    """A player must discard: down to the court or hand limit in cleanup, one card per rupee of
    leverage they could not repay (from hand or court), or one hand card for Confidence Failure."""

    reason: str
    count: int
    accepts = (Discard,)

    def _sources(self, s: PaxState) -> tuple[bool, bool]:
        """(from court, from hand)."""
        if self.reason == "court_limit":
            return True, False
        if self.reason == "leverage":
            return True, True
        return False, True

    def is_open(self, s: PaxState) -> bool:
        p = self.player
        if self.reason == "court_limit":
            return len(s.courts[p]) > s.court_limit(p)
        if self.reason == "hand_limit":
            return len(s.hands[p]) > s.hand_limit(p)
        if self.reason == "leverage":
            return self.count > 0 and bool(s.hands[p] or s.courts[p])
        return self.count > 0 and bool(s.hands[p])

    def candidates(self, s: PaxState) -> Iterable[Move]:
        court, hand = self._sources(s)
        out: list[Move] = []
        if hand:
            out.extend(Discard(card=c) for c in s.hands[self.player])
        if court:
            out.extend(Discard(card=c) for c in s.courts[self.player])
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, Discard)
        court, hand = self._sources(s)
        if (court and move.card in s.courts[player]) or (hand and move.card in s.hands[player]):
            return None
        where = " or ".join(w for w, ok in (("hand", hand), ("court", court)) if ok)
        return (f"{player} cannot discard card {move.card}: it is not in {player}'s {where} "
                f"({player}'s {_REASONS[self.reason]})")

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, Discard)
        self.count -= 1
        if move.card in s.hands[player]:
            discard_from_hand(s, player, move.card)
        else:
            discard_from_court(s, player, move.card)

    def describe(self) -> str:
        if self.reason == "court_limit":
            return "discard from court (court limit = 3 + political stars)"
        if self.reason == "hand_limit":
            return "discard from hand (hand limit = 2 + intelligence stars)"
        if self.reason == "leverage":
            return f"discard of {self.count} card(s) from hand or court (unpaid leverage)"
        return "discard of one hand card (Confidence Failure)"
