"""Hunger Wall and Cathedral (9.1), walls and upgrades with their contacts (6.3, 6.4, 10), buildings and
plazas (6.5, 9.2)."""

from __future__ import annotations

from typing import Any

import pytest
from praga_helpers import decision, legal, me, new_game, play, resume, run, settle

from replay.engine import ChanceRequest, IllegalMove
from replay.games.praga import moves as m
from replay.games.praga.components import HEX_TILES, PLAZAS
from replay.games.praga.rules import actions, grids, plazas
from replay.games.praga.rules.effects import gain
from replay.games.praga.tasks import push


def test_hunger_wall_moves_left_and_scores_the_space() -> None:
    st = new_game(3)
    grids.move_sideways(st, "p1", "hunger_wall", 1)  # col 5 -> 4 (arrow up) -> row 2 col 4 (1 VP)
    assert me(st)["hunger_wall"] == {"row": 1, "col": 4} and st.d["p"]["p1"]["vp"]["shared_tracks"] == 1


def test_arrow_into_a_higher_tier_needs_the_fee_else_the_marker_stays() -> None:
    st = new_game(3)
    st.d["p"]["p1"].update(stone=1, hunger_wall={"row": 1, "col": 2})
    grids.move_sideways(st, "p1", "hunger_wall", 1)  # col 1 of row 2 is an up arrow into tier II: 2 stone
    assert me(st)["hunger_wall"] == {"row": 1, "col": 1} and me(st)["stone"] == 1
    st.d["p"]["p1"].update(stone=2, hunger_wall={"row": 1, "col": 2})
    grids.move_sideways(st, "p1", "hunger_wall", 1)
    # up into tier II (2 stone), then row 3's arrow again (same tier, free) to row 4: 3 VP
    assert me(st)["hunger_wall"] == {"row": 3, "col": 1} and me(st)["stone"] == 0
    assert st.d["p"]["p1"]["vp"]["shared_tracks"] == 3


def test_climb_costs_two_silver_windows_and_t1_2_pays_per_space() -> None:
    st = new_game(3)
    st.d["p"]["p1"].update(silver=1)
    run(st)
    with pytest.raises(IllegalMove, match="climbing costs 2 silver windows, p1 has 1"):
        st.apply_move("p1", m.Climb(grid="cathedral"))
    st.d["p"]["p1"].update(silver=2)
    st.d["p"]["p1"]["techs"]["T1-2"] = -1
    run(st)
    play(st, m.Climb(grid="cathedral"))  # row 2 col 0: empty space
    assert me(st)["cathedral"] == {"row": 1, "col": 0} and me(st)["silver"] == 0
    assert st.d["p"]["p1"]["vp"]["technologies"] == 2


def test_reaching_the_cathedral_top_tier_takes_a_gold_bridge_tile() -> None:
    st = new_game(3)
    st.d["p"]["p1"].update(gold=3, cathedral={"row": 3, "col": 0})
    grids.move_up(st, "p1", "cathedral", pay_fee=True)
    resume(st)
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.name == "bridge_V" and req.count == 1
    st.apply_chance({"draw": "bridge_V", "items": ["V-6"]})
    assert me(st)["gold_tiles"] == ["V-6"] and me(st)["gold"] == 0
    assert st.milestones[-1]["type"] == "cathedral_top"


def wall_with(edges: list[str | None]) -> str:
    return next(t for t, d in HEX_TILES.items() if d["type"] == "wall" and d["edges"] == edges)


def test_wall_edge_contact_gives_both_bonuses_once() -> None:
    st = new_game(3)
    # the wall action hex sits at direction 3 ("-1,0"); its printed edge 2 shows stone.
    # A wall at "-1,-1" touches it with its edge 5 (direction 5 points from "-1,-1" to "-1,0").
    tile = next(t for t, d in HEX_TILES.items() if d["type"] == "wall" and d["edges"][5] is not None
                and not d["reward"][0].get("choice"))
    st.d["display"]["wall"][0] = tile
    st.d["p"]["p1"].update(gold=5, stone=5, wealth=["wealth6"])
    symbol = HEX_TILES[tile]["edges"][5]
    decide_wall(st)
    play(st, m.PickTile(slot=0))
    while decision(st)["kind"] == "reward":
        play(st, m.ChooseReward(option=0))
    play(st, m.PlaceTile(at="-1,-1"))
    before = dict(me(st)["vp"]), me(st)["stone"]
    play(st, m.RotateTile(rotation=0))
    assert "-1,-1/-1,0" in me(st)["paid"]["edges"]
    assert me(st)["stone"] == min(9, before[1] + 1 + (symbol == "stone"))
    assert me(st)["walls"]["-1,-1"] == [tile, 0]


def decide_wall(st) -> None:  # type: ignore[no-untyped-def]
    actions.perform(st, "p1", "wall", bonus=False, source="technology")
    run(st)


def test_corner_colours_matching_give_a_bonus_token() -> None:
    st = new_game(3)
    from replay.games.praga.rules import placement

    # printed: the wall action hex "-1,0" has a blue corner 3, the vertex it shares with "-2,0" and "-2,1";
    # a wall at "-2,1" turned so that its printed blue corner 1 lies on that vertex matches it
    tile = next(t for t, d in HEX_TILES.items() if d["type"] == "wall" and d["corners"][1] == "blue"
                and all(e is None for e in d["edges"][:2]))
    from replay.games.praga import geometry as g

    v = g.vertex("-1,0", 3)
    assert "-2,1" in v.split("|")
    corner = g.corner_at("-2,1", v)
    rot = (corner - 1) % 6
    me(st)["walls"]["-2,1"] = [tile, rot]
    placement.place_on_board(st, "p1", "-2,1", tile, rot, "walls")
    run(st)
    assert me(st)["tokens"]["blue"] >= 1 and v in me(st)["paid"]["vertices"]


def test_upgrade_moves_the_university_and_pays_for_an_earlier_performance() -> None:
    st = new_game(3)
    tile = next(t for t, d in HEX_TILES.items() if d["type"] == "upgrade" and d["era"] == 1
                and d["upgrades"] == "mines" and not d["special"])
    st.d["display"]["upgrade"][0] = tile
    st.d["turn"]["performed"]["mines"] = 1
    from replay.games.praga import geometry as g

    hex_ = g.action_hex(0)  # mines; its contacts marked as already paid, to see the bonus alone
    me(st)["paid"]["edges"] = [g.edge_name(hex_, g.neighbour(hex_, d)) for d in range(6)]
    me(st)["paid"]["vertices"] = [g.vertex(hex_, c) for c in range(6)]
    actions.perform(st, "p1", "upgrade", bonus=False, source="technology")
    run(st)
    play(st, m.PickTile(slot=0))
    gold = me(st)["gold"]
    play(st, m.RotateTile(rotation=3))
    assert me(st)["uni"] == 1 and me(st)["upgrades"]["mines"] == [[tile, 3]]
    assert me(st)["gold"] == gold + 1  # the retroactive mines bonus (1 gold)


def _mines_upgraded_twice_this_turn(ruleset: str) -> tuple[Any, str, str]:
    """Mines upgraded twice this turn (UI-06, 1 gold, covered by an era-II tile), then produced."""
    st = new_game(3, ruleset)
    old = "UI-06"
    new = next(t for t, d in HEX_TILES.items() if d["upgrades"] == "mines" and d["era"] == 2 and not d["special"])
    me(st)["upgrades"]["mines"] = [[old, 0], [new, 0]]
    me(st)["wealth"] = ["wealth6", "wealth9_gold"]
    st.d["turn"]["turn_upgrades"]["mines"] = [old, new]
    actions.perform(st, "p1", "mines", bonus=True, source="extra")
    run(st)
    play(st, m.Manage(mode="produce"))
    return st, old, new


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_second_upgrade_in_a_turn_official_top_only_bga_either(ruleset: str) -> None:
    st, old, new = _mines_upgraded_twice_this_turn(ruleset)
    if ruleset == "bga":
        assert decision(st)["kind"] == "upgrade_bonus"
        assert legal(st) == [m.ChooseUpgradeBonus(tile=old), m.ChooseUpgradeBonus(tile=new)]
        play(st, m.ChooseUpgradeBonus(tile=old))
    assert decision(st)["kind"] == "turn"
    # the covered tile's bonus differs from the top tile's: BGA's amendment changed the bonus
    assert [d["rule"] for d in st.departures] == (["upgrade_bonus_this_turn"] if ruleset == "bga" else [])


def test_the_top_tiles_bonus_chosen_under_bga_departs_nowhere() -> None:
    st, _, new = _mines_upgraded_twice_this_turn("bga")
    play(st, m.ChooseUpgradeBonus(tile=new))
    assert st.departures == []


def build(st, tile: str, space: str, player: str = "p1") -> None:  # type: ignore[no-untyped-def]
    st.d["display"]["building"][0] = tile
    st.d["p"][player].update(gold=9, stone=9)
    actions.perform(st, player, "building", bonus=False, source="technology")
    resume(st)
    assert decision(st)["player"] == player
    st.d["p"][player]["wealth"] = ["wealth6", "wealth9_gold", "wealth9_stone"]
    st.apply_move(player, m.PickTile(slot=0))
    st.apply_move(player, m.PlaceTile(at=space))
    settle(st)
    while decision(st)["kind"] != "rotate":
        st.apply_move(player, legal(st)[0])
        settle(st)
    st.apply_move(player, m.RotateTile(rotation=0))
    settle(st)


def cube_building(n: int) -> list[str]:
    return [t for t, d in HEX_TILES.items() if d["type"] == "building" and d["era"] == 1 and not d["special"]
            and "cube_space" in d["icons"]][:n]


def test_northern_space_costs_extra_gold_and_pays_its_vp() -> None:
    st = new_game(4)
    tile = "BI-01"  # 1 gold; reward 2 VP; a cube space
    north = next(b for b in actions.free_spaces(st) if actions.SPACES[b]["extra_cost"]["gold"])
    build(st, tile, north)
    assert me(st)["gold"] == 9 - 1 - 1 and me(st)["stone"] == 9
    assert st.d["city"]["built"][north]["owner"] == "p1" and me(st)["cubes"] == 1
    assert me(st)["vp"]["buildings"] == 2 + 2  # the tile's reward and the northern space's VP


def test_plaza_completion_majority_takes_both_others_choose_one() -> None:
    st = new_game(4)
    plaza = "P01"
    spaces = PLAZAS[plaza]["spaces"]
    tiles = cube_building(4)
    for b, t, who in zip(spaces[:2], tiles, ["p1", "p2"]):
        st.d["city"]["built"][b] = {"tile": t, "rot": 0, "owner": who, "paid": 3}
    me(st, "p1")["cubes"] = 1
    assert plazas.majority(st, plaza) == ["p1", "p2"]
    tile = st.d["city"]["plaza_tiles"][plaza]
    build(st, tiles[3], spaces[2], "p1")
    assert plaza in st.d["city"]["completed"]
    assert decision(st)["player"] == "p2" and decision(st)["kind"] == "reward"
    kinds = [(x["player_id"], x["both_rewards"]) for x in st.milestones if x["type"] == "plaza_completed"]
    assert kinds == [("p1", True), ("p2", False)]
    assert tile


def test_plaza_tie_goes_to_who_paid_more_then_all_tied() -> None:
    st = new_game(4)
    spaces = PLAZAS["P02"]["spaces"]
    tiles = cube_building(4)
    for b, t, who, paid in zip(spaces, tiles, ["p1", None, "p2"], [4, 0, 5]):
        st.d["city"]["built"][b] = {"tile": t, "rot": 0, "owner": who, "paid": paid}
    assert plazas.majority(st, "P02") == ["p2"]
    st.d["city"]["built"][spaces[2]]["paid"] = 4
    assert plazas.majority(st, "P02") == ["p1", "p2"]


def test_building_without_cube_space_scores_the_buildings_around_its_plaza() -> None:
    st = new_game(4)
    tile = "BI-03"  # no cube space; reward 1 egg
    spaces = PLAZAS["P03"]["spaces"]
    st.d["city"]["built"][spaces[0]] = {"tile": cube_building(1)[0], "rot": 0, "owner": "p2", "paid": 2}
    south = spaces[1]
    before = me(st)["vp"]["buildings"]
    build(st, tile, south)
    assert plazas.buildings_around(st, south) == 2
    extra = sum(a.get("vp", 0) for a in actions.SPACES[south]["extra_reward"])
    assert me(st)["vp"]["buildings"] - before == 2 + extra and me(st)["eggs"] == 1
    assert st.d["city"]["built"][south]["owner"] is None


def test_game_end_lower_reward_to_every_player_with_a_cube() -> None:
    st = new_game(3)
    spaces = PLAZAS["P06"]["spaces"]
    st.d["city"]["plaza_tiles"]["P06"] = "PT05"  # lower reward: 3 VP
    tiles = cube_building(2)
    for b, t, who in zip(spaces[:2], tiles, ["p3", "p1"]):
        st.d["city"]["built"][b] = {"tile": t, "rot": 0, "owner": who, "paid": 2}
    push(st, *plazas.lower_rewards(st))
    resume(st)
    lower = [x for x in st.milestones if x["type"] == "plaza_lower_reward"]
    assert [(x["plaza"], x["player_id"]) for x in lower] == [("P06", "p1"), ("P06", "p3")]
    assert [st.d["p"][p]["vp"]["plazas"] for p in st.players] == [3, 0, 3]


def test_t4_1_both_rewards_of_any_plaza() -> None:
    st = new_game(3)
    st.d["p"]["p1"]["stored"] = ["T4-1"]
    run(st)
    twin = st.copy()
    play(st, m.UseTechnology(tech="T4-1"))
    assert decision(st)["kind"] == "plaza"
    plaza = decision(st)["options"][0]
    tile = st.d["city"]["plaza_tiles"][plaza]
    from replay.games.praga.components import PLAZA_TILES

    atoms = [a for o in PLAZA_TILES[tile]["upper"] for a in o]
    gain(twin, "p1", atoms, "plazas")
    run(twin)
    play(st, m.ChoosePlaza(plaza=plaza))
    assert me(st)["vp"] == me(twin)["vp"]
