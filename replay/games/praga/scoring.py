"""Score categories (points during play by source, then the final scoring) and the ranking."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import FINAL_TABLES, GOLD_TILES, SEALS, TECH_TOP, UNI_MULTIPLIER
from .rules.grids import column_value, row_score
from .rules.setup import SCORE_CATEGORIES_IN_PLAY

if TYPE_CHECKING:
    from .state import PragaState

FINAL_CATEGORIES: tuple[str, ...] = (
    "university_technology", "hunger_wall", "cathedral", "blue_tokens", "red_tokens", "wall_ring", "seals",
    "gold_bridge_tiles", "eggs",
)
CATEGORIES: tuple[str, ...] = SCORE_CATEGORIES_IN_PLAY + FINAL_CATEGORIES


def table(name: str, count: int) -> int:
    values = FINAL_TABLES[name]
    return values[min(count, len(values) - 1)]


def seal_points(s: PragaState, player: str, seal: str) -> int:
    me = s.d["p"][player]
    data = SEALS[seal]
    count: int = {"gold": me["gold"], "stone": me["stone"], "pair": min(me["gold"], me["stone"]), "flat": 1}[data["per"]]
    return min(int(data["max"]), count * int(data["vp"]))


def gold_tile_points(s: PragaState, player: str, tile: str) -> int:
    me = s.d["p"][player]
    data = GOLD_TILES[tile]
    built = s.d["city"]["built"]
    count: int = {
        "walls": len(me["walls"]),
        "buildings": sum(1 for b in built.values() if b["owner"] == player),
        "upgrades": sum(len(pile) for pile in me["upgrades"].values()),
        "tokens": me["tokens"]["blue"] + me["tokens"]["red"],
        "seals": len(me["seals"]),
        "flat": 1,
    }[data["per"]]
    return count * int(data["vp"])


def final_points(s: PragaState, player: str) -> dict[str, int]:
    """The final scoring of one player (section 11), as if the game ended now."""
    me = s.d["p"][player]
    return {
        "university_technology": UNI_MULTIPLIER[me["uni"]] * min(me["tech"], TECH_TOP),
        "hunger_wall": row_score(s, player, "hunger_wall"),
        "cathedral": row_score(s, player, "cathedral"),
        "blue_tokens": me["tokens"]["blue"] * column_value(s, player, "hunger_wall"),
        "red_tokens": me["tokens"]["red"] * column_value(s, player, "cathedral"),
        "wall_ring": table("walls", len(me["walls"])),
        "seals": sum(seal_points(s, player, x) for x in me["seals"]),
        "gold_bridge_tiles": sum(gold_tile_points(s, player, t) for t in me["gold_tiles"]),
        "eggs": table("eggs", me["eggs"]),
    }


def score_breakdown(s: PragaState) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for p in s.players:
        me = s.d["p"][p]
        cats = dict(me["vp"])
        for c in FINAL_CATEGORIES:
            cats[c] = int(me["final"].get(c, 0))
        out[p] = cats
    return out


def ranking(s: PragaState) -> dict[str, int]:
    """Most points; a tie goes to the tied player later in turn order."""
    totals = s.totals()
    order = s.d["order"]
    key = {p: (totals[p], order.index(p)) for p in s.players}
    return {p: 1 + sum(1 for q in s.players if key[q] > key[p]) for p in s.players}
