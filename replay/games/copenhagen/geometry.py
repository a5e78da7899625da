"""Tiles on the facade: orientations and placements, precomputed as bit masks.

A board cell ``(x, y)`` is bit ``y * width + x`` of an ``int``.  For every
tile type and every distinct orientation (rotation in quarter turns, then an
optional left-right mirror, as BGA numbers them), every position inside the
board is precomputed once: the cells it covers, which of them show windows,
the cells directly below it, its orthogonal neighbours, the rows and columns
it touches.  A placement check is then a handful of integer operations.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from replay.games.copenhagen.components import TileShape, components

ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)


def cell_name(x: int, y: int) -> str:
    """A facade cell as a player counts it: columns from 1 at the left, rows from 1 at street level
    (the rulebook's "2nd row from the bottom" is row 2).  A record's ``(x, y)`` counts both from 0:
    ``cell_name(1, 0)`` is "column 2, row 1"."""
    return f"column {x + 1}, row {y + 1}"
FLIPS: tuple[int, ...] = (0, 180)


@dataclass(frozen=True, slots=True)
class Orientation:
    """A tile turned and perhaps mirrored: cells relative to its bounding box."""

    rotation: int
    flip: int
    cells: tuple[tuple[int, int, bool], ...]  # (x, y, window), sorted
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile in one orientation with its bounding box's lower-left corner at ``(x, y)``."""

    tile: str
    orientation: Orientation
    x: int
    y: int
    mask: int
    windows: int
    below: int
    grounded: bool
    neighbours: int
    cells: tuple[int, ...]
    rows: tuple[int, ...]
    columns: tuple[int, ...]


def bit(x: int, y: int) -> int:
    return 1 << (y * components().width + x)


def transform(cells: tuple[tuple[int, int, bool], ...], rotation: int,
              flip: int) -> tuple[tuple[int, int, bool], ...]:
    """Turn ``rotation`` degrees clockwise ((x, y) -> (y, -x) per quarter), then mirror if ``flip``."""
    out = list(cells)
    for _ in range(rotation // 90):
        out = [(y, -x, w) for x, y, w in out]
    if flip:
        out = [(-x, y, w) for x, y, w in out]
    mx = min(x for x, _, _ in out)
    my = min(y for _, y, _ in out)
    return tuple(sorted((x - mx, y - my, w) for x, y, w in out))


def _base_cells(shape: TileShape) -> tuple[tuple[int, int, bool], ...]:
    return tuple((x, y, (x, y) != shape.plain) for x, y in shape.cells)


@cache
def orientations(tile: str) -> tuple[tuple[Orientation, ...], dict[tuple[int, int], int]]:
    """The distinct orientations of ``tile`` and, for each (rotation, flip), its index among them.

    Two orientations are the same when they cover the same cells with the
    same windows; the first in (rotation, flip) order is the canonical one.
    """
    base = _base_cells(components().shapes[tile])
    distinct: list[Orientation] = []
    index: dict[tuple[int, int], int] = {}
    seen: dict[tuple[tuple[int, int, bool], ...], int] = {}
    for rotation in ROTATIONS:
        for flip in FLIPS:
            cells = transform(base, rotation, flip)
            if cells not in seen:
                seen[cells] = len(distinct)
                distinct.append(Orientation(rotation, flip, cells,
                                            1 + max(c[0] for c in cells), 1 + max(c[1] for c in cells)))
            index[(rotation, flip)] = seen[cells]
    return tuple(distinct), index


def _placement(tile: str, o: Orientation, px: int, py: int) -> Placement:
    comp = components()
    w, h = comp.width, comp.height
    mask = windows = below = neighbours = 0
    cells: list[int] = []
    for cx, cy, window in o.cells:
        x, y = px + cx, py + cy
        b = bit(x, y)
        mask |= b
        cells.append(y * w + x)
        if window:
            windows |= b
        if y > 0:
            below |= bit(x, y - 1)
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= nx < w and 0 <= ny < h:
                neighbours |= bit(nx, ny)
    return Placement(
        tile=tile, orientation=o, x=px, y=py, mask=mask, windows=windows,
        below=below & ~mask, grounded=py == 0, neighbours=neighbours & ~mask,
        cells=tuple(sorted(cells)),
        rows=tuple(sorted({py + cy for _, cy, _ in o.cells})),
        columns=tuple(sorted({px + cx for cx, _, _ in o.cells})),
    )


@cache
def placements(tile: str) -> tuple[Placement, ...]:
    """Every position of every distinct orientation of ``tile`` inside the board.

    Ordered by ``y``, then ``x``, then orientation (the order of legal moves).
    """
    comp = components()
    out = []
    for o in orientations(tile)[0]:
        for py in range(comp.height - o.height + 1):
            for px in range(comp.width - o.width + 1):
                out.append(_placement(tile, o, px, py))
    order = {o: i for i, o in enumerate(orientations(tile)[0])}
    out.sort(key=lambda p: (p.y, p.x, order[p.orientation]))
    return tuple(out)


@cache
def placement_at(tile: str, x: int, y: int, rotation: int, flip: int) -> Placement | None:
    """The placement a move names, or None when the tile would stick out of the board."""
    distinct, index = orientations(tile)
    i = index.get((rotation, flip))
    if i is None:
        return None
    o = distinct[i]
    comp = components()
    if not (0 <= x and 0 <= y and x + o.width <= comp.width and y + o.height <= comp.height):
        return None
    return _placement(tile, o, x, y)


@cache
def row_mask(y: int) -> int:
    return sum(bit(x, y) for x in range(components().width))


@cache
def column_mask(x: int) -> int:
    return sum(bit(x, y) for y in range(components().height))


@cache
def coat_cells_mask() -> int:
    return sum(bit(x, y) for x, y in components().coat_cells)


@cache
def full_mask() -> int:
    comp = components()
    return (1 << (comp.width * comp.height)) - 1
