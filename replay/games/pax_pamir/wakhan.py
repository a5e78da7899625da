"""The Wakhan: Pax Pamir's automated opponent, a seat of solo and two-player games.

She is a player with her own cylinders, rupees (4 at the start) and court, and no loyalty dial.
At the start of each of her turns she draws a card of her AI deck (24 cards, reshuffled when the
last one is drawn); the front of the card on top of her discard pile rules her turn.  Which card
she buys, where her pieces go and which action she takes follow that card's procedure: the
record says what she did, and these rules check that each of her moves is one a player in her
seat may make (her procedure itself is not checked: see ``docs/games/pax_pamir.md``).

Where she differs from a player, by the rules:

* **Pragmatic loyalty** (:func:`pragmatic_loyalty`): her coalition is the first one on her AI
  card that no other player is loyal to (with the *steadfast* variant: of those, the one with the
  most blocks in play).  Her roads and armies are of that coalition, and her Move and Battle use
  its armies.  It is asked afresh whenever it matters; nothing is discarded when it changes.
* **Influence** (:func:`influence_in`): she counts in every coalition at once: 1, her patriots of
  that coalition, her gifts, and her prizes of that coalition.  In a successful Dominance Check
  she competes in the dominant coalition whatever it is.
* **Rule** (:meth:`PaxState.ruling_pieces`): her tribes plus the largest army of any one
  coalition in the region.
* **Radicalize** (:func:`radicalize`): her purchase; the card goes straight into her court (an
  event resolves as a purchase does), one action for both.  A bribe for the play is paid in
  full at once; one she cannot afford sends the card to the discard pile instead.
* **Bribes**: she neither negotiates nor is negotiated with: an offer to or from her is the full
  bribe.
* **Patriots and prizes**: a patriot never changes her (absent) loyalty, and she keeps every
  prize she takes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import ChanceRequest, ImpossibleChance, Move, Outcome
from replay.games.pax_pamir import bribes, market
from replay.games.pax_pamir.components import (
    BLOCKS_PER_COALITION,
    COALITIONS,
    COURT,
    EMBARRASSMENT_OF_RICHES,
    KOH_I_NOOR,
    PUBLIC_WITHDRAWAL,
    RUMOR,
    WAKHAN_CARDS,
    card_name,
)
from replay.games.pax_pamir.court import check_side, discard_from_hand, play_card
from replay.games.pax_pamir.moves import Discard, Play, Radicalize
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

WAKHAN_DECK = "wakhan_deck"
"""The chance event of her AI deck: ``{"draw": "wakhan_deck", "items": [n]}`` (card 1-24)."""


def pragmatic_loyalty(s: PaxState) -> str | None:
    """The Wakhan's coalition now: the first on the front of her top discarded AI card that no
    other player is loyal to; with the steadfast variant, of those the one with the most blocks in
    play (the first of them on the card at a tie).  ``None`` before her first AI card."""
    if not s.ai_discard:
        return None
    taken = {loyal for p, loyal in s.loyalty.items() if p != s.wakhan and loyal is not None}
    free = [c for c in WAKHAN_CARDS[s.ai_discard[-1]].pragmatic_loyalty if c not in taken]
    if not free:
        return None
    if s.wakhan_steadfast:
        most = max(BLOCKS_PER_COALITION - s.block_supply[c] for c in free)
        return next(c for c in free if BLOCKS_PER_COALITION - s.block_supply[c] == most)
    return free[0]


def influence_in(s: PaxState, coalition: str) -> int:
    """The Wakhan's influence in ``coalition``: 1, her patriots of it (not under Rumor), her gifts
    (twice with Koh-i-noor Recovered, none under Embarrassment of Riches), her prizes of it."""
    w = s.wakhan
    assert w is not None
    held = s.held_events[w]
    n = 1
    if RUMOR not in held:
        n += sum(1 for c in s.courts[w] if COURT[c].patriot == coalition)
    n += sum(1 for c in s.prizes[w] if COURT[c].prize == coalition)
    if s.gifts[w] and EMBARRASSMENT_OF_RICHES not in s.global_events:
        n += (2 if KOH_I_NOOR in held else 1) * len(s.gifts[w])
    return n


def influences(s: PaxState) -> dict[str, int]:
    """Her influence in each coalition (BGA's ``wakhanInfluence``)."""
    return {c: influence_in(s, c) for c in COALITIONS}


@dataclass(slots=True)
class AIDrawTask(Task):
    """The start of her turn: the top card of her AI deck goes onto her discard pile.  When that
    was the last card, the whole AI deck is shuffled again (every card, the one just drawn too)
    and she draws again."""

    decision = False

    def request(self, s: PaxState) -> ChanceRequest:
        return ChanceRequest("draw", WAKHAN_DECK, count=1, pool=tuple((n, 1) for n in sorted(s.ai_deck)),
                             reason="the Wakhan's AI card for her turn")

    def reveal(self, s: PaxState, req: ChanceRequest, outcome: Outcome) -> None:
        card = outcome["items"][0]
        if card is None:
            raise ImpossibleChance("the Wakhan's AI card must be named: her coalition follows from it")
        s.ai_deck.remove(card)
        s.ai_discard.append(card)
        if not s.ai_deck:  # reshuffled at once, and drawn again
            s.ai_deck = sorted(WAKHAN_CARDS)
            s.ai_discard = []
            return
        s.pop(self)


# ---------------------------------------------------------------- radicalize


def play_bribe(s: PaxState, player: str, card: int) -> tuple[str, int] | None:
    """The bribe for her play of ``card`` (:func:`bribes.play_bribe`); none while she holds Courtly
    Manners, whose "may choose not to pay" she always takes (BGA)."""
    if s.may_refuse_bribes(player):
        return None
    return bribes.play_bribe(s, player, card)


def check_radicalize(s: PaxState, player: str, move: Radicalize) -> str | None:
    """Radicalize is the Wakhan's purchase, under a purchase's conditions; a court card names the
    end of her court it goes to (the first one: ``left``), an event card none."""
    if player != s.wakhan:
        return f"{player} cannot radicalize: only the Wakhan does (a player buys, then plays)"
    reason = market.check_buy(s, player, move.row, move.col, wakhan=s.ruleset == "bga")
    if reason is not None:
        return reason
    card = s.market[move.row][move.col]
    assert card is not None
    if card in COURT and unpaid_bribe(s, player, move.row, move.col):
        if move.side is not None:
            return (f"the Wakhan cannot radicalize {card_name(card)} into her court: she cannot pay the bribe for "
                    "it, so it goes to the discard pile (no side)")
    elif card in COURT:
        return check_side(s, player, card, move.side)
    elif move.side is not None:
        return f"the Wakhan cannot radicalize {card_name(card)} to a side of her court: it is an event card"
    return None


def unpaid_bribe(s: PaxState, player: str, row: int, col: int) -> bool:
    """Whether the bribe for playing the court card at ``row``, ``col`` would be more than she holds
    once she has bought it (the card then goes to the discard pile)."""
    card = s.market[row][col]
    assert card is not None
    due = play_bribe(s, player, card)
    if due is None or not due[1]:
        return False
    return due[1] > s.rupees[player] - market.purchase_cost(s, player, card, col) + s.market_rupees[row][col]


def radicalize_candidates(s: PaxState) -> Iterator[Radicalize]:
    w = s.wakhan
    assert w is not None
    sides = ("left", "right") if s.courts[w] else ("left",)
    for row, col in s.market_cells():
        card = s.market[row][col]
        if card in COURT and unpaid_bribe(s, w, row, col):
            yield Radicalize(row=row, col=col)
        elif card in COURT:
            yield from (Radicalize(row=row, col=col, side=side) for side in sides)
        elif card is not None:
            yield Radicalize(row=row, col=col)


def radicalize(s: PaxState, player: str, move: Radicalize) -> None:
    """One action: the purchase, then the play at once.  The play's bribe is paid in full; when
    she cannot pay it, the card goes to the discard pile instead (BGA's ``wakhanRadicalize``
    to the discard)."""
    card = s.market[move.row][move.col]
    assert card is not None
    s.actions_left -= 1
    if s.received[move.row][move.col]:  # (``bga`` only: :func:`check_radicalize`)
        s.depart("wakhan_buys_a_paid_check", f"the Wakhan buys {card_name(card)}, which received rupees this turn")
    market.buy(s, player, move.row, move.col)
    if card == PUBLIC_WITHDRAWAL:  # (``bga`` only: :func:`check_radicalize`)
        s.discard_pile.append(card)
        s.depart("wakhan_takes_public_withdrawal", "the Wakhan radicalizes Public Withdrawal: it goes to the "
                                                   "discard pile, to no effect")
    if card not in COURT:
        return
    due = play_bribe(s, player, card)
    if due is not None and due[1] > s.rupees[player]:  # (:func:`unpaid_bribe`)
        discard_from_hand(s, player, card)
        return
    if due is not None and due[1]:
        bribes.pay_bribe(s, player, due[0], due[1])
    assert move.side is not None
    play_card(s, player, card, move.side)


# ---------------------------------------------------------------- cards in her hand


@dataclass(slots=True)
class HandTask(Task):
    """Other Persuasive Methods is the one way the Wakhan gets cards in hand: she plays them into
    her court at once, one by one, no action spent, each play's bribe paid in full.  A card whose
    bribe she cannot pay is discarded instead, and (BGA) the rest stay in her hand."""

    from_person: bool = False
    """The swap was a person's (BGA then drops an Overthrow her plays cause: ``board.defer_wakhan_overthrow``)."""
    stopped: bool = False
    accepts = (Play, Discard)
    awaiting = "the Wakhan's play of a card from her hand (Other Persuasive Methods)"

    def is_open(self, s: PaxState) -> bool:
        return not self.stopped and bool(s.hands[self.player])

    def candidates(self, s: PaxState) -> Iterable[Move]:
        p = self.player
        for c in s.hands[p]:
            if _hand_bribe_unpaid(s, p, c):
                yield Discard(card=c)
            else:
                yield Play(card=c, side="left")
                if s.courts[p]:
                    yield Play(card=c, side="right")

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, (Play, Discard))
        card = move.card
        if card not in s.hands[player]:
            return f"the Wakhan cannot play or discard card {card}: it is not in her hand"
        if isinstance(move, Discard):
            if not _hand_bribe_unpaid(s, player, card):
                return f"the Wakhan cannot discard {card_name(card)}: she plays the cards she gets into her court"
            return None
        assert isinstance(move, Play)
        if _hand_bribe_unpaid(s, player, card):
            return f"the Wakhan cannot play {card_name(card)}: she cannot pay its bribe, so it is discarded"
        return check_side(s, player, card, move.side)

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        if isinstance(move, Discard):
            discard_from_hand(s, player, move.card)
            self.stopped = True
            return
        assert isinstance(move, Play)
        due = play_bribe(s, player, move.card)
        if due is not None and due[1]:
            bribes.pay_bribe(s, player, due[0], due[1])
        play_card(s, player, move.card, move.side)


def _hand_bribe_unpaid(s: PaxState, player: str, card: int) -> bool:
    due = play_bribe(s, player, card)
    return due is not None and due[1] > s.rupees[player]
