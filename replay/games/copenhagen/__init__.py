"""Copenhagen (Queen Games, 2019): build a harbour facade from coloured tiles bought with cards."""

from __future__ import annotations

from replay.engine import Game, MilestoneTable
from replay.games.copenhagen.moves import MOVES
from replay.games.copenhagen.state import OBSERVABLE_KEYS, CopenhagenState

GAME = Game(
    id="copenhagen",
    title="Copenhagen",
    bga_name="copenhagen",
    min_players=2,
    max_players=4,
    moves=MOVES,
    state_class=CopenhagenState,
    observable_keys=OBSERVABLE_KEYS,
    option_keys=("ruleset", "cards_per_color"),
    milestone_tables=(
        MilestoneTable("facade_completion", "copenhagen_completions", (
            ("player_id", "VARCHAR"), ("line", "VARCHAR"), ("index", "INTEGER"),
            ("all_windows", "BOOLEAN"), ("points", "INTEGER"),
        )),
    ),
)

__all__ = ["GAME", "CopenhagenState"]
