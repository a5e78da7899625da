"""Mine cart factory (rules 6.1, 6.2): buy a tunnel tile, place it, load its carts with coal."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from ..components import COAL_SUPPLY, COLOUR_INDEX, COLOURS, SPACES, TILES
from ..moves import ChooseCoal
from ..tasks import Draw, Task
from . import draws

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
    st.push(draws.ReturnTilesTask(player))
    st.push(draws.KeepTileTask(player))
    st.push(LookAtTilesTask(player, need=SPACES[space].value,
                            reason=f"{player} looks at the top tunnel tiles"))


@dataclass(slots=True)
class LookAtTilesTask(Draw):
    """Mine cart factory, draw space (6.2), step 1: draw the top five tiles; only the player
    sees them."""

    deck = "tiles"
    private = True

    def drawn(self, s: CoalBaronState, got: list[str | None]) -> None:
        s.revealed = draws.offered(s, "tiles", self.player, list(got))


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
        st.push(CoalShortageTask(player, level, short))


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


@dataclass(slots=True)
class CoalShortageTask(Task):
    """The shortage rule (6.1): the supply lacks cubes of the level's colour, so the player
    chooses a colour for each new minecart left unfilled (while the supply has any cube)."""

    level: int = 0
    """The level (and colour) of the new minecarts."""
    left: int = 0
    """How many of them still wait for a cube."""
    kind = "choose_coal"
    awaiting = "choose the colour of a cube for a new minecart (the supply lacks its colour)"
    accepts = (ChooseCoal,)

    def is_open(self, s: CoalBaronState) -> bool:
        return self.left > 0 and any(s.supply)

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        return [ChooseCoal(colour=c) for c in COLOURS]

    def check(self, s: CoalBaronState, player: str, move: Move) -> str | None:
        assert isinstance(move, ChooseCoal)
        c = COLOUR_INDEX.get(move.colour)
        level = COLOURS[self.level]
        if c is None:
            return (f"{player} cannot put a {move.colour!r} cube on the new {level} minecart: "
                    "coal is yellow, brown, grey or black")
        if s.supply[c] == 0:
            return (f"{player} cannot put a {move.colour} cube on the new {level} minecart: "
                    f"the supply has no {move.colour} cube left")
        return None

    def apply(self, s: CoalBaronState, player: str, move: Move) -> None:
        assert isinstance(move, ChooseCoal)
        c = COLOUR_INDEX[move.colour]
        s.supply[c] -= 1
        s.pits[player].coal[self.level][c] += 1
        self.left -= 1

    def view(self, s: CoalBaronState) -> dict[str, Any]:
        out = Task.view(self, s)
        out["shortage"] = {"level": self.level, "carts": self.left}
        return out
