"""Copenhagen's components, loaded once from ``data/*.json``.

``game.json`` holds the facade board (size, coats of arms), the scoring table,
the card and harbour numbers and the five ability tiles; ``tiles.json`` holds
every facade tile shape (base orientation, plain cell) and the copies per
player count.  The geometry of tiles on the board (orientations, placements
as bit masks) is in :mod:`replay.games.copenhagen.geometry`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data")


@dataclass(frozen=True, slots=True)
class TileShape:
    """One facade tile type: ``red-3`` is the red tile of 3 cells."""

    key: str
    color: str
    size: int
    shape: str
    cells: tuple[tuple[int, int], ...]
    plain: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Ability:
    id: str
    name: str
    starts_owned: bool


@dataclass(frozen=True, slots=True)
class Components:
    width: int
    height: int
    coat_cells: tuple[tuple[int, int], ...]
    coat_rows: tuple[int, ...]
    row_points: int
    row_window_points: int
    column_points: int
    column_window_points: int
    end_points: int
    colors: tuple[str, ...]
    white: str
    white_count: int
    shapes: dict[str, TileShape]
    copies: dict[int, dict[int, int]]
    cards_per_color: dict[int, int]
    mermaid_enters: dict[int, str]
    mermaid_bottom: int
    harbour_slots: int
    hand_limit: int
    starting_hands: tuple[int, ...]
    abilities: tuple[Ability, ...]

    @property
    def ability_ids(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.abilities)

    def ability_name(self, ability_id: str) -> str:
        for a in self.abilities:
            if a.id == ability_id:
                return a.name
        return ability_id

    def sizes(self) -> tuple[int, ...]:
        return tuple(sorted({s.size for s in self.shapes.values() if s.color != self.white}))

    def tile_supply(self, n_players: int) -> dict[str, int]:
        """Facade tiles in the supply at the start, by tile key (``red-2``...)."""
        per_size = self.copies[n_players]
        return {f"{c}-{size}": per_size[size] for c in self.colors for size in self.sizes()}


def _load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


@cache
def components() -> Components:
    game = _load("game.json")
    tiles = _load("tiles.json")
    board, scoring, cards = game["board"], game["scoring"], game["cards"]
    shapes: dict[str, TileShape] = {}
    for key, spec in tiles["shapes"].items():
        color, size = key.rsplit("-", 1)
        plain = spec["plain"]
        shapes[key] = TileShape(
            key=key, color=color, size=int(size), shape=spec["shape"],
            cells=tuple((int(x), int(y)) for x, y in spec["cells"]),
            plain=None if plain is None else (int(plain[0]), int(plain[1])),
        )
    return Components(
        width=int(board["width"]),
        height=int(board["height"]),
        coat_cells=tuple((int(x), int(y)) for x, y in board["coat_of_arms_cells"]),
        coat_rows=tuple(int(y) for y in board["coat_of_arms_rows"]),
        row_points=int(scoring["row"]["plain"]),
        row_window_points=int(scoring["row"]["all_windows"]),
        column_points=int(scoring["column"]["plain"]),
        column_window_points=int(scoring["column"]["all_windows"]),
        end_points=int(scoring["end_points"]),
        colors=tuple(tiles["colors"]),
        white=str(tiles["white"]["color"]),
        white_count=int(tiles["white"]["count"]),
        shapes=shapes,
        copies={int(n): {int(s): int(c) for s, c in per.items()} for n, per in tiles["copies_per_color"].items()},
        cards_per_color={int(n): int(c) for n, c in cards["per_color"].items()},
        mermaid_enters={int(n): str(w) for n, w in cards["mermaid_enters"].items()},
        mermaid_bottom=int(cards["mermaid_bottom"]),
        harbour_slots=int(cards["harbour_slots"]),
        hand_limit=int(cards["hand_limit"]),
        starting_hands=tuple(int(h) for h in cards["starting_hands"]),
        abilities=tuple(Ability(a["id"], a["name"], bool(a["starts_owned"])) for a in game["abilities"]),
    )
