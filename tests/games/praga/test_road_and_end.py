"""King's Road and the Charles Bridge (6.6), end of turn (8), era change, game end and final scoring (11)."""

from __future__ import annotations

import pytest
from praga_helpers import decision, legal, me, new_game, play, resume, run, settle

from replay.engine import OVER, ChanceRequest, IllegalMove
from replay.games.praga import GAME, PragaState
from replay.games.praga import moves as m
from replay.games.praga.components import HEX_TILES, PLAZA_TILES, PLAZAS, ROUNDS
from replay.games.praga.rules import actions
from replay.games.praga.scoring import final_points, ranking
from replay.record import ChanceEvent, MoveEvent
from replay.simulate import simulate_one


def road(st, player: str = "p1") -> None:  # type: ignore[no-untyped-def]
    actions.perform(st, player, "kings_road", bonus=False, source="technology")
    run(st)


def test_space_i_official_free_effect_then_optional_egg_effect() -> None:
    st = new_game(3)
    me(st)["eggs"] = 1
    road(st)
    assert decision(st)["kind"] == "reward"  # 2 gold or 2 stone
    play(st, m.ChooseReward(option=0))
    assert me(st)["gold"] == 4 and decision(st)["kind"] == "road_egg"
    play(st, m.RoadEgg(pay=True))
    play(st, m.ChooseReward(option=1))  # quarry +1
    assert me(st)["quarries"] == 4 and me(st)["eggs"] == 0


def test_space_i_bga_either_the_egg_effect_or_the_free_one() -> None:
    st = new_game(3, "bga")
    me(st)["eggs"] = 1
    road(st)
    assert decision(st)["kind"] == "road_egg"
    play(st, m.RoadEgg(pay=True))
    play(st, m.ChooseReward(option=0))  # gold mine +1, and no 2 gold
    assert me(st)["mines"] == 5 and me(st)["gold"] == 2 and me(st)["eggs"] == 0
    assert [d["rule"] for d in st.departures] == ["street_space_egg"]


@pytest.mark.parametrize("ruleset, pay", [("bga", False), ("official", True), ("official", False)])
def test_a_street_space_departs_only_when_bga_takes_the_egg_effect_instead(ruleset: str, pay: bool) -> None:
    """Declining the egg, BGA gives the free effect as the rulebook does; the rulebook departs nowhere."""
    st = new_game(3, ruleset)
    me(st)["eggs"] = 1
    road(st)
    if ruleset == "official":
        play(st, m.ChooseReward(option=0))
    play(st, m.RoadEgg(pay=pay))
    assert st.departures == []


def test_space_iii_scores_three_per_era_one_upgrade() -> None:
    st = new_game(3)
    me(st)["road"] = 2
    me(st)["upgrades"]["wall"] = [["UI-01", 0], ["UI-02", 0]]
    road(st)
    assert me(st)["vp"]["kings_road"] == 6


def test_bridge_needs_an_egg_and_iv_draws_three_silver_tiles() -> None:
    st = new_game(3)
    me(st)["road"] = 3
    assert not actions.performable(st, "p1", "kings_road")
    me(st)["eggs"] = 1
    actions.perform(st, "p1", "kings_road", bonus=False, source="technology")
    resume(st)
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.name == "bridge_IV" and req.count == 3
    st.apply_chance({"draw": "bridge_IV", "items": ["IV-2", "IV-5", "IV-1"]})
    assert me(st)["eggs"] == 0 and decision(st)["kind"] == "keep_bridge_tile"
    with pytest.raises(IllegalMove, match="drew IV-1, IV-2, IV-5; 'IV-3' is not among them"):
        st.apply_move("p1", m.KeepBridgeTile(tile="IV-3"))
    play(st, m.KeepBridgeTile(tile="IV-1"))
    assert st.stacks["bridge_IV"].bottom == ["IV-2", "IV-5"]
    play(st, m.PlacePlank(plank="k4"))  # 3 VP under it + the tile's 3 VP
    assert me(st)["vp"]["kings_road"] == 6 and st.d["bridge"]["planks"]["k4"] == "IV-1"


def test_space_v_takes_a_gold_tile_and_the_road_then_closes() -> None:
    st = new_game(3)
    me(st).update(road=4, eggs=1)
    road(st)
    assert len(me(st)["gold_tiles"]) == 1 and me(st)["road"] == 5
    assert decision(st)["kind"] == "plank"
    play(st, legal(st)[0])
    assert not actions.performable(st, "p1", "kings_road")


def test_windows_are_discarded_down_to_two_at_end_of_turn() -> None:
    st = new_game(3)
    play(st, m.TakeTile(position=4))
    while decision(st)["kind"] != "turn":
        play(st, legal(st)[-1])
    me(st).update(silver=2, goldw=2)
    play(st, m.EndTurn())
    assert decision(st)["kind"] == "discard_window" and decision(st)["player"] == "p1"
    play(st, m.DiscardWindow(window="gold"))
    play(st, m.DiscardWindow(window="gold"))
    assert (me(st)["silver"], me(st)["goldw"]) == (2, 0) and st.turn() == "p2"


def finish_turn(st) -> None:  # type: ignore[no-untyped-def]
    """Play the player to move through one turn with the first legal choices (no free actions)."""
    player = st.turn()
    play(st, next(x for x in legal(st) if isinstance(x, m.TakeTile)))
    while st.turn() == player and decision(st)["kind"] != "turn":
        play(st, legal(st)[0])
    if st.turn() == player:
        play(st, m.EndTurn())
    while st.turn() == player:
        play(st, legal(st)[0])


@pytest.mark.parametrize(("n", "after"), [(2, 16), (3, 26), (4, 31)])
def test_era_change_after_its_turn_and_game_end_after_sixteen_rounds(n: int, after: int) -> None:
    st = new_game(n)
    while st.d["era"] == 1:
        finish_turn(st)
    era = [x for x in st.milestones if x["type"] == "era_change"]
    assert [x["turn"] for x in era] == [after]
    assert all(t is None or t.startswith(("UII", "WII", "BII")) for row in st.d["display"].values() for t in row)
    assert len(st.stacks["wall_I"]) == 0
    while st.turn() is not OVER:
        finish_turn(st)
    assert st.d["turns"] == 16 * n
    assert [x["player_id"] for x in st.milestones if x["type"] == "final_scoring"] == st.players


def test_final_scoring_tables() -> None:
    st = new_game(3)
    p = me(st)
    p.update(uni=5, tech=7, eggs=3, gold=8, stone=5, seals=["gold_seal", "pair_seal"], gold_tiles=["V-6"])
    p["walls"] = {w: ["WI-01", 0] for w in ["-2,0", "-2,1", "-2,2", "-1,-1"]}
    p["hunger_wall"] = {"row": 4, "col": 2}
    p["cathedral"] = {"row": 2, "col": 4}
    p["tokens"] = {"blue": 2, "red": 1}
    pts = final_points(st, "p1")
    assert pts == {"university_technology": 14, "hunger_wall": 22, "cathedral": 8, "blue_tokens": 6,
                   "red_tokens": 4, "wall_ring": 10, "seals": 16 + 15, "gold_bridge_tiles": 8, "eggs": 6}


def test_university_multiplier_steps() -> None:
    st = new_game(2)
    for uni, mult in [(0, 0), (2, 0), (3, 1), (4, 1), (5, 2), (7, 2), (8, 3)]:
        me(st).update(uni=uni, tech=4)
        assert final_points(st, "p1")["university_technology"] == 4 * mult


def test_tie_goes_to_the_player_later_in_turn_order() -> None:
    st = new_game(3)
    for p in st.players:
        st.d["p"][p]["vp"]["crane"] = 10
    st._score = None
    assert ranking(st) == {"p1": 3, "p2": 2, "p3": 1}
    st.d["p"]["p1"]["vp"]["crane"] = 11
    st._score = None
    assert ranking(st) == {"p1": 1, "p2": 3, "p3": 2}


def test_settle_leaves_no_chance_pending() -> None:
    st = new_game(2)
    assert not settle(st)


def last_turn_with_a_cube_at(plaza: str, tile: str, owner: str) -> PragaState:
    """A 3-player game at its very last turn (p3's): ``owner`` has a cube on one building around
    ``plaza``, which shows plaza tile ``tile`` and is not completed."""
    st = new_game(3)
    st.d["city"]["plaza_tiles"][plaza] = tile
    space = next(b for b in PLAZAS[plaza]["spaces"] if b not in st.d["city"]["built"])
    building = next(t for t, d in HEX_TILES.items() if d["type"] == "building" and "cube_space" in d["icons"])
    st.d["city"]["built"][space] = {"tile": building, "rot": 0, "owner": owner, "paid": 2}
    st.d["turns"] = ROUNDS * 3 - 1
    resume(st)
    assert st.turn() == "p3"
    return st


def final_total(st: PragaState, player: str) -> int:
    total: int = next(x["total"] for x in st.milestones if x["type"] == "final_scoring" and x["player_id"] == player)
    return total


def test_an_uncompleted_plaza_gives_its_lower_reward_before_the_final_scoring() -> None:
    """11: after round 16 the uncompleted plazas are resolved (9.2), then the final scoring adds up."""
    st = last_turn_with_a_cube_at("P08", "PT05", "p2")  # PT05's lower reward: 3 VP
    assert PLAZA_TILES["PT05"]["lower"] == [{"vp": 3}]
    finish_turn(st)
    assert st.turn() is OVER
    assert [(x["plaza"], x["player_id"]) for x in st.milestones if x["type"] == "plaza_lower_reward"] == [("P08", "p2")]
    assert me(st, "p2")["vp"]["plazas"] == 3 and st.score()["p2"]["plazas"] == 3
    assert final_total(st, "p2") == sum(st.score()["p2"].values()) == st.totals()["p2"]
    snap = st.snapshot()
    assert snap["pending_steps"] == [] and snap["decision"] is None and snap["chance"] is None


def test_a_lower_reward_that_asks_a_decision_is_decided_before_the_final_scoring() -> None:
    """PT04's lower reward, 1 stone, takes p2's dial to 6: the book cube, a technology step, three
    technologies drawn and one kept, all before the game is over; the step counts in the final scoring."""
    st = last_turn_with_a_cube_at("P04", "PT04", "p2")
    assert PLAZA_TILES["PT04"]["lower"] == [{"stone": 1}]
    me(st, "p2").update(gold=0, stone=5, tech=0, uni=3, wealth=[])
    finish_turn(st)
    assert st.turn() == "p2" and decision(st)["kind"] == "keep_technology"
    assert not [x for x in st.milestones if x["type"] == "final_scoring"]
    play(st, legal(st)[0])
    assert st.turn() is OVER
    assert me(st, "p2")["stone"] == 6 and me(st, "p2")["tech"] == 1 and "wealth6" in me(st, "p2")["wealth"]
    assert me(st, "p2")["final"]["university_technology"] == 1  # University 3: x1, one step
    assert st.snapshot()["pending_steps"] == []


@pytest.mark.parametrize("n", [2, 3, 4])
def test_nothing_is_pending_once_a_simulated_game_is_over(n: int) -> None:
    lower = 0
    for index in range(2):
        rec = simulate_one(GAME, n, 5, index)
        st = GAME.initial_state(rec.player_ids, rec.options)
        for ev in rec.events:
            if isinstance(ev, MoveEvent):
                st.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                st.apply_chance(ev.outcome)
        assert st.turn() is OVER
        snap = st.snapshot()
        assert (snap["pending_steps"], snap["decision"], snap["chance"]) == ([], None, None)
        lower += sum(1 for x in st.milestones if x["type"] == "plaza_lower_reward")
    assert lower, "no simulated game had an uncompleted plaza with a cube: the check above proves nothing"
