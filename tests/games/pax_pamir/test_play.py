"""Play: court ends, bribes to rulers, loyalty change by patriots, impact icons in order, and
the component-limit rule when a supply is empty."""

from __future__ import annotations

from pax_pamir_helpers import illegal, legal, play, setup, spies, to_court, to_hand, tribes

from replay.games.pax_pamir.moves import (
    AcceptBribe,
    OfferBribe,
    PlaceRoad,
    PlaceSpy,
    Play,
    RefuseBribe,
    TakePiece,
    Withdraw,
)


def test_cards_go_to_either_end_of_the_court_and_the_first_only_left() -> None:
    s = setup()
    to_hand(s, "p1", 15, 16)
    assert Play(card=15, side="right") not in legal(s)
    illegal(s, Play(card=15, side="right"), "court is empty")
    play(s, Play(card=15, side="left"))
    play(s, Play(card=16, side="left"))
    assert s.courts["p1"] == [16, 15]
    assert s.armies["kabul"]["afghan"] == 2
    assert s.actions_left == 0
    to_hand(s, "p1", 17)
    illegal(s, Play(card=17, side="right"), "no actions left")
    illegal(s, Play(card=99, side="left"), "not in p1's hand")


def test_full_bribe_is_paid_to_the_ruler_at_once() -> None:
    s = setup()
    tribes(s, "kabul", "p2", 2)
    assert s.rulers["kabul"] == "p2"
    to_hand(s, "p1", 16)
    play(s, Play(card=16, side="left"))
    assert s.turn() == "p1"
    assert legal(s) == [OfferBribe(amount=0), OfferBribe(amount=1), OfferBribe(amount=2), Withdraw()]
    illegal(s, OfferBribe(amount=3), "at most 2")
    play(s, OfferBribe(amount=2))
    assert s.rupees == {"p1": 2, "p2": 6}
    assert s.courts["p1"] == [16] and s.actions_left == 1


def test_a_smaller_bribe_needs_the_rulers_consent_and_a_refusal_costs_nothing() -> None:
    s = setup()
    tribes(s, "kabul", "p2", 2)
    to_hand(s, "p1", 16)
    play(s, Play(card=16, side="left"))
    play(s, OfferBribe(amount=1))
    assert s.turn() == "p2"
    play(s, RefuseBribe())
    assert s.turn() == "p1" and s.hands["p1"] == [16] and s.actions_left == 2 and s.rupees["p1"] == 4
    play(s, Play(card=16, side="left"))
    play(s, OfferBribe(amount=1))
    play(s, AcceptBribe())
    assert s.rupees == {"p1": 3, "p2": 5} and s.courts["p1"] == [16]


def test_the_payer_may_withdraw_at_the_bribe_step() -> None:
    s = setup()
    tribes(s, "kabul", "p2", 2)
    to_hand(s, "p1", 16)
    play(s, Play(card=16, side="left"))
    play(s, Withdraw())
    assert s.hands["p1"] == [16] and s.actions_left == 2 and s.rupees["p1"] == 4 and s.declines == 0
    assert s.stack[-1].__class__.__name__ == "ActionsTask"


def _three_refusals(ruleset: str) -> object:
    s = setup(ruleset=ruleset)
    me = s.current
    other = "p2" if me == "p1" else "p1"
    tribes(s, "kabul", other, 2)
    to_hand(s, me, 16)
    for _ in range(3):
        play(s, Play(card=16, side="left"))
        play(s, OfferBribe(amount=0))
        play(s, RefuseBribe())
    play(s, Play(card=16, side="left"))
    return s


def test_after_three_refusals_only_the_full_bribe_may_be_offered_on_bga() -> None:
    """Issue 16, departure 5: three refused bribes per turn is Board Game Arena's limit."""
    s = _three_refusals("bga")
    assert legal(s) == [OfferBribe(amount=2), Withdraw()]
    illegal(s, OfferBribe(amount=1), "3 offers were already refused", "BGA's limit")
    play(s, Withdraw())
    s.rupees[s.current] = 1
    illegal(s, Play(card=16, side="left"), "3 bribe offers refused", "full bribe of 2")


def test_the_rulebook_has_no_limit_on_refused_bribes() -> None:
    s = _three_refusals("official")
    assert legal(s) == [OfferBribe(amount=0), OfferBribe(amount=1), OfferBribe(amount=2), Withdraw()]
    play(s, OfferBribe(amount=0))
    play(s, AcceptBribe())
    assert s.courts["p1"] == [16] and s.rupees["p1"] == 4


def test_bribes_are_waived_by_charismatic_courtiers_and_disregard_for_customs() -> None:
    for setup_waiver in ("courtiers", "disregard"):
        s = setup()
        tribes(s, "kabul", "p2", 2)
        to_hand(s, "p1", 16)
        if setup_waiver == "courtiers":
            to_court(s, "p1", 42)
        else:
            s.global_events.append(107)
        play(s, Play(card=16, side="left"))
        assert 16 in s.courts["p1"], setup_waiver
        assert s.rupees["p1"] == 4


def test_no_bribe_in_a_region_one_rules_oneself() -> None:
    s = setup()
    tribes(s, "kabul", "p1", 1)
    to_hand(s, "p1", 16)
    play(s, Play(card=16, side="left"))
    assert s.courts["p1"] == [16]


def test_a_foreign_patriot_changes_loyalty_with_its_losses() -> None:
    s = setup()
    to_court(s, "p1", 3, 6)  # two Afghan patriots
    s.prizes["p1"].append(10)
    s.gifts["p1"].append(2)
    s.cyl_supply["p1"] -= 1
    spies(s, 3, "p2")
    to_hand(s, "p1", 19)  # British patriot (Punjab): spy, spy, favor economic
    assert s.influence("p1") == 1 + 2 + 1 + 1
    play(s, Play(card=19, side="right"))
    assert s.loyalty["p1"] == "british"
    assert s.courts["p1"] == [19]
    assert s.prizes["p1"] == [] and s.gifts["p1"] == [] and s.cyl_supply["p1"] == 10
    assert 3 not in s.spies and s.cyl_supply["p2"] == 10
    assert {3, 6, 10} <= set(s.discard_pile)
    change = [m for m in s.milestones if m["type"] == "loyalty_change"][-1]
    assert (change["player_id"], change["old"], change["new"]) == ("p1", "afghan", "british")
    assert legal(s) == [PlaceSpy(card=19)]
    play(s, PlaceSpy(card=19))
    play(s, PlaceSpy(card=19))
    assert s.spies[19] == {"p1": 2}
    assert s.favored == "economic"


def test_impact_icons_resolve_in_order_roads_then_leverage() -> None:
    s = setup()
    to_hand(s, "p1", 14)  # Money Lenders (Kabul): road, road, leverage
    play(s, Play(card=14, side="left"))
    assert {m.border for m in legal(s)} == {"herat_kabul", "kabul_kandahar", "kabul_punjab", "kabul_transcaspia"}
    illegal(s, PlaceRoad(border="herat_persia"), "border of Kabul")
    play(s, PlaceRoad(border="kabul_punjab"))
    play(s, PlaceRoad(border="kabul_punjab"))
    assert s.roads["kabul_punjab"]["afghan"] == 2
    assert s.rupees["p1"] == 6 and 14 in s.leveraged


def test_tribes_and_armies_make_a_ruler() -> None:
    s = setup()
    to_hand(s, "p1", 7)  # Dost Mohammad: tribe, tribe, army, spy
    play(s, Play(card=7, side="left"))
    assert s.tribes["kabul"]["p1"] == 2 and s.armies["kabul"]["afghan"] == 1
    assert s.rulers["kabul"] == "p1"
    rule = [m for m in s.milestones if m["type"] == "rulership_change"]
    assert rule[0]["region"] == "kabul" and rule[0]["old_ruler"] is None and rule[0]["new_ruler"] == "p1"
    assert legal(s) == [PlaceSpy(card=7)]
    illegal(s, PlaceSpy(card=15), "in no court")


def test_pashtunwali_values_blocks_favored_suit_icons() -> None:
    s = setup()
    s.held_events["p2"].append(115)
    to_hand(s, "p1", 10)  # Balkh Arsenic Mine: road, favor military
    play(s, Play(card=10, side="left"))
    play(s, PlaceRoad(border="kabul_punjab"))
    assert s.favored == "political"


def test_component_limit_takes_a_piece_from_the_board_and_may_overthrow() -> None:
    s = setup()
    to_court(s, "p1", 57)  # Exiled Durrani Nobility: political, Herat
    tribes(s, "herat", "p1", 1)
    spies(s, 57, "p1", 9)
    assert s.cyl_supply["p1"] == 0
    to_hand(s, "p1", 5)  # Shah Shujah Durrani (Kabul): tribe
    play(s, Play(card=5, side="left"))
    assert legal(s) == [TakePiece(piece="tribe:herat"), TakePiece(piece="spy:57")]
    illegal(s, TakePiece(piece="army:kabul"), "must come from p1's cylinders")
    play(s, TakePiece(piece="tribe:herat"))
    assert s.tribes["kabul"]["p1"] == 1 and s.tribes["herat"]["p1"] == 0
    assert 57 not in s.courts["p1"], "losing the last Herat tribe overthrows the Herat political card"
    assert s.cyl_supply["p1"] == 9, "the spies on the discarded card went home"


def test_component_limit_never_takes_pieces_placed_this_turn_and_skips_without_any() -> None:
    s = setup()
    s.cyl_supply["p1"] = 1
    to_hand(s, "p1", 1)  # Mohan Lal: spy, spy, spy
    play(s, Play(card=1, side="left"))
    play(s, PlaceSpy(card=1))
    # supply is now empty; the only cylinder on the board was placed this turn
    assert s.turn() == "p1" and s.stack[-1].__class__.__name__ == "ActionsTask"
    assert s.spies[1] == {"p1": 1}


def test_component_limit_for_blocks_moves_an_army_across_the_map() -> None:
    s = setup()
    s.block_supply["afghan"] = 0
    s.armies["persia"]["afghan"] = 12
    to_hand(s, "p1", 15)  # Durrani Royal Guard: army
    play(s, Play(card=15, side="left"))
    assert legal(s) == [TakePiece(piece="army:persia")]
    play(s, TakePiece(piece="army:persia"))
    assert s.armies["persia"]["afghan"] == 11 and s.armies["kabul"]["afghan"] == 1


def test_component_limit_may_take_the_piece_from_the_very_place_it_goes_to() -> None:
    """Issue 16, departure 1: "take it from anywhere in play, excluding any pieces placed this
    turn" has no exception for the place the piece is going to (BGA allows it too).  The piece
    never leaves, so its last tribe there overthrows nothing; it is now placed this turn."""
    s = setup()
    to_court(s, "p1", 6)  # Aminullah Khan Logari: political, Kabul
    tribes(s, "kabul", "p1", 1)
    spies(s, 6, "p1", 9)
    assert s.cyl_supply["p1"] == 0 and s.rulers["kabul"] == "p1"
    to_hand(s, "p1", 5)  # Shah Shujah Durrani (Kabul, political): tribe
    play(s, Play(card=5, side="right"))
    assert TakePiece(piece="tribe:kabul") in legal(s)
    play(s, TakePiece(piece="tribe:kabul"))
    assert s.tribes["kabul"]["p1"] == 1 and s.cyl_supply["p1"] == 0
    assert s.courts["p1"] == [6, 5], "the tribe never left Kabul: no overthrow"
    assert s.rulers["kabul"] == "p1"
    assert s.placed == {"tribe:kabul:p1": 1}


def test_component_limit_for_a_road_may_take_a_road_from_that_border() -> None:
    s = setup()
    s.block_supply["afghan"] = 0
    s.roads["kabul_punjab"]["afghan"] = 12
    to_hand(s, "p1", 9)  # Afghan Handicrafts (Kabul): road
    play(s, Play(card=9, side="left"))
    play(s, PlaceRoad(border="kabul_punjab"))
    assert legal(s) == [TakePiece(piece="road:kabul_punjab")]
    play(s, TakePiece(piece="road:kabul_punjab"))
    assert s.roads["kabul_punjab"]["afghan"] == 12 and s.block_supply["afghan"] == 0


def test_component_limit_refusals_say_why() -> None:
    s = setup()
    tribes(s, "herat", "p1", 1)
    spies(s, 57, "p1", 9)
    to_court(s, "p2", 57)
    to_hand(s, "p1", 1)  # Mohan Lal: spy, spy, spy (Kabul)
    to_court(s, "p2", 17)  # Citadel of Ghazni (Kabul), a target for the spies
    play(s, Play(card=1, side="left"))
    play(s, PlaceSpy(card=17))
    illegal(s, TakePiece(piece="tribe:punjab"), "there is no cylinder of p1 there")
    play(s, TakePiece(piece="spy:57"))  # the first spy on Ghazni
    play(s, PlaceSpy(card=17))
    # the spy on Ghazni was placed this turn: it may not be taken again
    illegal(s, TakePiece(piece="spy:17"), "placed this turn", "component-limit rule")
