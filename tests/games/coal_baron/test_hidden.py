"""Coal Baron seen from one seat: face-down factory tiles, private draw-five reveals, cards put
back unnamed, reveals on the board's spaces, and the shift-ranking / final-scoring observables."""

from __future__ import annotations

import pytest
from coal_baron_helpers import PIDS, TILE_SLOTS, draw, fresh, place, play

from replay.engine import ChanceRequest, IllegalMove, ImpossibleChance
from replay.games import get_game
from replay.games.coal_baron.moves import DraftOrder, KeepOrder, KeepTile, ReturnOrders, ReturnTiles
from replay.games.coal_baron.state import CoalBaronState
from replay.record import ChanceEvent, MoveEvent, dumps, loads
from replay.replayer import replay
from replay.simulate import simulate_one


def unknown_setup(n: int = 2) -> CoalBaronState:
    """A setup as a BGA log shows it: the factory tiles unknown, the draft and the board known."""
    st = fresh(n, "bga")
    draw(st, "tiles", [None] * TILE_SLOTS[n])  # type: ignore[list-item]
    draw(st, "orders", [f"o{i}" for i in range(1, 3 * n + 2)])
    while st.decision == "draft":
        play(st, DraftOrder(card=st.draft_pool[0] or ""))
    draw(st, "orders", [f"o{40 - i}" for i in range(2 if n == 2 else 3)])
    return st


def test_factory_tiles_dealt_face_down_show_as_null_and_cannot_be_bought_unnamed() -> None:
    st = unknown_setup()
    snap = st.snapshot()["board"]
    assert snap["factory"]["factory_1"] is None and snap["face_down"] == [
        "factory_1", "factory_2", "factory_3", "factory_5", "factory_6", "factory_7"]
    assert not any(getattr(m, "space", "").startswith("factory_") and m.space != "factory_draw"  # type: ignore[attr-defined]
                   for m in st.legal_moves())
    with pytest.raises(IllegalMove, match="factory_3: the tile lying there is not known to this record"):
        place(st, "factory_3")


def test_a_reveal_names_a_face_down_tile_which_can_then_be_bought() -> None:
    st = unknown_setup()
    st.apply_chance({"reveal": "factory_3", "items": ["t33"]})
    assert st.factory["factory_3"] == "t33" and "face_down" in st.snapshot()["board"]
    place(st, "factory_3")
    assert st.pits["p1"].light[1] == ["t33"] and st.pits["p1"].francs == 8
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.visible_to is None and "t33" not in dict(req.pool)


@pytest.mark.parametrize("zone, items, why", [
    ("factory_4", ["t1"], "names a usable factory or order space"),   # covered with 2 players
    ("deck", ["t1"], "names a usable factory or order space"),
    ("factory_1", ["t1", "t2"], "holds one tunnel tile"),
    ("factory_1", ["o5"], "the tiles cards have no 'o5'"),
    ("order_2", ["o40"], None),                                      # already known there: consistent
    ("order_2", ["o12"], "o40 lies there, not o12"),
])
def test_reveals_are_checked(zone: str, items: list[str], why: str | None) -> None:
    st = unknown_setup()
    if why is None:
        st.apply_chance({"reveal": zone, "items": items})
        return
    with pytest.raises(ImpossibleChance, match=why):
        st.apply_chance({"reveal": zone, "items": items})


def test_a_tile_cannot_be_revealed_twice() -> None:
    st = unknown_setup()
    st.apply_chance({"reveal": "factory_1", "items": ["t9"]})
    with pytest.raises(ImpossibleChance, match="factory_2: 't9' cannot be there"):
        st.apply_chance({"reveal": "factory_2", "items": ["t9"]})


def test_a_private_draw_five_binds_the_kept_tile_and_puts_the_rest_back_unnamed() -> None:
    st = unknown_setup()
    place(st, "factory_draw")
    req = st.turn()
    assert isinstance(req, ChanceRequest) and req.count == 5 and req.visible_to == ("p1",)
    draw(st, "tiles", [None] * 5)  # type: ignore[list-item]
    assert st.revealed == [None] * 5
    # p1 has 10 francs and no tile is known anywhere (the factory's are face down): any of the 48
    assert len([m for m in st.legal_moves() if isinstance(m, KeepTile)]) == 1 + 48
    play(st, KeepTile(tile="t22"))
    assert st.pits["p1"].dark[3] == ["t22"] and st.pits["p1"].francs == 2
    with pytest.raises(IllegalMove, match="must put back exactly the tiles not taken"):
        play(st, ReturnTiles(to="top", tiles=(None, None, None)))
    play(st, ReturnTiles(to="top", tiles=(None, None, None, None)))
    assert st.tiles.top == [None] * 4 and st.turn() == "p2"
    # p2 buys order o39: no refill of the factory; then a refill takes the unknown top tile
    st.apply_chance({"reveal": "factory_1", "items": ["t2"]})
    place(st, "factory_1")                      # p2 buys t2; factory_1 is refilled from the top
    assert st.factory["factory_1"] == "?" and st.turn() == "p1"
    st.apply_chance({"reveal": "factory_1", "items": ["t4"]})
    assert st.factory["factory_1"] == "t4" and st.tiles.top == [None] * 3
    with pytest.raises(ImpossibleChance, match="'t22' cannot be there"):
        st.apply_chance({"reveal": "factory_2", "items": ["t22"]})


def test_a_named_return_binds_unknown_items_and_a_known_one_returned_unnamed_is_forgotten() -> None:
    st = unknown_setup()
    place(st, "order_draw")
    draw(st, "orders", [None, None, "o30", None, None])  # type: ignore[list-item]
    play(st, KeepOrder(card="o20"))
    assert st.order_pool.could_be("o20") is False
    with pytest.raises(IllegalMove, match=r"\(\?, o30, \?, \?\), not o20"):
        play(st, ReturnOrders(to="bottom", cards=("o20", None, None, None)))
    play(st, ReturnOrders(to="bottom", cards=("o21", None, None, None)))
    assert st.orders.bottom == ["o21", None, None, None]
    assert not st.order_pool.could_be("o21") and st.order_pool.could_be("o30")   # o30 went back unnamed


def test_others_see_a_draw_five_return_only_as_a_count() -> None:
    st = unknown_setup()
    move = ReturnTiles(to="bottom", tiles=("t1", "t2"))
    assert st.redact_move("p1", move, "p2") == ReturnTiles(to="bottom", tiles=(None, None))
    assert st.redact_move("p1", move, "p1") is move
    keep = KeepTile(tile="t1")
    assert st.redact_move("p1", keep, "p2") is keep


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_view_replays_complete(players: int) -> None:
    game = get_game("coal_baron")
    kinds = {"reveal": 0, "null": 0, "unnamed": 0}
    for index in range(4):
        full = simulate_one(game, players, 3, index)
        for seat in PIDS[:players]:
            seen = simulate_one(game, players, 3, index, view=seat)
            r = replay(loads(dumps(seen)))
            assert r.status == "complete", (index, seat, r.divergences[:2])
            assert r.totals == replay(full).totals
            for ev in seen.events:
                if isinstance(ev, ChanceEvent):
                    kinds["reveal"] += "reveal" in ev.outcome
                    kinds["null"] += None in ev.outcome.get("items", [])
                elif isinstance(ev, MoveEvent) and isinstance(ev.move, (ReturnTiles, ReturnOrders)):
                    returned = ev.move.tiles if isinstance(ev.move, ReturnTiles) else ev.move.cards
                    assert (None in returned) == (ev.player != seat)
                    kinds["unnamed"] += None in returned
    assert all(kinds.values()), kinds


def test_shift_ranking_and_final_scoring_observables() -> None:
    rec = simulate_one(get_game("coal_baron"), 3, 2, 0)
    r = replay(rec)
    assert r.state is not None
    obs = r.state.observe(["shift_ranking", "final_scoring"])
    ranking = obs["shift_ranking"]
    assert sorted(ranking) == ["1", "2", "3"] and [len(ranking[s]) for s in "123"] == [4, 8, 12]
    for m in r.milestones:
        assert ranking[str(m["shift"])][m["category"]][m["player_id"]] == {
            "value": m["value"], "rank": m["rank"], "points": m["points"]}
    final = obs["final_scoring"]
    for pid in rec.player_ids:
        pit = r.state.pits[pid]  # type: ignore[attr-defined]
        assert final["end_francs"][pid] == {"value": pit.francs, "points": pit.francs // 5}
        assert final["end_unfulfilled"][pid] == {"value": len(pit.outstanding), "points": -len(pit.outstanding)}
        assert final["end_coal"][pid]["points"] == r.score[pid]["end_coal"]
        assert final["end_pit_balance"][pid]["points"] == -2 * final["end_pit_balance"][pid]["value"]
    early = replay(rec, until=40, keep_frames=False).state
    assert early is not None and early.observe(["shift_ranking", "final_scoring"]) == {
        "shift_ranking": {}, "final_scoring": {}}
