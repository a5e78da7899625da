"""Setup (sections 3, 14) and the action crane (sections 4, 5, 8.2)."""

from __future__ import annotations

import pytest
from praga_helpers import PLAYERS, decision, first_items, legal, me, new_game, play, run, settle, vp

from replay.engine import ChanceRequest, IllegalMove
from replay.games.praga import GAME
from replay.games.praga import moves as m
from replay.games.praga.rules import crane


def test_setup_chance_events_in_engine_order() -> None:
    st = GAME.initial_state(PLAYERS[:3], {})
    names = []
    while isinstance(st.turn(), ChanceRequest):
        req = st.turn()
        assert isinstance(req, ChanceRequest)
        names.append((req.name, req.count))
        st.apply_chance(first_items(req))
    assert names == [("action_tiles", 6), ("plaza_tiles_green", 4), ("plaza_tiles_purple", 3),
                     ("plaza_tiles_yellow", 2), ("upgrade_I", 3), ("upgrade_I_special", 1), ("wall_I", 3),
                     ("wall_I_special", 1), ("building_I", 3), ("building_I_special", 1), ("building_I", 4),
                     ("first_player", 1)]


def test_the_snapshot_shows_what_is_pending() -> None:
    """The pending draw, the pending decision and the automatic steps still to run, the next first."""
    st = GAME.initial_state(PLAYERS[:3], {})
    snap = st.snapshot()
    assert snap["chance"] == {"deck": "action_tiles", "purpose": "crane_setup", "unseen": 6, "known": 0}
    assert snap["decision"] is None and snap["to_move"] is None
    assert snap["pending_steps"] == ["setup_plazas", "setup_plazas", "setup_plazas", "refill_row", "refill_row",
                                     "refill_row", "setup_neutral_buildings", "setup_first_player"]
    settle(st)
    first = st.d["order"][0]
    snap = st.snapshot()
    assert snap["chance"] is None and snap["pending_steps"] == []
    assert snap["decision"] == {"kind": "turn", "player": first} and snap["to_move"] == first
    st.apply_move(first, m.TakeTile(position=2))  # red space 3: its notch gives the S permission or 1 VP
    snap = st.snapshot()
    assert snap["decision"] == {"kind": "reward", "player": first, "options": [[{"special_ok": True}], [{"vp": 1}]],
                                "cat": "crane", "src": "crane_inner"}
    assert snap["pending_steps"] == ["choose_crane_action"]


def test_four_players_have_no_neutral_buildings_and_all_tokens() -> None:
    st = new_game(4)
    assert st.d["city"]["built"] == {}
    assert len(st.d["river"]) == 8
    assert len(st.d["city"]["plaza_tiles"]) == 11


@pytest.mark.parametrize(("n", "tokens", "plazas"), [(2, 4, 7), (3, 6, 9), (4, 8, 11)])
def test_production_tokens_and_plazas_by_player_count(n: int, tokens: int, plazas: int) -> None:
    st = new_game(n)
    assert len(st.d["river"]) == tokens
    assert len(st.d["city"]["plaza_tiles"]) == plazas


def test_starting_position() -> None:
    st = new_game(2)
    p = me(st)
    assert (p["gold"], p["stone"], p["mines"], p["quarries"], p["tech"], p["uni"], p["cubes"]) == (2, 2, 4, 3, 0, 0, 2)
    assert p["hunger_wall"] == {"row": 0, "col": 5} and p["cathedral"] == {"row": 0, "col": 0}
    assert [crane.tile_at(st, i) for i in range(10)] == ["T1", "T2", "T3", "T4", "T5", "T6", None, None, None, None]


def test_random_start_player_sets_the_turn_order() -> None:
    st = GAME.initial_state(PLAYERS[:3], {})
    while isinstance(st.turn(), ChanceRequest):
        req = st.turn()
        assert isinstance(req, ChanceRequest)
        out = first_items(req) if req.kind == "draw" else {"choose": "first_player", "value": "p2"}
        st.apply_chance(out)
    assert st.d["order"] == ["p2", "p3", "p1"] and st.turn() == "p2"


def test_red_space_costs_gold_and_refuses_a_player_who_cannot_pay() -> None:
    st = new_game(3)
    with pytest.raises(IllegalMove, match="p1 cannot take the tile on red space 1: it costs 3 gold, p1 has 2"):
        st.apply_move("p1", m.TakeTile(position=0))
    play(st, m.TakeTile(position=1))
    assert me(st)["gold"] == 0


def test_green_space_is_free_and_the_inner_bonus_is_taken() -> None:
    st = new_game(3)
    notch = crane.notch_at(st, 4)  # W10: a silver window
    assert notch == 10
    play(st, m.TakeTile(position=4))
    assert me(st)["silver"] == 1 and me(st)["gold"] == 2
    assert decision(st)["kind"] == "choose_action" and decision(st)["options"] == ["quarries", "upgrade"]


def test_s_or_vp_inner_bonus_is_a_choice() -> None:
    st = new_game(3)
    play(st, m.TakeTile(position=2))  # notch W8: S or 1 VP; costs 2 gold
    dec = decision(st)
    assert dec["kind"] == "reward" and dec["options"] == [[{"special_ok": True}], [{"vp": 1}]]
    play(st, m.ChooseReward(option=0))
    assert st.d["turn"]["special_ok"] and vp(st) == 0


def test_blue_zone_pays_vp_and_t1_1_adds_one() -> None:
    st = new_game(3)
    st.d["crane"]["hung"] = {str(crane.notch_at(st, 9)): "T1"}
    st.d["p"]["p1"]["techs"]["T1-1"] = -1
    play(st, m.TakeTile(position=9))
    assert st.d["p"]["p1"]["vp"]["crane"] == 3 and st.d["p"]["p1"]["vp"]["technologies"] == 1


def test_wheel_turns_one_notch_and_skips_the_blocked_one() -> None:
    st = new_game(3)
    st.d["crane"]["first"] = 1
    st.d["crane"]["hung"] = {}
    st.d["turn"]["used_tile"] = "T1"
    crane.rotate(st)
    assert st.d["crane"]["first"] == 11  # notch 0 is blocked: one more
    assert crane.tile_at(st, 0) == "T1"


def test_tile_pushed_past_the_blue_zone_returns_to_green_with_the_five_point_token() -> None:
    st = new_game(3)
    st.d["crane"]["hung"] = {str(crane.notch_at(st, 9)): "T6"}
    st.d["turn"]["used_tile"] = "T1"
    crane.rotate(st)
    assert crane.tile_at(st, 4) == "T6" and st.d["crane"]["five"] == "T6"
    st.d["turn"] = {**st.d["turn"], "tile_taken": False, "used_tile": None}
    run(st)
    play(st, m.TakeTile(position=4))
    assert st.d["p"]["p1"]["vp"]["crane"] == 5 and st.d["crane"]["five"] is None


def test_used_tile_goes_to_the_first_red_space_at_end_of_turn() -> None:
    st = new_game(3)
    play(st, m.TakeTile(position=5))  # T6 (wall / King's Road) on notch W11: buy an egg or not
    while decision(st)["kind"] != "turn":
        play(st, legal(st)[0])
    play(st, m.EndTurn())
    assert crane.tile_at(st, 0) == "T6" and crane.tile_at(st, 1) == "T1"
    assert st.turn() == "p2"


def test_end_turn_needs_the_action_first() -> None:
    st = new_game(3)
    with pytest.raises(IllegalMove, match="crane tile must be taken"):
        st.apply_move("p1", m.EndTurn())
    settle(st)
