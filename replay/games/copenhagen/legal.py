"""The builds a step lists (:mod:`steps`), and the legal moves counted (``legal_count``).

Both walk the same options in the same order; counting does the payment
arithmetic instead of building move objects, so a ``legal_count``
observation stays cheap on the replay path.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import Placement, placements
from replay.games.copenhagen.moves import Build
from replay.games.copenhagen.rules.building import CHANGE_OF_COLORS, CONSTRUCTION_DISCOUNT, build_cost
from replay.hidden import could_hold

if TYPE_CHECKING:
    from replay.games.copenhagen.board import Player
    from replay.games.copenhagen.state import CopenhagenState


def _build_options(s: CopenhagenState, p: Player) -> Iterator[tuple[Placement, str, int, int, bool, list[str]]]:
    """(placement, colour, size, cost, construction discount, change-from colours) per affordable choice."""
    comp = components()
    hand = p.hand
    unknown = hand.get(None, 0)
    discount_options = (False, True) if p.can_use(CONSTRUCTION_DISCOUNT) else (False,)
    change = p.can_use(CHANGE_OF_COLORS)
    facade = p.facade
    for tile, left in s.tiles.items():
        if left <= 0:
            continue
        shape = comp.shapes[tile]
        color, size = shape.color, shape.size
        if not change:
            others: list[str] = []
        elif unknown:
            others = [c for c in comp.colors if c != color and (hand.get(c, 0) > 0 or s.cards.could_be(c))]
        else:
            others = [c for c in comp.colors if c != color and hand.get(c, 0) > 0]
        best = hand.get(color, 0) + (max(hand.get(c, 0) for c in others) if others else 0) + unknown
        if best < size - 1 - (len(discount_options) - 1):
            continue
        covered = facade.covered
        same_color = facade.by_color[color]
        for pl in placements(tile):
            if pl.mask & covered or not (pl.grounded or pl.below & covered):
                continue  # Facade.fits, inlined: this loop is the hot path of legal_count
            same = bool(pl.neighbours & same_color)
            for cd in discount_options:
                cost = build_cost(size, same, cd)
                yield pl, color, size, cost, cd, others


def _payments(s: CopenhagenState, hand: dict[str | None, int], color: str, cost: int,
              others: list[str]) -> Iterator[tuple[str | None, int]]:
    """(change-from colour or None, cards of that colour) for each way to pay ``cost``.

    With unknown cards in the hand, a payment is listed when some colours of those
    cards, allowed by every card seen elsewhere, make it up.
    """
    if hand.get(None):
        for frm, k in ((None, 0), *((f, k) for f in others for k in range(1, cost + 1))):
            pay = {color: cost - k} if cost - k else {}
            if frm is not None:
                pay[frm] = k
            if could_hold(hand, pay, s.cards):
                yield frm, k
        return
    have = hand.get(color, 0)
    if have >= cost:
        yield None, 0
    for frm in others:
        for k in range(1, min(cost, hand.get(frm, 0)) + 1):
            if cost - k <= have:
                yield frm, k


def _payment_count(s: CopenhagenState, hand: dict[str | None, int], color: str, cost: int,
                   others: list[str]) -> int:
    if hand.get(None):
        return sum(1 for _ in _payments(s, hand, color, cost, others))
    have = hand.get(color, 0)
    n = 1 if have >= cost else 0
    for frm in others:
        lo = max(1, cost - have)
        hi = min(cost, hand.get(frm, 0))
        if hi >= lo:
            n += hi - lo + 1
    return n


def build_options(s: CopenhagenState, pid: str) -> Iterator[Build]:
    """Every tile the player can build now, with every way to pay for it."""
    return builds(s, s.seats[pid])


def builds(s: CopenhagenState, p: Player) -> Iterator[Build]:
    for pl, color, size, cost, cd, others in _build_options(s, p):
        for frm, k in _payments(s, p.hand, color, cost, others):
            pay = {color: cost - k} if cost - k else {}
            if frm is not None:
                pay[frm] = k
            o = pl.orientation
            yield Build(color=color, size=size, x=pl.x, y=pl.y, rotation=o.rotation, flip=o.flip, pay=pay,
                        construction_discount=cd, change_from=frm)


def legal_count(s: CopenhagenState) -> int:
    pid = s.players[s.current]
    p = s.seats[pid]
    if s.must_discard or s.step not in ("start", "build_after_taking"):
        return sum(1 for _ in s.legal_moves())
    n = sum(1 for c in s.harbour if c is not None) if s.step == "start" else 1
    for _, color, _, cost, _, others in _build_options(s, p):
        n += _payment_count(s, p.hand, color, cost, others)
    return n
