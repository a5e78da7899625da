"""Regenerate the golden full-game traces: ``python tests/golden/regen.py [GAME...]``.

Each ``<game>.json`` holds one simulated record and the complete replay output
of the current engine (status, score breakdown, ranks, milestones and, for
every event, the round/phase label and the totals).  Only regenerate after a
deliberate rules change, and read the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson

from replay.games import available, get_game
from replay.record import Record, loads
from replay.replayer import replay
from replay.simulate import simulate_one

HERE = Path(__file__).parent


def trace(record: Record) -> dict[str, Any]:
    """The replay output a golden file pins down."""
    r = replay(record)
    out = r.to_json(details=True)
    out["frames"] = [
        [f.seq, f.kind, f.actor, f.round, f.phase, {p: sum(c.values()) for p, c in f.score.items()}]
        for f in r.frames
    ]
    return out


def golden_record(game_id: str) -> Record:
    game = get_game(game_id)
    players = min(game.max_players, max(game.min_players, 3))
    return simulate_one(game, players, seed=2026, index=0, observe_every=5)


def main(games: list[str]) -> None:
    for gid in games or available():
        rec = golden_record(gid)
        blob = {"record": orjson.loads(orjson.dumps(rec.to_dict())), "expected": trace(loads(orjson.dumps(rec.to_dict())))}
        (HERE / f"{gid}.json").write_bytes(orjson.dumps(blob, option=orjson.OPT_INDENT_2) + b"\n")
        print(f"wrote {gid}.json ({len(rec.events)} events)")


if __name__ == "__main__":
    main(sys.argv[1:])
