"""Pax Pamir's move types: one struct per decision a player makes.

Main decisions of the action phase: ``buy``, ``play``, the card actions
``tax``, ``gift``, ``build``, ``move``, ``betray``, ``battle``, and
``end_turn``; under ``bga`` also ``bribe_refused``; the Wakhan's ``radicalize`` (her purchase).  Decisions inside an action or an effect: ``offer_bribe``,
``accept_bribe``, ``refuse_bribe``, ``withdraw``, ``place_road``, ``place_spy``,
``place_army``, ``take_piece``, ``tax_market``, ``tax_player``,
``move_army``, ``move_tribe``, ``move_spy``, ``remove_army``,
``remove_road``, ``remove_tribe``, ``remove_spy``, ``safe_house``,
``accept_prize``, ``decline_prize``, ``discard``, ``rumor``, ``swap_hands``,
``choose_suit``, ``rebuke``, ``skip`` and ``end_action``.  Setup:
``choose_loyalty``.  Under ``bga`` only, never a legal move: ``leave_table``
(:class:`~replay.decisions.LeaveTable`: the player left the table, and BGA's
zombie decides for them from then on).
"""

from __future__ import annotations

from replay.decisions import LeaveTable
from replay.engine import Move


class ChooseLoyalty(Move, tag="choose_loyalty", frozen=True):
    coalition: str


class Buy(Move, tag="buy", frozen=True):
    row: int
    col: int


class Radicalize(Move, tag="radicalize", frozen=True, omit_defaults=True):
    """The Wakhan's purchase: the card at ``row``, ``col`` goes straight into her court on
    ``side`` (an event card: no side; it resolves as a purchase does)."""

    row: int
    col: int
    side: str | None = None


class Play(Move, tag="play", frozen=True):
    card: int
    side: str


class Tax(Move, tag="tax", frozen=True):
    card: int


class Gift(Move, tag="gift", frozen=True):
    card: int
    value: int


class Build(Move, tag="build", frozen=True):
    card: int
    blocks: int


class MoveAction(Move, tag="move", frozen=True):
    card: int


class Betray(Move, tag="betray", frozen=True):
    card: int
    target: int


class Battle(Move, tag="battle", frozen=True, omit_defaults=True):
    card: int
    region: str | None = None
    court_card: int | None = None


class EndTurn(Move, tag="end_turn", frozen=True):
    pass


class OfferBribe(Move, tag="offer_bribe", frozen=True):
    amount: int


class BribeRefused(Move, tag="bribe_refused", frozen=True):
    """``bga`` only: a bribe negotiation for a play (``action`` ``play``) or a card action that
    ended without agreement (the action never happened)."""

    card: int
    action: str
    amount: int


class AcceptBribe(Move, tag="accept_bribe", frozen=True):
    pass


class RefuseBribe(Move, tag="refuse_bribe", frozen=True):
    pass


class Withdraw(Move, tag="withdraw", frozen=True):
    pass


class PlaceRoad(Move, tag="place_road", frozen=True):
    border: str


class PlaceSpy(Move, tag="place_spy", frozen=True):
    card: int


class PlaceArmy(Move, tag="place_army", frozen=True):
    region: str


class TakePiece(Move, tag="take_piece", frozen=True):
    piece: str


class TaxMarket(Move, tag="tax_market", frozen=True):
    row: int
    col: int


class TaxPlayer(Move, tag="tax_player", frozen=True):
    player: str


class MoveArmy(Move, tag="move_army", frozen=True):
    region: str
    to: str


class MoveTribe(Move, tag="move_tribe", frozen=True):
    region: str
    to: str


class MoveSpy(Move, tag="move_spy", frozen=True):
    card: int
    to: int


class RemoveArmy(Move, tag="remove_army", frozen=True):
    coalition: str


class RemoveRoad(Move, tag="remove_road", frozen=True):
    border: str
    coalition: str


class RemoveTribe(Move, tag="remove_tribe", frozen=True):
    player: str


class RemoveSpy(Move, tag="remove_spy", frozen=True):
    player: str


class SafeHouse(Move, tag="safe_house", frozen=True):
    card: int


class AcceptPrize(Move, tag="accept_prize", frozen=True):
    pass


class DeclinePrize(Move, tag="decline_prize", frozen=True):
    pass


class Discard(Move, tag="discard", frozen=True):
    card: int


class Rumor(Move, tag="rumor", frozen=True):
    player: str


class SwapHands(Move, tag="swap_hands", frozen=True):
    player: str


class ChooseSuit(Move, tag="choose_suit", frozen=True):
    suit: str


class Rebuke(Move, tag="rebuke", frozen=True):
    region: str


class Skip(Move, tag="skip", frozen=True):
    pass


class EndAction(Move, tag="end_action", frozen=True):
    pass


MOVES: tuple[type[Move], ...] = (
    ChooseLoyalty, Buy, Radicalize, Play, Tax, Gift, Build, MoveAction, Betray, Battle, EndTurn,
    OfferBribe, AcceptBribe, RefuseBribe, Withdraw, BribeRefused, PlaceRoad, PlaceSpy, PlaceArmy, TakePiece,
    TaxMarket, TaxPlayer, MoveArmy, MoveTribe, MoveSpy, RemoveArmy, RemoveRoad, RemoveTribe,
    RemoveSpy, SafeHouse, AcceptPrize, DeclinePrize, Discard, Rumor, SwapHands, ChooseSuit,
    Rebuke, Skip, EndAction, LeaveTable,
)
