"""Gift: pay 2, 4 or 6 rupees to the market and put a cylinder on that gift space."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import (
    GIFT_VALUES,
)
from replay.games.pax_pamir.market import pay_to_market
from replay.games.pax_pamir.moves import (
    Gift,
)

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState



def check_gift(s: PaxState, player: str, move: Gift) -> str | None:
    if move.value not in GIFT_VALUES:
        return f"{player} cannot buy a gift of {move.value}: the gift spaces cost 2, 4 and 6 rupees"
    if move.value in s.gifts[player]:
        return f"{player} cannot buy the {move.value}-rupee gift: that space already holds {player}'s gift"
    if s.rupees[player] < move.value:
        return f"{player} cannot buy the {move.value}-rupee gift: {player} has {s.rupees[player]} rupees"
    return None


def gift(s: PaxState, player: str, value: int) -> None:
    """Gift: pay the space's price to the market, place a cylinder on it."""
    pay_to_market(s, player, value)
    board.place(s, player, "gift", str(value))
