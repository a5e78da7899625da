"""Free actions (7) and every technology effect (12)."""

from __future__ import annotations

import pytest
from praga_helpers import decision, legal, me, new_game, play, run

from replay.engine import ChanceRequest, IllegalMove
from replay.games.praga import moves as m
from replay.games.praga.rules import actions, grids
from replay.games.praga.rules.effects import gain


def test_extra_action_costs_two_gold_or_gold_and_silver_windows_once_per_turn() -> None:
    st = new_game(3)
    me(st).update(goldw=1, silver=1)
    run(st)
    assert m.ExtraAction(action="mines", pay="gold_silver") in legal(st)
    assert m.ExtraAction(action="mines", pay="two_gold") not in legal(st)
    play(st, m.ExtraAction(action="mines", pay="gold_silver"))
    play(st, m.Manage(mode="produce"))
    assert me(st)["gold"] == 5 and (me(st)["goldw"], me(st)["silver"]) == (0, 0)
    me(st).update(goldw=2)
    with pytest.raises(IllegalMove, match="already taken an extra action this turn"):
        st.apply_move("p1", m.ExtraAction(action="mines", pay="two_gold"))
    assert not st.d["turn"]["action_done"]


def test_swap_puts_two_tiles_under_their_stacks_and_refills_from_the_top() -> None:
    st = new_game(3)
    before = list(st.d["display"]["wall"])
    play(st, m.SwapTiles(row="wall"))
    assert len(legal(st)) == 12  # 6 pairs of slots, paid with gold or stone
    play(st, m.SwapSlots(slots=[0, 3], pay="stone"))
    assert me(st)["stone"] == 1
    assert st.stacks["wall_I"].bottom == [before[0]]
    assert st.stacks["wall_I_special"].bottom == [before[3]]
    assert st.d["display"]["wall"][0] not in (None, before[0]) and st.d["display"]["wall"][3] not in (None, before[3])
    with pytest.raises(IllegalMove, match="already swapped display tiles this turn"):
        st.apply_move("p1", m.SwapTiles(row="upgrade"))


def use(st, tech: str) -> None:  # type: ignore[no-untyped-def]
    me(st)["stored"] = [tech]
    me(st)["wealth"] = ["wealth6", "wealth9_gold", "wealth9_stone"]
    run(st)
    play(st, m.UseTechnology(tech=tech))


def test_t3_1_up_a_row_without_the_tier_fee() -> None:
    st = new_game(3)
    me(st).update(stone=0, hunger_wall={"row": 1, "col": 5})
    use(st, "T3-1")
    play(st, m.ChooseGrid(grid="hunger_wall"))
    assert me(st)["hunger_wall"] == {"row": 2, "col": 5} and me(st)["stone"] == 0


def test_t3_3_upgrade_action_and_three_vp() -> None:
    st = new_game(3)
    use(st, "T3-3")
    assert me(st)["vp"]["technologies"] == 3 and decision(st) == {**decision(st), "kind": "pick_tile",
                                                                   "row": "upgrade"}


@pytest.mark.parametrize(("tech", "res", "other"), [("T3-4", "gold", "stone"), ("T3-5", "stone", "gold")])
def test_t3_4_t3_5_produce_with_track_bonuses_and_two_of_the_other(tech: str, res: str, other: str) -> None:
    st = new_game(3)
    use(st, tech)
    produced = 3 if res == "gold" else 2
    assert me(st)[res] == 2 + produced and me(st)[other] == 4


def test_t3_6_egg_then_kings_road_even_onto_the_bridge() -> None:
    st = new_game(3)
    me(st).update(road=3, eggs=0)
    me(st)["stored"] = ["T3-6"]
    run(st)
    play(st, m.UseTechnology(tech="T3-6"))
    assert me(st)["road"] == 4 and me(st)["eggs"] == 0 and decision(st)["kind"] == "keep_bridge_tile"


def test_t4_2_upgrade_without_bonus_and_a_gold_window() -> None:
    st = new_game(3)
    use(st, "T4-2")
    assert me(st)["goldw"] == 1 and decision(st)["kind"] == "pick_tile" and st.d["turn"]["performed"] == {}


def test_t4_3_any_action_t4_4_wall_two_stone_cheaper() -> None:
    st = new_game(3)
    use(st, "T4-3")
    assert decision(st)["kind"] == "choose_action" and decision(st)["options"] == [
        "mines", "quarries", "upgrade", "wall", "building", "kings_road"] and not decision(st)["bonus"]
    st = new_game(3)
    st.d["display"]["wall"][0] = "WI-02"  # 2 stone
    me(st).update(stone=0)
    use(st, "T4-4")
    assert m.PickTile(slot=0) in legal(st)


def test_t4_6_advance_then_produce_independently() -> None:
    st = new_game(3)
    use(st, "T4-6")
    play(st, m.ChooseTrack(track="quarries"))
    assert me(st)["quarries"] == 4 and decision(st)["purpose"] == "produce"
    play(st, m.ChooseTrack(track="mines"))
    assert me(st)["gold"] == 5 and me(st)["stone"] == 2


@pytest.mark.parametrize(("tech", "atoms", "vp", "res"), [
    ("T1-3", [], 0, {}),
    ("T2-2", [{"token": "blue"}], 1, {"stone": 3}),
    ("T2-4", [{"egg": 2}], 2, {"stone": 4}),
    ("T2-5", [{"token": "red"}], 1, {"gold": 3}),
])
def test_permanent_technologies_on_gains(tech: str, atoms: list[dict[str, object]], vp: int,
                                         res: dict[str, int]) -> None:
    st = new_game(3)
    me(st)["techs"][tech] = -1
    gain(st, "p1", atoms, "walls")
    run(st)
    assert me(st)["vp"]["technologies"] == vp
    for k, v in res.items():
        assert me(st)[k] == v


@pytest.mark.parametrize("tech", ["T1-3", "T1-4"])
def test_t1_3_t1_4_inner_bonus_resources(tech: str) -> None:
    st = new_game(3)
    me(st)["techs"][tech] = -1
    gain(st, "p1", [{"stone": 1}, {"gold": 1}], "crane", "crane_inner")
    run(st)
    res = "stone" if tech == "T1-3" else "gold"
    assert me(st)[res] == 4 and me(st)["vp"]["technologies"] == 1


@pytest.mark.parametrize(("tech", "icon"), [("T2-1", "hunger_wall"), ("T2-6", "cathedral"), ("T2-3", None)])
def test_level_two_tile_icon_technologies(tech: str, icon: str | None) -> None:
    from replay.games.praga.components import HEX_TILES

    st = new_game(4)
    me(st)["techs"][tech] = -1
    me(st)["wealth"] = ["wealth6", "wealth9_gold", "wealth9_stone"]
    kind = "wall" if tech == "T2-1" else "building"
    tile = next(t for t, d in HEX_TILES.items() if d["type"] == kind and d["era"] == 1 and not d["special"]
                and ((icon in d["icons"]) if icon else "cathedral" not in d["icons"])
                and not any("choice" in a for a in d["reward"]))
    st.d["display"][kind][0] = tile
    me(st).update(gold=9, stone=9)
    actions.perform(st, "p1", kind, bonus=False, source="technology")
    run(st)
    play(st, m.PickTile(slot=0))
    play(st, legal(st)[-1])
    if decision(st)["kind"] == "rotate":
        play(st, m.RotateTile(rotation=0))
    assert me(st)["vp"]["technologies"] == 1


def test_climb_into_tier_two_pays_the_fee() -> None:
    st = new_game(3)
    me(st).update(silver=2, gold=2, cathedral={"row": 1, "col": 0})
    assert grids.can_climb(st, "p1", "cathedral") is None
    me(st)["gold"] = 1
    assert "costs 2 gold and 0 stone, p1 has 1 gold" in str(grids.can_climb(st, "p1", "cathedral"))
    assert not isinstance(st.turn(), ChanceRequest)
