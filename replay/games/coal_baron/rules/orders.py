"""Orders: the opening draft (setup 6), new orders (6.6, 6.7) and delivery (6.4)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from replay.engine import IllegalMove, Move

from ..components import DRAFT_LEFTOVER_SPACE, FACE_DOWN, ORDERS, SPACES
from ..moves import DraftOrder
from ..pit import Outstanding, Pit
from ..tasks import Draw, Task
from . import draws, turns
from .draws import could_take, shown, take_drawn

if TYPE_CHECKING:
    from ..state import CoalBaronState


def reveal_draft(st: CoalBaronState) -> None:
    """Setup 6: reveal 3 x players + 1 order cards for the draft."""
    n = len(st.players)
    st.push(RevealDraftTask("", need=3 * n + 1, reason=f"the opening draft: {3 * n + 1} order cards"))


@dataclass(slots=True)
class RevealDraftTask(Draw):
    """Setup 6: the order cards revealed for the draft."""

    deck = "orders"

    def drawn(self, s: CoalBaronState, got: list[str | None]) -> None:
        """Picks go from the player to the start player's right in reverse turn order, three
        laps."""
        n = len(s.players)
        s.draft_pool = list(got)
        lap = [s.players[(s.start_player - 1 - i) % n] for i in range(n)]
        pickers = lap * 3
        s.push(DraftTask(pickers[0], pickers))


@dataclass(slots=True)
class DraftTask(Task):
    """The order-card draft (setup 6): each picker in turn takes one revealed card."""

    turns: list[str] = field(default_factory=list)
    """Who picks, in order, from this pick on."""
    kind = "draft"
    awaiting = "take an order card in the opening draft"
    accepts = (DraftOrder,)

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        named = [c for c in s.draft_pool if c is not None]
        if None in s.draft_pool:
            named += [c for c, _ in s.order_pool.possible() if c not in named]
        return [DraftOrder(card=c) for c in named]

    def check(self, s: CoalBaronState, player: str, move: Move) -> str | None:
        assert isinstance(move, DraftOrder)
        if not could_take(s.draft_pool, move.card, s.order_pool):
            return f"{player} cannot draft {move.card}: the cards left in the draft are " + shown(s.draft_pool)
        return None

    def apply(self, s: CoalBaronState, player: str, move: Move) -> None:
        assert isinstance(move, DraftOrder)
        draft_order(s, player, move.card)
        self.turns.pop(0)
        if self.turns:
            self.player = self.turns[0]
        else:
            s.pop(self)
            end_draft(s)


def leave_draft(s: CoalBaronState, task: DraftTask, player: str) -> None:
    """``bga``: ``player`` leaves the table in the draft (BGA's zombie).  BGA's zombie passes at each
    of its picks, and the draft goes on round the table, the others picking, until one card is left
    (BGA ends its draft on the last card, not after three laps): those who stay draft more cards."""
    picks = len(s.draft_pool) - 1
    n = len(s.players)
    seat = s.players.index(player)
    lap = [p for p in (s.players[(seat - 1 - i) % n] for i in range(n)) if p not in s.left]
    if not lap:
        raise IllegalMove(f"{player} left the table in the draft, and nobody is left to draft")
    task.turns = [lap[i % len(lap)] for i in range(picks)]
    task.player = task.turns[0]
    s.depart("draft_goes_on_without_who_left",
             f"{player} left the table in the draft: the others draft the {picks} cards left but one, "
             f"{', '.join(dict.fromkeys(task.turns))} in turn; by the rulebook each player drafts three")


def draft_order(st: CoalBaronState, player: str, card: str) -> None:
    """Take one revealed card into the outstanding orders."""
    take_drawn(st.draft_pool, card, st.order_pool, f"{player} drafts {card}")
    st.pits[player].outstanding.append(Outstanding(card))


def end_draft(st: CoalBaronState) -> None:
    """The card nobody drafted goes face up on its order space; fill the others (setup 7), and
    the first shift begins."""
    leftover = st.draft_pool.pop()
    st.order_spaces[DRAFT_LEFTOVER_SPACE] = FACE_DOWN if leftover is None else leftover
    st.push(turns.StartShiftTask(""))
    turns.refill(st, turns.RefillOrdersTask)


def take_order(st: CoalBaronState, player: str, space: str) -> None:
    """Take the order card lying on the space into the outstanding orders."""
    card = st.order_spaces[space]
    assert card is not None
    st.order_spaces[space] = None
    st.pits[player].outstanding.append(Outstanding(card))


def look_at_orders(st: CoalBaronState, player: str, space: str) -> None:
    """The draw space: reveal the top five order cards; keep one (or none), return the rest."""
    st.push(draws.ReturnOrdersTask(player))
    st.push(draws.KeepOrderTask(player))
    st.push(LookAtOrdersTask(player, need=SPACES[space].value,
                             reason=f"{player} looks at the top order cards"))


@dataclass(slots=True)
class LookAtOrdersTask(Draw):
    """New orders, draw space (6.7), step 1: draw the top five order cards; only the player
    sees them."""

    deck = "orders"
    private = True

    def drawn(self, s: CoalBaronState, got: list[str | None]) -> None:
        s.revealed = draws.offered(s, "orders", self.player, list(got))


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
