"""Records seen from one seat: secret special tiles, units sent face down, reveals, and their corruption."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from replay.engine import IllegalMove, ImpossibleChance
from replay.games import get_game
from replay.games.perikles import tasks
from replay.games.perikles.board import UNKNOWN
from replay.games.perikles.components import UNIT
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
    assert state.turn() == "p1" and type(state.pending()) is tasks.SpecialTileAfterTheTile   # p1's tile is secret: he is asked
    state.apply_move("p1", GAME.parse_move({"type": "finish_turn"}))
    assert state.turn() != "p1"


def _commit_as_spartan() -> Any:
    """A seat-view game at a commit turn of the leader of Sparta, with Spartan hoplites in hand."""
    for seed in range(1, 40):
        rec = simulate_one(GAME, 3, seed, 0, options={"ruleset": "bga", "seat_view": True})
        st = GAME.initial_state(["p1", "p2", "p3"], {"ruleset": "bga", "seat_view": True})
        for ev in rec.events:
            if (st.stage == "commit" and st.commit_sent == 0 and st.turn() == st.leader["sparta"]
                    and st.available(st.turn(), "sparta", "hoplite") >= 2):
                return st
            if isinstance(ev, MoveEvent):
                st.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                st.apply_chance(ev.outcome)
    raise AssertionError("no such position in 40 games")


def test_slave_revolt_may_strike_a_unit_sent_face_down() -> None:
    st = _commit_as_spartan()
    p = st.turn()
    for q in st.players:
        if not st.special_used[q]:
            st.special[q] = UNKNOWN
    send = next(m for m in st.legal_moves() if m.type == "send_unit" and m.power == "sparta"
                and m.unit_type == "hoplite")
    face_down = GAME.parse_move({**send.to_dict(), "strength": None})
    st.apply_move(p, face_down)
    assert st.face_down and st.away == {f"{p}|sparta|hoplite": 1}
    st.apply_move(p, GAME.parse_move({"type": "play_slave_revolt", "target": send.location}))
    victim = next(u for u in st.turn().options if st.unit_at[u] == "held")
    st.apply_chance({"choose": "slave_revolt", "value": victim})
    assert not st.face_down and not st.away and st.unit_at[victim] == "stack"


def test_slave_revolt_on_the_leaders_forces_counts_the_units_sent_face_down() -> None:
    st = _commit_as_spartan()
    p = st.turn()
    for q in st.players:
        if not st.special_used[q]:
            st.special[q] = UNKNOWN
    hoplites = [u for u in st.controlled_units(p) if UNIT[u].power == "sparta" and UNIT[u].type == "hoplite"]
    send = next(m for m in st.legal_moves() if m.type == "send_unit" and m.power == "sparta"
                and m.unit_type == "hoplite")
    st.apply_move(p, GAME.parse_move({**send.to_dict(), "strength": None}))
    st.apply_move(p, GAME.parse_move({**send.to_dict(), "strength": None}))
    st.apply_move(p, GAME.parse_move({"type": "play_slave_revolt", "target": "sparta"}))
    if len(hoplites) == 2:   # both went face down: none can still be with him
        with pytest.raises(ImpossibleChance, match="sent face down"):
            st.apply_chance({"choose": "slave_revolt", "value": hoplites[0]})
    else:
        st.apply_chance({"choose": "slave_revolt", "value": hoplites[0]})
        assert st.unit_at[hoplites[0]] == "stack" and st.away == {f"{p}|sparta|hoplite": 2}
