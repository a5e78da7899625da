"""Replay throughput, measured against python-chess as a reference.

:func:`bench_replay` simulates a corpus (not timed), serialises it, then times
decoding + validating + replaying every record (what ``gamerec verify``
does), several times, and reports the median CPU time.  :func:`bench_chess` does the
same for python-chess on random legal games of a similar length: parse the
PGN (``chess.pgn.read_game``, which checks every move) and push every move on
a board.  Both run in the same process, in the same run, so their ratio is
meaningful even on a noisy machine.
"""

from __future__ import annotations

import gc
import io
import json
import os
import random
import statistics
import struct
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from replay.engine import Game, State
from replay.games import get_game
from replay.loop import Loop, Observer
from replay.record import ChanceEvent, Event, MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import COMPLETE, replay
from replay.simulate import player_counts, simulate, simulate_one

#: The benchmark's corpora: ``sim`` (the simulator's default agents, greedy and random),
#: ``pass-heavy`` (random agents that often pass: many short turns) and ``observed`` (the
#: pass-heavy records with a rich ``observe`` event after every turn).
CORPORA = ("sim", "pass-heavy", "observed")


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
    """Median CPU time of this process over ``runs`` calls: one core's work, which other jobs
    on a shared machine disturb far less than they disturb the wall clock."""
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def pass_heavy(game_id: str, games: int, seed: int = 1) -> list[Record]:
    """``games`` records of random agents that often pass, player counts in turn."""
    game = get_game(game_id)
    counts = player_counts(game, None)
    out = []
    for i in range(games):
        n = counts[i % len(counts)]
        out.append(simulate_one(game, n, seed, i, observe_every=0, agents=["passing"] * n))
    return out


def rich_keys(game: Game) -> list[str]:
    """Every observable key of the game except the generic ``legal_count`` and ``state_hash``."""
    return [k for k in game.observable_keys if k not in ("legal_count", "state_hash")]


class _TurnObservations(Observer):
    """The record's events, with an ``observe`` event of ``keys`` after each that changes the round label."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.events: list[Event] = []
        self.label: Any = None

    def started(self, state: State) -> None:
        self.events.clear()
        self.label = state.phase()[0]

    def applied(self, seq: int, event: MoveEvent | ChanceEvent, state: State) -> None:
        self._after(event, state)

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        self._after(event, state)

    def _after(self, event: Event, state: State) -> None:
        self.events.append(event)
        now = state.phase()[0]
        if now != self.label:
            self.label = now
            self.events.append(ObserveEvent(state.observe(self.keys), "simulator"))


def with_turn_observations(record: Record) -> Record:
    """The record with an ``observe`` event of :func:`rich_keys` after every turn (whenever
    the round label changes), each fact computed by replaying the record."""
    game = get_game(record.game)
    turns = _TurnObservations(rich_keys(game))
    refused = Loop(game.initial_state(record.player_ids, record.options), (turns,)).run(record.events)
    if refused is not None:
        raise refused
    return Record(game=record.game, id=record.id, players=record.players, events=turns.events,
                  options=record.options, source=record.source, played_at=record.played_at,
                  result=record.result)


def corpus(game_id: str, name: str, games: int, seed: int = 1,
           passing: list[Record] | None = None) -> list[bytes]:
    """The serialised records of one benchmark corpus (see :data:`CORPORA`); ``passing``: the
    pass-heavy records if already simulated."""
    if name == "sim":
        return [dumps(r) for r in simulate(game_id, games, seed, observe_every=0)]
    recs = passing if passing is not None else pass_heavy(game_id, games, seed)
    if name == "observed":
        recs = [with_turn_observations(r) for r in recs]
    return [dumps(r) for r in recs]


def bench_replay(game_id: str, games: int = 50, runs: int = 5, seed: int = 1, corpus_name: str = "sim",
                 blobs: list[bytes] | None = None) -> Rate:
    """Median time to decode, validate and replay ``games`` records of a corpus (the events
    counted are moves and chance outcomes, so that an observed corpus counts the same events
    as the corpus it observes)."""
    if blobs is None:
        blobs = corpus(game_id, corpus_name, games, seed)
    events = sum(sum(1 for e in loads(b).events if not isinstance(e, ObserveEvent)) for b in blobs)

    def run() -> None:
        for b in blobs:
            r = replay(loads(b))
            if r.status != COMPLETE:
                raise RuntimeError(f"benchmark record {r.record.id if r.record else '?'} is {r.status}")

    name = game_id if corpus_name == "sim" else f"{game_id} {corpus_name}"
    return Rate(name, len(blobs), events, _median_time(run, runs), runs)


def replay_only_cost(observed: list[bytes], plain: list[bytes], runs: int = 5) -> float:
    """The cost of checking observations alone: CPU time to replay the observed records over the
    time to replay the same records without their observations, both decoded beforehand (so
    that reading the larger JSON of the observations does not count).  The two are timed in
    turn, at least five times each, and the best times compared (a load that comes and goes
    on a shared machine only ever adds time)."""
    obs_recs = [loads(b) for b in observed]
    plain_recs = [loads(b) for b in plain]

    def run(recs: list[Record]) -> Any:
        def replay_each() -> None:
            for r in recs:  # each result dropped at once, as verify drops it
                replay(r)
        return replay_each

    # Both decoded corpora live as long as this measurement and no longer than it: kept out of
    # the collector's sight, as an ingest worker keeps its engines, so that a collection that
    # happens to fall in one timed run does not walk thousands of records only this bench holds.
    gc.collect()
    gc.freeze()
    try:
        obs_times: list[float] = []
        plain_times: list[float] = []
        for _ in range(max(runs, 5)):  # in turn, so that a machine whose load drifts moves both alike
            obs_times.append(_median_time(run(obs_recs), 1))
            plain_times.append(_median_time(run(plain_recs), 1))
    finally:
        gc.unfreeze()
    return min(obs_times) / min(plain_times)


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


# --------------------------------------------------------------------------
# Against a previous version, in the same run
# --------------------------------------------------------------------------

WORKER = Path(__file__).with_name("replay_worker.py")
"""The script each version runs in its own process (see :mod:`benchmarks.replay_worker`)."""


class AgainstError(Exception):
    """A previous version that cannot be exported or started (one line, for the CLI)."""


def source_root() -> Path:
    """The folder holding this ``replay`` package (the root of its git checkout)."""
    return Path(__file__).resolve().parents[1]


def export_version(rev: str, into: Path) -> str:
    """Write revision ``rev``'s ``replay`` package under ``into`` (``git archive``) and
    return the commit it names."""
    root = source_root()
    try:
        sha = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                             capture_output=True, text=True, check=False).stdout.strip()
    except OSError as exc:
        raise AgainstError(f"cannot run git to export {rev!r}: {exc}") from None
    if not sha:
        raise AgainstError(f"{rev!r} is not a commit of the git checkout at {root}")
    archive = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", sha, "replay"],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise AgainstError(f"git archive {sha[:12]} replay failed: "
                           f"{archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return sha


def write_blobs(path: Path, blobs: list[bytes]) -> None:
    """A corpus file for :mod:`benchmarks.replay_worker`: each record's length (4 bytes) and bytes."""
    with open(path, "wb") as fh:
        for b in blobs:
            fh.write(struct.pack(">I", len(b)))
            fh.write(b)


class VersionProcess:
    """One version of gamerec (the ``replay`` package under ``root``) in a worker process."""

    def __init__(self, root: Path, label: str) -> None:
        self.label = label
        env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
        self.proc = subprocess.Popen([sys.executable, "-P", str(WORKER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, text=True)

    def ask(self, **cmd: Any) -> dict[str, Any]:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(cmd) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise AgainstError(f"the {self.label} version's bench process stopped (exit {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise AgainstError(f"the {self.label} version's bench process: {answer['error']}")
        return answer

    def close(self) -> None:
        stdin: IO[str] | None = self.proc.stdin
        if self.proc.poll() is None and stdin is not None:
            stdin.write(json.dumps({"cmd": "quit"}) + "\n")
            stdin.close()
        self.proc.wait()


@dataclass
class Against:
    """One corpus replayed by this version and a previous one, in turn, in one run."""

    name: str
    records: int
    """Records of the corpus."""
    kept: int
    """Records both versions replay to the same end (complete, same final score and ranking)."""
    seconds: float
    """This version's best CPU time over the kept records."""
    before_seconds: float
    """The previous version's best CPU time over the same records."""
    dropped: list[str] = field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        return self.before_seconds / self.seconds if self.kept and self.seconds else None


class Comparison:
    """This version and revision ``rev`` as two worker processes (a context manager)."""

    def __init__(self, rev: str, workdir: Path) -> None:
        old_root = workdir / "before"
        old_root.mkdir()
        self.rev = rev
        self.sha = export_version(rev, old_root)
        self.now = VersionProcess(source_root(), "current")
        self.before = VersionProcess(old_root, rev)
        self.workdir = workdir

    def __enter__(self) -> Comparison:
        return self

    def __exit__(self, *exc: object) -> None:
        self.now.close()
        self.before.close()

    SLICE = 10
    """Records per timed slice: a slice takes a tenth of a second or so, less than the spells of a
    shared machine's slowdowns, which last seconds."""

    def measure(self, name: str, blobs: list[bytes], runs: int) -> Against:
        """Replay ``blobs`` in both versions, keep the records both replay to the same end, and
        time the two versions on each slice of :attr:`SLICE` kept records right after each other
        (``runs`` times each, the order swapped every run).  A version's time is the sum of its
        best time on each slice: both versions meet the same spells of load, and a slice slowed
        by one counts only if it was slow all ``runs`` times."""
        path = self.workdir / "corpus.bin"
        write_blobs(path, blobs)
        ends_now = self.now.ask(cmd="load", name=name, path=str(path))["ends"]
        ends_before = self.before.ask(cmd="load", name=name, path=str(path))["ends"]
        path.unlink()
        kept = [i for i, (a, b) in enumerate(zip(ends_now, ends_before, strict=True))
                if a == b and a.startswith('["complete"')]
        dropped = [f"record {i}: {ends_before[i][:120]}" for i in range(len(blobs)) if i not in set(kept)]
        for proc in (self.now, self.before):
            proc.ask(cmd="keep", name=name, indices=kept)
        slices = [[a, min(a + self.SLICE, len(kept))] for a in range(0, len(kept), self.SLICE)]
        now = [float("inf")] * len(slices)
        before = [float("inf")] * len(slices)
        for run in range(runs if kept else 0):
            for k, part in enumerate(slices):
                pair = (self.now, self.before) if (run + k) % 2 == 0 else (self.before, self.now)
                for proc in pair:
                    best = now if proc is self.now else before
                    best[k] = min(best[k], proc.ask(cmd="time", name=name, slice=part)["seconds"])
        return Against(name, len(blobs), len(kept), sum(now), sum(before), dropped)
