"""Technologies: drawing three at a space with a technology icon, keeping one; using the one-shot ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..components import ACTIONS, LEVEL_NAME, TECHS
from ..flow import Task, decide, handler, push, put_under, resolver
from . import grids, production
from .actions import perform, performable
from .effects import add_resource, add_vp, advance_university, gain

if TYPE_CHECKING:
    from ..state import PragaState


@resolver("technology")
def technology_drawn(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    if items:
        decide(s, info["p"], "keep_technology", tiles=items, level=info["level"])


def keep_technology(s: PragaState, player: str, drawn: list[str], tech: str) -> None:
    """Level I-II: permanent, working from the next turn.  Level III-IV: one-shot, kept until used."""
    level = int(TECHS[tech]["level"])
    put_under(s, f"technology_{LEVEL_NAME[level]}", [t for t in drawn if t != tech])
    me = s.d["p"][player]
    if level <= 2:
        me["techs"][tech] = s.d["turns"]
    else:
        me["stored"].append(tech)
    s.add_milestone("technology_gained", round=s.round(), player_id=player, tech=tech, level=level)


def use_technology(s: PragaState, player: str, tech: str) -> None:
    """Carry out a stored level III or IV technology."""
    me = s.d["p"][player]
    me["stored"].remove(tech)
    me["used_techs"].append(tech)
    USE[tech](s, player)


def _t3_1(s: PragaState, p: str) -> None:
    options = [g for g in ("hunger_wall", "cathedral") if s.d["p"][p][g]["row"] < grids.TOP_ROW]
    if options:
        decide(s, p, "grid", options=options, purpose="T3-1")


def _t3_2(s: PragaState, p: str) -> None:
    advance_university(s, p, 4)


def _t3_3(s: PragaState, p: str) -> None:
    add_vp(s, p, 3, "technologies")
    perform(s, p, "upgrade", bonus=True, source="technology")


def _t3_4(s: PragaState, p: str) -> None:
    add_resource(s, p, "stone", 2)
    production.produce(s, p, "mines", "technologies")


def _t3_5(s: PragaState, p: str) -> None:
    add_resource(s, p, "gold", 2)
    production.produce(s, p, "quarries", "technologies")


def _t3_6(s: PragaState, p: str) -> None:
    if s.d["p"][p]["road"] < 5:  # the egg comes first, so the bridge is open too
        perform(s, p, "kings_road", bonus=True, source="technology")
    gain(s, p, [{"egg": 1}], "technologies")


def _t4_1(s: PragaState, p: str) -> None:
    decide(s, p, "plaza", options=sorted(s.d["city"]["plaza_tiles"]))


def _t4_2(s: PragaState, p: str) -> None:
    perform(s, p, "upgrade", bonus=False, source="technology")
    gain(s, p, [{"window": "gold"}], "technologies")  # queued in front: the window comes first


def _t4_3(s: PragaState, p: str) -> None:
    decide(s, p, "choose_action", options=[a for a in ACTIONS if performable(s, p, a)], bonus=False,
           discount={}, source="technology")


def _t4_4(s: PragaState, p: str) -> None:
    perform(s, p, "wall", bonus=False, discount={"stone": 2}, source="technology")


def _t4_5(s: PragaState, p: str) -> None:
    perform(s, p, "building", bonus=False, discount={"gold": 2}, source="technology")


def _t4_6(s: PragaState, p: str) -> None:
    decide(s, p, "track", options=["mines", "quarries"], purpose="advance")


USE = {"T3-1": _t3_1, "T3-2": _t3_2, "T3-3": _t3_3, "T3-4": _t3_4, "T3-5": _t3_5, "T3-6": _t3_6,
       "T4-1": _t4_1, "T4-2": _t4_2, "T4-3": _t4_3, "T4-4": _t4_4, "T4-5": _t4_5, "T4-6": _t4_6}


def track_chosen(s: PragaState, player: str, dec: dict[str, Any], track: str) -> None:
    """T4-6: first the track to advance, then (independently) the track to produce on."""
    if dec["purpose"] == "advance":
        push(s, {"op": "prompt_track", "p": player})
        production.advance_track(s, player, track, 1)
    else:
        production.produce(s, player, track, "technologies")


@handler("prompt_track")
def prompt_track(s: PragaState, task: Task) -> None:
    decide(s, task["p"], "track", options=["mines", "quarries"], purpose="produce")
