"""A small card game with hidden hands and real decisions, for the win-chance tests.

Fourteen cards: 5 red (worth 1), 4 blue (2), 3 green (3), 2 gold (4).  Each
player is dealt three cards face down (only they see them).  On a turn the
player to move plays one card from hand face up onto the common pile: it scores
its worth, plus 2 if it has the colour of the card on top of the pile.  Then
they draw one card face down if the deck has any.  The game ends when every
hand is empty; the most points wins.

Zones for ``reveal`` events: ``hand:<player>``; ``unknown_zones()`` tells the
analysis where the unknown cards are.
"""

from __future__ import annotations

from typing import Any

from replay.engine import OVER, ChanceRequest, Game, IllegalMove, Move, Outcome, State, Turn
from replay.games import register
from replay.hidden import HiddenPool, PartlyKnownDeck, add, could_hold, reveal_in, take, zone_snapshot

CARDS = {"red": 5, "blue": 4, "green": 3, "gold": 2}
WORTH = {"red": 1, "blue": 2, "green": 3, "gold": 4}
MATCH_BONUS = 2
HAND = 3


class Play(Move, tag="play"):
    colour: str


class CardState(State):
    game_id = "cardtoy"

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.deck = PartlyKnownDeck("deck", HiddenPool("deck", CARDS))
        self.hands: dict[str, dict[Any, int]] = {p: {} for p in players}
        self.points = dict.fromkeys(players, 0)
        self.top: str | None = None
        self.dealt = 0
        self.current = 0
        self.must_draw = False

    def copy(self) -> CardState:
        new = CardState.__new__(CardState)
        new.__dict__.update(self.__dict__)
        pool = self.deck.pool.copy()
        new.deck = self.deck.copy(pool)
        new.hands = {p: dict(h) for p, h in self.hands.items()}
        new.points = dict(self.points)
        new.milestones = list(self.milestones)
        new.reveals = []
        return new

    def turn(self) -> Turn:
        if self.dealt < len(self.players):
            p = self.players[self.dealt]
            return self.deck.request(HAND, f"{p}'s hand", visible_to=(p,))
        p = self.players[self.current]
        if self.must_draw:
            return self.deck.request(1, f"{p} draws", visible_to=(p,))
        if not any(self.hands.values()):
            return OVER
        return p

    def legal_moves(self) -> list[Move]:
        hand = self.hands[self.players[self.current]]
        return [Play(colour=c) for c in CARDS if could_hold(hand, {c: 1}, self.deck.pool)]

    def _play(self, player: str, move: Move) -> None:
        assert isinstance(move, Play)
        if move.colour not in CARDS:
            raise IllegalMove(f"there is no {move.colour} card")
        take(self.hands[player], move.colour, self.deck.pool, f"{player} plays a {move.colour} card")
        self.points[player] += WORTH[move.colour] + (MATCH_BONUS if move.colour == self.top else 0)
        self.top = move.colour
        self.must_draw = len(self.deck) > 0
        if not self.must_draw:
            self._next()

    def _next(self) -> None:
        for _ in self.players:
            self.current = (self.current + 1) % len(self.players)
            if self.hands[self.players[self.current]]:
                break

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        items = outcome["items"]
        if self.dealt < len(self.players):
            p = self.players[self.dealt]
            self.deck.draw_hidden(items, f"{p}'s hand")
            add(self.hands[p], items)
            self.dealt += 1
            return
        p = self.players[self.current]
        self.deck.draw_hidden(items, f"{p} draws")
        add(self.hands[p], items)
        self.must_draw = False
        self._next()

    def _reveal_zone(self, zone: str, items: list[Any]) -> None:
        owner = zone.removeprefix("hand:")
        if not zone.startswith("hand:") or owner not in self.hands:
            super()._reveal_zone(zone, items)
        reveal_in(self.hands[owner], items, self.deck.pool, f"{owner}'s hand")

    def unknown_zones(self) -> dict[str, tuple[int, HiddenPool, dict[Any, int]]]:
        return {f"hand:{p}": (h.get(None, 0), self.deck.pool, {c: n for c, n in h.items() if c is not None})
                for p, h in self.hands.items()}

    def evaluate(self, player: str) -> float:
        others = max(v for q, v in self.points.items() if q != player)
        return self.points[player] - others

    def score(self) -> dict[str, dict[str, int]]:
        return {p: {"played": self.points[p]} for p in self.players}

    def snapshot(self) -> dict[str, Any]:
        return {"deck": self.deck.snapshot(), "points": dict(self.points), "top": self.top,
                "current": self.current, "hands": {p: zone_snapshot(h, CARDS) for p, h in self.hands.items()}}


GAME = Game(id="cardtoy", title="Hidden-hand card toy", min_players=2, max_players=3, moves=(Play,),
            state_class=CardState)
register(GAME)
