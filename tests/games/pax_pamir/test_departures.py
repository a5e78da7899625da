"""BGA's departures from the rulebook, recorded where they change what happens (``ruleset: bga``):
for each rule a step where it applies and one where it does not."""

from __future__ import annotations

import pytest
from pax_pamir_helpers import MARKET, armies, legal, play, roads, setup, spies, to_court, to_hand, tribes

from replay.engine import IllegalMove
from replay.games.pax_pamir import GAME
from replay.games.pax_pamir.components import NATIONALISM, PUBLIC_WITHDRAWAL
from replay.games.pax_pamir.market import pay_to_market, shift_market
from replay.games.pax_pamir.moves import (
    Battle,
    Discard,
    EndAction,
    EndTurn,
    MoveAction,
    MoveSpy,
    MoveTribe,
    PlaceSpy,
    Play,
    RemoveTribe,
    TakePiece,
    Tax,
    TaxPlayer,
)


def rules(s: object) -> list[str]:
    return [d["rule"] for d in s.departures]  # type: ignore[attr-defined]


def _other(s: object) -> str:
    me = s.current  # type: ignore[attr-defined]
    return "p2" if me == "p1" else "p1"


@pytest.mark.parametrize("ruleset, departs", [("bga", True), ("official", False)])
def test_the_loyalty_order_at_setup(ruleset: str, departs: bool) -> None:
    s = GAME.initial_state(["p1", "p2", "p3"], {"ruleset": ruleset})
    for card in MARKET:
        s.apply_chance({"draw": "deck", "items": [card]})
    assert [(d["seq"], d["rule"]) for d in s.departures] == ([(0, "loyalty_order")] if departs else [])


@pytest.mark.parametrize("court, departs", [((), True), ((8,), False)])
def test_claim_of_ancient_lineage_against_an_empty_court(court: tuple[int, ...], departs: bool) -> None:
    s = setup(ruleset="bga")
    me, other = s.current, _other(s)
    assert isinstance(me, str)
    to_court(s, me, 5, 11)  # 11: Claim of Ancient Lineage, with tax
    to_court(s, other, *court)
    s.rupees[other] = 4
    play(s, Tax(card=11))
    before = rules(s)
    play(s, TaxPlayer(player=other))
    assert rules(s)[len(before):] == (["ancient_lineage_empty_court"] if departs else [])


@pytest.mark.parametrize("ruleset, col, departs", [("bga", 1, True), ("official", 1, False), ("bga", 0, False)])
def test_rupees_reaching_public_withdrawal(ruleset: str, col: int, departs: bool) -> None:
    """BGA keeps the rupees Public Withdrawal reaches, unless it shifts into column 0, where
    both rules remove them."""
    s = setup(ruleset=ruleset)
    s.market[0][col] = None
    s.market_rupees[0][col] = 3
    s.market[0][col + 1] = PUBLIC_WITHDRAWAL
    before = rules(s)
    shift_market(s)
    assert rules(s)[len(before):] == (["public_withdrawal_rupees"] if departs else [])


def _well_connected(ruleset: str) -> object:
    s = setup(ruleset=ruleset)
    me, other = s.current, _other(s)
    assert isinstance(me, str)
    to_court(s, me, 9, 56, 11)  # 56: Well-Connected
    to_court(s, other, 64, 20, 8)
    spies(s, 9, me)
    play(s, MoveAction(card=9))
    return s


@pytest.mark.parametrize("to, departs", [(9, True), (11, False)])
def test_a_well_connected_spy_out_and_back(to: int, departs: bool) -> None:
    s = _well_connected("bga")
    before = rules(s)
    play(s, MoveSpy(card=9, to=to))  # type: ignore[arg-type]
    assert rules(s)[len(before):] == (["well_connected_out_and_back"] if departs else [])


@pytest.mark.parametrize("card, departs", [(61, True), (64, False)])
def test_blackmail_on_a_card_another_player_spies(card: int, departs: bool) -> None:
    s = setup(ruleset="bga")
    me, other = s.current, _other(s)
    assert isinstance(me, str)
    to_court(s, me, 64, 60)
    to_court(s, other, 54, 61)  # 54: Herati Bandits (Blackmail)
    spies(s, 61, me)
    play(s, EndTurn())
    before = rules(s)
    play(s, PlaceSpy(card=card))  # type: ignore[arg-type]
    assert rules(s)[len(before):] == (["blackmail_spied_card"] if departs else [])


@pytest.mark.parametrize("first, departs", [(37, True), (27, False)])
def test_an_overthrow_discarding_a_card_that_is_not_overthrown(first: int, departs: bool) -> None:
    s = setup(ruleset="bga")
    me, other = s.current, _other(s)
    assert isinstance(me, str)
    s.loyalty.update({me: "afghan", other: "british"})
    to_court(s, me, 33)
    to_court(s, other, 27, 37, 24)  # 27 leveraged, 24 political, 37 military
    s.leveraged.add(27)
    from pax_pamir_helpers import armies

    armies(s, "punjab", "afghan", 2)
    tribes(s, "punjab", other)
    play(s, Battle(card=33, region="punjab"))
    play(s, RemoveTribe(player=other))
    before = rules(s)
    play(s, Discard(card=first))  # type: ignore[arg-type]
    assert rules(s)[len(before):] == (["overthrow_any_card"] if departs else [])


def _tribe_out_and_back(ruleset: str, back: bool) -> object:
    s = setup(ruleset=ruleset)
    me = s.current
    assert isinstance(me, str)
    s.loyalty[me] = "afghan"
    to_court(s, me, 2, 5)  # 2: rank 2, move; 5: a Kabul political card
    s.held_events[me].append(NATIONALISM)
    tribes(s, "kabul", me)
    roads(s, "kabul_punjab", "afghan")
    play(s, MoveAction(card=2))
    play(s, MoveTribe(region="kabul", to="punjab"))
    if back:
        play(s, MoveTribe(region="punjab", to="kabul"))
    else:
        play(s, EndAction())
    return s


@pytest.mark.parametrize("ruleset, back, departs", [("bga", True, True), ("bga", False, False),
                                                    ("official", True, False)])
def test_a_last_tribe_that_leaves_and_comes_back_within_the_move(ruleset: str, back: bool, departs: bool) -> None:
    s = _tribe_out_and_back(ruleset, back)
    assert rules(s)[1 if ruleset == "bga" else 0:] == (["overthrow_after_the_move"] if departs else [])
    assert (5 in s.courts[s.current]) is (ruleset == "bga" and back)  # type: ignore[attr-defined]
    assert legal(s) is not None


@pytest.mark.parametrize("older", [False, True])
def test_rulership_against_the_players_only_under_bga_s_code_before_october_2023(older: bool) -> None:
    """A tribe of p1 (Afghan) where two British armies stand and nobody is British: the rulebook gives
    nobody the region; BGA's code before 19 October 2023 compared p1 with the other players only
    (option ``ruler_against_players_only``), and p1 rules, a departure."""
    s = setup(2, "bga", loyalties=("afghan", "russian"), ruler_against_players_only=older)
    armies(s, "kandahar", "british", 2)
    tribes(s, "kandahar", "p1")
    assert s.rulers["kandahar"] == ("p1" if older else None)
    assert rules(s).count("ruler_against_players_only") == (1 if older else 0)
    tribes(s, "kandahar", "p2", 2)  # p2 (Russian) has more pieces than p1, as many as the British armies
    assert s.rulers["kandahar"] == ("p2" if older else None)
    assert rules(s).count("ruler_against_players_only") == (2 if older else 0)
    tribes(s, "kandahar", "p2")  # three against two armies: p2's by either rule, no departure
    assert s.rulers["kandahar"] == "p2" and rules(s).count("ruler_against_players_only") == (2 if older else 0)


@pytest.mark.parametrize("older", [False, True])
def test_rupees_paid_onto_public_withdrawal_under_bga_s_code_before_october_2023(older: bool) -> None:
    """An action's cost paid onto the market: the rupee due to Public Withdrawal leaves the game; BGA's
    code before 1 October 2023 left it on the card (option ``public_withdrawal_holds_rupees``), a
    departure, and it shifts with the card like any rupee."""
    s = setup(ruleset="bga", public_withdrawal_holds_rupees=older)
    s.market[1][5] = PUBLIC_WITHDRAWAL
    s.market_rupees[1][5] = 0
    me = s.current
    assert isinstance(me, str)
    pay_to_market(s, me, 2)  # one rupee to each row's rightmost card
    assert s.market_rupees[1][5] == (1 if older else 0) and s.market_rupees[0][5] == 1
    assert rules(s).count("public_withdrawal_holds_rupees") == (1 if older else 0)
    s.market[1][4] = None
    shift_market(s)
    assert s.market[1][4] == PUBLIC_WITHDRAWAL and s.market_rupees[1][4] == (1 if older else 0)


@pytest.mark.parametrize("older", [False, True])
def test_a_last_tribe_taken_for_a_piece_elsewhere_under_bga_s_code_before_october_2023(older: bool) -> None:
    """p1's last Herat tribe is taken for the tribe Shah Shujah Durrani places in Kabul: Overthrow
    discards the Herat political card; BGA's code before 16 October 2023 kept it (option
    ``no_overthrow_for_taken_tribes``), a departure."""
    s = setup(ruleset="bga", **({"no_overthrow_for_taken_tribes": True} if older else {}))
    me = s.current
    assert isinstance(me, str)
    to_court(s, me, 57)  # Exiled Durrani Nobility: political, Herat
    tribes(s, "herat", me, 1)
    spies(s, 57, me, 9)
    assert s.cyl_supply[me] == 0
    to_hand(s, me, 5)  # Shah Shujah Durrani (Kabul): tribe
    play(s, Play(card=5, side="left"))
    play(s, TakePiece(piece="tribe:herat"))
    assert s.tribes["kabul"][me] == 1 and s.tribes["herat"][me] == 0
    assert (57 in s.courts[me]) is older
    assert rules(s).count("no_overthrow_for_taken_tribes") == (1 if older else 0)


@pytest.mark.parametrize("option, until", [("ruler_against_players_only", "19 October 2023"),
                                           ("no_overthrow_for_taken_tribes", "16 October 2023"),
                                           ("public_withdrawal_holds_rupees", "1 October 2023")])
def test_an_option_of_bga_s_older_code_needs_the_bga_ruleset(option: str, until: str) -> None:
    with pytest.raises(IllegalMove, match=f"{option} must be true or false, and true only under the bga ruleset "
                                          rf"\(BGA's code before {until}\)"):
        setup(2, "official", **{option: True})
    for bad in ("yes", 1):
        with pytest.raises(IllegalMove, match=f"{option} must be true or false"):
            setup(2, "bga", **{option: bad})


@pytest.mark.parametrize("older", [False, True])
def test_a_ruler_kept_by_bga_s_rulership_of_before_october_2023_is_a_departure(older: bool) -> None:
    """p1 rules Kandahar with a tribe; a British army arrives, and nobody is British: the rulebook takes
    the rule away, BGA's code before 19 October 2023 left it with p1 (a departure where the token
    would have moved)."""
    s = setup(2, "bga", loyalties=("afghan", "russian"), ruler_against_players_only=older)
    tribes(s, "kandahar", "p1")
    assert s.rulers["kandahar"] == "p1" and rules(s).count("ruler_against_players_only") == 0
    armies(s, "kandahar", "british", 1)
    assert s.rulers["kandahar"] == ("p1" if older else None)
    assert rules(s).count("ruler_against_players_only") == (1 if older else 0)
