"""Score categories, the majority ranking of one shift category, final scoring and the tiebreak."""

from __future__ import annotations

from collections.abc import Mapping

from .components import COAL_PER_POINT, FRANCS_PER_POINT, IMBALANCE_PER_TILE, UNFULFILLED_ORDER
from .pit import Pit

#: every player always has every category, in this order; they sum to the total
CATEGORIES: tuple[str, ...] = ("orders", "shift1", "shift2", "shift3",
                               "end_francs", "end_coal", "end_unfulfilled", "end_pit_balance")

Placing = tuple[int | None, int]


def rank_category(values: Mapping[str, int], first: int, second: int, ruleset: str,
                  two_way_tie: bool = False) -> dict[str, Placing]:
    """Rank, points per player for one majority category.

    A value of 0 never scores.  Every player with the highest value takes first
    place.  With 3 or 4 players the next-highest value takes second place: under
    the official rules also after a tie for first, under ``bga`` only when exactly
    one player is first (``two_way_tie``: or two, as BGA's code did before 7 July
    2024).  With 2 players only first place is awarded.
    """
    out: dict[str, Placing] = {p: (None, 0) for p in values}
    levels = sorted({v for v in values.values() if v > 0}, reverse=True)
    if not levels:
        return out
    firsts = [p for p, v in values.items() if v == levels[0]]
    for p in firsts:
        out[p] = (1, first)
    if len(values) == 2 or len(levels) < 2:
        return out
    if ruleset == "bga" and len(firsts) > (2 if two_way_tie else 1):
        return out
    for p, v in values.items():
        if v == levels[1]:
            out[p] = (2, second)
    return out


def francs_points(pit: Pit) -> int:
    """1 VP per full 5 francs."""
    return pit.francs // FRANCS_PER_POINT


def coal_points(pit: Pit) -> int:
    """1 VP per full 3 cubes owned anywhere (minecarts, cage, storage, outstanding orders)."""
    return pit.coal_owned() // COAL_PER_POINT


def unfulfilled_points(pit: Pit) -> int:
    """-1 VP per order card still outstanding, completed or not."""
    return UNFULFILLED_ORDER * len(pit.outstanding)


def imbalance(pit: Pit, ruleset: str) -> int:
    """Tiles by which light and dark differ: level by level (official) or over the whole pit (bga)."""
    if ruleset == "bga":
        return abs(sum(len(x) for x in pit.light) - sum(len(x) for x in pit.dark))
    return sum(abs(len(lt) - len(dk)) for lt, dk in zip(pit.light, pit.dark))


def pit_balance_points(pit: Pit, ruleset: str) -> int:
    return IMBALANCE_PER_TILE * imbalance(pit, ruleset)


def tiebreak_francs(pit: Pit) -> int:
    """Francs left after converting full 5s into VP (the tiebreaker)."""
    return pit.francs % FRANCS_PER_POINT


def breakdown(pit: Pit) -> dict[str, int]:
    return {
        "orders": pit.orders_vp,
        "shift1": pit.shift_points[0],
        "shift2": pit.shift_points[1],
        "shift3": pit.shift_points[2],
        "end_francs": pit.end_points[0],
        "end_coal": pit.end_points[1],
        "end_unfulfilled": pit.end_points[2],
        "end_pit_balance": pit.end_points[3],
    }


def final_ranking(totals: Mapping[str, int], remainders: Mapping[str, int]) -> dict[str, int]:
    """1 = winner; ties on VP are broken by francs left; still tied players share the rank."""
    key = {p: (totals[p], remainders[p]) for p in totals}
    return {p: 1 + sum(1 for q in totals if key[q] > key[p]) for p in totals}
