"""Pax Pamir (second edition), every rule and every card, on the gamerec engine protocol.

See ``docs/games/pax_pamir.md`` for the move types, chance events, observable keys,
milestones, score categories, snapshot shape and every rules decision.
"""

from __future__ import annotations

from replay.engine import Game
from replay.games.pax_pamir.moves import MOVES
from replay.games.pax_pamir.state import PaxState

OBSERVABLE_KEYS: tuple[str, ...] = (
    "score", "legal_count", "state_hash", "rupees", "loyalty", "favored_suit", "rulers", "influence",
    "cylinders", "blocks", "deck_size", "market", "courts", "hand_size", "dominance_checks",
)


GAME = Game(
    id="pax_pamir",
    title="Pax Pamir (2nd edition)",
    min_players=2,
    max_players=5,
    moves=MOVES,
    state_class=PaxState,
    observable_keys=OBSERVABLE_KEYS,
)
