"""One conformance suite over every game with an engine (and the toy game).

Whatever the game, a simulated record must replay `complete`, byte-identically,
with scores whose categories sum to the totals; every legal move must be
accepted by the checked path; and each kind of corruption must be reported at
the event where it was made, with the right divergence kind.  A move the
checked path refuses is never among the legal moves and leaves the state as it
was; and the public paths (``apply_move``, ``apply_chance``, ``play``,
``reveal``) are the base class's alone, with a game's fast path a hook they call.
"""

from __future__ import annotations

import copy
import gzip
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.engine import OVER, ChanceRequest, Game, Move, RuleViolation, State, check_outcome_form
from replay.games import available, get_game
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import replay
from replay.simulate import simulate_one
from tests.states import every_state

GAMES = ["toy", *available()]


def sims(game: Game, n: int = 2) -> list[Record]:
    counts = list(range(game.min_players, game.max_players + 1))
    return [simulate_one(game, counts[i % len(counts)], 77, i, observe_every=7) for i in range(n)]


@pytest.fixture(scope="module", params=GAMES)
def corpus(request: pytest.FixtureRequest) -> tuple[Game, list[Record]]:
    game = get_game(request.param)
    return game, sims(game)


def test_simulated_records_replay_complete_and_deterministic(corpus: tuple[Game, list[Record]]) -> None:
    game, recs = corpus
    for rec in recs:
        blob = dumps(rec)
        a = replay(loads(blob))
        b = replay(loads(blob))
        assert a.status == "complete", a.divergences[:3]
        assert orjson.dumps(a.to_json()) == orjson.dumps(b.to_json())
        assert a.state is not None
        totals = a.state.totals()
        assert rec.result is not None and totals == rec.result["score"]
        cats = {p: list(c) for p, c in a.score.items()}
        assert len({tuple(c) for c in cats.values()}) == 1, "every player has the same categories"
        for f in a.frames:
            assert set(f.score) == set(rec.player_ids)
        orjson.dumps(a.state.snapshot())  # plain JSON


def test_every_legal_move_is_accepted_by_the_checked_path(corpus: tuple[Game, list[Record]]) -> None:
    game, recs = corpus
    rec = recs[0]
    state = game.initial_state(rec.player_ids, rec.options)
    checked = 0
    for seq, ev in enumerate(rec.events):
        if isinstance(ev, ObserveEvent):
            continue
        t = state.turn()
        if isinstance(t, str) and seq % 5 == 0:
            for move in list(state.legal_moves())[:40]:
                trial = state.copy()
                trial.seq = seq
                trial.apply_move(t, move)
                checked += 1
        state.seq = seq
        if isinstance(ev, MoveEvent):
            state.apply_move(ev.player, ev.move)
        else:
            assert isinstance(ev, ChanceEvent)
            state.apply_chance(ev.outcome)
    assert state.turn() is OVER and checked > 0


def _fingerprint(state: State) -> tuple[str, bytes]:
    return state.state_hash(), orjson.dumps(state.snapshot(), option=orjson.OPT_SORT_KEYS)


def test_a_copy_and_its_original_go_their_own_ways(corpus: tuple[Game, list[Record]]) -> None:
    """A copy shares nothing that play changes, whichever of the two is played on: at every
    fourth decision, each of a few legal moves played on a copy leaves the original as it was, and
    a move played on the original leaves its copy as it was."""
    game, recs = corpus
    tried = decisions = 0
    for seq, state in enumerate(every_state(recs[0])):
        t = state.turn()
        if not isinstance(t, str):
            continue
        decisions += 1
        if decisions % 4:
            continue
        before = _fingerprint(state)
        for move in list(state.legal_moves())[:8]:
            trial = state.copy()
            trial.play(t, move)
            assert _fingerprint(state) == before, f"{game.id} seq {seq}: {move} on a copy changed the original"
            tried += 1
        original = state.copy()  # (``state`` goes on with the record)
        kept = original.copy()
        for move in list(original.legal_moves())[:1]:
            original.play(t, move)
            assert _fingerprint(kept) == before, f"{game.id} seq {seq}: {move} on the original changed a copy"
    assert tried >= 5


def test_a_chance_outcome_has_one_effect_whichever_path_checks_it(corpus: tuple[Game, list[Record]]) -> None:
    """Each chance outcome of the records, applied to the state as it comes (a title's fast path
    may take it without making the request) and to a copy the long way (the request made, the
    outcome checked against it, then revealed), leaves the same state."""
    game, recs = corpus
    compared = 0
    for rec in recs:
        state = game.initial_state(rec.player_ids, rec.options)
        for seq, ev in enumerate(rec.events):
            state.seq = seq
            if isinstance(ev, MoveEvent):
                state.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                checked = state.copy()
                checked.seq = seq
                req = checked.turn()
                requested = isinstance(req, ChanceRequest) and "reveal" not in ev.outcome
                if requested:  # the long way of State.apply_chance, as when no fast path takes it
                    assert isinstance(req, ChanceRequest)
                    check_outcome_form(req, ev.outcome)
                    checked._reveal(req, ev.outcome)
                state.apply_chance(ev.outcome)
                if requested:
                    assert checked.state_hash() == state.state_hash(), f"{game.id} seq {seq}"
                    assert checked.snapshot() == state.snapshot(), f"{game.id} seq {seq}"
                    compared += 1
    assert compared > 5


def _tried_moves(rec: Record, seq: int, earlier: list[Move]) -> list[Move]:
    """Moves to try at the state after event ``seq``: some of the record's moves (most made at
    other points of the game) and some that were legal a few states ago."""
    made = [e.move for e in rec.events if isinstance(e, MoveEvent)]
    picked = [made[(seq * 7 + 13 * j) % len(made)] for j in range(6)]
    return picked + earlier[:: max(1, len(earlier) // 6)][:6]


def test_a_refused_move_is_not_legal_and_changes_nothing(corpus: tuple[Game, list[Record]]) -> None:
    """At every third state reached by play: each move the checked path refuses (from the player
    to move, or from another player) is a rule violation, is not among the legal moves, and
    leaves the state hash and the snapshot as they were."""
    game, recs = corpus
    refused = 0
    for rec in recs:
        earlier: list[Move] = []
        for seq, state in enumerate(every_state(rec)):
            t = state.turn()
            if seq % 3 or not isinstance(t, str):
                continue
            legal = list(state.legal_moves())
            others = [p for p in rec.player_ids if p != t]
            for i, move in enumerate(_tried_moves(rec, seq, earlier)):
                player = t if i % 3 else others[i % len(others)]
                trial = state.copy()
                trial.seq = seq
                before = (trial.state_hash(), orjson.dumps(trial.snapshot(), option=orjson.OPT_SORT_KEYS))
                try:
                    trial.apply_move(player, move)
                except RuleViolation as e:
                    refused += 1
                    assert player != t or move not in legal, f"{game.id} seq {seq}: legal {move} refused: {e}"
                    after = (trial.state_hash(), orjson.dumps(trial.snapshot(), option=orjson.OPT_SORT_KEYS))
                    assert after == before, f"{game.id} seq {seq}: refused {move} by {player} changed the state"
            earlier = legal
    assert refused >= 20


@pytest.mark.parametrize("game_id", ["toy", *available()])
def test_the_public_paths_are_the_base_class_s(game_id: str) -> None:
    cls = get_game(game_id).state_class
    for name in ("apply_move", "apply_chance", "play", "reveal"):
        assert getattr(cls, name) is getattr(State, name), f"{cls.__name__} overrides {name}"


def _first_div(rec: Record) -> tuple[int, str]:
    r = replay(rec)
    assert r.divergences, "the corruption went unnoticed"
    d = r.divergences[0]
    return d.seq, d.kind


def test_observation_off_by_one(corpus: tuple[Game, list[Record]]) -> None:
    rec = copy.deepcopy(corpus[1][0])
    i, ev = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, ObserveEvent) and "score" in e.facts)
    pid = rec.player_ids[-1]
    ev.facts["score"][pid] += 1
    r = replay(rec)
    assert [(d.seq, d.kind, d.key) for d in r.divergences] == [(i, "observation_mismatch", f"score.{pid}")]


def test_move_by_the_wrong_player(corpus: tuple[Game, list[Record]]) -> None:
    rec = copy.deepcopy(corpus[1][0])
    i, ev = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, MoveEvent))
    ev.player = next(p for p in rec.player_ids if p != ev.player)
    assert _first_div(rec) == (i, "wrong_player")


def test_dropped_chance_outcome(corpus: tuple[Game, list[Record]]) -> None:
    rec = copy.deepcopy(corpus[1][0])
    i = next(i for i, e in enumerate(rec.events[:-1])
             if isinstance(e, ChanceEvent) and isinstance(rec.events[i + 1], MoveEvent))
    del rec.events[i]
    assert _first_div(rec) == (i, "missing_chance")


def test_move_after_the_end(corpus: tuple[Game, list[Record]]) -> None:
    rec = copy.deepcopy(corpus[1][0])
    last = [e for e in rec.events if isinstance(e, MoveEvent)][-1]
    rec.events.append(copy.deepcopy(last))
    rec.result = None
    assert _first_div(rec) == (len(rec.events) - 1, "events_after_end")


def test_truncated_record_is_incomplete(corpus: tuple[Game, list[Record]]) -> None:
    rec = copy.deepcopy(corpus[1][0])
    rec.events = rec.events[: len(rec.events) // 2]
    rec.result = None
    r = replay(rec)
    assert r.status == "incomplete" and not r.divergences


def test_chance_requests_describe_themselves(corpus: tuple[Game, list[Record]]) -> None:
    game, recs = corpus
    rec = recs[0]
    state = game.initial_state(rec.player_ids, rec.options)
    t = state.turn()
    if isinstance(t, ChanceRequest):
        assert t.describe()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_corrupted_observation_is_caught_at_its_event(corpus: tuple[Game, list[Record]],
                                                          data: st.DataObject) -> None:
    rec = copy.deepcopy(corpus[1][-1])
    observed = [i for i, e in enumerate(rec.events) if isinstance(e, ObserveEvent) and "score" in e.facts]
    i = data.draw(st.sampled_from(observed))
    pid = data.draw(st.sampled_from(rec.player_ids))
    delta = data.draw(st.integers(-5, 5).filter(bool))
    ev = rec.events[i]
    assert isinstance(ev, ObserveEvent)
    ev.facts["score"][pid] += delta
    r = replay(rec)
    assert [(d.seq, d.kind, d.key) for d in r.divergences] == [(i, "observation_mismatch", f"score.{pid}")]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_move_by_another_player_is_caught_at_its_event(corpus: tuple[Game, list[Record]],
                                                           data: st.DataObject) -> None:
    rec = copy.deepcopy(corpus[1][-1])
    moves = [i for i, e in enumerate(rec.events) if isinstance(e, MoveEvent)]
    i = data.draw(st.sampled_from(moves))
    ev = rec.events[i]
    assert isinstance(ev, MoveEvent)
    ev.player = data.draw(st.sampled_from([p for p in rec.player_ids if p != ev.player]))
    assert _first_div(rec) == (i, "wrong_player")


def test_every_game_replays_byte_identically_whatever_the_hash_seed(tmp_path: Path) -> None:
    """``replay --json`` of each game's bundled records, under three PYTHONHASHSEEDs."""
    data = Path(__file__).parents[2] / "data"
    files = [str(f) for g in available() for f in sorted((data / g).glob("*.jsonl.gz"))[:1]]
    assert files, "no bundled records"
    sample = tmp_path / "sample.jsonl"
    with open(sample, "wb") as out:
        for f in files:
            with gzip.open(f) as fh:
                for _, line in zip(range(3), fh):
                    out.write(line)
    outputs = set()
    for seed in ("0", "1", "4242"):
        proc = subprocess.run([sys.executable, "-m", "gamerec_cli.main", "replay", "--json", "--snapshot",
                               str(sample)], env=dict(os.environ, PYTHONHASHSEED=seed),
                              capture_output=True, check=True)
        outputs.add(proc.stdout)
    assert len(outputs) == 1
    assert outputs.pop().count(b'"status":"complete"') == 3 * len(files)
