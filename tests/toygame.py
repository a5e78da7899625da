"""A toy dice race used to test the shared core without any real game.

Two or three players; each turn the player to move rolls one die (a chance
event), then chooses to ``advance`` by the roll or ``bank`` the roll as points.
The first player whose position reaches 10 ends the game; score = banked points
+ position.
"""

from __future__ import annotations

from typing import Any

from replay.engine import OVER, ChanceRequest, Game, IllegalMove, Move, Outcome, State, Turn
from replay.games import register


class Advance(Move, tag="advance"):
    steps: int


class Bank(Move, tag="bank"):
    pass


class ToyState(State):
    game_id = "toy"

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.pos = {p: 0 for p in players}
        self.banked = {p: 0 for p in players}
        self.current = 0
        self.rolled: int | None = None
        self.over = False

    def turn(self) -> Turn:
        if self.over:
            return OVER
        if self.rolled is None:
            return ChanceRequest("roll", "die", count=1, sides=6, reason="start of turn")
        return self.players[self.current]

    def legal_moves(self) -> list[Move]:
        assert self.rolled is not None
        return [Advance(steps=self.rolled), Bank()]

    def _play(self, player: str, move: Move) -> None:
        assert self.rolled is not None
        if isinstance(move, Advance):
            if move.steps != self.rolled:
                raise IllegalMove(f"{player} cannot advance {move.steps}: the die shows {self.rolled}")
            self.pos[player] += move.steps
            if self.pos[player] >= 10:
                self.over = True
                self.add_milestone("finish", player_id=player)
        else:
            self.banked[player] += self.rolled
        self.rolled = None
        self.current = (self.current + 1) % len(self.players)

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        self.rolled = outcome["roll"][0]

    def score(self) -> dict[str, dict[str, int]]:
        return {p: {"position": self.pos[p], "banked": self.banked[p]} for p in self.players}

    def snapshot(self) -> dict[str, Any]:
        return {"pos": self.pos, "banked": self.banked, "current": self.current, "rolled": self.rolled}

    def observables(self) -> dict[str, Any]:
        return {"position": dict(self.pos)}


GAME = Game(id="toy", title="Toy race", min_players=2, max_players=3, moves=(Advance, Bank),
            state_class=ToyState, observable_keys=("score", "legal_count", "state_hash", "position"))
register(GAME)
