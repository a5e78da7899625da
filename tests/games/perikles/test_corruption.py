"""Damaged records: each fault is reported at the right event with the right kind and a clear message."""

from __future__ import annotations

import copy

import pytest

from replay.games.perikles import GAME
from replay.games.perikles.moves import SendUnit
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import replay
from replay.simulate import simulate_one


@pytest.fixture(scope="module")
def record() -> Record:
    rec = simulate_one(GAME, 4, 3, 0, observe_every=9)
    return loads(dumps(rec))


def _first(rec: Record, pred) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, ev in enumerate(rec.events) if pred(ev))


def test_clean_record_is_complete(record: Record) -> None:
    r = replay(record)
    assert r.status == "complete" and r.totals == record.result["score"] and r.ranking == record.result["rank"]


def test_observation_off_by_one(record: Record) -> None:
    rec = copy.deepcopy(record)
    i = _first(rec, lambda ev: isinstance(ev, ObserveEvent) and "score" in ev.facts)
    ev = rec.events[i]
    assert isinstance(ev, ObserveEvent)
    ev.facts["score"]["p2"] += 1
    r = replay(rec)
    d = r.divergences[0]
    assert (r.status, d.seq, d.kind, d.key) == ("diverged", i, "observation_mismatch", "score.p2")
    assert len(r.frames) == len(rec.events)  # replay went on


def test_move_by_the_wrong_player(record: Record) -> None:
    rec = copy.deepcopy(record)
    i = _first(rec, lambda ev: isinstance(ev, MoveEvent))
    ev = rec.events[i]
    assert isinstance(ev, MoveEvent)
    right = ev.player
    ev.player = "p3" if right != "p3" else "p4"
    d = replay(rec).divergences[0]
    assert (d.seq, d.kind) == (i, "wrong_player") and f"it is {right}'s turn" in d.message


def test_dropped_refill_is_a_missing_chance(record: Record) -> None:
    rec = copy.deepcopy(record)
    first_take = _first(rec, lambda ev: isinstance(ev, MoveEvent) and ev.move.type == "take_tile")
    i = next(j for j in range(first_take, len(rec.events)) if isinstance(rec.events[j], ChanceEvent))
    del rec.events[i]
    j = next(k for k in range(i, len(rec.events)) if not isinstance(rec.events[k], ObserveEvent))
    d = replay(rec).divergences[0]
    assert (d.seq, d.kind) == (j, "missing_chance") and "influence deck" in d.message


def test_impossible_die_value(record: Record) -> None:
    rec = copy.deepcopy(record)
    i = _first(rec, lambda ev: isinstance(ev, ChanceEvent) and "roll" in ev.outcome)
    rec.events[i] = ChanceEvent({"roll": [7, 2]})
    r = replay(rec)
    d = r.divergences[0]
    assert (r.status, d.seq, d.kind) == ("diverged", i, "impossible_chance") and "d6 cannot show 7" in d.message


def test_illegal_unit_is_reported_with_the_rule(record: Record) -> None:
    rec = copy.deepcopy(record)
    i = _first(rec, lambda ev: isinstance(ev, MoveEvent) and ev.move.type == "send_unit")
    ev = rec.events[i]
    assert isinstance(ev, MoveEvent) and isinstance(ev.move, SendUnit)
    ev.move = SendUnit(power=ev.move.power, unit_type=ev.move.unit_type, strength=9, location=ev.move.location,
                       side=ev.move.side)
    d = replay(rec).divergences[0]
    assert (d.seq, d.kind) == (i, "illegal_move")
    assert f"{ev.player} cannot send" in d.message and "strength 9" in d.message


def test_event_after_the_end(record: Record) -> None:
    rec = copy.deepcopy(record)
    last_move = next(ev for ev in reversed(rec.events) if isinstance(ev, MoveEvent))
    rec.events.append(last_move)
    r = replay(rec)
    assert r.divergences[0].kind == "events_after_end" and r.divergences[0].seq == len(rec.events) - 1


def test_truncated_record_is_incomplete(record: Record) -> None:
    rec = copy.deepcopy(record)
    rec.events = rec.events[: len(rec.events) // 2]
    rec.result = None
    assert replay(rec).status == "incomplete"


def test_wrong_final_score(record: Record) -> None:
    rec = copy.deepcopy(record)
    assert rec.result is not None
    rec.result["score"]["p1"] += 3
    r = replay(rec)
    assert r.status == "diverged" and r.divergences[0].kind == "result_mismatch"


def test_state_hash_and_legal_count_observations(record: Record) -> None:
    rec = copy.deepcopy(record)
    i = _first(rec, lambda ev: isinstance(ev, ObserveEvent) and "legal_count" in ev.facts)
    ev = rec.events[i]
    assert isinstance(ev, ObserveEvent)
    ev.facts["legal_count"] += 1
    ev.facts["state_hash"] = "0" * 16
    kinds = {d.key for d in replay(rec).divergences}
    assert kinds == {"legal_count", "state_hash"}


def test_game_specific_observables(record: Record) -> None:
    rec = copy.deepcopy(record)
    k = len(rec.events) // 2
    r = replay(rec, until=k)
    assert r.state is not None
    facts = r.state.observe(["cubes", "location_points", "defeats", "leaders", "round"])
    rec.events.insert(k + 1, ObserveEvent(facts, "simulator"))
    assert replay(rec).status == "complete"
    wrong = copy.deepcopy(facts)
    wrong["defeats"]["athens"] += 1
    rec.events[k + 1] = ObserveEvent(wrong, "simulator")
    bad = replay(rec)
    assert [d.key for d in bad.divergences] == ["defeats.athens"]
