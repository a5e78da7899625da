"""Mining (rules 6.3): 4/6/8/10 work steps spent one by one on cage moves and coal moves."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from replay.engine import Move

from ..components import CAGE_CAPACITY, COLOUR_INDEX, COLOURS, ORDERS, SPACES, SURFACE
from ..moves import FillOrder, LoadCoal, MoveCage, StopMining, StoreCoal, Substitute
from ..pit import Pit
from ..tasks import Task

if TYPE_CHECKING:
    from ..state import CoalBaronState

LEVEL_NAMES = ("the surface", "level 1 (yellow)", "level 2 (brown)", "level 3 (grey)", "level 4 (black)")
SOURCES = ("cage", "storage")


def start_mining(st: CoalBaronState, player: str, space: str) -> None:
    st.push(MiningTask(player, SPACES[space].value))


@dataclass(slots=True)
class MiningTask(Task):
    """Mining (6.3): the player spends the work steps one operation at a time, until none is
    left or the player stops."""

    steps: int = 0
    """Work steps left."""
    kind = "mining"
    awaiting = "spend mining work steps (or stop mining)"
    accepts = (MoveCage, LoadCoal, StoreCoal, FillOrder, Substitute, StopMining)

    def is_open(self, s: CoalBaronState) -> bool:
        return self.steps > 0

    def candidates(self, s: CoalBaronState) -> Iterable[Move]:
        return mining_moves(s, self.player, self.steps)

    def check(self, s: CoalBaronState, player: str, move: Move) -> str | None:
        return OPERATIONS[type(move)].refused(s, player, move, self.steps)

    def apply(self, s: CoalBaronState, player: str, move: Move) -> None:
        if type(move) is StopMining:
            s.pop(self)
            return
        op = OPERATIONS[type(move)]
        op.carry_out(s, player, move)
        self.steps -= op.steps

    def view(self, s: CoalBaronState) -> dict[str, Any]:
        out = Task.view(self, s)
        out["steps_left"] = self.steps
        return out


class Operation(NamedTuple):
    """A mining operation: its cost in work steps, why it is refused now (``None``: it is not),
    and what it does."""

    steps: int
    refused: Callable[[CoalBaronState, str, Any, int], str | None]
    carry_out: Callable[[CoalBaronState, str, Any], None]


def _not_a_colour(player: str, what: str, name: str) -> str:
    return f"{player} cannot {what}: {name!r} is not a coal colour (yellow, brown, grey, black)"


def _not_outstanding(player: str, what: str, card: str) -> str:
    return f"{player} cannot {what}: {card} is not among {player}'s outstanding orders"


# ---- the operations ----------------------------------------------------------


def cannot_move_cage(st: CoalBaronState, player: str, move: MoveCage, steps: int) -> str | None:
    pit = st.pits[player]
    if not 0 <= move.level <= 4:
        return f"{player} cannot move the cage to level {move.level}: the pit has levels 0 to 4"
    if move.level == pit.cage_level:
        return f"{player} cannot move the cage to {LEVEL_NAMES[move.level]}: it is already there"
    return None


def move_cage(st: CoalBaronState, player: str, move: MoveCage) -> None:
    """1 step: the cage goes to any other level, however far."""
    st.pits[player].cage_level = move.level


def cannot_load_coal(st: CoalBaronState, player: str, move: LoadCoal, steps: int) -> str | None:
    pit = st.pits[player]
    what = f"load a {move.colour} cube into the cage"
    c = COLOUR_INDEX.get(move.colour)
    if c is None:
        return _not_a_colour(player, what, move.colour)
    if pit.cage_level == SURFACE:
        return f"{player} cannot {what}: the cage is at the surface, where there are no minecarts"
    if pit.coal[pit.cage_level - 1][c] == 0:
        return (f"{player} cannot {what}: no minecart on {LEVEL_NAMES[pit.cage_level]} "
                f"holds a {move.colour} cube")
    if pit.cage_load() >= st.cage_capacity:
        return (f"{player} cannot {what}: the cage holds {pit.cage_load()} cubes, "
                f"the most it can carry is {st.cage_capacity}")
    return None


def load_coal(st: CoalBaronState, player: str, move: LoadCoal) -> None:
    """1 step: a cube from a minecart on the cage's level into the cage (at most 5 in the cage; 6
    in a game of BGA's code before 27 May 2024)."""
    pit = st.pits[player]
    if st.cage_capacity > CAGE_CAPACITY and pit.cage_load() >= CAGE_CAPACITY:
        st.depart("cage_holds_six", f"{player} loads a sixth cube into the cage: BGA's code of the time "
                                    f"carried it; the rulebook's cage holds {CAGE_CAPACITY}")
    c = COLOUR_INDEX[move.colour]
    pit.coal[pit.cage_level - 1][c] -= 1
    pit.cage[c] += 1


def cannot_store_coal(st: CoalBaronState, player: str, move: StoreCoal, steps: int) -> str | None:
    pit = st.pits[player]
    what = f"unload a {move.colour} cube into storage"
    c = COLOUR_INDEX.get(move.colour)
    if c is None:
        return _not_a_colour(player, what, move.colour)
    if pit.cage_level != SURFACE:
        return f"{player} cannot {what}: the cage is at {LEVEL_NAMES[pit.cage_level]}, not at the surface"
    if pit.cage[c] == 0:
        return f"{player} cannot {what}: the cage holds no {move.colour} cube"
    return None


def store_coal(st: CoalBaronState, player: str, move: StoreCoal) -> None:
    """1 step: a cube from the cage at the surface into the player's storage."""
    pit = st.pits[player]
    c = COLOUR_INDEX[move.colour]
    pit.cage[c] -= 1
    pit.storage[c] += 1


def _cannot_take(pit: Pit, player: str, what: str, source: str, c: int, n: int) -> str | None:
    """Why ``n`` cubes of colour ``c`` cannot come from ``source`` (None: they can)."""
    if source == "cage":
        if pit.cage_level != SURFACE:
            return (f"{player} cannot {what}: cubes leave the cage only at the surface, "
                    f"and the cage is at {LEVEL_NAMES[pit.cage_level]}")
        have = pit.cage
    elif source == "storage":
        have = pit.storage
    else:
        return f"{player} cannot {what}: a cube comes from the cage or from storage, not {source!r}"
    if have[c] < n:
        return f"{player} cannot {what}: {player}'s {source} holds {have[c]} {COLOURS[c]} cube(s), {n} needed"
    return None


def cannot_fill_order(st: CoalBaronState, player: str, move: FillOrder, steps: int) -> str | None:
    pit = st.pits[player]
    what = f"put a {move.colour} cube from the {move.source} on {move.card}"
    c = COLOUR_INDEX.get(move.colour)
    if c is None:
        return _not_a_colour(player, what, move.colour)
    order = pit.find_order(move.card)
    if order is None:
        return _not_outstanding(player, what, move.card)
    if order.empty_spot(c) < 0:
        return f"{player} cannot {what}: {move.card} has no empty {move.colour} coal space"
    return _cannot_take(pit, player, what, move.source, c, 1)


def fill_order(st: CoalBaronState, player: str, move: FillOrder) -> None:
    """1 step: a cube from the cage (at the surface) or from storage onto an empty coal space
    of its colour on an outstanding order."""
    pit = st.pits[player]
    c = COLOUR_INDEX[move.colour]
    order = pit.find_order(move.card)
    assert order is not None
    (pit.cage if move.source == "cage" else pit.storage)[c] -= 1
    order.spots[order.empty_spot(c)].append(c)


def cannot_substitute(st: CoalBaronState, player: str, move: Substitute, steps: int) -> str | None:
    pit = st.pits[player]
    what = f"fill a {move.space} space of {move.card} with two cubes"
    if steps < 2:
        return f"{player} cannot {what}: it takes 2 work steps, {player} has {steps} left"
    c = COLOUR_INDEX.get(move.space)
    if c is None:
        return _not_a_colour(player, what, move.space)
    order = pit.find_order(move.card)
    if order is None:
        return _not_outstanding(player, what, move.card)
    if order.empty_spot(c) < 0:
        return f"{player} cannot {what}: {move.card} has no empty {move.space} coal space"
    if len(move.cage) + len(move.storage) != 2:
        return f"{player} cannot {what}: exactly two cubes are needed, {len(move.cage) + len(move.storage)} given"
    takes: list[tuple[str, int]] = []
    for source, names in (("cage", move.cage), ("storage", move.storage)):
        cols = []
        for name in names:
            x = COLOUR_INDEX.get(name)
            if x is None:
                return _not_a_colour(player, what, name)
            cols.append(x)
        if cols != sorted(cols):
            return f"{player} cannot {what}: list the {source} cubes in colour order (yellow, brown, grey, black)"
        takes.extend((source, x) for x in cols)
    for source in SOURCES:
        for x in sorted({x for s, x in takes if s == source}):
            reason = _cannot_take(pit, player, what, source, x, sum(1 for s, y in takes if s == source and y == x))
            if reason is not None:
                return reason
    return None


def substitute(st: CoalBaronState, player: str, move: Substitute) -> None:
    """2 steps: two cubes of any colours (from storage, or the cage at the surface) fill one
    empty coal space of any colour."""
    pit = st.pits[player]
    order = pit.find_order(move.card)
    assert order is not None
    spot = order.spots[order.empty_spot(COLOUR_INDEX[move.space])]
    for name in move.cage:
        pit.cage[COLOUR_INDEX[name]] -= 1
        spot.append(COLOUR_INDEX[name])
    for name in move.storage:
        pit.storage[COLOUR_INDEX[name]] -= 1
        spot.append(COLOUR_INDEX[name])


def cannot_stop_mining(st: CoalBaronState, player: str, move: StopMining, steps: int) -> str | None:
    return None


def stop_mining(st: CoalBaronState, player: str, move: StopMining) -> None:
    """Stop; the steps left are lost."""


OPERATIONS: dict[type[Move], Operation] = {
    MoveCage: Operation(1, cannot_move_cage, move_cage),
    LoadCoal: Operation(1, cannot_load_coal, load_coal),
    StoreCoal: Operation(1, cannot_store_coal, store_coal),
    FillOrder: Operation(1, cannot_fill_order, fill_order),
    Substitute: Operation(2, cannot_substitute, substitute),
    StopMining: Operation(0, cannot_stop_mining, stop_mining),
}
"""The operations of mining, by the move that asks for one."""


# ---- what may be done next ------------------------------------------------------


def mining_moves(st: CoalBaronState, player: str, steps: int) -> list[Move]:
    pit = st.pits[player]
    out: list[Move] = [MoveCage(level=lv) for lv in range(5) if lv != pit.cage_level]
    at_surface = pit.cage_level == SURFACE
    if not at_surface and pit.cage_load() < st.cage_capacity:
        level = pit.coal[pit.cage_level - 1]
        out.extend(LoadCoal(colour=COLOURS[c]) for c in range(4) if level[c])
    if at_surface:
        out.extend(StoreCoal(colour=COLOURS[c]) for c in range(4) if pit.cage[c])
    cage = pit.cage if at_surface else [0, 0, 0, 0]
    cubes = [("cage", c) for c in range(4) if cage[c]] + [("storage", c) for c in range(4) if pit.storage[c]]
    pairs = _pairs(cubes, cage, pit.storage) if steps >= 2 else []
    for order in pit.outstanding:
        for c in sorted(set(need for need, s in zip(ORDERS[order.card].coal, order.spots) if not s)):
            if cage[c]:
                out.append(FillOrder(card=order.card, colour=COLOURS[c], source="cage"))
            if pit.storage[c]:
                out.append(FillOrder(card=order.card, colour=COLOURS[c], source="storage"))
            out.extend(Substitute(card=order.card, space=COLOURS[c], cage=a, storage=b) for a, b in pairs)
    out.append(StopMining())
    return out


def _pairs(cubes: list[tuple[str, int]], cage: list[int], storage: list[int]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every way to pick two cubes (as canonical cage / storage colour lists)."""
    out = []
    for i, (s1, c1) in enumerate(cubes):
        for s2, c2 in cubes[i:]:
            if (s1, c1) == (s2, c2) and (cage if s1 == "cage" else storage)[c1] < 2:
                continue
            chosen = [(s1, c1), (s2, c2)]
            a = tuple(COLOURS[c] for s, c in chosen if s == "cage")
            b = tuple(COLOURS[c] for s, c in chosen if s == "storage")
            out.append((a, b))
    return out
