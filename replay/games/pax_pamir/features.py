"""Pax Pamir as numbers for the value model: what a strong player reads off the table.

Everything in Pax Pamir is face up but the deck (hands are bought from the open market), so a
player's features come from what every player sees: points, and what the next Dominance Check
would give them as things stand (by influence if a coalition dominates, else by cylinders in
play; doubled if it is the final one), the points it would leave them with, their lead then and
whether it would end the game with them first (four points ahead, or the final check); the
coalition they back and its lead in blocks; rulership, tribes, spies; the court and hand that
make actions (size, stars by suit, the favored suit, limits, leveraged debts); rupees.
The market's unknown cards (a record that never named them) and the deck's order are never read.
Values are absolute; the core compares them with the opponents'.
"""

from __future__ import annotations

from replay.games.pax_pamir import dominance
from replay.games.pax_pamir.components import (
    COALITIONS,
    CONFLICT_FATIGUE,
    COURT,
    DC_LEAD,
    DC_LEAD_FATIGUE,
    DOMINANCE_CHECKS,
    REGIONS,
    WINNING_LEAD,
)
from replay.games.pax_pamir.state import PaxState
from replay.games.pax_pamir.turns import ActionsTask

NAMES: tuple[str, ...] = (
    "worth", "lead", "points", "check_points", "rupees", "influence", "loyal", "coalition_blocks", "coalition_lead",
    "cylinders", "regions_ruled", "tribes", "spies", "court", "court_limit", "hand", "hand_limit",
    "military", "political", "economic", "intelligence", "favored_stars", "favored_in_hand",
    "leveraged", "prizes", "gifts", "events_held", "after_check", "after_check_lead", "check_wins",
)
SHORTLIST = 3
"""The value agent lets the model choose among the greedy evaluation's three best moves..."""
WHOLE_TURN = True
"""...each judged at the end of the mover's turn, two actions and what they lead to (see
:class:`replay.simulate.ValueAgent`)."""
CHOICES = True
"""An analysis judges every choice: the model's preferred moves proved better when played out
(``python -m benchmarks.choice_check pax_pamir``, docs/analysis.md)."""
GLOBAL_NAMES: tuple[str, ...] = (
    "checks_resolved", "deck_size", "checks_in_market", "check_column", "turn", "best_block_lead", "dominant_now",
    "actions_left", "in_action", "final_check_next",
)


def final_check_next(s: PaxState) -> bool:
    """The next Dominance Check is the final one (the deck's last check card; its points doubled)."""
    return s.dc_cards_done + 1 == len(DOMINANCE_CHECKS)


def check_points(s: PaxState) -> dict[str, int]:
    """Each player's points if the next Dominance Check were resolved now (doubled if it is the final one)."""
    return dominance.check_points(s, final_check_next(s))[1]


def after_check(s: PaxState, check: dict[str, int]) -> dict[str, int]:
    """Each player's points once the next Dominance Check (``check``: its points) were resolved now."""
    return {p: s.total(p) + check.get(p, 0) for p in s.players}


def check_wins(s: PaxState, player: str, totals: dict[str, int]) -> bool:
    """The next check, resolved now, would end the game with ``player`` first: a lead of four points
    (the instant victory) or the final check, ``player`` ahead of everyone (ties left out)."""
    lead = totals[player] - max(totals[q] for q in s.players if q != player)
    return lead >= WINNING_LEAD or (final_check_next(s) and lead > 0)


def progress(s: PaxState) -> float:
    """Cards that have left the deck and the market (bought, discarded, resolved): the market moves
    on only when someone buys, and players who all wait never reach a Dominance Check."""
    waiting = s.deck_size_view() + sum(1 for row in s.market for card in row if card is not None)
    return -float(waiting)


def check_column(s: PaxState) -> int:
    """The column of the leftmost Dominance Check in the market (its cost; 6 if none): a purchase left
    of it slides it towards column 0, where the cleanup resolves it."""
    cols = [c for row in s.market for c, card in enumerate(row) if card in DOMINANCE_CHECKS]
    return min(cols, default=6)


def block_lead(s: PaxState, coalition: str) -> int:
    """Blocks in play of ``coalition`` minus those of the strongest other coalition."""
    return s.blocks_in_play(coalition) - max(s.blocks_in_play(c) for c in COALITIONS if c != coalition)


def worth(s: PaxState, player: str) -> float:
    """Points first, then what wins the coming checks and makes actions (the greedy agent's weights,
    without its comparison): one number that grows with every good thing, so that the model can
    tell apart positions one piece apart."""
    from replay.games.pax_pamir.heuristic import absolute

    return absolute(s, player)


def features(state: PaxState, player: str) -> list[float]:
    """``player``'s position as the public sees it (see :data:`NAMES`)."""
    s = state
    court = s.courts[player]
    hand = s.hands[player]
    loyal = s.loyalty[player]
    check = check_points(s)
    favored = s.favored
    favored_stars = sum(COURT[c].rank for c in court if COURT[c].suit == favored)
    mine = worth(s, player)
    totals = after_check(s, check)
    return [
        mine,
        mine - max(worth(s, q) for q in s.players if q != player),
        float(s.total(player)),
        float(check.get(player, 0)),
        float(s.rupees[player]),
        float(s.influence(player) if loyal else 0),
        float(loyal is not None),
        float(s.blocks_in_play(loyal) if loyal else 0),
        float(block_lead(s, loyal) if loyal else 0),
        float(s.cylinders_in_play(player)),
        float(sum(1 for r in REGIONS if s.rulers[r] == player)),
        float(sum(s.tribes[r][player] for r in REGIONS)),
        float(sum(spies.get(player, 0) for spies in s.spies.values())),
        float(len(court)),
        float(s.court_limit(player)),
        float(len(hand)),
        float(s.hand_limit(player)),
        float(s.stars(player, "military")),
        float(s.stars(player, "political")),
        float(s.stars(player, "economic")),
        float(s.stars(player, "intelligence")),
        float(favored_stars),
        float(sum(1 for c in hand if c in COURT and COURT[c].suit == favored)),
        float(sum(1 for c in court if c in s.leveraged)),
        float(len(s.prizes[player])),
        float(len(s.gifts[player])),
        float(len(s.held_events[player])),
        float(totals[player]),
        float(totals[player] - max(totals[q] for q in s.players if q != player)),
        float(check_wins(s, player, totals)),
    ]


def global_features(state: PaxState) -> list[float]:
    """How far the game is and how close the next check is to succeeding (see :data:`GLOBAL_NAMES`),
    and how far the current turn is."""
    s = state
    lead = DC_LEAD_FATIGUE if s.event_held(CONFLICT_FATIGUE) else DC_LEAD
    best = max(block_lead(s, c) for c in COALITIONS)
    top = s.stack[-1] if s.stack and not s.over else None
    return [
        float(s.checks_resolved),
        float(s.deck_size_view()),
        float(sum(1 for row in s.market for card in row if card in DOMINANCE_CHECKS)),
        float(check_column(s)),
        float(s.turn_no),
        float(best),
        float(best >= lead),
        float(s.actions_left if top is not None else 0),
        float(top is not None and type(top) is not ActionsTask),
        float(final_check_next(s)),
    ]

