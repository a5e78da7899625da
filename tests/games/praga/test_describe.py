"""Praga moves in words: crane spaces and display slots as a player names them, counted from 1."""

from __future__ import annotations

from praga_helpers import new_game

from replay.games.praga import moves as m
from replay.games.praga.rules import crane
from replay.games.praga.rules.actions import PickFromDisplay, slot_name


def test_crane_spaces_are_named_by_zone_and_counted_from_one() -> None:
    names = [crane.space_name(p) for p in range(10)]
    assert names[0] == "red space 1"  # the first red space: where a used tile goes
    assert names[3] == "red space 4" and names[4] == "green space 1" and names[-1].startswith("blue space ")
    assert "(the record's number" in crane.space_name(12)
    st = new_game(3)
    text = st.describe_move("p1", m.TakeTile(position=4))
    assert "green space 1 (" in text and "position" not in text


def test_display_slots_count_from_one_and_the_rightmost_is_special() -> None:
    assert slot_name("wall", 0) == "slot 1 of the wall row"
    assert slot_name("wall", 3) == "slot 4 (special) of the wall row"
    assert slot_name("upgrade", [0, 3]) == "slots 1 and 4 (special) of the upgrade row"
    st = new_game(3)
    st.push(PickFromDisplay("p1", "wall"))
    assert st.describe_move("p1", m.PickTile(slot=2)).endswith("from slot 3 of the wall row")


def test_a_reward_that_costs_something_reads_as_paying_for_it() -> None:
    from replay.games.praga.describe import reward_text

    assert reward_text([{"gold": -1}, {"egg": 1}]) == "pays 1 gold for 1 egg"
    assert reward_text([{"stone": 2}]) == "takes 2 stone"
    assert reward_text([]) == "takes nothing"
