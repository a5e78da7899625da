"""Plazas: completion (every building space around it built) and the game-end rewards of the others."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..components import PLAZA_TILES, PLAZAS, SPACES
from ..flow import Task, decide, handler, push
from .effects import gain

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


@handler("check_plazas")
def check_plazas(s: PragaState, task: Task) -> None:
    built = s.d["city"]["built"]
    for plaza in SPACES[task["space"]]["plazas"]:
        if plaza in s.d["city"]["completed"] or plaza not in s.d["city"]["plaza_tiles"]:
            continue
        if all(b in built for b in PLAZAS[plaza]["spaces"]):
            complete_plaza(s, plaza, task["p"])


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
            tasks.append({"op": "gain_all", "p": p, "atoms": [a for opt in tile["upper"] for a in opt],
                          "cat": "plazas"})
        else:
            tasks.append({"op": "choose_upper", "p": p, "plaza": plaza})
    push(s, *tasks)


@handler("gain_all")
def gain_all(s: PragaState, task: Task) -> None:
    gain(s, task["p"], task["atoms"], task["cat"])


@handler("choose_upper")
def choose_upper(s: PragaState, task: Task) -> None:
    tile = PLAZA_TILES[s.d["city"]["plaza_tiles"][task["plaza"]]]
    decide(s, task["p"], "reward", options=tile["upper"], cat="plazas", src="plaza")


def both_rewards(s: PragaState, player: str, plaza: str) -> None:
    """Technology T4-1: both upper rewards of any plaza, completed or not."""
    tile = PLAZA_TILES[s.d["city"]["plaza_tiles"][plaza]]
    gain(s, player, [a for opt in tile["upper"] for a in opt], "plazas")


def game_end_rewards(s: PragaState) -> None:
    """Game end: every plaza not completed gives its lower reward to each player with a cube there."""
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
                tasks.append({"op": "gain_all", "p": p, "atoms": tile["lower"], "cat": "plazas"})
    push(s, *tasks)
