"""What every title's value-model features (``replay/games/<game>/features.py``) promise, checked the
same way for each: numbers of the declared width at every state of a game — the opening, the middle of
a multi-step action, a state awaiting chance, the end — in the full game, in a seat view and in the
positions the analysis shows the public; the same numbers for a copy; the state left alone; and a call
well under a millisecond.  What is specific to a title (known positions, what must stay hidden) is in
``tests/games/<game>/test_features.py``."""

from __future__ import annotations

import math
import time

import pytest
from states import every_state as states

from replay.analysis import positions
from replay.engine import State
from replay.evaluator import FeatureSet, feature_set
from replay.games import available, get_game
from replay.record import ChanceEvent, MoveEvent
from replay.simulate import simulate_one

TITLES = [g for g in available() if feature_set(g) is not None]


def _check(fs: FeatureSet, st: State) -> None:
    g = fs.game_features(st)
    assert len(g) == len(fs.global_names) and all(isinstance(x, float) and math.isfinite(x) for x in g)
    for p in st.players:
        row = fs.player_features(st, p)
        assert len(row) == len(fs.names), (p, len(row), len(fs.names))
        assert all(isinstance(x, float) and math.isfinite(x) for x in row), (p, row)


def test_every_title_with_a_model_has_features() -> None:
    from replay.evaluator import load_model

    assert {"copenhagen", "perikles", "praga"} <= set(TITLES)
    for g in available():
        if load_model(g) is not None:
            assert g in TITLES


def test_every_shipped_model_learnt_from_every_player_count() -> None:
    """People play every count a title allows, and a model that saw one count reads the others blind:
    Perikles' three-player model scored a Brier of 0.158 on five-player positions where always saying
    a fifth scores 0.169 (docs/analysis.md, *By player count*)."""
    from replay.evaluator import load_model

    for g in available():
        model = load_model(g)
        if model is not None:
            assert model.meta["trained"]["players"] is None, (g, model.meta["trained"]["command"])


@pytest.mark.parametrize("game_id", TITLES)
@pytest.mark.parametrize("players,view", [(3, None), (3, "p2")])
def test_every_state_of_a_game_seat_view_and_public_positions(game_id: str, players: int, view: str | None) -> None:
    game = get_game(game_id)
    players = max(game.min_players, min(players, game.max_players))
    fs = feature_set(game_id)
    assert fs is not None
    rec = simulate_one(game, players, 13, 0, view=view)
    n = 0
    for st in states(rec):
        _check(fs, st)
        n += 1
    assert n == sum(isinstance(e, MoveEvent | ChanceEvent) for e in rec.events) + 1
    assert st.is_over()
    chart, stop = positions(rec)
    assert stop is None and chart
    for pos in chart:
        _check(fs, pos.state)


@pytest.mark.parametrize("game_id", TITLES)
def test_the_same_numbers_for_a_copy_and_the_state_left_alone(game_id: str) -> None:
    game = get_game(game_id)
    fs = feature_set(game_id)
    assert fs is not None
    rec = simulate_one(game, game.min_players, 5, 2, observe_every=0)
    for i, st in enumerate(states(rec)):
        if i % 25:
            continue
        h = st.state_hash()
        for p in st.players:
            assert fs.player_features(st, p) == fs.player_features(st.copy(), p)
        assert fs.game_features(st) == fs.game_features(st.copy())
        assert st.state_hash() == h


@pytest.mark.parametrize("game_id", TITLES)
def test_a_call_is_well_under_a_millisecond(game_id: str) -> None:
    """CPU time over every state of a game (the aim is < 50 µs on a quiet core; the bound leaves room
    for a loaded machine)."""
    game = get_game(game_id)
    fs = feature_set(game_id)
    assert fs is not None
    rec = simulate_one(game, game.min_players, 3, 0, observe_every=0, agents=["greedy"] * game.min_players)
    every = [st.copy() for st in states(rec)]
    start = time.process_time()
    calls = 0
    for st in every:
        for p in st.players:
            fs.player_features(st, p)
            calls += 1
    per_call = (time.process_time() - start) / calls
    assert per_call < 1e-3, f"{game_id}: {per_call * 1e6:.0f} µs per call"
