"""Copenhagen's move types: one per decision a player makes.

=====================  ======================================================
``take_card``          take the card in harbour ``slot`` (first, second or third card)
``discard``            discard one card of ``color`` to get back to the hand limit
``both_actions``       use the both-actions tile: go on to build after taking cards
``end_turn``           stop: decline the third card / both actions, or skip the optional build
``build``              build a coloured facade tile, paying ``pay`` cards
``take_ability``       coat-of-arms bonus: take an ability tile
``place_white``        coat-of-arms bonus: place a white tile at ``(x, y)``
``refresh_abilities``  coat-of-arms bonus: flip all used ability tiles back
``leave_table``        ``bga`` only: the player left the table (BGA's zombie, :class:`~replay.decisions.LeaveTable`)
=====================  ======================================================
"""

from __future__ import annotations

from replay.decisions import LeaveTable
from replay.engine import Move


class TakeCard(Move, tag="take_card", frozen=True):
    """Take the card in harbour slot ``slot`` (0-6, left to right).

    The second card must lie next to the slot the first one came from, unless
    the player's unused "any cards" tile is spent on it; a third card needs an
    unused "additional card" tile, which it spends.
    """

    slot: int


class Discard(Move, tag="discard", frozen=True):
    """Discard one card of ``color`` (the hand holds more than 7 cards)."""

    color: str


class BothActions(Move, tag="both_actions", frozen=True):
    """Spend the "both actions" tile after taking cards, to build in the same turn."""


class EndTurn(Move, tag="end_turn", frozen=True):
    """Decline what is left of an optional step (third card, both actions, the extra build)."""


class Build(Move, tag="build", frozen=True):
    """Build the ``color`` tile of ``size`` cells.

    ``x``, ``y``: the lower-left corner of the tile's bounding box on the
    board; ``rotation`` (0, 90, 180, 270: clockwise quarter turns) then
    ``flip`` (0 or 180: mirrored left-right).  ``pay``: the cards discarded,
    by colour (``{"red": 2}``; ``{}`` when the tile costs nothing).
    ``construction_discount``: spend that tile for one card less.
    ``change_from``: spend the change-of-colours tile so that cards of this
    colour count as ``color`` for this payment.
    """

    color: str
    size: int
    x: int
    y: int
    rotation: int
    flip: int
    pay: dict[str, int]
    construction_discount: bool = False
    change_from: str | None = None


class TakeAbility(Move, tag="take_ability", frozen=True):
    """Coat-of-arms bonus: take an ability tile the player does not own yet."""

    ability: str


class PlaceWhite(Move, tag="place_white", frozen=True):
    """Coat-of-arms bonus: place a white 1-cell tile on cell ``(x, y)``, free of charge."""

    x: int
    y: int


class RefreshAbilities(Move, tag="refresh_abilities", frozen=True):
    """Coat-of-arms bonus: flip every used ability tile back to unused."""


MOVES: tuple[type[Move], ...] = (
    TakeCard, Discard, BothActions, EndTurn, Build, TakeAbility, PlaceWhite, RefreshAbilities, LeaveTable,
)
