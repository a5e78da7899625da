"""Perikles component data, loaded once from ``data/*.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DATA = Path(__file__).parent / "data"

HOPLITE = "hoplite"
TRIREME = "trireme"
UNIT_TYPES: tuple[str, ...] = (HOPLITE, TRIREME)
ATTACKER = "attacker"
DEFENDER = "defender"
SIDES: tuple[str, ...] = (ATTACKER, DEFENDER)
PERSIA = "persia"
ANY = "any"
CUBE_LIMIT = 30
ROUNDS = 3
DISPLAY_SLOTS = 10
LOCATION_SLOTS = 7


def _load(name: str) -> Any:
    with open(_DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


@dataclass(frozen=True, slots=True)
class City:
    key: str
    name: str
    statue_values: tuple[int, ...]

    def statue_value(self, defeats: int) -> int:
        """VP of one statue after ``defeats`` defeats."""
        return self.statue_values[min(defeats, len(self.statue_values) - 1)]


@dataclass(frozen=True, slots=True)
class InfluenceTile:
    id: str
    city: str
    shards: int
    symbol: str  # none / candidate / assassin

    @property
    def category(self) -> str:
        """The colour-rule category: the city, or ``any``."""
        return self.city


@dataclass(frozen=True, slots=True)
class LocationTile:
    key: str
    name: str
    owner: str
    vp: int
    combats: tuple[str, ...]
    intrinsic_side: str | None
    intrinsic_types: tuple[str, ...]

    @property
    def land_only(self) -> bool:
        return TRIREME not in self.combats

    def intrinsic(self, side: str, unit_type: str) -> bool:
        """Whether the tile's printed +1 force joins ``side`` in a combat of ``unit_type``."""
        return self.intrinsic_side == side and unit_type in self.intrinsic_types


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    power: str
    type: str
    strength: int


@dataclass(frozen=True, slots=True)
class CrtColumn:
    column: int
    label: str
    test: str
    attacker_target: int
    defender_target: int


@dataclass(frozen=True, slots=True)
class SpecialTile:
    key: str
    name: str
    timing: str
    combat_type: str | None


def _cities() -> tuple[City, ...]:
    raw = _load("cities.json")
    return tuple(City(c["key"], c["name"], tuple(c["statue_values"])) for c in raw["cities"])


def _units() -> tuple[Unit, ...]:
    out: list[Unit] = []
    for power in _load("military.json")["powers"]:
        for unit_type in UNIT_TYPES:
            for strength in sorted(power[unit_type]):
                out.append(Unit(f"u{len(out) + 1}", power["key"], unit_type, strength))
    return tuple(out)


def _locations() -> tuple[LocationTile, ...]:
    out = []
    for t in _load("location_tiles.json")["tiles"]:
        intr = t["intrinsic"]
        out.append(LocationTile(t["key"], t["name"], t["owner"], t["vp"], tuple(t["combats"]),
                                intr["side"] if intr else None, tuple(intr["types"]) if intr else ()))
    return tuple(out)


CITIES: tuple[City, ...] = _cities()
CITY_KEYS: tuple[str, ...] = tuple(c.key for c in CITIES)
CITY: dict[str, City] = {c.key: c for c in CITIES}
POWERS: tuple[str, ...] = CITY_KEYS + (PERSIA,)
GAME_END_DEFEATS: dict[str, int] = dict(_load("cities.json")["game_end_defeats"])

INFLUENCE_TILES: tuple[InfluenceTile, ...] = tuple(
    InfluenceTile(t["id"], t["city"], t["shards"], t["symbol"]) for t in _load("influence_tiles.json")["tiles"]
)
INFLUENCE: dict[str, InfluenceTile] = {t.id: t for t in INFLUENCE_TILES}

LOCATIONS: tuple[LocationTile, ...] = _locations()
LOCATION: dict[str, LocationTile] = {t.key: t for t in LOCATIONS}

UNITS: tuple[Unit, ...] = _units()
UNIT: dict[str, Unit] = {u.id: u for u in UNITS}
UNIT_INDEX: dict[str, int] = {u.id: i for i, u in enumerate(UNITS)}
UNIT_IDS: tuple[str, ...] = tuple(u.id for u in UNITS)
UNITS_BY_KIND: dict[tuple[str, str, int], tuple[str, ...]] = {
    kind: tuple(u.id for u in UNITS if (u.power, u.type, u.strength) == kind)
    for kind in dict.fromkeys((u.power, u.type, u.strength) for u in UNITS)
}
"""(power, type, strength) -> the ids of the units of that kind, in unit order."""

CRT: tuple[CrtColumn, ...] = tuple(
    CrtColumn(c["column"], c["label"], c["test"], c["attacker_target"], c["defender_target"])
    for c in _load("combat_results.json")["columns"]
)

SPECIAL_TILES: tuple[SpecialTile, ...] = tuple(
    SpecialTile(t["key"], t["name"], t["timing"], t["combat_type"]) for t in _load("special_tiles.json")["tiles"]
)
SPECIAL: dict[str, SpecialTile] = {t.key: t for t in SPECIAL_TILES}


def _column_applies(test: str, a: float, d: float) -> bool:
    if test == "a >= 3d":
        return a >= 3 * d
    if test == "a >= 2d":
        return a >= 2 * d
    if test == "a >= d + 2":
        return a >= d + 2
    if test == "a >= d or (a >= d - 1 and a > 1)":
        return a >= d or (a >= d - 1 and a > 1)
    if test == "2a > d":
        return 2 * a > d
    if test == "always":
        return True
    raise ValueError(f"unknown combat results table test {test!r} in combat_results.json")


def crt_column(attack: float, defence: float) -> CrtColumn:
    """The combat results table column for attack strength ``attack`` against ``defence`` (an expected
    strength may be fractional: :mod:`.odds`)."""
    for col in CRT:
        if _column_applies(col.test, attack, defence):
            return col
    raise ValueError("the combat results table has no catch-all column")


def tiles_per_player(n_players: int) -> int:
    """Influence tiles each player takes per round: 5 with 3-4 players, 4 with five."""
    return 4 if n_players >= 5 else 5
