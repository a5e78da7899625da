"""Plazas: completion (every building space around it built) and the game-end rewards of the others."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import moves as m
from ..components import PLAZA_TILES, PLAZAS, SPACES
from ..tasks import Decision, Step, Task, push
from .effects import ChooseReward, gain

if TYPE_CHECKING:
    from ..state import PragaState


def buildings_around(s: PragaState, space: str) -> int:
    """Buildings around the plazas this space borders (the new one included), each counted once."""
    built = s.d["city"]["built"]
    around = {b for p in SPACES[space]["plazas"] for b in PLAZAS[p]["spaces"]}
    return sum(1 for b in around if b in built)


def cubes_at(s: PragaState, plaza: str) -> dict[str, int]:
    built = s.d["city"]["built"]
    out = {p: 0 for p in s.players}
    for b in PLAZAS[plaza]["spaces"]:
        owner = built.get(b, {}).get("owner")
        if owner is not None:
            out[owner] += 1
    return out


def paid_at(s: PragaState, plaza: str, player: str) -> int:
    built = s.d["city"]["built"]
    return sum(built[b]["paid"] for b in PLAZAS[plaza]["spaces"] if b in built and built[b]["owner"] == player)


def majority(s: PragaState, plaza: str) -> list[str]:
    """Most cubes; a tie goes to whoever paid more for his buildings there; still tied, all of them."""
    cubes = cubes_at(s, plaza)
    top = max(cubes.values())
    if top == 0:
        return []
    tied = [p for p in s.players if cubes[p] == top]
    best = max(paid_at(s, plaza, p) for p in tied)
    return [p for p in tied if paid_at(s, plaza, p) == best]


@dataclass(slots=True)
class CheckPlazas(Step):
    """After a building on ``space``: every plaza around it whose building spaces are all built is completed."""

    space: str = ""
    op = "check_plazas"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        built = s.d["city"]["built"]
        for plaza in SPACES[self.space]["plazas"]:
            if plaza in s.d["city"]["completed"] or plaza not in s.d["city"]["plaza_tiles"]:
                continue
            if all(b in built for b in PLAZAS[plaza]["spaces"]):
                complete_plaza(s, plaza, self.player)


def complete_plaza(s: PragaState, plaza: str, builder: str) -> None:
    """Each player with a cube there takes one upper reward (his choice); the majority takes both."""
    s.d["city"]["completed"].append(plaza)
    tile = PLAZA_TILES[s.d["city"]["plaza_tiles"][plaza]]
    cubes = cubes_at(s, plaza)
    winners = majority(s, plaza)
    start = s.players.index(builder)
    order = s.players[start:] + s.players[:start]
    tasks: list[Task] = []
    for p in order:
        if cubes[p] == 0:
            continue
        s.add_milestone("plaza_completed", round=s.round(), plaza=plaza, tile=tile["id"], player_id=p,
                        cubes=cubes[p], both_rewards=p in winners)
        if p in winners:
            tasks.append(GainAll(p, [a for opt in tile["upper"] for a in opt], "plazas"))
        else:
            tasks.append(ChooseUpper(p, plaza))
    push(s, *tasks)


@dataclass(slots=True)
class GainAll(Step):
    """A plaza's rewards, all of them (the majority's upper rewards, a lower reward at the game end)."""

    atoms: list[dict[str, Any]] = field(default_factory=list)
    cat: str = ""
    op = "gain_all"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        gain(s, self.player, self.atoms, self.cat)


@dataclass(slots=True)
class ChooseUpper(Step):
    """A completed plaza: a player with a cube there but not the majority chooses one upper reward."""

    plaza: str = ""
    op = "choose_upper"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        tile = PLAZA_TILES[s.d["city"]["plaza_tiles"][self.plaza]]
        s.push(ChooseReward(self.player, tile["upper"], "plazas", "plaza"))


@dataclass(slots=True)
class ChoosePlaza(Decision):
    """T4-1: the plaza whose two upper rewards the player takes."""

    options: list[str] = field(default_factory=list)
    kind = "plaza"
    accepts = (m.ChoosePlaza,)
    awaiting = "choose a plaza"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.ChoosePlaza(plaza=o) for o in self.options]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        return None if move.plaza in self.options else self.otherwise(player, move)

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        both_rewards(s, player, move.plaza)


def both_rewards(s: PragaState, player: str, plaza: str) -> None:
    """Technology T4-1: both upper rewards of any plaza, completed or not."""
    tile = PLAZA_TILES[s.d["city"]["plaza_tiles"][plaza]]
    gain(s, player, [a for opt in tile["upper"] for a in opt], "plazas")


def lower_rewards(s: PragaState) -> list[Task]:
    """Game end: every plaza not completed gives its lower reward to each player with a cube there
    (the steps that gain them, plaza by plaza, in seat order)."""
    tasks: list[Task] = []
    for plaza in sorted(s.d["city"]["plaza_tiles"]):
        if plaza in s.d["city"]["completed"]:
            continue
        tile = PLAZA_TILES[s.d["city"]["plaza_tiles"][plaza]]
        cubes = cubes_at(s, plaza)
        for p in s.players:
            if cubes[p]:
                s.add_milestone("plaza_lower_reward", round=s.round(), plaza=plaza, tile=tile["id"], player_id=p,
                                cubes=cubes[p])
                tasks.append(GainAll(p, tile["lower"], "plazas"))
    return tasks
