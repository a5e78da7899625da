"""Hex geometry for edge and corner contacts (axial coordinates, keys like ``"2,-1"``).

Edge ``d`` of a hex faces direction ``DIRS[d]``; corner ``c`` is the vertex shared with the
neighbours in directions ``c`` and ``c + 1``.  A tile turned by ``r`` shows its printed edge
(and corner) ``i`` at position ``(i + r) % 6``.
"""

from __future__ import annotations

from functools import cache

DIRS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def parse(key: str) -> tuple[int, int]:
    q, r = key.split(",")
    return int(q), int(r)


def key(q: int, r: int) -> str:
    return f"{q},{r}"


@cache
def neighbour(hex_key: str, d: int) -> str:
    q, r = parse(hex_key)
    dq, dr = DIRS[d % 6]
    return key(q + dq, r + dr)


@cache
def vertex(hex_key: str, c: int) -> str:
    """A canonical name of corner ``c`` of a hex: the three hexes meeting there, sorted."""
    return "|".join(sorted((hex_key, neighbour(hex_key, c), neighbour(hex_key, c + 1))))


@cache
def corner_at(hex_key: str, vertex_name: str) -> int:
    """Which corner of ``hex_key`` the vertex is."""
    for c in range(6):
        if vertex(hex_key, c) == vertex_name:
            return c
    raise ValueError(f"{vertex_name} is not a corner of {hex_key}")


def edge_name(a: str, b: str) -> str:
    return "/".join(sorted((a, b)))


def distance(a: str, b: str) -> int:
    aq, ar = parse(a)
    bq, br = parse(b)
    return (abs(aq - bq) + abs(ar - br) + abs((aq + ar) - (bq + br))) // 2


CENTRE = "0,0"
WALL_SLOTS: tuple[str, ...] = tuple(
    key(q, r) for q in range(-2, 3) for r in range(-2, 3) if distance(CENTRE, key(q, r)) == 2
)


@cache
def action_hex(direction: int) -> str:
    return neighbour(CENTRE, direction)
