"""Hidden information: components whose identity is unknown, and the partly-known deck.

A record written from one player's point of view (every Board Game Arena log)
does not name every card: an opponent draws two cards face down, and all the
viewer learns is that two cards went into that hand.  ``gamerec/1`` writes such
a card as ``null`` in the draw's items::

    {"chance": {"draw": "deck", "items": [null, null]}}

The state then holds an *unknown* card (``None``) where the card went.  It
counts for hand size and deck size like any other card.  Later the card may be
*revealed*: a move names it (a discard shows its colour, a build spends it) or
a ``reveal`` event shows it::

    {"chance": {"reveal": "hand:p2", "items": ["red"]}}

and the replayer checks that the revelation was possible given everything
known at that point — the family's composition and every card already seen.

That check is exact, and cheap, because unknown cards are *exchangeable*: as
far as the record can tell, any unknown card of a family may be any identity
that is not yet accounted for.  So an unknown card may turn out to be ``x``
exactly when fewer copies of ``x`` are known than the family holds.
:class:`HiddenPool` keeps that account for one family (a deck's cards, wherever
they are now).  :class:`PartlyKnownDeck` is the face-down deck on top of it: a
shuffled middle whose cards are unknown, and cards put back on the top or at
the bottom, whose position is known even when their identity is not.

Zones (a hand, a display row, a pile) are multisets held as plain ``dict``
objects mapping an item to its count; the key ``None`` counts the zone's
unknown cards.  :func:`take`, :func:`could_hold` and :func:`reveal_in` are the
three operations the rules need on them:

* a move that spends card ``x`` from a hand *takes* it: a known ``x`` if the
  hand has one, otherwise an unknown card, which is thereby bound to ``x``;
* ``legal_moves`` asks whether a hand *could hold* the cards a move needs —
  legal when some assignment of the unknowns makes it legal;
* a ``reveal`` event binds unknown cards of a zone (``reveal_in``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from replay.engine import ChanceRequest, IllegalMove, ImpossibleChance, Outcome

Item = Hashable
Zone = dict[Any, int]
"""A multiset of items; the key ``None`` counts unknown items."""

UNKNOWN: None = None
"""An item whose identity is unknown (JSON ``null`` in a record)."""


class HiddenPool:
    """Identity accounting for one family of face-down components.

    ``composition`` lists every copy of every identity the family holds (a
    Copenhagen deck: 14 cards of each of five colours), in a fixed order.
    ``known`` counts the copies whose identity is known now, wherever they
    are (a hand, the harbour, the discard pile).  Every other copy is
    *unknown*: in the face-down deck, or in a zone as an unknown card.
    """

    __slots__ = ("name", "composition", "known", "_total")

    def __init__(self, name: str, composition: Mapping[Any, int] | Iterable[tuple[Any, int]]) -> None:
        pairs = composition.items() if isinstance(composition, Mapping) else composition
        self.name = name
        self.composition: dict[Any, int] = {item: int(n) for item, n in pairs}
        self.known: dict[Any, int] = {}
        self._total = sum(self.composition.values())

    def copy(self) -> HiddenPool:
        out = HiddenPool.__new__(HiddenPool)
        out.name = self.name
        out.composition = self.composition  # never mutated after construction
        out.known = dict(self.known)
        out._total = self._total
        return out

    @property
    def unknown(self) -> int:
        """How many copies of the family have an unknown identity right now."""
        return self._total - sum(self.known.values())

    def unaccounted(self, item: Any) -> int:
        """How many unknown copies could be ``item`` (its copies not yet seen)."""
        return self.composition.get(item, 0) - self.known.get(item, 0)

    def could_be(self, item: Any) -> bool:
        return self.unaccounted(item) > 0

    def possible(self) -> tuple[tuple[Any, int], ...]:
        """``(item, copies)`` that an unknown card may be, in composition order
        (the pool of a draw request)."""
        known = self.known
        return tuple([(item, n - known.get(item, 0)) for item, n in self.composition.items()
                      if n > known.get(item, 0)])  # (a list first: no generator to resume per item)

    def see(self, item: Any, where: str) -> None:
        """An unknown copy is identified as ``item`` (drawn face up, revealed, spent).

        Raises :class:`ImpossibleChance` if every copy of ``item`` is already
        accounted for, or if the family has no such item.
        """
        total = self.composition.get(item)
        if total is None:
            raise ImpossibleChance(f"{where}: the {self.name} cards have no {item!r}")
        seen = self.known.get(item, 0)
        if seen >= total:
            copies = "the only copy" if total == 1 else f"all {total} copies"
            raise ImpossibleChance(f"{where}: {item!r} cannot be there: {copies} of it are already "
                                   f"accounted for elsewhere")
        self.known[item] = seen + 1

    def hide(self, item: Any) -> None:
        """A known copy of ``item`` goes face down among the unknown ones (shuffled into a deck)."""
        seen = self.known.get(item, 0)
        if seen <= 0:
            raise ValueError(f"no known {item!r} of the {self.name} cards to hide")
        if seen == 1:
            del self.known[item]
        else:
            self.known[item] = seen - 1

    def snapshot(self) -> dict[str, Any]:
        return {"unknown": self.unknown}


class PartlyKnownDeck:
    """A face-down deck whose order is partly known.

    ``top`` and ``bottom`` hold cards whose *position* is known (put back by a
    player after looking at them); their identity is known, or ``None`` when
    the record's viewer did not see it.  ``top[0]`` is the next card drawn;
    ``bottom[-1]`` the very last.  ``hidden`` counts the shuffled cards in
    between: unknown in identity and in order.  Drawing takes the top first,
    then the shuffled middle (a chance event), then the bottom.

    Identities are accounted for in ``pool``, which the deck shares with the
    zones its cards go to.
    """

    __slots__ = ("name", "pool", "top", "hidden", "bottom")

    def __init__(self, name: str, pool: HiddenPool, size: int | None = None) -> None:
        self.name = name
        self.pool = pool
        self.top: list[Any] = []
        self.hidden: int = pool.unknown if size is None else size
        self.bottom: list[Any] = []

    def copy(self, pool: HiddenPool | None = None) -> PartlyKnownDeck:
        """A copy; pass the copied pool when the pool is shared with other zones."""
        d = PartlyKnownDeck.__new__(PartlyKnownDeck)
        d.name = self.name
        d.pool = self.pool.copy() if pool is None else pool
        d.top = self.top[:]
        d.hidden = self.hidden
        d.bottom = self.bottom[:]
        return d

    def __len__(self) -> int:
        return len(self.top) + self.hidden + len(self.bottom)

    def request(self, count: int, reason: str = "", *, visible_to: tuple[str, ...] | None = None,
                min_count: int | None = None) -> ChanceRequest:
        """The chance request for ``count`` cards from the shuffled middle."""
        return ChanceRequest("draw", self.name, count=count, pool=self.pool.possible(), reason=reason,
                             min_count=min_count, visible_to=visible_to)

    def admits(self, outcome: Outcome, count: int) -> bool:
        """Whether ``outcome`` is a draw of ``count`` cards from the middle that :meth:`request`'s
        pool would admit, told without making the pool (a chance step's fast path,
        :meth:`~replay.decisions.Task.outcome_at_once`).  Only plain items (``str``, ``int``,
        ``None`` for a card drawn face down) are told here; anything else is left to the pool."""
        if outcome.get("draw") != self.name:
            return False
        items = outcome.get("items")
        if type(items) is not list or len(items) != count:
            return False
        pool = self.pool
        if count == 1:
            item = items[0]
            return item is None or (type(item) is str or type(item) is int) and pool.could_be(item)
        seen: dict[Any, int] = {}
        for item in items:
            if item is None:
                continue
            if type(item) is not str and type(item) is not int:
                return False
            n = seen[item] = seen.get(item, 0) + 1
            if n > pool.unaccounted(item):
                return False
        return True

    def draw_hidden(self, items: list[Any], where: str) -> None:
        """``items`` came off the shuffled middle (``None`` for a card drawn face down)."""
        if len(items) > self.hidden:
            raise ImpossibleChance(f"{where}: {len(items)} card(s) drawn, but the {self.name} deck "
                                   f"has only {self.hidden} shuffled card(s) left")
        for item in items:
            if item is not None:
                self.pool.see(item, where)
        self.hidden -= len(items)

    def take_top(self, n: int) -> list[Any]:
        """The first ``n`` cards put back on top (known position)."""
        out, self.top = self.top[:n], self.top[n:]
        return out

    def take_bottom(self, n: int) -> list[Any]:
        """The first ``n`` cards of the known bottom (drawn after the middle ran out)."""
        out, self.bottom = self.bottom[:n], self.bottom[n:]
        return out

    def put_back(self, items: list[Any], to: str) -> None:
        """Cards go back in a known position: on ``"top"`` (``items[0]`` drawn
        first) or under the ``"bottom"``.  Their identities stay as known as they were."""
        if to == "top":
            self.top[:0] = items
        elif to == "bottom":
            self.bottom.extend(items)
        else:
            raise ValueError(f"put back on 'top' or 'bottom', not {to!r}")

    def shuffle_in(self, items: Iterable[Any]) -> None:
        """Cards are shuffled into the middle: their identities become unknown again."""
        n = 0
        for item in items:
            if item is not None:
                self.pool.hide(item)
            n += 1
        self.hidden += n

    def snapshot(self) -> dict[str, Any]:
        return {"top": list(self.top), "hidden": self.hidden, "bottom": list(self.bottom)}


# --------------------------------------------------------------------------
# Zones: multisets with unknown items
# --------------------------------------------------------------------------


def add(zone: Zone, items: Iterable[Any]) -> None:
    """Put items (``None`` for unknown ones) into a zone."""
    for item in items:
        zone[item] = zone.get(item, 0) + 1


def _remove(zone: Zone, item: Any, n: int = 1) -> None:
    left = zone[item] - n
    if left:
        zone[item] = left
    else:
        del zone[item]


def could_hold(zone: Zone, needed: Mapping[Any, int], pool: HiddenPool) -> bool:
    """Could ``zone`` hold every item of ``needed``, for some assignment of its unknown cards?

    Exact, because unknown cards are exchangeable: each missing copy of ``x``
    needs one unknown card of the zone and one unaccounted copy of ``x``.
    """
    missing = 0
    for item, n in needed.items():
        short = n - zone.get(item, 0)
        if short > 0:
            if short > pool.unaccounted(item):
                return False
            missing += short
    return missing <= zone.get(None, 0)


def take(zone: Zone, item: Any, pool: HiddenPool, where: str, n: int = 1) -> None:
    """Spend ``n`` copies of ``item`` from ``zone``: known copies first, then
    unknown cards, which are thereby revealed as ``item``.

    Raises :class:`IllegalMove` when no assignment of the unknowns gives the
    zone that many copies (the move needs a card the zone cannot hold).
    """
    have = zone.get(item, 0)
    short = n - have
    if short > 0 and (zone.get(None, 0) < short or pool.unaccounted(item) < short):
        unknown = zone.get(None, 0)
        why = f"it holds {have}" + (f" and {unknown} unknown card(s)" if unknown else "")
        if unknown >= short:
            why += f", and only {pool.unaccounted(item)} {item!r} card(s) are not accounted for elsewhere"
        raise IllegalMove(f"{where}: needs {n} {item!r} card(s), {why}")
    if have:
        _remove(zone, item, min(n, have))
    if short > 0:
        _remove(zone, None, short)
        for _ in range(short):
            pool.see(item, where)


def reveal_in(zone: Zone, items: Iterable[Any], pool: HiddenPool, where: str) -> None:
    """A ``reveal`` event: ``items`` are shown to be in ``zone``.

    Items already known to be there are consistent; the rest bind unknown
    cards of the zone.  Raises :class:`ImpossibleChance` when the zone could
    not hold them.
    """
    needed: dict[Any, int] = {}
    for item in items:
        if item is None:
            raise ImpossibleChance(f"{where}: a revealed item cannot be unknown (null)")
        needed[item] = needed.get(item, 0) + 1
    if not could_hold(zone, needed, pool):
        shown = ", ".join(f"{n} {item!r}" if n > 1 else repr(item) for item, n in needed.items())
        held = ", ".join(f"{n} {'unknown' if item is None else repr(item)}" for item, n in
                         sorted(zone.items(), key=lambda kv: (kv[0] is None, str(kv[0]))))
        raise ImpossibleChance(f"{where}: cannot show {shown}: it holds {held or 'nothing'}, and the "
                               f"unknown cards cannot be those given every card already seen")
    for item, n in needed.items():
        short = n - zone.get(item, 0)
        if short > 0:
            _remove(zone, None, short)
            zone[item] = zone.get(item, 0) + short
            for _ in range(short):
                pool.see(item, where)


def zone_snapshot(zone: Zone, order: Iterable[Any] | None = None) -> dict[str, int]:
    """A zone as plain JSON: known items by name (in ``order`` if given), unknown ones under ``"?"``."""
    keys = [k for k in (order if order is not None else sorted(k for k in zone if k is not None))
            if zone.get(k)]
    out = {str(k): zone[k] for k in keys}
    if zone.get(None):
        out["?"] = zone[None]
    return out
