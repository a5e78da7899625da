"""Moves in words, for the viewer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import Move

from . import moves as mv
from .components import INFLUENCE, LOCATION, SPECIAL, InfluenceTile

if TYPE_CHECKING:
    from .board import Board


def _city(key: str) -> str:
    return key.capitalize()


def _loc(key: str) -> str:
    return LOCATION[key].name if key in LOCATION else key


def _influence(t: InfluenceTile) -> str:
    """An influence tile in words: its city by name, its shards, and its symbol if it has one."""
    shards = f"{t.shards} shard{'s' if t.shards != 1 else ''}"
    symbol = "" if t.symbol == "none" else f", {t.symbol}"
    return f"{_city(t.city)}, {shards}{symbol}"


def describe(s: Board, player: str, move: Move) -> str:
    """One sentence per move."""
    m = move
    if isinstance(m, mv.PlaceCube):
        return f"{player} places a starting cube in {_city(m.city)}"
    if isinstance(m, mv.TakeTile):
        tile = s.display[m.slot - 1] if 1 <= m.slot <= len(s.display) else None
        what = f" ({_influence(INFLUENCE[tile])})" if tile in INFLUENCE else ""
        return f"{player} takes the influence tile in slot {m.slot}{what}"
    if isinstance(m, mv.PlaceAnyCube):
        if m.city is None:
            return f"{player} cannot place the Any tile's cube: he has 30 cubes on the board"
        return f"{player} puts the Any tile's cube in {_city(m.city)}"
    if isinstance(m, mv.Nominate):
        return f"{player} nominates {m.nominee} in {_city(m.city)}"
    if isinstance(m, mv.Assassinate):
        where = "" if m.space == "city" else f" (the {m.space} candidate)"
        return f"{player} assassinates a cube of {m.victim} in {_city(m.city)}{where}"
    if isinstance(m, mv.FinishTurn):
        return f"{player} ends his influence turn"
    if isinstance(m, mv.PlayPerikles):
        return f"{player} plays Perikles: two cubes into Athens"
    if isinstance(m, mv.PlayPlague):
        return f"{player} plays Plague on {_city(m.city)}"
    if isinstance(m, mv.PlayAlkibiades):
        return f"{player} plays Alkibiades"
    if isinstance(m, mv.AlkibiadesMove):
        return f"{player} moves a cube of {m.owner} from {_city(m.from_city)} to {_city(m.to_city)} (Alkibiades)"
    if isinstance(m, mv.RecoverUnit):
        return f"{player} takes a {_city(m.city)} {m.unit_type} back from the dead pool"
    if isinstance(m, mv.ChooseFirstCommitter):
        return f"{player} (leader of Sparta) names {m.player} to commit first"
    if isinstance(m, mv.SendUnit):
        strength = "face down" if m.strength is None else m.strength
        return (f"{player} sends a {_city(m.power)} {m.unit_type} ({strength}) to "
                f"{'attack' if m.side == 'attacker' else 'defend'} {_loc(m.location)}")
    if isinstance(m, mv.ResendUnit):
        strength = "face down" if m.strength is None else m.strength
        return (f"BGA sends {player}'s {_city(m.power)} {m.unit_type} ({strength}) on to "
                f"{'attack' if m.side == 'attacker' else 'defend'} {_loc(m.location)} (its zombie picked it twice)")
    if isinstance(m, mv.SpendCube):
        return f"{player} spends a cube in {_city(m.city)} to send more units"
    if isinstance(m, mv.EndCommit):
        return f"{player} ends his commit turn"
    if isinstance(m, mv.AnswerPermission):
        return f"{player} {'grants' if m.grant else 'refuses'} permission to defend"
    if isinstance(m, mv.SetPermission):
        verb = "grants" if m.grant else "revokes"
        return f"{player} {verb} {_city(m.power)}'s permission to defend {_loc(m.location)}"
    if isinstance(m, mv.PlaySlaveRevolt):
        where = "the Spartan leader's forces" if m.target == "sparta" else _loc(m.target)
        return f"{player} plays Slave Revolt against {where}"
    if isinstance(m, mv.PlayBrasidas | mv.PlayPhormio):
        key = "brasidas" if isinstance(m, mv.PlayBrasidas) else "phormio"
        return f"{player} plays {SPECIAL[key].name}"
    if isinstance(m, mv.PlayThessalianAllies):
        return f"{player} plays Thessalian Allies: a battle token for the {m.side}"
    if isinstance(m, mv.PlayPersianFleet):
        return f"{player} plays Persian Fleet: a battle token for the {m.side}"
    if isinstance(m, mv.DeclineSpecial):
        return f"{player} keeps his special tile"
    if isinstance(m, mv.ChooseCasualty):
        return f"{player} gives up a {_city(m.power)} unit as the casualty"
    return f"{player}: {move.type}"
