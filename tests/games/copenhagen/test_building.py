"""Building a facade tile (rules section 6): position, support, orientation, cost and payment."""

from __future__ import annotations

import orjson
import pytest
from copenhagen_helpers import build, legal, new_game, play, put, set_hand

from replay.engine import IllegalMove
from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import orientations, placement_at, transform

DISTINCT = {"I2": 4, "L3": 8, "I3": 4, "O4": 4, "S4": 8, "T4": 4, "L4": 8, "I4": 4,
            "P5": 8, "Z5": 8, "X5": 4, "T5": 4, "I5": 4, "monomino": 1}


def test_every_tile_has_one_plain_cell_and_its_distinct_orientations() -> None:
    comp = components()
    assert len(comp.shapes) == 21
    for key, shape in comp.shapes.items():
        assert len(shape.cells) == shape.size
        assert (shape.plain is None) == (shape.color == "white")
        assert len(orientations(key)[0]) == DISTINCT[shape.shape], key


def test_quarter_turn_clockwise_then_mirror() -> None:
    # red-3 is "WW / P." ; a clockwise quarter turn gives "PW / .W"; mirrored: "WP / W."
    base = ((0, 0, False), (0, 1, True), (1, 1, True))
    assert transform(base, 90, 0) == ((0, 1, False), (1, 0, True), (1, 1, True))
    assert transform(base, 90, 180) == ((0, 0, True), (0, 1, True), (1, 1, False))


def test_equivalent_orientations_are_one_move() -> None:
    s = new_game()
    set_hand(s, "p1", red=2)
    reds = [m for m in legal(s) if m["type"] == "build" and m["color"] == "red" and m["size"] == 2]
    cells = [placement_at("red-2", m["x"], m["y"], m["rotation"], m["flip"]) for m in reds]
    assert len({(p.mask, p.windows) for p in cells if p}) == len(reds) == 4 * 2 + 5 * 2
    # on an empty facade: lying on row 0 (4 spots, plain cell left or right), standing (5 columns, plain up or down)
    # a domino turned 180 is the same as mirrored: both are accepted and give the same facade
    a, b = new_game(), new_game()
    play(a, "p1", build("red", 2, 0, 0, {"red": 2}, rotation=180))
    play(b, "p1", build("red", 2, 0, 0, {"red": 2}, flip=180))
    assert a.snapshot()["players"]["p1"]["board"] == b.snapshot()["players"]["p1"]["board"]


def test_inside_empty_and_supported() -> None:
    s = new_game()
    set_hand(s, "p1", red=5)
    with pytest.raises(IllegalMove, match=r"p1 cannot build the 2-cell red tile at column 5, row 1 \(rotation 0, flip 0\): "
                                          r"it would stick out of the 5 x 9 facade"):
        play(s, "p1", build("red", 2, 4, 0, {"red": 2}))
    with pytest.raises(IllegalMove, match="it would float: no cell of it is on the street level"):
        play(s, "p1", build("red", 2, 0, 1, {"red": 2}))
    put(s, "p1", "blue-2", 0, 0)
    with pytest.raises(IllegalMove, match=r"cell column 2, row 1 is already covered"):
        play(s, "p1", build("red", 2, 1, 0, {"red": 2}))
    play(s, "p1", build("red", 2, 1, 1, {"red": 2}))  # (1, 1) sits on (1, 0): one contact is enough
    assert s.seats["p1"].facade.cells[5 + 1] == "red" and s.seats["p1"].facade.cells[5 + 2] == "red"


def test_placing_a_tile_under_an_overhang() -> None:
    s = new_game()
    put(s, "p1", "yellow-2", 0, 0, rotation=90)   # (0,0) (0,1)
    put(s, "p1", "purple-3", 0, 2)                # (0,2) (1,2) (2,2): overhangs (1,1) (2,1)
    put(s, "p1", "blue-2", 2, 0)                  # (2,0) (3,0)
    set_hand(s, "p1", red=2)
    play(s, "p1", build("red", 2, 1, 1, {"red": 2}))  # under the overhang, resting on (2, 0)
    cells = s.seats["p1"].facade.cells
    assert cells[5 * 1 + 1] == cells[5 * 1 + 2] == "red"


def test_same_colour_discount_applies_once() -> None:
    s = new_game()
    put(s, "p1", "red-2", 0, 0)
    put(s, "p1", "red-2", 3, 0)
    set_hand(s, "p1", red=3)
    # red-3 "WW / P." at (2, 0): touches the red tiles on both sides, still only one card less
    with pytest.raises(IllegalMove, match=r"p1 pays 3 cards for the 3-cell red tile, but the 3-cell red tile costs "
                                          r"2 cards \(1 less for touching a tile of the same colour\)"):
        play(s, "p1", build("red", 3, 2, 0, {"red": 3}))
    play(s, "p1", build("red", 3, 2, 0, {"red": 2}))
    assert s.seats["p1"].hand.get("red", 0) == 1 and s.discard["red"] == 2


def test_diagonal_or_other_colour_gives_no_discount() -> None:
    s = new_game()
    put(s, "p1", "red-2", 0, 0)
    set_hand(s, "p1", red=3, blue=3)
    with pytest.raises(IllegalMove, match="costs 2 cards$"):
        play(s, "p1", build("blue", 2, 2, 0, {"blue": 1}))
    put(s, "p1", "green-2", 2, 0)
    with pytest.raises(IllegalMove, match="costs 2 cards$"):  # (2, 1) touches red (1, 0) only diagonally
        play(s, "p1", build("red", 2, 2, 1, {"red": 1}))


def test_discount_and_construction_discount_make_a_domino_free() -> None:
    s = new_game()
    put(s, "p1", "green-2", 0, 0)
    s.seats["p1"].gain_ability("construction_discount")
    set_hand(s, "p1")
    play(s, "p1", build("green", 2, 2, 0, {}, construction_discount=True))
    assert s.seats["p1"].abilities["construction_discount"] is True


def test_construction_discount_needs_an_unused_tile() -> None:
    s = new_game()
    set_hand(s, "p1", red=3)
    with pytest.raises(IllegalMove, match="p1 cannot use the construction discount: p1 does not own the "
                                          "construction discount tile"):
        play(s, "p1", build("red", 3, 0, 0, {"red": 2}, construction_discount=True))


def test_change_of_colours() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("change_of_colors")
    set_hand(s, "p1", red=1, blue=3)
    with pytest.raises(IllegalMove, match="p1 cannot pay 3 red cards for the 3-cell red tile: p1 holds 1 red card"):
        play(s, "p1", build("red", 3, 0, 0, {"red": 3}))
    with pytest.raises(IllegalMove, match="cannot pay the 3-cell red tile with blue cards"):
        play(s, "p1", build("red", 3, 0, 0, {"red": 1, "blue": 2}))
    with pytest.raises(IllegalMove, match="cannot change red cards into red"):
        play(s, "p1", build("red", 3, 0, 0, {"red": 3}, change_from="red"))
    with pytest.raises(IllegalMove, match="p1 uses change of colours from red but pays no red card"):
        play(s, "p1", build("blue", 2, 0, 0, {"blue": 2}, change_from="red"))
    with pytest.raises(IllegalMove, match="p1 lists 0 blue cards in the payment"):
        play(s, "p1", build("red", 2, 0, 0, {"red": 2, "blue": 0}, change_from="blue"))
    play(s, "p1", build("red", 3, 0, 0, {"red": 1, "blue": 2}, change_from="blue"))
    p = s.seats["p1"]
    assert p.abilities["change_of_colors"] is True and p.hand.get("blue", 0) == 1 and p.hand.get("red", 0) == 0
    assert s.discard["blue"] == 2


def test_payment_choices_with_change_of_colours_are_listed() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("change_of_colors")
    set_hand(s, "p1", red=1, blue=2)
    pays = [(m["pay"], m["change_from"]) for m in legal(s)
            if m["type"] == "build" and m["color"] == "red" and m["size"] == 3 and (m["x"], m["y"]) == (0, 0)
            and (m["rotation"], m["flip"]) == (0, 0)]
    assert pays == [({"red": 1, "blue": 2}, "blue")]
    pays2 = [(m["pay"], m["change_from"]) for m in legal(s)
             if m["type"] == "build" and m["color"] == "red" and m["size"] == 2 and (m["x"], m["y"]) == (0, 0)
             and (m["rotation"], m["flip"]) == (0, 0)]
    assert pays2 == [({"red": 1, "blue": 1}, "blue"), ({"blue": 2}, "blue")]


def test_supply_runs_out() -> None:
    s = new_game()
    set_hand(s, "p1", purple=5)
    s.tiles["purple-5"] = 0
    with pytest.raises(IllegalMove, match="p1 cannot build the 5-cell purple tile: none is left in the supply"):
        play(s, "p1", build("purple", 5, 0, 0, {"purple": 5}))
    assert not [m for m in legal(s) if m["type"] == "build" and m["size"] == 5]


def test_white_tiles_are_not_bought() -> None:
    s = new_game()
    with pytest.raises(IllegalMove, match="white tiles only come as coat-of-arms bonuses"):
        play(s, "p1", build("white", 1, 0, 0, {}))


def test_a_refused_build_leaves_the_state_untouched() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("change_of_colors")
    set_hand(s, "p1", red=1, blue=1)
    before = orjson.dumps(s.snapshot())
    with pytest.raises(IllegalMove):
        play(s, "p1", build("red", 3, 0, 0, {"red": 1, "blue": 1}, change_from="blue"))
    assert orjson.dumps(s.snapshot()) == before


def test_cannot_build_in_the_middle_of_taking_cards() -> None:
    s = new_game()
    play(s, "p1", {"type": "take_card", "slot": 0})
    with pytest.raises(IllegalMove, match="p1 cannot build a tile now: the second card is due"):
        play(s, "p1", build("red", 2, 0, 0, {"red": 2}))
