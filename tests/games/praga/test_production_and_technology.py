"""Mines and quarries (6.1, 6.2), production tokens and seals (9.3), wealth bonuses (9.4), technologies (12)."""

from __future__ import annotations

import pytest
from praga_helpers import decision, legal, me, new_game, play, resume, run, vp

from replay.engine import ChanceRequest, IllegalMove
from replay.games.praga import moves as m
from replay.games.praga.rules import actions
from replay.games.praga.rules.actions import ManageTrack
from replay.games.praga.rules.effects import add_resource


def manage(st, track: str) -> None:  # type: ignore[no-untyped-def]
    st.push(ManageTrack("p1", track))


def test_produce_gold_is_mines_plus_bonuses_left_of_the_marker_plus_tokens() -> None:
    st = new_game(3)
    manage(st, "mines")
    play(st, m.Manage(mode="produce"))
    assert me(st)["gold"] == 2 + 3  # marker on space 4: 3 mines
    st.d["p"]["p1"].update(gold=0, mines=7, wealth=["wealth6"])
    st.d["p"]["p1"]["prod_tokens"]["mines"] = ["pt3"]
    manage(st, "mines")
    play(st, m.Manage(mode="produce"))
    # 6 mines + the VP at space 5 (left of 7) + token pt3 (1 VP + 1 gold); the book at 7 is not left of 7
    assert me(st)["gold"] == 7 and st.d["p"]["p1"]["vp"]["production"] == 2


def test_expand_gains_one_and_the_fifth_mine_takes_a_production_token() -> None:
    st = new_game(3)
    st.d["p"]["p1"]["mines"] = 5
    manage(st, "mines")
    play(st, m.Manage(mode="expand"))
    assert me(st)["mines"] == 6 and me(st)["gold"] == 3
    assert decision(st)["kind"] == "production_token"
    assert legal(st) == [m.TakeProductionToken(token=t) for t in ["pt1", "pt2", "pt3", "pt4", "pt5", "pt6"]]
    play(st, m.TakeProductionToken(token="pt5"))
    assert me(st)["prod_tokens"]["mines"] == ["pt5"] and "pt5" not in st.d["river"]
    assert st.milestones[-1]["type"] == "production_token"


def test_last_space_cannot_expand_and_unlocks_a_seal() -> None:
    st = new_game(3)
    st.d["p"]["p1"]["quarries"] = 7
    manage(st, "quarries")
    play(st, m.Manage(mode="expand"))
    assert me(st)["quarries"] == 8 and me(st)["seal_rights"] == ["quarries"]
    manage(st, "quarries")
    assert legal(st) == [m.Manage(mode="produce")]
    with pytest.raises(IllegalMove, match="last space and cannot expand"):
        st.apply_move("p1", m.Manage(mode="expand"))


def test_claim_a_seal_costs_windows_and_a_cube_and_each_seal_is_unique() -> None:
    st = new_game(3)
    st.d["p"]["p1"].update(seal_rights=["mines"], silver=2)
    run(st)
    with pytest.raises(IllegalMove, match="costs 2 silver windows, p1 has 2|already belongs"):
        st.d["seals"]["gold_seal"] = "p2"
        st.apply_move("p1", m.ClaimSeal(seal="gold_seal"))
    del st.d["seals"]["gold_seal"]
    play(st, m.ClaimSeal(seal="gold_seal"))
    assert me(st)["seals"] == ["gold_seal"] and me(st)["silver"] == 0 and me(st)["cubes"] == 1
    with pytest.raises(IllegalMove, match="no seal to claim"):
        st.apply_move("p1", m.ClaimSeal(seal="six_seal"))


def test_dials_stop_at_nine_and_wealth_bonuses_come_once() -> None:
    st = new_game(3)
    add_resource(st, "p1", "gold", 4)  # 2 -> 6: the book cube
    run(st)
    assert me(st)["tech"] == 1 and me(st)["wealth"] == ["wealth6"] and me(st)["cubes"] == 3
    assert decision(st)["kind"] == "keep_technology"
    play(st, m.KeepTechnology(tech=decision(st)["tiles"][0]))
    add_resource(st, "p1", "gold", 10)
    run(st)
    assert me(st)["gold"] == 9 and me(st)["goldw"] == 1
    add_resource(st, "p1", "stone", 9)
    run(st)
    assert me(st)["stone"] == 9 and me(st)["goldw"] == 2 and me(st)["tech"] == 1


def test_technology_draw_keeps_one_and_the_others_go_under_the_stack() -> None:
    st = new_game(3)
    st.d["p"]["p1"]["tech"] = 0
    from replay.games.praga.rules.effects import advance_technology

    advance_technology(st, "p1", 1)
    resume(st)
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.name == "technology_I" and req.count == 3
    st.apply_chance({"draw": "technology_I", "items": ["T1-4", "T1-2", "T1-6"]})
    assert decision(st)["tiles"] == ["T1-4", "T1-2", "T1-6"]
    play(st, m.KeepTechnology(tech="T1-2"))
    assert st.stacks["technology_I"].bottom == ["T1-4", "T1-6"]
    assert me(st)["techs"] == {"T1-2": 0}


def test_known_bottom_of_a_stack_is_drawn_without_chance() -> None:
    st = new_game(3)
    stack = st.stacks["technology_III"]
    for seen in ("T3-2", "T3-3", "T3-4", "T3-5", "T3-6"):  # every tile but T3-1 drawn before
        stack.pool.see(seen, "test")
    stack.hidden, stack.bottom = 1, ["T3-4", "T3-5"]
    st.d["p"]["p2"]["tech"] = 3
    from replay.games.praga.rules.effects import advance_technology

    advance_technology(st, "p2", 1)
    resume(st)
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.count == 1 and req.pool == (("T3-1", 1),)


def test_permanent_technology_works_from_the_next_turn() -> None:
    st = new_game(3)
    st.d["p"]["p1"]["techs"]["T1-6"] = st.d["turns"]
    manage(st, "mines")
    play(st, m.Manage(mode="expand"))
    assert st.d["p"]["p1"]["vp"]["technologies"] == 0
    st.d["turns"] += 3
    manage(st, "mines")
    play(st, m.Manage(mode="expand"))
    assert st.d["p"]["p1"]["vp"]["technologies"] == 2


def test_one_shot_t4_5_builds_two_gold_cheaper_without_upgrade_bonus() -> None:
    st = new_game(4)
    st.d["p"]["p1"].update(stored=["T4-5"], gold=0, stone=5)
    st.d["display"]["building"][0] = "BI-02"  # costs 2 gold + 1 stone
    run(st)
    play(st, m.UseTechnology(tech="T4-5"))
    assert decision(st)["kind"] == "pick_tile"
    play(st, m.PickTile(slot=0))
    south = [a for a in legal(st) if isinstance(a, m.PlaceTile)]
    assert south and all(st.d["city"]["built"].get(x.at) is None for x in south)
    play(st, south[0])
    assert me(st)["gold"] == 0 and me(st)["stone"] == 4
    assert me(st)["used_techs"] == ["T4-5"] and st.d["turn"]["performed"] == {}


def test_t3_2_university_and_overflow_points() -> None:
    st = new_game(3)
    st.d["p"]["p1"].update(stored=["T3-2"], uni=6)
    run(st)
    play(st, m.UseTechnology(tech="T3-2"))
    assert me(st)["uni"] == 8 and st.d["p"]["p1"]["vp"]["tracks"] == 4


def test_skip_only_when_no_tile_can_be_taken() -> None:
    st = new_game(3)
    st.d["p"]["p1"].update(gold=0, stone=0)
    actions.perform(st, "p1", "wall", bonus=False, source="technology")
    run(st)
    assert legal(st) == [m.SkipAction()]
    with pytest.raises(IllegalMove, match="cannot build wall WI-01: it costs 0 gold and 1 stone, p1 has 0 gold"):
        st.apply_move("p1", m.PickTile(slot=0))
    assert vp(st) == 0


def test_skip_refused_while_a_tile_of_the_row_can_be_taken() -> None:
    st = new_game(3)
    st.d["p"]["p1"].update(gold=9, stone=9)
    actions.perform(st, "p1", "wall", bonus=False, source="technology")
    run(st)
    before = st.state_hash()
    assert m.SkipAction() not in legal(st) and m.PickTile(slot=0) in legal(st)
    with pytest.raises(IllegalMove, match="p1 cannot skip the wall action: a tile of the row can be taken"):
        st.apply_move("p1", m.SkipAction())
    assert st.state_hash() == before


def test_technology_track_past_the_top_scores_two_per_step() -> None:
    from replay.games.praga.rules.effects import advance_technology

    st = new_game(3)
    me(st)["tech"] = 9
    advance_technology(st, "p1", 3)
    assert me(st)["tech"] == 10 and st.d["p"]["p1"]["vp"]["tracks"] == 4


def test_era_two_upgrade_moves_the_university_two() -> None:
    from replay.games.praga import geometry as g
    from replay.games.praga.components import BOARD, HEX_TILES

    st = new_game(3)
    tile = next(t for t, d in HEX_TILES.items() if d["type"] == "upgrade" and d["era"] == 2 and not d["special"])
    hex_ = g.action_hex(BOARD["action_hex_direction"][HEX_TILES[tile]["upgrades"]])
    me(st)["paid"]["edges"] = [g.edge_name(hex_, g.neighbour(hex_, d)) for d in range(6)]
    me(st)["paid"]["vertices"] = [g.vertex(hex_, c) for c in range(6)]
    st.d["display"]["upgrade"][0] = tile
    actions.perform(st, "p1", "upgrade", bonus=False, source="technology")
    run(st)
    play(st, m.PickTile(slot=0))
    play(st, m.RotateTile(rotation=0))
    assert me(st)["uni"] == 2
