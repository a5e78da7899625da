"""Scoring: complete rows and columns, and the ``facade_completion`` milestone.

A complete row scores 1 (category ``rows``), or 2 if all its cells show
windows (category ``rows_all_windows``); a complete column scores 2
(``columns``), or 4 with windows only (``columns_all_windows``).  An
all-window line scores only in its all-windows category, so the four
categories always sum to the total.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.games.copenhagen.board import Facade
from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import Placement, column_mask, row_mask

CATEGORIES: tuple[str, ...] = ("rows", "rows_all_windows", "columns", "columns_all_windows")


@dataclass(frozen=True, slots=True)
class Completion:
    """A row or column completed by a placement."""

    line: str  # "row" or "column"
    index: int  # row y or column x
    all_windows: bool
    points: int

    @property
    def category(self) -> str:
        base = "rows" if self.line == "row" else "columns"
        return base + "_all_windows" if self.all_windows else base


def completions(facade: Facade, p: Placement) -> list[Completion]:
    """The rows and columns the placement ``p`` (already on ``facade``) has just completed.

    A line completes when the placement has a cell in it and it is now fully
    covered; before the placement it had an empty cell, so it is new.
    """
    comp = components()
    out: list[Completion] = []
    for y in p.rows:
        m = row_mask(y)
        if facade.covered & m == m:
            windows = facade.windows & m == m
            out.append(Completion("row", y, windows, comp.row_window_points if windows else comp.row_points))
    for x in p.columns:
        m = column_mask(x)
        if facade.covered & m == m:
            windows = facade.windows & m == m
            out.append(Completion("column", x, windows,
                                  comp.column_window_points if windows else comp.column_points))
    return out


def add_points(score: dict[str, int], done: list[Completion]) -> dict[str, int]:
    """A new score dict with the completions added (score dicts are never mutated in place)."""
    new = dict(score)
    for c in done:
        new[c.category] += c.points
    return new


def completed_rows(facade: Facade) -> tuple[int, ...]:
    return tuple(y for y in range(components().height) if facade.covered & row_mask(y) == row_mask(y))
