"""A face-down deck whose order is partly known.

At first every item is *hidden*: the next draw is chance.  Items a player puts
back after a draw-five action are known again, on the top or at the bottom.
Drawing takes the known top first, then hidden items (a chance event), then
the known bottom.
"""

from __future__ import annotations

from replay.engine import ChanceRequest

from .components import ITEM_ORDER


class Deck:
    __slots__ = ("name", "top", "hidden", "bottom")

    def __init__(self, name: str, items: list[str]) -> None:
        self.name = name
        self.top: list[str] = []
        self.hidden: list[str] = sorted(items, key=ITEM_ORDER.__getitem__)
        self.bottom: list[str] = []

    def copy(self) -> Deck:
        d = Deck.__new__(Deck)
        d.name = self.name
        d.top = self.top[:]
        d.hidden = self.hidden[:]
        d.bottom = self.bottom[:]
        return d

    def __len__(self) -> int:
        return len(self.top) + len(self.hidden) + len(self.bottom)

    def request(self, count: int, reason: str) -> ChanceRequest:
        """The chance request for ``count`` hidden items (count <= hidden items)."""
        return ChanceRequest("draw", self.name, count=count, pool=tuple((i, 1) for i in self.hidden),
                             reason=reason)

    def take_hidden(self, items: list[str]) -> None:
        for i in items:
            self.hidden.remove(i)

    def put_back(self, items: list[str], to: str) -> None:
        """Items go back on the top (``items[0]`` drawn first) or under the bottom."""
        if to == "top":
            self.top[:0] = items
        else:
            self.bottom.extend(items)

    def snapshot(self) -> dict[str, object]:
        return {"top": list(self.top), "hidden": len(self.hidden), "bottom": list(self.bottom)}
