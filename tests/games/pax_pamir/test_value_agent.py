"""How the value agent plays Pax Pamir: the greedy shortlist, whole turns, and the progress guard
that ends games between agents who each wait for the other to buy."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
from pax_pamir_helpers import setup

from replay import simulate
from replay.engine import OVER
from replay.evaluator import ValueModel, feature_set, installed
from replay.games import get_game
from replay.games.pax_pamir import features as F
from replay.simulate import GreedyAgent, SimulationError, ValueAgent, simulate_one

GAME = get_game("pax_pamir")


class Miser:
    """A stand-in for a booster: a player's chance grows with their rupees and falls with every card
    they hold, so no purchase ever looks good (the stall of two value agents trained on greedy
    games, where players with rupees won)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.at = [list(names).index(n) for n in ("own_rupees", "own_hand", "own_court")]

    def predict(self, rows: list[list[float]], num_threads: int = 1) -> list[float]:
        rupees, hand, court = self.at
        return [max(0.01, 0.5 + 0.01 * r[rupees] - 0.1 * (r[hand] + r[court])) for r in rows]


def miser(**options: Any) -> ValueModel:
    fs = feature_set("pax_pamir")
    assert fs is not None
    fs = replace(fs, **{"whole_turn": False, "shortlist": None, **options})
    return ValueModel("pax_pamir", Miser(fs.row_names), fs, {})


@pytest.fixture
def few_events(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "MAX_EVENTS", 1500)


def _bought(rec: Any) -> int:
    return sum(1 for ev in rec.events if getattr(ev, "move", None) is not None and ev.move.type == "buy")


@pytest.mark.usefixtures("few_events")
def test_two_misers_stall_without_the_progress_guard() -> None:
    with installed(miser(progress=None)), pytest.raises(SimulationError, match="did not end"):
        simulate_one(GAME, 2, 1, 0, observe_every=0, agents=["value", "value"])


@pytest.mark.usefixtures("few_events")
def test_the_progress_guard_makes_them_buy_and_the_game_ends() -> None:
    with installed(miser()):
        rec = simulate_one(GAME, 2, 1, 0, observe_every=0, agents=["value", "value"])
    assert rec.result is not None and rec.result["end"] == "normal"
    assert _bought(rec) >= 10  # the market moved on, to the Dominance Checks


def test_progress_counts_the_cards_that_left_the_deck_and_the_market() -> None:
    s = setup(2)
    before = F.progress(s)
    s.apply_move("p1", GAME.parse_move({"type": "buy", "row": 0, "col": 0}))
    assert F.progress(s) == before + 1
    s.apply_move("p1", GAME.parse_move({"type": "end_turn"}))
    while not isinstance(s.turn(), str):  # the refill: a card leaves the deck for the market
        s.reveal(simulate.sample_outcome(s.turn(), random.Random(0)))  # type: ignore[arg-type]
    assert F.progress(s) == before + 1


@pytest.fixture(scope="module")
def tiny() -> Iterator[ValueModel]:
    from replay.training import train

    trained = train("pax_pamir", games=2, seed=3, iterations=1, players=2)
    with installed(trained.model) as m:
        yield m


def _decisions(n: int) -> list[tuple[Any, str]]:
    rec = simulate_one(GAME, 2, 9, 0, observe_every=0, agents=["greedy", "greedy"])
    from replay.analysis import DECISIONS, positions

    chart, _ = positions(rec, DECISIONS, "known")
    picked = [(p.state, p.mover) for p in chart if p.mover is not None]
    return picked[5::max(1, len(picked) // n)][:n]


def test_the_model_chooses_among_the_greedy_evaluations_three_best(tiny: ValueModel) -> None:
    assert F.SHORTLIST == 3 and F.WHOLE_TURN
    for state, player in _decisions(8):
        moves = list(state.legal_moves())
        chosen = ValueAgent(random.Random(1)).choose(state, player)
        values = sorted(GreedyAgent(random.Random(0)).values(state, player, moves), reverse=True)
        mine = GreedyAgent(random.Random(0)).values(state, player, [chosen])[0]
        assert mine >= values[min(F.SHORTLIST, len(values)) - 1]


def test_a_move_is_judged_at_the_end_of_the_movers_turn(tiny: ValueModel) -> None:
    agent = ValueAgent(random.Random(2))
    for state, player in _decisions(6):
        before = state.state_hash()
        child = state.copy()
        child.play(player, next(iter(state.legal_moves())))
        agent._finish_turn(child, player, random.Random(3))
        assert child.turn() is OVER or child.turn() not in (player, None)
        assert isinstance(child.turn(), str) or child.turn() is OVER  # at a decision, the draws made
        assert state.state_hash() == before and not state.reveals  # the position itself untouched


def test_the_other_titles_play_by_the_model_alone() -> None:
    """Copenhagen, Perikles and Praga (and Coal Baron) ask for none of it: their value agents choose
    exactly as before (the children, the prediction, the agent's draws)."""
    for game in ("copenhagen", "perikles", "praga", "coal_baron"):
        fs = feature_set(game)
        assert fs is not None and (fs.progress, fs.shortlist, fs.whole_turn) == (None, None, False)
