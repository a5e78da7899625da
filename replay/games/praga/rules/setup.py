"""Setup: the position before the first turn, and the random parts of setup as chance draws."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.engine import ChanceRequest, Outcome
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
from ..tasks import Draw, Step, Task, draw
from .turn_end import RefillRow, new_turn

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
    marks = {g.vertex(m["hex"], m["corner"]): m["colour"] for m in CITY["corner_marks"]
             if SPACES_BY_HEX.get(m["hex"]) in spaces_in_play(n)}
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
    }


def setup_steps(players: list[str]) -> list[Task]:
    """The random parts of setup, in order: the crane's tiles, the plaza tiles of each colour in play,
    the display rows, the neutral buildings, the start player."""
    used = plazas_in_play(len(players))
    tasks: list[Task] = [SetupCrane()]
    for colour in sorted({PLAZA_TILES[t]["colour"] for t in PLAZA_TILES}):
        if any(CITY_PLAZA[p]["colour"] == colour for p in used):
            tasks.append(SetupPlazas(colour=colour))
    tasks += [RefillRow(row=r) for r in ROWS]
    tasks += [SetupNeutralBuildings(), SetupFirstPlayer()]
    return tasks


SPACES_BY_HEX = {d["hex"]: b for b, d in SPACES.items()}
CITY_PLAZA = {p["id"]: p for p in CITY["plazas"]}


@dataclass(slots=True)
class SetupCrane(Step):
    """Setup 8: the six action tiles placed at random on the crane."""

    op = "setup_crane"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        draw(s, CraneSetupDraw(deck="action_tiles"), 6)


@dataclass(slots=True)
class CraneSetupDraw(Draw):
    """The six action tiles, in draw order, into the 4 red spaces and the first 2 green spaces."""

    purpose = "crane_setup"

    def drawn(self, s: PragaState, items: list[str]) -> None:
        from .crane import notch_at

        for pos, tile in enumerate(items):
            s.d["crane"]["hung"][str(notch_at(s, pos))] = tile


@dataclass(slots=True)
class SetupPlazas(Step):
    """Setup 4: the plaza tiles of ``colour``, at random onto the plazas of that colour in play."""

    colour: str = ""
    op = "setup_plazas"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        used = [p for p in plazas_in_play(len(s.players)) if CITY_PLAZA[p]["colour"] == self.colour]
        draw(s, PlazaTilesDraw(deck=f"plaza_tiles_{self.colour}", plazas=used), len(used))


@dataclass(slots=True)
class PlazaTilesDraw(Draw):
    """Plaza tiles drawn onto ``plazas``, in order."""

    plazas: list[str] = field(default_factory=list)
    purpose = "plaza_tiles"

    def details(self) -> dict[str, Any]:
        return {"plazas": self.plazas}

    def drawn(self, s: PragaState, items: list[str]) -> None:
        for plaza, tile in zip(self.plazas, items):
            s.d["city"]["plaza_tiles"][plaza] = tile


def neutral_spaces(s: PragaState) -> list[str]:
    n = len(s.players)
    return [b for b in spaces_in_play(n) if n in SPACES[b]["preplaced_at"]]


@dataclass(slots=True)
class SetupNeutralBuildings(Step):
    """Setup 10 (2-3 players): a normal Era I building drawn for each space marked with the player count."""

    op = "setup_neutral_buildings"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        spaces = neutral_spaces(s)
        if spaces:
            draw(s, NeutralBuildingsDraw(deck=deck_name("building", 1, False), spaces=spaces), len(spaces))


@dataclass(slots=True)
class NeutralBuildingsDraw(Draw):
    """2-3 players: a normal Era I building on each marked space; no cube, nobody gains anything."""

    spaces: list[str] = field(default_factory=list)
    purpose = "neutral_buildings"

    def details(self) -> dict[str, Any]:
        return {"spaces": self.spaces}

    def drawn(self, s: PragaState, items: list[str]) -> None:
        for space, tile in zip(self.spaces, items):
            s.d["city"]["built"][space] = {"tile": tile, "rot": 0, "owner": None, "paid": 0}


@dataclass(slots=True)
class SetupFirstPlayer(Step):
    """Setup 12: the start player is chosen at random."""

    op = "setup_first_player"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        s.push(FirstPlayerChoice(deck="first_player", unseen=1))


@dataclass(slots=True)
class FirstPlayerChoice(Draw):
    """The start player, picked at random; play goes clockwise from there."""

    purpose = "first_player"

    def request(self, s: PragaState) -> ChanceRequest | None:
        req = self._request
        if req is None:
            req = self._request = ChanceRequest(kind="choose", name="first_player", options=tuple(s.players),
                                                reason="the start player")
        return req

    def reveal(self, s: PragaState, req: ChanceRequest, outcome: Outcome) -> None:
        s.pop(self)
        self.drawn(s, [str(outcome["value"])])

    def drawn(self, s: PragaState, items: list[str]) -> None:
        start = s.players.index(items[0])
        s.d["order"] = s.players[start:] + s.players[:start]
        s.d["stage"] = "play"
