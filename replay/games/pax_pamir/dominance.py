"""Dominance Checks: success or failure, the points by influence or by cylinders with
shared places, the clearing of blocks, the end of the game, Insurrection, and the end of
the events that last until the next check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import (
    COALITIONS,
    CONFLICT_FATIGUE,
    DC_FAIL_POINTS,
    DC_FINAL_MULTIPLIER,
    DC_LEAD,
    DC_LEAD_FATIGUE,
    DC_SUCCESS_POINTS,
    WINNING_LEAD,
)

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState



def place_points(values: dict[str, int], points: tuple[int, ...]) -> dict[str, int]:
    """Points by place, best value first; players tied for a place share the points of the
    places they occupy, divided evenly and rounded down."""
    order = sorted(values, key=lambda p: -values[p])
    out: dict[str, int] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and values[order[j]] == values[order[i]]:
            j += 1
        share = sum(points[k] for k in range(i, j) if k < len(points)) // (j - i)
        for p in order[i:j]:
            out[p] = share
        i = j
    return out


def dominant_coalition(blocks: dict[str, int], lead: int) -> str | None:
    """The coalition with at least ``lead`` more blocks in play than each of the other two."""
    for c in COALITIONS:
        if all(blocks[c] - blocks[o] >= lead for o in COALITIONS if o != c):
            return c
    return None


def check_points(s: PaxState, final: bool) -> tuple[str | None, dict[str, int]]:
    """A Dominance Check resolved now: the dominant coalition (None: unsuccessful) and each
    player's points (by influence among its loyal players, else by cylinders in play; doubled
    for the final check)."""
    threshold = DC_LEAD_FATIGUE if s.event_held(CONFLICT_FATIGUE) else DC_LEAD
    winner = dominant_coalition({c: s.blocks_in_play(c) for c in COALITIONS}, threshold)
    mult = DC_FINAL_MULTIPLIER if final else 1
    if winner is not None:
        loyal = {p: s.influence(p) for p in s.players if s.loyalty[p] == winner}
        if s.wakhan is not None:  # she competes in every coalition
            loyal[s.wakhan] = s.wakhan_influence(winner)
        return winner, place_points(loyal, tuple(x * mult for x in DC_SUCCESS_POINTS))
    return None, place_points({p: s.cylinders_in_play(p) for p in s.players},
                              tuple(x * mult for x in DC_FAIL_POINTS))


def resolve_dominance_check(s: PaxState, final: bool) -> None:
    """Resolve one Dominance Check (bought, discarded from the market, or by Instability)."""
    threshold = DC_LEAD_FATIGUE if s.event_held(CONFLICT_FATIGUE) else DC_LEAD
    blocks = {c: s.blocks_in_play(c) for c in COALITIONS}
    influence = {p: s.influence(p) for p in s.players}
    cylinders = {p: s.cylinders_in_play(p) for p in s.players}
    winner, points = check_points(s, final)
    category = "dominance_successful" if winner is not None else "dominance_unsuccessful"
    s.checks_resolved += 1
    s.fact_changed("dominance_checks")
    for p in s.players:
        got = points.get(p, 0)
        s.add_points(p, category, got)
        s.add_milestone(
            "dominance_check", check_no=s.checks_resolved, is_final=final, threshold=threshold,
            successful=winner is not None, dominant_coalition=winner, blocks_afghan=blocks["afghan"],
            blocks_british=blocks["british"], blocks_russian=blocks["russian"], player_id=p,
            loyalty=s.loyalty[p], influence=influence[p], cylinders=cylinders[p], points=got,
        )
    if winner is not None:
        board.remove_all_blocks(s)
    if final or game_decided(s):
        s.over = True
        s.stage = "over"
        return
    insurrection(s)
    end_lasting_events(s)


def game_decided(s: PaxState) -> bool:
    """The game ends after a check when the leader is at least 4 points ahead of everyone."""
    totals = sorted((s.total(p) for p in s.players), reverse=True)
    return totals[0] - totals[1] >= WINNING_LEAD


def insurrection(s: PaxState) -> None:
    """Insurrection (Prince Akbar Khan): after a check, its owner places two Afghan armies in Kabul."""
    owner = s.holder_of("insurrection")
    if owner is None:
        return
    for _ in range(2):
        board.place(s, owner, "army", "kabul", "afghan")


def end_lasting_events(s: PaxState) -> None:
    """Every event that lasts "until the next Dominance Check" is discarded."""
    for p in s.players:
        s.discard_pile.extend(s.held_events[p])
        s.held_events[p] = []
    s.discard_pile.extend(s.global_events)
    s.global_events = []
    s.influence_changed()
