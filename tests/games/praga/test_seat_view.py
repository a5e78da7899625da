"""Praga from one seat: its stacks are the core's partly-known decks, and a seat view replays complete.

Every draw of Praga is seen by all players (rules file section 14: only the face-down V tiles are
hidden, until one is chosen, and the engine's random pick is that choice), so a record written from
one seat holds the same outcomes as the full record.
"""

from __future__ import annotations

import pytest

from replay.engine import ChanceRequest, ImpossibleChance
from replay.games import get_game
from replay.games.praga.state import PragaState
from replay.hidden import PartlyKnownDeck
from replay.record import ChanceEvent, dumps, loads
from replay.replayer import COMPLETE, replay
from replay.simulate import simulate_one

GAME = get_game("praga")


@pytest.mark.parametrize("n,view", [(2, "p2"), (3, "p2"), (4, "p4")])
def test_seat_view_records_replay_complete(n: int, view: str) -> None:
    rec = simulate_one(GAME, n, 31, n, view=view)
    assert rec.source["view"] == view
    assert not any(None in ev.outcome.get("items", []) for ev in rec.events if isinstance(ev, ChanceEvent))
    r = replay(loads(dumps(rec)))
    assert r.status == COMPLETE, r.divergences[:2]


def test_stacks_are_partly_known_decks() -> None:
    s = GAME.initial_state(["p1", "p2"], {})
    assert isinstance(s, PragaState)
    assert all(isinstance(d, PartlyKnownDeck) for d in s.stacks.values())
    t = s.turn()
    assert isinstance(t, ChanceRequest) and t.name == "action_tiles" and t.visible_to is None
    assert t.pool == tuple((f"T{i}", 1) for i in range(1, 7))
    with pytest.raises(ImpossibleChance, match="cannot be unknown"):
        s.apply_chance({"draw": "action_tiles", "items": [None] * 6})
    copy = s.copy()
    copy.apply_chance({"draw": "action_tiles", "items": ["T6", "T1", "T4", "T3", "T5", "T2"]})
    assert s.stacks["action_tiles"].hidden == 6 and copy.stacks["action_tiles"].hidden == 0
    assert copy.snapshot()["stacks"]["action_tiles"] == {"unseen": 0, "bottom": []}
