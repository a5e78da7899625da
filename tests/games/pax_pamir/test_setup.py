"""Setup: the six-pile deck, the opening market, loyalty in turn order, the first player."""

from __future__ import annotations

import pytest
from pax_pamir_helpers import GAME, MARKET, PIDS, setup

from replay.engine import ChanceRequest, ImpossibleChance
from replay.games.pax_pamir.components import DOMINANCE_CHECKS, OTHER_EVENTS
from replay.games.pax_pamir.market import draw_pool
from replay.games.pax_pamir.moves import ChooseLoyalty
from replay.games.pax_pamir.state import PaxState


@pytest.mark.parametrize(("n", "size"), [(2, 52), (3, 58), (4, 64), (5, 70)])
def test_deck_size_follows_the_player_count(n: int, size: int) -> None:
    s = GAME.initial_state(list(PIDS[:n]), {})
    assert isinstance(s, PaxState)
    assert s.deck_size() == size
    assert s.piles == [[5 + n, 0, 0], [5 + n, 2, 0]] + [[5 + n, 1, 1]] * 4


def test_opening_market_is_dealt_column_by_column() -> None:
    s = setup(2)
    assert s.market[0] == [MARKET[0], MARKET[2], MARKET[4], MARKET[6], MARKET[8], MARKET[10]]
    assert s.market[1] == [MARKET[1], MARKET[3], MARKET[5], MARKET[7], MARKET[9], MARKET[11]]
    assert s.deck_size() == 52 - 12
    assert s.rupees == {"p1": 4, "p2": 4}
    assert s.favored == "political"
    assert all(r is None for r in s.rulers.values())


def test_pile_one_holds_only_court_cards() -> None:
    s = GAME.initial_state(["p1", "p2"], {})
    req = s.turn()
    assert isinstance(req, ChanceRequest) and req.kind == "draw" and req.name == "deck"
    items = {item for item, _ in req.pool}
    assert items == set(range(1, 101))
    with pytest.raises(ImpossibleChance, match="cannot be drawn"):
        s.apply_chance({"draw": "deck", "items": [105]})


def test_pile_two_adds_two_events_and_dominance_checks_start_in_pile_three() -> None:
    s = GAME.initial_state(["p1", "p2"], {})
    assert isinstance(s, PaxState)
    for card in range(1, 8):  # pile 1: 7 court cards
        s.apply_chance({"draw": "deck", "items": [card]})
    pool = dict(draw_pool(s))
    assert set(OTHER_EVENTS) <= set(pool) and not set(DOMINANCE_CHECKS) & set(pool)
    # weights follow the pile: 7 court cards and 2 events among 93 court cards and 12 events
    court_weight = sum(w for c, w in pool.items() if c <= 100)
    event_weight = sum(w for c, w in pool.items() if c > 100)
    assert court_weight * 2 == event_weight * 7
    s.apply_chance({"draw": "deck", "items": [105]})
    s.apply_chance({"draw": "deck", "items": [106]})
    pool = dict(draw_pool(s))
    assert all(c <= 100 for c in pool), "pile 2 has no third event"
    s.piles[1] = [0, 0, 0]
    pool = dict(draw_pool(s))
    assert set(DOMINANCE_CHECKS) <= set(pool)


def test_official_loyalty_starts_with_a_random_player_and_the_last_chooser_starts() -> None:
    s = GAME.initial_state(["p1", "p2", "p3"], {})
    for card in MARKET:
        s.apply_chance({"draw": "deck", "items": [card]})
    req = s.turn()
    assert isinstance(req, ChanceRequest) and req.kind == "choose" and req.name == "first_chooser"
    s.apply_chance({"choose": "first_chooser", "value": "p2"})
    assert s.turn() == "p2"
    s.apply_move("p2", ChooseLoyalty(coalition="russian"))
    assert s.turn() == "p3"
    s.apply_move("p3", ChooseLoyalty(coalition="russian"))
    s.apply_move("p1", ChooseLoyalty(coalition="british"))
    assert s.turn() == "p1" and s.current == "p1" and s.actions_left == 2
    changes = [m for m in s.milestones if m["type"] == "loyalty_change"]
    assert [(m["player_id"], m["old"], m["new"]) for m in changes] == [
        ("p2", None, "russian"), ("p3", None, "russian"), ("p1", None, "british")]


def test_bga_loyalty_goes_in_seat_order_and_the_last_seat_starts() -> None:
    s = GAME.initial_state(["p1", "p2", "p3"], {"ruleset": "bga"})
    for card in MARKET:
        s.apply_chance({"draw": "deck", "items": [card]})
    assert s.turn() == "p1"
    for p in ("p1", "p2", "p3"):
        s.apply_move(p, ChooseLoyalty(coalition="afghan"))
    assert s.turn() == "p3"


def test_unknown_coalition_is_refused() -> None:
    s = GAME.initial_state(["p1", "p2"], {"ruleset": "bga"})
    for card in MARKET:
        s.apply_chance({"draw": "deck", "items": [card]})
    from pax_pamir_helpers import illegal

    illegal(s, ChooseLoyalty(coalition="french"), "p1", "french", "afghan, british, russian")
