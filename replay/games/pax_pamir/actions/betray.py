"""Betray: pay 2, discard a court card carrying one's spy; take its prize or not."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir.components import (
    COURT,
    card_name,
)
from replay.games.pax_pamir.court import discard_from_court
from replay.games.pax_pamir.market import pay_to_market
from replay.games.pax_pamir.moves import (
    AcceptPrize,
    Betray,
    DeclinePrize,
)
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

BETRAY_COST = 2


def check_betray(s: PaxState, player: str, move: Betray) -> str | None:
    target = move.target
    if target not in s.owner:
        return f"{player} cannot betray card {target}: it is in no court"
    name = card_name(target)
    if not s.spies.get(target, {}).get(player):
        return f"{player} cannot betray {name}: {player} has no spy on it"
    owner = s.owner[target]
    if COURT[target].suit == "political" and s.has(owner, "bodyguards") and not past_bodyguards(s, player):
        return f"{player} cannot betray {name}: {owner}'s Bodyguards protect {owner}'s political cards"
    if s.rupees[player] < BETRAY_COST:
        return f"{player} cannot betray {name}: it costs {BETRAY_COST} rupees, {player} has {s.rupees[player]}"
    return None


def past_bodyguards(s: PaxState, player: str) -> bool:
    """``bga``: BGA's Wakhan reads the Bodyguards of her own court, not the target owner's, so she
    may betray a political card they protect (departure ``wakhan_betrays_past_bodyguards``)."""
    return player == s.wakhan and s.ruleset == "bga"


def betray(s: PaxState, player: str, target: int) -> None:
    """Betray: pay 2 to the market, discard the card; its prize may be taken."""
    pay_to_market(s, player, BETRAY_COST)
    owner = s.owner[target]
    if COURT[target].suit == "political" and s.has(owner, "bodyguards"):  # (:func:`past_bodyguards`)
        s.depart("wakhan_betrays_past_bodyguards", f"the Wakhan betrays {card_name(target)}, which {owner}'s "
                                                   "Bodyguards protect")
    has_prize = COURT[target].prize is not None
    if has_prize:
        s.push(PrizeTask(player, target))
    discard_from_court(s, owner, target, to_pile=not has_prize)


@dataclass(slots=True)
class PrizeTask(Task):
    """The betrayer may take the betrayed card as a prize (changing loyalty if needed)."""

    card: int
    accepts = (AcceptPrize, DeclinePrize)
    awaiting = "decision on the prize (accept_prize or decline_prize)"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [AcceptPrize(), DeclinePrize()]

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        from replay.games.pax_pamir.court import change_loyalty

        s.pop(self)
        if isinstance(move, DeclinePrize):
            s.discard_pile.append(self.card)
            return
        prize = COURT[self.card].prize
        assert prize is not None
        if prize != s.loyalty[player] and player != s.wakhan:  # she keeps any prize, loyal to none
            change_loyalty(s, player, prize)
        s.prizes[player].append(self.card)
        s.influence_changed(player)

    def describe(self) -> str:
        return f"decision on {card_name(self.card)} as a prize (accept_prize or decline_prize)"
