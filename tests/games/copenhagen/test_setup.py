"""Setup (rules section 3): supplies, deck, mermaid, harbour and starting hands, in chance order."""

from __future__ import annotations

import pytest
from copenhagen_helpers import GAME, HANDS, HARBOUR, deck, new_game

from replay.engine import ChanceRequest, IllegalMove, ImpossibleChance
from replay.games.copenhagen.components import components
from replay.games.copenhagen.state import CopenhagenState


@pytest.mark.parametrize(("n", "per_size", "cards"), [
    (2, {2: 2, 3: 2, 4: 2, 5: 1}, 14),
    (3, {2: 2, 3: 3, 4: 2, 5: 1}, 12),
    (4, {2: 3, 3: 3, 4: 3, 5: 1}, 14),
])
def test_supply_and_deck_by_player_count(n: int, per_size: dict[int, int], cards: int) -> None:
    s = GAME.initial_state([f"p{i + 1}" for i in range(n)])
    assert isinstance(s, CopenhagenState)
    for color in ("red", "yellow", "green", "blue", "purple"):
        assert {size: s.tiles[f"{color}-{size}"] for size in (2, 3, 4, 5)} == per_size
        assert deck(s)[color] == cards
    assert sum(s.tiles.values()) == {2: 35, 3: 40, 4: 50}[n]
    assert s.white == 12
    assert s.ability_supply == {"any_cards": 0, "additional_card": n, "construction_discount": n,
                                "change_of_colors": n, "both_actions": n}
    for p in s.seats.values():
        assert p.abilities == {"any_cards": False}
    assert s.mermaid == ("deck" if n == 2 else "aside")


def test_chance_order_harbour_then_hands_in_turn_order() -> None:
    s = GAME.initial_state(["a", "b", "c", "d"])
    assert isinstance(s, CopenhagenState)
    t = s.turn()
    assert isinstance(t, ChanceRequest) and (t.name, t.count) == ("facade", 7)
    assert dict(t.pool) == {c: 14 for c in ("red", "yellow", "green", "blue", "purple")}
    s.apply_chance({"draw": "facade", "items": HARBOUR})
    for pid, size, hand in zip("abcd", (2, 3, 3, 4), HANDS):
        t = s.turn()
        assert isinstance(t, ChanceRequest) and t.count == size and pid in t.reason
        assert "mermaid" not in dict(t.pool)
        s.apply_chance({"draw": "facade", "items": hand})
        assert s.seats[pid].hand_size == size
    assert s.turn() == "a"
    assert s.harbour == HARBOUR
    assert deck(s)["red"] == 14 - 2 - 2 and deck(s)["purple"] == 14 - 1 - 4


def test_a_card_not_left_in_the_deck_cannot_be_dealt() -> None:
    s = GAME.initial_state(["a", "b"], {"cards_per_color": 6})
    s.apply_chance({"draw": "facade", "items": ["red"] * 6 + ["blue"]})
    with pytest.raises(ImpossibleChance):
        s.apply_chance({"draw": "facade", "items": ["red", "blue"]})


def test_cards_per_color_option_sets_the_deck() -> None:
    s = GAME.initial_state(["a", "b", "c"], {"cards_per_color": 14})
    assert isinstance(s, CopenhagenState) and deck(s)["green"] == 14
    with pytest.raises(IllegalMove, match="at least 6"):
        GAME.initial_state(["a", "b"], {"cards_per_color": 3})


def test_starting_position() -> None:
    s = new_game(3)
    assert s.turn() == "p1" and s.step == "start"
    assert [s.seats[p].hand_size for p in s.players] == [2, 3, 3]
    assert s.phase() == (1, "start")
    assert components().starting_hands == (2, 3, 3, 4)
