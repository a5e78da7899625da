"""A heuristic value of a position for one player (the greedy agent's guide).

The greedy agent looks one move ahead, so the value rewards every step that brings a cube
closer to an order: a cube on a minecart is worth a little, more when the cage stands on its
level with room, more again in the cage, most at the surface or in storage, and an order's
value grows with its filled spaces.  A freshly taken mining space is worth the useful work it
allows; a tiny cost per unused work step makes the agent stop once nothing useful is left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import CAGE_CAPACITY, ORDERS, SPACES, SURFACE

if TYPE_CHECKING:
    from .state import CoalBaronState

#: rough worth of one cube of each colour once it sits on an order (yellow .. black)
CUBE_WORTH = (0.8, 1.1, 1.5, 1.9)


def evaluate(st: CoalBaronState, player: str) -> float:
    """:func:`worth` minus the best opponent's points."""
    totals = st.totals()
    others = [v for p, v in totals.items() if p != player]
    return worth(st, player) - (max(others) if others else 0)


def worth(st: CoalBaronState, player: str) -> float:
    """Points so far plus the likely worth of orders, coal, francs and workers (everything it reads
    lies open on the table)."""
    totals = st.totals()
    pit = st.pits[player]
    value = float(totals[player])
    needed = 0
    for o in pit.outstanding:
        card = ORDERS[o.card]
        empty = len([s for s in o.spots if not s])
        needed += empty
        filled = 1 - empty / len(o.spots)
        value += card.vp * (0.9 if empty == 0 else 0.25 + 0.6 * filled) - 1.0
    room = pit.cage_load() < CAGE_CAPACITY
    for c in range(4):
        w = CUBE_WORTH[c]
        near = pit.cage_level == c + 1 and room
        value += w * (0.45 if near else 0.3) * sum(pit.coal[c])
        value += w * (0.75 if pit.cage_level == SURFACE else 0.55) * pit.cage[c]
        value += w * 0.75 * pit.storage[c]
    value += 0.12 * pit.francs + 0.3 * pit.workers
    if st.decision == "mining" and st.actor == player:
        if st.steps == SPACES[st.space].value:
            cubes = sum(sum(x) for x in pit.coal) + pit.cage_load() + sum(pit.storage)
            value += 0.3 * min(st.steps, 2 * min(needed, cubes))
        value -= 0.01 * st.steps
    return value
