"""The one replay loop: what its observers are told, and that feeding it is running it."""

from __future__ import annotations

from typing import Any

import pytest

from replay.engine import RuleViolation, State
from replay.games import get_game
from replay.loop import Loop, Observer
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import Replaying, replay
from replay.simulate import simulate_one


class Told(Observer):
    """Every call the loop makes, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def started(self, state: State) -> None:
        self.calls.append(("started", state.seq))

    def applied(self, seq: int, event: MoveEvent | ChanceEvent, state: State) -> None:
        self.calls.append(("applied", seq, event.kind, state.seq))

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        self.calls.append(("observed", seq))

    def refused(self, seq: int, violation: RuleViolation, state: State) -> None:
        self.calls.append(("refused", seq, violation.kind))

    def finished(self, state: State) -> None:
        self.calls.append(("finished",))


def sim(seed: int = 1, observe_every: int = 3) -> Record:
    return loads(dumps(simulate_one(get_game("toy"), 2, seed, 0, observe_every=observe_every)))


def test_observers_are_told_every_event_in_order_then_the_end() -> None:
    rec = sim()
    told = Told()
    r = replay(rec, observers=(told,))
    assert r.status == "complete"
    expected: list[tuple[Any, ...]] = [("started", 0)]
    for seq, ev in enumerate(rec.events):  # a move or chance is told after it is applied, numbered
        expected.append(("observed", seq) if isinstance(ev, ObserveEvent) else ("applied", seq, ev.kind, seq))
    expected.append(("finished",))
    assert told.calls == expected
    assert any(c[0] == "observed" for c in told.calls) and any(c[0] == "applied" for c in told.calls)


def test_a_refused_event_stops_the_loop_and_is_told_where() -> None:
    rec = sim()
    i = next(k for k, e in enumerate(rec.events) if isinstance(e, MoveEvent) and k > 3)
    ev = rec.events[i]
    assert isinstance(ev, MoveEvent)
    ev.player = "p2" if ev.player == "p1" else "p1"
    told = Told()
    r = replay(rec, observers=(told,), keep_frames=False)
    assert told.calls[-2:] == [("refused", i, "wrong_player"), ("finished",)]
    assert [c[1] for c in told.calls[1:-2]] == list(range(i))  # nothing after the refused event
    assert r.replayed == i and r.divergences[-1].seq == i


def test_feed_raises_a_refusal_and_leaves_the_count() -> None:
    rec = sim()
    state = get_game("toy").initial_state(rec.player_ids, rec.options)
    told = Told()
    loop = Loop(state, (told,))
    loop.feed(rec.events[0])
    assert loop.seq == 1
    with pytest.raises(RuleViolation):
        loop.feed(rec.events[0])  # the same roll again: the rules await a move
    assert loop.seq == 1 and not any(c[0] == "refused" for c in told.calls)  # the feeder decides


def test_an_observer_overriding_nothing_is_not_called_per_event() -> None:
    state = get_game("toy").initial_state(["p1", "p2"], {})
    loop = Loop(state, (Observer(), Told()))
    assert len(loop._applied) == len(loop._observed) == len(loop._refused) == 1


@pytest.mark.parametrize("mismatch", [False, True])
def test_feeding_the_events_as_they_are_made_gives_the_replay_of_the_record(mismatch: bool) -> None:
    """What the BGA import does: the events fed one by one (observations compared as the record's
    JSON will give them back) make the same replay as running the written record."""
    rec = sim(seed=4)
    if mismatch:
        obs = next(e for e in rec.events if isinstance(e, ObserveEvent))
        obs.facts["score"]["p1"] += 1
    state = get_game("toy").initial_state(rec.player_ids, rec.options)
    told = Told()
    fed = Replaying(state, observers=(told,))
    for ev in rec.events:
        fed.loop.feed(ev)
    got = fed.finish(rec)
    want = replay(loads(dumps(rec)))
    assert got.status == want.status == ("diverged" if mismatch else "complete")
    assert got.frames == want.frames and len(got.frames) == len(rec.events)
    assert [d.to_dict() for d in got.divergences] == [d.to_dict() for d in want.divergences]
    assert (got.score, got.ranking, got.replayed) == (want.score, want.ranking, want.replayed)
    assert told.calls[-1] == ("finished",)
