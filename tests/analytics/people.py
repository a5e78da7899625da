"""Fixture records where the same people meet across many games.

Simulated records name their seats ``p1``.. in every game; :func:`people_records` gives each
game's seats to people drawn from :data:`PEOPLE` (a seeded draw per game), renaming every
occurrence of the seat ids in the record, so that one person plays many games, in different
seats, against different opponents.  Their ``state_hash`` observations (which cover the seat ids)
are dropped; the records replay complete (checked by the tests).
"""

from __future__ import annotations

import random
import re

import orjson

from replay.games import get_game
from replay.record import dumps
from replay.simulate import simulate_one

PEOPLE = [("u101", "Ana"), ("u102", "Ben"), ("u103", "Chloe"), ("u104", "Dara"), ("u105", "Emil"),
          ("u106", "Fay")]
RENAMED = ("u101", "Anya")
"""The first person plays the last games of every title under a new name."""

_SEAT = re.compile(rb'"p([1-5])"')


def people_records(title: str, n: int, seed: int = 5, counts: list[int] | None = None) -> list[bytes]:
    """``n`` simulated games of ``title`` (player counts cycling through ``counts``, default 2..4 where
    allowed), each played by people drawn from :data:`PEOPLE`."""
    game = get_game(title)
    counts = counts or list(range(game.min_players, min(game.max_players, 4) + 1))
    out = []
    for i in range(n):
        k = counts[i % len(counts)]
        people = random.Random(f"{title}:{seed}:{i}").sample(PEOPLE, k)
        raw = dumps(simulate_one(game, k, seed, i))
        ids = {str(s + 1).encode(): pid.encode() for s, (pid, _) in enumerate(people)}
        raw = _SEAT.sub(lambda m, ids=ids: b'"' + ids[m.group(1)] + b'"', raw)
        obj = orjson.loads(raw)
        for ev in obj["events"]:  # a state hash covers the seat ids: it no longer holds
            ev.get("observe", {}).pop("state_hash", None)
        obj["events"] = [ev for ev in obj["events"] if ev.get("observe", True)]
        for seat, (pid, name) in zip(obj["players"], people):
            assert seat["id"] == pid
            seat["name"] = RENAMED[1] if pid == RENAMED[0] and i >= n - 3 else name
        out.append(orjson.dumps(obj))
    return out


def as_bga_view(raw: bytes, table_id: int, viewer: str) -> bytes:
    """The record as if it were one player's download of BGA table ``table_id``."""
    obj = orjson.loads(raw)
    obj["id"] = f"bga-{table_id}-{viewer}"
    obj["source"] = {"kind": "bga", "table_id": str(table_id), "viewer": viewer}
    return orjson.dumps(obj)
