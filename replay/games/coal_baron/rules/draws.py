"""The two draw-five spaces (rules 6.2, 6.7): keep at most one item, put the rest back on the
top or at the bottom of the deck in an order the player chooses."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from replay.engine import IllegalMove, Move

from ..components import TILES
from ..moves import KeepOrder, KeepTile, ReturnOrders, ReturnTiles
from ..pit import Outstanding
from . import factory

if TYPE_CHECKING:
    from ..state import CoalBaronState

ENDS = ("top", "bottom")


def keep_tile_moves(st: CoalBaronState, player: str) -> list[Move]:
    francs = st.pits[player].francs
    out: list[Move] = [KeepTile(tile=None)]
    out.extend(KeepTile(tile=t) for t in st.revealed if TILES[t].price <= francs)
    return out


def keep_tile(st: CoalBaronState, player: str, move: KeepTile) -> None:
    tile = move.tile
    if tile is not None:
        if tile not in st.revealed:
            raise IllegalMove(f"{player} cannot buy {tile}: the revealed tiles are " + ", ".join(st.revealed))
        francs = st.pits[player].francs
        if TILES[tile].price > francs:
            raise IllegalMove(f"{player} cannot buy {TILES[tile].describe()}: it costs "
                              f"{TILES[tile].price} francs, {player} has {francs}")
        st.revealed.remove(tile)
    st.done_deciding()
    if tile is not None:
        factory.acquire_tile(st, player, tile)


def keep_order_moves(st: CoalBaronState, player: str) -> list[Move]:
    out: list[Move] = [KeepOrder(card=None)]
    out.extend(KeepOrder(card=c) for c in st.revealed)
    return out


def keep_order(st: CoalBaronState, player: str, move: KeepOrder) -> None:
    card = move.card
    if card is not None:
        if card not in st.revealed:
            raise IllegalMove(f"{player} cannot keep {card}: the revealed order cards are " + ", ".join(st.revealed))
        st.revealed.remove(card)
        st.pits[player].outstanding.append(Outstanding(card))
    st.done_deciding()


def ask_return_tiles(st: CoalBaronState) -> None:
    if st.revealed:
        st.decide("return_tiles", st.actor)


def ask_return_orders(st: CoalBaronState) -> None:
    if st.revealed:
        st.decide("return_orders", st.actor)


def return_tiles_moves(st: CoalBaronState, player: str) -> list[Move]:
    return [ReturnTiles(to=e, tiles=p) for e in ENDS for p in permutations(st.revealed)]


def return_orders_moves(st: CoalBaronState, player: str) -> list[Move]:
    return [ReturnOrders(to=e, cards=p) for e in ENDS for p in permutations(st.revealed)]


def _put_back(st: CoalBaronState, player: str, what: str, to: str, items: tuple[str, ...]) -> None:
    if to not in ENDS:
        raise IllegalMove(f"{player} cannot put the {what} back on {to!r}: they go on the top or at the bottom")
    if sorted(items) != sorted(st.revealed) or len(items) != len(st.revealed):
        raise IllegalMove(f"{player} must put back exactly the {what} not taken ("
                          + ", ".join(st.revealed) + "), not " + (", ".join(items) or "none"))
    deck = st.tiles if what == "tiles" else st.orders
    deck.put_back(list(items), to)
    st.revealed = []
    st.done_deciding()


def return_tiles(st: CoalBaronState, player: str, move: ReturnTiles) -> None:
    _put_back(st, player, "tiles", move.to, move.tiles)


def return_orders(st: CoalBaronState, player: str, move: ReturnOrders) -> None:
    _put_back(st, player, "order cards", move.to, move.cards)
