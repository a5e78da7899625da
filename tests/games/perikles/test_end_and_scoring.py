"""End of round (5.7), game end, final scoring and tiebreaks (6)."""

from __future__ import annotations

import pytest
from perikles_helpers import at_battle, give_units, goto, placed, request

from replay.engine import OVER
from replay.games.perikles import tasks
from replay.games.perikles.components import CITY, CITY_KEYS
from replay.games.perikles.phases import end_of_round


def _end_round(st) -> None:  # type: ignore[no-untyped-def]
    st.cur = None
    goto(st, tasks.EndOfRound())


def test_leaders_become_statues_and_everything_resets() -> None:
    st = at_battle()
    give_units(st, "p2", "athens")
    give_units(st, "p1", "corinth")
    give_units(st, "p3", "persia")
    st.set_relation("athens", "sparta", -1)
    _end_round(st)
    assert st.statues["athens"]["p2"] == 1 and st.statues["corinth"]["p1"] == 1
    assert all(st.leader[c] is None for c in CITY_KEYS) and st.persian_leaders == []
    assert st.relations == {}
    assert all(a in ("stack", "dead") for a in st.unit_at.values())
    assert st.round == 2 and st.start_player == "p2"


def test_round_two_deals_all_influence_tiles_and_new_locations() -> None:
    st = at_battle()
    dealt = list(st.locations)
    _end_round(st)
    req = request(st)
    assert (req.name, req.count, len(req.pool)) == ("influence", 10, 36)
    st.apply_chance({"draw": "influence", "items": [t for t, _ in req.pool][:10]})
    req = request(st)
    assert (req.name, req.count, len(req.pool)) == ("locations", 7, 14)
    assert not set(dealt) & {t for t, _ in req.pool}


def test_start_player_falls_back_to_the_last_athens_leader() -> None:
    st = at_battle()
    st.last_athens_leader = "p3"
    _end_round(st)
    assert st.start_player == "p3"
    st2 = at_battle()
    _end_round(st2)
    assert st2.start_player == "p1"  # Athens never had a leader: unchanged


def test_game_ends_after_round_three() -> None:
    st = at_battle()
    st.round = 3
    _end_round(st)
    assert st.turn() is OVER and st.phase() == (3, "game end")


@pytest.mark.parametrize("city, defeats, over", [("athens", 4, True), ("sparta", 5, True), ("athens", 3, False),
                                                 ("corinth", 4, False)])
def test_game_ends_at_four_athenian_or_spartan_defeats(city: str, defeats: int, over: bool) -> None:
    st = at_battle()
    st.defeats[city] = defeats
    assert end_of_round.game_ends(st) is over
    _end_round(st)
    assert (st.turn() is OVER) is over


@pytest.mark.parametrize("city, values", [
    ("athens", [5, 5, 3, 1, 0, 0]), ("sparta", [5, 4, 3, 2, 0, 0]), ("argos", [6, 3, 0, 0, 0, 0]),
    ("corinth", [9, 7, 5, 3, 0, 0]), ("thebes", [7, 5, 3, 0, 0, 0]), ("megara", [6, 3, 0, 0, 0, 0]),
])
def test_statue_values_by_defeats(city: str, values: list[int]) -> None:
    assert [CITY[city].statue_value(d) for d in range(6)] == values


def test_score_categories_add_up() -> None:
    st = placed(3)
    st.statues["corinth"]["p1"] = 2
    st.defeats["corinth"] = 1
    st.location_vp["p1"] = 9
    st.alpha["athens"] = "p1"
    st._score_cache = None
    cubes = sum(st.cubes[c]["p1"] for c in CITY_KEYS) + 1
    assert st.score()["p1"] == {"locations": 9, "statues": 14, "cubes": cubes}
    assert st.totals()["p1"] == 9 + 14 + cubes


def _tied(st) -> None:  # type: ignore[no-untyped-def]
    for c in CITY_KEYS:
        st.cubes[c] = {p: 0 for p in st.players}
    st._score_cache = None


def test_ranking_ties_broken_by_location_points_then_statues() -> None:
    st = placed(3)
    _tied(st)
    st.location_vp = {"p1": 10, "p2": 5, "p3": 5}
    st.cubes["argos"] = {"p1": 0, "p2": 5, "p3": 5}  # everyone totals 10
    st.statues["megara"]["p3"] = 0
    st._score_cache = None
    assert st.totals() == {"p1": 10, "p2": 10, "p3": 10}
    assert st.ranking() == {"p1": 1, "p2": 2, "p3": 2}
    st.statues["argos"]["p3"] = 1
    st.defeats["argos"] = 4  # a statue worth nothing still breaks the tie
    st._score_cache = None
    assert st.ranking() == {"p1": 1, "p2": 3, "p3": 2}
