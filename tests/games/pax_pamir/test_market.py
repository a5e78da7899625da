"""Purchase (cost, rupees left on the cards, received-rupee lock), paying action costs to the
market, the refill (shift, draws, Public Withdrawal) and Instability."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pax_pamir_helpers import illegal, legal, play, setup, to_court

from benchmarks.replay_speed import pass_heavy
from replay.engine import ChanceRequest, State
from replay.games import get_game
from replay.games.pax_pamir.components import PUBLIC_WITHDRAWAL
from replay.games.pax_pamir.market import RefillTask, pay_to_market, shift_market
from replay.games.pax_pamir.moves import Buy, EndTurn, Gift
from replay.record import ChanceEvent, MoveEvent

# default market: row 0 = 9 29 48 62 65 96, row 1 = 13 44 61 63 67 95


def test_purchase_costs_the_column_and_leaves_one_rupee_per_card_to_the_left() -> None:
    s = setup()
    play(s, Buy(row=0, col=3))
    assert s.rupees["p1"] == 1 and s.hands["p1"] == [62]
    assert s.market[0][3] is None
    assert s.market_rupees[0][:3] == [1, 1, 1] and s.market_rupees[1] == [0] * 6
    assert s.actions_left == 1
    illegal(s, Buy(row=0, col=2), "p1 cannot buy Fruit Markets", "received rupees this turn")
    illegal(s, Buy(row=1, col=2), "it costs 2 rupees, p1 has 1")
    play(s, Buy(row=1, col=1))
    assert s.market_rupees[1][0] == 1 and s.rupees["p1"] == 0
    illegal(s, Buy(row=1, col=0), "no actions left")


def test_military_favored_doubles_cost_and_rupees_per_card() -> None:
    s = setup()
    s.favored = "military"
    s.rupees["p1"] = 10
    play(s, Buy(row=1, col=2))
    assert s.rupees["p1"] == 6
    assert s.market_rupees[1][:2] == [2, 2]


def test_rupees_go_to_the_other_row_when_a_cell_is_empty_and_are_lost_when_both_are() -> None:
    s = setup()
    s.rupees["p1"] = 10
    play(s, Buy(row=0, col=1))
    play(s, Buy(row=0, col=3))
    assert s.market_rupees[1][1] == 1, "column 1 top is empty: the rupee goes to the bottom card"
    assert s.market_rupees[0][2] == 1 and s.market_rupees[0][0] == 2
    s2 = setup()
    s2.market[0][1] = s2.market[1][1] = None
    play(s2, Buy(row=0, col=2))
    assert s2.rupees["p1"] == 2
    assert sum(map(sum, s2.market_rupees)) == 1, "the rupee for the empty column is lost"


def test_buyer_takes_the_rupees_on_the_card() -> None:
    s = setup()
    s.market_rupees[0][4] = 3
    play(s, Buy(row=0, col=4))
    assert s.rupees["p1"] == 4 - 4 + 3


def test_public_withdrawal_cannot_be_bought_and_swallows_rupees() -> None:
    s = setup()
    s.market[0][0] = 111
    illegal(s, Buy(row=0, col=0), "Public Withdrawal can never be purchased")
    assert Buy(row=0, col=0) not in legal(s)
    play(s, Buy(row=0, col=2))
    assert s.market_rupees[0][0] == 0 and s.market_rupees[0][1] == 1


def test_influence_abilities_make_cards_free() -> None:
    s = setup()
    to_court(s, "p1", 66, 68, 70)
    s.rupees["p1"] = 0
    s.market[0][4] = 76  # Persia (Persian Influence)
    play(s, Buy(row=1, col=2))  # 61 Herat: Herat Influence
    play(s, Buy(row=0, col=4))
    assert s.hands["p1"] == [61, 76] and s.rupees["p1"] == 0
    s.actions_left = 1
    play(s, Buy(row=1, col=5))  # 95 is a Russian patriot: Russian Influence
    assert 95 in s.hands["p1"]
    s.actions_left = 1
    illegal(s, Buy(row=0, col=1), "Khyber Pass in column 2: it costs 1 rupee, p1 has 0")


def test_action_costs_go_one_rupee_per_card_from_the_right_half_to_each_row() -> None:
    s = setup()
    to_court(s, "p1", 11)  # Lapis Lazuli Mine: tax, gift
    play(s, Gift(card=11, value=4))
    assert s.market_rupees[0] == [0, 0, 0, 0, 1, 1]
    assert s.market_rupees[1] == [0, 0, 0, 0, 1, 1]
    assert s.rupees["p1"] == 0 and s.gifts["p1"] == [4]
    illegal(s, Buy(row=0, col=5), "received rupees this turn", player="p1")


def test_action_cost_rupees_skip_empty_cells_and_leave_the_game_without_cards() -> None:
    s = setup()
    s.market[0] = [None, None, None, None, None, 9]
    s.rupees["p1"] = 6
    pay_to_market(s, "p1", 6)
    assert s.market_rupees[0][5] == 1, "only one card in the top row: the two other rupees are lost"
    assert s.market_rupees[1][3:] == [1, 1, 1]


def test_shift_carries_rupees_and_cards_pick_up_rupees_left_on_a_cell() -> None:
    s = setup()
    s.market[0][0] = None
    s.market_rupees[0][0] = 2  # left there by a discarded event
    s.market[0][2] = None
    s.market_rupees[0][3] = 1
    shift_market(s)
    assert s.market[0] == [29, 62, 65, 96, None, None]
    assert s.market_rupees[0] == [2, 1, 0, 0, 0, 0]


def test_public_withdrawal_removes_rupees_on_the_cell_it_reaches_official_vs_bga() -> None:
    for ruleset, expected in (("official", 0), ("bga", 3)):
        s = setup(ruleset=ruleset)
        s.market[0][1] = None
        s.market_rupees[0][1] = 3
        s.market[0][2] = 111
        shift_market(s)
        assert s.market[0][1] == 111
        assert s.market_rupees[0][1] == expected, ruleset
    s = setup(ruleset="bga")
    s.market[0][0] = None
    s.market_rupees[0][0] = 3
    s.market[0][1] = 111
    shift_market(s)
    assert s.market_rupees[0][0] == 0, "BGA removes them when Public Withdrawal shifts into column 0"


def test_cleanup_discards_events_in_column_zero_and_refills_from_the_deck() -> None:
    s = setup()
    s.market[0][0] = 105  # New Tactics / military suit
    s.market_rupees[0][0] = 1
    play(s, Buy(row=1, col=2))
    play(s, EndTurn())
    assert s.favored == "military"
    assert 105 in s.discard_pile
    req = s.turn()
    assert isinstance(req, ChanceRequest) and req.reason == "the top row, column 6 of the market"
    assert s.market[0][0] == 29 and s.market_rupees[0][0] == 1, "rupees on the discarded event's cell join 29"
    assert s.market[1][:2] == [13, 44] and s.market_rupees[1][1] == 1
    s.apply_chance({"draw": "deck", "items": [1]})
    s.apply_chance({"draw": "deck", "items": [2]})
    assert s.market[0][5] == 1 and s.market[1][5] == 2
    assert s.turn() == "p2"


def test_instability_resolves_one_check_and_discards_both_dominance_checks() -> None:
    s = setup()
    s.market[1][5] = 101
    s.seen.add(101)
    s.piles = [[0, 0, 0], [0, 0, 0], [7, 1, 1], [7, 1, 1], [7, 1, 1], [7, 1, 1]]
    play(s, Buy(row=0, col=0))
    play(s, EndTurn())
    s.apply_chance({"draw": "deck", "items": [102]})
    checks = [m for m in s.milestones if m["type"] == "dominance_check"]
    assert len(checks) == 2 and checks[0]["check_no"] == 1 and not checks[0]["is_final"]
    assert 101 in s.discard_pile and 102 in s.discard_pile
    assert s.dc_cards_done == 2
    assert all(c not in (101, 102) for row in s.market for c in row)
    req = s.turn()
    assert isinstance(req, ChanceRequest), "the refill goes on after Instability"


def test_instability_with_the_last_dominance_checks_is_the_final_check() -> None:
    s = setup()
    s.market[1][5] = 103
    s.seen.update({101, 102, 103})
    s.dc_cards_done = 2
    s.checks_resolved = 2
    s.piles = [[0, 0, 0]] * 5 + [[7, 1, 1]]
    s.piles = [list(p) for p in s.piles]
    play(s, Buy(row=0, col=0))
    play(s, EndTurn())
    s.apply_chance({"draw": "deck", "items": [104]})
    checks = [m for m in s.milestones if m["type"] == "dominance_check"]
    assert checks[0]["is_final"] and checks[0]["check_no"] == 3
    assert s.is_over()


def test_bga_discards_the_two_checks_before_resolving_with_the_same_outcome() -> None:
    results = []
    for ruleset in ("official", "bga"):
        s = setup(ruleset=ruleset)
        me = s.current
        s.market[1][5] = 101
        s.seen.add(101)
        s.piles = [[0, 0, 0], [0, 0, 0], [7, 1, 1], [7, 1, 1], [7, 1, 1], [7, 1, 1]]
        play(s, Buy(row=0, col=0))
        play(s, EndTurn())
        s.apply_chance({"draw": "deck", "items": [102]})
        rows = [m for m in s.milestones if m["type"] == "dominance_check"]
        results.append((sorted((m["player_id"] == me, m["points"], m["is_final"]) for m in rows), s.dc_cards_done))
    assert results[0] == results[1]



def test_a_drawn_card_is_checked_as_the_pool_would_check_it() -> None:
    """The refill's direct check of a drawn card (no pool listed) accepts exactly the cards of
    the draw pool, at every draw of pass-heavy games, and leaves the state the generic checked
    path (pool and all) leaves."""
    candidates: list[object] = [None, 0, True, "9", [9], *range(1, 120)]
    draws = 0
    for rec in pass_heavy("pax_pamir", 6, seed=3):
        s = get_game("pax_pamir").initial_state(rec.player_ids, rec.options)
        for ev in rec.events:
            top = s.stack[-1] if s.stack and not s.over else None
            if isinstance(top, RefillTask):
                req = s.copy().turn()
                assert isinstance(req, ChanceRequest) and top.awaits(s)
                pool = {card for card, n in req.pool if n > 0}
                for card in candidates:
                    quick = top.draws(s, {"draw": "deck", "items": [card]})
                    assert quick == (type(card) is int and card in pool), card
                draws += 1
            if isinstance(ev, MoveEvent):
                s.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                generic = s.copy()
                s.apply_chance(ev.outcome)
                State.apply_chance(generic, ev.outcome)
                assert generic.snapshot() == s.snapshot()
    assert draws > 50


def _shifted(line: list[int | None], rupees: list[int], bga: bool) -> tuple[list[int | None], list[int]]:
    """One row shifted as the rulebook says, cell by cell: each card slides left past the
    empty cells, with its rupees, and picks up rupees lying on the cell it reaches (Public
    Withdrawal removes them; under BGA only when it reaches column 0 from elsewhere)."""
    cards: list[int | None] = [None] * 6
    out = [0 if card is not None else n for card, n in zip(line, rupees, strict=True)]  # rupees lying loose
    to = 0
    for col, card in enumerate(line):
        if card is None:
            continue
        picked = out[to]
        if card == PUBLIC_WITHDRAWAL and (not bga or (to == 0 and col != 0)):
            picked = 0
        cards[to], out[to] = card, rupees[col] + picked
        to += 1
    return cards, out


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.lists(st.tuples(st.sampled_from([None, None, 0, 9, 29, PUBLIC_WITHDRAWAL]), st.integers(0, 3)),
                              min_size=6, max_size=6), min_size=2, max_size=2),
       bga=st.booleans())
def test_the_shift_moves_cards_and_rupees_as_the_rulebook_says(rows: list[list[tuple[int | None, int]]],
                                                                bga: bool) -> None:
    s = setup(ruleset="bga" if bga else "official")
    for r, row in enumerate(rows):
        # a card holds rupees; an empty cell holds some only now and then (an event discarded with them)
        s.market[r] = [card for card, _ in row]
        s.market_rupees[r] = [n if card is not None or n == 3 else 0 for card, n in row]
    expected = [_shifted(s.market[r], s.market_rupees[r], bga) for r in range(2)]
    shift_market(s)
    assert [(s.market[r], s.market_rupees[r]) for r in range(2)] == expected


@pytest.mark.parametrize("event, left", [(PUBLIC_WITHDRAWAL, 0), (105, 2)])
def test_rupees_on_a_discarded_event_join_the_next_card_but_leave_with_public_withdrawal(event: int, left: int) -> None:
    """BGA lets rupees lie on Public Withdrawal (fresh seed 7402 packet 207: a purchase's rupee) and
    removes them when it is discarded from column 0 (packet 208, publicWithdrawal); rupees left by
    another event stay on the cell for the card that shifts into it."""
    from replay.games.pax_pamir.turns import DiscardEventsTask

    s = setup(ruleset="bga")
    s.market[1][0] = event
    s.market_rupees[1][0] = 2
    task = DiscardEventsTask(s.current)
    s.push(task)
    task.run(s)
    assert s.market[1][0] is None and s.market_rupees[1][0] == left
