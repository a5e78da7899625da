"""Placing workers (rules 5): one more worker than are already there; the 1-franc bank is special."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move

from ..components import FACE_DOWN, SPACE_IDS, SPACES, TILES, TRANSPORTS
from ..moves import PlaceWorkers
from ..tasks import Task
from . import factory, mining, money, orders

if TYPE_CHECKING:
    from ..state import CoalBaronState

#: the placement on each work space (the candidates of a turn, in board order)
PLACEMENTS: dict[str, PlaceWorkers] = {s: PlaceWorkers(space=s) for s in SPACE_IDS}


@dataclass(slots=True)
class PlaceWorkersTask(Task):
    """A turn of the work phase (rules 4, 5): the player places workers on one work space and
    carries out its action."""

    kind = "place"
    awaiting = "place workers on a work space"
    accepts = (PlaceWorkers,)

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        return [PLACEMENTS[x] for x in s.usable]

    def check(self, s: CoalBaronState, player: str, move: Move) -> str | None:
        assert isinstance(move, PlaceWorkers)
        reason = why_not(s, player, move.space)
        return None if reason is None else f"{player} cannot place workers on {move.space}: {reason}"

    def apply(self, s: CoalBaronState, player: str, move: Move) -> None:
        assert isinstance(move, PlaceWorkers)
        s.pop(self)
        place_workers(s, player, move.space)


def workers_needed(st: CoalBaronState, space: str) -> int:
    """1 on an empty space (and always on ``bank_1``); otherwise one more than are there."""
    if SPACES[space].group == "bank":
        return 1
    return sum(st.occupants.get(space, {}).values()) + 1


def why_not(st: CoalBaronState, player: str, space: str) -> str | None:
    """Why ``player`` may not take ``space`` now, in words (None if they may)."""
    ws = SPACES.get(space)
    if ws is None:
        return "there is no such work space"
    if space not in st.usable:
        return f"it is covered by a lock tile in a {len(st.players)}-player game"
    pit = st.pits[player]
    need = workers_needed(st, space)
    if pit.workers < need:
        return (f"{need - 1} worker(s) stand there, so it takes {need} workers; "
                f"{player} has {pit.workers} left")
    if ws.group == "factory":
        tile = st.factory[space]
        if tile is None:
            return "no tunnel tile lies there"
        if tile == FACE_DOWN:
            return "the tile lying there is not known to this record (a reveal must name it first)"
        if pit.francs < TILES[tile].price:
            return f"its tile {TILES[tile].describe()} costs {TILES[tile].price} francs; {player} has {pit.francs}"
    elif ws.group == "factory_draw" and not len(st.tiles):
        return "the tunnel-tile deck is empty"
    elif ws.group == "delivery" and not orders.completed_of(pit, ws.transport):
        return f"{player} has no completed {TRANSPORTS[ws.transport]} order to deliver"
    elif ws.group == "order" and st.order_spaces[space] is None:
        return "no order card lies there"
    elif ws.group == "order" and st.order_spaces[space] == FACE_DOWN:
        return "the order card lying there is not known to this record (a reveal must name it first)"
    elif ws.group == "order_draw" and not len(st.orders):
        return "the order deck is empty"
    return None


def place_workers(st: CoalBaronState, player: str, space: str) -> None:
    """Send the workers standing there to the canteen, place k + 1, carry out the action (the
    end of the turn follows what it asks, :class:`~.turns.WorkPhaseTask`)."""
    need = workers_needed(st, space)
    ws = SPACES[space]
    on_space = st.occupants.setdefault(space, {})
    if ws.group != "bank":
        for owner, k in on_space.items():
            st.pits[owner].canteen += k
        on_space.clear()
    on_space[player] = on_space.get(player, 0) + need
    st.pits[player].workers -= need
    st.space = space
    ACTIONS[ws.group](st, player, space)


ACTIONS = {
    "factory": factory.buy_tile,
    "factory_draw": factory.look_at_tiles,
    "mining": mining.start_mining,
    "delivery": orders.deliver_orders,
    "money": money.take_money,
    "bank": money.take_money,
    "order": orders.take_order,
    "order_draw": orders.look_at_orders,
}
