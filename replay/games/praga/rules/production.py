"""Managing gold mines and quarries: expand (advance the track) or produce; production tokens; seals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import moves as m
from ..components import PRODUCTION_TOKENS, TRACK_DATA, TRACK_RESOURCE
from ..tasks import Decision, Step, push
from .effects import add_resource, add_vp, gain, has_tech

if TYPE_CHECKING:
    from ..state import PragaState

TRACK_TECH = {"mines": "T1-6", "quarries": "T1-5"}


def at_end(s: PragaState, player: str, track: str) -> bool:
    return bool(s.d["p"][player][track] >= TRACK_DATA[track]["last"])


def advance_track(s: PragaState, player: str, track: str, steps: int) -> None:
    """Move the mine/quarry marker right; a marker on the last space cannot move further."""
    me = s.d["p"][player]
    data = TRACK_DATA[track]
    for _ in range(steps):
        if me[track] >= data["last"]:
            return
        me[track] += 1
        if has_tech(s, player, TRACK_TECH[track]):
            add_vp(s, player, 2, "technologies")
        if me[track] == data["token_at"]:
            push(s, OfferProductionToken(player, track))
        if me[track] == data["seal_at"] and track not in me["seal_rights"]:
            me["seal_rights"].append(track)


def expand(s: PragaState, player: str, track: str, cat: str) -> None:
    """Expand: 1 gold (or stone) and the marker one space right."""
    add_resource(s, player, TRACK_RESOURCE[track], 1)
    advance_track(s, player, track, 1)


def produce(s: PragaState, player: str, track: str, cat: str) -> None:
    """Produce: one per mine/quarry (marker space - 1), every bonus printed left of the marker, and
    the production tokens on the track."""
    me = s.d["p"][player]
    marker = me[track]
    res = TRACK_RESOURCE[track]
    atoms = [{res: marker - 1}]
    for space, bonus in sorted(TRACK_DATA[track]["bonuses"].items(), key=lambda kv: int(kv[0])):
        if int(space) < marker:
            atoms.extend(bonus)
    for tok in me["prod_tokens"][track]:
        atoms.extend(PRODUCTION_TOKENS[tok]["reward"])
    gain(s, player, atoms, cat)


@dataclass(slots=True)
class OfferProductionToken(Step):
    """Fifth mine / fourth quarry: take any production token still in the river."""

    track: str = ""
    op = "offer_production_token"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        if s.d["river"]:
            s.push(TakeProductionToken(self.player, self.track))


@dataclass(slots=True)
class TakeProductionToken(Decision):
    """The production token taken from the river, to the left end of ``track``."""

    track: str = ""
    kind = "production_token"
    accepts = (m.TakeProductionToken,)
    awaiting = "take a production token from the river"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.TakeProductionToken(token=t) for t in sorted(s.d["river"])]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if move.token in s.d["river"]:
            return None
        return f"{move.token!r} is not in the river (left: {', '.join(sorted(s.d['river']))})"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        take_production_token(s, player, self.track, move.token)


def take_production_token(s: PragaState, player: str, track: str, token: str) -> None:
    s.d["river"].remove(token)
    s.d["p"][player]["prod_tokens"][track].append(token)
    s.add_milestone("production_token", round=s.round(), player_id=player, track=track, token=token)
