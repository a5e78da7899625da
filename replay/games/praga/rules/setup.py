"""Setup: the position before the first turn, and the random parts of setup as chance draws."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from replay.hidden import HiddenPool, PartlyKnownDeck

from .. import geometry as g
from ..components import (
    ACTIONS,
    BOARD,
    CITY,
    CRANE,
    GOLD_TILES,
    GRIDS,
    LEVEL_NAME,
    PLANKS,
    PLAZA_TILES,
    ROWS,
    SILVER_TILES,
    SPACES,
    TECHS,
    deck_name,
    plazas_in_play,
    spaces_in_play,
    tiles_of,
    tokens_in_play,
)
from ..flow import Task, draw, handler, resolver
from .turn_end import new_turn

if TYPE_CHECKING:
    from ..state import PragaState

SCORE_CATEGORIES_IN_PLAY = ("crane", "production", "upgrades", "walls", "buildings", "plazas", "kings_road",
                            "shared_tracks", "technologies", "tracks")


def player_setup() -> dict[str, Any]:
    start = BOARD["start"]
    hw, cat = GRIDS["hunger_wall"], GRIDS["cathedral"]
    return {
        "gold": start["gold"], "stone": start["stone"], "silver": 0, "goldw": 0, "eggs": 0,
        "mines": start["mines"], "quarries": start["quarries"], "tech": 0, "uni": 0,
        "hunger_wall": {"row": 0, "col": hw["start_column"]}, "cathedral": {"row": 0, "col": cat["start_column"]},
        "cathedral_tile_taken": False, "tokens": {"blue": 0, "red": 0}, "road": 0,
        "upgrades": {a: [] for a in ACTIONS}, "walls": {}, "paid": {"edges": [], "vertices": []},
        "techs": {}, "stored": [], "used_techs": [], "seals": [], "seal_rights": [], "seal_tracks": [],
        "prod_tokens": {"mines": [], "quarries": []}, "wealth": [], "cubes": 2, "gold_tiles": [],
        "vp": dict.fromkeys(SCORE_CATEGORIES_IN_PLAY, 0), "final": {},
    }


def stack(name: str, items: list[str]) -> PartlyKnownDeck:
    """A shuffled face-down stack of distinct tiles (the core's partly-known deck: tiles put
    under it later are known, in order, at its bottom)."""
    return PartlyKnownDeck(name, HiddenPool(name, [(t, 1) for t in sorted(items)]))


def initial_stacks(players: list[str]) -> dict[str, PartlyKnownDeck]:
    """Every face-down stack of the game, by deck name."""
    stacks = {"action_tiles": stack("action_tiles", [f"T{i}" for i in range(1, 7)])}
    for row in ROWS:
        for era in (1, 2):
            for special in (False, True):
                name = deck_name(row, era, special)
                stacks[name] = stack(name, tiles_of(row, era, special))
    for level in (1, 2, 3, 4):
        name = f"technology_{LEVEL_NAME[level]}"
        stacks[name] = stack(name, sorted(t for t, d in TECHS.items() if d["level"] == level))
    stacks["bridge_IV"] = stack("bridge_IV", sorted(SILVER_TILES))
    stacks["bridge_V"] = stack("bridge_V", sorted(GOLD_TILES))
    for colour in sorted({PLAZA_TILES[t]["colour"] for t in PLAZA_TILES}):
        stacks[f"plaza_tiles_{colour}"] = stack(f"plaza_tiles_{colour}",
                                                sorted(t for t, d in PLAZA_TILES.items() if d["colour"] == colour))
    return stacks


def initial(players: list[str]) -> dict[str, Any]:
    n = len(players)
    used = plazas_in_play(n)
    marks = {g.vertex(m["hex"], m["corner"]): m["colour"] for m in CITY["corner_marks"]
             if SPACES_BY_HEX.get(m["hex"]) in spaces_in_play(n)}
    tasks: list[Task] = [{"op": "setup_crane"}]
    for colour in sorted({PLAZA_TILES[t]["colour"] for t in PLAZA_TILES}):
        if any(CITY_PLAZA[p]["colour"] == colour for p in used):
            tasks.append({"op": "setup_plazas", "colour": colour})
    tasks += [{"op": "refill_row", "row": r} for r in ROWS]
    tasks += [{"op": "setup_neutral_buildings"}, {"op": "setup_first_player"}]
    return {
        "p": {p: player_setup() for p in players},
        "order": list(players),
        "turns": 0, "era": 1, "stage": "setup", "over": False,
        "crane": {"first": CRANE["first_notch_at_setup"], "hung": {}, "five": None},
        "display": {r: [None] * 4 for r in ROWS},
        "city": {"built": {}, "plaza_tiles": {}, "completed": [], "paid": {"edges": [], "vertices": []},
                 "marks": marks},
        "bridge": {"planks": dict.fromkeys(sorted(PLANKS)), "discarded": []},
        "river": tokens_in_play(n),
        "seals": {},
        "turn": new_turn(),
        "tasks": tasks, "decision": None, "chance": None,
    }


SPACES_BY_HEX = {d["hex"]: b for b, d in SPACES.items()}
CITY_PLAZA = {p["id"]: p for p in CITY["plazas"]}


@handler("setup_crane")
def setup_crane(s: PragaState, task: Task) -> None:
    draw(s, "action_tiles", 6, "crane_setup")


@resolver("crane_setup")
def crane_set_up(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    """The six action tiles, in draw order, into the 4 red spaces and the first 2 green spaces."""
    from .crane import notch_at

    for pos, tile in enumerate(items):
        s.d["crane"]["hung"][str(notch_at(s, pos))] = tile


@handler("setup_plazas")
def setup_plazas(s: PragaState, task: Task) -> None:
    used = [p for p in plazas_in_play(len(s.players)) if CITY_PLAZA[p]["colour"] == task["colour"]]
    draw(s, f"plaza_tiles_{task['colour']}", len(used), "plaza_tiles", plazas=used)


@resolver("plaza_tiles")
def plaza_tiles_drawn(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    for plaza, tile in zip(info["plazas"], items):
        s.d["city"]["plaza_tiles"][plaza] = tile


def neutral_spaces(s: PragaState) -> list[str]:
    n = len(s.players)
    return [b for b in spaces_in_play(n) if n in SPACES[b]["preplaced_at"]]


@handler("setup_neutral_buildings")
def setup_neutral_buildings(s: PragaState, task: Task) -> None:
    spaces = neutral_spaces(s)
    if spaces:
        draw(s, deck_name("building", 1, False), len(spaces), "neutral_buildings", spaces=spaces)


@resolver("neutral_buildings")
def neutral_drawn(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    """2-3 players: a normal Era I building on each marked space; no cube, nobody gains anything."""
    for space, tile in zip(info["spaces"], items):
        s.d["city"]["built"][space] = {"tile": tile, "rot": 0, "owner": None, "paid": 0}


@handler("setup_first_player")
def setup_first_player(s: PragaState, task: Task) -> None:
    s.d["chance"] = {"deck": "first_player", "purpose": "first_player", "unseen": 1, "known": 0}


@resolver("first_player")
def first_player(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    start = s.players.index(items[0])
    s.d["order"] = s.players[start:] + s.players[:start]
    s.d["stage"] = "play"
