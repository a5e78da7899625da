"""A toy card game with hidden hands, to test the core's hidden information.

A deck of six coloured cards (3 red, 2 blue, 1 green).  Each player is dealt
two cards face down (only they see them).  On a turn the player to move plays
one card from hand face up (red scores 1, blue 2, green 3), then draws one card
face down if the deck has any.  The game ends when every hand is empty.

Zones for ``reveal`` events: ``hand:<player>``.
"""

from __future__ import annotations

from typing import Any

from replay.engine import OVER, ChanceRequest, Game, IllegalMove, Move, Outcome, State, Turn
from replay.games import register
from replay.hidden import HiddenPool, PartlyKnownDeck, add, could_hold, reveal_in, take, zone_snapshot

COLOURS = {"red": 3, "blue": 2, "green": 1}
POINTS = {"red": 1, "blue": 2, "green": 3}


class PlayCard(Move, tag="play"):
    colour: str


class HandState(State):
    game_id = "handtoy"

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.deck = PartlyKnownDeck("deck", HiddenPool("deck", COLOURS))
        self.hands: dict[str, dict[Any, int]] = {p: {} for p in players}
        self.points = {p: 0 for p in players}
        self.dealt = 0
        self.current = 0
        self.must_draw = False

    def turn(self) -> Turn:
        if self.dealt < len(self.players):
            p = self.players[self.dealt]
            return self.deck.request(2, f"{p}'s starting hand", visible_to=(p,))
        p = self.players[self.current]
        if self.must_draw:
            return self.deck.request(1, f"{p} draws", visible_to=(p,))
        if not any(self.hands.values()):
            return OVER
        return p

    def legal_moves(self) -> list[Move]:
        hand = self.hands[self.players[self.current]]
        return [PlayCard(colour=c) for c in COLOURS if could_hold(hand, {c: 1}, self.deck.pool)]

    def _play(self, player: str, move: Move) -> None:
        assert isinstance(move, PlayCard)
        if move.colour not in COLOURS:
            raise IllegalMove(f"there is no {move.colour} card")
        take(self.hands[player], move.colour, self.deck.pool, f"{player} plays a {move.colour} card")
        self.points[player] += POINTS[move.colour]
        self.must_draw = len(self.deck) > 0
        if not self.must_draw:
            self._next()

    def _next(self) -> None:
        self.current = (self.current + 1) % len(self.players)
        for _ in self.players:  # skip empty hands
            if self.hands[self.players[self.current]]:
                break
            self.current = (self.current + 1) % len(self.players)

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        items = outcome["items"]
        if self.dealt < len(self.players):
            p = self.players[self.dealt]
            self.deck.draw_hidden(items, f"{p}'s starting hand")
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

    def score(self) -> dict[str, dict[str, int]]:
        return {p: {"played": self.points[p]} for p in self.players}

    def snapshot(self) -> dict[str, Any]:
        return {"deck": self.deck.snapshot(), "points": dict(self.points), "current": self.current,
                "hands": {p: zone_snapshot(h, COLOURS) for p, h in self.hands.items()}}


GAME = Game(id="handtoy", title="Hidden-hand toy", min_players=2, max_players=3, moves=(PlayCard,),
            state_class=HandState)
register(GAME)
