"""The Praga state on the engine protocol: whose turn, legal moves, play, chance, score, snapshot."""

from __future__ import annotations

from typing import Any

import orjson

from replay.departures import load_departures
from replay.engine import OVER, ChanceRequest, IllegalMove, ImpossibleChance, Move, Outcome, State, Turn
from replay.hidden import PartlyKnownDeck

from . import flow
from .components import ROUNDS
from .decisions import RULES, allows, explain
from .describe import describe
from .rules import crane
from .rules.setup import initial, initial_stacks
from .scoring import final_points, ranking, score_breakdown

ERA_PHASE = {1: "era I", 2: "era II"}
"""The phase label of a round of play, by era."""


class PragaState(State):
    """A game of Praga Caput Regni in progress; the whole position is the plain-JSON dict ``d``."""

    game_id = "praga"
    departure_rules = load_departures("replay.games.praga")
    taken_kinds = ("upgrade tile", "wall tile", "building tile")

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.d: dict[str, Any] = initial(players)
        self.stacks: dict[str, PartlyKnownDeck] = initial_stacks(players)
        self._score: dict[str, dict[str, int]] | None = None
        self._request: ChanceRequest | None = None
        flow.run(self)

    # ---- helpers used by the rules ------------------------------------------------------

    def current(self) -> str:
        order: list[str] = self.d["order"]
        return order[int(self.d["turns"]) % len(order)]

    def round(self) -> int:
        return min(ROUNDS, int(self.d["turns"]) // len(self.players) + 1)

    # ---- protocol ----------------------------------------------------------------------

    def turn(self) -> Turn:
        if self.d["over"]:
            return OVER
        if self.d["chance"] is not None:
            if self._request is None:
                self._request = flow.request(self)
            assert self._request is not None
            return self._request
        player: str = self.d["decision"]["player"]
        return player

    def legal_moves(self) -> list[Move]:
        dec = self.d["decision"]
        if self.d["over"] or self.d["chance"] is not None or dec is None:
            return []
        return RULES[dec["kind"]][0](self, dec)

    def _play(self, player: str, move: Move) -> None:
        dec = self.d["decision"]
        if dec is None or self.d["over"] or self.d["chance"] is not None or not allows(self, dec, move):
            raise IllegalMove(explain(self, dec, move))
        self._apply(dec, move)

    def _play_legal(self, player: str, move: Move) -> None:
        """The trusted path: ``move`` came from :meth:`legal_moves`, so it is not checked again."""
        self._apply(self.d["decision"], move)

    def _apply(self, dec: dict[str, Any], move: Move) -> None:
        # the score is cached until points change (``effects.add_vp``, the final scoring)
        self.d["decision"] = None
        RULES[dec["kind"]][1](self, dec, move)
        flow.run(self)

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        if request.kind == "draw" and len(outcome["items"]) != request.count:
            raise ImpossibleChance(f"the {request.name} draw needs {request.count} tiles")
        self._request = None
        flow.reveal(self, outcome)
        flow.run(self)

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
        if not self.d["over"]:
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
        d = self.d
        snap: dict[str, Any] = orjson.loads(orjson.dumps(
            {k: v for k, v in d.items() if k != "tasks"}))
        snap["round"] = self.round()
        snap["to_move"] = d["decision"]["player"] if d["decision"] else None
        snap["crane_view"] = crane.crane_view(self)
        snap["stacks"] = {k: {"unseen": v.hidden, "bottom": list(v.bottom)} for k, v in sorted(self.stacks.items())}
        snap["pending_steps"] = [t["op"] for t in d["tasks"]]
        return snap
