"""The Coal Baron state: setup, the position, and the engine protocol.

The rules themselves live in ``rules/`` (one function per action, named as the
rulebook names it), and every point where they wait is a task there
(:mod:`.tasks`): the core's task stack (:class:`replay.decisions.TaskState`)
says whose turn it is, lists the legal moves and plays them.  This module keeps
the position and what the snapshot shows of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from replay.decisions import LeaveTable, TaskState
from replay.departures import load_departures, older_code_flag
from replay.engine import ChanceRequest, IllegalMove, ImpossibleChance, Move
from replay.hidden import HiddenPool, PartlyKnownDeck

from . import moves as mv
from .components import (
    CAGE_CAPACITY,
    COAL_SUPPLY,
    COLOURS,
    FACE_DOWN,
    FACTORY_REFILL_ORDER,
    ORDER_IDS,
    ORDER_REFILL_ORDER,
    SETUP,
    TILE_IDS,
    usable_spaces,
)
from .describe import describe
from .evaluate import evaluate
from .pit import Pit
from .rules import mining, orders, turns
from .scoring import breakdown, final_ranking, imbalance, tiebreak_francs
from .tasks import Task

#: the final-scoring categories and what each counts (the ``final_scoring`` observable)
FINAL_VALUES: dict[str, Callable[[Pit, str], int]] = {
    "end_francs": lambda pit, ruleset: pit.francs,
    "end_coal": lambda pit, ruleset: pit.coal_owned(),
    "end_unfulfilled": lambda pit, ruleset: len(pit.outstanding),
    "end_pit_balance": imbalance,
}


BGA_OLD_CAGE_CAPACITY = 6
"""What BGA's Coal Baron let the cage carry until its code was fixed on 27 May 2024."""


def cage_capacity(options: dict[str, Any], ruleset: str) -> int:
    """The option ``cage_capacity``: the rulebook's 5 by default; 6 only under ``bga``, for a game BGA's
    code played before it was fixed (departure ``cage_holds_six``)."""
    n = options.get("cage_capacity", CAGE_CAPACITY)
    if n == CAGE_CAPACITY and not isinstance(n, bool):
        return CAGE_CAPACITY
    if n == BGA_OLD_CAGE_CAPACITY and not isinstance(n, bool) and ruleset == "bga":
        return BGA_OLD_CAGE_CAPACITY
    raise IllegalMove(f"cage_capacity must be {CAGE_CAPACITY} (the rulebook's), or {BGA_OLD_CAGE_CAPACITY} under the "
                      f"bga ruleset (BGA's code before 27 May 2024), not {n!r}")


class CoalBaronState(TaskState[Task]):
    game_id = "coal_baron"
    departure_rules = load_departures("replay.games.coal_baron")

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        n = len(players)
        setup = SETUP[n]
        self.cage_capacity: int = cage_capacity(options, self.ruleset)
        """How many cubes the pit cage carries: 5, or 6 under ``bga`` where the record says BGA's
        code of before 27 May 2024 played it (option ``cage_capacity``)."""
        self.two_way_tie_second: bool = older_code_flag(options, "second_place_after_two_way_tie", self.ruleset,
                                                        "7 July 2024")
        """Under ``bga``: whether a tie of two for first still leaves second place to award, as BGA's
        code did before 7 July 2024 (option ``second_place_after_two_way_tie``)."""
        self.usable: tuple[str, ...] = usable_spaces(n)
        self.pits: dict[str, Pit] = {p: Pit(setup.francs, setup.workers) for p in players}
        # coal in the general supply, per colour (the printed carts took one of each per player
        # from the physical supply; BGA keeps its 32 per colour apart from those)
        start = COAL_SUPPLY[self.ruleset]
        self.supply: list[int] = [start - (n if self.ruleset == "official" else 0)] * len(COLOURS)
        # every tile and card is accounted for in its family's pool, wherever it lies; the decks
        # draw from them (a record seen from one seat leaves some identities unknown)
        self.tile_pool = HiddenPool("tiles", [(t, 1) for t in TILE_IDS])
        self.order_pool = HiddenPool("orders", [(o, 1) for o in ORDER_IDS])
        self.tiles = PartlyKnownDeck("tiles", self.tile_pool)
        self.orders = PartlyKnownDeck("orders", self.order_pool)
        self.factory: dict[str, str | None] = {s: None for s in FACTORY_REFILL_ORDER if s in self.usable}
        self.order_spaces: dict[str, str | None] = {s: None for s in ORDER_REFILL_ORDER if s in self.usable}
        self.occupants: dict[str, dict[str, int]] = {}
        self.shift = 0
        self.start_player = 0
        self.draft_pool: list[str | None] = []
        self.space = ""
        """The work space of the last placement."""
        self.revealed: list[str | None] = []
        """The items a draw-five space revealed that are not yet taken or put back."""
        self.tiles_aside: tuple[str | None, ...] = ()
        self.orders_aside: tuple[str | None, ...] = ()
        """Under ``bga``: the items a player who left the table left aside at a draw-five's choice,
        which the next draw-five of that deck offers again (:func:`.rules.draws.leave_aside`)."""
        self._score: dict[str, dict[str, int]] | None = None
        orders.reveal_draft(self)
        turns.refill(self, turns.RefillFactoryTask)
        self.advance()

    # ------------------------------------------------------------------
    # copying
    # ------------------------------------------------------------------

    def copy(self) -> CoalBaronState:
        new = CoalBaronState.__new__(CoalBaronState)
        new.__dict__.update(self.__dict__)
        new.milestones = self.milestones[:]
        new.departures = self.departures[:]
        new.taken = self.taken[:]
        new.pits = {p: pit.copy() for p, pit in self.pits.items()}
        new.supply = self.supply[:]
        new.tile_pool = self.tile_pool.copy()
        new.order_pool = self.order_pool.copy()
        new.tiles = self.tiles.copy(new.tile_pool)
        new.orders = self.orders.copy(new.order_pool)
        new.factory = dict(self.factory)
        new.order_spaces = dict(self.order_spaces)
        new.occupants = {s: dict(o) for s, o in self.occupants.items()}
        new.draft_pool = self.draft_pool[:]
        new.revealed = self.revealed[:]
        new.reveals = self.reveals[:]
        new.stack = self.copied_stack()
        return new

    # ------------------------------------------------------------------
    # what is pending
    # ------------------------------------------------------------------

    def pending(self) -> Task | None:
        """The decision awaited (None while chance is awaited and after the end)."""
        if self.over:
            return None
        t = self.stack[-1]
        return t if t.decision else None

    @property
    def decision(self) -> str | None:
        """The kind of the decision awaited (``place``, ``mining``...; None while chance is
        awaited and after the end)."""
        t = self.pending()
        return None if t is None else t.kind

    @property
    def actor(self) -> str:
        """Who takes the decision awaited."""
        t = self.pending()
        return "" if t is None else t.player

    @property
    def steps(self) -> int:
        """The work steps left to the player mining (0 when nobody is)."""
        t = self.pending()
        return t.steps if isinstance(t, mining.MiningTask) else 0

    # ------------------------------------------------------------------
    # the protocol
    # ------------------------------------------------------------------

    def unknown_zones(self) -> dict[str, tuple[int, Any, dict[Any, int]]]:
        """Every factory or order space where a tile or card lies face down (one item, nothing known)."""
        out: dict[str, tuple[int, Any, dict[Any, int]]] = {}
        for spaces, pool in ((self.factory, self.tile_pool), (self.order_spaces, self.order_pool)):
            out.update({zone: (1, pool, {}) for zone, held in spaces.items() if held == FACE_DOWN})
        return out

    def _reveal_zone(self, zone: str, items: list[Any]) -> None:
        """A ``reveal`` names the tile or card lying face down on a factory or order space."""
        if zone in self.factory:
            spaces, pool, what = self.factory, self.tile_pool, "tunnel tile"
        elif zone in self.order_spaces:
            spaces, pool, what = self.order_spaces, self.order_pool, "order card"
        else:
            raise ImpossibleChance(f"a Coal Baron reveal names a usable factory or order space "
                                   f"({', '.join([*self.factory, *self.order_spaces])}), not {zone!r}")
        if len(items) != 1:
            raise ImpossibleChance(f"{zone} holds one {what}; a reveal there names one, not {len(items)}")
        item = items[0]
        held = spaces[zone]
        if held is None:
            raise ImpossibleChance(f"{zone}: no {what} lies there to be revealed")
        if held == FACE_DOWN:
            pool.see(item, zone)
            spaces[zone] = item
        elif held != item:
            raise ImpossibleChance(f"{zone}: {held} lies there, not {item}")

    def redact_move(self, player: str, move: Move, viewer: str) -> Move:
        """The draw-five returns: the others see how many went back, and where, not which."""
        if viewer == player:
            return move
        if isinstance(move, mv.ReturnTiles):
            return mv.ReturnTiles(to=move.to, tiles=tuple(None for _ in move.tiles))
        if isinstance(move, mv.ReturnOrders):
            return mv.ReturnOrders(to=move.to, cards=tuple(None for _ in move.cards))
        return move

    def score(self) -> dict[str, dict[str, int]]:
        if self._score is None:
            self._score = {p: breakdown(self.pits[p]) for p in self.players}
        return self._score

    def invalidate_score(self) -> None:
        self._score = None

    def ranking(self) -> dict[str, int]:
        return final_ranking(self.totals(), {p: tiebreak_francs(self.pits[p]) for p in self.players})

    def phase(self) -> tuple[int | None, str]:
        if self.over:
            return (3, "over")
        t = self.stack[-1]  # (what :attr:`decision` says, without its two calls: once per event)
        kind = t.kind if t.decision else None
        if self.shift == 0:
            return (None, "setup" if kind != "draft" else "draft")
        return (self.shift, "work" if kind is None or kind == "place" else kind)

    def describe_move(self, player: str, move: Move) -> str:
        return describe(self, player, move)

    def evaluate(self, player: str) -> float:
        return evaluate(self, player)

    def observables(self) -> dict[str, Any]:
        return {
            "shift": self.shift,
            "start_player": self.players[self.start_player],
            "francs": {p: self.pits[p].francs for p in self.players},
            "workers": {p: self.pits[p].workers for p in self.players},
            "cage_level": {p: self.pits[p].cage_level for p in self.players},
            "outstanding": {p: len(self.pits[p].outstanding) for p in self.players},
            "delivered": {p: len(self.pits[p].delivered) for p in self.players},
            "shift_ranking": self.shift_rankings(),
            "final_scoring": self.final_scoring(),
        }

    def shift_rankings(self) -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
        """``{shift: {category: {player: {value, rank, points}}}}`` of the shifts scored so far."""
        out: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        for m in self.milestones:
            if m["type"] == "shift_ranking":
                cat = out.setdefault(str(m["shift"]), {}).setdefault(m["category"], {})
                cat[m["player_id"]] = {"value": m["value"], "rank": m["rank"], "points": m["points"]}
        return out

    def final_scoring(self) -> dict[str, dict[str, dict[str, int]]]:
        """``{category: {player: {value, points}}}`` once the game is over (francs, coal owned,
        outstanding cards, tiles of imbalance), else empty."""
        if not self.over:
            return {}
        score = self.score()
        return {cat: {p: {"value": value(self.pits[p], self.ruleset), "points": score[p][cat]}
                      for p in self.players}
                for cat, value in FINAL_VALUES.items()}

    def snapshot(self) -> dict[str, Any]:
        t = self.turn()
        pending = self.pending()
        return {
            "shift": self.shift,
            "phase": self.phase()[1],
            "start_player": self.players[self.start_player],
            "turn": t if isinstance(t, str) else None,
            "chance": {"deck": t.name, "count": t.count, "reason": t.reason}
            if isinstance(t, ChanceRequest) else None,
            "decision": None if pending is None else pending.view(self),
            "board": self._board_snapshot(),
            "draft_pool": list(self.draft_pool),
            "decks": {"tiles": self.tiles.snapshot(), "orders": self.orders.snapshot()},
            "supply": {c: self.supply[i] for i, c in enumerate(COLOURS)},
            "players": {p: {**self.pits[p].snapshot(), "score": self.score()[p]} for p in self.players},
            **({"left": list(self.left)} if self.left else {}),
            **({"aside": {"tiles": list(self.tiles_aside), "orders": list(self.orders_aside)}}
               if self.tiles_aside or self.orders_aside else {}),
        }

    def player_left(self, task: Task, player: str) -> None:
        turns.zombie_pass(self, task, player)

    def _move_before_chance(self, player: str, move: Move) -> bool:
        """A player who leaves while the refill after their turn awaits its draw (BGA's zombie did
        not confirm the turn: :func:`turns.left_before_confirming`)."""
        return type(move) is LeaveTable and turns.left_before_confirming(self, player)

    def _board_snapshot(self) -> dict[str, Any]:
        face_down = [s for s, x in (*self.factory.items(), *self.order_spaces.items()) if x == FACE_DOWN]
        board: dict[str, Any] = {
            "usable": list(self.usable),
            "factory": {s: None if t == FACE_DOWN else t for s, t in self.factory.items()},
            "orders": {s: None if c == FACE_DOWN else c for s, c in self.order_spaces.items()},
            "workers": {s: dict(sorted(o.items())) for s, o in self.occupants.items()},
        }
        if face_down:
            board["face_down"] = face_down
        return board
