"""Pax Pamir (second edition), every rule and every card, on the gamerec engine protocol.

See ``docs/games/pax_pamir.md`` for the move types, chance events, observable keys,
milestones, score categories, snapshot shape and every rules decision.
"""

from __future__ import annotations

from typing import Any

import msgspec

from replay.engine import Game, Move
from replay.games.pax_pamir.moves import MOVES
from replay.games.pax_pamir.state import PaxState

OBSERVABLE_KEYS: tuple[str, ...] = (
    "score", "legal_count", "state_hash", "rupees", "loyalty", "favored_suit", "rulers", "influence",
    "cylinders", "blocks", "deck_size", "market", "courts", "hand_size", "dominance_checks",
)


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
    id="pax_pamir",
    title="Pax Pamir (2nd edition)",
    min_players=2,
    max_players=5,
    moves=MOVES,
    state_class=PaxState,
    observable_keys=OBSERVABLE_KEYS,
)
