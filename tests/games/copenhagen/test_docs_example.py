"""The worked example in docs/games/copenhagen.md replays as the page says."""

from __future__ import annotations

import copy
from pathlib import Path

import orjson

from replay.record import loads
from replay.replayer import replay

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "copenhagen.md"


def example() -> dict:  # type: ignore[type-arg]
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## Worked example", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    out: dict = orjson.loads(block)  # type: ignore[type-arg]
    return out


def test_the_worked_example_replays_without_divergence() -> None:
    r = replay(loads(orjson.dumps(example())))
    assert r.status == "incomplete" and not r.divergences
    assert r.state is not None
    snap = r.state.snapshot()
    assert snap["players"]["p1"]["abilities"] == {"any_cards": "used"}
    board = snap["players"]["p1"]["board"]
    assert board[0][1] == {"color": "red", "window": True}
    assert board[1][0] == {"color": "red", "window": False}
    assert board[1][1] == {"color": "red", "window": True}
    assert r.state.turn() == "p2"


def test_the_broken_example_stops_with_the_quoted_reason() -> None:
    rec = copy.deepcopy(example())
    rec["events"][9]["move"]["y"] = 1
    r = replay(loads(orjson.dumps(rec)))
    d = r.divergences[0]
    assert (d.seq, d.kind) == (9, "illegal_move")
    quoted = ("p1 cannot build the 3-cell red tile at column 1, row 2 (rotation 90, flip 0): it would float: no "
              "cell of it is on the street level (row 1) or directly above a covered cell")
    assert d.message == quoted
    assert quoted in " ".join(DOC.read_text(encoding="utf-8").split())
