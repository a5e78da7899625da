"""Mine cart factory (rules 6.1, 6.2): buy a tunnel tile, place it, load its carts with coal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import IllegalMove, Move

from ..components import COAL_SUPPLY, COLOUR_INDEX, COLOURS, SPACES, TILES
from ..moves import ChooseCoal

if TYPE_CHECKING:
    from ..state import CoalBaronState


def buy_tile(st: CoalBaronState, player: str, space: str) -> None:
    """Buy the tile lying on a factory space (legality was checked on placement)."""
    tile = st.factory[space]
    assert tile is not None
    st.factory[space] = None
    acquire_tile(st, player, tile)


def look_at_tiles(st: CoalBaronState, player: str, space: str) -> None:
    """The draw space: reveal the top five tiles; then keep one (or none) and return the rest."""
    st.queue.insert(0, "return_tiles")
    st.start_draw(st.tiles, SPACES[space].value, "tile_draw", f"{player} looks at the top tunnel tiles")


def acquire_tile(st: CoalBaronState, player: str, tile: str) -> None:
    """Pay the price, place the tile on its level (light left, dark right), load its minecarts."""
    t = TILES[tile]
    pit = st.pits[player]
    pit.francs -= t.price
    (pit.light if t.side == "light" else pit.dark)[t.colour].append(tile)
    pit.carts[t.colour] += t.carts
    load_new_minecarts(st, player, t.colour, t.carts)


def load_new_minecarts(st: CoalBaronState, player: str, level: int, carts: int) -> None:
    """One cube of the level's colour on each new cart; if the supply runs short, the player
    chooses another colour for each cart left (rules 6.1, shortage rule)."""
    filled = min(carts, st.supply[level])
    if st.ruleset == "bga":
        note_coal_supply(st, player, level, filled)
    st.supply[level] -= filled
    st.pits[player].coal[level][level] += filled
    short = carts - filled
    if short and any(st.supply):
        st.shortage_level = level
        st.shortage_left = short
        st.decide("choose_coal", player)


def note_coal_supply(st: CoalBaronState, player: str, level: int, filled: int) -> None:
    """Under ``bga``: BGA's larger supply fills carts the physical supply could not.

    Both supplies gain and lose the same cubes, so the physical one always holds a fixed
    number fewer than BGA's: the difference of the two starting supplies."""
    fewer = COAL_SUPPLY["bga"] - (COAL_SUPPLY["official"] - len(st.players))
    physical = max(st.supply[level] - fewer, 0)
    if filled > physical:
        st.depart("coal_supply", f"{player}'s new {COLOURS[level]} minecarts: BGA's supply fills {filled}; "
                                 f"the physical supply holds {physical} {COLOURS[level]} cube{'s' if physical != 1 else ''}, so the "
                                 f"player would choose a colour for {filled - physical}")


def choose_coal_moves(st: CoalBaronState, player: str) -> list[Move]:
    return [ChooseCoal(colour=c) for i, c in enumerate(COLOURS) if st.supply[i] > 0]


def choose_coal(st: CoalBaronState, player: str, move: ChooseCoal) -> None:
    c = COLOUR_INDEX.get(move.colour)
    level = COLOURS[st.shortage_level]
    if c is None:
        raise IllegalMove(f"{player} cannot put a {move.colour!r} cube on the new {level} minecart: "
                          "coal is yellow, brown, grey or black")
    if st.supply[c] == 0:
        raise IllegalMove(f"{player} cannot put a {move.colour} cube on the new {level} minecart: "
                          f"the supply has no {move.colour} cube left")
    st.supply[c] -= 1
    st.pits[player].coal[st.shortage_level][c] += 1
    st.shortage_left -= 1
    if st.shortage_left == 0 or not any(st.supply):
        st.done_deciding()
