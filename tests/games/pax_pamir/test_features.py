"""Pax Pamir's value-model features: known positions, public only, every reachable state, fast."""

from __future__ import annotations

from pathlib import Path

import pytest
from pax_pamir_helpers import armies, setup, spies, to_court, to_hand, tribes
from states import every_state as states

from ingest.bga import import_file
from replay.analysis import positions
from replay.games import get_game
from replay.games.pax_pamir import features as F
from replay.games.pax_pamir.components import COURT, DOMINANCE_CHECKS
from replay.games.pax_pamir.state import PaxState
from replay.record import ChanceEvent, Record
from replay.simulate import simulate_one

BGA_LOGS = Path(__file__).resolve().parents[2] / "ingest" / "bga_logs" / "pax_pamir"


def named(s: PaxState, player: str) -> dict[str, float]:
    return dict(zip(F.NAMES, F.features(s, player), strict=True))


def card_of(suit: str, rank: int, taken: set[int]) -> int:
    return next(c.id for c in COURT.values() if c.suit == suit and c.rank == rank and c.id not in taken)


def test_the_opening_position_in_numbers() -> None:
    s = setup(2)  # p1 afghan, p2 british
    f = named(s, "p1")
    assert f["points"] == 0 and f["rupees"] == s.rupees["p1"] and f["loyal"] == 1 and f["influence"] == 1
    assert f["court"] == 0 and f["court_limit"] == 3 and f["hand_limit"] == 2 and f["cylinders"] == 0
    assert f["check_points"] == 2  # nobody dominates, both have no cylinder: 3 + 1 shared
    g = dict(zip(F.GLOBAL_NAMES, F.global_features(s), strict=True))
    assert g["check_column"] == 6  # no Dominance Check in the opening market
    assert g["checks_resolved"] == 0 and g["best_block_lead"] == 0 and g["dominant_now"] == 0
    assert g["actions_left"] == 2 and g["in_action"] == 0
    s.market[1][3] = DOMINANCE_CHECKS[0]
    assert dict(zip(F.GLOBAL_NAMES, F.global_features(s), strict=True))["check_column"] == 3


def test_a_dominant_coalition_pays_its_loyal_players_by_influence() -> None:
    s = setup(2)
    armies(s, "kabul", "afghan", 4)
    tribes(s, "kabul", "p1")
    f, g = named(s, "p1"), named(s, "p2")
    assert (f["coalition_blocks"], f["coalition_lead"], f["check_points"]) == (4, 4, 5)
    assert (g["coalition_lead"], g["check_points"]) == (-4, 0)
    assert f["regions_ruled"] == 1 and f["tribes"] == 1 and f["cylinders"] == 1
    glob = dict(zip(F.GLOBAL_NAMES, F.global_features(s), strict=True))
    assert glob["best_block_lead"] == 4 and glob["dominant_now"] == 1


def test_what_the_next_check_would_give_and_whether_it_ends_the_game() -> None:
    s = setup(2)  # nobody dominates: cylinders in play score 3 and 1
    tribes(s, "kabul", "p1")
    s.add_points("p1", "dominance_successful", 1)
    f, g = named(s, "p1"), named(s, "p2")
    assert (f["check_points"], f["after_check"], f["after_check_lead"], f["check_wins"]) == (3, 4, 3, 0)
    assert (g["check_points"], g["after_check"], g["after_check_lead"], g["check_wins"]) == (1, 1, -3, 0)
    s.add_points("p1", "dominance_successful", 1)  # four ahead once the check is scored: the instant victory
    assert named(s, "p1")["check_wins"] == 1 and named(s, "p2")["check_wins"] == 0
    s.dc_cards_done = len(DOMINANCE_CHECKS) - 1  # the next check is the final one: its points doubled
    assert dict(zip(F.GLOBAL_NAMES, F.global_features(s), strict=True))["final_check_next"] == 1
    f = named(s, "p1")
    assert (f["check_points"], f["after_check"], f["check_wins"]) == (6, 8, 1)
    s.add_points("p2", "dominance_successful", 8)  # the final check would leave p2 ahead, 10 to 8
    assert named(s, "p1")["check_wins"] == 0 and named(s, "p2")["check_wins"] == 1


def test_the_court_and_hand_that_make_actions() -> None:
    s = setup(2)
    taken: set[int] = set(s.market[0]) | set(s.market[1])  # type: ignore[arg-type]
    assert s.favored == "political"
    military = card_of("military", 2, taken)
    favored = card_of("political", 1, taken)
    to_court(s, "p1", military, favored)
    to_hand(s, "p1", card_of("political", 2, taken | {favored}))
    spies(s, military, "p2", 2)
    s.leveraged.add(military)
    f = named(s, "p1")
    assert (f["court"], f["hand"], f["military"], f["political"], f["court_limit"]) == (2, 1, 2, 1, 4)
    assert (f["favored_stars"], f["favored_in_hand"], f["leveraged"]) == (1, 1, 1)
    assert named(s, "p2")["spies"] == 2 and named(s, "p2")["cylinders"] == 2


def _cut_with_an_unnamed_card() -> tuple[Record, Record, int]:
    """A game cut where an opening-market court card leaves the market, and the same game with that
    card's draw unknown (as a Board Game Arena log leaves it); the index of that draw."""
    rec = simulate_one(get_game("pax_pamir"), 2, 3, 0, observe_every=0, agents=["random", "random"])
    draws = [i for i, ev in enumerate(rec.events) if isinstance(ev, ChanceEvent)][: 5 + len(rec.players)]
    opening = {rec.events[i].outcome["items"][0]: i for i in draws}  # type: ignore[union-attr]
    gone: dict[int, int] = {}  # card -> the event that took it out of the market
    for j, st in enumerate(states(rec)):
        if j > draws[-1]:
            market = {c for row in st.market for c in row}  # type: ignore[attr-defined]
            for card in opening:
                gone.setdefault(card, j - 1) if card not in market else None
    card = max(opening, key=lambda c: gone.get(c, len(rec.events)))
    cut = gone.get(card, len(rec.events))
    known = Record(rec.game, rec.id, rec.players, list(rec.events[:cut]), dict(rec.options))
    events = list(known.events)
    events[opening[card]] = ChanceEvent({"draw": "deck", "items": [None]})
    return known, Record(rec.game, rec.id, rec.players, events, dict(rec.options)), opening[card]


def test_a_market_card_nobody_has_named_changes_nothing() -> None:
    """The same position with an opening-market card named and left unknown: the same numbers."""
    known, unnamed, k = _cut_with_an_unnamed_card()
    compared = 0
    for i, (a, b) in enumerate(zip(states(known), states(unnamed), strict=True)):
        assert isinstance(a, PaxState) and isinstance(b, PaxState)
        if i > k:
            assert b.unknown_zones(), "the card was named before the cut"
            compared += 1
        assert [F.features(a, p) for p in a.players] == [F.features(b, p) for p in b.players]
        assert F.global_features(a) == F.global_features(b)
    assert compared > 20


@pytest.mark.parametrize("name", ["paxpamir_2p_seed7091", "paxpamir_4p_seed7010"])
def test_every_state_of_a_board_game_arena_game(name: str) -> None:
    rec = import_file(BGA_LOGS / f"{name}.log.json.gz").record
    n = 0
    for st in states(rec):
        assert isinstance(st, PaxState)
        assert all(len(F.features(st, p)) == len(F.NAMES) for p in st.players)
        assert len(F.global_features(st)) == len(F.GLOBAL_NAMES)
        n += 1
    assert st.is_over() and n > 200
    assert [named(st, p)["points"] for p in st.players] == [rec.result["score"][p] for p in st.players]  # type: ignore[index]


def test_the_shipped_value_model_reads_these_features() -> None:
    """The model in the package was trained on exactly these features (the version check), and gives
    chances that add up to one."""
    from replay.evaluator import load_model

    model = load_model("pax_pamir")
    assert model is not None
    rec = simulate_one(get_game("pax_pamir"), 2, 5, 0, observe_every=0, agents=["greedy", "greedy"])
    chart, _ = positions(rec)
    for chances in model.chances_many([p.state for p in chart[::5] if not p.state.is_over()]):
        assert sum(chances.values()) == pytest.approx(1.0) and all(0 < c < 1 for c in chances.values())
