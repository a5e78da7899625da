"""Walking a record state by state, for tests that look at every state of a game."""

from __future__ import annotations

from collections.abc import Iterator

from replay.engine import State
from replay.games import get_game
from replay.record import ChanceEvent, MoveEvent, Record


def every_state(rec: Record) -> Iterator[State]:
    """Every state of ``rec`` (one object, advanced in place), from the setup to the end: one per move or
    chance event, after it."""
    st = get_game(rec.game).initial_state(rec.player_ids, rec.options)
    yield st
    for ev in rec.events:
        if isinstance(ev, MoveEvent):
            st.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            st.apply_chance(ev.outcome)
        else:
            continue
        yield st
