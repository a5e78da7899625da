"""Bribes: to a region's ruler for playing a card there, and to a hostage holder for using a
card's action.

The payer offers an amount up to the full bribe, or withdraws (nothing happens, nothing is
spent).  The full bribe is paid at once; a smaller offer needs the recipient's consent, and a
refused offer costs nothing and the action does not happen.  The buyer of Courtly Manners
"may choose not to pay bribes": an offer of 0 is then enough, no consent needed (BGA waives
only an offer of 0 too), and paying stays possible.  Disregard for Customs, Charismatic
Courtiers and Civil Service Reforms waive bribes altogether.  Under ``bga`` only, three
refused offers in a turn leave only full bribes (Board Game Arena's limit).  The Wakhan never
negotiates: a bribe she pays or is paid is the full one.

A refused offer leaves no trace under the rulebook: the action does not happen, nothing is
spent.  Board Game Arena negotiates before the player has said more than the card and the
action (not the side of a play, the gift, the blocks, the target or the battle site), and
counts each negotiation that fails towards its limit: under ``bga`` that is ``bribe_refused``
(the card, the action, the payer's last offer), the one trace it leaves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir.actions import (
    MAX_REFUSALS,
    action_cost,
    check_card_action,
    hostage_bribe,
    refusals_exhausted,
    start_card_action,
)
from replay.games.pax_pamir.actions.betray import BETRAY_COST
from replay.games.pax_pamir.components import COURT, GIFT_VALUES, card_name
from replay.games.pax_pamir.court import play_card
from replay.games.pax_pamir.moves import AcceptBribe, BribeRefused, OfferBribe, Play, RefuseBribe, Withdraw
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


NEGOTIATED_ACTIONS = ("play", "tax", "gift", "build", "move", "betray", "battle")
"""What a bribe may be negotiated for: a play, or a card action."""

BUILD_COST_LEAST = 2
"""The cheapest Build: one block."""


def least_cost(s: PaxState, player: str, action: str) -> int | None:
    """The least the action itself can cost (an offer may not eat into it); ``None``: no gift
    space is left."""
    if action == "gift":
        return min((v for v in GIFT_VALUES if v not in s.gifts[player]), default=None)
    if action == "build":
        return BUILD_COST_LEAST
    if action == "betray":
        return BETRAY_COST
    return 0


def check_bribe_refused(s: PaxState, player: str, move: BribeRefused) -> str | None:
    """A failed negotiation is recorded (``bga``) when the play or card action was open to the
    player, needed a bribe, and the last offer was below it and affordable."""
    card, action, amount = move.card, move.action, move.amount
    if s.ruleset != "bga":
        return ("a refused bribe offer leaves no trace under the rulebook, so the record holds none "
                "(the bga rules count it towards Board Game Arena's limit of three a turn)")
    if action not in NEGOTIATED_ACTIONS:
        return f"{player} cannot negotiate a bribe to {action!r}: bribes are for {', '.join(NEGOTIATED_ACTIONS)}"
    if action == "play":
        if card not in s.hands[player]:
            return f"{player} cannot negotiate to play card {card}: it is not in {player}'s hand"
        if s.actions_left <= 0:
            return f"{player} cannot negotiate to play {card_name(card)}: {player} has no actions left this turn"
        due = play_bribe(s, player, card)
    else:
        reason = check_card_action(s, player, card, action)
        if reason is not None:
            return reason
        due = hostage_bribe(s, player, card)
    what = f"{action} {card_name(card)}" if action == "play" else f"{action} with {card_name(card)}"
    if due is None or due[1] == 0:
        return f"{player} cannot negotiate a bribe to {what}: no bribe is due"
    recipient, full = due
    if s.wakhan in (player, recipient):
        return f"{player} cannot negotiate a bribe to {what}: the Wakhan does not negotiate, the full bribe is paid"
    if not 0 <= amount < full:
        return (f"{player} cannot negotiate with an offer of {amount} to {what}: a negotiation starts below the "
                f"full bribe of {full} (the full bribe is paid at once)")
    if amount == 0 and s.may_refuse_bribes(player):
        return f"{player} cannot negotiate an offer of 0 to {what}: Courtly Manners lets {player} leave it unpaid"
    cost = least_cost(s, player, action)
    if cost is None:
        return f"{player} cannot negotiate to {what}: every gift space is taken"
    if amount > s.rupees[player] - cost:
        return (f"{player} cannot offer {amount} rupees to {recipient}: {player} has {s.rupees[player]}"
                + (f" and needs {cost} for the action" if cost else ""))
    if refusals_exhausted(s):
        return (f"{player} cannot negotiate a bribe to {what}: {MAX_REFUSALS} offers were already refused this "
                "turn (BGA's limit)")
    return None


def bribe_refused(s: PaxState) -> None:
    """The negotiation failed: nothing happens, no action is spent; one more refusal this turn."""
    s.declines += 1


def refusal_candidates(s: PaxState, player: str) -> Iterable[BribeRefused]:
    """``bribe_refused`` for every play and card action that needs a bribe (``bga``), each offer
    below the full bribe (a superset: :func:`check_bribe_refused` judges them)."""
    for c in s.hands[player]:
        due = play_bribe(s, player, c)
        if due is not None:
            yield from (BribeRefused(card=c, action="play", amount=a) for a in range(due[1]))
    for c in s.courts[player]:
        due = hostage_bribe(s, player, c)
        if due is not None:
            for action in COURT[c].actions:
                yield from (BribeRefused(card=c, action=action, amount=a) for a in range(due[1]))


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
        if a < self.full and s.wakhan in (player, self.recipient) and not (a == 0 and s.may_refuse_bribes(player)):
            return f"{player} cannot offer less than the full bribe of {self.full}: the Wakhan does not negotiate"
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
