"""The turn's steps: every point where Copenhagen's rules wait, as tasks of the core's stack.

Setup deals the harbour (:class:`DealHarbour`) and the starting hands
(:class:`DealHands`).  A turn then runs through its steps, one task at a time
on the stack (each step replaces the one before it, :func:`goto`):

``start``               :class:`FirstCard`: take a first card, or build a tile
``second_card``         :class:`SecondCard`: next to the first, or anywhere with any cards
``after_taking``        :class:`AfterTaking`: a third card (additional card), both actions, or the end
``build_after_taking``  :class:`BuildAfterTaking`: build a tile, or end the turn
``coat_of_arms``        :class:`CoatOfArms`: a bonus for each coat of arms earned
``refill``              :class:`Refill`: the harbour is refilled slot by slot (chance)

Whenever the player holds more than 7 cards after taking a card, :class:`HandLimit`
goes on top of the step: a discard first, then the step goes on.  The state's
``step`` (in its snapshot) is the step's name, kept by :func:`goto`; ``over`` once the game
has ended.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from replay import decisions
from replay.decisions import choice, only
from replay.engine import ChanceRequest, Move, Outcome
from replay.games.copenhagen import legal
from replay.games.copenhagen.components import components
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
from replay.games.copenhagen.scoring import add_points, completions

if TYPE_CHECKING:
    from replay.games.copenhagen.geometry import Placement
    from replay.games.copenhagen.state import CopenhagenState

END_POINTS = "12_points"
END_MERMAID = "mermaid"

WHAT: dict[type[Move], str] = {
    TakeCard: "take a card",
    BothActions: "use both actions",
    EndTurn: "end the turn",
    Build: "build a tile",
    TakeAbility: "take an ability tile",
    PlaceWhite: "place a white tile",
    RefreshAbilities: "refresh ability tiles",
}
"""Each move in words, for "p1 cannot <what> now: ..." (a discard has a message of its own)."""


@dataclass(slots=True)
class Task(decisions.Task["CopenhagenState"]):
    """One step of Copenhagen's turn (or of its setup).

    A move the step does not take is refused with what the step is waiting for (:attr:`now`),
    as the rulebook would explain it."""

    step: ClassVar[str] = ""
    """The step's name, as the snapshot shows it."""
    now: ClassVar[str] = ""
    """What the step waits for, in words."""

    def waiting_for(self, s: CopenhagenState) -> str:
        return self.now

    def refuse(self, s: CopenhagenState, player: str, move: Move) -> str:
        """A move this step does not take, refused with what the step waits for."""
        if type(move) is Discard:
            return (f"{player} cannot discard a card now: the hand limit is {components().hand_limit} "
                    f"and {player} holds {s.seats[player].hand_size}")
        return f"{player} cannot {WHAT[type(move)]} now: {self.waiting_for(s)}"


# ---------------------------------------------------------------- cards from the deck (chance)


@dataclass(slots=True)
class Draw(Task, ABC):
    """A step that waits for cards from the deck, always, while it is on the stack.

    Its request is made when first asked for and kept until the cards come: a ``reveal`` event
    before it (hands shown) may narrow what the deck can give, so it is not made any earlier."""

    _req: ChanceRequest | None = None
    decision = False

    def awaits(self, s: CopenhagenState) -> bool:
        return True

    def request(self, s: CopenhagenState) -> ChanceRequest:
        if self._req is None:
            self._req = self.draw(s)
        return self._req

    @abstractmethod
    def draw(self, s: CopenhagenState) -> ChanceRequest:
        """What may come up now."""


@dataclass(slots=True)
class DealHarbour(Draw):
    """Setup 6: seven cards face up into the harbour."""

    step = "deal_harbour"

    def draw(self, s: CopenhagenState) -> ChanceRequest:
        return harbour.draw_request(s, components().harbour_slots, "the first 7 harbour cards, slots 1 to 7")

    def reveal(self, s: CopenhagenState, req: ChanceRequest, outcome: Outcome) -> None:
        self._req = None
        harbour.deal_harbour(s, list(outcome["items"]))
        goto(s, DealHands(s.players[0]))


@dataclass(slots=True)
class DealHands(Draw):
    """Setup 7: the starting hands in turn order (2, 3, 3, 4 cards), each seen by its owner only."""

    step = "deal_hands"

    def draw(self, s: CopenhagenState) -> ChanceRequest:
        pid = s.players[s.dealt]
        return harbour.draw_request(s, components().starting_hands[s.dealt],
                                    f"{pid}'s starting hand, turn position {s.dealt + 1}", visible_to=(pid,))

    def reveal(self, s: CopenhagenState, req: ChanceRequest, outcome: Outcome) -> None:
        self._req = None
        harbour.deal_starting_hand(s, s.players[s.dealt], list(outcome["items"]))
        s.dealt += 1
        if s.dealt == len(s.players):
            goto(s, FirstCard(s.players[s.current]))


# ---------------------------------------------------------------- the turn sequence: what follows a decision


def goto(s: CopenhagenState, step: Task) -> None:
    """The turn moves on to ``step`` (it replaces the step on top of the stack)."""
    s.stack[-1] = step
    s.step = step.step


def card_taken(task: Task, s: CopenhagenState, player: str, _: None) -> None:
    """After a card: the hand limit first, when it is exceeded; else the turn goes on."""
    if s.must_discard:
        s.push(HandLimit(player))
    else:
        continue_taking(s)


def discarded(task: Task, s: CopenhagenState, player: str, _: None) -> None:
    """After the discard (the hand limit is popped), the step underneath goes on."""
    continue_taking(s)


def continue_taking(s: CopenhagenState) -> None:
    """After a card (and any discard): the second card, the optional extras, or the end of the turn."""
    pid = s.players[s.current]
    p = s.seats[pid]
    if s.cards_taken == 1:
        goto(s, SecondCard(pid))
    elif taking.may_take_third(s, p) or p.can_use(taking.BOTH_ACTIONS):
        goto(s, AfterTaking(pid))
    else:
        end_turn(s)


def build_after_taking(task: Task, s: CopenhagenState, player: str, _: None) -> None:
    goto(s, BuildAfterTaking(player))


def turn_ends(task: Task, s: CopenhagenState, player: str, _: None) -> None:
    end_turn(s)


def bonus_taken(task: Task, s: CopenhagenState, player: str, _: None) -> None:
    """One coat-of-arms bonus chosen: the next one, if any is still due and possible."""
    s.pending_arms -= 1
    resolve_arms(s, player)


def white_placed(task: Task, s: CopenhagenState, player: str, spot: Placement) -> None:
    """A white tile is a placement: it scores and may earn coats of arms like a built tile."""
    s.pending_arms -= 1
    after_placement(task, s, player, spot)


def after_placement(task: Task, s: CopenhagenState, player: str, placement: Placement) -> None:
    """Rule 6 once the tile is paid and placed (``building.pay_and_place``), or a white tile:
    score, the immediate end at 12 points, then the coats of arms the placement earned."""
    p = s.seats[player]
    done = completions(p.facade, placement)
    if done:
        p.score = add_points(p.score, done)
        s.points_changed()
        for c in done:
            s.add_milestone("facade_completion", player_id=player, line=c.line, index=c.index,
                            all_windows=c.all_windows, points=c.points)
        if p.total >= components().end_points:
            game_over(s, END_POINTS)
            return
    s.pending_arms += building.coats_of_arms_earned(p.facade, placement)
    resolve_arms(s, player)


def resolve_arms(s: CopenhagenState, player: str) -> None:
    """The bonuses still due, while one of them is possible; else the turn ends."""
    if s.pending_arms > 0 and arms.any_bonus_possible(s, s.seats[player]):
        if type(s.stack[-1]) is not CoatOfArms:
            goto(s, CoatOfArms(player))
        return
    s.pending_arms = 0
    end_turn(s)


def end_turn(s: CopenhagenState) -> None:
    goto(s, Refill(s.players[s.current]))
    refill(s)


def refill(s: CopenhagenState) -> None:
    """Fill the empty harbour slots in order; rebuild the deck when a card is needed and none is left."""
    if harbour.next_empty_slot(s) is None:
        next_player(s)
    elif harbour.deck_size(s) == 0:
        harbour.rebuild_deck(s)


def next_player(s: CopenhagenState) -> None:
    """The next player in seat order takes a turn, passing over those who left the table (BGA's
    zombies: their turns end as soon as they begin, :func:`zombie_pass`)."""
    s.turns += 1
    n = len(s.players)
    s.current = (s.current + 1) % n
    if s.left:
        for _ in range(n - 1):
            if s.players[s.current] not in s.left:
                break
            s.current = (s.current + 1) % n
    s.first_slot = None
    s.cards_taken = 0
    s.pending_arms = 0
    goto(s, FirstCard(s.players[s.current]))


def zombie_pass(s: CopenhagenState) -> None:
    """A player who has just left the table (BGA's zombie) passes: BGA's ``zombieTurn`` takes
    ``zombiePass`` from every step of a turn, straight to the harbour refill.  The turn ends where it
    stands (a hand over the limit stays so, an unfinished second card is not taken), the empty
    slots are refilled, and the next player who has not left plays."""
    while type(s.stack[-1]) is HandLimit:
        s.stack.pop()
    end_turn(s)


def game_over(s: CopenhagenState, why: str) -> None:
    """The game ends (12 points, or the mermaid in the harbour); BGA's ranks after a 12-point end
    may differ from the rulebook's tiebreak (a departure)."""
    s.end = why
    s.over = True
    s.step = "over"
    if s.ruleset == "bga" and why == END_POINTS:
        ranks, official = s.ranking(), s.ranking_by(tiebreak=True)
        if ranks != official:
            shared = sorted(p for p in s.players if ranks[p] != official[p])
            s.depart("tiebreak_after_twelve_points",
                     f"a 12-point end: {' and '.join(shared)} share their rank on BGA; the rulebook's "
                     f"empty-cell tiebreak ranks them {', '.join(f'{p} {official[p]}' for p in shared)}")


# ---------------------------------------------------------------- the turn's decisions


@dataclass(slots=True)
class Decision(Task, decisions.DeclaredDecision["CopenhagenState"]):
    """A step where a player decides, declared: one :func:`~replay.decisions.choice` per move type
    it takes, with the options, check and rule of ``rules/`` (each step is replaced by the next,
    :func:`goto`, so no choice ends it by itself: what follows does)."""


BUILD = choice(Build, legal.build_options, building.build_problem, building.pay_and_place, ends=False,
               then=after_placement)
"""Rule 6, building a tile: the first action of a turn, or after taking cards with both actions."""
END_TURN = choice(EndTurn, only(EndTurn()), ends=False, then=turn_ends)
"""Declining what is left of the turn (a third card, both actions, the build after taking)."""


@dataclass(slots=True)
class FirstCard(Decision):
    """Rule 5/6: the turn begins with a first card from the harbour, or a tile built."""

    step = "start"
    now = "the turn has just begun: take a first card or build a tile"
    choices = (choice(TakeCard, taking.first_card_options, taking.first_card_problem, taking.take_first_card,
                      ends=False, then=card_taken),
               BUILD)


@dataclass(slots=True)
class SecondCard(Decision):
    """Rule 5: the second card, from a slot next to the first one (anywhere with any cards)."""

    step = "second_card"
    now = "the second card is due"
    choices = (choice(TakeCard, taking.second_card_options, taking.second_card_problem, taking.take_second_card,
                      ends=False, then=card_taken),)


@dataclass(slots=True)
class AfterTaking(Decision):
    """Rule 5: after two cards, a third (additional card), both actions, or the end of the turn."""

    step = "after_taking"
    now = "the cards are taken: take a third card (additional card), use both actions, or end the turn"
    choices = (choice(TakeCard, taking.third_card_options, taking.third_card_problem,
                      taking.take_additional_card, ends=False, then=card_taken),
               choice(BothActions, taking.both_actions_options, taking.both_actions_problem,
                      taking.use_both_actions, ends=False, then=build_after_taking),
               END_TURN)


@dataclass(slots=True)
class BuildAfterTaking(Decision):
    """Both actions: a tile may be built after taking cards (or the turn ends)."""

    step = "build_after_taking"
    now = "both actions is in play: build a tile or end the turn"
    choices = (BUILD, END_TURN)


@dataclass(slots=True)
class CoatOfArms(Decision):
    """Rule 7.2: one bonus per coat of arms earned: an ability tile, a white tile, or a refresh."""

    step = "coat_of_arms"
    choices = (choice(TakeAbility, arms.ability_options, arms.ability_problem, arms.take_ability,
                      ends=False, then=bonus_taken),
               choice(PlaceWhite, arms.white_options, arms.white_problem, arms.place_white,
                      ends=False, then=white_placed),
               choice(RefreshAbilities, arms.refresh_options, arms.refresh_problem, arms.refresh_abilities,
                      ends=False, then=bonus_taken))

    def waiting_for(self, s: CopenhagenState) -> str:
        return f"{s.pending_arms} coat-of-arms bonus(es) must be chosen first"


@dataclass(slots=True)
class HandLimit(Decision):
    """Rule 5: with more than 7 cards after taking a card, one card of one's choice is discarded;
    the step underneath then goes on."""

    choices = (choice(Discard, taking.discard_options, taking.discard_problem, taking.discard_down,
                      then=discarded),)

    def refuse(self, s: CopenhagenState, player: str, move: Move) -> str:
        return (f"{player} must first discard a card: {player} holds {s.seats[player].hand_size} cards "
                f"and the hand limit is {components().hand_limit}")


ONE_CARD = ChanceRequest("draw", harbour.DRAW, count=1, reason="refill the harbour")
"""The request a refill card checked at once stands for (:meth:`Refill.outcome_at_once`)."""


@dataclass(slots=True)
class Refill(Draw):
    """The end of the turn: the empty harbour slots are refilled in order, one card at a time
    (the deck rebuilt from the discard pile when it runs out); the mermaid ends the game."""

    step = "refill"

    def draw(self, s: CopenhagenState) -> ChanceRequest:
        slot = harbour.next_empty_slot(s)
        return harbour.draw_request(s, 1, "refill " + (harbour.slot_name(slot) if slot is not None else "the harbour"))

    def outcome_at_once(self, s: CopenhagenState, outcome: Outcome) -> ChanceRequest | None:
        """One card the deck may give now (:func:`harbour.may_come_next`) is revealed at once,
        its request never made (unless it was made already: then the card is checked against it)."""
        if self._req is not None or outcome.get("draw") != harbour.DRAW:
            return None
        items = outcome.get("items")
        if type(items) is list and len(items) == 1 and harbour.may_come_next(s, items[0]):
            return ONE_CARD
        return None

    def reveal(self, s: CopenhagenState, req: ChanceRequest, outcome: Outcome) -> None:
        self._req = None
        slot = harbour.next_empty_slot(s)
        assert slot is not None
        harbour.refill_slot(s, slot, outcome["items"][0])
        if s.mermaid == "harbour":
            game_over(s, END_MERMAID)
        else:
            refill(s)
