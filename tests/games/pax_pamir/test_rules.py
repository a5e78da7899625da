"""Rulership, the overthrow rule both ways, leverage, cleanup limits and the final ranking."""

from __future__ import annotations

from pax_pamir_helpers import armies, illegal, legal, play, setup, spies, to_court, to_hand, tribes

from replay.games.pax_pamir import board
from replay.games.pax_pamir.court import change_loyalty, discard_from_court
from replay.games.pax_pamir.moves import Discard, EndTurn

# ---------------------------------------------------------------- rulership


def test_no_ruler_without_a_tribe() -> None:
    s = setup()
    armies(s, "kabul", "afghan", 3)
    assert s.rulers["kabul"] is None


def test_tied_ruling_pieces_mean_no_ruler() -> None:
    s = setup()
    tribes(s, "kabul", "p1")
    assert s.rulers["kabul"] == "p1"
    tribes(s, "kabul", "p2")
    assert s.rulers["kabul"] is None
    changes = [(m["old_ruler"], m["new_ruler"]) for m in s.milestones if m["type"] == "rulership_change"]
    assert changes == [(None, "p1"), ("p1", None)]


def test_own_coalition_armies_count_for_rule() -> None:
    s = setup()
    tribes(s, "kabul", "p2", 2)
    tribes(s, "kabul", "p1")
    armies(s, "kabul", "afghan", 2)
    assert s.rulers["kabul"] == "p1"


def test_armies_of_a_coalition_nobody_serves_can_deny_rule() -> None:
    s = setup()
    tribes(s, "herat", "p1", 2)
    armies(s, "herat", "russian", 2)
    assert s.rulers["herat"] is None
    tribes(s, "herat", "p1")
    assert s.rulers["herat"] == "p1"


def test_players_of_one_coalition_share_armies_and_tribes_break_the_tie() -> None:
    s = setup(3, loyalties=("afghan", "british", "afghan"))
    armies(s, "kabul", "afghan", 2)
    tribes(s, "kabul", "p1", 2)
    tribes(s, "kabul", "p3", 1)
    assert s.rulers["kabul"] == "p1"


def test_a_loyalty_change_moves_rulership() -> None:
    s = setup()
    tribes(s, "kabul", "p1")
    armies(s, "kabul", "british", 2)
    assert s.rulers["kabul"] is None
    change_loyalty(s, "p1", "british")
    assert s.rulers["kabul"] == "p1"


# ---------------------------------------------------------------- overthrow


def test_losing_the_last_political_card_of_a_region_removes_the_tribes() -> None:
    s = setup()
    to_court(s, "p1", 5, 7)  # two Kabul political cards
    tribes(s, "kabul", "p1", 2)
    discard_from_court(s, "p1", 5)
    assert s.tribes["kabul"]["p1"] == 2, "another Kabul political card remains"
    discard_from_court(s, "p1", 7)
    assert s.tribes["kabul"]["p1"] == 0 and s.rulers["kabul"] is None
    assert s.cyl_supply["p1"] == 10


def test_losing_the_last_tribe_discards_the_regions_political_cards() -> None:
    s = setup()
    to_court(s, "p1", 5, 9, 55)  # Kabul political, Kabul economic, Herat political
    tribes(s, "kabul", "p1")
    tribes(s, "herat", "p1")
    board.remove_tribe(s, "p1", "kabul")
    assert s.courts["p1"] == [9, 55]
    assert 5 in s.discard_pile


# ---------------------------------------------------------------- leverage


def test_a_discarded_leveraged_card_is_repaid() -> None:
    s = setup()
    to_court(s, "p1", 14)
    s.leveraged.add(14)
    discard_from_court(s, "p1", 14)
    assert s.rupees["p1"] == 2 and 14 not in s.leveraged


def test_unpaid_leverage_forces_discards_which_may_cascade() -> None:
    s = setup()
    to_court(s, "p1", 14, 30, 9)
    to_hand(s, "p1", 12)
    s.leveraged.update({14, 30})
    s.rupees["p1"] = 1
    discard_from_court(s, "p1", 14)
    s.advance()
    assert s.rupees["p1"] == 0 and s.turn() == "p1"
    assert legal(s) == [Discard(card=12), Discard(card=30), Discard(card=9)]
    play(s, Discard(card=30))  # leveraged too: 2 more discards, nothing to pay with
    assert sorted(m.card for m in legal(s)) == [9, 12]
    play(s, Discard(card=9))
    play(s, Discard(card=12))
    assert s.courts["p1"] == [] and s.hands["p1"] == []
    assert s.stack[-1].__class__.__name__ == "ActionsTask", "with no cards left the debt is forgiven"


# ---------------------------------------------------------------- cleanup


def test_cleanup_enforces_the_court_limit_then_the_hand_limit() -> None:
    s = setup()
    to_court(s, "p1", 9, 11, 14, 16, 31)  # no political stars: limit 3
    to_hand(s, "p1", 12, 18, 19, 20)  # no intelligence stars: limit 2
    play(s, EndTurn())
    assert s.turn() == "p1"
    assert {m.card for m in legal(s)} == {9, 11, 14, 16, 31}
    illegal(s, Discard(card=12), "not in p1's court")
    play(s, Discard(card=9))
    play(s, Discard(card=11))
    assert {m.card for m in legal(s)} == {12, 18, 19, 20}
    play(s, Discard(card=12))
    play(s, Discard(card=18))
    assert s.turn() == "p2"


def test_limits_grow_with_political_and_intelligence_stars() -> None:
    s = setup()
    to_court(s, "p1", 7, 21)  # Dost Mohammad (political 2), Alexander Burnes (intelligence 2)
    assert s.court_limit("p1") == 5 and s.hand_limit("p1") == 4


# ---------------------------------------------------------------- ranking


def test_ties_are_broken_by_military_stars_then_rupees() -> None:
    s = setup(3)
    for p in ("p1", "p2", "p3"):
        s.vp[p]["dominance_successful"] = 5
    to_court(s, "p2", 32)  # Army of the Indus: 3 military stars
    s.rupees.update({"p1": 3, "p2": 0, "p3": 3})
    assert s.ranking() == {"p1": 2, "p2": 1, "p3": 2}
    s.rupees["p3"] = 4
    assert s.ranking() == {"p1": 3, "p2": 1, "p3": 2}


def test_spies_return_home_when_their_card_is_discarded() -> None:
    s = setup()
    to_court(s, "p1", 9)
    spies(s, 9, "p2", 3)
    discard_from_court(s, "p1", 9)
    assert s.cyl_supply["p2"] == 10 and 9 not in s.spies
