"""Praga's component data, loaded once from ``data/*.json`` (our own schema; see docs/games/praga.md)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text())
    return data


CRANE = _load("crane.json")
ACTION_TILES = _load("action_tiles.json")
BOARD = _load("player_board.json")
GRIDS = _load("grids.json")
BRIDGE = _load("bridge.json")
CITY = _load("city.json")
SUPPLIES = _load("supplies.json")

ACTIONS: tuple[str, ...] = ("mines", "quarries", "upgrade", "wall", "building", "kings_road")
ACTION_NAMES = {"mines": "manage gold mines", "quarries": "manage quarries", "upgrade": "upgrade",
                "wall": "build a wall", "building": "build a building", "kings_road": "King's Road"}
ROWS: tuple[str, ...] = ("upgrade", "wall", "building")
GRID_NAMES: tuple[str, ...] = ("hunger_wall", "cathedral")
TRACKS: tuple[str, ...] = ("mines", "quarries")
TRACK_RESOURCE = {"mines": "gold", "quarries": "stone"}
TRACK_DATA = {"mines": BOARD["mine_track"], "quarries": BOARD["quarry_track"]}
ERA_NAME = {1: "I", 2: "II"}

HEX_TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in _load("hex_tiles.json")["tiles"]}
POSITIONS: list[dict[str, Any]] = CRANE["positions"]
NOTCHES: list[dict[str, Any]] = CRANE["notches"]
SPACES: dict[str, dict[str, Any]] = {s["id"]: s for s in CITY["building_spaces"]}
SPACE_AT_HEX: dict[str, str] = {s["hex"]: s["id"] for s in CITY["building_spaces"]}
PLAZAS: dict[str, dict[str, Any]] = {p["id"]: p for p in CITY["plazas"]}
PLAZA_TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in CITY["plaza_tiles"]}
PLANKS: dict[str, dict[str, Any]] = {k["id"]: k for k in BRIDGE["planks"]}
SILVER_TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in BRIDGE["silver_tiles"]}
GOLD_TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in BRIDGE["gold_tiles"]}
ROAD: list[dict[str, Any]] = BRIDGE["kings_road"]
TECHS: dict[str, dict[str, Any]] = {t["id"]: t for t in SUPPLIES["technologies"]}
SEALS: dict[str, dict[str, Any]] = {s["id"]: s for s in SUPPLIES["seals"]}
PRODUCTION_TOKENS: dict[str, dict[str, Any]] = {t["id"]: t for t in SUPPLIES["production_tokens"]}
FINAL_TABLES: dict[str, list[int]] = SUPPLIES["final_tables"]
ROUNDS: int = SUPPLIES["rounds"]
ERA_CHANGE_AFTER: dict[int, int] = {int(k): v for k, v in SUPPLIES["era_change_after_turns"].items()}
TECH_TOP: int = BOARD["technology_track"]["top"]
TECH_AT: dict[int, int] = {int(k): v for k, v in BOARD["technology_track"]["tech_at"].items()}
UNI_TOP: int = BOARD["university_track"]["top"]
UNI_MULTIPLIER: list[int] = BOARD["university_track"]["multiplier"]
LEVEL_NAME = {1: "I", 2: "II", 3: "III", 4: "IV"}


def deck_name(kind: str, era: int, special: bool) -> str:
    """The stack a hex tile comes from, e.g. ``wall_I`` or ``building_II_special``."""
    return f"{kind}_{ERA_NAME[era]}" + ("_special" if special else "")


def hex_deck(tile_id: str) -> str:
    t = HEX_TILES[tile_id]
    return deck_name(t["type"], t["era"], t["special"])


def tiles_of(kind: str, era: int, special: bool) -> list[str]:
    return sorted(t["id"] for t in HEX_TILES.values()
                  if t["type"] == kind and t["era"] == era and t["special"] == special)


def plazas_in_play(n_players: int) -> list[str]:
    return [p for p, d in PLAZAS.items() if n_players in d["used_at"]]


@cache
def spaces_in_play(n_players: int) -> tuple[str, ...]:
    """The building spaces around the plazas in play with ``n_players`` (fixed for a game)."""
    used = set(plazas_in_play(n_players))
    return tuple(s for s, d in SPACES.items() if any(p in used for p in d["plazas"]))


def tokens_in_play(n_players: int) -> list[str]:
    return [t for t, d in PRODUCTION_TOKENS.items() if n_players in d["used_at"]]
