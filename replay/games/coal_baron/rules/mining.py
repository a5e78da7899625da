"""Mining (rules 6.3): 4/6/8/10 work steps spent one by one on cage moves and coal moves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import IllegalMove, Move

from ..components import CAGE_CAPACITY, COLOUR_INDEX, COLOURS, ORDERS, SPACES, SURFACE
from ..moves import FillOrder, LoadCoal, MoveCage, StopMining, StoreCoal, Substitute
from ..pit import Outstanding, Pit

if TYPE_CHECKING:
    from ..state import CoalBaronState

LEVEL_NAMES = ("the surface", "level 1 (yellow)", "level 2 (brown)", "level 3 (grey)", "level 4 (black)")
SOURCES = ("cage", "storage")


def start_mining(st: CoalBaronState, player: str, space: str) -> None:
    st.steps = SPACES[space].value
    st.decide("mining", player)


def _spend(st: CoalBaronState, steps: int) -> None:
    st.steps -= steps
    if st.steps == 0:
        st.done_deciding()


def _colour(player: str, what: str, name: str) -> int:
    c = COLOUR_INDEX.get(name)
    if c is None:
        raise IllegalMove(f"{player} cannot {what}: {name!r} is not a coal colour (yellow, brown, grey, black)")
    return c


def _order(st: CoalBaronState, player: str, what: str, card: str) -> Outstanding:
    o = st.pits[player].find_order(card)
    if o is None:
        raise IllegalMove(f"{player} cannot {what}: {card} is not among {player}'s outstanding orders")
    return o


# ---- the operations ----------------------------------------------------------


def move_cage(st: CoalBaronState, player: str, move: MoveCage) -> None:
    """1 step: the cage goes to any other level, however far."""
    pit = st.pits[player]
    if not 0 <= move.level <= 4:
        raise IllegalMove(f"{player} cannot move the cage to level {move.level}: the pit has levels 0 to 4")
    if move.level == pit.cage_level:
        raise IllegalMove(f"{player} cannot move the cage to {LEVEL_NAMES[move.level]}: it is already there")
    pit.cage_level = move.level
    _spend(st, 1)


def load_coal(st: CoalBaronState, player: str, move: LoadCoal) -> None:
    """1 step: a cube from a minecart on the cage's level into the cage (at most 5 in the cage)."""
    pit = st.pits[player]
    what = f"load a {move.colour} cube into the cage"
    c = _colour(player, what, move.colour)
    if pit.cage_level == SURFACE:
        raise IllegalMove(f"{player} cannot {what}: the cage is at the surface, where there are no minecarts")
    level = pit.cage_level - 1
    if pit.coal[level][c] == 0:
        raise IllegalMove(f"{player} cannot {what}: no minecart on {LEVEL_NAMES[pit.cage_level]} "
                          f"holds a {move.colour} cube")
    if pit.cage_load() >= CAGE_CAPACITY:
        raise IllegalMove(f"{player} cannot {what}: the cage holds {pit.cage_load()} cubes, "
                          f"the most it can carry is {CAGE_CAPACITY}")
    pit.coal[level][c] -= 1
    pit.cage[c] += 1
    _spend(st, 1)


def store_coal(st: CoalBaronState, player: str, move: StoreCoal) -> None:
    """1 step: a cube from the cage at the surface into the player's storage."""
    pit = st.pits[player]
    what = f"unload a {move.colour} cube into storage"
    c = _colour(player, what, move.colour)
    if pit.cage_level != SURFACE:
        raise IllegalMove(f"{player} cannot {what}: the cage is at {LEVEL_NAMES[pit.cage_level]}, "
                          "not at the surface")
    if pit.cage[c] == 0:
        raise IllegalMove(f"{player} cannot {what}: the cage holds no {move.colour} cube")
    pit.cage[c] -= 1
    pit.storage[c] += 1
    _spend(st, 1)


def _take(pit: Pit, player: str, what: str, source: str, c: int, n: int) -> list[int]:
    """Check that ``n`` cubes of colour ``c`` can come from ``source``; return the list to take from."""
    if source == "cage":
        if pit.cage_level != SURFACE:
            raise IllegalMove(f"{player} cannot {what}: cubes leave the cage only at the surface, "
                              f"and the cage is at {LEVEL_NAMES[pit.cage_level]}")
        have = pit.cage
    elif source == "storage":
        have = pit.storage
    else:
        raise IllegalMove(f"{player} cannot {what}: a cube comes from the cage or from storage, not {source!r}")
    if have[c] < n:
        raise IllegalMove(f"{player} cannot {what}: {player}'s {source} holds {have[c]} {COLOURS[c]} "
                          f"cube(s), {n} needed")
    return have


def fill_order(st: CoalBaronState, player: str, move: FillOrder) -> None:
    """1 step: a cube from the cage (at the surface) or from storage onto an empty coal space
    of its colour on an outstanding order."""
    pit = st.pits[player]
    what = f"put a {move.colour} cube from the {move.source} on {move.card}"
    c = _colour(player, what, move.colour)
    order = _order(st, player, what, move.card)
    spot = order.empty_spot(c)
    if spot < 0:
        raise IllegalMove(f"{player} cannot {what}: {move.card} has no empty {move.colour} coal space")
    have = _take(pit, player, what, move.source, c, 1)
    have[c] -= 1
    order.spots[spot].append(c)
    _spend(st, 1)


def substitute(st: CoalBaronState, player: str, move: Substitute) -> None:
    """2 steps: two cubes of any colours (from storage, or the cage at the surface) fill one
    empty coal space of any colour."""
    pit = st.pits[player]
    what = f"fill a {move.space} space of {move.card} with two cubes"
    if st.steps < 2:
        raise IllegalMove(f"{player} cannot {what}: it takes 2 work steps, {player} has {st.steps} left")
    c = _colour(player, what, move.space)
    order = _order(st, player, what, move.card)
    spot = order.empty_spot(c)
    if spot < 0:
        raise IllegalMove(f"{player} cannot {what}: {move.card} has no empty {move.space} coal space")
    if len(move.cage) + len(move.storage) != 2:
        raise IllegalMove(f"{player} cannot {what}: exactly two cubes are needed, "
                          f"{len(move.cage) + len(move.storage)} given")
    takes: list[tuple[str, int]] = []
    for source, names in (("cage", move.cage), ("storage", move.storage)):
        cols = [_colour(player, what, n) for n in names]
        if cols != sorted(cols):
            raise IllegalMove(f"{player} cannot {what}: list the {source} cubes in colour order "
                              "(yellow, brown, grey, black)")
        takes.extend((source, x) for x in cols)
    for source in SOURCES:
        for x in sorted({x for s, x in takes if s == source}):
            _take(pit, player, what, source, x, sum(1 for s, y in takes if s == source and y == x))
    for source, x in takes:
        (pit.cage if source == "cage" else pit.storage)[x] -= 1
        order.spots[spot].append(x)
    _spend(st, 2)


def stop_mining(st: CoalBaronState, player: str, move: StopMining) -> None:
    """Stop; the steps left are lost."""
    st.done_deciding()


# ---- what may be done next ------------------------------------------------------


def mining_moves(st: CoalBaronState, player: str) -> list[Move]:
    pit = st.pits[player]
    out: list[Move] = [MoveCage(level=lv) for lv in range(5) if lv != pit.cage_level]
    at_surface = pit.cage_level == SURFACE
    if not at_surface and pit.cage_load() < CAGE_CAPACITY:
        level = pit.coal[pit.cage_level - 1]
        out.extend(LoadCoal(colour=COLOURS[c]) for c in range(4) if level[c])
    if at_surface:
        out.extend(StoreCoal(colour=COLOURS[c]) for c in range(4) if pit.cage[c])
    cage = pit.cage if at_surface else [0, 0, 0, 0]
    cubes = [("cage", c) for c in range(4) if cage[c]] + [("storage", c) for c in range(4) if pit.storage[c]]
    pairs = _pairs(cubes, cage, pit.storage) if st.steps >= 2 else []
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
