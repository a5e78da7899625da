"""Setup (rules 3) and the influence phase (5.2): tiles, the colour rule, shards, symbols, the cube limit."""

from __future__ import annotations

import pytest
from perikles_helpers import fresh, placed, play, request

from replay.engine import ChanceRequest, IllegalMove, WrongPlayer
from replay.games.perikles import GAME, tasks
from replay.games.perikles.components import CITY_KEYS
from replay.games.perikles.moves import (
    AlkibiadesMove,
    Assassinate,
    FinishTurn,
    Nominate,
    PlaceAnyCube,
    PlaceCube,
    PlayAlkibiades,
    PlayPerikles,
    PlayPlague,
    TakeTile,
)

DISPLAY = ["athens-2a", "athens-candidate-a", "athens-assassin", "sparta-2a", "any-a",
           "argos-2a", "corinth-2a", "thebes-2a", "megara-2a", "sparta-candidate-a"]


def test_setup_chance_events_in_engine_order() -> None:
    st = GAME.initial_state(["p1", "p2", "p3"], {})
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.kind, req.name, req.count, len(req.pool)) == ("draw", "influence", 10, 36)
    st.apply_chance({"draw": "influence", "items": DISPLAY})
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count, len(req.pool)) == ("locations", 7, 21)
    st.apply_chance({"draw": "locations", "items": ["pylos", "plataea", "amphipolis", "cephallenia", "mantinea",
                                                    "lesbos", "sicily"]})
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count, len(req.pool)) == ("special", 3, 8)
    st.apply_chance({"draw": "special", "items": ["plague", "perikles", "brasidas"]})
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.kind, req.name, req.options) == ("choose", "first_player",
                                                                                    ("p1", "p2", "p3"))
    st.apply_chance({"choose": "first_player", "value": "p2"})
    assert st.turn() == "p2"
    assert st.special == {"p1": "plague", "p2": "perikles", "p3": "brasidas"}
    assert all(st.cubes[c][p] == 2 for c in CITY_KEYS for p in st.players)


def test_initial_placement_two_laps_from_the_first_player() -> None:
    st = fresh(3, first="p2")
    order = []
    for _ in range(6):
        t = st.turn()
        assert isinstance(t, str)
        order.append(t)
        st.apply_move(t, PlaceCube(city="thebes"))
    assert order == ["p2", "p3", "p1", "p2", "p3", "p1"]
    assert st.cubes["thebes"] == {"p1": 4, "p2": 4, "p3": 4}
    assert st.turn() == "p2" and st.phase() == (1, "influence")


def test_a_duplicate_or_unknown_deal_is_impossible() -> None:
    from replay.engine import ImpossibleChance
    st = GAME.initial_state(["p1", "p2", "p3"], {})
    with pytest.raises(ImpossibleChance):
        st.apply_chance({"draw": "influence", "items": DISPLAY[:9] + ["athens-2a"]})
    with pytest.raises(ImpossibleChance):
        st.apply_chance({"draw": "influence", "items": DISPLAY[:9] + ["athens-9z"]})


def test_two_shard_tile_places_two_cubes_and_refills_its_slot() -> None:
    st = placed(3, display=DISPLAY)
    play(st, TakeTile(slot=1))
    assert st.cubes["athens"]["p1"] == 4 and st.hands["p1"] == ["athens-2a"]
    req = request(st)
    assert (req.name, req.count) == ("influence", 1) and "athens-2a" not in dict(req.pool)
    assert all(t not in dict(req.pool) for t in DISPLAY)
    st.apply_chance({"draw": "influence", "items": ["athens-2b"]})
    assert st.display[0] == "athens-2b" and st.turn() == "p2"


def test_colour_rule() -> None:
    st = placed(3, display=DISPLAY)
    play(st, TakeTile(slot=1))
    st.apply_chance({"draw": "influence", "items": ["athens-2b"]})
    play(st, TakeTile(slot=4))
    st.apply_chance({"draw": "influence", "items": ["sparta-2b"]})
    play(st, TakeTile(slot=6))
    st.apply_chance({"draw": "influence", "items": ["argos-2b"]})
    assert st.turn() == "p1"
    with pytest.raises(IllegalMove, match="colour rule"):
        st.apply_move("p1", TakeTile(slot=1))
    assert TakeTile(slot=1) not in st.legal_moves() and TakeTile(slot=4) in st.legal_moves()


def test_colour_rule_exception_when_every_tile_is_held() -> None:
    st = placed(3, display=DISPLAY)
    st.hands["p1"] = ["athens-2b", "sparta-2b", "argos-2b", "corinth-2b", "thebes-2b", "megara-2b", "any-b"]
    assert {m.slot for m in st.legal_moves() if isinstance(m, TakeTile)} == set(range(1, 11))


def test_any_tile_lets_the_player_choose_the_city() -> None:
    st = placed(3, display=DISPLAY)
    play(st, TakeTile(slot=5))
    assert st.turn() == "p1" and list(st.legal_moves()) == [PlaceAnyCube(city=c) for c in CITY_KEYS]
    play(st, PlaceAnyCube(city="corinth"))
    assert st.cubes["corinth"]["p1"] == 3


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_any_tile_cube_without_a_city_only_when_the_limit_leaves_it_unplaced(ruleset: str) -> None:
    """seed8036 packet 253: BGA refuses the Any tile's cube (cubeLimit) and never says which city was
    chosen; a record may leave the city out, but only when no cube could be placed."""
    st = placed(3, display=DISPLAY, ruleset=ruleset)
    play(st, TakeTile(slot=5))
    with pytest.raises(IllegalMove, match="must name the city"):
        st.apply_move("p1", PlaceAnyCube(city=None))
    st.cubes["megara"]["p1"] += 30 - st.cubes_on_board("p1")
    play(st, PlaceAnyCube(city=None))
    assert st.cubes_on_board("p1") == 30 and st.turn() != "p1"


def test_candidate_symbol_makes_a_nomination_anywhere() -> None:
    st = placed(3, display=DISPLAY)
    play(st, TakeTile(slot=2))
    assert st.cubes["athens"]["p1"] == 3 and type(st.pending()) is tasks.CandidateSymbol
    play(st, Nominate(city="thebes", nominee="p3"))
    assert st.alpha["thebes"] == "p3" and st.cubes["thebes"]["p3"] == 1


def test_candidate_symbol_without_possible_nomination_has_no_effect() -> None:
    st = placed(3, display=DISPLAY)
    for c in CITY_KEYS:
        st.alpha[c], st.beta[c] = "p2", "p3"
    play(st, TakeTile(slot=2))
    assert isinstance(st.turn(), ChanceRequest)  # straight on to the refill


def test_assassin_removes_a_cube_and_promotes_beta() -> None:
    st = placed(3, display=DISPLAY)
    st.alpha["sparta"], st.beta["sparta"] = "p2", "p3"
    play(st, TakeTile(slot=3))
    assert Assassinate(city="sparta", victim="p2", space="alpha") in st.legal_moves()
    with pytest.raises(IllegalMove, match="alpha space holds p2"):
        st.apply_move("p1", Assassinate(city="sparta", victim="p3", space="alpha"))
    play(st, Assassinate(city="sparta", victim="p2", space="alpha"))
    assert (st.alpha["sparta"], st.beta["sparta"]) == ("p3", None)


def test_assassin_removes_an_ordinary_cube() -> None:
    st = placed(3, display=DISPLAY)
    play(st, TakeTile(slot=3))
    play(st, Assassinate(city="argos", victim="p3"))
    assert st.cubes["argos"]["p3"] == 1


def test_tiles_per_player_and_no_refill_after_the_last() -> None:
    for n, per in ((3, 5), (4, 5), (5, 4)):
        st = placed(n, display=DISPLAY)
        takes = 0
        while st.phase()[1] == "influence":
            t = st.turn()
            if isinstance(t, ChanceRequest):
                pool = [x for x, _ in t.pool]
                st.apply_chance({"draw": "influence", "items": pool[:1]})
                continue
            move = next(iter(st.legal_moves()))
            takes += isinstance(move, TakeTile)
            st.apply_move(t, move)
        assert takes == n * per
        assert all(len(h) == per for h in st.hands.values())


@pytest.mark.parametrize("ruleset, on_board, placed_cubes", [
    ("official", 28, 2), ("official", 29, 1), ("official", 30, 0),
    ("bga", 28, 2), ("bga", 29, 2), ("bga", 30, 0),
])
def test_thirty_cube_limit(ruleset: str, on_board: int, placed_cubes: int) -> None:
    st = placed(3, display=DISPLAY, ruleset=ruleset)
    st.cubes["megara"]["p1"] += on_board - st.cubes_on_board("p1")
    before = st.cubes["athens"]["p1"]
    play(st, TakeTile(slot=1))
    assert st.cubes["athens"]["p1"] - before == placed_cubes


def test_perikles_before_taking_a_tile() -> None:
    st = placed(3, display=DISPLAY, specials=["perikles", "plague", "alkibiades"])
    assert PlayPerikles() in st.legal_moves()
    play(st, PlayPerikles())
    assert st.cubes["athens"]["p1"] == 4 and st.special_used["p1"]
    assert st.turn() == "p1" and PlayPerikles() not in st.legal_moves()
    play(st, TakeTile(slot=4))
    assert isinstance(st.turn(), ChanceRequest)  # no after-step: the tile is used


def test_perikles_after_the_tile() -> None:
    st = placed(3, display=DISPLAY, specials=["perikles", "plague", "alkibiades"])
    play(st, TakeTile(slot=4))
    assert set(st.legal_moves()) == {FinishTurn(), PlayPerikles()}
    play(st, PlayPerikles())
    assert isinstance(st.turn(), ChanceRequest)
    assert st.cubes["athens"]["p1"] == 4 and st.special_used["p1"]


def test_other_players_special_tile_is_refused() -> None:
    st = placed(3, display=DISPLAY, specials=["perikles", "plague", "alkibiades"])
    with pytest.raises(IllegalMove, match="not his special tile"):
        st.apply_move("p1", PlayPlague(city="athens"))
    with pytest.raises(WrongPlayer):
        st.apply_move("p2", PlayPlague(city="athens"))


def test_plague_halves_cubes_counting_the_candidate_cube() -> None:
    st = placed(3, display=DISPLAY, specials=["plague", "perikles", "alkibiades"])
    st.cubes["corinth"] = {"p1": 5, "p2": 1, "p3": 3}
    st.alpha["corinth"] = "p2"  # p2 counts 2 -> loses 1 ordinary cube
    st.beta["corinth"] = "p3"   # p3 counts 4 -> loses 2
    play(st, PlayPlague(city="corinth"))
    assert st.cubes["corinth"] == {"p1": 3, "p2": 0, "p3": 1}
    assert (st.alpha["corinth"], st.beta["corinth"]) == ("p2", "p3")


def test_alkibiades_moves_two_cubes_not_candidates() -> None:
    st = placed(3, display=DISPLAY, specials=["alkibiades", "perikles", "plague"])
    st.cubes["argos"]["p2"] = 0
    st.alpha["argos"] = "p2"
    play(st, PlayAlkibiades())
    with pytest.raises(IllegalMove, match="no cube there outside the candidate spaces"):
        st.apply_move("p1", AlkibiadesMove(owner="p2", from_city="argos", to_city="athens"))
    play(st, AlkibiadesMove(owner="p3", from_city="argos", to_city="athens"))
    play(st, AlkibiadesMove(owner="p3", from_city="argos", to_city="sparta"))
    assert st.cubes["argos"]["p3"] == 0 and st.cubes["athens"]["p3"] == 3 and st.cubes["sparta"]["p3"] == 3
    assert type(st.pending()) is tasks.TakeATile  # played before taking a tile: the turn goes on
    play(st, TakeTile(slot=1))


def test_wrong_move_type_names_what_is_awaited() -> None:
    st = placed(3, display=DISPLAY)
    with pytest.raises(IllegalMove, match="p1 cannot nominate now: in the influence phase p1 must take an influence tile"):
        st.apply_move("p1", Nominate(city="athens", nominee="p1"))


def test_an_influence_tile_in_words_names_its_city_shards_and_symbol() -> None:
    from replay.games.perikles.components import INFLUENCE
    from replay.games.perikles.describe import _influence

    plain = next(t for t in INFLUENCE.values() if t.symbol == "none" and t.shards == 2)
    assert _influence(plain) == f"{plain.city.capitalize()}, 2 shards"
    one = next(t for t in INFLUENCE.values() if t.symbol == "assassin" and t.shards == 1)
    assert _influence(one) == f"{one.city.capitalize()}, 1 shard, assassin"
