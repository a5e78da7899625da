"""The two draw-five spaces (rules 6.2, 6.7): keep at most one item, put the rest back on the
top or at the bottom of the deck in an order the player chooses.

Only the acting player sees the five items.  A record written from another seat holds them as
unknown items (``None``): the kept one is named by the keep move (which binds an unknown item to
it), the others go back unnamed, in a known position but with unknown identities, until a
refill turns them face up.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from replay.engine import IllegalMove, Move
from replay.hidden import HiddenPool, add, could_hold, take

from ..components import TILES
from ..moves import KeepOrder, KeepTile, ReturnOrders, ReturnTiles
from ..pit import Outstanding
from . import factory

if TYPE_CHECKING:
    from ..state import CoalBaronState

ENDS = ("top", "bottom")


def shown(items: list[str | None] | tuple[str | None, ...]) -> str:
    """Items in words; ``?`` for one whose identity the record does not know."""
    return ", ".join("?" if i is None else i for i in items) or "none"


def could_take(items: list[str | None], item: str, pool: HiddenPool) -> bool:
    """Could ``item`` be among ``items``: named there, or one of its unknown items may be it."""
    return item in items or (None in items and pool.could_be(item))


def take_drawn(items: list[str | None], item: str, pool: HiddenPool, where: str) -> None:
    """Take ``item`` out of drawn items: the named copy if there, else an unknown item, which is
    thereby revealed as ``item`` (check :func:`could_take` first)."""
    if item in items:
        items.remove(item)
    else:
        items.remove(None)
        pool.see(item, where)


def _candidates(revealed: list[str | None], pool: HiddenPool) -> list[str]:
    """The items a player could keep: the named ones, and while some are unknown, every identity
    they may have (in component order)."""
    named = [i for i in revealed if i is not None]
    if None in revealed:
        named += [i for i, _ in pool.possible() if i not in named]
    return named


def keep_tile_moves(st: CoalBaronState, player: str) -> list[Move]:
    francs = st.pits[player].francs
    out: list[Move] = [KeepTile(tile=None)]
    out.extend(KeepTile(tile=t) for t in _candidates(st.revealed, st.tile_pool) if TILES[t].price <= francs)
    return out


def keep_tile(st: CoalBaronState, player: str, move: KeepTile) -> None:
    tile = move.tile
    if tile is not None:
        if tile not in TILES or not could_take(st.revealed, tile, st.tile_pool):
            raise IllegalMove(f"{player} cannot buy {tile}: the revealed tiles are " + shown(st.revealed))
        francs = st.pits[player].francs
        if TILES[tile].price > francs:
            raise IllegalMove(f"{player} cannot buy {TILES[tile].describe()}: it costs "
                              f"{TILES[tile].price} francs, {player} has {francs}")
        take_drawn(st.revealed, tile, st.tile_pool, f"{player} buys {tile} from the revealed tiles")
    st.done_deciding()
    if tile is not None:
        factory.acquire_tile(st, player, tile)


def keep_order_moves(st: CoalBaronState, player: str) -> list[Move]:
    out: list[Move] = [KeepOrder(card=None)]
    out.extend(KeepOrder(card=c) for c in _candidates(st.revealed, st.order_pool))
    return out


def keep_order(st: CoalBaronState, player: str, move: KeepOrder) -> None:
    card = move.card
    if card is not None:
        if not could_take(st.revealed, card, st.order_pool):
            raise IllegalMove(f"{player} cannot keep {card}: the revealed order cards are " + shown(st.revealed))
        take_drawn(st.revealed, card, st.order_pool, f"{player} keeps {card} from the revealed order cards")
        st.pits[player].outstanding.append(Outstanding(card))
    st.done_deciding()


def ask_return_tiles(st: CoalBaronState) -> None:
    if st.revealed:
        st.decide("return_tiles", st.actor)


def ask_return_orders(st: CoalBaronState) -> None:
    if st.revealed:
        st.decide("return_orders", st.actor)


def _orders_of(revealed: list[str | None]) -> list[tuple[str | None, ...]]:
    """Every order the items can be put back in (unknown items are interchangeable)."""
    return list(dict.fromkeys(permutations(revealed)))


def return_tiles_moves(st: CoalBaronState, player: str) -> list[Move]:
    return [ReturnTiles(to=e, tiles=p) for e in ENDS for p in _orders_of(st.revealed)]


def return_orders_moves(st: CoalBaronState, player: str) -> list[Move]:
    return [ReturnOrders(to=e, cards=p) for e in ENDS for p in _orders_of(st.revealed)]


def _put_back(st: CoalBaronState, player: str, what: str, to: str, items: tuple[str | None, ...]) -> None:
    """The items not taken go back in the order given.  Named items must be among them (binding
    unknown ones); an item put back unnamed lies there face down: if it was known, it is not any
    more (the record's viewer saw it go back, not where)."""
    if to not in ENDS:
        raise IllegalMove(f"{player} cannot put the {what} back on {to!r}: they go on the top or at the bottom")
    deck, pool = (st.tiles, st.tile_pool) if what == "tiles" else (st.orders, st.order_pool)
    zone: dict[str | None, int] = {}
    add(zone, st.revealed)
    named: dict[str | None, int] = {}
    add(named, (i for i in items if i is not None))
    if len(items) != len(st.revealed) or not could_hold(zone, named, pool):
        raise IllegalMove(f"{player} must put back exactly the {what} not taken ("
                          + shown(st.revealed) + "), not " + shown(items))
    for item, n in named.items():
        take(zone, item, pool, f"{player} puts {what} back", n)
    for item, n in zone.items():
        if item is not None:
            for _ in range(n):
                pool.hide(item)
    deck.put_back(list(items), to)
    st.revealed = []
    st.done_deciding()


def return_tiles(st: CoalBaronState, player: str, move: ReturnTiles) -> None:
    _put_back(st, player, "tiles", move.to, move.tiles)


def return_orders(st: CoalBaronState, player: str, move: ReturnOrders) -> None:
    _put_back(st, player, "order cards", move.to, move.cards)
