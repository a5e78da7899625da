"""One player's side of the table: pit (levels, cage, storage), orders, francs, workers, points."""

from __future__ import annotations

from typing import Any

from .components import COLOURS, ORDERS, TRANSPORTS

N_COLOURS = len(COLOURS)
LEVEL_KEYS = ("1", "2", "3", "4")
NEEDS: dict[str, tuple[str, ...]] = {k: tuple(COLOURS[c] for c in o.coal) for k, o in ORDERS.items()}


class Outstanding:
    """An outstanding order card and the cubes lying on each of its coal spaces."""

    __slots__ = ("card", "spots")

    def __init__(self, card: str, spots: list[list[int]] | None = None) -> None:
        self.card = card
        self.spots: list[list[int]] = spots if spots is not None else [[] for _ in ORDERS[card].coal]

    def copy(self) -> Outstanding:
        return Outstanding(self.card, [s[:] for s in self.spots])

    def completed(self) -> bool:
        return all(self.spots)

    def empty_spot(self, colour: int) -> int:
        """Index of the first empty coal space requiring ``colour`` (-1 if none)."""
        for i, need in enumerate(ORDERS[self.card].coal):
            if need == colour and not self.spots[i]:
                return i
        return -1

    def cubes(self) -> int:
        return sum(len(s) for s in self.spots)

    def snapshot(self) -> dict[str, Any]:
        order = ORDERS[self.card]
        return {"card": self.card, "transport": TRANSPORTS[order.transport], "vp": order.vp,
                "needs": list(NEEDS[self.card]),
                "coal": [[COLOURS[x] for x in s] if s else [] for s in self.spots],
                "completed": all(self.spots)}


class Pit:
    """Everything one player owns.  Per-colour lists are indexed by colour (= level - 1)."""

    __slots__ = ("francs", "workers", "canteen", "cage_level", "cage", "storage", "light", "dark",
                 "carts", "coal", "outstanding", "delivered", "orders_vp", "delivered_colour",
                 "delivered_transport", "shift_points", "end_points")

    def __init__(self, francs: int = 0, workers: int = 0) -> None:
        self.francs = francs
        self.workers = workers
        self.canteen = 0
        self.cage_level = 0
        self.cage = [0] * N_COLOURS
        self.storage = [0] * N_COLOURS
        self.light: list[list[str]] = [[] for _ in COLOURS]
        self.dark: list[list[str]] = [[] for _ in COLOURS]
        # the printed starting cart of each level, loaded with one cube of its colour
        self.carts = [1] * N_COLOURS
        self.coal = [[1 if c == lvl else 0 for c in range(N_COLOURS)] for lvl in range(N_COLOURS)]
        self.outstanding: list[Outstanding] = []
        self.delivered: list[str] = []
        self.orders_vp = 0
        self.delivered_colour = [0] * N_COLOURS
        self.delivered_transport = [0] * len(TRANSPORTS)
        self.shift_points = [0, 0, 0]
        self.end_points = [0, 0, 0, 0]

    def copy(self) -> Pit:
        p = Pit.__new__(Pit)
        p.francs = self.francs
        p.workers = self.workers
        p.canteen = self.canteen
        p.cage_level = self.cage_level
        p.cage = self.cage[:]
        p.storage = self.storage[:]
        p.light = [x[:] for x in self.light]
        p.dark = [x[:] for x in self.dark]
        p.carts = self.carts[:]
        p.coal = [x[:] for x in self.coal]
        p.outstanding = [o.copy() for o in self.outstanding]
        p.delivered = self.delivered[:]
        p.orders_vp = self.orders_vp
        p.delivered_colour = self.delivered_colour[:]
        p.delivered_transport = self.delivered_transport[:]
        p.shift_points = self.shift_points[:]
        p.end_points = self.end_points[:]
        return p

    # ---- derived facts -------------------------------------------------

    def find_order(self, card: str) -> Outstanding | None:
        for o in self.outstanding:
            if o.card == card:
                return o
        return None

    def cage_load(self) -> int:
        return sum(self.cage)

    def empty_carts(self, level_index: int) -> int:
        """Minecarts on a level (tiles and the printed cart) holding no cube."""
        return self.carts[level_index] - sum(self.coal[level_index])

    def coal_owned(self) -> int:
        """Cubes on minecarts, in the cage, in storage and on outstanding orders."""
        return (sum(sum(c) for c in self.coal) + sum(self.cage) + sum(self.storage)
                + sum(o.cubes() for o in self.outstanding))

    def snapshot(self) -> dict[str, Any]:
        levels = {}
        for i in range(N_COLOURS):
            coal = self.coal[i]
            levels[LEVEL_KEYS[i]] = {
                "colour": COLOURS[i],
                "light": self.light[i][:],
                "dark": self.dark[i][:],
                "carts": self.carts[i],
                "coal": {"yellow": coal[0], "brown": coal[1], "grey": coal[2], "black": coal[3]},
                "empty_carts": self.carts[i] - coal[0] - coal[1] - coal[2] - coal[3],
            }
        return {
            "francs": self.francs,
            "workers": self.workers,
            "canteen": self.canteen,
            "cage": {"level": self.cage_level, "coal": dict(zip(COLOURS, self.cage))},
            "storage": dict(zip(COLOURS, self.storage)),
            "pit": levels,
            "outstanding": [o.snapshot() for o in self.outstanding],
            "delivered": self.delivered[:],
        }
