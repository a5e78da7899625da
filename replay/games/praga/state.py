"""The Praga state: the position (one plain-JSON dict), its task stack, scores and views."""

from __future__ import annotations

from typing import Any

import orjson

from replay.decisions import TaskState
from replay.departures import load_departures
from replay.engine import Move
from replay.hidden import PartlyKnownDeck

from .components import ROUNDS
from .describe import describe
from .rules import crane
from .rules.setup import initial, initial_stacks, setup_steps
from .rules.turn import PlayerTurns
from .scoring import final_points, ranking, score_breakdown
from .tasks import Decision, Draw, Step, Task, push

ERA_PHASE = {1: "era I", 2: "era II"}
"""The phase label of a round of play, by era."""


class PragaState(TaskState[Task]):
    """A game of Praga Caput Regni in progress: the whole position is the plain-JSON dict ``d``; what the
    rules wait for is the core's task stack (:mod:`.tasks`), with :class:`~.rules.turn.PlayerTurns` at
    its bottom."""

    game_id = "praga"
    departure_rules = load_departures("replay.games.praga")
    taken_kinds = ("upgrade tile", "wall tile", "building tile")

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.d: dict[str, Any] = initial(players)
        self.stacks: dict[str, PartlyKnownDeck] = initial_stacks(players)
        self._score: dict[str, dict[str, int]] | None = None
        self.stack.append(PlayerTurns())
        push(self, *setup_steps(players))
        self.advance()

    # ---- helpers used by the rules ------------------------------------------------------

    def current(self) -> str:
        order: list[str] = self.d["order"]
        return order[int(self.d["turns"]) % len(order)]

    def round(self) -> int:
        return min(ROUNDS, int(self.d["turns"]) // len(self.players) + 1)

    def pending(self) -> Decision | None:
        """The decision the rules wait for (None while a draw is awaited and after the end)."""
        t = self.stack[-1]
        return t if isinstance(t, Decision) and not self.over else None

    def decision(self) -> dict[str, Any] | None:
        """The pending decision as the snapshot shows it: ``{"kind": ..., "player": ..., <its fields>}``."""
        t = self.pending()
        return t.view() if t is not None else None

    def unknown_zones(self) -> dict[str, tuple[int, Any, dict[Any, int]]]:
        """None: every tile a player holds or sees is known to all (rules section 14 hides only the
        stacks and the face-down gold tiles, and a gold tile is drawn from its stack when it is
        chosen), so the rollouts resample the stacks' order through their draws and nothing else."""
        return {}

    # ---- scores --------------------------------------------------------------------------

    def score(self) -> dict[str, dict[str, int]]:
        if self._score is None:
            self._score = score_breakdown(self)
        return self._score

    def ranking(self) -> dict[str, int]:
        return ranking(self)

    def evaluate(self, player: str) -> float:
        """Greedy heuristic: :meth:`worth` against the best opponent's."""
        return self.worth(player) - max(self.worth(q) for q in self.players if q != player)

    def worth(self, player: str) -> float:
        """Points so far plus the final scoring as it stands, resources a little."""
        me = self.d["p"][player]
        base = sum(self.score()[player].values())
        if not self.over:
            base += sum(final_points(self, player).values())
        goods = int(me["gold"]) + int(me["stone"])
        spare = int(me["silver"]) + int(me["goldw"]) + int(me["eggs"])
        return base + 0.3 * goods + 0.5 * spare

    def phase(self) -> tuple[int | None, str]:
        d = self.d
        if d["stage"] == "setup":
            return (None, "setup")
        if d["over"]:
            return (ROUNDS, "game over")
        if d["stage"] == "final":
            return (ROUNDS, "final scoring")
        return (self.round(), ERA_PHASE[d["era"]])

    def describe_move(self, player: str, move: Move) -> str:
        return describe(self, player, move)

    def copy(self) -> PragaState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.d = orjson.loads(orjson.dumps(self.d))
        new.stack = self.copied_stack()
        new.stacks = {k: v.copy() for k, v in self.stacks.items()}
        new.milestones = list(self.milestones)
        new.departures = list(self.departures)
        new.taken = list(self.taken)
        new.players = list(self.players)
        new.options = dict(self.options)
        return new

    # ---- views ---------------------------------------------------------------------------

    def observables(self) -> dict[str, Any]:
        ps = self.d["p"]
        return {
            "resources": {p: {"gold": ps[p]["gold"], "stone": ps[p]["stone"], "eggs": ps[p]["eggs"],
                              "silver_windows": ps[p]["silver"], "gold_windows": ps[p]["goldw"]}
                          for p in self.players},
            "tracks": {p: {"mines": ps[p]["mines"], "quarries": ps[p]["quarries"], "technology": ps[p]["tech"],
                           "university": ps[p]["uni"], "kings_road": ps[p]["road"],
                           "hunger_wall": [ps[p]["hunger_wall"]["row"] + 1, ps[p]["hunger_wall"]["col"]],
                           "cathedral": [ps[p]["cathedral"]["row"] + 1, ps[p]["cathedral"]["col"]]}
                       for p in self.players},
            "round": self.round(),
            "era": self.d["era"],
        }

    def snapshot(self) -> dict[str, Any]:
        top = self.stack[-1]
        waiting = not self.over and isinstance(top, (Decision, Draw))
        view = {**self.d,
                "decision": top.view() if waiting and isinstance(top, Decision) else None,
                "chance": top.view() if waiting and isinstance(top, Draw) else None}
        snap: dict[str, Any] = orjson.loads(orjson.dumps(view))
        snap["round"] = self.round()
        snap["to_move"] = snap["decision"]["player"] if snap["decision"] else None
        snap["crane_view"] = crane.crane_view(self)
        snap["stacks"] = {k: {"unseen": v.hidden, "bottom": list(v.bottom)} for k, v in sorted(self.stacks.items())}
        steps = self.stack[1:-1] if waiting else self.stack[1:]
        snap["pending_steps"] = [t.op for t in reversed(steps) if isinstance(t, Step)]
        return snap
