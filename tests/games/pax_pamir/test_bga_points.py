"""Points where Board Game Arena departs from the rulebook, seen in its logs (issue 24): a failed
bribe negotiation counted, Well-Connected's out-and-back spy step, Blackmail as BGA's server
judges it, and an Overthrow with a leveraged card discarded one card at a time.  Each is checked
both ways: the ``bga`` rule, and the rulebook left as it was.  Also: leverage judged by the icon,
and Tax of rupees lying on an empty market cell."""

from __future__ import annotations

from pax_pamir_helpers import armies, illegal, legal, play, setup, spies, to_court, to_hand, tribes

from replay.games.pax_pamir.moves import (
    Battle,
    BribeRefused,
    Discard,
    EndTurn,
    MoveAction,
    MoveSpy,
    OfferBribe,
    PlaceSpy,
    Play,
    RemoveTribe,
    Skip,
    Tax,
    TaxMarket,
)

# ---------------------------------------------------------------- a failed bribe negotiation


def _bribe_due(ruleset: str) -> tuple[object, str, str]:
    """p1 holds Bala Hissar (Kabul); the other player rules Kabul with two tribes: a bribe of 2."""
    s = setup(ruleset=ruleset)
    me = s.current
    assert isinstance(me, str)
    other = "p2" if me == "p1" else "p1"
    tribes(s, "kabul", other, 2)
    to_hand(s, me, 16)
    return s, me, other


def test_a_failed_negotiation_leaves_only_its_count_on_bga() -> None:
    s, me, other = _bribe_due("bga")
    offers = [m for m in legal(s) if isinstance(m, BribeRefused)]  # type: ignore[arg-type]
    assert offers == [BribeRefused(card=16, action="play", amount=0), BribeRefused(card=16, action="play", amount=1)]
    before = (list(s.hands[me]), s.actions_left, dict(s.rupees))  # type: ignore[attr-defined]
    play(s, BribeRefused(card=16, action="play", amount=1))  # type: ignore[arg-type]
    assert (list(s.hands[me]), s.actions_left, dict(s.rupees)) == before  # type: ignore[attr-defined]
    assert s.declines == 1 and s.turn() == me  # type: ignore[attr-defined]


def test_a_negotiation_starts_below_the_full_bribe_and_within_the_payers_means() -> None:
    s, me, other = _bribe_due("bga")
    illegal(s, BribeRefused(card=16, action="play", amount=2), "starts below the full bribe of 2")  # type: ignore[arg-type]
    illegal(s, BribeRefused(card=16, action="tax", amount=0), "not in")  # type: ignore[arg-type]
    illegal(s, BribeRefused(card=16, action="bribe", amount=0), "bribes are for")  # type: ignore[arg-type]
    to_hand(s, me, 64)  # a Herat card: nobody rules Herat
    illegal(s, BribeRefused(card=64, action="play", amount=0), "no bribe is due")  # type: ignore[arg-type]
    s.rupees[me] = 0  # type: ignore[attr-defined]
    illegal(s, BribeRefused(card=16, action="play", amount=1), "cannot offer 1 rupees", "has 0")  # type: ignore[arg-type]


def test_a_negotiation_for_a_card_action_is_for_a_hostage_card_that_can_act() -> None:
    s = setup(ruleset="bga")
    me = s.current
    other = "p2" if me == "p1" else "p1"
    to_court(s, me, 16)  # Bala Hissar: tax, betray
    spies(s, 16, other, 2)
    play(s, BribeRefused(card=16, action="tax", amount=1))
    illegal(s, BribeRefused(card=16, action="gift", amount=0), "shows tax, betray")
    s.rupees[me] = 2
    illegal(s, BribeRefused(card=16, action="betray", amount=1), "needs 2 for the action")
    s.rupees[me] = 3
    play(s, BribeRefused(card=16, action="betray", amount=1))
    play(s, BribeRefused(card=16, action="tax", amount=0))
    illegal(s, BribeRefused(card=16, action="tax", amount=1), "3 offers were already refused", "BGA's limit")
    assert s.declines == 3
    play(s, EndTurn())
    assert s.declines == 0, "BGA's count starts again each turn"


def test_the_rulebook_records_no_failed_negotiation() -> None:
    s, me, other = _bribe_due("official")
    assert not any(isinstance(m, BribeRefused) for m in legal(s))  # type: ignore[arg-type]
    illegal(s, BribeRefused(card=16, action="play", amount=0), "leaves no trace under the rulebook")  # type: ignore[arg-type]


def test_courtly_manners_needs_no_negotiation_for_an_unpaid_bribe() -> None:
    s, me, other = _bribe_due("bga")
    s.held_events[me].append(107)  # type: ignore[attr-defined]  # Courtly Manners
    illegal(s, BribeRefused(card=16, action="play", amount=0), "Courtly Manners")  # type: ignore[arg-type]
    play(s, BribeRefused(card=16, action="play", amount=1))  # type: ignore[arg-type]
    play(s, Play(card=16, side="left"))  # type: ignore[arg-type]
    play(s, OfferBribe(amount=0))  # type: ignore[arg-type]
    assert s.courts[me] == [16]  # type: ignore[attr-defined]


# ---------------------------------------------------------------- Well-Connected, out and back


def _well_connected(ruleset: str) -> set[int]:
    s = setup(ruleset=ruleset)
    me = s.current
    other = "p2" if me == "p1" else "p1"
    to_court(s, me, 9, 56, 11)  # 56 Yar Mohammad Alikozai: Well-Connected
    to_court(s, other, 64, 20, 8)  # the track: 9 56 11 64 20 8 (or 64 20 8 9 56 11), a circle either way
    spies(s, 9, me)
    play(s, MoveAction(card=9))
    return {m.to for m in legal(s) if isinstance(m, MoveSpy)}


def test_well_connected_may_step_out_and_back_on_bga_only() -> None:
    """BGA merges the two hops' cards without leaving out the start (paxpamir_3p_seed1002 packet 139)."""
    assert _well_connected("official") == {56, 11, 8, 20}
    assert _well_connected("bga") == {56, 11, 8, 20, 9}


# ---------------------------------------------------------------- Blackmail


def _blackmail(ruleset: str) -> object:
    """The next player holds Herati Bandits (Blackmail, Herat); the Herat cards: 64 (no spy), 54,
    61 (a spy of the player to move), 60 (a spy of the Blackmail's owner)."""
    s = setup(ruleset=ruleset)
    me = s.current
    assert isinstance(me, str)
    other = "p2" if me == "p1" else "p1"
    to_court(s, me, 64, 60)
    to_court(s, other, 54, 61)
    spies(s, 61, me)
    spies(s, 60, other)
    play(s, EndTurn())
    assert s.turn() == other
    return s


def test_blackmail_on_bga_reaches_a_card_without_the_players_own_spy() -> None:
    """BGA offers Blackmail while a card of the region has no spy, then its server takes any card of
    the region without one of the player's spies (paxpamir_4p_seed1007 packet 188)."""
    s = _blackmail("bga")
    assert set(legal(s)) == {PlaceSpy(card=64), PlaceSpy(card=54), PlaceSpy(card=61), Skip()}  # type: ignore[arg-type]
    illegal(s, PlaceSpy(card=60), "already has a spy on it")  # type: ignore[arg-type]
    play(s, PlaceSpy(card=61))  # type: ignore[arg-type]
    assert s.spies[61] == {"p1": 1, "p2": 1}  # type: ignore[attr-defined]


def test_blackmail_by_the_rulebook_reaches_only_a_card_without_spies() -> None:
    s = _blackmail("official")
    assert set(legal(s)) == {PlaceSpy(card=64), PlaceSpy(card=54), Skip()}  # type: ignore[arg-type]
    illegal(s, PlaceSpy(card=61), "with no spy on it")  # type: ignore[arg-type]


def test_blackmail_on_bga_is_not_offered_when_every_card_of_the_region_has_a_spy() -> None:
    s = setup(ruleset="bga")
    me = s.current
    assert isinstance(me, str)
    other = "p2" if me == "p1" else "p1"
    to_court(s, me, 64)
    to_court(s, other, 54)
    spies(s, 64, me)
    spies(s, 54, me)
    play(s, EndTurn())
    assert s.stack[-1].__class__.__name__ == "ActionsTask"


# ---------------------------------------------------------------- an Overthrow with leverage


def _overthrow(ruleset: str) -> tuple[object, str, str]:
    """The other player's last Punjab tribe falls in a battle; their court holds Maqpon Dynasty
    (27, leveraged), Ranjit Singh (24, political) and Seaforth Highlanders (37, military)."""
    s = setup(ruleset=ruleset)
    me = s.current
    assert isinstance(me, str)
    other = "p2" if me == "p1" else "p1"
    s.loyalty.update({me: "afghan", other: "british"})
    to_court(s, me, 33)  # Zorawar Singh Kahluria rank 2: battle
    to_court(s, other, 27, 37, 24)
    s.leveraged.add(27)
    armies(s, "punjab", "afghan", 2)
    tribes(s, "punjab", other)
    play(s, Battle(card=33, region="punjab"))
    play(s, RemoveTribe(player=other))  # nothing else to remove: the battle is over
    return s, me, other


def test_an_overthrow_with_a_leveraged_card_is_discarded_card_by_card_on_bga() -> None:
    """BGA asks while a leveraged card is among the overthrown ones, and its server takes any court
    card (paxpamir_3p_seed1002 packets 150-152: Seaforth Highlanders first, then Maqpon Dynasty)."""
    s, me, other = _overthrow("bga")
    assert s.turn() == other  # type: ignore[attr-defined]
    assert legal(s) == [Discard(card=27), Discard(card=37), Discard(card=24)]  # type: ignore[arg-type]
    play(s, Discard(card=37))  # type: ignore[arg-type]
    assert s.courts[other] == [27, 24] and s.turn() == other  # type: ignore[attr-defined]
    play(s, Discard(card=27))  # type: ignore[arg-type]
    # no leveraged card is left among the overthrown: the rest goes at once
    assert s.courts[other] == [] and s.turn() == me  # type: ignore[attr-defined]
    assert s.rupees[other] == 4 - 2  # type: ignore[attr-defined]


def test_an_overthrow_by_the_rulebook_discards_the_political_cards_at_once() -> None:
    s, me, other = _overthrow("official")
    assert s.courts[other] == [37] and s.turn() == me  # type: ignore[attr-defined]


# ---------------------------------------------------------------- leverage judged by the icon


def _discard_the_card_being_played(ruleset: str) -> tuple[object, str]:
    """An Afghan player with no rupees plays Anglo-Persian Trade (80: a British patriot with a
    leverage icon): the loyalty change discards Barakzai Sadars (42, leveraged), whose repayment
    falls short by 2; the player discards 80 itself, its icons not yet resolved, then Wheat Fields."""
    s = setup(ruleset=ruleset)
    me = s.current
    assert isinstance(me, str)
    s.loyalty[me] = "afghan"
    to_court(s, me, 42, 67, 21, 7)
    s.leveraged.add(42)
    s.rupees[me] = 0
    to_hand(s, me, 80)
    play(s, Play(card=80, side="left"))
    assert s.stack[-1].__class__.__name__ == "DiscardTask"
    play(s, Discard(card=80))
    play(s, Discard(card=67))
    return s, me


def test_a_card_discarded_before_its_leverage_icon_resolves_is_repaid_on_bga() -> None:
    """BGA repays any court card with a leverage icon (fresh seed 7091 packets 91-96, a fixture in
    tests/ingest/bga_logs/pax_pamir): discarding 80 costs two more discards, a departure recorded there;
    Barakzai Sadars' own repayment (its leverage taken) is none."""
    s, me = _discard_the_card_being_played("bga")
    assert s.stack[-1].__class__.__name__ == "DiscardTask" and s.turn() == me
    assert [d["rule"] for d in s.departures][-1:] == ["leverage_by_icon"]  # type: ignore[attr-defined]
    assert [d["rule"] for d in s.departures].count("leverage_by_icon") == 1  # type: ignore[attr-defined]
    play(s, Discard(card=21))
    play(s, Discard(card=7))
    assert s.courts[me] == [] and s.loyalty[me] == "british"


def test_a_card_discarded_before_its_leverage_icon_resolves_owes_nothing_by_the_rulebook() -> None:
    s, me = _discard_the_card_being_played("official")
    assert s.courts[me] == [21, 7] and s.loyalty[me] == "british" and s.rupees[me] == 0
    assert s.departures == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------- Tax of an empty cell's rupees


def _tax_an_empty_cell(ruleset: str) -> tuple[object, str]:
    """The top row's first cell has lost its card (the deck is out) but holds 2 rupees; the
    player taxes with Lapis Lazuli Mine (11, rank 2)."""
    s = setup(ruleset=ruleset)
    me = s.current
    assert isinstance(me, str)
    to_court(s, me, 11)
    s.market[0][0] = None
    s.market_rupees[0][0] = 2
    s.market_rupees[1][3] = 1
    play(s, Tax(card=11))
    return s, me


def test_tax_takes_a_rupee_lying_on_an_empty_market_cell_on_bga() -> None:
    """BGA offers every rupee of the market (fresh seed 7192 packet 325, a fixture)."""
    s, me = _tax_an_empty_cell("bga")
    assert {m for m in legal(s) if isinstance(m, TaxMarket)} == {TaxMarket(row=0, col=0), TaxMarket(row=1, col=3)}  # type: ignore[arg-type]
    play(s, TaxMarket(row=0, col=0))  # type: ignore[arg-type]
    assert s.market_rupees[0][0] == 1 and s.rupees[me] == 5  # type: ignore[attr-defined]
    assert [d["rule"] for d in s.departures][-1] == "tax_empty_cell"  # type: ignore[attr-defined]
    play(s, TaxMarket(row=1, col=3))  # type: ignore[arg-type]
    assert [d["rule"] for d in s.departures].count("tax_empty_cell") == 1  # type: ignore[attr-defined]


def test_tax_by_the_rulebook_takes_rupees_from_market_cards_only() -> None:
    s, me = _tax_an_empty_cell("official")
    assert {m for m in legal(s) if isinstance(m, TaxMarket)} == {TaxMarket(row=1, col=3)}  # type: ignore[arg-type]
    illegal(s, TaxMarket(row=0, col=0), "no market card with rupees there")  # type: ignore[arg-type]
