"""The Copenhagen state: setup, the turn sequence, chance, score, snapshot.

Turn steps (``step``):

``deal_harbour``, ``deal_hands``   setup draws (chance)
``start``               take a first card, or build a tile
``second_card``         take the second card (next to the first, or anywhere with any cards)
``after_taking``        take a third card (additional card), use both actions, or end the turn
``build_after_taking``  build a tile, or end the turn (the build of both actions is optional)
``coat_of_arms``        choose a bonus for each coat of arms earned
``refill``              the harbour is refilled slot by slot (chance)
``over``                the game has ended

Whenever the player holds more than 7 cards after a card is taken,
``must_discard`` is set and the only moves are discards.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from replay.departures import load_departures
from replay.engine import OVER, ChanceRequest, IllegalMove, ImpossibleChance, Move, Outcome, State, Turn
from replay.games.copenhagen import legal
from replay.games.copenhagen.board import Player
from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import Placement
from replay.games.copenhagen.moves import (
    BothActions,
    Build,
    Discard,
    EndTurn,
    PlaceWhite,
    RefreshAbilities,
    TakeAbility,
    TakeCard,
)
from replay.games.copenhagen.rules import arms, building, harbour, taking
from replay.games.copenhagen.scoring import CATEGORIES, add_points, completions
from replay.hidden import reveal_in

OBSERVABLE_KEYS: tuple[str, ...] = (
    "score", "legal_count", "state_hash", "hand_size", "harbour", "covered", "deck_size", "abilities", "rebuilds",
)
MIN_CARDS_PER_COLOR = 6  # 30 cards: the harbour and the largest deal stay clear of the bottom ten

END_POINTS = "12_points"
END_MERMAID = "mermaid"


class CopenhagenState(State):
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
        self.step = "deal_harbour"
        self.dealt = 0  # starting hands dealt so far
        self.current = 0
        self.turns = 0  # turns completed
        self.first_slot: int | None = None
        self.cards_taken = 0
        self.must_discard = False
        self.pending_arms = 0
        self.rebuilds = 0
        self.end: str | None = None
        self._request: ChanceRequest | None = None
        self._score: dict[str, dict[str, int]] | None = None

    # ---- whose turn ------------------------------------------------------

    def turn(self) -> Turn:
        step = self.step
        if step == "over":
            return OVER
        if step in ("deal_harbour", "deal_hands", "refill"):
            if self._request is None:
                self._request = self._chance_request()
            return self._request
        return self.players[self.current]

    def _chance_request(self) -> ChanceRequest:
        comp = components()
        if self.step == "deal_harbour":
            return harbour.draw_request(self, comp.harbour_slots, "the first 7 harbour cards, slots 1 to 7")
        if self.step == "deal_hands":
            pid = self.players[self.dealt]
            n = comp.starting_hands[self.dealt]
            return harbour.draw_request(self, n, f"{pid}'s starting hand, turn position {self.dealt + 1}",
                                        visible_to=(pid,))
        slot = harbour.next_empty_slot(self)
        return harbour.draw_request(self, 1, "refill " + (harbour.slot_name(slot) if slot is not None else "the harbour"))

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        items: list[str | None] = list(outcome["items"])
        self._request = None
        if self.step == "deal_harbour":
            harbour.deal_harbour(self, items)
            self.step = "deal_hands"
        elif self.step == "deal_hands":
            harbour.deal_starting_hand(self, self.players[self.dealt], items)
            self.dealt += 1
            if self.dealt == len(self.players):
                self.step = "start"
        else:
            slot = harbour.next_empty_slot(self)
            assert slot is not None
            harbour.refill_slot(self, slot, items[0])
            if self.mermaid == "harbour":
                self._game_over(END_MERMAID)
            else:
                self._refill()

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

    # ---- moves -----------------------------------------------------------

    def legal_moves(self) -> Iterator[Move]:
        return legal.legal_moves(self)

    def legal_count(self) -> int:
        if not isinstance(self.turn(), str):
            return 0
        return legal.legal_count(self)

    def _play(self, player: str, move: Move) -> None:
        if self.must_discard and not isinstance(move, Discard):
            p = self.seats[player]
            raise IllegalMove(f"{player} must first discard a card: {player} holds {p.hand_size} cards "
                              f"and the hand limit is {components().hand_limit}")
        handler = _HANDLERS.get(type(move))
        if handler is None:  # pragma: no cover - the record reader only admits this game's moves
            raise IllegalMove(f"{player} cannot play {move.type} in Copenhagen")
        handler(self, player, move)

    def _wrong_step(self, player: str, what: str) -> IllegalMove:
        now = {
            "start": "the turn has just begun: take a first card or build a tile",
            "second_card": "the second card is due",
            "after_taking": "the cards are taken: take a third card (additional card), use both actions, "
                            "or end the turn",
            "build_after_taking": "both actions is in play: build a tile or end the turn",
            "coat_of_arms": f"{self.pending_arms} coat-of-arms bonus(es) must be chosen first",
        }.get(self.step, self.step)
        if self.must_discard:
            now = "a card must be discarded first"
        return IllegalMove(f"{player} cannot {what} now: {now}")

    def play_take_card(self, player: str, move: TakeCard) -> None:
        if self.must_discard:
            raise self._wrong_step(player, "take a card")
        if self.step == "start":
            taking.take_first_card(self, player, move.slot)
        elif self.step == "second_card":
            taking.take_second_card(self, player, move.slot)
        elif self.step == "after_taking":
            taking.take_additional_card(self, player, move.slot)
        else:
            raise self._wrong_step(player, "take a card")
        if not self.must_discard:
            self._continue_taking()

    def play_discard(self, player: str, move: Discard) -> None:
        if not self.must_discard:
            p = self.seats[player]
            raise IllegalMove(f"{player} cannot discard a card now: the hand limit is "
                              f"{components().hand_limit} and {player} holds {p.hand_size}")
        taking.discard_down(self, player, move.color)
        self._continue_taking()

    def play_both_actions(self, player: str, move: BothActions) -> None:
        if self.step != "after_taking":
            raise self._wrong_step(player, "use both actions")
        taking.use_both_actions(self, player)
        self.step = "build_after_taking"

    def play_end_turn(self, player: str, move: EndTurn) -> None:
        if self.step not in ("after_taking", "build_after_taking"):
            raise self._wrong_step(player, "end the turn")
        self._end_turn()

    def play_build(self, player: str, move: Build) -> None:
        if self.step not in ("start", "build_after_taking"):
            raise self._wrong_step(player, "build a tile")
        placement, _ = building.check_build(self, player, move)
        building.pay_and_place(self, player, move, placement)
        self._after_placement(player, placement)

    def play_take_ability(self, player: str, move: TakeAbility) -> None:
        if self.step != "coat_of_arms":
            raise self._wrong_step(player, "take an ability tile")
        arms.take_ability(self, player, move.ability)
        self.pending_arms -= 1
        self._resolve_arms(player)

    def play_place_white(self, player: str, move: PlaceWhite) -> None:
        if self.step != "coat_of_arms":
            raise self._wrong_step(player, "place a white tile")
        spot = arms.check_white(self, player, move.x, move.y)
        arms.place_white(self, player, spot)
        self.pending_arms -= 1
        self._after_placement(player, spot)

    def play_refresh(self, player: str, move: RefreshAbilities) -> None:
        if self.step != "coat_of_arms":
            raise self._wrong_step(player, "refresh ability tiles")
        arms.refresh_abilities(self, player)
        self.pending_arms -= 1
        self._resolve_arms(player)

    # ---- the turn sequence ----------------------------------------------

    def _continue_taking(self) -> None:
        """After a card (and any discard): the second card, the optional extras, or the end of the turn."""
        p = self.seats[self.players[self.current]]
        if self.cards_taken == 1:
            self.step = "second_card"
        elif taking.may_take_third(self, p) or p.can_use(taking.BOTH_ACTIONS):
            self.step = "after_taking"
        else:
            self._end_turn()

    def _after_placement(self, player: str, placement: Placement) -> None:
        """Score, the immediate end at 12 points, then the coats of arms the placement earned."""
        p = self.seats[player]
        done = completions(p.facade, placement)
        if done:
            p.score = add_points(p.score, done)
            self._score = None
            for c in done:
                self.add_milestone("facade_completion", player_id=player, line=c.line, index=c.index,
                                   all_windows=c.all_windows, points=c.points)
            if p.total >= components().end_points:
                self._game_over(END_POINTS)
                return
        self.pending_arms += building.coats_of_arms_earned(p.facade, placement)
        self._resolve_arms(player)

    def _resolve_arms(self, player: str) -> None:
        if self.pending_arms > 0 and arms.any_bonus_possible(self, self.seats[player]):
            self.step = "coat_of_arms"
            return
        self.pending_arms = 0
        self._end_turn()

    def _end_turn(self) -> None:
        self.step = "refill"
        self._refill()

    def _refill(self) -> None:
        """Fill the empty harbour slots in order; rebuild the deck when a card is needed and none is left."""
        if harbour.next_empty_slot(self) is None:
            self._next_player()
        elif harbour.deck_size(self) == 0:
            harbour.rebuild_deck(self)
        self._request = None

    def _next_player(self) -> None:
        self.turns += 1
        self.current = (self.current + 1) % len(self.players)
        self.step = "start"
        self.first_slot = None
        self.cards_taken = 0
        self.pending_arms = 0

    def _game_over(self, why: str) -> None:
        self.end = why
        self.step = "over"
        self._request = None
        if self.ruleset == "bga" and why == END_POINTS:
            ranks, official = self.ranking(), self._ranking_by(tiebreak=True)
            if ranks != official:
                shared = sorted(p for p in self.players if ranks[p] != official[p])
                self.depart("tiebreak_after_twelve_points",
                            f"a 12-point end: {' and '.join(shared)} share their rank on BGA; the rulebook's "
                            f"empty-cell tiebreak ranks them {', '.join(f'{p} {official[p]}' for p in shared)}")

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
        return self._ranking_by(tiebreak=not (self.ruleset == "bga" and self.end == END_POINTS))

    def _ranking_by(self, tiebreak: bool) -> dict[str, int]:
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
        }

    def describe_move(self, player: str, move: Move) -> str:
        from replay.games.copenhagen.describe import describe

        return describe(self, player, move)

    def evaluate(self, player: str) -> float:
        from replay.games.copenhagen.describe import evaluate

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
        new._score = None
        return new


_HANDLERS: dict[type[Move], Any] = {
    TakeCard: CopenhagenState.play_take_card,
    Discard: CopenhagenState.play_discard,
    BothActions: CopenhagenState.play_both_actions,
    EndTurn: CopenhagenState.play_end_turn,
    Build: CopenhagenState.play_build,
    TakeAbility: CopenhagenState.play_take_ability,
    PlaceWhite: CopenhagenState.play_place_white,
    RefreshAbilities: CopenhagenState.play_refresh,
}
