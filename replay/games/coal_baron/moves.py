"""Coal Baron move types: one struct per decision a player takes.

Colours are named ``yellow``/``brown``/``grey``/``black``; order cards ``o1``..``o44``;
tunnel tiles ``t1``..``t48``; work spaces by their board ids (``mining_10``, ``bank_1``...).
Besides its own, a record under the ``bga`` ruleset may hold the core's ``leave_table``
(:class:`~replay.decisions.LeaveTable`: a player who left the table, BGA's zombie).
"""

from __future__ import annotations

from typing import ClassVar

from replay.decisions import LeaveTable
from replay.engine import Move


class CoalBaronMove(Move, frozen=True):
    """Base of Coal Baron's move types."""

    doing: ClassVar[str]
    """The move as the verb phrase a refusal uses ("p1 cannot move the cage now")."""


class DraftOrder(CoalBaronMove, tag="draft_order", frozen=True):
    """Opening draft: take one of the revealed order cards."""

    doing = "take an order card in the draft"

    card: str


class PlaceWorkers(CoalBaronMove, tag="place_workers", frozen=True):
    """Place workers on a work space (how many is fixed by the rules) and start its action."""

    doing = "place workers"

    space: str


class MoveCage(CoalBaronMove, tag="move_cage", frozen=True):
    """Mining, 1 step: move the pit cage to another level (0 = surface, 1..4 = tunnels)."""

    doing = "move the cage"

    level: int


class LoadCoal(CoalBaronMove, tag="load_coal", frozen=True):
    """Mining, 1 step: load one cube of this colour from a minecart on the cage's level."""

    doing = "load coal into a minecart"

    colour: str


class StoreCoal(CoalBaronMove, tag="store_coal", frozen=True):
    """Mining, 1 step: unload one cube from the cage (at the surface) into storage."""

    doing = "store coal in the storage area"

    colour: str


class FillOrder(CoalBaronMove, tag="fill_order", frozen=True):
    """Mining, 1 step: put one cube (from the cage at the surface, or from storage) on an order."""

    doing = "deliver an order"

    card: str
    colour: str
    source: str


class Substitute(CoalBaronMove, tag="substitute", frozen=True):
    """Mining, 2 steps: two cubes of any colours fill one empty coal space of ``space`` colour.

    ``cage`` and ``storage`` list the colours taken from each (two cubes in all, each list in
    colour order yellow, brown, grey, black).
    """

    doing = "fill a coal space with two cubes of other colours"

    card: str
    space: str
    cage: tuple[str, ...] = ()
    storage: tuple[str, ...] = ()


class StopMining(CoalBaronMove, tag="stop_mining", frozen=True):
    """Mining: stop, giving up the work steps that are left."""

    doing = "stop mining"


class KeepTile(CoalBaronMove, tag="keep_tile", frozen=True):
    """Mine cart factory draw space: buy one of the revealed tiles, or none (``null``)."""

    doing = "keep a revealed tunnel tile"

    tile: str | None


class ReturnTiles(CoalBaronMove, tag="return_tiles", frozen=True):
    """Put the revealed tiles not taken back on the ``top`` or ``bottom`` of the deck.

    ``tiles`` lists them in the order they will lie, the first one nearest the top; a tile the
    record's viewer did not see is ``null`` (others see only how many go back, and where).
    """

    doing = "put revealed tunnel tiles back"

    to: str
    tiles: tuple[str | None, ...]


class KeepOrder(CoalBaronMove, tag="keep_order", frozen=True):
    """New orders draw space: keep one of the revealed order cards, or none (``null``)."""

    doing = "keep a revealed order card"

    card: str | None


class ReturnOrders(CoalBaronMove, tag="return_orders", frozen=True):
    """Put the revealed order cards not kept back on the ``top`` or ``bottom`` of the deck
    (``cards`` as ``tiles`` in :class:`ReturnTiles`, ``null`` where the viewer did not see one)."""

    doing = "put revealed order cards back"

    to: str
    cards: tuple[str | None, ...]


class ChooseCoal(CoalBaronMove, tag="choose_coal", frozen=True):
    """Coal shortage: the colour of the cube put on a new minecart the supply cannot fill."""

    doing = "choose a cube's colour"

    colour: str


MOVES: tuple[type[Move], ...] = (
    DraftOrder, PlaceWorkers, MoveCage, LoadCoal, StoreCoal, FillOrder, Substitute, StopMining,
    KeepTile, ReturnTiles, KeepOrder, ReturnOrders, ChooseCoal, LeaveTable,
)
