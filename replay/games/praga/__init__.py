"""Praga Caput Regni (Vladimír Suchý, 2020): build Prague under Charles IV, one crane action at a time."""

from __future__ import annotations

from replay.engine import Game

from .moves import MOVES
from .state import PragaState

GAME = Game(
    id="praga",
    title="Praga Caput Regni",
    min_players=2,
    max_players=4,
    moves=MOVES,
    state_class=PragaState,
    observable_keys=("score", "legal_count", "state_hash", "resources", "tracks", "round", "era"),
    option_keys=("ruleset", "tiles_side"),
)

__all__ = ["GAME", "PragaState"]
