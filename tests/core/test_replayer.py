"""The replayer on the toy game: statuses, every divergence kind, determinism."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games import get_game
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import replay
from replay.simulate import simulate_one


def sim(seed: int = 1, index: int = 0, players: int = 2, observe_every: int = 3) -> Record:
    return simulate_one(get_game("toy"), players, seed, index, observe_every=observe_every)


def first_index(rec: Record, kind: type) -> int:
    return next(i for i, e in enumerate(rec.events) if isinstance(e, kind))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 3))
def test_simulated_games_replay_complete(seed: int, players: int) -> None:
    rec = sim(seed, seed, players)
    r = replay(loads(dumps(rec)))
    assert r.status == "complete", r.divergences
    assert r.totals == rec.result["score"]
    assert len(r.frames) == len(rec.events)


def test_observation_off_by_one_is_reported_and_replay_continues() -> None:
    rec = sim()
    i = first_index(rec, ObserveEvent)
    ev = rec.events[i]
    assert isinstance(ev, ObserveEvent)
    ev.facts["score"]["p1"] += 1
    r = replay(rec)
    assert r.status == "diverged"
    (d,) = [d for d in r.divergences]
    assert (d.seq, d.kind, d.key) == (i, "observation_mismatch", "score.p1")
    assert d.recorded == d.replayed + 1
    assert len(r.frames) == len(rec.events)  # replay went on


def test_wrong_player() -> None:
    rec = sim()
    i = first_index(rec, MoveEvent)
    ev = rec.events[i]
    assert isinstance(ev, MoveEvent)
    ev.player = "p2"
    r = replay(rec)
    assert (r.status, r.divergences[0].seq, r.divergences[0].kind) == ("diverged", i, "wrong_player")
    assert "it is p1's turn, not p2's" in r.divergences[0].message


def test_dropped_chance_is_missing_chance() -> None:
    rec = sim(observe_every=0)
    i = [k for k, e in enumerate(rec.events) if isinstance(e, ChanceEvent)][1]
    del rec.events[i]
    r = replay(rec)
    assert (r.divergences[0].seq, r.divergences[0].kind) == (i, "missing_chance")
    assert "await a roll of 1d6" in r.divergences[0].message


def test_impossible_die() -> None:
    rec = sim()
    ev = rec.events[0]
    assert isinstance(ev, ChanceEvent)
    ev.outcome["roll"] = [7]
    r = replay(rec)
    assert (r.divergences[0].seq, r.divergences[0].kind) == (0, "impossible_chance")
    assert "a d6 cannot show 7" in r.divergences[0].message


def test_illegal_move_stops_the_replay() -> None:
    rec = sim()
    i = next(k for k, e in enumerate(rec.events) if isinstance(e, MoveEvent) and e.move.type == "advance")
    ev = rec.events[i]
    assert isinstance(ev, MoveEvent)
    ev.move = type(ev.move)(steps=ev.move.steps + 1)  # type: ignore[call-arg,attr-defined]
    r = replay(rec)
    assert (r.divergences[0].seq, r.divergences[0].kind) == (i, "illegal_move")
    assert len(r.frames) == i
    assert "cannot advance" in r.divergences[0].message


def test_move_after_the_end() -> None:
    rec = sim()
    last_move = [e for e in rec.events if isinstance(e, MoveEvent)][-1]
    rec.events.append(copy.deepcopy(last_move))
    rec.result = None
    r = replay(rec)
    assert (r.divergences[0].seq, r.divergences[0].kind) == (len(rec.events) - 1, "events_after_end")


def test_truncated_record_is_incomplete() -> None:
    rec = sim()
    rec.events = rec.events[:5]
    rec.result = None
    assert replay(rec).status == "incomplete"


def test_truncated_record_with_result_is_a_result_mismatch() -> None:
    rec = sim()
    rec.events = rec.events[:5]
    r = replay(rec)
    assert r.divergences[0].kind == "result_mismatch"
    assert "not over" in r.divergences[0].message
    # reported at the last event there is (0-4), never past the end
    assert r.divergences[0].seq == 4 and r.to_json()["first_divergence_seq"] == 4


def test_result_score_and_rank_mismatch() -> None:
    rec = sim()
    assert rec.result is not None
    rec.result["score"]["p2"] += 5
    rec.result["rank"] = {"p1": rec.result["rank"]["p2"], "p2": rec.result["rank"]["p1"]}
    r = replay(rec)
    kinds = {(d.kind, d.key) for d in r.divergences}
    assert {d.seq for d in r.divergences} == {len(rec.events) - 1}
    assert ("result_mismatch", "score.p2") in kinds
    assert ("result_mismatch", "rank.p1") in kinds


def test_until_stops_at_that_event() -> None:
    rec = sim()
    r = replay(rec, until=3)
    assert [f.seq for f in r.frames] == [0, 1, 2, 3]
    assert r.status == "incomplete"


def test_output_is_byte_identical_whatever_the_hash_seed(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"".join(dumps(sim(7, i, 2 + i % 2)) + b"\n" for i in range(5)))
    code = (
        "import sys, orjson; sys.path.insert(0, 'tests'); import toygame;"
        "from replay.record import iter_records; from replay.replayer import replay_item;"
        f"[sys.stdout.buffer.write(orjson.dumps(replay_item(i).to_json()) + b'\\n') for i in iter_records([{str(path)!r}])]"
    )
    outs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=True,
                                cwd=Path(__file__).parents[2]).stdout)
    assert len(outs) == 1 and orjson.loads(outs.pop().splitlines()[0])["status"] == "complete"


def test_a_draw_request_names_its_deck_once() -> None:
    from replay.engine import ChanceRequest

    assert ChanceRequest(kind="draw", name="deck", count=1).describe() == "1 card from the deck"
    assert ChanceRequest(kind="draw", name="facade", count=2).describe() == "2 cards from the facade deck"
    assert ChanceRequest(kind="draw", name="event_deck", count=1).describe() == "1 card from the event deck"


def test_a_move_that_comes_before_its_chance_is_told_in_words() -> None:
    """Issue 26: "Cobalt2 plays choose_loyalty, but the rules first await a random first_chooser" in words."""
    import pytest

    from replay.engine import ChanceRequest, MissingChance
    from replay.games import get_game

    game = get_game("pax_pamir")
    state = game.initial_state(["a", "b"], {})
    with pytest.raises(MissingChance) as err:
        state.apply_move("a", game.parse_move({"type": "choose_loyalty", "coalition": "afghan"}))
    assert str(err.value).startswith("a plays choose loyalty, but the rules first await 1 card from the deck")
    assert ChanceRequest(kind="pick", name="first_chooser").describe() == "a random first chooser"
