"""The Wakhan, Pax Pamir's automated opponent, as a seat of the game: her setup and AI deck,
pragmatic loyalty, influence in every coalition, rule of a region, Radicalize, bribes, prizes,
the cards Other Persuasive Methods gives her, and BGA's departures for her."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pax_pamir_helpers import GAME, MARKET, armies, illegal, play, to_court, to_hand, tribes

from replay.engine import OVER, ChanceRequest, IllegalMove, ImpossibleChance, WrongPlayer
from replay.games.pax_pamir import wakhan
from replay.games.pax_pamir.components import COURT, WAKHAN_CARDS
from replay.games.pax_pamir.court import discard_from_court
from replay.games.pax_pamir.dominance import check_points
from replay.games.pax_pamir.moves import (
    Buy,
    ChooseLoyalty,
    Discard,
    EndTurn,
    MoveAction,
    MoveArmy,
    OfferBribe,
    Play,
    Radicalize,
    SwapHands,
)
from replay.games.pax_pamir.state import PaxState

W = "1"


def wakhan_game(ruleset: str = "bga", people: tuple[str, ...] = ("p1",), loyalties: tuple[str, ...] = ("russian",),
                ai_card: int = 1, steadfast: bool = False) -> PaxState:
    """A game with the Wakhan seated second, the opening market dealt, loyalties chosen and her
    first AI card drawn: her action phase awaits."""
    players = [people[0], W, *people[1:]]
    s = GAME.initial_state(players, {"ruleset": ruleset, "wakhan": W, "wakhan_steadfast": steadfast})
    assert isinstance(s, PaxState)
    for card in MARKET:
        s.apply_chance({"draw": "deck", "items": [card]})
    if ruleset != "bga":
        s.apply_chance({"choose": "first_chooser", "value": people[0]})
    for p, c in zip(people, loyalties, strict=True):
        s.apply_move(p, ChooseLoyalty(coalition=c))
    s.apply_chance({"draw": wakhan.WAKHAN_DECK, "items": [ai_card]})
    assert s.turn() == W
    return s


def test_she_chooses_no_loyalty_and_takes_the_first_turn_after_drawing_her_ai_card() -> None:
    for ruleset in ("official", "bga"):
        s = wakhan_game(ruleset, people=("p1", "p2"), loyalties=("russian", "afghan"))
        assert s.loyalty[W] is None and s.rupees[W] == 4 and s.current == W
        assert s.ai_discard == [1] and len(s.ai_deck) == 23
    s = GAME.initial_state(["p1", W], {"ruleset": "bga", "wakhan": W})
    for card in MARKET:
        s.apply_chance({"draw": "deck", "items": [card]})
    with pytest.raises(WrongPlayer):  # p1 chooses; she never does
        s.apply_move(W, ChooseLoyalty(coalition="afghan"))


def test_her_seat_must_be_a_player() -> None:
    with pytest.raises(IllegalMove, match="not one of the players"):
        GAME.initial_state(["p1", "p2"], {"ruleset": "bga", "wakhan": "1"})


def test_her_ai_card_must_be_named_and_comes_from_her_deck() -> None:
    s = wakhan_game()
    play(s, EndTurn())
    play(s, EndTurn())  # p1
    before = s.state_hash()
    with pytest.raises(ImpossibleChance):
        s.apply_chance({"draw": wakhan.WAKHAN_DECK, "items": [1]})  # already on her discard pile
    with pytest.raises(ImpossibleChance, match="must be named"):
        s.apply_chance({"draw": wakhan.WAKHAN_DECK, "items": [None]})
    assert s.state_hash() == before


def test_her_deck_is_shuffled_again_when_its_last_card_is_drawn() -> None:
    s = wakhan_game(ai_card=1)
    for card in range(2, 25):
        play(s, EndTurn())
        play(s, EndTurn())
        s.apply_chance({"draw": wakhan.WAKHAN_DECK, "items": [card]})
        if card < 24:
            assert s.ai_discard[-1] == card
    # the 24th card drawn emptied the deck: all 24 are shuffled back and she draws again
    assert s.ai_discard == [] and len(s.ai_deck) == 24
    req = s.turn()
    assert isinstance(req, ChanceRequest) and req.name == wakhan.WAKHAN_DECK and len(req.pool) == 24
    s.apply_chance({"draw": wakhan.WAKHAN_DECK, "items": [24]})
    assert s.ai_discard == [24] and s.turn() == W


def test_pragmatic_loyalty_is_the_first_coalition_on_her_card_no_other_player_holds() -> None:
    card = WAKHAN_CARDS[1]  # russian, afghan, british
    assert card.pragmatic_loyalty == ("russian", "afghan", "british")
    assert wakhan.pragmatic_loyalty(wakhan_game(loyalties=("british",), ai_card=1)) == "russian"
    assert wakhan.pragmatic_loyalty(wakhan_game(loyalties=("russian",), ai_card=1)) == "afghan"
    s = wakhan_game(people=("p1", "p2"), loyalties=("russian", "afghan"), ai_card=1)
    assert wakhan.pragmatic_loyalty(s) == "british"
    assert s.coalition_of(W) == "british" and s.coalition_of("p1") == "russian"


def test_steadfast_pragmatic_loyalty_takes_the_free_coalition_with_most_blocks_in_play() -> None:
    s = wakhan_game(loyalties=("russian",), ai_card=1, steadfast=True)  # free: afghan, british
    assert wakhan.pragmatic_loyalty(s) == "afghan"  # a tie: the first on the card
    armies(s, "kabul", "british", 2)
    assert wakhan.pragmatic_loyalty(s) == "british"
    armies(s, "kabul", "afghan", 2)
    assert wakhan.pragmatic_loyalty(s) == "afghan"
    armies(s, "herat", "russian", 5)  # a coalition another player holds never counts
    assert wakhan.pragmatic_loyalty(s) == "afghan"


def test_her_pieces_are_of_her_pragmatic_loyalty() -> None:
    s = wakhan_game(loyalties=("russian",), ai_card=1)  # she is afghan
    card = next(c for c in MARKET if COURT[c].impact.count("army") and COURT[c].region)
    row, col = _cell(s, card)
    s.rupees[W] = 10
    play(s, Radicalize(row=row, col=col, side="left"))
    region = COURT[card].region
    assert s.armies[region]["afghan"] >= 1 and s.armies[region]["russian"] == 0


def test_her_influence_counts_in_every_coalition() -> None:
    s = wakhan_game(loyalties=("russian",))
    afghan_patriot = next(c for c, card in COURT.items() if card.patriot == "afghan")
    british_patriot = next(c for c, card in COURT.items() if card.patriot == "british")
    british_prize = next(c for c, card in COURT.items() if card.prize == "british" and c != british_patriot)
    to_court(s, W, afghan_patriot, british_patriot)
    s.prizes[W].append(british_prize)
    s.gifts[W].append(2)
    assert wakhan.influences(s) == {"afghan": 3, "british": 4, "russian": 2}
    assert s.influences()[W] == 0  # no loyalty: the per-player figure leaves her at 0


def test_she_competes_in_whichever_coalition_dominates() -> None:
    s = wakhan_game(loyalties=("afghan",))
    british_patriot = next(c for c, card in COURT.items() if card.patriot == "british")
    to_court(s, W, british_patriot)
    armies(s, "punjab", "british", 4)
    winner, points = check_points(s, final=False)
    assert winner == "british" and points == {W: 5}  # p1 is afghan: not in the British ranking
    armies(s, "kabul", "afghan", 8)
    to_court(s, "p1", next(c for c, card in COURT.items() if card.patriot == "afghan"))
    winner, points = check_points(s, final=False)
    assert winner == "afghan" and points == {"p1": 5, W: 3}  # 2 against her 1


def test_she_rules_with_her_tribes_and_the_largest_army_of_any_coalition() -> None:
    s = wakhan_game(loyalties=("russian",))
    tribes(s, "herat", W, 1)
    armies(s, "herat", "british", 2)
    tribes(s, "herat", "p1", 2)
    # her 1 tribe + 2 British armies = 3 > p1's 2 tribes, and more than the 2 armies of one coalition
    assert s.rulers["herat"] == W
    armies(s, "herat", "russian", 2)  # p1: 2 tribes + 2 Russian armies = 4, her 1 tribe + 2 armies = 3
    assert s.ruling_pieces("p1", "herat") == 4 and s.ruling_pieces(W, "herat") == 3
    assert s.rulers["herat"] == "p1"


def test_radicalize_buys_and_plays_in_one_action() -> None:
    s = wakhan_game()
    row, col = next((r, c) for c in range(1, 6) for r in range(2) if _no_choice(s.market[r][c]))
    card = s.market[row][col]
    play(s, Radicalize(row=row, col=col, side="left"))
    assert s.courts[W] == [card] and s.hands[W] == [] and s.actions_left == 1
    assert s.rupees[W] >= 4 - col and sum(s.market_rupees[r][c] for r in range(2) for c in range(col)) == col
    illegal(s, Radicalize(row=1 - row, col=col), "left or right", player=W)
    illegal(s, Buy(row=1 - row, col=col), "radicalizes", player=W)


def test_only_the_wakhan_radicalizes() -> None:
    s = wakhan_game(people=("p1", "p2"), loyalties=("russian", "afghan"))
    play(s, EndTurn())
    assert s.turn() == "p2"
    illegal(s, Radicalize(row=0, col=0, side="left"), "only the Wakhan", player="p2")


def test_a_card_whose_bribe_she_cannot_pay_goes_to_the_discard_pile() -> None:
    s = wakhan_game(loyalties=("russian",))
    card = s.market[0][0]
    region = COURT[card].region
    tribes(s, region, "p1", 3)
    assert s.rulers[region] == "p1"
    s.rupees[W] = 2
    illegal(s, Radicalize(row=0, col=0, side="left"), "discard pile", player=W)
    assert Radicalize(row=0, col=0) in s.legal_moves()
    play(s, Radicalize(row=0, col=0))
    assert card in s.discard_pile and s.courts[W] == [] and s.rupees["p1"] == 4


def test_she_pays_a_bribe_for_a_radicalized_card_in_full_without_asking() -> None:
    s = wakhan_game(loyalties=("russian",))
    card = s.market[0][0]
    tribes(s, COURT[card].region, "p1", 2)
    play(s, Radicalize(row=0, col=0, side="left"))
    assert s.courts[W] == [card] and s.rupees[W] == 2 and s.rupees["p1"] == 6


def test_holding_courtly_manners_she_never_pays_a_bribe_for_a_play() -> None:
    s = wakhan_game(loyalties=("russian",))
    card = s.market[0][0]
    tribes(s, COURT[card].region, "p1", 2)
    s.held_events[W].append(107)  # Courtly Manners
    play(s, Radicalize(row=0, col=0, side="left"))
    assert s.courts[W] == [card] and s.rupees[W] == 4 and s.rupees["p1"] == 4


def test_nobody_negotiates_a_bribe_with_her() -> None:
    s = wakhan_game(loyalties=("russian",))
    play(s, EndTurn())
    assert s.turn() == "p1"
    card = next(c for c in COURT if c not in MARKET and COURT[c].region == "herat")
    to_hand(s, "p1", card)
    tribes(s, "herat", W, 2)
    assert s.rulers["herat"] == W
    play(s, Play(card=card, side="left"))
    illegal(s, OfferBribe(amount=1), "does not negotiate", player="p1")
    play(s, OfferBribe(amount=2))
    assert s.courts["p1"][0] == card and s.rupees[W] == 6


def test_a_patriot_never_changes_her_loyalty() -> None:
    s = wakhan_game(loyalties=("russian",))
    patriot = next(c for c in MARKET if COURT[c].patriot is not None)
    row, col = _cell(s, patriot)
    s.rupees[W] = 20
    play(s, Radicalize(row=row, col=col, side="left"))
    assert s.loyalty[W] is None and patriot in s.courts[W]
    assert not [m for m in s.milestones if m.get("type") == "loyalty_change" and m.get("player_id") == W]


def test_other_persuasive_methods_gives_her_cards_she_plays_at_once() -> None:
    s = wakhan_game(loyalties=("russian",))
    play(s, EndTurn())
    cards = [c for c in COURT if c not in MARKET and COURT[c].region == "kandahar" and _no_choice(c)][:2]
    to_hand(s, "p1", *cards)
    opm = 114
    s.market[1][0] = opm
    play(s, Buy(row=1, col=0))
    play(s, SwapHands(player=W))
    assert s.hands[W] == cards and s.turn() == W
    play(s, Play(card=cards[1], side="left"), player=W)
    play(s, Play(card=cards[0], side="right"), player=W)
    assert s.courts[W] == [cards[1], cards[0]] and s.actions_left == 1 and s.turn() == "p1"


def test_bga_lets_her_armies_cross_any_border_and_records_the_departure() -> None:
    move_card = next(c for c, card in COURT.items() if "move" in card.actions)
    for ruleset, ok in (("bga", True), ("official", False)):
        s = wakhan_game(ruleset, loyalties=("russian",), ai_card=1)  # she is afghan
        to_court(s, W, move_card)
        armies(s, "kabul", "afghan")
        play(s, MoveAction(card=move_card))
        step = MoveArmy(region="kabul", to="punjab")
        if ok:
            play(s, step)
            assert s.armies["punjab"]["afghan"] == 1
            assert [d["rule"] for d in s.departures if d["rule"].startswith("wakhan")] == ["wakhan_moves_off_road"]
        else:  # no road anywhere: the Move has no step to offer
            assert not any(type(m) is MoveArmy for m in s.legal_moves())
            illegal(s, step, player=W)


def test_bga_spares_her_the_discards_for_unpaid_leverage() -> None:
    leveraged = next(c for c, card in COURT.items() if "leverage" in card.impact and c not in MARKET)
    for ruleset, asked in (("bga", False), ("official", True)):
        s = wakhan_game(ruleset, loyalties=("russian",))
        to_court(s, W, leveraged, *[c for c in COURT if c not in MARKET and c != leveraged][:3])
        s.leveraged.add(leveraged)
        s.rupees[W] = 0
        discard_from_court(s, W, leveraged)
        s.advance()
        waits = s.turn() == W and any(type(m) is Discard for m in s.legal_moves())
        assert waits == asked


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), people=st.integers(1, 2))
def test_random_games_with_her_end_and_every_legal_move_passes_the_checked_path(seed: int, people: int) -> None:
    rnd = random.Random(seed)
    players = ["p1", W, "p2"][: people + 1]
    s = GAME.initial_state(players, {"ruleset": rnd.choice(["bga", "official"]), "wakhan": W})
    for _ in range(20_000):
        t = s.turn()
        if t is OVER:
            break
        if isinstance(t, ChanceRequest):
            if t.kind == "draw":
                pool = [x for x, n in t.pool for _ in range(n)]
                s.apply_chance({"draw": t.name, "items": [rnd.choice(pool)]})
            else:
                s.apply_chance({"choose": t.name, "value": rnd.choice(list(t.options))})
            continue
        moves = list(s.legal_moves())
        assert moves
        s.apply_move(t, rnd.choice(moves))
    assert s.over
    assert W in s.totals()


def _no_choice(card: int | None) -> bool:
    """A court card whose play asks nothing (no road or spy icon)."""
    return card in COURT and not {"road", "spy"} & set(COURT[card].impact)


def _cell(s: PaxState, card: int) -> tuple[int, int]:
    return next((r, c) for r in range(2) for c in range(6) if s.market[r][c] == card)


def test_public_withdrawal_only_bgas_wakhan_may_radicalize() -> None:
    for ruleset, ok in (("bga", True), ("official", False)):
        s = wakhan_game(ruleset, loyalties=("russian",))
        s.market[0][0] = 111  # Public Withdrawal
        if ok:
            play(s, Radicalize(row=0, col=0))
            assert s.discard_pile[-1] == 111 and s.actions_left == 1
            assert [d["rule"] for d in s.departures if d["rule"].startswith("wakhan")] == \
                ["wakhan_takes_public_withdrawal"]
        else:
            illegal(s, Radicalize(row=0, col=0), "can never be purchased", player=W)


def test_bgas_wakhan_betrays_past_the_owners_bodyguards() -> None:
    from pax_pamir_helpers import spies

    from replay.games.pax_pamir.moves import Betray

    political = next(c for c, card in COURT.items() if card.suit == "political" and c not in MARKET and c != 15)
    betrayer = next(c for c, card in COURT.items() if "betray" in card.actions and c not in MARKET and c != political)
    for ruleset, ok in (("bga", True), ("official", False)):
        s = wakhan_game(ruleset, loyalties=("russian",))
        to_court(s, "p1", 15, political)  # Durrani Royal Guard: Bodyguards
        to_court(s, W, betrayer)
        spies(s, political, W)
        move = Betray(card=betrayer, target=political)
        if ok:
            play(s, move)
            assert political not in s.courts["p1"]
            assert "wakhan_betrays_past_bodyguards" in [d["rule"] for d in s.departures]
        else:
            illegal(s, move, "Bodyguards protect", player=W)
