"""Perikles (Martin Wallace, 2006): elections in six Greek cities and battles over 21 locations."""

from __future__ import annotations

from replay.engine import Game, MilestoneTable

from .moves import MOVES
from .state import PeriklesState

GAME = Game(
    id="perikles",
    title="Perikles",
    bga_name="perikles",
    min_players=3,
    max_players=5,
    moves=MOVES,
    state_class=PeriklesState,
    observable_keys=("score", "legal_count", "state_hash", "cubes", "location_points", "defeats", "leaders",
                     "round", "start_player", "statues", "statue_points", "city_cubes", "combat", "permissions",
                     "claims"),
    option_keys=("ruleset", "seat_view"),
    view_options=(("seat_view", True),),
    milestone_tables=(
        MilestoneTable("election", "perikles_elections", (
            ("round", "INTEGER"), ("city", "VARCHAR"), ("alpha_player", "VARCHAR"),
            ("alpha_cubes", "INTEGER"), ("beta_player", "VARCHAR"), ("beta_cubes", "INTEGER"),
            ("winner", "VARCHAR"), ("cubes_removed", "INTEGER"),
        )),
        MilestoneTable("combat", "perikles_combats", (
            ("round", "INTEGER"), ("location", "VARCHAR"), ("combat_no", "INTEGER"),
            ("combat_type", "VARCHAR"), ("attacker_player", "VARCHAR"), ("defender_player", "VARCHAR"),
            ("attack_strength", "INTEGER"), ("defence_strength", "INTEGER"), ("table_column", "INTEGER"),
            ("attacker_target", "INTEGER"), ("defender_target", "INTEGER"),
            ("start_tokens_attacker", "INTEGER"), ("start_tokens_defender", "INTEGER"),
            ("rolls", "JSON"), ("winner", "VARCHAR"), ("casualty", "VARCHAR"),
            ("table_label", "VARCHAR"), ("casualty_power", "VARCHAR"), ("casualty_strength", "INTEGER"),
        )),
        MilestoneTable("location_claimed", "perikles_locations_claimed", (
            ("round", "INTEGER"), ("location", "VARCHAR"), ("player_id", "VARCHAR"), ("points", "INTEGER"),
        )),
    ),
)

__all__ = ["GAME", "PeriklesState"]
