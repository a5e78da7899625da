"""Ingest's rows noted during the replay (``EventRows``) are what the replay's frames say."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.rows import EventRows
from replay.games import get_game
from replay.record import MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import Replay, replay
from replay.simulate import simulate_one


def from_frames(r: Replay) -> tuple[list[Any], list[Any], list[tuple[int, str, str, Any]]]:
    """Each event's round and phase, and the score timeline, read off the frames afterwards."""
    rounds = [f.round for f in r.frames]
    phases = [f.phase or None for f in r.frames]
    timeline: list[tuple[int, str, str, Any]] = []
    last: dict[tuple[str, str], Any] = {}
    for f in r.frames:
        for pid, cats in f.score.items():
            for cat, pts in cats.items():
                if last.get((pid, cat), 0) != pts:
                    last[(pid, cat)] = pts
                    timeline.append((f.seq, pid, cat, pts))
    return rounds, phases, timeline


def records() -> list[tuple[str, Record]]:
    out = [(f"toy-{i}", simulate_one(get_game("toy"), 2, 3, i, observe_every=2)) for i in range(3)]
    out.append(("copenhagen", simulate_one(get_game("copenhagen"), 2, 3, 0, observe_every=5)))
    mismatch = simulate_one(get_game("toy"), 2, 3, 4, observe_every=2)
    obs = next(e for e in mismatch.events if isinstance(e, ObserveEvent))
    obs.facts["score"]["p1"] += 1
    out.append(("observation-mismatch", mismatch))
    stopped = simulate_one(get_game("toy"), 2, 3, 5, observe_every=2)
    i = [k for k, e in enumerate(stopped.events) if isinstance(e, MoveEvent)][4]
    move = stopped.events[i]
    assert isinstance(move, MoveEvent)
    move.player = "p2" if move.player == "p1" else "p1"
    out.append(("stopped", stopped))
    first = simulate_one(get_game("toy"), 2, 3, 6, observe_every=2)
    first.events.insert(0, ObserveEvent({"score": {"p1": 0, "p2": 0}}, "simulator"))
    out.append(("observed-first", first))
    return out


@pytest.mark.parametrize("name,rec", records(), ids=lambda v: v if isinstance(v, str) else "")
def test_event_rows_noted_in_the_loop_are_the_frames_rows(name: str, rec: Record) -> None:
    rec = loads(dumps(rec))
    rows = EventRows()
    r = replay(rec, observers=(rows,))  # with frames too, to compare
    rounds, phases, timeline = from_frames(r)
    assert rows.rounds == rounds and rows.phases == phases
    assert list(zip(rows.t_seq, rows.t_pid, rows.t_cat, rows.t_pts)) == timeline
    assert timeline, "a game that scores has a timeline"
    if name == "stopped":
        assert len(rows.rounds) == r.replayed < len(rec.events)
    else:
        assert len(rows.rounds) == len(rec.events)
