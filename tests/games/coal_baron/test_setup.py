"""Setup (rules 3): workers, francs, covered spaces, starting carts, tiles, the opening draft."""

from __future__ import annotations

import pytest
from coal_baron_helpers import DEFAULT_TILES, fresh, play, setup

from replay.engine import ChanceRequest, IllegalMove, WrongPlayer
from replay.games.coal_baron.components import COLOURS, SPACES, usable_spaces
from replay.games.coal_baron.moves import DraftOrder


@pytest.mark.parametrize("n, workers, francs, usable, slots", [
    (2, 18, 10, 20, 6), (3, 15, 9, 24, 7), (4, 13, 8, 27, 8)])
def test_setup_per_player_count(n: int, workers: int, francs: int, usable: int, slots: int) -> None:
    st = fresh(n)
    assert len(usable_spaces(n)) == usable
    for pit in st.pits.values():
        assert (pit.workers, pit.francs, pit.cage_level) == (workers, francs, 0)
        # one cube of the level's colour on each printed starting cart
        assert pit.carts == [1, 1, 1, 1]
        assert [pit.coal[i][i] for i in range(4)] == [1, 1, 1, 1] and pit.coal_owned() == 4
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count, len(req.pool)) == ("tiles", slots, 48)
    st.apply_chance({"draw": "tiles", "items": DEFAULT_TILES[:slots]})
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count, len(req.pool)) == ("orders", 3 * n + 1, 44)


def test_covered_spaces() -> None:
    two, three = set(usable_spaces(2)), set(usable_spaces(3))
    assert set(SPACES) - three == {"factory_8", "mining_4", "bank_3"}
    assert three - two == {"factory_4", "mining_8", "bank_5", "order_1"}


def test_tiles_fill_the_factory_in_board_order() -> None:
    st = fresh(3)
    st.apply_chance({"draw": "tiles", "items": DEFAULT_TILES[:7]})
    assert st.factory == {"factory_1": "t1", "factory_2": "t7", "factory_3": "t13", "factory_5": "t19",
                          "factory_6": "t25", "factory_7": "t31", "factory_4": "t37"}


def test_draft_goes_in_reverse_turn_order_three_laps() -> None:
    st = fresh(3)
    st.apply_chance({"draw": "tiles", "items": DEFAULT_TILES[:7]})
    st.apply_chance({"draw": "orders", "items": [f"o{i}" for i in range(1, 11)]})
    pickers = []
    while st.decision == "draft":
        pickers.append(st.actor)
        play(st, DraftOrder(card=st.draft_pool[-1]))
    assert pickers == ["p3", "p2", "p1"] * 3
    # the card nobody took goes face up on order_4; the other order spaces are filled from the deck
    assert st.order_spaces["order_4"] == "o1"
    req = st.turn()
    assert isinstance(req, ChanceRequest) and (req.name, req.count, len(req.pool)) == ("orders", 3, 34)
    st.apply_chance({"draw": "orders", "items": ["o20", "o21", "o22"]})
    assert st.order_spaces == {"order_2": "o20", "order_3": "o21", "order_4": "o1", "order_1": "o22"}
    assert [len(p.outstanding) for p in st.pits.values()] == [3, 3, 3]
    assert st.turn() == "p1" and st.decision == "place" and st.shift == 1


def test_two_player_setup_fills_two_order_spaces() -> None:
    st = setup(2)
    assert st.order_spaces == {"order_2": "o40", "order_3": "o39", "order_4": "o7"}
    assert [o.card for o in st.pits["p2"].outstanding] == ["o1", "o3", "o5"]
    assert [o.card for o in st.pits["p1"].outstanding] == ["o2", "o4", "o6"]


def test_supply_official_and_bga() -> None:
    assert fresh(4).supply == [12] * 4  # 16 per colour, one of each on every printed cart
    assert fresh(4, "bga").supply == [32] * 4


def test_draft_mistakes_are_explained() -> None:
    st = fresh(2)
    st.apply_chance({"draw": "tiles", "items": DEFAULT_TILES[:6]})
    st.apply_chance({"draw": "orders", "items": [f"o{i}" for i in range(1, 8)]})
    with pytest.raises(WrongPlayer):
        st.apply_move("p1", DraftOrder(card="o1"))
    with pytest.raises(IllegalMove, match="p2 cannot draft o9: the cards left in the draft are o1, o2"):
        st.apply_move("p2", DraftOrder(card="o9"))


def test_snapshot_is_plain_json_with_the_documented_shape() -> None:
    import orjson

    st = setup(2)
    snap = st.snapshot()
    orjson.dumps(snap)
    assert set(snap) >= {"shift", "phase", "board", "decks", "supply", "players", "decision"}
    pit = snap["players"]["p1"]
    assert set(pit) >= {"francs", "workers", "canteen", "cage", "storage", "pit", "outstanding", "delivered"}
    assert pit["pit"]["4"] == {"colour": "black", "light": [], "dark": [], "carts": 1,
                               "coal": dict.fromkeys(COLOURS, 0) | {"black": 1}, "empty_carts": 0}
    assert snap["decks"]["orders"] == {"top": [], "hidden": 44 - 9, "bottom": []}
