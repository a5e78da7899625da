"""Records seen from one seat: secret special tiles, units sent face down, reveals, and their corruption."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from replay.engine import IllegalMove, ImpossibleChance
from replay.games import get_game
from replay.games.perikles.board import UNKNOWN
from replay.record import ChanceEvent, MoveEvent, Record
from replay.replayer import COMPLETE, DIVERGED, replay
from replay.simulate import simulate_one

GAME = get_game("perikles")


def seat_record(seed: int, view: str, players: int = 3) -> Record:
    return simulate_one(GAME, players, seed, 0, view=view)


@pytest.mark.parametrize(("seed", "view", "players"), [(1, "p1", 3), (2, "p2", 4), (3, "p5", 5), (4, "p3", 3)])
def test_seat_view_simulation_replays_complete(seed: int, view: str, players: int) -> None:
    rec = seat_record(seed, view, players)
    assert rec.options["seat_view"] is True
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:1]
    sends = [e.move for e in rec.events if isinstance(e, MoveEvent) and e.move.type == "send_unit"]
    assert any(m.strength is None for m in sends)          # others' units went face down
    reveals = [e for e in rec.events if isinstance(e, ChanceEvent) and "reveal" in e.outcome]
    assert reveals
    deal = next(e.outcome for e in rec.events if isinstance(e, ChanceEvent) and e.outcome.get("draw") == "special")
    assert deal["items"] == [None] * players                 # nobody's special tile is named


def test_seat_view_and_full_record_agree_on_the_score() -> None:
    full = simulate_one(GAME, 3, 5, 0, options={"seat_view": True})
    seen = simulate_one(GAME, 3, 5, 0, view="p2")
    assert replay(full).status == COMPLETE
    assert replay(seen).status == COMPLETE
    assert full.result == seen.result


def _first(rec: Record, pred: Any) -> int:
    return next(i for i, e in enumerate(rec.events) if pred(e))


def test_a_reveal_naming_another_counter_is_caught_there() -> None:
    rec = seat_record(1, "p1")
    seq = _first(rec, lambda e: isinstance(e, ChanceEvent) and "reveal" in e.outcome and e.outcome["items"])
    bad = copy.deepcopy(rec)
    items = bad.events[seq].outcome["items"]
    items[0] = "u71" if items[0] != "u71" else "u1"  # a Persian trireme 3 (or an Athenian hoplite)
    r = replay(bad)
    assert r.status == DIVERGED
    assert r.divergences[0].seq == seq and r.divergences[0].kind == "impossible_chance"


def test_a_reveal_leaving_a_unit_out_is_caught_there() -> None:
    rec = seat_record(2, "p1")
    seq = _first(rec, lambda e: isinstance(e, ChanceEvent) and "reveal" in e.outcome and len(e.outcome["items"]) > 1)
    bad = copy.deepcopy(rec)
    bad.events[seq].outcome["items"].pop()
    r = replay(bad)
    assert r.divergences[0].seq == seq and r.divergences[0].kind == "impossible_chance"


def test_a_face_down_unit_of_a_power_not_controlled_is_illegal() -> None:
    rec = seat_record(1, "p1")
    seq = _first(rec, lambda e: isinstance(e, MoveEvent) and e.move.type == "send_unit" and e.move.strength is None)
    bad = copy.deepcopy(rec)
    mv = bad.events[seq].move
    other = next(p for p in ("athens", "sparta", "argos", "corinth", "thebes", "megara", "persia") if p != mv.power)
    bad.events[seq] = MoveEvent(bad.events[seq].player, GAME.parse_move({**mv.to_dict(), "power": other}))
    r = replay(bad)
    assert r.divergences[0].seq == seq and r.divergences[0].kind == "illegal_move"


def test_unknown_special_tiles_need_the_seat_view_flow() -> None:
    state = GAME.initial_state(["p1", "p2", "p3"], {"ruleset": "bga"})
    state.apply_chance({"draw": "influence", "items": [t for t in _display()]})
    state.apply_chance({"draw": "locations", "items": ["pylos", "delium", "sicily", "lesbos", "melos", "leucas",
                                                        "attica"]})
    with pytest.raises(ImpossibleChance, match="seat_view"):
        state.apply_chance({"draw": "special", "items": [None, None, None]})


def _display() -> list[str]:
    from replay.games.perikles.components import INFLUENCE_TILES
    return [t.id for t in INFLUENCE_TILES[:10]]


def _seat_game() -> Any:
    state = GAME.initial_state(["p1", "p2", "p3"], {"ruleset": "bga", "seat_view": True})
    state.apply_chance({"draw": "influence", "items": [*_display()[:9], None]})
    state.apply_chance({"draw": "locations", "items": ["pylos", "delium", "sicily", "lesbos", "melos", "leucas",
                                                        "attica"]})
    state.apply_chance({"draw": "special", "items": [None, "perikles", None]})
    state.apply_chance({"choose": "first_player", "value": "p1"})
    return state


def test_a_secret_tile_is_bound_when_played_and_cannot_be_another_players() -> None:
    state = _seat_game()
    assert state.special == {"p1": UNKNOWN, "p2": "perikles", "p3": UNKNOWN}
    for city in ("athens", "sparta", "argos", "corinth", "thebes", "megara"):
        state.apply_move(state.turn(), GAME.parse_move({"type": "place_cube", "city": city}))
    with pytest.raises(IllegalMove, match="not his special tile"):
        state.apply_move("p1", GAME.parse_move({"type": "play_perikles"}))
    state.apply_move("p1", GAME.parse_move({"type": "play_plague", "city": "athens"}))
    assert state.special["p1"] == "plague" and state.special_used["p1"]
    assert not state.may_hold_special("p3", "plague")


def test_an_unnamed_display_tile_cannot_be_taken_and_the_colour_rule_counts_it() -> None:
    state = _seat_game()
    assert state.display[9] == UNKNOWN
    moves = [m.to_dict() for m in state.legal_moves()] if state.turn() == "p1" else []
    assert moves == [] or all(m.get("slot") != 10 for m in moves)
    for city in ("athens", "sparta", "argos", "corinth", "thebes", "megara"):
        state.apply_move(state.turn(), GAME.parse_move({"type": "place_cube", "city": city}))
    with pytest.raises(IllegalMove, match="never named"):
        state.apply_move("p1", GAME.parse_move({"type": "take_tile", "slot": 10}))


def test_every_unused_tile_holder_gets_the_after_step_in_a_seat_view() -> None:
    state = _seat_game()
    for city in ("athens", "sparta", "argos", "corinth", "thebes", "megara"):
        state.apply_move(state.turn(), GAME.parse_move({"type": "place_cube", "city": city}))
    slot = next(i + 1 for i, t in enumerate(state.display) if t and t.endswith("-2a"))
    state.apply_move("p1", GAME.parse_move({"type": "take_tile", "slot": slot}))
    assert state.turn() == "p1" and state.step == "after"   # p1's tile is secret: he is asked
    state.apply_move("p1", GAME.parse_move({"type": "finish_turn"}))
    assert state.turn() != "p1"
