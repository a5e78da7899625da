"""The harbour refill, the deck rebuild, the mermaid (section 8) and the end of the game (10)."""

from __future__ import annotations

import pytest
from copenhagen_helpers import GAME, deck, new_game, play, put, refill, set_deck

from replay.engine import OVER, ChanceRequest, GameOverError, ImpossibleChance
from replay.games.copenhagen.state import CopenhagenState
from replay.replayer import replay
from replay.simulate import simulate_one

NONE = {"red": 0, "yellow": 0, "green": 0, "blue": 0, "purple": 0}


def take_two(s: CopenhagenState, pid: str, a: int, b: int) -> ChanceRequest:
    play(s, pid, {"type": "take_card", "slot": a})
    play(s, pid, {"type": "take_card", "slot": b})
    t = s.turn()
    assert isinstance(t, ChanceRequest)
    return t


def test_two_players_mermaid_only_among_the_bottom_ten() -> None:
    s = new_game(2)
    assert s.mermaid == "deck"
    set_deck(s, red=10)  # 11 cards with the mermaid: it cannot be next
    t = take_two(s, "p1", 0, 1)
    assert dict(t.pool) == {"red": 10}
    with pytest.raises(ImpossibleChance):
        s.apply_chance({"draw": "facade", "items": ["mermaid"]})
    refill(s, "red")  # now 10 cards are left: the mermaid may be any of them
    t2 = s.turn()
    assert isinstance(t2, ChanceRequest) and dict(t2.pool) == {"red": 9, "mermaid": 1}


def test_mermaid_stops_the_refill_and_ends_the_game_after_the_turn() -> None:
    s = new_game(2)
    set_deck(s, blue=4)
    take_two(s, "p1", 2, 3)
    refill(s, "mermaid")
    assert s.turn() is OVER and s.end == "mermaid"
    assert s.harbour[2] == "mermaid" and s.harbour[3] is None
    assert s.snapshot()["mermaid"] == "harbour"
    with pytest.raises(GameOverError):
        play(s, "p2", {"type": "take_card", "slot": 0})


def test_three_players_mermaid_waits_for_the_rebuilt_deck() -> None:
    s = new_game(3)
    set_deck(s, red=1)
    s.discard = {**NONE, "green": 3, "blue": 2}
    t = take_two(s, "p1", 0, 1)
    assert s.mermaid == "aside" and dict(t.pool) == {"red": 1}
    refill(s, "red")
    # the deck is empty and slot 1 (harbour slot 2) still needs a card: the discard pile becomes the deck, mermaid inside
    assert s.rebuilds == 1 and s.mermaid == "deck" and s.discard == NONE
    t2 = s.turn()
    assert isinstance(t2, ChanceRequest) and t2.reason == "refill harbour slot 2"
    assert dict(t2.pool) == {"green": 3, "blue": 2, "mermaid": 1}
    assert s.observe(["deck_size"]) == {"deck_size": 6}


def test_a_large_rebuilt_deck_keeps_the_mermaid_down_until_ten_cards_remain() -> None:
    s = new_game(4)
    set_deck(s)
    s.discard = {**NONE, "yellow": 12}
    t = take_two(s, "p1", 5, 6)
    assert s.rebuilds == 1 and dict(t.pool) == {"yellow": 12}
    refill(s, "yellow")
    t2 = s.turn()
    assert isinstance(t2, ChanceRequest) and dict(t2.pool) == {"yellow": 11}
    refill(s, "yellow")
    assert s.turn() == "p2" and deck(s)["yellow"] == 10


def test_the_rebuilt_deck_can_be_the_mermaid_alone() -> None:
    s = new_game(3)
    set_deck(s)
    t = take_two(s, "p1", 3, 4)
    assert dict(t.pool) == {"mermaid": 1}
    refill(s, "mermaid")
    assert s.turn() is OVER and s.harbour[4] is None


def end_with_mermaid(s: CopenhagenState) -> None:
    set_deck(s, red=1)
    take_two(s, "p1", 0, 1)
    refill(s, "mermaid")
    assert s.turn() is OVER


def test_most_points_then_fewer_empty_cells_then_shared() -> None:
    s = new_game(3)
    put(s, "p1", "purple-5", 0, 0)       # 1 point, 5 cells
    put(s, "p2", "purple-5", 0, 0)       # 1 point, 7 cells
    put(s, "p2", "red-2", 0, 1)
    put(s, "p3", "purple-5", 0, 0)       # 1 point, 5 cells
    s.mermaid = "deck"
    end_with_mermaid(s)
    assert s.totals() == {"p1": 1, "p2": 1, "p3": 1}
    assert s.ranking() == {"p1": 2, "p2": 1, "p3": 2}


def test_a_wrong_final_rank_is_a_result_mismatch() -> None:
    rec = simulate_one(GAME, 2, 3, 0)
    assert rec.result is not None
    assert sorted(rec.result["rank"].values()) == [1, 2]
    rec.result["rank"] = {p: 1 for p in rec.player_ids}  # claims a shared victory
    r = replay(rec)
    assert [d.kind for d in r.divergences] == ["result_mismatch"]
    assert r.divergences[0].seq == len(rec.events) - 1  # reported at the last event


def test_a_refill_card_is_checked_as_the_pool_would_check_it() -> None:
    """The refill's direct check of a drawn card (no pool made) accepts exactly the cards of the
    draw pool, at every refill of simulated and pass-heavy games, and leaves the state the
    checked path (request made first, the card checked against its pool) leaves."""
    from benchmarks.replay_speed import pass_heavy
    from replay.games.copenhagen.rules.harbour import DRAW
    from replay.games.copenhagen.steps import Refill
    from replay.record import ChanceEvent, MoveEvent

    candidates: list[object] = [None, 0, True, ["red"], "gold", "mermaid", "red", "yellow", "green",
                                "blue", "purple"]
    records = [simulate_one(GAME, n, seed, 0) for n, seed in ((2, 1), (3, 2), (4, 3))]
    refills = 0
    for rec in [*records, *pass_heavy("copenhagen", 4, seed=5)]:
        s = GAME.initial_state(rec.player_ids, rec.options)
        assert isinstance(s, CopenhagenState)
        for ev in rec.events:
            top = s.stack[-1] if s.stack and not s.over else None
            if type(ev) is ChanceEvent and isinstance(top, Refill) and top._req is None:
                req = s.copy().turn()
                assert isinstance(req, ChanceRequest)
                pool = {card for card, n in req.pool if n > 0}
                for card in candidates:
                    quick = top.outcome_at_once(s, {"draw": DRAW, "items": [card]}) is not None
                    assert quick == (type(card) is str and card in pool), card
                assert top.outcome_at_once(s, {"draw": "other", "items": ["red"]}) is None
                assert top.outcome_at_once(s, {"draw": DRAW, "items": ["red", "red"]}) is None
                checked = s.copy()
                checked.turn()  # the request is made: the card goes the checked way
                s.apply_chance(ev.outcome)
                checked.apply_chance(ev.outcome)
                assert checked.snapshot() == s.snapshot()
                refills += 1
            elif type(ev) is MoveEvent:
                s.apply_move(ev.player, ev.move)
            elif type(ev) is ChanceEvent:
                s.apply_chance(ev.outcome)
    assert refills > 100
