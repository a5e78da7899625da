"""Coal Baron component data (orders, tunnel tiles, work spaces, scoring), loaded once.

The facts live in ``data/*.json`` in the project's own schema; this module turns
them into small frozen dataclasses and lookup tables.  Colours are referred to
by their index 0..3 (yellow, brown, grey, black), which is also the pit level
minus one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

COLOURS: tuple[str, ...] = ("yellow", "brown", "grey", "black")
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
TRANSPORTS: tuple[str, ...] = ("barrow", "carriage", "motorcar", "engine")
TRANSPORT_INDEX: dict[str, int] = {t: i for i, t in enumerate(TRANSPORTS)}
LEVELS: tuple[int, ...] = (1, 2, 3, 4)
SURFACE = 0


def _load(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@dataclass(frozen=True, slots=True)
class OrderCard:
    """An order card: its transport type, its VP and the colours of its coal spaces."""

    id: str
    transport: int
    vp: int
    coal: tuple[int, ...]

    @property
    def transport_name(self) -> str:
        return TRANSPORTS[self.transport]


@dataclass(frozen=True, slots=True)
class TunnelTile:
    """A tunnel tile: colour (= level - 1), light or dark side, 1 or 2 minecarts, price."""

    id: str
    kind: int
    colour: int
    side: str
    carts: int
    price: int

    @property
    def level(self) -> int:
        return self.colour + 1

    def describe(self) -> str:
        carts = "1 minecart" if self.carts == 1 else f"{self.carts} minecarts"
        return f"{self.id} ({self.side} {COLOURS[self.colour]}, {carts}, {self.price} francs)"


@dataclass(frozen=True, slots=True)
class WorkSpace:
    """A work space of the main board and the player counts in which it is usable."""

    id: str
    group: str
    value: int
    players: tuple[int, ...]
    name: str
    transport: int = -1


@dataclass(frozen=True, slots=True)
class Majority:
    """One shift-scoring category with its first/second place points."""

    category: str
    kind: str
    key: int
    from_shift: int
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Setup:
    workers: int
    francs: int


def _orders() -> dict[str, OrderCard]:
    out: dict[str, OrderCard] = {}
    for o in _load("orders.json")["orders"]:
        out[o["id"]] = OrderCard(o["id"], TRANSPORT_INDEX[o["transport"]], int(o["vp"]),
                                 tuple(COLOUR_INDEX[c] for c in o["coal"]))
    return out


def _tiles() -> tuple[dict[str, TunnelTile], dict[int, int]]:
    data = _load("tiles.json")
    prices = {COLOUR_INDEX[c]: int(p) for c, p in data["price_per_cart"].items()}
    out: dict[str, TunnelTile] = {}
    for k in data["kinds"]:
        colour = COLOUR_INDEX[k["colour"]]
        for tid in k["ids"]:
            out[tid] = TunnelTile(tid, int(k["kind"]), colour, k["side"], int(k["carts"]),
                                  prices[colour] * int(k["carts"]))
    return out, prices


def _spaces() -> tuple[dict[str, WorkSpace], dict[str, Any]]:
    data = _load("spaces.json")
    out: dict[str, WorkSpace] = {}
    for s in data["spaces"]:
        transport = TRANSPORT_INDEX[s["transport"]] if "transport" in s else -1
        out[s["id"]] = WorkSpace(s["id"], s["group"], int(s["value"]), tuple(s["players"]), s["name"], transport)
    return out, data


def _majorities() -> tuple[tuple[Majority, ...], dict[str, Any]]:
    data = _load("scoring.json")
    keys = {"coal": COLOUR_INDEX, "carts": COLOUR_INDEX, "transport": TRANSPORT_INDEX}
    out = tuple(Majority(m["category"], m["kind"], keys[m["kind"]][m["key"]], int(m["from_shift"]),
                         int(m["first"]), int(m["second"])) for m in data["majorities"])
    return out, data


ORDERS = _orders()
ORDER_IDS: tuple[str, ...] = tuple(ORDERS)
TILES, PRICE_PER_CART = _tiles()
TILE_IDS: tuple[str, ...] = tuple(TILES)
SPACES, _SPACE_DATA = _spaces()
SPACE_IDS: tuple[str, ...] = tuple(SPACES)
MAJORITIES, _SCORING = _majorities()

FACTORY_REFILL_ORDER: tuple[str, ...] = tuple(_SPACE_DATA["factory_refill_order"])
ORDER_REFILL_ORDER: tuple[str, ...] = tuple(_SPACE_DATA["order_refill_order"])
DRAFT_LEFTOVER_SPACE: str = _SPACE_DATA["draft_leftover_space"]
SETUP: dict[int, Setup] = {int(n): Setup(int(v["workers"]), int(v["francs"]))
                           for n, v in _SPACE_DATA["setup"].items()}
CAGE_CAPACITY: int = int(_SPACE_DATA["cage_capacity"])
COAL_SUPPLY: dict[str, int] = {k: int(v) for k, v in _SPACE_DATA["coal_supply"].items()}
FRANCS_PER_POINT: int = int(_SCORING["francs_per_point"])
COAL_PER_POINT: int = int(_SCORING["coal_per_point"])
UNFULFILLED_ORDER: int = int(_SCORING["unfulfilled_order"])
IMBALANCE_PER_TILE: int = int(_SCORING["imbalance_per_tile"])
FACTORY_GROUPS = ("factory", "factory_draw")

FACE_DOWN = "?"
"""What a board space holds when a tile or card lies there whose identity the record does not
know (a BGA log never names the six to eight tiles dealt onto the factory at setup).  ``None`` on
a space means the space is empty; snapshots show a face-down item as ``null`` and list its space
under ``board.face_down``."""


def usable_spaces(n_players: int) -> tuple[str, ...]:
    """The work spaces not covered by a lock tile with ``n_players`` players, in board order."""
    return tuple(s.id for s in SPACES.values() if n_players in s.players)
