"""Praga Caput Regni as numbers for the value model: what a strong player reads off the board.

Everything a Praga player holds is public (only the face-down stacks are hidden, and they are never
read here), so a player's features come from their player board, their tiles and their standing on
the shared tracks: the points scored so far, the final scoring as it would stand now, the resources
and the production that will turn into points, and the engine (technology and University, the
Hunger Wall and the Cathedral, the King's Road).  Values are absolute; the core compares them with
the opponents'.  A tile named ``None`` (a seat view that did not see it) counts like any other.
"""

from __future__ import annotations

from typing import Any

from .components import PRODUCTION_TOKENS, ROUNDS, TRACK_DATA, TRACK_RESOURCE, UNI_MULTIPLIER
from .scoring import final_points
from .state import PragaState

NAMES: tuple[str, ...] = (
    "worth", "lead", "points", "final_scoring", "gold", "stone", "silver_windows", "gold_windows", "eggs",
    "gold_production", "stone_production", "production_points", "mines", "quarries",
    "technology", "university", "university_technology", "kings_road",
    "hunger_wall_row", "hunger_wall_column", "cathedral_row", "cathedral_column", "blue_tokens", "red_tokens",
    "walls", "buildings", "upgrades", "technologies", "seals", "seal_rights", "cubes", "gold_bridge_tiles",
    "placing_tile", "turn_order",
)
GLOBAL_NAMES: tuple[str, ...] = ("progress", "era", "turns_left_per_player", "tile_taken", "action_done")


def mid_action(state: PragaState) -> bool:
    """Whether the mover is inside an action: any decision but the turn menu (taking a crane tile, a
    free action or ending the turn).  Judged right after taking a tile, a move leaves the mover with an
    action to choose and carry out, a position whose worth the model cannot read; judged once the
    action is done, it is compared with the other tiles' actions done (:func:`replay.evaluator.after_move`).
    """
    dec = state.pending()
    return dec is not None and dec.kind != "turn"


def points(s: PragaState, player: str) -> int:
    """Points on the score track (the final scoring included once the game is over)."""
    return sum(s.score()[player].values())


def final_scoring(s: PragaState, player: str) -> int:
    """The final scoring as it would stand if the game ended now (0 once it is scored)."""
    if s.d["over"] or s.d["p"][player]["final"]:
        return 0
    return sum(final_points(s, player).values())


def production(me: dict[str, Any], track: str) -> tuple[int, int]:
    """What producing on ``track`` now would give: the resource, and the points (printed bonuses
    left of the marker and the production tokens on the track)."""
    marker = int(me[track])
    res = TRACK_RESOURCE[track]
    amount, vp = marker - 1, 0
    atoms: list[dict[str, Any]] = []
    for space, bonus in TRACK_DATA[track]["bonuses"].items():
        if int(space) < marker:
            atoms.extend(bonus)
    for tok in me["prod_tokens"][track]:
        atoms.extend(PRODUCTION_TOKENS[tok]["reward"])
    for atom in atoms:
        amount += int(atom.get(res, 0))
        vp += int(atom.get("vp", 0))
    return amount, vp


def features(state: PragaState, player: str) -> list[float]:
    """``player``'s position as the public sees it (see :data:`NAMES`)."""
    s = state
    me = s.d["p"][player]
    gold_prod, gold_vp = production(me, "mines")
    stone_prod, stone_vp = production(me, "quarries")
    built = s.d["city"]["built"]
    mine = s.worth(player)  # points, the final scoring as it stands, resources a little: one number
    # that grows with every good thing, so that the model tells apart positions one point apart
    dec = s.decision()
    return [
        mine,
        mine - max(s.worth(q) for q in s.players if q != player),
        float(points(s, player)),
        float(final_scoring(s, player)),
        float(me["gold"]),
        float(me["stone"]),
        float(me["silver"]),
        float(me["goldw"]),
        float(me["eggs"]),
        float(gold_prod),
        float(stone_prod),
        float(gold_vp + stone_vp),
        float(me["mines"]),
        float(me["quarries"]),
        float(me["tech"]),
        float(me["uni"]),
        float(UNI_MULTIPLIER[me["uni"]]),
        float(me["road"]),
        float(me["hunger_wall"]["row"]),
        float(me["hunger_wall"]["col"]),
        float(me["cathedral"]["row"]),
        float(me["cathedral"]["col"]),
        float(me["tokens"]["blue"]),
        float(me["tokens"]["red"]),
        float(len(me["walls"])),
        float(sum(1 for b in built.values() if b["owner"] == player)),
        float(sum(len(pile) for pile in me["upgrades"].values())),
        float(len(me["techs"])),
        float(len(me["seals"])),
        float(len(me["seal_rights"])),
        float(me["cubes"]),
        float(len(me["gold_tiles"])),
        float(dec is not None and dec["player"] == player and "tile" in dec),
        float(s.d["order"].index(player)),  # later in turn order: the last turn, and ties won
    ]


def global_features(state: PragaState) -> list[float]:
    """How far the game is (see :data:`GLOBAL_NAMES`), and how far the current turn is."""
    d = state.d
    n = len(state.players)
    total = ROUNDS * n
    turns = min(int(d["turns"]), total)
    turn = d["turn"]
    return [
        turns / total,
        float(d["era"]),
        (total - turns) / n,
        float(bool(turn["tile_taken"])),
        float(bool(turn["action_done"])),
    ]
