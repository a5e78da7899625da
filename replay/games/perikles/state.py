"""The Perikles state on the engine protocol: its tasks (``tasks.py``) say whose turn it is and
what is legal; here the standing permissions, reveals, score and snapshot."""

from __future__ import annotations

from typing import Any

from replay.departures import load_departures
from replay.engine import GameOverError, IllegalMove, Move

from . import unknowns
from .board import Board
from .components import CITY, CITY_KEYS, LOCATION, PERSIA, UNITS
from .describe import describe
from .moves import ANY_TIME, ResendUnit, SendUnit, SetPermission
from .phases import battles, commitment
from .scoring import ranking, score_breakdown
from .tasks import DealInfluenceTiles, RevealCounters


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


FLAT = frozenset({
    "alpha", "beta", "leader", "defeats", "persian_leaders", "display", "spent", "locations", "dealt_locations",
    "location_vp", "unclaimed", "special", "special_used", "unit_at", "unit_holder", "unit_location", "unit_side",
    "unit_main", "away", "turn_sent", "relations", "tokens", "window",
})
"""The state's dicts and lists that never hold a dict or a list: a copy copies them one level deep
(``tests/games/perikles/test_tasks.py`` checks it at every state of simulated games)."""
SHALLOW = FLAT | {"milestones", "departures", "taken"}
"""Copied one level deep: :data:`FLAT`, and the records' lists (their items are never changed)."""


class PeriklesState(Board):
    """A game of Perikles in progress."""

    game_id = "perikles"
    departure_rules = load_departures("replay.games.perikles")
    taken_kinds = ("influence tile",)

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.push(DealInfluenceTiles())
        self.advance()

    # ---- protocol (the rest comes from the tasks) ---------------------------

    def _move_at_once(self, player: str, move: Move) -> bool:
        """A move of :data:`~.moves.ANY_TIME` (a leader's standing permission) may come whoever is to
        move, even while chance is awaited: checked and applied like any move, and whose turn it is
        does not change.  Every other move goes the core's way."""
        if type(move) in ANY_TIME:
            if self.over:
                raise GameOverError(f"the game is over; {player} cannot play {move.type}")
            self.set_permission(player, move)
            return True
        return super()._move_at_once(player, move)

    def _play_legal(self, player: str, move: Move) -> None:
        if type(move) in ANY_TIME:
            self.set_permission(player, move)
            return
        super()._play_legal(player, move)

    def set_permission(self, player: str, move: Move) -> None:
        """The leader of a location's city grants or revokes a power's standing permission to defend it."""
        assert isinstance(move, SetPermission)
        why = commitment.set_permission_check(self, player, move)
        if why is not None:
            raise IllegalMove(why)
        commitment.set_permission(self, player, move)

    def _reveal_zone(self, zone: str, items: list[Any]) -> None:
        """``{"reveal": "location:<key>", "items": [unit ids]}``: the counters at a location turned up (or a
        zone of :meth:`unknown_zones` dealt).  When the battles wait for that location's counters and
        none is face down any more, they go on."""
        unknowns.reveal(self, zone, items)
        if not self.over:
            top = self.stack[-1]
            if type(top) is RevealCounters and not unknowns.face_down_at(self, self.current_location().key):
                self.pop(top)
                self.advance()

    def unknown_zones(self) -> dict[str, tuple[int, Any, dict[Any, int]]]:
        """Secret special tiles, display tiles never named, units sent face down (``unknowns.py``)."""
        return dict(unknowns.unknown_zones(self))

    def redact_move(self, player: str, move: Move, viewer: str) -> Move:
        """A unit goes face down: only its sender (and, for Persians, every Persian leader) sees which."""
        if isinstance(move, (SendUnit, ResendUnit)) and player != viewer and move.strength is not None:
            if not (move.power == PERSIA and player in self.persian_leaders and viewer in self.persian_leaders):
                return type(move)(power=move.power, unit_type=move.unit_type, strength=None,
                                  location=move.location, side=move.side)
        return move

    # ---- scores -------------------------------------------------------------------

    def score(self) -> dict[str, dict[str, int]]:
        if self._score_cache is None:
            self._score_cache = score_breakdown(self)
        return self._score_cache

    def ranking(self) -> dict[str, int]:
        return ranking(self)

    def evaluate(self, player: str) -> float:
        """Greedy heuristic: score lead, plus a little for leaderships and candidacies."""
        totals = self.totals()
        others = max(v for p, v in totals.items() if p != player)
        bonus = sum(2.0 for c in CITY_KEYS if self.leader[c] == player)
        bonus += sum(1.0 for c in CITY_KEYS if self.alpha[c] == player)
        bonus += sum(0.5 for c in CITY_KEYS if self.beta[c] == player)
        return totals[player] - others + bonus

    def phase(self) -> tuple[int | None, str]:
        return (self.round, "game end" if self.over else self.stack[-1].phase)

    def describe_move(self, player: str, move: Move) -> str:
        return describe(self, player, move)

    def copy(self) -> PeriklesState:
        new = object.__new__(type(self))
        new.__dict__.update({k: v.copy() if k in SHALLOW else _clone(v) for k, v in self.__dict__.items()
                             if k != "stack"})
        new.stack = self.copied_stack()
        new._memo = None
        return new

    # ---- views --------------------------------------------------------------------------

    def observables(self) -> dict[str, Any]:
        return {
            "cubes": {p: self.cubes_on_board(p) for p in self.players},
            "location_points": dict(self.location_vp),
            "defeats": dict(self.defeats),
            "leaders": dict(self.leader),
            "round": self.round,
            "start_player": self.start_player,
            "statues": {c: dict(self.statues[c]) for c in CITY_KEYS},
            "statue_points": {c: {p: n * CITY[c].statue_value(self.defeats[c]) for p, n in self.statues[c].items()}
                              for c in CITY_KEYS},
            "city_cubes": {c: dict(self.cubes[c]) for c in CITY_KEYS},
            "combat": battles.combat_view(self),
            "permissions": {loc: sorted(self.permissions.get(loc, ())) for loc in self.locations},
            "claims": self.claims(),
        }

    def claims(self) -> dict[str, list[str]]:
        """Every location fought so far -> who claimed it (several shared Persian leaders; none: unclaimed)."""
        out: dict[str, list[str]] = {loc: [] for loc in self.unclaimed}
        for p in self.players:
            for loc in self.claimed[p]:
                out.setdefault(loc, []).append(p)
        return {loc: sorted(out[loc]) for loc in sorted(out)}

    def snapshot(self) -> dict[str, Any]:
        t = self.turn()
        to_move = t if isinstance(t, str) else None
        stage, step = ("over", "done") if self.over else self.stack[-1].view(self)
        phase = self.phase()[1]
        at, holder, where, sides, main = self.unit_at, self.unit_holder, self.unit_location, self.unit_side, self.unit_main
        return {
            "round": self.round,
            "phase": phase,
            "stage": stage,
            "step": step,
            "to_move": to_move,
            "first_player": self.first_player,
            "start_player": self.start_player,
            "over": self.over,
            "cities": {c: {
                "cubes": dict(self.cubes[c]),
                "alpha": self.alpha[c],
                "beta": self.beta[c],
                "leader": self.leader[c],
                "statues": dict(self.statues[c]),
                "defeats": self.defeats[c],
                "statue_value": CITY[c].statue_value(self.defeats[c]),
            } for c in CITY_KEYS},
            "persia": {"leaders": list(self.persian_leaders)},
            "units": {u.id: {
                "power": u.power, "type": u.type, "strength": u.strength,
                "at": at[u.id], "holder": holder[u.id], "location": where[u.id], "side": sides[u.id], "main": main[u.id],
            } for u in UNITS},
            "influence": {
                "display": list(self.display),
                "hands": {p: list(h) for p, h in self.hands.items()},
                "spent": list(self.spent),
            },
            "locations": {
                "slots": [{"slot": i + 1, "key": k, "owner": LOCATION[k].owner, "vp": LOCATION[k].vp,
                           "resolved": i < self.battle_slot and phase in ("battles", "end of round")}
                          for i, k in enumerate(self.locations)],
                "claimed": {p: list(v) for p, v in self.claimed.items()},
                "unclaimed": list(self.unclaimed),
                "dealt": list(self.dealt_locations),
                "main_players": {k: dict(v) for k, v in sorted(self.main_player.items())},
                "permissions": {k: list(v) for k, v in sorted(self.permissions.items())},
            },
            "relations": dict(sorted(self.relations.items())),
            "specials": {p: {"tile": self.special[p], "used": self.special_used[p]} for p in self.players},
            "military": {
                "first_committer": self.first_committer, "shards": self.commit_shards,
                "sent": self.commit_sent, "cube_city": self.commit_cube_city,
                "permission_request": None if self.permission_request is None else dict(self.permission_request),
                "next": self.commit_next, "denied": [list(d) for d in self.commit_denied],
                "granted": self.commit_granted, "free_turn_for": self.free_turn_for,
                "recovery_queue": [list(q) for q in self.recovery_queue], "revolt_target": self.revolt_target,
                **({"face_down": [dict(f) for f in self.face_down], "away": dict(sorted(self.away.items()))}
                   if self.face_down else {}),
                **({"turn_sent": list(self.turn_sent), "turn_face_down": self.turn_face_down}
                   if self.ruleset == "bga" else {}),
            },
            "turn_progress": {
                "placements_left": self.placements_left, "tiles_taken": self.takes, "refill_slot": self.refill_slot,
                "special_played_this_turn": self.special_played_this_turn, "alkibiades_left": self.alkibiades_left,
                "resume_step": self.resume_step, "last_athens_leader": self.last_athens_leader,
            },
            "battle": battles.battle_view(self),
            "location_points": dict(self.location_vp),
        }

