"""Perikles (Martin Wallace, 2006): elections in six Greek cities and battles over 21 locations."""

from __future__ import annotations

from replay.engine import Game

from .moves import MOVES
from .state import PeriklesState

GAME = Game(
    id="perikles",
    title="Perikles",
    min_players=3,
    max_players=5,
    moves=MOVES,
    state_class=PeriklesState,
    observable_keys=("score", "legal_count", "state_hash", "cubes", "location_points", "defeats", "leaders",
                     "round", "start_player", "statues", "statue_points", "city_cubes", "combat", "permissions",
                     "claims"),
    option_keys=("ruleset", "seat_view"),
    view_options=(("seat_view", True),),
)

__all__ = ["GAME", "PeriklesState"]
