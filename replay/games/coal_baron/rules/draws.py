"""The two draw-five spaces (rules 6.2, 6.7): keep at most one item, put the rest back on the
top or at the bottom of the deck in an order the player chooses.

Only the acting player sees the five items.  A record written from another seat holds them as
unknown items (``None``): the kept one is named by the keep move (which binds an unknown item to
it), the others go back unnamed, in a known position but with unknown identities, until a
refill turns them face up.

Under ``bga`` a player who leaves the table at the choice (BGA's zombie) keeps nothing and puts
nothing back: the items stay aside, and the next draw-five of that deck offers them again with its
own (:func:`leave_aside`, :func:`offered`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, ClassVar

from replay.engine import Move
from replay.hidden import HiddenPool, PartlyKnownDeck, add, could_hold, take

from ..components import TILES
from ..moves import KeepOrder, KeepTile, ReturnOrders, ReturnTiles
from ..pit import Outstanding
from ..tasks import Task
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


def leave_aside(s: CoalBaronState, task: KeepTileTask | KeepOrderTask, player: str) -> None:
    """``bga``: ``player`` leaves the table at a draw-five's choice.  BGA's zombie passes: nothing is
    kept, nothing goes back to the deck, and the revealed items stay aside (BGA's draw location,
    the state's ``tiles_aside``/``orders_aside``) until the next draw-five of that deck
    (:func:`offered`)."""
    s.pop(task)
    where = f"{task.deck}_aside"
    s.depart("draw_five_left_aside",
             f"{player} left the table at the choice: the {len(s.revealed)} revealed {WHAT[task.deck]} stay "
             "aside, neither kept nor put back; by the rulebook they go back on the deck")
    setattr(s, where, (*getattr(s, where), *s.revealed))
    s.revealed = []


def offered(s: CoalBaronState, deck: str, player: str, got: list[str | None]) -> list[str | None]:
    """What a draw-five shows: the items drawn, and under ``bga`` those a player who left the table
    left aside at an earlier draw-five of the deck, first (:func:`leave_aside`)."""
    where = f"{deck}_aside"
    left: tuple[str | None, ...] = getattr(s, where)
    if not left:
        return got
    setattr(s, where, ())
    s.depart("draw_five_left_aside",
             f"{player} is shown the {len(left)} {WHAT[deck]} left aside by a player who left the table with the "
             f"{len(got)} drawn: {len(left) + len(got)} in all; by the rulebook a draw-five shows only those drawn")
    return [*left, *got]


WHAT = {"tiles": "tunnel tiles", "orders": "order cards"}


@dataclass(slots=True)
class KeepTileTask(Task):
    """6.2 step 2: buy at most one of the revealed tiles (one the player can pay for)."""

    kind = "keep_tile"
    deck: ClassVar[str] = "tiles"
    awaiting = "choose which revealed tunnel tile to buy (or none)"
    accepts = (KeepTile,)

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        return [KeepTile(tile=None), *(KeepTile(tile=t) for t in _candidates(s.revealed, s.tile_pool))]

    def check(self, s: CoalBaronState, player: str, move: Move) -> str | None:
        assert isinstance(move, KeepTile)
        tile = move.tile
        if tile is None:
            return None
        if tile not in TILES or not could_take(s.revealed, tile, s.tile_pool):
            return f"{player} cannot buy {tile}: the revealed tiles are " + shown(s.revealed)
        francs = s.pits[player].francs
        if TILES[tile].price > francs:
            return (f"{player} cannot buy {TILES[tile].describe()}: it costs "
                    f"{TILES[tile].price} francs, {player} has {francs}")
        return None

    def apply(self, s: CoalBaronState, player: str, move: Move) -> None:
        assert isinstance(move, KeepTile)
        s.pop(self)
        tile = move.tile
        if tile is not None:
            take_drawn(s.revealed, tile, s.tile_pool, f"{player} buys {tile} from the revealed tiles")
            factory.acquire_tile(s, player, tile)


@dataclass(slots=True)
class KeepOrderTask(Task):
    """6.7 step 2: keep at most one of the revealed order cards."""

    kind = "keep_order"
    deck: ClassVar[str] = "orders"
    awaiting = "choose which revealed order card to keep (or none)"
    accepts = (KeepOrder,)

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        return [KeepOrder(card=None), *(KeepOrder(card=c) for c in _candidates(s.revealed, s.order_pool))]

    def check(self, s: CoalBaronState, player: str, move: Move) -> str | None:
        assert isinstance(move, KeepOrder)
        card = move.card
        if card is not None and not could_take(s.revealed, card, s.order_pool):
            return f"{player} cannot keep {card}: the revealed order cards are " + shown(s.revealed)
        return None

    def apply(self, s: CoalBaronState, player: str, move: Move) -> None:
        assert isinstance(move, KeepOrder)
        s.pop(self)
        card = move.card
        if card is not None:
            take_drawn(s.revealed, card, s.order_pool, f"{player} keeps {card} from the revealed order cards")
            s.pits[player].outstanding.append(Outstanding(card))


def _orders_of(revealed: list[str | None]) -> Iterator[tuple[str | None, ...]]:
    """Every order the items can be put back in (unknown items are interchangeable), one at a time:
    after a draw-five that also showed items left aside there can be ten, in 10! orders."""
    seen: set[tuple[str | None, ...]] = set()
    for order in permutations(revealed):
        if order not in seen:
            seen.add(order)
            yield order


@dataclass(slots=True)
class PutBack(Task, ABC):
    """6.2 / 6.7 step 3: the items not taken go back all on the top or all at the bottom of the
    deck, in the order the player gives (when any is left)."""

    what: ClassVar[str] = ""
    """``tiles`` or ``order cards``."""

    def is_open(self, s: CoalBaronState) -> bool:
        return bool(s.revealed)

    @abstractmethod
    def deck(self, s: CoalBaronState) -> tuple[PartlyKnownDeck, HiddenPool]:
        """The deck the items go back to, and the pool its unknown items come from."""

    @abstractmethod
    def put(self, move: Move) -> tuple[str, tuple[str | None, ...]]:
        """The end of the deck and the items the move names."""

    def check(self, s: CoalBaronState, player: str, move: Move) -> str | None:
        """Named items must be among those not taken (binding unknown ones)."""
        to, items = self.put(move)
        if to not in ENDS:
            return f"{player} cannot put the {self.what} back on {to!r}: they go on the top or at the bottom"
        zone: dict[str | None, int] = {}
        add(zone, s.revealed)
        named: dict[str | None, int] = {}
        add(named, (i for i in items if i is not None))
        if len(items) != len(s.revealed) or not could_hold(zone, named, self.deck(s)[1]):
            return (f"{player} must put back exactly the {self.what} not taken ("
                    + shown(s.revealed) + "), not " + shown(items))
        return None

    def apply(self, s: CoalBaronState, player: str, move: Move) -> None:
        """An item put back unnamed lies there face down: if it was known, it is not any more
        (the record's viewer saw it go back, not where)."""
        s.pop(self)
        to, items = self.put(move)
        deck, pool = self.deck(s)
        zone: dict[str | None, int] = {}
        add(zone, s.revealed)
        named: dict[str | None, int] = {}
        add(named, (i for i in items if i is not None))
        for item, n in named.items():
            take(zone, item, pool, f"{player} puts {self.what} back", n)
        for item, n in zone.items():
            if item is not None:
                for _ in range(n):
                    pool.hide(item)
        deck.put_back(list(items), to)
        s.revealed = []


@dataclass(slots=True)
class ReturnTilesTask(PutBack):
    kind = "return_tiles"
    awaiting = "put the other revealed tiles back on the top or bottom of the deck"
    accepts = (ReturnTiles,)
    what = "tiles"

    def deck(self, s: CoalBaronState) -> tuple[PartlyKnownDeck, HiddenPool]:
        return s.tiles, s.tile_pool

    def put(self, move: Move) -> tuple[str, tuple[str | None, ...]]:
        assert isinstance(move, ReturnTiles)
        return move.to, move.tiles

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        return (ReturnTiles(to=e, tiles=p) for e in ENDS for p in _orders_of(s.revealed))


@dataclass(slots=True)
class ReturnOrdersTask(PutBack):
    kind = "return_orders"
    awaiting = "put the other revealed order cards back on the top or bottom of the deck"
    accepts = (ReturnOrders,)
    what = "order cards"

    def deck(self, s: CoalBaronState) -> tuple[PartlyKnownDeck, HiddenPool]:
        return s.orders, s.order_pool

    def put(self, move: Move) -> tuple[str, tuple[str | None, ...]]:
        assert isinstance(move, ReturnOrders)
        return move.to, move.cards

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        return (ReturnOrders(to=e, cards=p) for e in ENDS for p in _orders_of(s.revealed))
