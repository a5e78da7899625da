"""Build: armies in ruled regions and roads on their borders, 2 rupees a block (Nation
Building: a pair per 2 rupees); Infrastructure's free extra block."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import (
    BORDERS_OF,
    NATION_BUILDING,
    REGIONS,
)
from replay.games.pax_pamir.market import pay_to_market
from replay.games.pax_pamir.moves import (
    Build,
    PlaceArmy,
    PlaceRoad,
    Skip,
)
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState


BLOCK_COST = 2


def build_cost(s: PaxState, player: str, blocks: int) -> int:
    """2 rupees per block; with Nation Building 2 rupees per pair of blocks (rounded up)."""
    if s.holds(player, NATION_BUILDING):
        return BLOCK_COST * ((blocks + 1) // 2)
    return BLOCK_COST * blocks



def ruled_regions(s: PaxState, player: str) -> tuple[str, ...]:
    return tuple(r for r in REGIONS if s.rulers[r] == player)


def check_build(s: PaxState, player: str, move: Build) -> str | None:
    if not ruled_regions(s, player):
        return f"{player} cannot build: Build needs a region {player} rules, and {player} rules none"
    most = 6 if s.holds(player, NATION_BUILDING) else 3
    if not 1 <= move.blocks <= most:
        return f"{player} cannot build {move.blocks} blocks: a Build places 1 to {most}"
    cost = build_cost(s, player, move.blocks)
    if cost > s.rupees[player]:
        return f"{player} cannot build {move.blocks} blocks: that costs {cost} rupees, {player} has {s.rupees[player]}"
    return None


def build(s: PaxState, player: str, blocks: int) -> None:
    """Build: pay for the blocks up front, then place them one by one."""
    pay_to_market(s, player, build_cost(s, player, blocks))
    s.push(BuildTask(player, blocks, ruled_regions(s, player), False))


@dataclass(slots=True)
class BuildTask(Task):
    """Build (already paid): place armies in ruled regions and roads on their borders.  With
    ``optional`` it is Infrastructure's one free extra block, which may be skipped."""

    left: int
    ruled: tuple[str, ...]
    optional: bool
    accepts = (PlaceArmy, PlaceRoad, Skip)
    awaiting = "placement of a built block"

    def is_open(self, s: PaxState) -> bool:
        return self.left > 0

    def close(self, s: PaxState) -> None:
        if not self.optional and s.has(self.player, "infrastructure"):
            ruled = ruled_regions(s, self.player)
            if ruled:
                s.push(BuildTask(self.player, 1, ruled, True))

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [PlaceArmy(region=r) for r in self.ruled]
        out.extend(PlaceRoad(border=b) for b in sorted({b for r in self.ruled for b in BORDERS_OF[r]}))
        if self.optional:
            out.append(Skip())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        ruled = ", ".join(self.ruled)
        if isinstance(move, Skip):
            return None if self.optional else f"{player} cannot skip: the blocks of this Build are paid for"
        if isinstance(move, PlaceArmy) and move.region not in self.ruled:
            return f"{player} cannot build an army in {move.region}: {player} rules only {ruled}"
        if isinstance(move, PlaceRoad) and not any(b == move.border for r in self.ruled for b in BORDERS_OF[r]):
            return f"{player} cannot build a road on {move.border}: it touches no region {player} rules ({ruled})"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        self.left -= 1
        if isinstance(move, PlaceArmy):
            board.place(s, player, "army", move.region, s.coalition_of(player))
        elif isinstance(move, PlaceRoad):
            board.place(s, player, "road", move.border, s.coalition_of(player))
        else:
            self.left = 0

    def describe(self) -> str:
        what = "Infrastructure's free block (or skip)" if self.optional else f"placement of {self.left} built block(s)"
        return what
