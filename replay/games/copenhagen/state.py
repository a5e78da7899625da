"""The Copenhagen state: setup, the position, score, snapshot.

What the rules wait for is a stack of tasks (:mod:`replay.decisions`), one per step of the turn,
declared in :mod:`steps`; the state's ``step`` names the step on top (``over`` once the game
has ended), and ``must_discard`` says the hand limit is to be kept first.
"""

from __future__ import annotations

from typing import Any

from replay.decisions import TaskState
from replay.departures import load_departures
from replay.engine import IllegalMove, ImpossibleChance, Move
from replay.games.copenhagen import legal
from replay.games.copenhagen.board import Player
from replay.games.copenhagen.components import components
from replay.games.copenhagen.describe import evaluate
from replay.games.copenhagen.rules import harbour
from replay.games.copenhagen.scoring import CATEGORIES
from replay.games.copenhagen.steps import END_POINTS, DealHarbour, zombie_pass
from replay.games.copenhagen.steps import Task as Step
from replay.hidden import reveal_in

OBSERVABLE_KEYS: tuple[str, ...] = (
    "score", "legal_count", "state_hash", "hand_size", "harbour", "covered", "deck_size", "abilities", "rebuilds",
)
MIN_CARDS_PER_COLOR = 6  # 30 cards: the harbour and the largest deal stay clear of the bottom ten


class CopenhagenState(TaskState[Step]):
    game_id = "copenhagen"
    departure_rules = load_departures("replay.games.copenhagen")

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        comp = components()
        n = len(players)
        per_color = options.get("cards_per_color", comp.cards_per_color[n])
        if not isinstance(per_color, int) or isinstance(per_color, bool) or per_color < MIN_CARDS_PER_COLOR:
            raise IllegalMove(f"cards_per_color must be a whole number of at least {MIN_CARDS_PER_COLOR}, "
                              f"not {per_color!r}")
        self.seats: dict[str, Player] = {pid: Player(pid, CATEGORIES) for pid in players}
        self.cards, self.deck = harbour.new_deck(per_color)
        self.discard: dict[str, int] = {c: 0 for c in comp.colors}
        self.mermaid = harbour.DECK if comp.mermaid_enters[n] == "setup" else "aside"
        self.harbour: list[str | None] = [None] * comp.harbour_slots
        self.tiles: dict[str, int] = comp.tile_supply(n)
        self.white = comp.white_count
        self.ability_supply: dict[str, int] = {a.id: 0 if a.starts_owned else n for a in comp.abilities}
        self.dealt = 0  # starting hands dealt so far
        self.current = 0
        self.turns = 0  # turns completed
        self.first_slot: int | None = None
        self.cards_taken = 0
        self.must_discard = False
        self.pending_arms = 0
        self.rebuilds = 0
        self.end: str | None = None
        self._score: dict[str, dict[str, int]] | None = None
        self.step = DealHarbour.step
        """The name of the step on top of the stack (a discard on top keeps the step it
        interrupts), ``over`` once the game has ended: kept by :func:`steps.goto`, read by every
        frame (:meth:`phase`) and shown by the snapshot."""
        self.push(DealHarbour(players[0]))

    def unknown_zones(self) -> dict[str, tuple[int, Any, dict[Any, int]]]:
        """Every hand with cards drawn face down (``hand:<player>``)."""
        return {f"hand:{pid}": (seat.hand[None], self.cards, {c: n for c, n in seat.hand.items() if c is not None})
                for pid, seat in self.seats.items() if seat.hand.get(None, 0)}

    def _reveal_zone(self, zone: str, items: list[Any]) -> None:
        """``{"reveal": "hand:p2", "items": ["red"]}``: cards shown to be in p2's hand
        (known ones are consistent; the rest name unknown cards, which must be able to be them)."""
        kind, _, pid = zone.partition(":")
        if kind != "hand" or pid not in self.seats:
            raise ImpossibleChance(f"Copenhagen reveals cards only in a hand ('hand:<player>'), "
                                   f"not in {zone!r}")
        comp = components()
        for item in items:
            if item not in comp.colors:
                raise ImpossibleChance(f"{pid}'s hand cannot show {item!r}: the card colours are "
                                       f"{', '.join(comp.colors)}")
        reveal_in(self.seats[pid].hand, items, self.cards, f"{pid}'s hand")

    # ---- moves (the steps' candidates and checks: see steps.py) ---------------

    def legal_count(self) -> int:
        if not isinstance(self.turn(), str):
            return 0
        return legal.legal_count(self)

    def points_changed(self) -> None:
        """Called whenever a player scores: the score is made again when next asked for."""
        self._score = None

    # ---- score and results ----------------------------------------------

    def score(self) -> dict[str, dict[str, int]]:
        if self._score is None:
            self._score = {pid: self.seats[pid].score for pid in self.players}
        return self._score

    def ranking(self) -> dict[str, int]:
        """Most points; tiebreak: fewer empty cells on the facade; still tied: shared victory.

        BGA computes that tiebreak only when the mermaid ends the game: after a 12-point end,
        players level on points share their rank there (ruleset ``bga``).
        """
        return self.ranking_by(tiebreak=not (self.ruleset == "bga" and self.end == END_POINTS))

    def ranking_by(self, tiebreak: bool) -> dict[str, int]:
        """Ranks by points, then (``tiebreak``) by fewer empty cells."""
        key = {pid: (-self.seats[pid].total, self.seats[pid].facade.empty_count() if tiebreak else 0)
               for pid in self.players}
        return {pid: 1 + sum(1 for q in self.players if key[q] < key[pid]) for pid in self.players}

    def phase(self) -> tuple[int | None, str]:
        if self.step in ("deal_harbour", "deal_hands"):
            return (None, "setup")
        return (self.turns // len(self.players) + 1, self.step)

    # ---- views -----------------------------------------------------------

    def observables(self) -> dict[str, Any]:
        return {
            "hand_size": {pid: self.seats[pid].hand_size for pid in self.players},
            "harbour": list(self.harbour),
            "covered": {pid: self.seats[pid].facade.covered_count() for pid in self.players},
            "deck_size": harbour.deck_size(self),
            "abilities": {pid: {a: ("used" if used else "unused") for a, used in self.seats[pid].abilities.items()}
                          for pid in self.players},
            "rebuilds": self.rebuilds,
        }

    def snapshot(self) -> dict[str, Any]:
        comp = components()
        return {
            "players": {
                pid: {
                    "board": p.facade.rows(),
                    "hand": p.hand_view(),
                    "abilities": {a: ("used" if used else "unused") for a, used in p.abilities.items()},
                    "score": dict(p.score),
                    "total": p.total,
                }
                for pid, p in ((pid, self.seats[pid]) for pid in self.players)
            },
            "harbour": list(self.harbour),
            "deck": harbour.deck_counts(self),
            "deck_size": harbour.deck_size(self),
            "discard": dict(self.discard),
            "mermaid": self.mermaid,
            "rebuilds": self.rebuilds,
            "supply": {
                "tiles": dict(self.tiles),
                comp.white: self.white,
                "abilities": dict(self.ability_supply),
            },
            "turn": {
                "player": self.players[self.current],
                "step": self.step,
                "turns_done": self.turns,
                "first_slot": self.first_slot,
                "cards_taken": self.cards_taken,
                "must_discard": self.must_discard,
                "pending_coats_of_arms": self.pending_arms,
                "dealt_hands": self.dealt,
            },
            "end": self.end,
            **({"left": list(self.left)} if self.left else {}),
        }

    def player_left(self, task: Step, player: str) -> None:
        zombie_pass(self)

    def describe_move(self, player: str, move: Move) -> str:
        from replay.games.copenhagen.describe import describe

        return describe(self, player, move)

    def evaluate(self, player: str) -> float:
        return evaluate(self, player)

    def copy(self) -> CopenhagenState:
        new = CopenhagenState.__new__(CopenhagenState)
        new.__dict__.update(self.__dict__)
        new.seats = {pid: p.copy() for pid, p in self.seats.items()}
        new.cards = self.cards.copy()
        new.deck = self.deck.copy(new.cards if self.deck.pool is self.cards else None)
        new.discard = dict(self.discard)
        new.harbour = list(self.harbour)
        new.tiles = dict(self.tiles)
        new.ability_supply = dict(self.ability_supply)
        new.milestones = list(self.milestones)
        new.departures = list(self.departures)
        new.taken = list(self.taken)
        new.stack = self.copied_stack()
        new._score = None
        return new
