"""Snapshot, observables, moves in words, copies and the greedy heuristic."""

from __future__ import annotations

import orjson
from copenhagen_helpers import GAME, as_move, build, new_game, play, put, set_hand


def test_snapshot_is_plain_json_with_the_facades() -> None:
    s = new_game(3)
    put(s, "p2", "red-3", 0, 0)
    snap = orjson.loads(orjson.dumps(s.snapshot()))
    assert set(snap) == {"players", "harbour", "deck", "deck_size", "discard", "mermaid", "rebuilds", "supply",
                         "turn", "end"}
    board = snap["players"]["p2"]["board"]
    assert len(board) == 9 and all(len(row) == 5 for row in board)
    assert board[0][0] == {"color": "red", "window": False}
    assert board[1][0] == board[1][1] == {"color": "red", "window": True}
    assert board[0][1] is None
    assert snap["players"]["p1"]["abilities"] == {"any_cards": "unused"}
    assert snap["supply"]["white"] == 12 and snap["supply"]["tiles"]["red-3"] == 3
    assert snap["mermaid"] == "aside" and snap["deck_size"] == 60 - 7 - 8
    assert snap["turn"]["player"] == "p1" and snap["turn"]["step"] == "start"


def test_observables() -> None:
    s = new_game(2)
    put(s, "p1", "purple-5", 0, 0)
    obs = s.observe()
    assert obs["hand_size"] == {"p1": 2, "p2": 3}
    assert obs["covered"] == {"p1": 5, "p2": 0}
    assert obs["harbour"] == s.harbour
    assert obs["deck_size"] == 70 - 7 - 5 + 1  # the mermaid is in the deck with two players
    assert obs["score"] == {"p1": 1, "p2": 0}
    assert obs["legal_count"] == len(list(s.legal_moves()))


def test_moves_in_words() -> None:
    s = new_game(2)
    assert s.describe_move("p1", as_move({"type": "take_card", "slot": 2})) == \
        "p1 takes the green card from harbour slot 3"  # the record's slot 2, counted from 1 at the left
    s.seats["p1"].gain_ability("change_of_colors")
    m = as_move(build("blue", 3, 1, 0, {"blue": 1, "red": 2}, rotation=90, flip=180, change_from="red"))
    assert s.describe_move("p1", m) == ("p1 builds the 3-cell blue tile at column 2, row 1, turned 90, mirrored, paying "
                                        "1 blue card and 2 red cards counting red cards as blue")
    assert "white tile at column 1, row 1" in s.describe_move("p1", as_move({"type": "place_white", "x": 0, "y": 0}))
    assert "both actions" in s.describe_move("p1", as_move({"type": "both_actions"}))
    assert "additional card" in s.describe_move("p1", as_move({"type": "take_ability",
                                                                "ability": "additional_card"}))


def test_a_copy_is_independent() -> None:
    s = new_game(2)
    c = s.copy()
    set_hand(c, "p1", red=3)
    play(c, "p1", build("red", 3, 0, 0, {"red": 3}))
    assert s.seats["p1"].facade.covered == 0 and s.tiles["red-3"] == 2 and s.turn() == "p1"
    assert s.seats["p1"].hand_view() == {"red": 2, "yellow": 0, "green": 0, "blue": 0, "purple": 0}
    assert c.seats["p1"].facade.covered_count() == 3 and c.turn() == "p2"
    assert s.state_hash() != c.state_hash()
    assert s.seats["p1"].facade.cells == [None] * 45 and not any(s.seats["p1"].facade.by_color.values())
    owned = dict(s.seats["p1"].abilities)
    ability = next(iter(owned))
    c.seats["p1"].use(ability)
    c.seats["p1"].gain_ability("both_actions")
    assert s.seats["p1"].abilities == owned and not c.seats["p1"].can_use(ability)


def test_the_heuristic_prefers_progress_and_points() -> None:
    s = new_game(2)
    base = s.evaluate("p1")
    put(s, "p1", "purple-4", 0, 0)
    closer = s.evaluate("p1")
    put(s, "p1", "white-1", 4, 0)
    done = s.evaluate("p1")
    assert base < closer < done
    assert s.evaluate("p2") < base


def test_phase_labels() -> None:
    s = new_game(2)
    assert s.phase() == (1, "start")
    play(s, "p1", {"type": "take_card", "slot": 0})
    assert s.phase() == (1, "second_card")
    fresh = GAME.initial_state(["a", "b"])
    assert fresh.phase() == (None, "setup")
