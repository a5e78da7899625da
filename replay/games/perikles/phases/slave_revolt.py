"""Slave Revolt: on its owner's commit turn, a Spartan hoplite picked at random goes home for the round."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import unknowns
from ..board import BATTLE, HELD
from ..components import LOCATION, UNITS
from ..moves import PlaySlaveRevolt

if TYPE_CHECKING:
    from ..board import Board

# ---- Slave Revolt ---------------------------------------------------------------------------


def revolt_candidates(s: Board, target: str) -> list[str]:
    """Spartan hoplites at the target: a location, or ``sparta`` for the Spartan leader's uncommitted units."""
    leader = s.leader["sparta"]
    if leader is None:
        return []
    out = []
    for u in UNITS:
        if u.power != "sparta" or u.type != "hoplite":
            continue
        if target == "sparta":
            if s.unit_at[u.id] == HELD and s.unit_holder[u.id] == leader:
                out.append(u.id)
        elif s.unit_at[u.id] == BATTLE and s.unit_location[u.id] == target:
            out.append(u.id)
    if target != "sparta" and any(f["power"] == "sparta" and f["type"] == "hoplite"
                                  for f in unknowns.face_down_at(s, target)):
        # a Spartan hoplite sent there face down is one of those the leader still seems to hold
        out += [u.id for u in UNITS if u.power == "sparta" and u.type == "hoplite"
                and s.unit_at[u.id] == HELD and s.unit_holder[u.id] == leader]
    return out


def any_target(s: Board) -> bool:
    """Whether Slave Revolt could strike anywhere now."""
    return any(revolt_candidates(s, t) for t in ["sparta", *s.locations])


def play_slave_revolt_options(s: Board, player: str) -> Iterator[PlaySlaveRevolt]:
    if s.may_hold_special(player, "slaverevolt") and not s.special_used[player]:
        yield PlaySlaveRevolt(target="sparta")
        for loc in s.locations:
            yield PlaySlaveRevolt(target=loc)


def play_slave_revolt_check(s: Board, player: str, move: PlaySlaveRevolt) -> str | None:
    if not s.may_hold_special(player, "slaverevolt"):
        return f"{player} cannot play Slave Revolt: it is not his special tile"
    if s.special_used[player]:
        return f"{player} cannot play Slave Revolt: he has already used it"
    if move.target != "sparta" and move.target not in s.locations:
        return f"{player} cannot aim Slave Revolt at {move.target!r}: name a location of this round or sparta"
    if s.leader["sparta"] is None:
        return f"{player} cannot play Slave Revolt: Sparta has no leader this round"
    if not revolt_candidates(s, move.target):
        where = "in the Spartan leader's forces" if move.target == "sparta" else f"at {LOCATION[move.target].name}"
        return f"{player} cannot play Slave Revolt there: there is no Spartan hoplite {where}"
    return None


def play_slave_revolt(s: Board, player: str, move: PlaySlaveRevolt) -> None:
    s.bind_special(player, "slaverevolt")
    s.special_used[player] = True
    s.revolt_target = move.target


def slave_revolt_strikes(s: Board, unit_id: str) -> None:
    """The hoplite picked at random goes back to the Sparta stack for the rest of the round."""
    assert s.revolt_target is not None
    unknowns.revolt_strikes(s, s.revolt_target, unit_id)
    s.revolt_target = None


