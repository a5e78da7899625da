"""Edge and corner contacts of a newly placed hex tile (section 10 of the rules).

An edge contact pays when both touching edges show a symbol: the placing player gains both
symbols' bonuses.  A corner contact pays when the new tile's coloured corner meets the same
colour (another tile's corner or a printed mark): one bonus token of that colour.  A contact is
identified by where it is, and pays only once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import geometry as g
from ..components import BOARD, HEX_TILES, SPACE_AT_HEX
from .effects import gain

if TYPE_CHECKING:
    from ..state import PragaState

SYMBOL_BONUS: dict[str, dict[str, Any]] = {
    "gold": {"gold": 1}, "stone": {"stone": 1}, "vp": {"vp": 1}, "book": {"book": 1}, "cap": {"cap": 1},
}
Face = tuple[list[str | None], list[str | None], int]
ACTION_AT_HEX: dict[str, str] = {g.action_hex(d): a for a, d in BOARD["action_hex_direction"].items()}
"""The action whose hex of the action board is at a hex key (around the centre)."""


def _tile_face(tile: str, rot: int) -> Face:
    t = HEX_TILES[tile]
    return t["edges"], t["corners"], rot


def board_face(s: PragaState, player: str, hex_key: str) -> Face | None:
    """What shows at ``hex_key`` of the player's action board and wall ring (None: empty)."""
    me = s.d["p"][player]
    if hex_key in me["walls"]:
        tile, rot = me["walls"][hex_key]
        return _tile_face(tile, rot)
    action = ACTION_AT_HEX.get(hex_key)
    if action is not None:
        pile = me["upgrades"][action]
        if pile:
            return _tile_face(pile[-1][0], pile[-1][1])
        printed = BOARD["action_board"][action]
        return printed["edges"], printed["corners"], 0
    if hex_key == g.CENTRE:
        return [None] * 6, [None] * 6, 0
    return None


def city_face(s: PragaState, hex_key: str) -> Face | None:
    space = SPACE_AT_HEX.get(hex_key)
    if space is None or space not in s.d["city"]["built"]:
        return None
    b = s.d["city"]["built"][space]
    return _tile_face(b["tile"], b["rot"])


def shown_edge(face: Face, direction: int) -> str | None:
    edges, _, rot = face
    return edges[(direction - rot) % 6]


def shown_corner(face: Face, corner: int) -> str | None:
    _, corners, rot = face
    return corners[(corner - rot) % 6]


def contacts(s: PragaState, player: str, hex_key: str, tile: str, rot: int, paid: dict[str, list[str]],
             lookup: Any, marks: dict[str, str], cat: str) -> tuple[int, int]:
    """Pay the new contacts of ``tile`` placed at ``hex_key``; returns (edge contacts, corner contacts)."""
    face = _tile_face(tile, rot)
    atoms: list[dict[str, Any]] = []
    n_edges = n_corners = 0
    for d in range(6):
        mine = shown_edge(face, d)
        other_hex = g.neighbour(hex_key, d)
        other = lookup(other_hex)
        if mine is None or other is None:
            continue
        theirs = shown_edge(other, (d + 3) % 6)
        name = g.edge_name(hex_key, other_hex)
        if theirs is None or name in paid["edges"]:
            continue
        paid["edges"].append(name)
        atoms += [SYMBOL_BONUS[mine], SYMBOL_BONUS[theirs]]
        n_edges += 1
    for c in range(6):
        colour = shown_corner(face, c)
        if colour is None:
            continue
        v = g.vertex(hex_key, c)
        if v in paid["vertices"]:
            continue
        match = marks.get(v) == colour
        for other_hex in (g.neighbour(hex_key, c), g.neighbour(hex_key, c + 1)):
            other = lookup(other_hex)
            if other is not None and shown_corner(other, g.corner_at(other_hex, v)) == colour:
                match = True
        if match:
            paid["vertices"].append(v)
            atoms.append({"token": colour})
            n_corners += 1
    gain(s, player, atoms, cat)
    return n_edges, n_corners


def place_on_board(s: PragaState, player: str, hex_key: str, tile: str, rot: int, cat: str) -> tuple[int, int]:
    me = s.d["p"][player]
    return contacts(s, player, hex_key, tile, rot, me["paid"], lambda h: board_face(s, player, h), {}, cat)


def place_in_city(s: PragaState, player: str, hex_key: str, tile: str, rot: int) -> tuple[int, int]:
    return contacts(s, player, hex_key, tile, rot, s.d["city"]["paid"], lambda h: city_face(s, h),
                    s.d["city"]["marks"], "buildings")
