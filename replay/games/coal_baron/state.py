"""The Coal Baron state: setup, the flow of turns and shifts, and the engine protocol.

The rules themselves live in ``rules/`` (one function per action, named as the
rulebook names it); this module keeps the position and drives it.  After every
move or chance outcome :meth:`CoalBaronState._settle` runs the deterministic
steps (refills from known deck tops, next player, shift scoring) until the game
needs a decision or randomness again, and caches whose turn it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from replay.departures import load_departures
from replay.engine import OVER, ChanceRequest, IllegalMove, ImpossibleChance, Move, Outcome, State, Turn
from replay.hidden import HiddenPool, PartlyKnownDeck

from . import moves as mv
from .components import (
    COAL_SUPPLY,
    COLOURS,
    DRAFT_LEFTOVER_SPACE,
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
from .rules import draws, factory, mining, orders, placement, shift
from .scoring import breakdown, final_ranking, imbalance, tiebreak_francs

#: the final-scoring categories and what each counts (the ``final_scoring`` observable)
FINAL_VALUES: dict[str, Callable[[Pit, str], int]] = {
    "end_francs": lambda pit, ruleset: pit.francs,
    "end_coal": lambda pit, ruleset: pit.coal_owned(),
    "end_unfulfilled": lambda pit, ruleset: len(pit.outstanding),
    "end_pit_balance": imbalance,
}

#: which decision each move type answers
MOVE_DECISION: dict[type[Move], str] = {
    mv.DraftOrder: "draft", mv.PlaceWorkers: "place", mv.MoveCage: "mining", mv.LoadCoal: "mining",
    mv.StoreCoal: "mining", mv.FillOrder: "mining", mv.Substitute: "mining", mv.StopMining: "mining",
    mv.KeepTile: "keep_tile", mv.ReturnTiles: "return_tiles", mv.KeepOrder: "keep_order",
    mv.ReturnOrders: "return_orders", mv.ChooseCoal: "choose_coal",
}

AWAITED: dict[str, str] = {
    "draft": "take an order card in the opening draft",
    "place": "place workers on a work space",
    "mining": "spend mining work steps (or stop mining)",
    "keep_tile": "choose which revealed tunnel tile to buy (or none)",
    "return_tiles": "put the other revealed tiles back on the top or bottom of the deck",
    "keep_order": "choose which revealed order card to keep (or none)",
    "return_orders": "put the other revealed order cards back on the top or bottom of the deck",
    "choose_coal": "choose the colour of a cube for a new minecart (the supply lacks its colour)",
}

DOING: dict[str, str] = {
    "draft_order": "take an order card in the draft",
    "place_workers": "place workers",
    "move_cage": "move the cage",
    "load_coal": "load coal into a minecart",
    "store_coal": "store coal in the storage area",
    "fill_order": "deliver an order",
    "substitute": "fill a coal space with two cubes of other colours",
    "stop_mining": "stop mining",
    "keep_tile": "keep a revealed tunnel tile",
    "return_tiles": "put revealed tunnel tiles back",
    "keep_order": "keep a revealed order card",
    "return_orders": "put revealed order cards back",
    "choose_coal": "choose a cube's colour",
}
"""Each move type as the verb phrase an error message uses ("p1 cannot move the cage now")."""


class CoalBaronState(State):
    game_id = "coal_baron"
    departure_rules = load_departures("replay.games.coal_baron")

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        n = len(players)
        setup = SETUP[n]
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
        self.current = 0
        self.draft_pool: list[str | None] = []
        self.draft_turns: list[str] = []
        # the decision awaited (None: chance or automatic steps) and who takes it
        self.decision: str | None = None
        self.actor = ""
        self.space = ""
        self.steps = 0
        self.revealed: list[str | None] = []
        self.shortage_level = 0
        self.shortage_left = 0
        # a draw in progress: deck, how many, what for, drawn so far
        self.draw_deck: PartlyKnownDeck | None = None
        self.draw_need = 0
        self.draw_got: list[str | None] = []
        # which of draw_got came from a known position (top or bottom) rather than the shuffled middle
        self.draw_placed: list[int] = []
        self.draw_purpose = ""
        self.draw_reason = ""
        self.draw_slots: list[str] = []
        self.queue: list[str] = ["refill_tiles", "draft_pool"]
        self.over = False
        self._turn: Turn = OVER
        self._score: dict[str, dict[str, int]] | None = None
        self._settle()

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
        if self.draw_deck is not None:
            new.draw_deck = new.tiles if self.draw_deck is self.tiles else new.orders
        new.factory = dict(self.factory)
        new.order_spaces = dict(self.order_spaces)
        new.occupants = {s: dict(o) for s, o in self.occupants.items()}
        new.draft_pool = self.draft_pool[:]
        new.draft_turns = self.draft_turns[:]
        new.revealed = self.revealed[:]
        new.draw_got = self.draw_got[:]
        new.draw_placed = self.draw_placed[:]
        new.reveals = self.reveals[:]
        new.draw_slots = self.draw_slots[:]
        new.queue = self.queue[:]
        return new

    # ------------------------------------------------------------------
    # the flow
    # ------------------------------------------------------------------

    def turn(self) -> Turn:
        return self._turn

    def _settle(self) -> None:
        """Run automatic steps until a decision or a chance outcome is awaited."""
        while True:
            if self.draw_deck is not None:
                if not self._continue_draw():
                    return
                continue
            if self.decision is not None:
                self._turn = self.actor
                return
            if not self.queue:
                self._turn = OVER
                return
            JOBS[self.queue.pop(0)](self)

    def decide(self, kind: str, player: str) -> None:
        self.decision = kind
        self.actor = player

    def done_deciding(self) -> None:
        self.decision = None

    def start_draw(self, deck: PartlyKnownDeck, need: int, purpose: str, reason: str,
                   slots: list[str] | None = None) -> None:
        self.draw_deck = deck
        self.draw_need = need
        self.draw_got = []
        self.draw_placed = []
        self.draw_purpose = purpose
        self.draw_reason = reason
        self.draw_slots = slots or []

    def _continue_draw(self) -> bool:
        """Draw what is left to draw: the known top first, then the shuffled middle (a chance
        request; only the acting player sees a draw-five), then the known bottom."""
        deck = self.draw_deck
        assert deck is not None
        got = self.draw_got
        while len(got) < self.draw_need:
            if deck.top:
                self.draw_placed.append(len(got))
                got.extend(deck.take_top(1))
            elif deck.hidden:
                private = self.draw_purpose in PRIVATE_DRAWS
                self._turn = deck.request(min(self.draw_need - len(got), deck.hidden), self.draw_reason,
                                          visible_to=(self.actor,) if private else None)
                return False
            elif deck.bottom:
                self.draw_placed.append(len(got))
                got.extend(deck.take_bottom(1))
            else:
                break
        self.draw_deck = None
        DRAW_DONE[self.draw_purpose](self, got)
        return True

    def end_turn(self) -> None:
        """The action is over: refill the board, then the next player."""
        self.decision = None
        self.queue[:0] = ["refill_tiles", "refill_orders", "next_turn"]

    # ---- jobs ------------------------------------------------------------

    def _refill_tiles(self) -> None:
        empty = [s for s, t in self.factory.items() if t is None]
        if empty and len(self.tiles):
            self.start_draw(self.tiles, len(empty), "factory", "refilling " + ", ".join(empty), empty)

    def _refill_orders(self) -> None:
        empty = [s for s, c in self.order_spaces.items() if c is None]
        if empty and len(self.orders):
            self.start_draw(self.orders, len(empty), "order_spaces", "refilling " + ", ".join(empty), empty)

    def _draft_pool(self) -> None:
        n = len(self.players)
        self.start_draw(self.orders, 3 * n + 1, "draft", f"the opening draft: {3 * n + 1} order cards")

    def _start_shift(self) -> None:
        self.shift += 1
        self.current = self.start_player
        self.decide("place", self.players[self.current])

    def _next_turn(self) -> None:
        n = len(self.players)
        for k in range(1, n + 1):
            i = (self.current + k) % n
            if self.pits[self.players[i]].workers > 0:
                self.current = i
                self.decide("place", self.players[i])
                return
        self.queue.insert(0, "end_shift")

    def _end_shift(self) -> None:
        shift.score_shift(self)
        self._score = None
        if self.shift < 3:
            self.start_player = shift.next_start_player(self)
            shift.workers_back(self)
            self.queue.insert(0, "start_shift")
        else:
            shift.final_scoring(self)
            self.over = True

    # ---- draws done ----------------------------------------------------------

    def _fill_factory(self, got: list[str | None]) -> None:
        self._fill_spaces(self.factory, got)

    def _fill_order_spaces(self, got: list[str | None]) -> None:
        self._fill_spaces(self.order_spaces, got)

    def _fill_spaces(self, spaces: dict[str, str | None], got: list[str | None]) -> None:
        """Lay the drawn items face up on the empty spaces, in refill order.  An item drawn from a
        known position of the deck (put back there after a draw-five) is turned face up now: a
        viewer who did not see it put back learns it here, so it is also a ``reveal``."""
        for i, (space, item) in enumerate(zip(self.draw_slots, got)):
            spaces[space] = FACE_DOWN if item is None else item
            if item is not None and i in self.draw_placed:
                self.reveals.append({"reveal": space, "items": [item]})

    def _start_draft(self, got: list[str | None]) -> None:
        n = len(self.players)
        self.draft_pool = list(got)
        lap = [self.players[(self.start_player - 1 - i) % n] for i in range(n)]
        self.draft_turns = lap * 3
        self.decide("draft", self.draft_turns[0])

    def end_draft(self) -> None:
        """The card nobody drafted goes face up on its order space; then fill the others."""
        leftover = self.draft_pool.pop()
        self.order_spaces[DRAFT_LEFTOVER_SPACE] = FACE_DOWN if leftover is None else leftover
        self.decision = None
        self.queue[:0] = ["refill_orders", "start_shift"]

    def _reveal_tiles(self, got: list[str | None]) -> None:
        self.revealed = list(got)
        self.decide("keep_tile", self.actor)

    def _reveal_orders(self, got: list[str | None]) -> None:
        self.revealed = list(got)
        self.decide("keep_order", self.actor)

    # ------------------------------------------------------------------
    # the protocol
    # ------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        if self.decision is None:
            return []
        return LEGAL[self.decision](self, self.actor)

    def _play(self, player: str, move: Move) -> None:
        kind = MOVE_DECISION[type(move)]
        if kind != self.decision:
            awaited = AWAITED.get(self.decision or "", "wait")
            raise IllegalMove(f"{player} cannot {DOING[move.type]} now: {player} must {awaited}")
        PLAY[type(move)](self, player, move)
        self._settle()

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        items = outcome["items"]
        named = [i for i in items if i is not None]
        if len(set(named)) != len(named):
            raise ImpossibleChance(f"the {request.name} deck holds each item once; {items} repeats one")
        if len(items) != request.count:
            raise ImpossibleChance(f"expected {request.count} item(s) from the {request.name} deck, got {len(items)}")
        deck = self.draw_deck
        assert deck is not None
        deck.draw_hidden(list(items), request.reason or f"a draw from the {request.name} deck")
        self.draw_got.extend(items)
        self._settle()

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
        if self.shift == 0:
            return (None, "setup" if self.decision != "draft" else "draft")
        return (self.shift, "work" if self.decision in (None, "place") else self.decision)

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
        t = self._turn
        return {
            "shift": self.shift,
            "phase": self.phase()[1],
            "start_player": self.players[self.start_player],
            "turn": t if isinstance(t, str) else None,
            "chance": {"deck": t.name, "count": t.count, "reason": t.reason}
            if isinstance(t, ChanceRequest) else None,
            "decision": None if self.decision is None else {
                "kind": self.decision, "player": self.actor, "space": self.space or None,
                "steps_left": self.steps if self.decision == "mining" else 0,
                "revealed": list(self.revealed),
                "shortage": {"level": self.shortage_level, "carts": self.shortage_left}
                if self.decision == "choose_coal" else None,
            },
            "board": self._board_snapshot(),
            "draft_pool": list(self.draft_pool),
            "decks": {"tiles": self.tiles.snapshot(), "orders": self.orders.snapshot()},
            "supply": {c: self.supply[i] for i, c in enumerate(COLOURS)},
            "players": {p: {**self.pits[p].snapshot(), "score": self.score()[p]} for p in self.players},
        }


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


#: draws only the acting player sees (the draw-five spaces)
PRIVATE_DRAWS = frozenset({"tile_draw", "order_draw"})

JOBS: dict[str, Callable[[CoalBaronState], None]] = {
    "refill_tiles": CoalBaronState._refill_tiles,
    "refill_orders": CoalBaronState._refill_orders,
    "draft_pool": CoalBaronState._draft_pool,
    "start_shift": CoalBaronState._start_shift,
    "next_turn": CoalBaronState._next_turn,
    "end_shift": CoalBaronState._end_shift,
    "return_tiles": draws.ask_return_tiles,
    "return_orders": draws.ask_return_orders,
}

DRAW_DONE: dict[str, Callable[[CoalBaronState, list[str | None]], None]] = {
    "factory": CoalBaronState._fill_factory,
    "order_spaces": CoalBaronState._fill_order_spaces,
    "draft": CoalBaronState._start_draft,
    "tile_draw": CoalBaronState._reveal_tiles,
    "order_draw": CoalBaronState._reveal_orders,
}

LEGAL: dict[str, Callable[[CoalBaronState, str], list[Move]]] = {
    "draft": orders.draft_moves,
    "place": placement.placement_moves,
    "mining": mining.mining_moves,
    "keep_tile": draws.keep_tile_moves,
    "return_tiles": draws.return_tiles_moves,
    "keep_order": draws.keep_order_moves,
    "return_orders": draws.return_orders_moves,
    "choose_coal": factory.choose_coal_moves,
}

PLAY: dict[type[Move], Callable[[CoalBaronState, str, Any], None]] = {
    mv.DraftOrder: orders.draft_order,
    mv.PlaceWorkers: placement.place_workers,
    mv.MoveCage: mining.move_cage,
    mv.LoadCoal: mining.load_coal,
    mv.StoreCoal: mining.store_coal,
    mv.FillOrder: mining.fill_order,
    mv.Substitute: mining.substitute,
    mv.StopMining: mining.stop_mining,
    mv.KeepTile: draws.keep_tile,
    mv.ReturnTiles: draws.return_tiles,
    mv.KeepOrder: draws.keep_order,
    mv.ReturnOrders: draws.return_orders,
    mv.ChooseCoal: factory.choose_coal,
}

