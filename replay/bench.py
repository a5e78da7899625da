"""Replay throughput, measured against python-chess as a reference.

:func:`bench_replay` simulates a corpus (not timed), serialises it, then times
decoding + validating + replaying every record (what ``gamerec verify``
does), several times, and reports the median.  :func:`bench_chess` does the
same for python-chess on random legal games of a similar length: parse the
PGN (``chess.pgn.read_game``, which checks every move) and push every move on
a board.  Both run in the same process, in the same run, so their ratio is
meaningful even on a noisy machine.
"""

from __future__ import annotations

import io
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from replay.record import dumps, loads
from replay.replayer import COMPLETE, replay
from replay.simulate import simulate


@dataclass
class Rate:
    """A median throughput over ``runs`` timed passes."""

    name: str
    games: int
    events: int
    seconds: float
    runs: int

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def events_per_game(self) -> float:
        return self.events / self.games if self.games else 0.0


def _median_time(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_replay(game_id: str, games: int = 50, runs: int = 5, seed: int = 1) -> Rate:
    """Median time to decode, validate and replay ``games`` simulated records."""
    blobs = [dumps(r) for r in simulate(game_id, games, seed, observe_every=0)]
    events = sum(len(loads(b).events) for b in blobs)

    def run() -> None:
        for b in blobs:
            r = replay(loads(b))
            if r.status != COMPLETE:
                raise RuntimeError(f"benchmark record {r.record.id if r.record else '?'} is {r.status}")

    return Rate(game_id, games, events, _median_time(run, runs), runs)


def bench_chess(games: int, plies: int, runs: int = 5, seed: int = 1) -> Rate | None:
    """python-chess parsing and replaying ``games`` random PGN games of about ``plies`` moves."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    rng = random.Random(seed)
    pgns = []
    total = 0
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < plies:
            moves = list(board.legal_moves)
            board.push(moves[rng.randrange(len(moves))])
        total += board.ply()
        pgns.append(str(chess.pgn.Game.from_board(board)))

    def run() -> None:
        for text in pgns:
            game = chess.pgn.read_game(io.StringIO(text))
            assert game is not None
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)

    return Rate("python-chess (PGN)", games, total, _median_time(run, runs), runs)
