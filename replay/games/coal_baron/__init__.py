"""Coal Baron (Glück Auf): the engine.  ``GAME`` is what the registry imports."""

from __future__ import annotations

from replay.engine import Game, MilestoneTable

from .moves import MOVES
from .state import CoalBaronState

OBSERVABLE_KEYS: tuple[str, ...] = (
    "score", "legal_count", "state_hash",
    "shift", "start_player", "francs", "workers", "cage_level", "outstanding", "delivered",
    "shift_ranking", "final_scoring",
)

GAME = Game(
    id="coal_baron",
    title="Coal Baron",
    bga_name="coalbaron",
    min_players=2,
    max_players=4,
    option_keys=("ruleset", "cage_capacity", "second_place_after_two_way_tie"),
    moves=MOVES,
    state_class=CoalBaronState,
    observable_keys=OBSERVABLE_KEYS,
    milestone_tables=(
        MilestoneTable("shift_ranking", "coal_baron_shift_rankings", (
            ("shift", "INTEGER"), ("category", "VARCHAR"), ("player_id", "VARCHAR"),
            ("value", "INTEGER"), ("rank", "INTEGER"), ("points", "INTEGER"),
        )),
    ),
    round_name="shift",
)

__all__ = ["GAME", "CoalBaronState"]
