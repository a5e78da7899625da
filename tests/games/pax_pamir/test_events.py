"""Every event card: its purchased effect and its discarded effect."""

from __future__ import annotations

import pytest
from pax_pamir_helpers import armies, illegal, legal, play, roads, setup, spies, to_court, to_hand, tribes

from replay.games.pax_pamir.actions import hostage_bribe
from replay.games.pax_pamir.bribes import play_bribe
from replay.games.pax_pamir.moves import (
    Buy,
    ChooseSuit,
    Discard,
    EndTurn,
    OfferBribe,
    Play,
    Rebuke,
    RefuseBribe,
    Rumor,
    SwapHands,
    Withdraw,
)


def bought(event: int, n: int = 2) -> object:
    s = setup(n)
    s.market[0][0] = event
    s.seen.add(event)
    play(s, Buy(row=0, col=0))
    return s


def discarded(event: int, n: int = 2, prepare: object = None) -> object:
    s = setup(n)
    s.market[0][0] = event
    s.seen.add(event)
    if callable(prepare):
        prepare(s)
    play(s, EndTurn())
    return s


# ---------------------------------------------------------------- purchased


def test_new_tactics_makes_the_buyers_military_cards_act_favored() -> None:
    s = bought(105)
    to_court(s, "p1", 16)
    assert s.held_events["p1"] == [105] and s.acts_favored(16)


def test_koh_i_noor_recovered_doubles_the_buyers_gifts() -> None:
    s = bought(106)
    s.gifts["p1"] = [2, 4]
    s.gifts["p2"] = [2]
    assert s.influence("p1") == 1 + 4 and s.influence("p2") == 2


def test_courtly_manners_lets_the_buyer_choose_not_to_pay_bribes() -> None:
    """Issue 16, departure 2: the card says its buyer *may* choose not to pay bribes, so the
    bribe step stays a decision: an offer of 0 goes through without the ruler's consent, the
    full bribe may still be paid, a partial one still needs consent, and withdrawing is possible."""
    s = bought(107)
    tribes(s, "kabul", "p2", 2)
    to_hand(s, "p1", 16, 6)
    play(s, Play(card=16, side="left"))
    assert legal(s) == [OfferBribe(amount=0), OfferBribe(amount=1), OfferBribe(amount=2), Withdraw()]
    play(s, Withdraw())
    assert s.hands["p1"] == [16, 6] and s.actions_left == 1 and s.declines == 0
    s.actions_left = 2  # (the purchase of the event used one; give the second play room)
    play(s, Play(card=16, side="left"))
    play(s, OfferBribe(amount=0))
    assert s.courts["p1"] == [16] and s.rupees == {"p1": 4, "p2": 4}, "unpaid, no consent needed"
    play(s, Play(card=6, side="left"))
    play(s, OfferBribe(amount=2))
    assert s.rupees == {"p1": 2, "p2": 6}, "the buyer may still pay"


def test_courtly_manners_partial_offer_still_needs_consent() -> None:
    s = bought(107)
    tribes(s, "kabul", "p2", 2)
    to_hand(s, "p1", 16)
    play(s, Play(card=16, side="left"))
    play(s, OfferBribe(amount=1))
    assert s.turn() == "p2"
    play(s, RefuseBribe())
    assert s.hands["p1"] == [16]


def test_rumor_silences_a_players_patriots_and_may_name_the_buyer() -> None:
    s = bought(108)
    assert legal(s) == [Rumor(player="p1"), Rumor(player="p2")]
    illegal(s, Rumor(player="p9"), "no such player")
    to_court(s, "p2", 19, 20)  # two British patriots
    assert s.influence("p2") == 3
    play(s, Rumor(player="p2"))
    assert s.influence("p2") == 1 and s.held_events["p2"] == [108]


def test_an_observation_after_a_rumor_counts_its_targets_influence_again() -> None:
    """Influence kept between observations is counted again for the player a Rumor names."""
    s = bought(108)
    to_court(s, "p2", 19, 20)  # two British patriots
    keys = ("influence", "rupees")
    assert s.observed(keys)["influence"]["p2"] == 3
    play(s, Rumor(player="p2"))
    assert s.observed(keys) == s.observe(keys) and s.observed(keys)["influence"]["p2"] == 1


def test_backing_of_persian_aristocracy_gives_three_rupees() -> None:
    s = bought(113)
    assert s.rupees["p1"] == 7 and 113 in s.discard_pile


def test_other_persuasive_methods_swaps_hands() -> None:
    s = setup()
    s.market[0][0] = 114
    to_hand(s, "p1", 12)
    to_hand(s, "p2", 18, 19)
    play(s, Buy(row=0, col=0))
    assert legal(s) == [SwapHands(player="p2")]
    illegal(s, SwapHands(player="p1"), "another player")
    play(s, SwapHands(player="p2"))
    assert s.hands == {"p1": [18, 19], "p2": [12]}


def test_pashtunwali_values_chooses_the_suit_and_freezes_it() -> None:
    s = bought(115)
    assert len(legal(s)) == 4
    illegal(s, ChooseSuit(suit="gold"), "the suits are")
    play(s, ChooseSuit(suit="military"))
    assert s.favored == "military"
    to_hand(s, "p1", 8)  # Kabul Bazaar: road, road, spy, favor political
    play(s, Play(card=8, side="left"))
    while s.stack[-1].__class__.__name__ != "ActionsTask":
        play(s, legal(s)[0])
    assert s.favored == "military"


def test_rebuke_clears_tribes_and_armies_but_not_roads() -> None:
    s = setup()
    s.market[0][0] = 116
    to_court(s, "p2", 5)
    tribes(s, "kabul", "p2")
    armies(s, "kabul", "british", 2)
    roads(s, "kabul_punjab", "british")
    play(s, Buy(row=0, col=0))
    illegal(s, Rebuke(region="paris"), "the regions are")
    play(s, Rebuke(region="kabul"))
    assert s.tribes["kabul"]["p2"] == 0 and s.armies["kabul"]["british"] == 0
    assert s.roads["kabul_punjab"]["british"] == 1
    assert s.courts["p2"] == [], "p2 lost the last Kabul tribe: Kabul political cards go"


@pytest.mark.parametrize("event", [109, 110, 112])
def test_lasting_purchases_stay_with_the_buyer(event: int) -> None:
    s = bought(event)
    assert s.held_events["p1"] == [event]


# ---------------------------------------------------------------- discarded


@pytest.mark.parametrize(("event", "suit"), [(105, "military"), (115, "intelligence"), (116, "political")])
def test_suit_events_change_the_favored_suit_when_discarded(event: int, suit: str) -> None:
    s = discarded(event, prepare=lambda s: setattr(s, "favored", "economic"))
    assert s.favored == suit


def test_a_discarded_suit_event_is_ignored_under_pashtunwali_values() -> None:
    def prepare(s: object) -> None:
        s.held_events["p2"].append(115)  # type: ignore[attr-defined]
    s = discarded(105, prepare=prepare)
    assert s.favored == "political"


def test_embarrassment_of_riches_makes_gifts_worthless_until_the_next_check() -> None:
    def prepare(s: object) -> None:
        s.gifts["p2"] = [2, 4]  # type: ignore[attr-defined]
    s = discarded(106, prepare=prepare)
    assert s.global_events == [106] and s.influence("p2") == 1


def test_disregard_for_customs_waives_every_bribe() -> None:
    s = discarded(107)
    assert s.global_events == [107]
    assert s.bribes_waived()
    tribes(s, "kabul", "p2", 2)
    spies(s, 11, "p2", 2)
    to_court(s, "p1", 11)
    assert play_bribe(s, "p1", 16) is None and hostage_bribe(s, "p1", 11) is None, "no bribe step at all"


def test_failure_to_impress_discards_every_prize() -> None:
    def prepare(s: object) -> None:
        s.prizes["p1"].append(10)  # type: ignore[attr-defined]
        s.prizes["p2"].append(20)  # type: ignore[attr-defined]
    s = discarded(108, prepare=prepare)
    assert s.prizes == {"p1": [], "p2": []} and {10, 20} <= set(s.discard_pile)


@pytest.mark.parametrize(("event", "region"), [(109, "punjab"), (110, "herat"), (112, "kabul"), (113, "persia")])
def test_riots_clear_a_region(event: int, region: str) -> None:
    def prepare(s: object) -> None:
        tribes(s, region, "p2", 2)  # type: ignore[arg-type]
        armies(s, region, "afghan", 3)  # type: ignore[arg-type]
    s = discarded(event, prepare=prepare)
    assert s.tribes[region]["p2"] == 0 and s.armies[region]["afghan"] == 0
    assert s.rulers[region] is None


def test_public_withdrawal_discarded_has_no_effect() -> None:
    s = discarded(111)
    assert 111 in s.discard_pile and s.favored == "political"


def test_confidence_failure_makes_everyone_with_a_hand_discard_one_active_player_first() -> None:
    def prepare(s: object) -> None:
        to_hand(s, "p1", 12)  # type: ignore[arg-type]
        to_hand(s, "p2", 18, 19)  # type: ignore[arg-type]
    s = discarded(114, prepare=prepare)
    assert s.turn() == "p1" and legal(s) == [Discard(card=12)]
    play(s, Discard(card=12))
    assert s.turn() == "p2"
    play(s, Discard(card=19))
    assert s.hands == {"p1": [], "p2": [18]}


def test_a_discarded_dominance_check_is_resolved() -> None:
    s = discarded(101)
    assert [m["check_no"] for m in s.milestones if m["type"] == "dominance_check"] == [1, 1]
    assert s.dc_cards_done == 1
