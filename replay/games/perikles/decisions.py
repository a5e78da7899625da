"""Which decisions the rules await at each point, and the rule functions that list, check and apply them.

Every move type has three functions: its candidates, a check that returns the reason it is
illegal (or None), and its effect.  The legal moves are the candidates the check accepts, and
``_play`` uses the same check, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from replay.engine import Move

from . import moves as mv
from .board import Board
from .phases import (
    battle_specials,
    battles,
    commitment,
    influence,
    influence_specials,
    military,
    nominations,
    slave_revolt,
)

Options = Callable[[Any, str], Any]
Check = Callable[[Any, str, Any], "str | None"]
Apply = Callable[[Any, str, Any], None]


def nominate(s: Board, player: str, move: mv.Nominate) -> None:
    """A nomination: in the influence phase it is the Candidate symbol; in the nomination phase, a turn."""
    nominations.nominate(s, player, move)
    if s.stage == "influence":
        influence.after_tile(s, player)
    else:
        nxt = nominations.next_nominator(s, player)
        s.cur = nxt
        if nxt is None:
            s.stage = "elections"


def choose_first(s: Board, player: str, move: mv.ChooseFirstCommitter) -> None:
    military.choose_first_committer(s, player, move)
    military.after_spartan_choice(s)


RULES: dict[type[Move], tuple[Options, Check, Apply]] = {
    mv.PlaceCube: (influence.place_cube_options, influence.place_cube_check, influence.place_cube),
    mv.TakeTile: (influence.take_tile_options, influence.take_tile_check, influence.take_tile),
    mv.PlaceAnyCube: (influence.place_any_cube_options, influence.place_any_cube_check, influence.place_any_cube),
    mv.Nominate: (nominations.nominate_options, nominations.nominate_check, nominate),
    mv.Assassinate: (influence.assassinate_options, influence.assassinate_check, influence.assassinate),
    mv.FinishTurn: (influence.finish_turn_options, influence.finish_turn_check, influence.finish_turn),
    mv.PlayPerikles: (influence_specials.play_perikles_options, influence_specials.play_perikles_check, influence_specials.play_perikles),
    mv.PlayPlague: (influence_specials.play_plague_options, influence_specials.play_plague_check, influence_specials.play_plague),
    mv.PlayAlkibiades: (influence_specials.play_alkibiades_options, influence_specials.play_alkibiades_check,
                        influence_specials.play_alkibiades),
    mv.AlkibiadesMove: (influence_specials.alkibiades_move_options, influence_specials.alkibiades_move_check,
                        influence_specials.alkibiades_move),
    mv.RecoverUnit: (military.recover_unit_options, military.recover_unit_check, military.recover_unit),
    mv.ChooseFirstCommitter: (military.choose_first_committer_options, military.choose_first_committer_check,
                              choose_first),
    mv.SendUnit: (commitment.send_unit_options, commitment.send_unit_check, commitment.send_unit),
    mv.SpendCube: (commitment.spend_cube_options, commitment.spend_cube_check, commitment.spend_cube),
    mv.EndCommit: (military.end_commit_options, military.end_commit_check, military.end_commit),
    mv.AnswerPermission: (commitment.answer_permission_options, commitment.answer_permission_check,
                          commitment.answer_permission),
    mv.PlaySlaveRevolt: (slave_revolt.play_slave_revolt_options, slave_revolt.play_slave_revolt_check,
                         slave_revolt.play_slave_revolt),
    mv.PlayBrasidas: (battle_specials.play_brasidas_options, battle_specials.play_brasidas_check, battle_specials.play_brasidas),
    mv.PlayPhormio: (battle_specials.play_phormio_options, battle_specials.play_phormio_check, battle_specials.play_phormio),
    mv.PlayThessalianAllies: (battle_specials.play_thessalian_allies_options, battle_specials.play_thessalian_allies_check,
                              battle_specials.play_thessalian_allies),
    mv.PlayPersianFleet: (battle_specials.play_persian_fleet_options, battle_specials.play_persian_fleet_check,
                          battle_specials.play_persian_fleet),
    mv.DeclineSpecial: (battle_specials.decline_special_options, battle_specials.decline_special_check, battle_specials.decline_special),
    mv.ChooseCasualty: (battles.choose_casualty_options, battles.choose_casualty_check, battles.choose_casualty),
    mv.AskPermission: (commitment.ask_permission_options, commitment.ask_permission_check, commitment.ask_permission),
    mv.SetPermission: (commitment.set_permission_options, commitment.set_permission_check, commitment.set_permission),
}

INFLUENCE_SPECIALS: tuple[type[Move], ...] = (mv.PlayPerikles, mv.PlayPlague, mv.PlayAlkibiades)

EXPECTED: dict[str, tuple[tuple[type[Move], ...], str]] = {
    "placement": ((mv.PlaceCube,), "place a starting cube"),
    "influence/before": ((mv.TakeTile,) + INFLUENCE_SPECIALS, "take an influence tile"),
    "influence/any_city": ((mv.PlaceAnyCube,), "choose the city for the Any tile's cube"),
    "influence/candidate": ((mv.Nominate,), "make the Candidate symbol's nomination"),
    "influence/assassin": ((mv.Assassinate,), "remove a cube with the Assassin symbol"),
    "influence/after": ((mv.FinishTurn,) + INFLUENCE_SPECIALS, "finish the influence turn"),
    "influence/alkibiades": ((mv.AlkibiadesMove,), "move a cube with Alkibiades"),
    "nomination": ((mv.Nominate,), "nominate a candidate"),
    "recover": ((mv.RecoverUnit,), "choose which unit comes back from the dead pool"),
    "choose_first": ((mv.ChooseFirstCommitter,), "name the first player to commit (as leader of Sparta)"),
    "commit": ((mv.SendUnit, mv.SpendCube, mv.EndCommit, mv.PlaySlaveRevolt), "commit units"),
    "commit/ask": ((mv.SendUnit, mv.SpendCube, mv.EndCommit, mv.PlaySlaveRevolt, mv.AskPermission), "commit units"),
    "permission": ((mv.AnswerPermission,), "answer a request to defend his location"),
    "battle_special": ((mv.PlayBrasidas, mv.PlayPhormio, mv.PlayThessalianAllies, mv.PlayPersianFleet,
                        mv.DeclineSpecial), "play or keep his special tile before the combat"),
    "casualty": ((mv.ChooseCasualty,), "choose whose unit is the casualty"),
}


def key(s: Board) -> str:
    """The point of the game: the stage, with the influence turn's step."""
    if s.stage == "influence":
        return f"influence/{s.step}"
    if s.stage == "commit" and s.seat_view:
        return "commit/ask"  # a seat-view record asks permission before choosing units
    return s.stage


def legal(s: Board, player: str) -> Generator[Move, None, None]:
    """Every move the checks accept, from each allowed type's candidates (unit lookups memoised)."""
    outer = s._memo is None
    if outer:
        s._memo = {}
    try:
        for cls in EXPECTED[key(s)][0]:
            options, check, _ = RULES[cls]
            for m in options(s, player):
                if check(s, player, m) is None:
                    yield m
    finally:
        if outer:
            s._memo = None


def can_do_more_than_end(s: Board, player: str) -> bool:
    """Whether a commit turn offers anything but ending it (else the tile is spent for nothing).

    Seat view: a player with an unused special tile is asked whenever Slave Revolt has a target, since
    whether his tile is Slave Revolt may be secret.
    """
    if s.seat_view and not s.special_used[player] and slave_revolt.any_target(s):
        return True
    moves = legal(s, player)
    try:
        return any(not isinstance(m, mv.EndCommit) for m in moves)
    finally:
        moves.close()
