"""Gaining and paying: resources, the dials' wealth bonuses, windows, eggs, tokens, books and caps.

A reward is a list of effect atoms (``{"gold": 2}``, ``{"choice": [[...], [...]]}``...); ``gain``
queues them one by one so that a choice in the middle waits for the player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..components import BOARD, HEX_TILES, LEVEL_NAME, TECH_AT, TECH_TOP, UNI_TOP
from ..flow import Task, decide, draw, handler, push

if TYPE_CHECKING:
    from ..state import PragaState

DIAL_MAX: int = BOARD["dial_max"]
OVERFLOW_VP: int = BOARD["overflow_vp_per_step"]


def gain(s: PragaState, player: str, atoms: list[dict[str, Any]], cat: str, src: str = "") -> None:
    """Queue ``atoms`` for ``player`` at the front of the work queue (in order)."""
    if atoms:
        push(s, *({"op": "atom", "p": player, "atom": a, "cat": cat, "src": src} for a in atoms))


def has_tech(s: PragaState, player: str, tech: str) -> bool:
    """A level I/II technology works from the turn after it was gained."""
    gained = s.d["p"][player]["techs"].get(tech)
    return gained is not None and gained < s.d["turns"]


def add_vp(s: PragaState, player: str, n: int, cat: str) -> None:
    if n:
        s.d["p"][player]["vp"][cat] += n
        s._score = None


def add_resource(s: PragaState, player: str, res: str, n: int) -> None:
    """Gold/stone on the dial, capped at 9; the first time a dial reaches a marked value, its bonus."""
    me = s.d["p"][player]
    me[res] = max(0, min(DIAL_MAX, me[res] + n))
    if n > 0:
        wealth_bonuses(s, player, res, me[res])


def wealth_bonuses(s: PragaState, player: str, res: str, value: int) -> None:
    """Wealth-bonus cubes: the first dial to reach 6 takes the book cube; each dial reaching 9 takes
    its own gold-window cube (decision W in the docs).  A removed cube joins the reserve."""
    me = s.d["p"][player]
    for bonus in BOARD["wealth_bonuses"]:
        if bonus["id"] in me["wealth"] or value < bonus["at"] or bonus["dial"] not in ("either", res):
            continue
        me["wealth"].append(bonus["id"])
        me["cubes"] += 1
        gain(s, player, bonus["reward"], "tracks", "wealth")


def advance_technology(s: PragaState, player: str, steps: int) -> None:
    me = s.d["p"][player]
    for _ in range(steps):
        if me["tech"] >= TECH_TOP:
            add_vp(s, player, OVERFLOW_VP, "tracks")
            continue
        me["tech"] += 1
        level = TECH_AT.get(me["tech"])
        if level is not None:
            push(s, {"op": "draw_technology", "p": player, "level": level})


def advance_university(s: PragaState, player: str, steps: int) -> None:
    me = s.d["p"][player]
    for _ in range(steps):
        if me["uni"] >= UNI_TOP:
            add_vp(s, player, OVERFLOW_VP, "tracks")
        else:
            me["uni"] += 1


@handler("atom")
def apply_atom(s: PragaState, task: Task) -> None:
    from . import grids, production  # the tracks and grids use gain() too

    p, atom, cat, src = task["p"], task["atom"], task["cat"], task["src"]
    me = s.d["p"][p]
    (k, v), = atom.items()
    if k in ("gold", "stone"):
        add_resource(s, p, k, int(v))
        if v > 0 and src == "crane_inner":
            inner_bonus_technology(s, p, k)
    elif k == "vp":
        add_vp(s, p, int(v), cat)
        if v > 0 and src in ("crane_inner", "crane_zone") and has_tech(s, p, "T1-1") and not s.d["turn"]["t11_used"]:
            s.d["turn"]["t11_used"] = True
            add_vp(s, p, 1, "technologies")
    elif k == "egg":
        me["eggs"] += int(v)
        if has_tech(s, p, "T2-4"):
            for _ in range(int(v)):
                add_vp(s, p, 1, "technologies")
                add_resource(s, p, "stone", 1)
    elif k == "window":
        me["silver" if v == "silver" else "goldw"] += 1
    elif k == "book":
        advance_technology(s, p, int(v))
    elif k == "cap":
        advance_university(s, p, int(v))
    elif k == "token":
        me["tokens"][v] += 1
        tech = "T2-2" if v == "blue" else "T2-5"
        if has_tech(s, p, tech):
            add_vp(s, p, 1, "technologies")
            add_resource(s, p, "stone" if v == "blue" else "gold", 1)
    elif k in ("hunger_wall", "cathedral"):
        grids.move_sideways(s, p, k, int(v))
    elif k in ("mine", "quarry"):
        production.advance_track(s, p, "mines" if k == "mine" else "quarries", int(v))
    elif k == "special_ok":
        s.d["turn"]["special_ok"] = True
    elif k == "per_era1_upgrade_vp":
        add_vp(s, p, int(v) * era1_upgrades(s, p), cat)
    elif k == "choice":
        options = [opt for opt in v if affordable(s, p, opt)]
        if len(options) == 1:
            gain(s, p, options[0], cat, src)
        else:
            decide(s, p, "reward", options=options, cat=cat, src=src)
    else:
        raise ValueError(f"unknown effect atom {atom}")


def inner_bonus_technology(s: PragaState, player: str, res: str) -> None:
    tech = "T1-3" if res == "stone" else "T1-4"
    if has_tech(s, player, tech):
        add_resource(s, player, res, 1)
        add_vp(s, player, 1, "technologies")


def era1_upgrades(s: PragaState, player: str) -> int:
    return sum(1 for pile in s.d["p"][player]["upgrades"].values() for t in pile if HEX_TILES[t[0]]["era"] == 1)


def affordable(s: PragaState, player: str, atoms: list[dict[str, Any]]) -> bool:
    """A reward option with a price (negative gold/stone) can be chosen only if the price can be paid."""
    me = s.d["p"][player]
    need = {"gold": 0, "stone": 0}
    for a in atoms:
        for k, v in a.items():
            if k in need and isinstance(v, int) and v < 0:
                need[k] -= v
    return all(me[k] >= n for k, n in need.items())


def pay(s: PragaState, player: str, cost: dict[str, int]) -> None:
    me = s.d["p"][player]
    for res in ("gold", "stone"):
        me[res] -= cost.get(res, 0)
        assert me[res] >= 0


def describe_atoms(atoms: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    for a in atoms:
        (k, v), = a.items()
        if k == "choice":
            parts.append(" or ".join("(" + (describe_atoms(o) or "nothing") + ")" for o in v))
        elif k == "window":
            parts.append(f"a {v} window")
        elif k == "token":
            parts.append(f"a {v} token")
        elif k == "special_ok":
            parts.append("the S permission")
        elif k == "per_era1_upgrade_vp":
            parts.append(f"{v} VP per Era I upgrade")
        elif isinstance(v, int) and v < 0:
            parts.append(f"pay {-v} {k}")
        else:
            parts.append(f"{v} {k.replace('_', ' ')}")
    return ", ".join(parts)


@handler("draw_technology")
def draw_technology(s: PragaState, task: Task) -> None:
    draw(s, f"technology_{LEVEL_NAME[task['level']]}", 3, "technology", p=task["p"], level=task["level"])
