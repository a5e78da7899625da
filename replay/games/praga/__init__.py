"""Praga Caput Regni (Vladimír Suchý, 2020): build Prague under Charles IV, one crane action at a time."""

from __future__ import annotations

from replay.engine import Game, MilestoneTable

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
    milestone_tables=(
        MilestoneTable("era_change", "praga_era_changes", (
            ("round", "INTEGER"), ("player_id", "VARCHAR"), ("turn", "INTEGER"), ("era", "VARCHAR"),
            ("tiles_removed", "INTEGER"),
        )),
        MilestoneTable("plaza_completed", "praga_plaza_completions", (
            ("round", "INTEGER"), ("plaza", "VARCHAR"), ("tile", "VARCHAR"), ("player_id", "VARCHAR"),
            ("cubes", "INTEGER"), ("both_rewards", "BOOLEAN"),
        )),
        MilestoneTable("technology_gained", "praga_technologies", (
            ("round", "INTEGER"), ("player_id", "VARCHAR"), ("tech", "VARCHAR"), ("level", "INTEGER"),
        )),
    ),
)

__all__ = ["GAME", "PragaState"]
