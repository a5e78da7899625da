"""Perikles (Martin Wallace, 2006): elections in six Greek cities and battles over 21 locations."""

from __future__ import annotations

from typing import Any

import msgspec

from replay.engine import Game, Move

from .moves import MOVES
from .state import PeriklesState

_MOVE_BY_TAG: dict[str, type[Move]] = {str(m.__struct_config__.tag): m for m in MOVES}


class _Game(Game):
    """The game, with a faster move parser.

    ``msgspec.convert`` rebuilds its type information for a ``Union`` of move structs on every
    call, but caches it on a struct class; a move object whose ``type`` names a known move is
    converted straight to that struct (same checks, same error messages), anything else goes
    through the union as before.
    """

    def parse_move(self, obj: Any) -> Move:
        if type(obj) is dict:
            tag = obj.get("type")
            if type(tag) is str:
                cls = _MOVE_BY_TAG.get(tag)
                if cls is not None:
                    move: Move = msgspec.convert(obj, type=cls, strict=True)
                    return move
        return super().parse_move(obj)


GAME = _Game(
    id="perikles",
    title="Perikles",
    min_players=3,
    max_players=5,
    moves=MOVES,
    state_class=PeriklesState,
    observable_keys=("score", "legal_count", "state_hash", "cubes", "location_points", "defeats", "leaders",
                     "round"),
)

__all__ = ["GAME", "PeriklesState"]
