"""Bribes: to a region's ruler for playing a card there, and to a hostage holder for using a
card's action.

The payer offers an amount up to the full bribe, or withdraws (nothing happens, nothing is
spent).  The full bribe is paid at once; a smaller offer needs the recipient's consent, and a
refused offer costs nothing and the action does not happen.  The buyer of Courtly Manners
"may choose not to pay bribes": an offer of 0 is then enough, no consent needed (BGA waives
only an offer of 0 too), and paying stays possible.  Disregard for Customs, Charismatic
Courtiers and Civil Service Reforms waive bribes altogether.  Under ``bga`` only, three
refused offers in a turn leave only full bribes (Board Game Arena's limit).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir.actions import (
    MAX_REFUSALS,
    action_cost,
    hostage_bribe,
    refusals_exhausted,
    start_card_action,
)
from replay.games.pax_pamir.components import COURT, card_name
from replay.games.pax_pamir.court import play_card
from replay.games.pax_pamir.moves import AcceptBribe, OfferBribe, Play, RefuseBribe, Withdraw
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

def play_bribe(s: PaxState, player: str, card: int) -> tuple[str, int] | None:
    """(ruler, bribe) when the card's region is ruled by another player and no bribe is waived."""
    region = COURT[card].region
    ruler = s.rulers[region]
    if ruler is None or ruler == player:
        return None
    if s.has(player, "charismatic_courtiers") or s.bribes_waived():
        return None
    return ruler, s.tribes[region][ruler]


def bribe_due(s: PaxState, player: str, move: Move) -> tuple[str, int] | None:
    if isinstance(move, Play):
        return play_bribe(s, player, move.card)
    card = getattr(move, "card", None)
    assert isinstance(card, int)
    return hostage_bribe(s, player, card)


def begin(s: PaxState, player: str, move: Move) -> None:
    """A play or card action is declared: settle its bribe first, if one is due."""
    due = bribe_due(s, player, move)
    if due is not None and due[1] > 0:
        s.push(BribeTask(player, due[0], due[1], move))
        return
    carry_out(s, player, move)


def carry_out(s: PaxState, player: str, move: Move) -> None:
    if isinstance(move, Play):
        s.actions_left -= 1
        play_card(s, player, move.card, move.side)
    else:
        start_card_action(s, player, move)  # type: ignore[arg-type]


def _what(move: Move) -> str:
    if isinstance(move, Play):
        return f"play {card_name(move.card)}"
    card = getattr(move, "card", 0)
    return f"{move.type} with {card_name(card)}"


@dataclass(slots=True)
class BribeTask(Task):
    """The payer names the bribe they offer (0 up to the full bribe), or withdraws."""

    recipient: str
    full: int
    action: Move
    accepts = (OfferBribe, Withdraw)

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [OfferBribe(amount=a) for a in range(self.full + 1)]
        out.append(Withdraw())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        if isinstance(move, Withdraw):
            return None
        assert isinstance(move, OfferBribe)
        a = move.amount
        if not 0 <= a <= self.full:
            return f"{player} cannot offer {a} rupees: the bribe to {self.recipient} is at most {self.full}"
        spare = s.rupees[player] - action_cost(s, player, self.action)
        if a > spare:
            return (f"{player} cannot offer {a} rupees to {self.recipient}: {player} has {s.rupees[player]}"
                    + (f" and needs {s.rupees[player] - spare} for the action" if spare != s.rupees[player] else ""))
        if a < self.full and refusals_exhausted(s) and not (a == 0 and s.may_refuse_bribes(player)):
            return (f"{player} cannot offer less than the full bribe of {self.full}: {MAX_REFUSALS} offers were "
                    "already refused this turn (BGA's limit)")
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        s.pop(self)
        if isinstance(move, Withdraw):
            return
        assert isinstance(move, OfferBribe)
        if move.amount == self.full:
            pay_bribe(s, player, self.recipient, move.amount)
            carry_out(s, player, self.action)
        elif move.amount == 0 and s.may_refuse_bribes(player):
            carry_out(s, player, self.action)  # Courtly Manners: the bribe goes unpaid
        else:
            s.push(BribeAnswerTask(self.recipient, player, move.amount, self.action))

    def describe(self) -> str:
        return f"bribe offer to {self.recipient} to {_what(self.action)} (full bribe {self.full}) or withdraw"


def pay_bribe(s: PaxState, payer: str, recipient: str, amount: int) -> None:
    s.rupees[payer] -= amount
    s.rupees[recipient] += amount


@dataclass(slots=True)
class BribeAnswerTask(Task):
    """The recipient accepts or refuses an offer below the full bribe."""

    payer: str
    amount: int
    action: Move
    accepts = (AcceptBribe, RefuseBribe)

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [AcceptBribe(), RefuseBribe()]

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        s.pop(self)
        if isinstance(move, AcceptBribe):
            pay_bribe(s, self.payer, player, self.amount)
            carry_out(s, self.payer, self.action)
        else:
            s.declines += 1

    def describe(self) -> str:
        return f"answer to {self.payer}'s bribe offer of {self.amount} (to {_what(self.action)})"
