"""Pax Pamir in the analytics: its component catalogue (court cards, event cards, card actions), its deeper tables (final loyalty; the last dominance check from the player's side) and the card labels its board view shows."""

from __future__ import annotations

from functools import cache
from typing import Any

import duckdb

from analytics.components import Catalogue, Noted, Take, component_data, grouped, move_field
from analytics.deeper import RateTable, rates


def catalogue() -> Catalogue:
    court = component_data("pax_pamir", "court_cards.json")
    entries = [("court card", str(c["id"]), c["name"]) for c in court]
    # an event card is taken when bought (Public Withdrawal never can be); the four Dominance Check
    # cards are one component
    events = [e for e in component_data("pax_pamir", "events.json") if e["purchased"] != "public_withdrawal"]
    event_key = {str(e["id"]): (e["purchased"] if e["purchased"] == "dominance_check" else str(e["id"]))
                 for e in events}
    entries += list(dict.fromkeys(("event card", event_key[str(e["id"])], e["name"]) for e in events))
    actions = ("tax", "gift", "build", "move", "betray", "battle")
    entries += [("card action", a, f"{a} action") for a in actions]
    return Catalogue((
        Take("court card", ("play",), move_field("card")),
        Noted("event card", "event card", grouped(event_key)),
        Take("card action", actions, "move_type"),
    ), tuple(entries), note=(
        "Court cards count when played. Event cards count when bought from the market (the move "
        "names a market column; the replay knows the card that lay there); an event that resolves "
        "when it is discarded from the market is taken by nobody."))


def deeper_tables(con: duckdb.DuckDBPyConnection) -> list[RateTable]:
    loyalty = rates(con, "pax_pamir", """
        SELECT pg.game_id, pg.player_id, coalesce(l.new, 'none') AS grp, 0 AS ord
        FROM pg LEFT JOIN (
            SELECT game_id, player_id, arg_max(new, seq) AS new FROM pax_pamir_loyalty_changes GROUP BY ALL
        ) l USING (game_id, player_id)
    """, {"pax_pamir_loyalty_changes"})
    checks = rates(con, "pax_pamir", """
        WITH last AS (SELECT game_id, max(seq) AS seq FROM pax_pamir_dominance_checks GROUP BY game_id)
        SELECT pg.game_id, pg.player_id,
               CASE WHEN d.game_id IS NULL THEN 'no dominance check'
                    WHEN NOT d.successful THEN 'unsuccessful (points by influence)'
                    WHEN d.loyalty = d.dominant_coalition THEN 'successful, loyal to the dominant coalition'
                    ELSE 'successful, loyal to another coalition' END AS grp,
               CASE WHEN d.game_id IS NULL THEN 3 WHEN NOT d.successful THEN 2
                    WHEN d.loyalty = d.dominant_coalition THEN 0 ELSE 1 END AS ord
        FROM pg LEFT JOIN (
            SELECT c.* FROM pax_pamir_dominance_checks c JOIN last USING (game_id, seq)
        ) d USING (game_id, player_id)
    """, {"pax_pamir_dominance_checks"})
    return [
        RateTable("final_loyalty", "Win rate by final loyalty",
                  "The coalition each player was loyal to at the end (their last loyalty change).", loyalty),
        RateTable("last_dominance_check", "Win rate by the last dominance check's outcome",
                  "The game's last dominance check, from each player's side: successful or not, and whether "
                  "the player was loyal to the coalition that dominated.", checks),
    ]


@cache
def card_labels() -> dict[Any, dict[str, Any]]:
    """Court and event card id -> name, suit, rank and region, for the board view."""
    from replay.games.pax_pamir.components import COURT, EVENTS

    out: dict[Any, dict[str, Any]] = {}
    for cid, card in COURT.items():
        out[cid] = {k: getattr(card, k, None) for k in ("name", "suit", "rank", "region")}
    for cid, event in EVENTS.items():
        out[cid] = {"name": getattr(event, "name", f"event {cid}"), "suit": "event"}
    return out
