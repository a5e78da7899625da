"""The market and the deck: purchase costs and payment, paying action costs to the market,
the refill (shift, draw, Instability) and the six-pile deck the draws come from."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from math import gcd
from typing import TYPE_CHECKING

from replay.engine import ChanceRequest, ImpossibleChance, Outcome
from replay.games.pax_pamir.components import (
    COURT,
    COURT_IDS,
    DOMINANCE_CHECKS,
    OTHER_EVENTS,
    PUBLIC_WITHDRAWAL,
    card_name,
)
from replay.games.pax_pamir.dominance import resolve_dominance_check
from replay.games.pax_pamir.events import purchase_event
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

DECK = "deck"

UNKNOWN_CARD = 0
"""A market card drawn face down for the record: its identity is unknown (``null`` in the
draw's items).  Only the opening market can hold one (a BGA log never shows it, and names
a card only when it is bought, shifted or discarded or receives rupees); it is never an
event the cleanup discards, since every card the cleanup discards is named."""


# ---------------------------------------------------------------- purchase

ROW_NAMES = ("top", "bottom")


def cell_name(row: int, col: int) -> str:
    """A market cell as a player names it: "the top row, column 3".

    The rulebook speaks of the top and bottom rows and counts columns from the left, the leftmost
    (free) one first; a record's ``row`` and ``col`` count from 0 (row 0 is the top row, col 0
    the leftmost column), so column ``col + 1`` here.  A cell off the market is quoted as the
    record gives it.
    """
    if not (0 <= row < len(ROW_NAMES) and 0 <= col <= 5):
        return f"row {row}, col {col} (the record's numbers; the market has rows 0-1 and cols 0-5)"
    return f"the {ROW_NAMES[row]} row, column {col + 1}"



def rupee_step(s: PaxState) -> int:
    """Rupees per column: 2 while military is favored, otherwise 1."""
    return 2 if s.favored == "military" else 1


def purchase_cost(s: PaxState, player: str, card: int, col: int) -> int:
    """Column index (doubled while military is favored); 0 with an Influence ability."""
    c = COURT.get(card)
    if c is not None and (
        (c.region == "herat" and s.has(player, "herat_influence"))
        or (c.region == "persia" and s.has(player, "persian_influence"))
        or (c.patriot == "russian" and s.has(player, "russian_influence"))
    ):
        return 0
    return col * rupee_step(s)


def check_buy(s: PaxState, player: str, row: int, col: int, *, wakhan: bool = False) -> str | None:
    """A purchase's conditions; ``wakhan``: as BGA's Wakhan buys, Public Withdrawal too, and a
    Dominance Check that received rupees this turn."""
    if not (0 <= row <= 1 and 0 <= col <= 5):
        return f"{player} cannot buy at {cell_name(row, col)}"
    card = s.market[row][col]
    if card is None:
        return f"{player} cannot buy at {cell_name(row, col)} of the market: that cell is empty"
    if card == UNKNOWN_CARD:
        return (f"{player} cannot buy at {cell_name(row, col)} of the market: the record never said which card was "
                "drawn there (an unknown card cannot go to a hand)")
    if s.actions_left <= 0:
        return (f"{player} cannot buy {card_name(card)}: {player} has no actions left this turn (a purchase is "
                "never a bonus action)")
    if card == PUBLIC_WITHDRAWAL and not wakhan:
        return f"{player} cannot buy {card_name(card)}: Public Withdrawal can never be purchased"
    if s.received[row][col] and not (wakhan and card in DOMINANCE_CHECKS):
        return f"{player} cannot buy {card_name(card)}: it received rupees this turn"
    cost = purchase_cost(s, player, card, col)
    if cost > s.rupees[player]:
        return (f"{player} cannot buy {card_name(card)} in column {col + 1}: it costs {cost} "
                f"rupee{'s' if cost != 1 else ''}, {player} has {s.rupees[player]}")
    return None


def buy(s: PaxState, player: str, row: int, col: int) -> None:
    """Purchase: pay the cost onto the cards to the left, take the rupees on the card; a court
    card goes to hand, an event resolves at once."""
    card = s.market[row][col]
    assert card is not None
    cost = purchase_cost(s, player, card, col)
    s.rupees[player] -= cost
    if cost:
        step = rupee_step(s)
        for i in range(col - 1, -1, -1):
            if s.market[row][i] is not None:
                put_rupees(s, row, i, step)
            elif s.market[1 - row][i] is not None:
                put_rupees(s, 1 - row, i, step)
    s.rupees[player] += s.market_rupees[row][col]
    s.market_rupees[row][col] = 0
    s.market[row][col] = None
    if card in COURT:
        s.hands[player].append(card)
        s.hand_changed(player)
    else:
        s.take(player, "event card", str(card))
        purchase_event(s, player, card)


def put_rupees(s: PaxState, row: int, col: int, n: int) -> None:
    """Rupees onto a market card (they leave the game on Public Withdrawal, except in a game of BGA's
    code before October 2023: :attr:`PaxState.public_withdrawal_holds_rupees`)."""
    if s.market[row][col] == PUBLIC_WITHDRAWAL:
        if not s.public_withdrawal_holds_rupees:
            return
        s.depart("public_withdrawal_holds_rupees",
                 f"{n} rupee{'s' if n != 1 else ''} paid onto Public Withdrawal in {cell_name(row, col)} stay on it; "
                 "the rulebook removes them from the game")
    s.market_rupees[row][col] += n
    s.received[row][col] = True
    s.any_received = True


def pay_to_market(s: PaxState, player: str, amount: int) -> None:
    """Action costs: half to each row, one rupee per card from the right; rupees that find
    no card leave the game."""
    s.rupees[player] -= amount
    for row in range(2):
        left = amount // 2
        for col in range(5, -1, -1):
            if left == 0:
                break
            if s.market[row][col] is not None:
                put_rupees(s, row, col, 1)
                left -= 1


# ---------------------------------------------------------------- the deck


def current_pile(s: PaxState) -> int:
    i = s.pile
    while i < len(s.piles) and sum(s.piles[i]) - s.unknown_drawn[i] == 0:
        i += 1
    return i


def unseen_groups(s: PaxState) -> list[dict[int, None]]:
    """Court cards, other events and Dominance Checks nobody has seen yet, in card order
    (the keys of each dict: a card seen leaves its group at once, the others keep their order).

    Kept up to date as cards are drawn (:func:`draw_into`); rebuilt whenever ``seen`` grew
    some other way (``seen`` only ever grows, so its size tells)."""
    cache = s.unseen
    if cache is None or cache[0] != len(s.seen):
        seen = s.seen
        s.unseen = cache = (len(seen), [
            dict.fromkeys(c for c in COURT_IDS if c not in seen),
            dict.fromkeys(e for e in OTHER_EVENTS if e not in seen),
            dict.fromkeys(d for d in DOMINANCE_CHECKS if d not in seen),
        ])
    return cache[1]


def _note_seen(s: PaxState, card: int, kind: int) -> None:
    """``card`` was just added to ``seen``: drop it from the unseen groups if they were current."""
    cache = s.unseen
    if cache is not None and cache[0] == len(s.seen) - 1:
        cache[1][kind].pop(card, None)
        s.unseen = (cache[0] + 1, cache[1])


def draw_pool(s: PaxState, pile: int | None = None) -> tuple[tuple[int, int], ...]:
    """What the next card of the deck may be, weighted so that a uniform draw from the pool
    follows the current pile's make-up (court cards, events, Dominance Checks); with ``pile``,
    what a card drawn unknown from that pile may be."""
    i = current_pile(s) if pile is None else pile
    if i >= len(s.piles):
        return ()
    left = s.piles[i]
    groups = unseen_groups(s)
    active = [k for k in range(3) if left[k] > 0 and groups[k]]
    if len(active) == 1:
        return tuple(zip(groups[active[0]], repeat(1)))
    weights = {}
    for k in active:
        w = left[k]
        for j in active:
            if j != k:
                w *= len(groups[j])
        weights[k] = w
    g = 0
    for w in weights.values():
        g = gcd(g, w)
    out: list[tuple[int, int]] = []
    for k in active:
        out.extend(zip(groups[k], repeat(weights[k] // g)))
    return tuple(out)


# ---------------------------------------------------------------- refill


def shift_market(s: PaxState) -> None:
    """Slide the cards of each row left; a card carries its rupees and picks up rupees left
    on the cell it arrives at (Public Withdrawal removes them)."""
    for row in range(2):
        line = s.market[row]
        if None not in line:
            continue  # a full row: nothing slides, no rupees lie loose
        rupees = s.market_rupees[row]
        # the usual case: no rupees lie on an empty cell, so each empty cell just closes up
        gap = line.count(None)
        cards, carried = line.copy(), rupees.copy()
        for _ in range(gap):
            col = cards.index(None)
            if carried[col]:
                break  # rupees lie loose there: a card picks them up (below)
            del cards[col], carried[col]
        else:
            cards += [None] * gap
            carried += [0] * gap
            s.market[row], s.market_rupees[row] = cards, carried
            continue
        loose = [0 if card is not None else n for card, n in zip(line, rupees)]
        new_cards: list[int | None] = [None] * 6
        new_rupees = list(loose)
        i = 0
        for col, card in enumerate(line):
            if card is None:
                continue
            new_cards[i] = card
            arriving = loose[i]
            if card == PUBLIC_WITHDRAWAL and arriving:
                if s.ruleset != "bga" or (i == 0 and col != 0 and not s.public_withdrawal_holds_rupees):
                    arriving = 0
                else:
                    s.depart("public_withdrawal_rupees",
                             f"{arriving} rupee{'s' if arriving != 1 else ''} reach Public Withdrawal in "
                             f"{cell_name(row, i)} and stay on it (BGA); the rulebook removes them from the game")
            new_rupees[i] = rupees[col] + arriving
            i += 1
        s.market[row] = new_cards
        s.market_rupees[row] = new_rupees


def next_empty_cell(s: PaxState) -> tuple[int, int] | None:
    """The first empty market cell in the refill order (column by column, top first)."""
    top, bottom = s.market
    for col in range(6):
        if top[col] is None:
            return 0, col
        if bottom[col] is None:
            return 1, col
    return None


PENDING = ChanceRequest("draw", DECK, reason="a market cell")
"""Stands for a draw the refill awaits whose request (its pool) is made only when asked for."""


def can_draw(s: PaxState, i: int) -> bool:
    """Whether the deck can still give a card (:func:`draw_pool` is not empty); ``i``: the
    current pile (:func:`current_pile`)."""
    if i >= len(s.piles):
        return False
    left = s.piles[i]
    court, events, checks = unseen_groups(s)
    return bool(left[0] > 0 and court or left[1] > 0 and events or left[2] > 0 and checks)


def drawable(s: PaxState, card: int, i: int) -> bool:
    """Whether ``card`` can be the deck's next card: one of :func:`draw_pool` (its kind has
    cards left in the current pile ``i``, and nobody has seen it yet)."""
    if i >= len(s.piles):
        return False
    kind = 0 if card in COURT else (2 if card in DOMINANCE_CHECKS else 1)
    return s.piles[i][kind] > 0 and card in unseen_groups(s)[kind]


@dataclass(slots=True)
class RefillTask(Task):
    """Refill the market: shift, then draw into each empty cell (a chance event per card),
    with Instability when a second Dominance Check appears.  Also deals the opening market."""

    shifted: bool
    req: ChanceRequest | None = None
    _cell: tuple[int, int] = (0, 0)
    """The cell the awaited card goes to (set with ``req``)."""
    _pile: int = 0
    """The pile a card checked by :meth:`draws` comes from (:func:`current_pile`), for
    :meth:`reveal` right after it."""
    decision = False

    def awaits(self, s: PaxState) -> bool:
        if not self.shifted:
            return False
        if self.req is None:
            cell = next_empty_cell(s)
            if cell is None:
                return False
            if not can_draw(s, current_pile(s)):
                return False
            self.req, self._cell = PENDING, cell
        return True

    def request(self, s: PaxState) -> ChanceRequest | None:
        if not self.awaits(s):
            return None
        if self.req is PENDING:
            self.req = ChanceRequest("draw", DECK, count=1, pool=draw_pool(s),
                                     reason=f"{cell_name(*self._cell)} of the market")
        return self.req

    def outcome_at_once(self, s: PaxState, outcome: Outcome) -> ChanceRequest | None:
        """A card the deck can give next (:meth:`draws`) is revealed at once, its request
        (the pool of every card the deck could give) never made."""
        return PENDING if self.draws(s, outcome) else None

    def draws(self, s: PaxState, outcome: Outcome) -> bool:
        """Whether ``outcome`` is the draw of a card the deck can give next (what the checked
        path would accept, told without making the pool)."""
        if self.req is None or "reveal" in outcome or outcome.get("draw") != DECK:
            return False
        items = outcome.get("items")
        if not (type(items) is list and len(items) == 1 and type(items[0]) is int):
            return False
        self._pile = i = current_pile(s)
        return drawable(s, items[0], i)

    def run(self, s: PaxState) -> None:
        if not self.shifted:
            shift_market(s)
            self.shifted = True
            return
        s.pop(self)

    def reveal(self, s: PaxState, req: ChanceRequest, outcome: Outcome) -> None:
        card = outcome["items"][0]
        if card is None:
            card = UNKNOWN_CARD
        self.req = None
        cell = self._cell
        # a card checked by draws() (req: PENDING) comes from the pile it found
        draw_into(s, card, cell, self._pile if req is PENDING else current_pile(s))
        if card in DOMINANCE_CHECKS:
            others = [(r, c) for r, c in s.market_cells() if s.market[r][c] in DOMINANCE_CHECKS and (r, c) != cell]
            if others:
                self.shifted = False
                instability(s, [others[0], cell])


def draw_into(s: PaxState, card: int, cell: tuple[int, int], i: int) -> None:
    """The deck's top card goes to an empty market cell (it takes the rupees lying there).

    An unknown card (:data:`UNKNOWN_CARD`) is of a known kind when its pile has cards of only
    one kind left; otherwise the pile counts it among its ``unknown_drawn`` (a later card of
    kind k is then possible while k has copies left and the pile can still hold every
    unknown one: they are exchangeable).  ``i``: the current pile (:func:`current_pile`).
    """
    if i >= len(s.piles):
        raise ImpossibleChance(f"card {card_name(card)} cannot be drawn: the deck is empty")
    left = s.piles[i]
    if card == UNKNOWN_CARD:
        kinds = [k for k in range(3) if left[k] > 0]
        s.pile = i
        if len(kinds) == 1:
            left[kinds[0]] -= 1
        else:
            s.unknown_drawn[i] += 1
    else:
        kind = 0 if card in COURT else (2 if card in DOMINANCE_CHECKS else 1)
        if left[kind] <= 0 or sum(left) - 1 < s.unknown_drawn[i]:
            raise ImpossibleChance(f"card {card} cannot be the next card of the deck: pile {i + 1} has no "
                                   f"{('court card', 'event', 'Dominance Check')[kind]} left")
        s.pile = i
        left[kind] -= 1
        if card not in s.seen:
            s.seen.add(card)
            _note_seen(s, card, kind)
    s.card_drawn()
    row, col = cell
    s.market[row][col] = card
    if card == PUBLIC_WITHDRAWAL and s.market_rupees[row][col]:
        if s.ruleset != "bga":
            s.market_rupees[row][col] = 0
        else:
            n = s.market_rupees[row][col]
            s.depart("public_withdrawal_rupees",
                     f"Public Withdrawal is drawn into {cell_name(row, col)}, where {n} rupee{'s' if n != 1 else ''} "
                     "lie: they stay on it (BGA); the rulebook removes them from the game")


def instability(s: PaxState, cells: list[tuple[int, int]]) -> None:
    """Two Dominance Checks in the market: resolve one check, discard both cards."""
    final = s.dc_cards_done + 2 == len(DOMINANCE_CHECKS)
    if s.ruleset == "bga":
        _discard_checks(s, cells)
        resolve_dominance_check(s, final)
    else:
        resolve_dominance_check(s, final)
        _discard_checks(s, cells)


def _discard_checks(s: PaxState, cells: list[tuple[int, int]]) -> None:
    for r, c in cells:
        card = s.market[r][c]
        if card is not None and card in DOMINANCE_CHECKS:
            s.market[r][c] = None
            s.discard_pile.append(card)
            s.dc_cards_done += 1
