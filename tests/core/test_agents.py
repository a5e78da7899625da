"""The simulator's greedy agent never starts and undoes actions forever (issue 26, item 6)."""

from __future__ import annotations

import random
from typing import Any

from replay.engine import Move
from replay.simulate import GreedyAgent


class Start(Move, tag="start", frozen=True):
    region: str


class Withdraw(Move, tag="withdraw", frozen=True):
    pass


class End(Move, tag="end", frozen=True):
    pass


class StartAndWithdraw:
    """One seat: starting an action in either region looks best one step ahead, but its next step
    is best withdrawn, which returns the very same state (Pax Pamir: a battle, then its bribe)."""

    players = ["p1"]

    def __init__(self) -> None:
        self.pending: str | None = None
        self.over = False

    def copy(self) -> StartAndWithdraw:
        c = StartAndWithdraw()
        c.pending, c.over = self.pending, self.over
        return c

    def legal_moves(self) -> list[Move]:
        if self.pending is not None:
            return [Withdraw()]
        return [Start(region="persia"), Start(region="punjab"), End()]

    def play(self, player: str, move: Any) -> None:
        if isinstance(move, Start):
            self.pending = move.region
        elif isinstance(move, Withdraw):
            self.pending = None
        else:
            self.over = True

    def evaluate(self, player: str) -> float:
        return 1.0 if self.pending is not None else 0.0

    def state_hash(self) -> str:
        return f"{self.pending}:{self.over}"


def test_greedy_agent_stops_starting_and_withdrawing() -> None:
    for seed in range(20):
        state = StartAndWithdraw()
        agent = GreedyAgent(random.Random(seed))
        for _ in range(200):
            if state.over:
                break
            state.play("p1", agent.choose(state, "p1"))  # type: ignore[arg-type]
        assert state.over, f"seed {seed}: still starting and withdrawing after 200 choices"
