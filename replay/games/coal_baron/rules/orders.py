"""Orders: the opening draft (setup 6), new orders (6.6, 6.7) and delivery (6.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import IllegalMove, Move

from ..components import ORDERS, SPACES
from ..moves import DraftOrder
from ..pit import Outstanding, Pit
from .draws import could_take, shown, take_drawn

if TYPE_CHECKING:
    from ..state import CoalBaronState


def draft_moves(st: CoalBaronState, player: str) -> list[Move]:
    named = [c for c in st.draft_pool if c is not None]
    if None in st.draft_pool:
        named += [c for c, _ in st.order_pool.possible() if c not in named]
    return [DraftOrder(card=c) for c in named]


def draft_order(st: CoalBaronState, player: str, move: DraftOrder) -> None:
    """Take one revealed card; picks go in reverse turn order, three laps; the last card goes
    to the board."""
    if not could_take(st.draft_pool, move.card, st.order_pool):
        raise IllegalMove(f"{player} cannot draft {move.card}: the cards left in the draft are "
                          + shown(st.draft_pool))
    take_drawn(st.draft_pool, move.card, st.order_pool, f"{player} drafts {move.card}")
    st.pits[player].outstanding.append(Outstanding(move.card))
    st.draft_turns.pop(0)
    if st.draft_turns:
        st.decide("draft", st.draft_turns[0])
    else:
        st.end_draft()


def take_order(st: CoalBaronState, player: str, space: str) -> None:
    """Take the order card lying on the space into the outstanding orders."""
    card = st.order_spaces[space]
    assert card is not None
    st.order_spaces[space] = None
    st.pits[player].outstanding.append(Outstanding(card))


def look_at_orders(st: CoalBaronState, player: str, space: str) -> None:
    """The draw space: reveal the top five order cards; keep one (or none), return the rest."""
    st.queue.insert(0, "return_orders")
    st.start_draw(st.orders, SPACES[space].value, "order_draw", f"{player} looks at the top order cards")


def completed_of(pit: Pit, transport: int) -> list[Outstanding]:
    return [o for o in pit.outstanding if ORDERS[o.card].transport == transport and o.completed()]


def deliver_orders(st: CoalBaronState, player: str, space: str) -> None:
    """Deliver every completed order of the space's transport type: score its VP, return its
    cubes to the supply, put the card on the delivered pile."""
    pit = st.pits[player]
    for o in completed_of(pit, SPACES[space].transport):
        card = ORDERS[o.card]
        pit.outstanding.remove(o)
        pit.delivered.append(o.card)
        pit.orders_vp += card.vp
        for spot in o.spots:
            for c in spot:
                st.supply[c] += 1
        for c in card.coal:
            pit.delivered_colour[c] += 1
        pit.delivered_transport[card.transport] += len(card.coal)
    st.invalidate_score()
