"""Copenhagen as numbers, for the value model (:mod:`replay.evaluator`).

What a player's position is worth, from what every player sees: the points scored, the facade
lines close to completion (clean window lines score double), the cards in hand (their number,
and the colours the public has seen: a card taken from the harbour is face up; a starting hand
is not, and counts as cards of unknown colour), the ability tiles, and how near the end is (the
race to 12 points, the deck running down to the mermaid in its bottom ten cards).
"""

from __future__ import annotations

from functools import cache

from replay.games.copenhagen.board import Player
from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import column_mask, row_mask
from replay.games.copenhagen.rules.harbour import UNSEEN, deck_size
from replay.games.copenhagen.state import CopenhagenState
from replay.games.copenhagen.steps import FirstCard

NAMES: tuple[str, ...] = (
    "points",
    "to_twelve",            # points still missing for the 12-point end
    "covered",              # facade cells covered
    "height",               # the highest covered row (0: none)
    "rows_near",            # incomplete rows with 4 of 5 cells covered
    "rows_half",            # incomplete rows with 3 of 5
    "clean_rows_near",      # of those near, the ones still all windows (2 points)
    "columns_near",         # incomplete columns with 7 or 8 of 9 cells covered
    "columns_half",         # incomplete columns with 5 or 6 of 9
    "clean_columns_near",   # of those near, still all windows (4 points)
    "line_progress",        # the points of every incomplete line, weighted by its fill squared
    "row_gap",              # fewest empty cells in an incomplete row
    "column_gap",           # fewest empty cells in an incomplete column
    "hand",                 # cards in hand
    "hand_unknown",         # of them, of a colour the public has not seen
    "hand_best_colour",     # most cards of one seen colour
    "colours_2",            # seen colours with at least 2 cards
    "colours_3",
    "colours_4",
    "abilities",            # ability tiles owned
    "abilities_fresh",      # of them, on their unused side
)

GLOBAL_NAMES: tuple[str, ...] = (
    "turns",                # turns completed
    "deck",                 # cards in the deck (the mermaid included when it is there)
    "deck_to_mermaid",      # how far the deck is from its bottom ten (0 once the mermaid may come)
    "mermaid_out",          # the mermaid is in the harbour: this is the last turn
    "harbour",              # cards lying in the harbour
    "harbour_best_colour",  # most harbour cards of one colour
    "harbour_pairs",        # neighbouring harbour slots holding the same colour (two cards of it in one turn)
)


LOOKAHEAD = 2
"""An analysis reads a position's chances two changes of the player to move later (a round of a
two-player game), as the mean of continuations played by the value agent
(:meth:`replay.evaluator.ValueModel.read`): between close players the next harbour cards decide
much, and the continuations draw them and play them as the model's own games did, where the
features only summarise the harbour of now."""


def mid_action(state: CopenhagenState) -> bool:
    """Whether the mover is inside his turn: any decision but its first step (take a first card or
    build a tile), and the discard a first card may call for.  Judged right after a first card, a
    move leaves the second card, the extras and the build still to come, a position the model cannot
    read; judged once the turn is done, it is compared with the other first steps' turns done
    (:func:`replay.evaluator.after_move`), and training takes turn starts only."""
    return state.step != FirstCard.step or state.cards_taken > 0


@cache
def _lines(covered: int, windows: int) -> tuple[float, ...]:
    """The facade's line features (a facade changes rarely: remembered per facade)."""
    comp = components()
    rows_near = rows_half = clean_rows = cols_near = cols_half = clean_cols = 0
    progress = 0.0
    height = 0
    row_gap = comp.width
    column_gap = comp.height
    for y in range(comp.height):
        m = row_mask(y)
        n = (covered & m).bit_count()
        if n:
            height = y + 1
        if n == comp.width:
            continue
        clean = windows & m == covered & m
        progress += (comp.row_window_points if clean else comp.row_points) * (n / comp.width) ** 2
        row_gap = min(row_gap, comp.width - n)
        if n == comp.width - 1:
            rows_near += 1
            clean_rows += clean
        elif n == comp.width - 2:
            rows_half += 1
    for x in range(comp.width):
        m = column_mask(x)
        n = (covered & m).bit_count()
        if n == comp.height:
            continue
        clean = windows & m == covered & m
        progress += (comp.column_window_points if clean else comp.column_points) * (n / comp.height) ** 2
        column_gap = min(column_gap, comp.height - n)
        if n >= comp.height - 2:
            cols_near += 1
            clean_cols += clean
        elif n >= comp.height - 4:
            cols_half += 1
    return (float(covered.bit_count()), float(height), float(rows_near), float(rows_half), float(clean_rows),
            float(cols_near), float(cols_half), float(clean_cols), progress, float(row_gap), float(column_gap))


def _hand(p: Player) -> tuple[float, ...]:
    seen = [n for c, n in p.hand.items() if c is not None]
    return (float(p.hand_size), float(p.hand.get(None, 0)), float(max(seen, default=0)),
            float(sum(n >= 2 for n in seen)), float(sum(n >= 3 for n in seen)), float(sum(n >= 4 for n in seen)))


def features(state: CopenhagenState, player: str) -> list[float]:
    """``player``'s position as the public sees it (:data:`NAMES`)."""
    p = state.seats[player]
    points = p.total
    fresh = sum(1 for used in p.abilities.values() if not used)
    return [float(points), float(max(0, components().end_points - points)),
            *_lines(p.facade.covered, p.facade.windows), *_hand(p),
            float(len(p.abilities)), float(fresh)]


def global_features(state: CopenhagenState) -> list[float]:
    """How far the game has gone (:data:`GLOBAL_NAMES`)."""
    comp = components()
    deck = deck_size(state)
    if state.mermaid == "deck":  # somewhere in the bottom ten
        to_mermaid = max(0, deck - comp.mermaid_bottom)
    elif state.mermaid == "aside":  # shuffled into the bottom ten of the rebuilt deck
        to_mermaid = deck + comp.mermaid_bottom
    else:
        to_mermaid = 0
    cards = [c for c in state.harbour if c is not None and c != UNSEEN]
    best = max((cards.count(c) for c in set(cards)), default=0)
    pairs = sum(1 for a, b in zip(state.harbour, state.harbour[1:]) if a is not None and a != UNSEEN and a == b)
    return [float(state.turns), float(deck), float(to_mermaid), 1.0 if state.mermaid == "harbour" else 0.0,
            float(sum(1 for c in state.harbour if c is not None)), float(best), float(pairs)]
