"""Pax Pamir (second edition), every rule and every card, on the gamerec engine protocol.

See ``docs/games/pax_pamir.md`` for the move types, chance events, observable keys,
milestones, score categories, snapshot shape and every rules decision.
"""

from __future__ import annotations

from replay.engine import Game, MilestoneTable
from replay.games.pax_pamir.moves import MOVES
from replay.games.pax_pamir.state import PaxState

OBSERVABLE_KEYS: tuple[str, ...] = (
    "score", "legal_count", "state_hash", "rupees", "loyalty", "favored_suit", "rulers", "influence",
    "cylinders", "blocks", "deck_size", "market", "courts", "hand_size", "dominance_checks",
    "wakhan_influence",
)


GAME = Game(
    id="pax_pamir",
    title="Pax Pamir (2nd edition)",
    bga_name="paxpamir",
    min_players=2,
    max_players=5,
    moves=MOVES,
    state_class=PaxState,
    observable_keys=OBSERVABLE_KEYS,
    option_keys=("ruleset", "wakhan", "wakhan_steadfast", "ruler_against_players_only",
                 "no_overthrow_for_taken_tribes", "public_withdrawal_holds_rupees"),
    milestone_tables=(
        MilestoneTable("dominance_check", "pax_pamir_dominance_checks", (
            ("check_no", "INTEGER"), ("is_final", "BOOLEAN"), ("threshold", "INTEGER"),
            ("successful", "BOOLEAN"), ("dominant_coalition", "VARCHAR"),
            ("blocks_afghan", "INTEGER"), ("blocks_british", "INTEGER"), ("blocks_russian", "INTEGER"),
            ("player_id", "VARCHAR"), ("loyalty", "VARCHAR"), ("influence", "INTEGER"),
            ("cylinders", "INTEGER"), ("points", "INTEGER"),
        )),
        MilestoneTable("rulership_change", "pax_pamir_rulership_changes", (
            ("region", "VARCHAR"), ("old_ruler", "VARCHAR"), ("new_ruler", "VARCHAR"),
        )),
        MilestoneTable("loyalty_change", "pax_pamir_loyalty_changes", (
            ("player_id", "VARCHAR"), ("old", "VARCHAR"), ("new", "VARCHAR"),
        )),
    ),
    round_name="turn",
)
