"""A simple position value for the greedy agent (and, without its comparison, for the value model)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.games.pax_pamir.components import COALITIONS

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState


def evaluate(s: PaxState, player: str) -> float:
    """Points first, against the best other player's; then what wins future checks: influence, a
    lead in blocks for one's coalition, cylinders in play, rulership, cards and rupees."""
    others = [s.total(q) for q in s.players if q != player]
    return _prospects(s, player, 10.0 * (s.total(player) - max(others)))


def absolute(s: PaxState, player: str) -> float:
    """:func:`evaluate` without the comparison: ``player``'s own points and prospects."""
    return _prospects(s, player, 10.0 * s.total(player))


def _prospects(s: PaxState, player: str, value: float) -> float:
    """``value`` (the points part) plus what wins future checks and makes actions."""
    loyal = s.loyalty[player]
    if loyal is not None:
        blocks = {c: s.blocks_in_play(c) for c in COALITIONS}
        lead = blocks[loyal] - max(blocks[c] for c in COALITIONS if c != loyal)
        value += 1.5 * lead + 2.0 * s.influence(player)
    value += 0.6 * s.cylinders_in_play(player)
    value += 1.5 * sum(1 for r in s.rulers.values() if r == player)
    value += 1.2 * len(s.courts[player]) + 0.5 * len(s.hands[player])
    value += 0.4 * s.rupees[player]
    return value
