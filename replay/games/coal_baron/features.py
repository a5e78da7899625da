"""Coal Baron as numbers, for the value model (:mod:`replay.evaluator`).

Everything here lies open on the table: the points, the order cards each player holds and the
cubes on them, the coal in each pit (on the minecarts, in the cage, in storage), francs and
workers, the tunnel tiles, and the values of the twelve shift majorities.  What will turn into
points: orders ready to deliver, cubes that match an order's empty spaces, the majorities a player
would take if the shift were scored now (and in the shifts still to come), the end bonuses
(francs, coal) and penalties (orders still held, an unbalanced pit).  One number sums them up as the
greedy agent weighs them (``worth``, with its lead over the best other player): a tree model splits
on it finely, which tells apart moves a little better or worse.
"""

from __future__ import annotations

from functools import lru_cache

from replay.games.coal_baron.components import CAGE_CAPACITY, MAJORITIES, ORDERS, SURFACE
from replay.games.coal_baron.evaluate import worth
from replay.games.coal_baron.pit import Pit
from replay.games.coal_baron.rules.shift import category_value
from replay.games.coal_baron.scoring import imbalance, rank_category
from replay.games.coal_baron.state import CoalBaronState

LAST_SHIFT = 3

NAMES: tuple[str, ...] = (
    "worth",                 # the greedy agent's value of the position, before its comparison (evaluate.worth)
    "lead",                  # worth minus the best other player's
    "points",
    "orders_points",         # points of delivered orders
    "shift_points",          # majority points scored so far
    "majority_now",          # majority points if the current shift were scored now
    "majority_rest",         # ... and in every shift still to score, at today's values
    "orders_held",           # order cards outstanding
    "orders_held_vp",
    "orders_ready",          # outstanding orders with every coal space filled
    "orders_ready_vp",
    "order_spaces_empty",    # empty coal spaces on outstanding orders
    "order_spaces_matched",  # of them, ones a cube the player owns (not yet on an order) could fill
    "order_fill_vp",         # points of outstanding orders, weighted by their filled share
    "coal_on_carts",
    "coal_in_cage",
    "coal_in_storage",
    "coal_owned",
    "cage_at_surface",       # the cage is at the surface (cubes there can fill orders)
    "cage_room",             # room left in the cage
    "carts",                 # minecarts in the pit
    "empty_carts",
    "tiles",                 # tunnel tiles in the pit
    "pit_imbalance",         # light and dark tiles apart (-1 point each at the end)
    "francs",
    "workers",               # workers still to place this shift
    "delivered_black",       # coal spaces of black and grey on delivered orders (the richest majorities)
    "delivered_grey",
)

GLOBAL_NAMES: tuple[str, ...] = (
    "shift",                 # the shift being played (0: the opening draft)
    "workers_left",          # workers still to place, all players (how far the shift has gone)
)


def _category_values(pit: Pit) -> tuple[int, ...]:
    """The pit's value in each majority (:data:`MAJORITIES` order)."""
    return tuple(category_value(pit, m) for m in MAJORITIES)


@lru_cache(maxsize=4096)
def _majority_points(values: tuple[tuple[int, ...], ...], shift: int, ruleset: str) -> tuple[tuple[int, int], ...]:
    """Per seat, the majority points of shift ``shift`` and of the shifts still to come, when the seats'
    majority values are ``values`` (remembered: they change rarely)."""
    n = len(values)
    now = [0] * n
    rest = [0] * n
    shift = max(1, shift)
    for k, m in enumerate(MAJORITIES):
        placing = rank_category({str(i): v[k] for i, v in enumerate(values)}, m.first, m.second, ruleset)
        times = sum(1 for s in range(max(shift, m.from_shift), LAST_SHIFT + 1))
        for i in range(n):
            points = placing[str(i)][1]
            if m.from_shift <= shift:
                now[i] += points
            rest[i] += points * times
    return tuple(zip(now, rest))


def _majorities(state: CoalBaronState, player: str) -> tuple[int, int]:
    values = tuple(_category_values(state.pits[p]) for p in state.players)
    return _majority_points(values, state.shift, state.ruleset)[state.players.index(player)]


def _orders(pit: Pit) -> tuple[float, ...]:
    held_vp = ready = ready_vp = empty = 0
    fill_vp = 0.0
    needs = [0, 0, 0, 0]
    for o in pit.outstanding:
        card = ORDERS[o.card]
        held_vp += card.vp
        spaces = len(o.spots)
        free = 0
        for i, need in enumerate(card.coal):
            if not o.spots[i]:
                free += 1
                needs[need] += 1
        empty += free
        fill_vp += card.vp * (spaces - free) / spaces
        if free == 0:
            ready += 1
            ready_vp += card.vp
    have = [sum(pit.coal[lvl][c] for lvl in range(4)) + pit.cage[c] + pit.storage[c] for c in range(4)]
    matched = sum(min(h, n) for h, n in zip(have, needs))
    return (float(len(pit.outstanding)), float(held_vp), float(ready), float(ready_vp), float(empty),
            float(matched), fill_vp)


def features(state: CoalBaronState, player: str) -> list[float]:
    """``player``'s position (:data:`NAMES`); every part of it is public."""
    pit = state.pits[player]
    now, rest = _majorities(state, player)
    totals = state.totals()
    on_carts = sum(sum(level) for level in pit.coal)
    carts = sum(pit.carts)
    tiles = sum(len(x) for x in pit.light) + sum(len(x) for x in pit.dark)
    mine = worth(state, player)
    lead = mine - max((worth(state, p) for p in state.players if p != player), default=0.0)
    return [mine, lead, float(totals[player]), float(pit.orders_vp), float(sum(pit.shift_points)), float(now), float(rest),
            *_orders(pit),
            float(on_carts), float(pit.cage_load()), float(sum(pit.storage)), float(pit.coal_owned()),
            1.0 if pit.cage_level == SURFACE else 0.0, float(CAGE_CAPACITY - pit.cage_load()),
            float(carts), float(carts - on_carts), float(tiles), float(imbalance(pit, state.ruleset)),
            float(pit.francs), float(pit.workers), float(pit.delivered_colour[3]), float(pit.delivered_colour[2])]


def global_features(state: CoalBaronState) -> list[float]:
    """How far the game has gone (:data:`GLOBAL_NAMES`)."""
    return [float(state.shift), float(sum(pit.workers for pit in state.pits.values()))]


MID_ACTION = frozenset({"mining", "return_tiles", "return_orders", "choose_coal"})
"""The decisions that continue an action already begun: the mining steps of a work space, the cards
or tiles put back after a draw-five, the colour of a cube the supply lacks."""


def mid_action(state: CoalBaronState) -> bool:
    """Whether the mover is in the middle of an action (:data:`MID_ACTION`)."""
    return state.decision in MID_ACTION
