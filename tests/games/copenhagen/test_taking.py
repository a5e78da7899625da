"""Taking cards (rules section 5 and the take-card abilities of 7.1)."""

from __future__ import annotations

import pytest
from copenhagen_helpers import legal, new_game, play, refill, set_hand

from replay.engine import ChanceRequest, IllegalMove, MissingChance


def test_second_card_must_be_next_to_the_first() -> None:
    s = new_game()
    play(s, "p1", {"type": "take_card", "slot": 3})
    assert s.step == "second_card"
    s.seats["p1"].use("any_cards")
    assert legal(s) == [{"type": "take_card", "slot": 2}, {"type": "take_card", "slot": 4}]
    # slots as a player counts them, from 1: the record's slots 6 and 3 are harbour slots 7 and 4
    with pytest.raises(IllegalMove, match=r"p1 cannot take the second card from harbour slot 7: it must lie next "
                                          r"to harbour slot 4 \(slot 3 or 5\), and p1 has already used any cards"):
        play(s, "p1", {"type": "take_card", "slot": 6})


@pytest.mark.parametrize(("first", "only"), [(0, 1), (6, 5)])
def test_end_of_row_has_one_neighbour_and_no_wrap(first: int, only: int) -> None:
    s = new_game()
    s.seats["p1"].use("any_cards")
    play(s, "p1", {"type": "take_card", "slot": first})
    assert legal(s) == [{"type": "take_card", "slot": only}]
    with pytest.raises(IllegalMove, match=rf"next to harbour slot {first + 1} \(slot {only + 1}\),"):
        play(s, "p1", {"type": "take_card", "slot": 6 - first})


def test_empty_slot_cannot_be_taken_again() -> None:
    s = new_game()
    play(s, "p1", {"type": "take_card", "slot": 2})
    with pytest.raises(IllegalMove, match="harbour slot 3: that slot is empty"):
        play(s, "p1", {"type": "take_card", "slot": 2})


def test_two_cards_then_refill_in_slot_order_and_next_player() -> None:
    s = new_game()
    play(s, "p1", {"type": "take_card", "slot": 4})
    play(s, "p1", {"type": "take_card", "slot": 3})
    assert s.seats["p1"].hand_view() == {"red": 2, "yellow": 0, "green": 0, "blue": 1, "purple": 1}
    t = s.turn()
    assert isinstance(t, ChanceRequest) and t.reason == "refill harbour slot 4"  # the record's slot 3
    refill(s, "green")
    t = s.turn()
    assert isinstance(t, ChanceRequest) and t.reason == "refill harbour slot 5"
    refill(s, "red")
    assert s.turn() == "p2" and s.harbour[3:5] == ["green", "red"]


def test_any_cards_is_spent_only_on_a_non_adjacent_second_card() -> None:
    s = new_game()
    play(s, "p1", {"type": "take_card", "slot": 0})
    assert [m["slot"] for m in legal(s)] == [1, 2, 3, 4, 5, 6]
    play(s, "p1", {"type": "take_card", "slot": 1})
    assert s.seats["p1"].abilities == {"any_cards": False}
    refill(s, "red", "red")
    play(s, "p2", {"type": "take_card", "slot": 0})
    play(s, "p2", {"type": "take_card", "slot": 5})
    assert s.seats["p2"].abilities == {"any_cards": True}


def test_hand_limit_discard_after_each_card() -> None:
    s = new_game()
    set_hand(s, "p1", red=4, blue=3)
    play(s, "p1", {"type": "take_card", "slot": 2})  # green: 8 cards
    assert s.must_discard and s.turn() == "p1"
    assert legal(s) == [{"type": "discard", "color": c} for c in ("red", "green", "blue")]
    with pytest.raises(IllegalMove, match="p1 must first discard a card: p1 holds 8 cards and the hand limit is 7"):
        play(s, "p1", {"type": "take_card", "slot": 1})
    play(s, "p1", {"type": "discard", "color": "green"})
    assert s.step == "second_card" and s.seats["p1"].hand_size == 7
    play(s, "p1", {"type": "take_card", "slot": 3})
    assert s.must_discard
    with pytest.raises(IllegalMove, match="p1 cannot discard a purple card: p1 holds 4 red, 4 blue"):
        play(s, "p1", {"type": "discard", "color": "purple"})
    play(s, "p1", {"type": "discard", "color": "red"})
    assert s.discard["green"] == 1 and s.discard["red"] == 1
    assert isinstance(s.turn(), ChanceRequest)


def test_discard_only_over_the_limit() -> None:
    s = new_game()
    with pytest.raises(IllegalMove, match="cannot discard a card now: the hand limit is 7 and p1 holds 2"):
        play(s, "p1", {"type": "discard", "color": "red"})


def test_additional_card_takes_a_third_card_from_anywhere() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("additional_card")
    play(s, "p1", {"type": "take_card", "slot": 0})
    play(s, "p1", {"type": "take_card", "slot": 1})
    assert s.step == "after_taking"
    assert legal(s) == [{"type": "take_card", "slot": i} for i in range(2, 7)] + [{"type": "end_turn"}]
    play(s, "p1", {"type": "take_card", "slot": 6})
    assert s.seats["p1"].abilities["additional_card"] is True
    assert s.cards_taken == 3 and s.step == "refill"


def test_declining_the_third_card_keeps_the_tile_unused() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("additional_card")
    play(s, "p1", {"type": "take_card", "slot": 0})
    play(s, "p1", {"type": "take_card", "slot": 1})
    play(s, "p1", {"type": "end_turn"})
    assert s.seats["p1"].abilities["additional_card"] is False and s.step == "refill"


def test_third_card_needs_the_tile() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("both_actions")
    play(s, "p1", {"type": "take_card", "slot": 0})
    play(s, "p1", {"type": "take_card", "slot": 1})
    with pytest.raises(IllegalMove, match="p1 cannot take a third card: p1 does not own the additional-card tile"):
        play(s, "p1", {"type": "take_card", "slot": 4})


def test_both_actions_then_build_or_skip() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("both_actions")
    play(s, "p1", {"type": "take_card", "slot": 0})  # red: 3 red
    play(s, "p1", {"type": "take_card", "slot": 1})
    assert legal(s) == [{"type": "both_actions"}, {"type": "end_turn"}]
    play(s, "p1", {"type": "both_actions"})
    assert s.seats["p1"].abilities["both_actions"] is True and s.step == "build_after_taking"
    moves = legal(s)
    assert moves[-1] == {"type": "end_turn"}
    assert {"type": "build", "color": "red", "size": 3, "x": 0, "y": 0, "rotation": 0, "flip": 0,
            "pay": {"red": 3}, "construction_discount": False, "change_from": None} in moves
    play(s, "p1", {"type": "end_turn"})  # skipping the build: the tile stays used
    assert s.seats["p1"].abilities["both_actions"] is True and s.step == "refill"


def test_both_actions_is_take_then_build_only() -> None:
    s = new_game()
    s.seats["p1"].gain_ability("both_actions")
    with pytest.raises(IllegalMove, match="p1 cannot use both actions now: the turn has just begun"):
        play(s, "p1", {"type": "both_actions"})


def test_with_nothing_left_to_choose_the_turn_ends_after_two_cards() -> None:
    s = new_game()
    play(s, "p1", {"type": "take_card", "slot": 0})
    play(s, "p1", {"type": "take_card", "slot": 1})
    with pytest.raises(MissingChance, match="1 card from the facade deck"):
        play(s, "p1", {"type": "end_turn"})
