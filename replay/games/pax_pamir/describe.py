"""Moves in words, for the game viewer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.decisions import LeaveTable
from replay.engine import Move
from replay.games.pax_pamir import moves as m
from replay.games.pax_pamir.components import card_name
from replay.games.pax_pamir.market import cell_name

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState


def _border(b: str) -> str:
    x, _, y = b.partition("_")
    return f"the {x.title()}-{y.title()} border" if y else f"border {b!r}"


def describe(s: PaxState, player: str, move: Move) -> str:
    """One sentence: who does what."""
    if isinstance(move, LeaveTable):
        return move.describe(player)
    what = _what(s, player, move)
    return f"{player} {what}"


def _what(s: PaxState, player: str, move: Move) -> str:  # noqa: C901 - one line per move type
    if isinstance(move, m.ChooseLoyalty):
        return f"chooses loyalty to the {move.coalition.title()} coalition"
    if isinstance(move, m.Buy):
        on_board = 0 <= move.row <= 1 and 0 <= move.col <= 5
        card = s.market[move.row][move.col] if on_board else None
        name = card_name(card) if card is not None else "an empty cell"
        return f"buys {name} ({cell_name(move.row, move.col)} of the market)"
    if isinstance(move, m.Play):
        return f"plays {card_name(move.card)} on the {move.side} of their court"
    if isinstance(move, m.Tax):
        return f"taxes with {card_name(move.card)}"
    if isinstance(move, m.Gift):
        return f"buys the {move.value}-rupee gift with {card_name(move.card)}"
    if isinstance(move, m.Build):
        return f"builds {move.blocks} block{'s' if move.blocks != 1 else ''} with {card_name(move.card)}"
    if isinstance(move, m.MoveAction):
        return f"moves with {card_name(move.card)}"
    if isinstance(move, m.Betray):
        return f"uses {card_name(move.card)} to betray {card_name(move.target)}"
    if isinstance(move, m.Battle):
        site = move.region.title() if move.region else card_name(move.court_card or 0)
        return f"battles at {site} with {card_name(move.card)}"
    if isinstance(move, m.EndTurn):
        return "ends the action phase"
    if isinstance(move, m.OfferBribe):
        return f"offers a bribe of {move.amount} rupee{'s' if move.amount != 1 else ''}"
    if isinstance(move, m.AcceptBribe):
        return "accepts the bribe"
    if isinstance(move, m.RefuseBribe):
        return "refuses the bribe"
    if isinstance(move, m.BribeRefused):
        what = (f"play {card_name(move.card)}" if move.action == "play"
                else f"{move.action} with {card_name(move.card)}")
        return (f"offers a bribe of {move.amount} rupee{'s' if move.amount != 1 else ''} to {what}; "
                "the negotiation fails (nothing happens)")
    if isinstance(move, m.Withdraw):
        return "withdraws rather than pay the bribe"
    if isinstance(move, m.PlaceRoad):
        return f"places a road on {_border(move.border)}"
    if isinstance(move, m.PlaceSpy):
        return f"places a spy on {card_name(move.card)}"
    if isinstance(move, m.PlaceArmy):
        return f"places an army in {move.region.title()}"
    if isinstance(move, m.TakePiece):
        kind, _, where = move.piece.partition(":")
        place = card_name(int(where)) if kind == "spy" and where.isdigit() else (_border(where) if kind == "road" else where)
        return f"takes their {kind} from {place} (the supply is empty)"
    if isinstance(move, m.TaxMarket):
        return f"takes a rupee from {cell_name(move.row, move.col)} of the market"
    if isinstance(move, m.TaxPlayer):
        return f"taxes a rupee from {move.player}"
    if isinstance(move, m.MoveArmy):
        return f"moves an army from {move.region.title()} to {move.to.title()}"
    if isinstance(move, m.MoveTribe):
        return f"moves a tribe from {move.region.title()} to {move.to.title()}"
    if isinstance(move, m.MoveSpy):
        return f"moves a spy from {card_name(move.card)} to {card_name(move.to)}"
    if isinstance(move, m.RemoveArmy):
        return f"removes a {move.coalition} army"
    if isinstance(move, m.RemoveRoad):
        return f"removes a {move.coalition} road from {_border(move.border)}"
    if isinstance(move, m.RemoveTribe):
        return f"removes a tribe of {move.player}"
    if isinstance(move, m.RemoveSpy):
        return f"removes a spy of {move.player}"
    if isinstance(move, m.SafeHouse):
        return f"shelters the spy on {card_name(move.card)} (Safe House)"
    if isinstance(move, m.AcceptPrize):
        return "takes the betrayed card as a prize"
    if isinstance(move, m.DeclinePrize):
        return "declines the prize"
    if isinstance(move, m.Discard):
        return f"discards {card_name(move.card)}"
    if isinstance(move, m.Rumor):
        return f"spreads a rumor about {move.player}"
    if isinstance(move, m.SwapHands):
        return f"swaps hands with {move.player}"
    if isinstance(move, m.ChooseSuit):
        return f"makes {move.suit} the favored suit"
    if isinstance(move, m.Rebuke):
        return f"rebukes {move.region.title()}"
    if isinstance(move, m.Skip):
        return "declines the optional ability"
    return "ends the card action"
