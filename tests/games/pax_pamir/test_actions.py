"""Card-based actions: tax, gift, build, move, betray, battle; bonus actions; one action per
card per turn; hostage bribes; the special abilities that change them."""

from __future__ import annotations

from pax_pamir_helpers import armies, illegal, legal, play, roads, setup, spies, to_court, tribes

from replay.games.pax_pamir.moves import (
    AcceptPrize,
    Battle,
    Betray,
    Build,
    EndAction,
    EndTurn,
    Gift,
    MoveAction,
    MoveArmy,
    MoveSpy,
    MoveTribe,
    OfferBribe,
    PlaceArmy,
    PlaceRoad,
    PlaceSpy,
    RemoveArmy,
    RemoveRoad,
    RemoveSpy,
    RemoveTribe,
    SafeHouse,
    Skip,
    Tax,
    TaxMarket,
    TaxPlayer,
    Withdraw,
)

# ---------------------------------------------------------------- tax


def test_tax_takes_market_rupees_and_rupees_above_the_shelter_of_players_it_rules() -> None:
    s = setup()
    to_court(s, "p1", 11)  # Lapis Lazuli Mine, rank 2: tax, gift
    to_court(s, "p2", 64)  # Opium Fields (Herat), economic rank 2: shelter 2
    tribes(s, "herat", "p1")
    s.market_rupees[0][2] = 1
    play(s, Tax(card=11))
    assert legal(s) == [TaxMarket(row=0, col=2), TaxPlayer(player="p2"), EndAction()]
    play(s, TaxPlayer(player="p2"))
    play(s, TaxPlayer(player="p2"))
    assert s.rupees == {"p1": 6, "p2": 2}
    assert s.turn() == "p1" and s.actions_left == 1, "rank 2: two rupees, then the action ends"
    assert 11 in s.used


def test_tax_respects_the_shelter_and_needs_rulership() -> None:
    s = setup()
    to_court(s, "p1", 11)
    to_court(s, "p2", 64, 61)  # shelter 2 + 2 = 4
    tribes(s, "herat", "p1")
    s.market_rupees[1][5] = 2
    play(s, Tax(card=11))
    illegal(s, TaxPlayer(player="p2"), "p2 has 4 rupees and a tax shelter of 4")
    s.courts["p2"] = []
    s.court_changed("p2")
    del s.owner[64], s.owner[61]
    to_court(s, "p2", 8)  # a Kabul card, and p1 does not rule Kabul
    illegal(s, TaxPlayer(player="p2"), "no court card of a region p1 rules")
    play(s, EndAction())
    assert s.rupees["p1"] == 4


def test_claim_of_ancient_lineage_official_needs_a_court_card_bga_does_not() -> None:
    for ruleset, taxable in (("official", False), ("bga", True)):
        s = setup(ruleset=ruleset)
        me = s.current
        other = "p2" if me == "p1" else "p1"
        to_court(s, me, 5, 11)
        s.market_rupees[0][0] = 1
        play(s, Tax(card=11))
        assert (TaxPlayer(player=other) in legal(s)) is taxable, ruleset
    s = setup()
    to_court(s, "p1", 5, 11)
    to_court(s, "p2", 8)
    play(s, Tax(card=11))
    assert TaxPlayer(player="p2") in legal(s), "with a court card p2 is taxable anywhere"


# ---------------------------------------------------------------- gift, bonus actions, one action per card


def test_gift_costs_its_space_and_adds_influence() -> None:
    s = setup()
    to_court(s, "p1", 11)
    s.rupees["p1"] = 8
    assert s.influence("p1") == 2
    play(s, Gift(card=11, value=6))
    assert s.gifts["p1"] == [6] and s.rupees["p1"] == 2 and s.influence("p1") == 3
    assert s.market_rupees[0][3:] == [1, 1, 1]
    illegal(s, Gift(card=11, value=2), "already used this turn")
    s.used.clear()
    illegal(s, Gift(card=11, value=6), "already holds p1's gift")
    illegal(s, Gift(card=11, value=4), "has 2 rupees")
    illegal(s, Gift(card=11, value=3), "cost 2, 4 and 6")


def test_favored_suit_cards_give_bonus_actions() -> None:
    s = setup()
    to_court(s, "p1", 58, 11)  # Ishaqzai Chiefs (political: gift, build), Lapis Lazuli (economic)
    s.rupees["p1"] = 20
    s.actions_left = 0
    play(s, Gift(card=58, value=2))
    assert s.actions_left == 0 and s.gifts["p1"] == [2]
    illegal(s, Gift(card=11, value=4), "no actions left", "economic is not favored (political is)")
    s.favored = "economic"
    play(s, Gift(card=11, value=4))


def test_savvy_operator_irregulars_and_new_tactics_always_act_favored() -> None:
    s = setup()
    to_court(s, "p1", 99, 16)  # Cossacks (military, irregulars), Bala Hissar (military: tax, betray)
    assert s.acts_favored(99) and not s.acts_favored(16)
    s.held_events["p1"].append(105)
    assert s.acts_favored(16)
    to_court(s, "p2", 91)
    assert s.acts_favored(91)


# ---------------------------------------------------------------- build


def test_build_needs_a_ruled_region_and_pays_two_per_block() -> None:
    s = setup()
    to_court(s, "p1", 14)  # Money Lenders: gift, build
    illegal(s, Build(card=14, blocks=1), "p1 rules none")
    tribes(s, "kabul", "p1")
    illegal(s, Build(card=14, blocks=3), "costs 6 rupees, p1 has 4")
    illegal(s, Build(card=14, blocks=4), "1 to 3")
    play(s, Build(card=14, blocks=2))
    assert s.rupees["p1"] == 0
    moves = legal(s)
    assert PlaceArmy(region="kabul") in moves and PlaceRoad(border="kabul_punjab") in moves
    assert PlaceArmy(region="herat") not in moves and Skip() not in moves
    illegal(s, PlaceArmy(region="herat"), "p1 rules only kabul")
    play(s, PlaceArmy(region="kabul"))
    play(s, PlaceRoad(border="herat_kabul"))
    assert s.armies["kabul"]["afghan"] == 1 and s.roads["herat_kabul"]["afghan"] == 1
    assert s.stack[-1].__class__.__name__ == "ActionsTask"


def test_nation_building_doubles_blocks_and_infrastructure_adds_a_free_one() -> None:
    s = setup()
    to_court(s, "p1", 14, 78)
    tribes(s, "kabul", "p1")
    s.held_events["p1"].append(112)
    s.rupees["p1"] = 4
    play(s, Build(card=14, blocks=3))
    assert s.rupees["p1"] == 0, "Nation Building: 2 rupees per pair of blocks, rounded up"
    for _ in range(3):
        play(s, PlaceArmy(region="kabul"))
    assert Skip() in legal(s), "Infrastructure: one more block, optional"
    play(s, PlaceArmy(region="kabul"))
    assert s.armies["kabul"]["afghan"] == 4
    assert s.stack[-1].__class__.__name__ == "ActionsTask"


# ---------------------------------------------------------------- move


def test_armies_move_along_their_coalitions_roads_unless_indian_supplies() -> None:
    s = setup()
    to_court(s, "p1", 9)  # Afghan Handicrafts, rank 1: tax, move
    armies(s, "kabul", "afghan", 2)
    roads(s, "kabul_punjab", "afghan")
    roads(s, "herat_kabul", "british")
    play(s, MoveAction(card=9))
    assert legal(s) == [MoveArmy(region="kabul", to="punjab"), EndAction()]
    illegal(s, MoveArmy(region="kabul", to="herat"), "no afghan road")
    illegal(s, MoveArmy(region="kabul", to="persia"), "do not share a border")
    play(s, MoveArmy(region="kabul", to="punjab"))
    assert s.armies["kabul"]["afghan"] == 1 and s.armies["punjab"]["afghan"] == 1
    s2 = setup()
    to_court(s2, "p1", 9, 51)
    armies(s2, "kabul", "afghan")
    play(s2, MoveAction(card=9))
    assert {m.to for m in legal(s2) if isinstance(m, MoveArmy)} == {"herat", "kandahar", "punjab", "transcaspia"}


def test_spies_move_around_the_circle_of_courts() -> None:
    s = setup()
    to_court(s, "p1", 9, 11)
    to_court(s, "p2", 64, 20)
    spies(s, 9, "p1")
    play(s, MoveAction(card=9))
    assert [m for m in legal(s) if isinstance(m, MoveSpy)] == [MoveSpy(card=9, to=11), MoveSpy(card=9, to=20)]
    illegal(s, MoveSpy(card=9, to=64), "not one step away")
    play(s, MoveSpy(card=9, to=20))
    assert s.spies == {20: {"p1": 1}}


def test_strange_bedfellows_and_well_connected_widen_spy_steps() -> None:
    s = setup()
    to_court(s, "p1", 9, 21, 11)  # 21 Alexander Burnes: Strange Bedfellows
    to_court(s, "p2", 64, 20, 8, 1)
    spies(s, 11, "p1")
    play(s, MoveAction(card=21))
    # neighbours 21 and 64, plus every other Kabul card (9, 8, 1)
    assert {m.to for m in legal(s) if isinstance(m, MoveSpy)} == {21, 64, 9, 8, 1}
    s2 = setup()
    to_court(s2, "p1", 9, 56, 11)  # 56 Yar Mohammad Alikozai: Well-Connected
    to_court(s2, "p2", 64, 20, 8)
    spies(s2, 9, "p1")
    play(s2, MoveAction(card=9))
    assert {m.to for m in legal(s2) if isinstance(m, MoveSpy)} == {56, 11, 8, 20}


def test_nationalism_lets_tribes_move_and_the_last_tribe_leaving_overthrows() -> None:
    s = setup()
    to_court(s, "p1", 9, 5)  # 5 is a Kabul political card
    tribes(s, "kabul", "p1")
    roads(s, "kabul_punjab", "afghan")
    s.held_events["p1"].append(110)
    play(s, MoveAction(card=9))
    assert MoveTribe(region="kabul", to="punjab") in legal(s)
    play(s, MoveTribe(region="kabul", to="punjab"))
    assert s.tribes["punjab"]["p1"] == 1
    assert 5 not in s.courts["p1"], "last Kabul tribe gone: Kabul political cards are discarded"
    assert s.rulers["kabul"] is None and s.rulers["punjab"] == "p1"


# ---------------------------------------------------------------- betray


def test_betray_discards_the_card_and_the_prize_may_change_loyalty() -> None:
    s = setup()
    to_court(s, "p1", 16)  # Bala Hissar: tax, betray
    to_court(s, "p2", 20)  # Henry Rawlinson: Russian prize
    spies(s, 20, "p1")
    spies(s, 20, "p2")
    play(s, Betray(card=16, target=20))
    assert s.rupees["p1"] == 2 and 20 not in s.courts["p2"]
    assert s.cyl_supply == {"p1": 10, "p2": 10}
    assert s.turn() == "p1"
    play(s, AcceptPrize())
    assert s.loyalty["p1"] == "russian" and s.prizes["p1"] == [20]
    assert s.influence("p1") == 2


def test_bodyguards_protect_political_cards_and_a_spy_is_needed() -> None:
    s = setup()
    to_court(s, "p1", 16)
    to_court(s, "p2", 15, 25, 20)
    spies(s, 25, "p1")
    illegal(s, Betray(card=16, target=25), "Bodyguards protect p2's political cards")
    illegal(s, Betray(card=16, target=20), "p1 has no spy on it")


# ---------------------------------------------------------------- battle


def test_battle_in_a_region_removes_enemy_pieces_up_to_rank_and_army_count() -> None:
    s = setup(3)
    to_court(s, "p1", 59)  # Tajik Warband (Herat) rank 2: betray, battle
    armies(s, "herat", "afghan", 3)
    armies(s, "herat", "british", 1)
    roads(s, "herat_kabul", "russian")
    roads(s, "herat_persia", "afghan")
    tribes(s, "herat", "p2")  # British
    tribes(s, "herat", "p3")  # Russian
    s.loyalty["p3"] = "afghan"
    illegal(s, Battle(card=59), "exactly one battle site")
    illegal(s, Battle(card=59, region="kabul"), "no afghan army there")
    play(s, Battle(card=59, region="herat"))
    moves = legal(s)
    assert RemoveArmy(coalition="british") in moves and RemoveRoad(border="herat_kabul", coalition="russian") in moves
    assert RemoveTribe(player="p2") in moves
    illegal(s, RemoveTribe(player="p3"), "p3 is also loyal to the afghan")
    illegal(s, RemoveRoad(border="herat_persia", coalition="afghan"), "own coalition")
    play(s, RemoveTribe(player="p2"))
    play(s, RemoveArmy(coalition="british"))
    assert s.tribes["herat"]["p2"] == 0 and s.armies["herat"]["british"] == 0
    assert s.stack[-1].__class__.__name__ == "ActionsTask", "rank 2: the battle is over"


def test_citadels_protect_tribes() -> None:
    s = setup()
    to_court(s, "p1", 2)  # Jan-Fishan Khan rank 2: battle, move
    to_court(s, "p2", 17)  # Citadel of Ghazni
    armies(s, "kabul", "afghan", 2)
    tribes(s, "kabul", "p2")
    armies(s, "kabul", "british")
    play(s, Battle(card=2, region="kabul"))
    assert legal(s) == [RemoveArmy(coalition="british"), EndAction()]
    illegal(s, RemoveTribe(player="p2"), "citadel protects it")


def test_battle_on_a_court_card_removes_spies_with_safe_house_and_indispensable_advisors() -> None:
    s = setup(3)
    to_court(s, "p1", 2)
    to_court(s, "p2", 20, 41)  # 41 Charles Masson: Safe House
    to_court(s, "p3", 1)  # Mohan Lal: Indispensable Advisors
    spies(s, 20, "p1", 2)
    spies(s, 20, "p2", 2)
    spies(s, 20, "p3", 1)
    play(s, Battle(card=2, court_card=20))
    assert legal(s) == [RemoveSpy(player="p2"), EndAction()]
    illegal(s, RemoveSpy(player="p3"), "Indispensable Advisors")
    play(s, RemoveSpy(player="p2"))
    play(s, RemoveSpy(player="p2"))
    # the battle is over; the owner of the removed spies decides for each, in removal order
    assert s.spies[20] == {"p1": 2, "p3": 1}
    assert s.turn() == "p2"
    assert legal(s) == [SafeHouse(card=41), Skip()]
    play(s, SafeHouse(card=41))
    assert s.turn() == "p2"
    play(s, Skip())
    assert s.spies[41] == {"p2": 1} and s.cyl_supply["p2"] == 9
    assert s.turn() == "p1"


def test_safe_house_shelters_a_spy_removed_in_a_battle_on_the_safe_house_card_itself() -> None:
    """Issue 16, departure 3: the card text has no exception for a battle fought on it."""
    s = setup()
    to_court(s, "p1", 2)  # Jan-Fishan Khan rank 2: battle, move
    to_court(s, "p2", 41)  # Charles Masson: Safe House
    spies(s, 41, "p1", 2)
    spies(s, 41, "p2", 2)
    play(s, Battle(card=2, court_card=41))
    play(s, RemoveSpy(player="p2"))
    play(s, RemoveSpy(player="p2"))
    assert legal(s) == [SafeHouse(card=41), Skip()]
    play(s, SafeHouse(card=41))
    play(s, SafeHouse(card=41))
    assert s.spies[41] == {"p1": 2, "p2": 2}
    assert s.hostage_holder(41) is None, "a tie: not held hostage"


# ---------------------------------------------------------------- hostages and blackmail


def test_a_hostage_card_needs_a_bribe_unless_civil_service_reforms() -> None:
    s = setup()
    to_court(s, "p1", 11)
    spies(s, 11, "p2", 2)
    s.market_rupees[0][0] = 3
    play(s, Tax(card=11))
    assert legal(s) == [*(OfferBribe(amount=a) for a in range(3)), Withdraw()]
    play(s, OfferBribe(amount=2))
    assert s.rupees == {"p1": 2, "p2": 6}
    assert TaxMarket(row=0, col=0) in legal(s)
    s2 = setup()
    to_court(s2, "p1", 11, 24)
    spies(s2, 11, "p2", 2)
    s2.market_rupees[0][0] = 3
    play(s2, Tax(card=11))
    assert TaxMarket(row=0, col=0) in legal(s2)


def test_an_owners_own_spies_or_a_tie_mean_no_hostage() -> None:
    s = setup(3)
    to_court(s, "p1", 11)
    spies(s, 11, "p2")
    spies(s, 11, "p3")
    assert s.hostage_holder(11) is None
    spies(s, 11, "p2")
    assert s.hostage_holder(11) == "p2"
    spies(s, 11, "p1", 2)
    assert s.hostage_holder(11) is None


def test_blackmail_places_a_spy_at_the_start_of_the_turn() -> None:
    s = setup()
    to_court(s, "p1", 64)  # Herat, no spies
    to_court(s, "p2", 54, 61)  # Herati Bandits: Blackmail (Herat)
    spies(s, 61, "p1")
    play(s, EndTurn())
    assert s.turn() == "p2"
    assert legal(s) == [PlaceSpy(card=64), PlaceSpy(card=54), Skip()]
    illegal(s, PlaceSpy(card=61), "with no spy on it")
    play(s, PlaceSpy(card=64))
    assert s.spies[64] == {"p2": 1}
    assert s.stack[-1].__class__.__name__ == "ActionsTask"


def test_the_ark_of_bukhara_protects_tribes_in_transcaspia() -> None:
    s = setup()
    to_court(s, "p1", 100)  # Count Perovsky (Transcaspia) rank 2: battle
    to_court(s, "p2", 97)  # The Ark of Bukhara
    armies(s, "transcaspia", "afghan", 2)
    armies(s, "transcaspia", "russian")
    tribes(s, "transcaspia", "p2")
    play(s, Battle(card=100, region="transcaspia"))
    assert RemoveTribe(player="p2") not in legal(s)
    illegal(s, RemoveTribe(player="p2"), "citadel protects it")


def test_both_blackmails_herat_first_then_kandahar() -> None:
    s = setup()
    to_court(s, "p1", 64, 45)  # a Herat card and a Kandahar card, no spies
    to_court(s, "p2", 54, 43)  # Herati Bandits, Giljee Nobles
    spies(s, 54, "p1")
    spies(s, 43, "p1")
    play(s, EndTurn())
    assert legal(s) == [PlaceSpy(card=64), Skip()]
    play(s, Skip())
    assert legal(s) == [PlaceSpy(card=45), Skip()]
    play(s, PlaceSpy(card=45))
    assert s.spies[45] == {"p2": 1}


def test_claude_wade_is_a_safe_house_too() -> None:
    s = setup()
    to_court(s, "p1", 89)  # Aga Mehdi rank 1: move, betray, battle
    to_court(s, "p2", 72, 86)  # Claude Wade: Safe House
    spies(s, 86, "p1")
    spies(s, 86, "p2")
    play(s, Battle(card=89, court_card=86))
    play(s, RemoveSpy(player="p2"))
    assert legal(s) == [SafeHouse(card=72), Skip()]
    illegal(s, SafeHouse(card=86), "not a Safe House card")
    play(s, SafeHouse(card=72))
    assert s.spies[72] == {"p2": 1} and s.spies[86] == {"p1": 1}


def test_tax_reaches_rupees_on_market_cards_only() -> None:
    s = setup()
    to_court(s, "p1", 11)
    s.market_rupees[0][1] = 2
    s.market[1][3] = None
    s.market_rupees[1][3] = 1  # left on an empty cell by a discarded event
    play(s, Tax(card=11))
    assert legal(s) == [TaxMarket(row=0, col=1), EndAction()]
    illegal(s, TaxMarket(row=1, col=3), "no market card with rupees there")


def _tribe_leaves_kabul_and_comes_back(ruleset: str) -> list[int]:
    s = setup(ruleset=ruleset)
    me = s.current  # p1 officially, p2 (the last seat) on BGA
    s.loyalty.update({me: "afghan", "p2" if me == "p1" else "p1": "british"})
    to_court(s, me, 13, 5)  # Ghilzai Nomads rank 2: tax, move; 5: a Kabul political card
    tribes(s, "kabul", me)
    roads(s, "kabul_punjab", "afghan")
    s.held_events[me].append(110)  # Nationalism
    play(s, MoveAction(card=13))
    play(s, MoveTribe(region="kabul", to="punjab"))
    if ruleset == "official":
        assert 5 not in s.courts[me], "Overthrow is immediate: the last Kabul tribe left"
        assert s.rulers["kabul"] is None and s.rulers["punjab"] == me, "ruler tokens move at once"
    else:
        assert s.rulers["kabul"] == me, "bga: rulers are settled when the Move is over"
    play(s, MoveTribe(region="punjab", to="kabul"))
    assert s.tribes["kabul"][me] == 1 and s.rulers["kabul"] == me
    return s.courts[me]


def test_overthrow_during_a_nationalism_move_is_immediate_officially_and_after_the_move_on_bga() -> None:
    """Issue 16, departure 4: a last tribe that leaves a region and comes back within one Move
    has cost the region's political cards under the rulebook; BGA checks only after the Move."""
    assert _tribe_leaves_kabul_and_comes_back("official") == [13]
    assert _tribe_leaves_kabul_and_comes_back("bga") == [13, 5]


def test_battle_overthrow_and_rulers_are_immediate_officially_and_after_the_battle_on_bga() -> None:
    for ruleset in ("official", "bga"):
        s = setup(ruleset=ruleset)
        me = s.current
        other = "p2" if me == "p1" else "p1"
        s.loyalty.update({me: "afghan", other: "british"})
        to_court(s, me, 2)  # Jan-Fishan Khan rank 2: battle, move
        to_court(s, other, 6)  # Aminullah Khan Logari: a Kabul political card
        armies(s, "kabul", "afghan", 2)
        armies(s, "kabul", "british", 2)
        tribes(s, "kabul", other)
        assert s.rulers["kabul"] == other  # a tribe and two British armies against two Afghan
        play(s, Battle(card=2, region="kabul"))
        play(s, RemoveTribe(player=other))
        if ruleset == "official":
            assert 6 not in s.courts[other] and s.rulers["kabul"] is None
        else:
            assert s.courts[other] == [6] and s.rulers["kabul"] == other, "bga: settled after the battle"
        play(s, EndAction())
        assert 6 not in s.courts[other]
