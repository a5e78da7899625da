"""Gaining and paying: resources, the dials' wealth bonuses, windows, eggs, tokens, books and caps.

A reward is a list of effect atoms (``{"gold": 2}``, ``{"choice": [[...], [...]]}``...); ``gain``
pushes one :class:`Gain` step per atom, so that a choice in the middle waits for the player
(:class:`ChooseReward`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import moves as m
from ..components import BOARD, HEX_TILES, LEVEL_NAME, TECH_AT, TECH_TOP, UNI_TOP
from ..tasks import Decision, Step, draw, push

if TYPE_CHECKING:
    from ..state import PragaState

DIAL_MAX: int = BOARD["dial_max"]
OVERFLOW_VP: int = BOARD["overflow_vp_per_step"]


def gain(s: PragaState, player: str, atoms: list[dict[str, Any]], cat: str, src: str = "") -> None:
    """``player`` gains ``atoms`` next, one after the other."""
    if atoms:
        push(s, *(Gain(player, a, cat, src) for a in atoms))


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
            push(s, DrawTechnology(player, level))


def advance_university(s: PragaState, player: str, steps: int) -> None:
    me = s.d["p"][player]
    for _ in range(steps):
        if me["uni"] >= UNI_TOP:
            add_vp(s, player, OVERFLOW_VP, "tracks")
        else:
            me["uni"] += 1


@dataclass(slots=True)
class Gain(Step):
    """Gain one effect atom (in score category ``cat``; ``src`` says where it comes from when a
    technology cares: the crane's inner bonus or zone)."""

    atom: dict[str, Any] = field(default_factory=dict)
    cat: str = ""
    src: str = ""
    op = "atom"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        apply_atom(s, self.player, self.atom, self.cat, self.src)


def apply_atom(s: PragaState, p: str, atom: dict[str, Any], cat: str, src: str) -> None:
    from . import grids, production  # the tracks and grids use gain() too

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
            s.push(ChooseReward(p, options, cat, src))
    else:
        raise ValueError(f"unknown effect atom {atom}")


@dataclass(slots=True)
class ChooseReward(Decision):
    """One of several rewards (a choice atom, a plaza's upper rewards): ``option`` indexes ``options``."""

    options: list[list[dict[str, Any]]] = field(default_factory=list)
    cat: str = ""
    src: str = ""
    kind = "reward"
    accepts = (m.ChooseReward,)
    awaiting = "choose one of the offered rewards"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.ChooseReward(option=i) for i in range(len(self.options))]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if 0 <= move.option < len(self.options):
            return None
        return (f"{player} has {len(self.options)} rewards to choose from: "
                + "; ".join(f"{i}: {describe_atoms(o) or 'nothing'}" for i, o in enumerate(self.options)))

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        gain(s, player, self.options[move.option], self.cat, self.src)


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


@dataclass(slots=True)
class DrawTechnology(Step):
    """A technology icon reached on the technology track: draw three technologies of its ``level``."""

    level: int = 0
    op = "draw_technology"

    def run(self, s: PragaState) -> None:
        from .technologies import TechnologyDraw

        s.pop(self)
        draw(s, TechnologyDraw(self.player, f"technology_{LEVEL_NAME[self.level]}", level=self.level), 3)
