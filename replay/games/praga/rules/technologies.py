"""Technologies: drawing three at a space with a technology icon, keeping one; using the one-shot ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import moves as m
from ..components import ACTIONS, LEVEL_NAME, TECHS
from ..tasks import Decision, Draw, Step, push, put_under
from . import grids, production
from .actions import ChooseAction, perform, performable
from .effects import add_resource, add_vp, advance_university, gain
from .plazas import ChoosePlaza

if TYPE_CHECKING:
    from ..state import PragaState


@dataclass(slots=True)
class TechnologyDraw(Draw):
    """Three technologies of ``level`` drawn for ``player``, who keeps one."""

    level: int = 0
    purpose = "technology"

    def details(self) -> dict[str, Any]:
        return {"p": self.player, "level": self.level}

    def drawn(self, s: PragaState, items: list[str]) -> None:
        if items:
            s.push(KeepTechnology(self.player, items, self.level))


@dataclass(slots=True)
class KeepTechnology(Decision):
    """Keep one of the technologies drawn (the others go under their stack)."""

    tiles: list[str] = field(default_factory=list)
    level: int = 0
    kind = "keep_technology"
    accepts = (m.KeepTechnology,)
    awaiting = "keep one of the technology tiles drawn"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.KeepTechnology(tech=t) for t in sorted(self.tiles)]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if move.tech in self.tiles:
            return None
        return f"{player} drew {', '.join(sorted(self.tiles))}; {move.tech!r} is not among them"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        keep_technology(s, player, self.tiles, move.tech)


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
        s.push(ChooseGrid(p, options, "T3-1"))


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
    s.push(ChoosePlaza(p, sorted(s.d["city"]["plaza_tiles"])))


def _t4_2(s: PragaState, p: str) -> None:
    perform(s, p, "upgrade", bonus=False, source="technology")
    gain(s, p, [{"window": "gold"}], "technologies")  # queued in front: the window comes first


def _t4_3(s: PragaState, p: str) -> None:
    s.push(ChooseAction(p, [a for a in ACTIONS if performable(s, p, a)], bonus=False, discount={},
                        source="technology"))


def _t4_4(s: PragaState, p: str) -> None:
    perform(s, p, "wall", bonus=False, discount={"stone": 2}, source="technology")


def _t4_5(s: PragaState, p: str) -> None:
    perform(s, p, "building", bonus=False, discount={"gold": 2}, source="technology")


def _t4_6(s: PragaState, p: str) -> None:
    s.push(ChooseTrack(p, ["mines", "quarries"], "advance"))


USE = {"T3-1": _t3_1, "T3-2": _t3_2, "T3-3": _t3_3, "T3-4": _t3_4, "T3-5": _t3_5, "T3-6": _t3_6,
       "T4-1": _t4_1, "T4-2": _t4_2, "T4-3": _t4_3, "T4-4": _t4_4, "T4-5": _t4_5, "T4-6": _t4_6}


@dataclass(slots=True)
class ChooseGrid(Decision):
    """T3-1: move up one row on the Hunger Wall or the Cathedral, without the tier fee."""

    options: list[str] = field(default_factory=list)
    purpose: str = ""
    kind = "grid"
    accepts = (m.ChooseGrid,)
    awaiting = "choose the Hunger Wall or the Cathedral"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.ChooseGrid(grid=o) for o in self.options]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        return None if move.grid in self.options else self.otherwise(player, move)

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        grids.move_up(s, player, move.grid, pay_fee=False)


@dataclass(slots=True)
class ChooseTrack(Decision):
    """T4-6: the production track to advance (``purpose`` advance), then the one to produce on
    (``produce``)."""

    options: list[str] = field(default_factory=list)
    purpose: str = ""
    kind = "track"
    accepts = (m.ChooseTrack,)
    awaiting = "choose the gold mine or the quarry track"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.ChooseTrack(track=o) for o in self.options]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        return None if move.track in self.options else self.otherwise(player, move)

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        track_chosen(s, player, self.purpose, move.track)


def track_chosen(s: PragaState, player: str, purpose: str, track: str) -> None:
    """T4-6: first the track to advance, then (independently) the track to produce on."""
    if purpose == "advance":
        push(s, PromptTrack(player))
        production.advance_track(s, player, track, 1)
    else:
        production.produce(s, player, track, "technologies")


@dataclass(slots=True)
class PromptTrack(Step):
    """T4-6, after the advance: the track to produce on."""

    op = "prompt_track"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        s.push(ChooseTrack(self.player, ["mines", "quarries"], "produce"))
