"""The flow of the game: setup (opening market, loyalty in turn order), the turn (start-of-turn
Blackmail, the action phase), cleanup (court and hand limits, events in column 0, refill)
and the passing of the turn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from replay.engine import ChanceRequest, Move, Outcome
from replay.games.pax_pamir import bribes, market
from replay.games.pax_pamir.actions import (
    CardAction,
    action_cost,
    check_bribe_possible,
    check_card_action,
    hostage_bribe,
    refusals_exhausted,
)
from replay.games.pax_pamir.actions.battle import check_battle
from replay.games.pax_pamir.actions.betray import check_betray
from replay.games.pax_pamir.actions.build import check_build
from replay.games.pax_pamir.actions.gift import check_gift
from replay.games.pax_pamir.components import (
    ABILITY_CARDS,
    COALITIONS,
    COURT,
    EVENTS,
    GIFT_VALUES,
    PUBLIC_WITHDRAWAL,
    REGIONS,
    card_name,
)
from replay.games.pax_pamir.court import DiscardTask, SpyTask, check_side
from replay.games.pax_pamir.events import discard_event
from replay.games.pax_pamir.moves import (
    Battle,
    Betray,
    BribeRefused,
    Build,
    Buy,
    ChooseLoyalty,
    EndTurn,
    Gift,
    MoveAction,
    Play,
    Radicalize,
    Tax,
)
from replay.games.pax_pamir.tasks import Task
from replay.games.pax_pamir.wakhan import AIDrawTask, check_radicalize, radicalize, radicalize_candidates

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

ACTIONS_PER_TURN = 2
FIRST_CHOOSER = "first_chooser"


# ---------------------------------------------------------------- setup


def begin_setup(s: PaxState) -> None:
    """Deal the opening market (12 draws), then loyalty in turn order, then the first turn
    (the Wakhan's, when she plays: she has no loyalty to choose)."""
    s.push(BeginPlayTask(s.wakhan or s.players[-1]))
    if s.ruleset == "bga":
        for p in reversed(s.players):
            if p != s.wakhan:
                s.push(LoyaltyTask(p))
        people = [p for p in s.players if p != s.wakhan]
        if len(people) > 1:  # (alone against the Wakhan, a person is the only chooser either way)
            s.depart("loyalty_order", f"{people[0]} picks a loyalty first and {s.wakhan or people[-1]} takes the "
                                      "first turn (seat order on BGA); the rulebook draws the first chooser at random")
    else:
        s.push(FirstChooserTask(s.players[0]))
    s.push(market.RefillTask(s.players[0], True))


@dataclass(slots=True)
class FirstChooserTask(Task):
    """A random player chooses loyalty first; the others follow clockwise; the last chooser
    takes the first turn."""

    decision = False

    def request(self, s: PaxState) -> ChanceRequest:
        return ChanceRequest("choose", FIRST_CHOOSER, options=tuple(p for p in s.players if p != s.wakhan),
                             reason="the player who chooses loyalty first")

    def reveal(self, s: PaxState, req: ChanceRequest, outcome: Outcome) -> None:
        first = outcome["value"]
        s.pop(self)
        i = s.players.index(first)
        order = [p for k in range(len(s.players)) if (p := s.players[(i + k) % len(s.players)]) != s.wakhan]
        if s.wakhan is None:  # with the Wakhan, she takes the first turn
            for t in s.stack:
                if isinstance(t, BeginPlayTask):
                    t.player = order[-1]
        for p in reversed(order):
            s.push(LoyaltyTask(p))


@dataclass(slots=True)
class LoyaltyTask(Task):
    accepts = (ChooseLoyalty,)
    awaiting = "choice of a starting loyalty"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [ChooseLoyalty(coalition=c) for c in COALITIONS]

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, ChooseLoyalty)
        if move.coalition not in COALITIONS:
            return f"{player} cannot be loyal to {move.coalition!r}: the coalitions are {', '.join(COALITIONS)}"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, ChooseLoyalty)
        s.pop(self)
        s.loyalty[player] = move.coalition
        s.influence_changed(player)
        s.add_milestone("loyalty_change", player_id=player, old=None, new=move.coalition)


@dataclass(slots=True)
class BeginPlayTask(Task):
    """The player who chose loyalty last takes the first turn."""

    decision = False

    def run(self, s: PaxState) -> None:
        s.pop(self)
        s.push(StartTurnTask(self.player))


# ---------------------------------------------------------------- the turn


@dataclass(slots=True)
class StartTurnTask(Task):
    decision = False

    def run(self, s: PaxState) -> None:
        s.pop(self)
        start_turn(s, self.player)


BLACKMAIL = (("kandahar", ABILITY_CARDS["blackmail_kandahar"]), ("herat", ABILITY_CARDS["blackmail_herat"]))
BLACKMAIL_KANDAHAR, BLACKMAIL_HERAT = (c for _, cards in BLACKMAIL for c in cards)
"""The two Blackmail cards: a turn looks for Blackmail only when one of them is in a court."""


def start_turn(s: PaxState, p: str, cleanup: CleanupTask | None = None,
               actions: ActionsTask | None = None) -> None:
    """The start of a turn: two actions, fresh per-turn marks, then Blackmail (Herat's is
    offered first, so it is pushed last).  ``cleanup``: the last turn's cleanup task, done,
    to serve again; with ``actions`` too, the last turn's two tasks are still on the stack
    (its cleanup had nothing to do) and serve this turn where they are."""
    s.turn_no += 1
    s.current = p
    s.stage = "actions"
    s.actions_left = ACTIONS_PER_TURN
    if s.used or s.placed or s.any_received:
        clear_turn_marks(s)
    s.declines = 0
    if actions is not None and cleanup is not None:
        cleanup.player = actions.player = p
    else:
        stack = s.stack
        if cleanup is None:
            cleanup = CleanupTask(p)
        else:
            cleanup.player = p
        stack.append(cleanup)
        stack.append(ActionsTask(p))
    owner = s.owner
    if BLACKMAIL_KANDAHAR in owner or BLACKMAIL_HERAT in owner:
        for region, cards in BLACKMAIL:
            for c in cards:
                if owner.get(c) == p:
                    s.push(SpyTask(p, region, True))
                    break
    if p == s.wakhan:  # her AI card first
        s.push(AIDrawTask(p))


def clear_turn_marks(s: PaxState) -> None:
    """Cards used, pieces placed and market cards that received rupees: all this turn only."""
    if s.used:
        s.used.clear()
    if s.placed:
        s.placed.clear()
    if s.any_received:
        s.received = [[False] * 6 for _ in range(2)]
        s.any_received = False


CARD_ACTIONS = (Tax, Gift, Build, MoveAction, Betray, Battle)
CARD_ACTION_TYPES: frozenset[type[Move]] = frozenset(CARD_ACTIONS)
"""The card actions' move types, for a test by exact type (moves are final classes:
``isinstance`` against a msgspec struct class that does not match costs ten times as much)."""


def check_play(s: PaxState, player: str, move: Play) -> str | None:
    if move.card not in s.hands[player]:
        return f"{player} cannot play card {move.card}: it is not in {player}'s hand"
    reason = check_side(s, player, move.card, move.side)
    if reason is not None:
        return reason
    if s.actions_left <= 0:
        return f"{player} cannot play {card_name(move.card)}: {player} has no actions left this turn"
    if not refusals_exhausted(s):  # the usual case: no bribe to look at
        return None
    return check_bribe_possible(s, player, f"play {card_name(move.card)}", bribes.play_bribe(s, player, move.card), 0)


@dataclass(slots=True)
class ActionsTask(Task):
    """The action phase: two actions (purchase, play, card actions), any number of bonus actions."""

    done: bool = False
    accepts = (EndTurn, Buy, Radicalize, Play, Tax, Gift, Build, MoveAction, Betray, Battle, BribeRefused)
    awaiting = "next action (buy, play, a card action, or end_turn)"

    def is_open(self, s: PaxState) -> bool:
        return not self.done

    def close(self, s: PaxState) -> None:
        s.stage = "cleanup"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        p = self.player
        if p == s.wakhan:
            yield from radicalize_candidates(s)
        for row, col in s.market_cells():
            yield Buy(row=row, col=col)
        for c in s.hands[p]:
            yield Play(card=c, side="left")
            yield Play(card=c, side="right")
        spied = [c for c in market_track(s) if s.spies.get(c, {}).get(p)]
        for c in s.courts[p]:
            for a in COURT[c].actions:
                if a == "tax":
                    yield Tax(card=c)
                elif a == "gift":
                    yield from (Gift(card=c, value=v) for v in GIFT_VALUES)
                elif a == "build":
                    yield from (Build(card=c, blocks=k) for k in range(1, 7))
                elif a == "move":
                    yield MoveAction(card=c)
                elif a == "betray":
                    yield from (Betray(card=c, target=t) for t in spied)
                else:
                    yield from (Battle(card=c, region=r) for r in REGIONS)
                    yield from (Battle(card=c, court_card=t) for t in spied)
        if s.ruleset == "bga":
            yield from bribes.refusal_candidates(s, p)
        yield EndTurn()

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        if type(move) is EndTurn:
            return None
        if type(move) is Buy:
            reason = market.check_buy(s, player, move.row, move.col)
            if reason is None and player == s.wakhan:
                return "the Wakhan does not buy: she radicalizes (the card goes straight into her court)"
            return reason
        if type(move) is Play:
            return check_play(s, player, move)
        if type(move) in CARD_ACTION_TYPES:
            action = cast(CardAction, move)
            reason = check_card_action(s, player, action.card, action.type)
            if reason is None:
                if type(action) is Gift:
                    reason = check_gift(s, player, action)
                elif type(action) is Build:
                    reason = check_build(s, player, action)
                elif type(action) is Betray:
                    reason = check_betray(s, player, action)
                elif type(action) is Battle:
                    reason = check_battle(s, player, action)
            if reason is None and refusals_exhausted(s):
                reason = check_bribe_possible(s, player, f"{action.type} with {card_name(action.card)}",
                                              hostage_bribe(s, player, action.card), action_cost(s, player, action))
            return reason
        if type(move) is BribeRefused:
            return bribes.check_bribe_refused(s, player, move)
        if type(move) is Radicalize:
            return check_radicalize(s, player, move)
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        if type(move) is EndTurn:  # the action phase ends at once (the task would close by itself)
            self.done = True
            s.stack.pop()
            self.close(s)
        elif type(move) is Buy:
            s.actions_left -= 1
            market.buy(s, player, move.row, move.col)
        elif type(move) is Radicalize:
            radicalize(s, player, move)
        elif type(move) is BribeRefused:
            bribes.bribe_refused(s)
        else:
            bribes.begin(s, player, move)

    def describe(self) -> str:
        return "next action (buy, play, a card action, or end_turn)"


def market_track(s: PaxState) -> list[int]:
    return [c for p in s.players for c in s.courts[p]]


# ---------------------------------------------------------------- cleanup


def pass_at_once(s: PaxState, actions: ActionsTask) -> bool:
    """``end_turn`` when the cleanup has nothing to do (the usual turn's end): the court and
    hand limits are kept, no event lies in market column 0 and no market cell is empty.  The
    next player's turn then begins at once, served by this turn's action-phase task and the
    cleanup task under it, where they are (what the two tasks would do in turn, without
    leaving the stack).  False, and nothing done, when there is something to clean up."""
    stack = s.stack
    if len(stack) < 2 or type(stack[-2]) is not CleanupTask:
        return False
    top, bottom = s.market
    if None in top or None in bottom or top[0] in EVENTS or bottom[0] in EVENTS:
        return False
    p = actions.player
    # a court of 3 cards and a hand of 2 are within every limit: no stars to count
    court, hand = len(s.courts[p]), len(s.hands[p])
    if court > 3 and court > s.court_limit(p) or hand > 2 and hand > s.hand_limit(p):
        return False
    start_turn(s, s.following[p], stack[-2], actions)
    return True


@dataclass(slots=True)
class CleanupTask(Task):
    """Cleanup, in order: court limit, hand limit, events in column 0, refill; then the next turn.

    Only the steps that have something to do are queued: a turn that ends with both limits kept,
    no event in column 0 and a full market passes straight to the next player."""

    decision = False

    def run(self, s: PaxState) -> None:
        p = self.player
        s.stack.pop()  # this task: the top one
        # a court of 3 cards and a hand of 2 are within every limit: no stars to count
        court, hand = len(s.courts[p]), len(s.hands[p])
        over_court = court > 3 and court > s.court_limit(p)
        over_hand = over_court or hand > 2 and hand > s.hand_limit(p)
        top, bottom = s.market
        events_left = top[0] in EVENTS or bottom[0] in EVENTS
        refill = events_left or None in top or None in bottom
        if not (over_hand or refill):  # nothing to do (see pass_at_once)
            start_turn(s, s.following[p], self)  # which clears the turn's marks
            return
        s.epoch += 1  # a limit to keep, an event to discard or cells to refill
        s.stage = "cleanup"
        clear_turn_marks(s)
        s.push(NextTurnTask(p))
        if refill and not (events_left or over_hand):  # the refill is the only step: it shifts at once
            market.shift_market(s)
            s.push(market.RefillTask(p, True))
        elif refill:
            s.push(market.RefillTask(p, False))
        if events_left:
            s.push(DiscardEventsTask(p))
        if over_hand:
            s.push(DiscardTask(p, "hand_limit", 0))
        if over_court:
            s.push(DiscardTask(p, "court_limit", 0))


@dataclass(slots=True)
class DiscardEventsTask(Task):
    """Every event in market column 0 is discarded, top row first, with its discard effect; rupees
    lying on Public Withdrawal (which only BGA lets happen) leave the game with it."""

    decision = False

    def run(self, s: PaxState) -> None:
        for row in range(2):
            card = s.market[row][0]
            if card is not None and card in EVENTS:  # never an unknown card (market.UNKNOWN_CARD)
                s.market[row][0] = None
                if card == PUBLIC_WITHDRAWAL:  # what lies on it leaves the game with it (BGA's
                    s.market_rupees[row][0] = 0  # publicWithdrawal; by the rulebook nothing can)
                discard_event(s, card)
                return
        s.pop(self)


@dataclass(slots=True)
class NextTurnTask(Task):
    decision = False

    def run(self, s: PaxState) -> None:
        s.pop(self)
        start_turn(s, s.following[self.player])

