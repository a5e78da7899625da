"""A player's own things: the 5 x 9 facade board, the hand, the ability tiles, the score.

The facade is kept as bit masks (covered cells, window cells, cells per
colour) plus the colour of every cell for the viewer.  The score is kept up to
date by :mod:`replay.games.copenhagen.scoring` as tiles are placed.
"""

from __future__ import annotations

from typing import Any

from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import Placement


class Facade:
    """One player's facade board."""

    __slots__ = ("covered", "windows", "by_color", "cells", "_rows", "_shared")

    def __init__(self) -> None:
        comp = components()
        self.covered = 0
        self.windows = 0
        self.by_color: dict[str, int] = {c: 0 for c in (*comp.colors, comp.white)}
        """Each colour's cells as a mask."""
        self.cells: list[str | None] = [None] * (comp.width * comp.height)
        """The colour of every cell (``None``: empty), row by row from street level."""
        self._rows: list[list[dict[str, Any] | None]] | None = None
        self._shared = False
        """Whether :attr:`by_color` and :attr:`cells` may be another facade's too (a copy shares
        them until one of the two places a tile: :meth:`place` copies them first)."""

    def copy(self) -> Facade:
        f = Facade.__new__(Facade)
        f.covered = self.covered
        f.windows = self.windows
        f.by_color = self.by_color
        f.cells = self.cells
        f._rows = self._rows
        f._shared = self._shared = True
        return f

    def fits(self, p: Placement) -> bool:
        """Inside (by construction), on empty cells only, and supported."""
        return not (p.mask & self.covered) and (p.grounded or bool(p.below & self.covered))

    def touches(self, p: Placement, color: str) -> bool:
        """Does the placement touch (orthogonally) a tile of ``color`` already on the board?"""
        return bool(p.neighbours & self.by_color[color])

    def place(self, p: Placement, color: str) -> None:
        if self._shared:
            self.by_color, self.cells, self._shared = dict(self.by_color), list(self.cells), False
        self.covered |= p.mask
        self.windows |= p.windows
        self.by_color[color] |= p.mask
        for i in p.cells:
            self.cells[i] = color
        self._rows = None

    def covered_count(self) -> int:
        return self.covered.bit_count()

    def empty_count(self) -> int:
        return len(self.cells) - self.covered_count()

    def rows(self) -> list[list[dict[str, Any] | None]]:
        """The board as rows of cells, ``rows[y][x]``, row 0 (street level) first (a fresh list)."""
        if self._rows is None:
            self._rows = self._build_rows()
        return [list(row) for row in self._rows]

    def _build_rows(self) -> list[list[dict[str, Any] | None]]:
        comp = components()
        out: list[list[dict[str, Any] | None]] = []
        for y in range(comp.height):
            row: list[dict[str, Any] | None] = []
            for x in range(comp.width):
                i = y * comp.width + x
                color = self.cells[i]
                row.append(None if color is None else {"color": color, "window": bool(self.windows >> i & 1)})
            out.append(row)
        return out


class Player:
    """A player's facade, hand, ability tiles and score by category.

    The hand is a zone in the sense of :mod:`replay.hidden`: cards by colour, the key
    ``None`` counting cards whose colour the record does not show (another player's
    starting hand); colours with no card have no key.
    """

    __slots__ = ("id", "facade", "hand", "abilities", "score")

    def __init__(self, pid: str, categories: tuple[str, ...]) -> None:
        comp = components()
        self.id = pid
        self.facade = Facade()
        self.hand: dict[str | None, int] = {}
        # owned ability tiles: id -> used?  (in the components' order)
        self.abilities: dict[str, bool] = {a.id: False for a in comp.abilities if a.starts_owned}
        self.score: dict[str, int] = {c: 0 for c in categories}

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.id = self.id
        p.facade = self.facade.copy()
        p.hand = dict(self.hand)
        p.abilities = dict(self.abilities)
        p.score = self.score  # replaced, never mutated
        return p

    @property
    def hand_size(self) -> int:
        return sum(self.hand.values())

    @property
    def unknown_cards(self) -> int:
        """Cards in hand whose colour is not known."""
        return self.hand.get(None, 0)

    def hand_view(self) -> dict[str, int]:
        """The snapshot's ``hand``: known cards by colour, every colour listed, and the
        cards of unknown colour under ``"?"`` (only when there are some)."""
        hand = self.hand
        out = {c: hand.get(c, 0) for c in components().colors}
        if hand.get(None):
            out["?"] = hand[None]
        return out

    @property
    def total(self) -> int:
        return sum(self.score.values())

    def can_use(self, ability: str) -> bool:
        """Owns the ability tile and it shows its unused side."""
        return self.abilities.get(ability) is False

    def use(self, ability: str) -> None:
        self.abilities[ability] = True

    def any_used(self) -> bool:
        return any(self.abilities.values())

    def gain_ability(self, ability: str) -> None:
        order = components().ability_ids
        self.abilities[ability] = False
        self.abilities = {a: self.abilities[a] for a in order if a in self.abilities}
