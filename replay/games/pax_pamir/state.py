"""The Pax Pamir state: the whole position, its derived quantities, and the protocol.

The rules themselves live in the sibling modules (``board``, ``court``,
``market``, ``actions``, ``events``, ``dominance``, ``turns``); this module
holds the data and answers the questions the rules ask (stars, limits, rulers,
influence, hostages); the core (:mod:`replay.decisions`) drives its tasks.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from operator import attrgetter
from typing import Any

from replay.decisions import TaskState, task_view
from replay.departures import load_departures, older_code_flag
from replay.engine import ChanceRequest, IllegalMove, Move, Outcome
from replay.games.pax_pamir import turns, wakhan, zombie
from replay.games.pax_pamir.components import (
    ABILITY_CARDS,
    BLOCKS_PER_COALITION,
    BORDER_IDS,
    COALITIONS,
    COURT,
    COURTLY_MANNERS,
    CYLINDERS_PER_PLAYER,
    DISREGARD_FOR_CUSTOMS,
    EMBARRASSMENT_OF_RICHES,
    FAVORED_AT_START,
    KOH_I_NOOR,
    NEW_TACTICS,
    NO_OVERTHROW_FOR_TAKEN_TRIBES,
    PILES,
    PUBLIC_WITHDRAWAL_HOLDS_RUPEES,
    REGIONS,
    RULER_AGAINST_PLAYERS_ONLY,
    RUMOR,
    STARTING_RUPEES,
    WAKHAN_CARDS,
)
from replay.games.pax_pamir.moves import EndTurn
from replay.games.pax_pamir.tasks import Task
from replay.games.pax_pamir.turns import ActionsTask

CATEGORIES: tuple[str, ...] = ("dominance_successful", "dominance_unsuccessful")


SUIT_RANKS: dict[str, dict[int, int]] = {
    suit: {c.id: c.rank for c in COURT.values() if c.suit == suit}
    for suit in ("economic", "military", "political", "intelligence")
}
"""Per suit: the rank of every court card of that suit (stars are summed from these)."""

PATRIOTS_OF: dict[str, frozenset[int]] = {
    coalition: frozenset(c.id for c in COURT.values() if c.patriot == coalition) for coalition in COALITIONS
}
"""The patriot court cards of each coalition."""

MARKET_CELLS: tuple[tuple[int, int], ...] = tuple((row, col) for col in range(6) for row in range(2))
"""Every market cell in the refill order: column by column, top before bottom."""


class PaxState(TaskState[Task]):
    game_id = "pax_pamir"
    departure_rules = load_departures("replay.games.pax_pamir")
    taken_kinds = ("event card",)

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        n = len(players)
        self.wakhan: str | None = _wakhan_seat(players, options)
        """The Wakhan's player id (option ``wakhan``), ``None`` in a game without her."""
        self.wakhan_steadfast: bool = bool(options.get("wakhan_steadfast", False))
        """The steadfast pragmatic loyalty variant (option ``wakhan_steadfast``)."""
        self.ruler_against_players_only: bool = older_code_flag(options, RULER_AGAINST_PLAYERS_ONLY, self.ruleset,
                                                                "19 October 2023")
        """Under ``bga``: rulership compares a player with the other players only, as BGA's code did
        before 19 October 2023 (option and departure ``ruler_against_players_only``)."""
        self.no_overthrow_for_taken_tribes: bool = older_code_flag(options, NO_OVERTHROW_FOR_TAKEN_TRIBES,
                                                                   self.ruleset, "16 October 2023")
        """Under ``bga``: a last tribe taken from a region for a piece placed elsewhere overthrows nothing
        there, as in BGA's code before 16 October 2023 (option and departure ``no_overthrow_for_taken_tribes``)."""
        self.public_withdrawal_holds_rupees: bool = older_code_flag(options, PUBLIC_WITHDRAWAL_HOLDS_RUPEES,
                                                                    self.ruleset, "1 October 2023")
        """Under ``bga``: rupees paid onto Public Withdrawal stay on it, as BGA's code had it before
        1 October 2023 (option and departure ``public_withdrawal_holds_rupees``)."""
        self.ai_deck: list[int] = sorted(WAKHAN_CARDS) if self.wakhan else []
        """The Wakhan's AI cards still in her deck (its order is chance)."""
        self.ai_discard: list[int] = []
        """Her AI discard pile, the top card last: its front rules her turn."""
        self.favored: str = FAVORED_AT_START
        self.rupees: dict[str, int] = {p: STARTING_RUPEES for p in players}
        self.loyalty: dict[str, str | None] = {p: None for p in players}
        self.hands: dict[str, list[int]] = {p: [] for p in players}
        self.courts: dict[str, list[int]] = {p: [] for p in players}
        self.owner: dict[int, str] = {}
        self.prizes: dict[str, list[int]] = {p: [] for p in players}
        self.gifts: dict[str, list[int]] = {p: [] for p in players}
        self.cyl_supply: dict[str, int] = {p: CYLINDERS_PER_PLAYER for p in players}
        self.block_supply: dict[str, int] = {c: BLOCKS_PER_COALITION for c in COALITIONS}
        self.armies: dict[str, dict[str, int]] = {r: {c: 0 for c in COALITIONS} for r in REGIONS}
        self.roads: dict[str, dict[str, int]] = {b: {c: 0 for c in COALITIONS} for b in BORDER_IDS}
        self.tribes: dict[str, dict[str, int]] = {r: {p: 0 for p in players} for r in REGIONS}
        self.spies: dict[int, dict[str, int]] = {}
        self.rulers: dict[str, str | None] = {r: None for r in REGIONS}
        self.leveraged: set[int] = set()
        self.held_events: dict[str, list[int]] = {p: [] for p in players}
        self.global_events: list[int] = []
        self.discard_pile: list[int] = []
        self.market: list[list[int | None]] = [[None] * 6 for _ in range(2)]
        self.market_rupees: list[list[int]] = [[0] * 6 for _ in range(2)]
        self.received: list[list[bool]] = [[False] * 6 for _ in range(2)]
        self.any_received: bool = False
        self.following: dict[str, str] = {p: players[(i + 1) % n] for i, p in enumerate(players)}
        """Each player's left-hand neighbour (who plays next)."""
        self.piles: list[list[int]] = [[5 + n, e, d] for e, d in PILES]
        self.unknown_drawn: list[int] = [0] * len(PILES)
        """Per pile: cards drawn unknown whose kind (court card, event, check) is not known either."""
        self.pile: int = 0
        self.seen: set[int] = set()
        self.unseen: tuple[int, list[dict[int, None]]] | None = None
        """Cache of :func:`market.unseen_groups`: the size of ``seen`` it was made for, the groups."""
        self.vp: dict[str, dict[str, int]] = {p: {c: 0 for c in CATEGORIES} for p in players}
        self.dc_cards_done: int = 0
        self.checks_resolved: int = 0
        self.current: str = players[0]
        self.actions_left: int = 0
        self.used: set[int] = set()
        self.placed: dict[str, int] = {}
        self.declines: int = 0
        self.turn_no: int = 0
        self.stage: str = "setup"
        self._score: dict[str, dict[str, int]] | None = None
        self._totals: dict[str, int] | None = None
        self.epoch: int = 0
        """Changes with every event that may change an observable fact; a pass whose cleanup
        has nothing to do changes none, and keeps it (see :meth:`observed`)."""
        self._observed: tuple[int, tuple[str, ...], dict[str, Any],
                              tuple[tuple[str, Callable[[PaxState], Any]], ...]] | None = None
        """The last observation made by :meth:`observed`: epoch, keys, facts, and how each fact
        that is neither one of the state's containers nor kept is made."""
        self._influences: dict[str, int] | None = None
        self._recount: set[str] = set()
        """Players whose influence may have changed since :attr:`_influences` was made."""
        self._deck_size: int | None = None
        self._stale: set[str] = set()
        """Kept facts (:data:`KEPT`) a rule changed since the last observation."""
        self._cylinders: dict[str, int] = {p: 0 for p in players}
        """Cylinders in play per player, kept in step with ``cyl_supply`` (:meth:`cylinders_changed`)."""
        self._blocks: dict[str, int] = {c: 0 for c in COALITIONS}
        """Blocks in play per coalition, kept in step with ``block_supply`` (:meth:`blocks_changed`)."""
        self._hand_sizes: dict[str, int] = {p: 0 for p in players}
        """Cards in each hand, kept in step with ``hands`` (:meth:`hand_changed`)."""
        self._stars: dict[str, dict[str, int]] = {p: {} for p in players}
        """Stars per player and suit, counted when first asked for and kept until the court
        changes (:meth:`court_changed`): the cleanup asks for the limits every turn."""
        turns.begin_setup(self)
        self.advance()

    # ------------------------------------------------------------------ protocol (see replay.decisions)

    def _move_at_once(self, player: str, move: Move) -> bool:
        """The commonest move first: ``end_turn`` of the player in the action phase, always
        legal (:meth:`end_turn`); any other move the core's way."""
        if type(move) is EndTurn and not self.over:
            t = self.stack[-1]
            if type(t) is ActionsTask and t.player == player:
                self.end_turn(t, player, move)
                return True
        return TaskState._move_at_once(self, player, move)

    def apply_decision(self, task: Task, player: str, move: Move) -> None:
        """Apply a checked move; the epoch moves on with every move but ``end_turn`` (whose
        cleanup says whether it changes something)."""
        if type(move) is not EndTurn:
            self.epoch += 1
        elif type(task) is ActionsTask:
            self.end_turn(task, player, move)
            return
        task.apply(self, player, move)
        self.advance()

    def end_turn(self, actions: ActionsTask, player: str, move: Move) -> None:
        """``end_turn`` in the action phase.  It usually has nothing to clean up: the next turn
        then begins at once, served by the same two tasks (:func:`turns.pass_at_once`)."""
        if not turns.pass_at_once(self, actions):
            actions.apply(self, player, move)
            self.advance()
        elif self.stack[-1] is not actions or self.left:  # Blackmail first, or a zombie's turn; else it is open
            self.advance()

    def apply_outcome(self, task: Task, request: ChanceRequest, outcome: Outcome) -> None:
        self.epoch += 1
        task.reveal(self, request, outcome)
        self.advance()

    def player_left(self, task: Task, player: str) -> None:
        """``bga``: from now on BGA's zombie decides for ``player`` (:mod:`.zombie`), starting with
        ``task``; the Wakhan never leaves."""
        if player == self.wakhan:
            raise IllegalMove(f"{player} is the Wakhan, BGA's automated opponent: she cannot leave the table")
        if type(task) not in zombie.ZOMBIE_TURN and type(task) not in zombie.LOGGED:
            raise IllegalMove(f"{player} left the table at the {task.awaiting}, where BGA's zombie rule is not known")

    def answer_for_left(self, task: Task) -> Move | None:
        return zombie.LOGGED.get(type(task))

    def logged_answers(self) -> tuple[Move, ...]:
        return zombie.ANSWERS

    def decide_for_left(self, task: Task) -> bool:
        answer = zombie.ZOMBIE_TURN.get(type(task))
        if answer is None:  # logged: the rules await it (every person's decision is in one table: test_zombie)
            return False
        self.epoch += 1
        answer(self, task)
        return True

    def unknown_zones(self) -> dict[str, tuple[int, Any, dict[Any, int]]]:
        """Market cards drawn unknown, ``market:<row>,<col>`` (see ``unknowns.py``)."""
        from replay.games.pax_pamir import unknowns

        return unknowns.unknown_zones(self)

    def _reveal_zone(self, zone: str, items: list[Any]) -> None:
        """``{"reveal": "market:<row>,<col>", "items": [card]}``: a market card drawn unknown is named."""
        from replay.games.pax_pamir import unknowns

        self.epoch += 1
        unknowns.reveal(self, zone, items)

    # ------------------------------------------------------------------ score

    def score(self) -> dict[str, dict[str, int]]:
        if self._score is None:
            self._score = {p: dict(self.vp[p]) for p in self.players}
        return self._score

    def totals(self) -> dict[str, int]:
        return dict(self.totals_view())

    def totals_view(self) -> dict[str, int]:
        """The totals, kept until the next points are scored (not to be changed)."""
        if self._totals is None:
            self._totals = {p: sum(self.vp[p].values()) for p in self.players}
        return self._totals

    def add_points(self, player: str, category: str, points: int) -> None:
        if points:
            self.vp[player][category] += points
            self._score = None
            self._totals = None
            self._stale.add("score")

    def total(self, player: str) -> int:
        return sum(self.vp[player].values())

    def ranking(self) -> dict[str, int]:
        key = {p: (self.total(p), self.stars(p, "military"), self.rupees[p]) for p in self.players}
        return {p: 1 + sum(1 for q in self.players if key[q] > key[p]) for p in self.players}

    def phase(self) -> tuple[int | None, str]:
        return (self.turn_no or None, "over" if self.over else self.stage)

    # ------------------------------------------------------------------ derived quantities

    def stars(self, player: str, suit: str) -> int:
        """The ranks of ``player``'s court cards of ``suit``, added up."""
        kept = self._stars[player]
        n = kept.get(suit)
        if n is None:
            ranks = SUIT_RANKS[suit]
            n = kept[suit] = sum([ranks[c] for c in self.courts[player] if c in ranks])
        return n

    def court_changed(self, player: str) -> None:
        """Called whenever a card joins or leaves ``player``'s court: stars are counted again."""
        self._stars[player].clear()

    def court_limit(self, player: str) -> int:
        return 3 + self.stars(player, "political")

    def hand_limit(self, player: str) -> int:
        """2 + intelligence stars; none for the Wakhan (BGA: she keeps what she could not play)."""
        if player == self.wakhan:
            return len(self.hands[player])
        return 2 + self.stars(player, "intelligence")

    def has(self, player: str, ability: str) -> bool:
        """Whether ``player`` has a court card with this special ability."""
        owner = self.owner
        for c in ABILITY_CARDS[ability]:
            if owner.get(c) == player:
                return True
        return False

    def holder_of(self, ability: str) -> str | None:
        for c in ABILITY_CARDS[ability]:
            if c in self.owner:
                return self.owner[c]
        return None

    def holds(self, player: str, event: int) -> bool:
        return event in self.held_events[player]

    def event_held(self, event: int) -> bool:
        return any(event in self.held_events[p] for p in self.players)

    def acts_favored(self, card: int) -> bool:
        c = COURT[card]
        if c.suit == self.favored or c.ability in ("savvy_operator", "irregulars"):
            return True
        return c.suit == "military" and self.holds(self.owner[card], NEW_TACTICS)

    def influence(self, player: str) -> int:
        """1 + patriots in court + prizes + gifts, with Rumor, Embarrassment of Riches and
        Koh-i-noor Recovered.  The Wakhan's: in her pragmatic loyalty's coalition (she counts in
        every coalition, :func:`wakhan.influence_in`)."""
        loyal = self.loyalty[player]
        if loyal is None and player == self.wakhan:
            coalition = wakhan.pragmatic_loyalty(self)
            return wakhan.influence_in(self, coalition) if coalition else 0
        held = self.held_events[player]
        n = 1
        if loyal is not None and RUMOR not in held:
            n += len(PATRIOTS_OF[loyal].intersection(self.courts[player]))  # a card is in one court once
        prizes = self.prizes[player]
        if prizes:
            if self.ruleset == "bga":
                n += len([c for c in prizes if COURT[c].prize == loyal])
            else:
                n += len(prizes)
        gifts = self.gifts[player]
        if gifts and EMBARRASSMENT_OF_RICHES not in self.global_events:
            n += (2 if KOH_I_NOOR in held else 1) * len(gifts)
        return n

    def wakhan_influence(self, coalition: str) -> int:
        """The Wakhan's influence in ``coalition`` (:func:`wakhan.influence_in`)."""
        return wakhan.influence_in(self, coalition)

    def influences(self) -> dict[str, int]:
        """Every player's influence (:meth:`influence`), 0 for a player not yet loyal to a
        coalition and for the Wakhan (who counts in every coalition: ``wakhan_influence``)."""
        return {p: self.influence(p) if loyal else 0 for p, loyal in self.loyalty.items()}

    def influences_view(self) -> dict[str, int]:
        """:meth:`influences`, kept until something it counts changes (see
        :meth:`influence_changed`): only the players whose influence may have changed are
        counted again; not to be changed."""
        kept = self._influences
        if kept is None:
            kept = self._influences = self.influences()
        elif self._recount:
            for p in self._recount:
                kept[p] = self.influence(p) if self.loyalty[p] else 0
        self._recount.clear()
        return kept

    def influence_changed(self, player: str | None = None) -> None:
        """Called by every rule that changes what influence counts: a loyalty, the patriots in a
        court, prizes, gifts, the events a player holds (``player``'s), the events in force (everybody's).
        Influence is counted again the next time an observation asks for it."""
        if player is None:
            self._recount.update(self.players)
        else:
            self._recount.add(player)
        self._stale.add("influence")

    def cylinders_in_play(self, player: str) -> int:
        return CYLINDERS_PER_PLAYER - self.cyl_supply[player]

    def blocks_in_play(self, coalition: str) -> int:
        return BLOCKS_PER_COALITION - self.block_supply[coalition]

    def ruling_pieces(self, player: str, region: str) -> int:
        """Tribes plus the armies of the player's coalition; the Wakhan's tribes plus the largest
        army of any one coalition."""
        loyal = self.loyalty[player]
        if loyal is None and player == self.wakhan:
            return self.tribes[region][player] + max(self.armies[region].values())
        return self.tribes[region][player] + (self.armies[region][loyal] if loyal else 0)

    def compute_ruler(self, region: str, against_armies: bool | None = None) -> str | None:
        """The rulership test of the rules: a tribe there, and more ruling pieces than every
        other player and (``against_armies``; by default unless :attr:`ruler_against_players_only`)
        than the armies of every single coalition."""
        if against_armies is None:
            against_armies = not self.ruler_against_players_only
        most_armies = max(self.armies[region].values()) if against_armies else -1
        best: str | None = None
        best_n = -1
        tie = False
        for p in self.players:
            n = self.ruling_pieces(p, region)
            if n > best_n:
                best, best_n, tie = p, n, False
            elif n == best_n:
                tie = True
        if best is None or tie or self.tribes[region][best] < 1 or best_n <= most_armies:
            return None
        return best

    def rules(self, player: str, region: str) -> bool:
        return self.rulers[region] == player

    def hostage_holder(self, card: int) -> str | None:
        spies = self.spies.get(card)
        if not spies:
            return None
        top = max(spies.values())
        leaders = [p for p, n in spies.items() if n == top]
        if len(leaders) != 1 or leaders[0] == self.owner.get(card):
            return None
        return leaders[0]

    def bribes_waived(self) -> bool:
        """Disregard for Customs: nobody pays bribes until the next Dominance Check."""
        return DISREGARD_FOR_CUSTOMS in self.global_events

    def may_refuse_bribes(self, player: str) -> bool:
        """Courtly Manners: its buyer may choose not to pay bribes until the next check."""
        return self.holds(player, COURTLY_MANNERS)

    def coalition_of(self, player: str) -> str | None:
        """The coalition whose blocks ``player`` places, moves and battles with: their loyalty; the
        Wakhan's pragmatic loyalty."""
        if player == self.wakhan:
            return wakhan.pragmatic_loyalty(self)
        return self.loyalty[player]

    def next_player(self, player: str) -> str:
        return self.following[player]

    def deck_size(self) -> int:
        return sum(map(sum, self.piles[self.pile:])) - sum(self.unknown_drawn[self.pile:])

    def deck_size_view(self) -> int:
        """:meth:`deck_size`, kept until the next card leaves the deck (see :meth:`deck_changed`)."""
        if self._deck_size is None:
            self._deck_size = self.deck_size()
        return self._deck_size

    def deck_changed(self) -> None:
        """Called whenever the piles change in another way than a draw (an unknown card named)."""
        self._deck_size = None
        self._stale.add("deck_size")

    def card_drawn(self) -> None:
        """Called whenever the deck's top card is drawn: the deck holds one card less (a pile
        left behind is empty, which the size never counted)."""
        if self._deck_size is not None:
            self._deck_size -= 1
        self._stale.add("deck_size")

    def cylinders_changed(self, player: str) -> None:
        """Called whenever cylinders leave or join ``player``'s supply."""
        self._cylinders[player] = CYLINDERS_PER_PLAYER - self.cyl_supply[player]

    def blocks_changed(self, coalition: str) -> None:
        """Called whenever blocks leave or join ``coalition``'s supply."""
        self._blocks[coalition] = BLOCKS_PER_COALITION - self.block_supply[coalition]

    def hand_changed(self, player: str) -> None:
        """Called whenever a card joins or leaves ``player``'s hand."""
        self._hand_sizes[player] = len(self.hands[player])

    def fact_changed(self, key: str) -> None:
        """Called by a rule that changes a kept fact held as a plain attribute (the favored
        suit, the Dominance Checks resolved)."""
        self._stale.add(key)


    def market_cells(self) -> tuple[tuple[int, int], ...]:
        """Every market cell in the refill order: column by column, top before bottom."""
        return MARKET_CELLS

    # ------------------------------------------------------------------ views

    def snapshot(self) -> dict[str, Any]:
        out = self._snapshot()
        if self.wakhan is not None:  # her AI card, her coalition, her influence everywhere
            out["wakhan"] = {"player": self.wakhan, "ai_card": self.ai_discard[-1] if self.ai_discard else None,
                             "ai_deck": len(self.ai_deck), "pragmatic_loyalty": wakhan.pragmatic_loyalty(self),
                             "influence": wakhan.influences(self)}
        if self.left:
            out["left"] = list(self.left)
        return out

    def _snapshot(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "turn": self.turn_no,
            "current": self.current,
            "actions_left": self.actions_left,
            "favored_suit": self.favored,
            "map": {
                "regions": {
                    r: {
                        "armies": dict(self.armies[r]),
                        "tribes": {p: n for p, n in self.tribes[r].items() if n},
                        "ruler": self.rulers[r],
                    }
                    for r in REGIONS
                },
                "borders": {b: {c: n for c, n in self.roads[b].items() if n} for b in BORDER_IDS},
            },
            "blocks_supply": dict(self.block_supply),
            "players": {
                p: {
                    "loyalty": self.loyalty[p],
                    "rupees": self.rupees[p],
                    "court": list(self.courts[p]),
                    "hand": list(self.hands[p]),
                    "prizes": list(self.prizes[p]),
                    "gifts": sorted(self.gifts[p]),
                    "cylinders_supply": self.cyl_supply[p],
                    "events": list(self.held_events[p]),
                    "influence": self.influence(p) if self.loyalty[p] else 0,
                    "score": self.total(p),
                }
                for p in self.players
            },
            "spies": {str(c): {p: n for p, n in sorted(s.items())} for c, s in sorted(self.spies.items())},
            "leveraged": sorted(self.leveraged),
            "market": [
                [_market_cell(self.market[r][c], self.market_rupees[r][c]) for c in range(6)]
                for r in range(2)
            ],
            "received_rupees": [[c for c in range(6) if self.received[r][c]] for r in range(2)],
            "deck": {"size": self.deck_size(), "pile": self.pile + 1, "piles": [list(p) for p in self.piles],
                     **({"unknown_drawn": list(self.unknown_drawn)} if any(self.unknown_drawn) else {})},
            "seen": sorted(self.seen),
            "discard_pile": list(self.discard_pile),
            "global_events": list(self.global_events),
            "used_cards": sorted(self.used),
            "placed_this_turn": dict(sorted(self.placed.items())),
            "declined_bribes": self.declines,
            "dominance_checks": {"resolved": self.checks_resolved, "cards_done": self.dc_cards_done},
            "over": self.over,
            "pending": [task_view(t) for t in self.stack],
        }

    def observables(self) -> dict[str, Any]:
        return {k: fact(self) for k, fact in OBSERVABLES.items()}

    def observables_for(self, keys: AbstractSet[str]) -> dict[str, Any]:
        """Only the facts asked for (an observation after every turn must cost little)."""
        return {k: fact(self) for k, fact in OBSERVABLES.items() if k in keys}

    def observed(self, keys: Iterable[str]) -> dict[str, Any]:
        """The observed facts, the state's own containers where it has them (no copies).

        While :attr:`epoch` stays the same (passes that needed no cleanup), an observation
        of the same keys gets the facts made for the previous one: none of them can have
        changed.  ``legal_count`` and ``state_hash`` change with every turn: an observation
        that asks for them is always made afresh."""
        names = tuple(keys)  # the very tuple when given one
        memo = self._observed
        if memo is not None and (memo[1] is names or memo[1] == names):
            if memo[0] == self.epoch:
                return memo[2]
            # the state's own containers are the same objects all game long; a kept fact is
            # made again only when a rule changed it, any other fact every time
            out = memo[2].copy()
            for k, view in memo[3]:  # the facts neither kept nor containers
                out[k] = view(self)
            stale = self._stale
            if stale:
                for k in stale:
                    if k in out:
                        out[k] = VIEWS[k](self)
                stale.clear()
            self._observed = (self.epoch, names, out, memo[3])
            return out
        if VIEW_KEYS.issuperset(names):
            self._stale.clear()
            out = {k: VIEWS[k](self) for k in names}
            self._observed = (self.epoch, names, out,
                              tuple((k, VIEWS[k]) for k in names if k not in CONTAINERS and k not in KEPT))
            return out
        out = {k: VIEWS[k](self) for k in names if k in VIEW_KEYS}
        out.update(self.observe([k for k in names if k not in VIEW_KEYS]))
        return out

    def describe_move(self, player: str, move: Move) -> str:
        from replay.games.pax_pamir.describe import describe

        return describe(self, player, move)

    def evaluate(self, player: str) -> float:
        from replay.games.pax_pamir.heuristic import evaluate

        return evaluate(self, player)

    def copy(self) -> PaxState:
        new = _copy.copy(self)
        new.players = list(self.players)
        new.options = dict(self.options)
        new.milestones = list(self.milestones)
        new.departures = list(self.departures)
        new.taken = list(self.taken)
        new.rupees = dict(self.rupees)
        new.loyalty = dict(self.loyalty)
        new.hands = {p: list(v) for p, v in self.hands.items()}
        new.courts = {p: list(v) for p, v in self.courts.items()}
        new.owner = dict(self.owner)
        new.prizes = {p: list(v) for p, v in self.prizes.items()}
        new.gifts = {p: list(v) for p, v in self.gifts.items()}
        new.cyl_supply = dict(self.cyl_supply)
        new.block_supply = dict(self.block_supply)
        new.armies = {r: dict(v) for r, v in self.armies.items()}
        new.roads = {b: dict(v) for b, v in self.roads.items()}
        new.tribes = {r: dict(v) for r, v in self.tribes.items()}
        new.spies = {c: dict(v) for c, v in self.spies.items()}
        new.rulers = dict(self.rulers)
        new.leveraged = set(self.leveraged)
        new.held_events = {p: list(v) for p, v in self.held_events.items()}
        new.global_events = list(self.global_events)
        new.discard_pile = list(self.discard_pile)
        new.market = [list(r) for r in self.market]
        new.market_rupees = [list(r) for r in self.market_rupees]
        new.received = [list(r) for r in self.received]
        new.piles = [list(p) for p in self.piles]
        new.unknown_drawn = list(self.unknown_drawn)
        new.seen = set(self.seen)
        new.unseen = None
        new.vp = {p: dict(v) for p, v in self.vp.items()}
        new.used = set(self.used)
        new.ai_deck = list(self.ai_deck)
        new.ai_discard = list(self.ai_discard)
        new.placed = dict(self.placed)
        new._score = None
        new._observed = None
        new._influences = None
        new._recount = set()
        new._deck_size = None
        new._cylinders = dict(self._cylinders)
        new._blocks = dict(self._blocks)
        new._hand_sizes = dict(self._hand_sizes)
        new._stars = {p: dict(v) for p, v in self._stars.items()}
        new._stale = set()
        new._totals = None
        new.stack = self.copied_stack()
        return new


OBSERVABLES: dict[str, Callable[[PaxState], Any]] = {
    "rupees": lambda s: dict(s.rupees),
    "loyalty": lambda s: dict(s.loyalty),
    "favored_suit": lambda s: s.favored,
    "rulers": lambda s: dict(s.rulers),
    "influence": PaxState.influences,
    "cylinders": lambda s: {p: CYLINDERS_PER_PLAYER - n for p, n in s.cyl_supply.items()},
    "blocks": lambda s: {c: BLOCKS_PER_COALITION - n for c, n in s.block_supply.items()},
    "deck_size": lambda s: s.deck_size(),
    "market": lambda s: [s.market[0][:], s.market[1][:]],
    "courts": lambda s: {p: c[:] for p, c in s.courts.items()},
    "hand_size": lambda s: {p: len(h) for p, h in s.hands.items()},
    "dominance_checks": lambda s: s.checks_resolved,
    "wakhan_influence": lambda s: wakhan.influences(s) if s.wakhan else None,
}
"""Pax Pamir's observable facts (beyond score, legal_count, state_hash), each computed only
when an observation asks for it."""


VIEWS: dict[str, Callable[[PaxState], Any]] = {
    **OBSERVABLES,
    "score": PaxState.totals_view,
    "rupees": attrgetter("rupees"),
    "loyalty": attrgetter("loyalty"),
    "favored_suit": attrgetter("favored"),
    "rulers": attrgetter("rulers"),
    "market": attrgetter("market"),
    "courts": attrgetter("courts"),
    "dominance_checks": attrgetter("checks_resolved"),
    "influence": PaxState.influences_view,
    "deck_size": PaxState.deck_size_view,
    "cylinders": attrgetter("_cylinders"),
    "blocks": attrgetter("_blocks"),
    "hand_size": attrgetter("_hand_sizes"),
}
"""The observable facts for :meth:`PaxState.observed`: the state's own containers where they
have the observed shape already, and facts kept until what they count changes."""
VIEW_KEYS = frozenset(VIEWS)
CONTAINERS = frozenset({"rupees", "loyalty", "rulers", "market", "courts", "cylinders", "blocks", "hand_size"})
"""The facts that are the state's own containers (the same objects all game long, changed in
place): cylinders and blocks in play and hand sizes are kept in step with the supplies and hands."""
KEPT = frozenset({"score", "favored_suit", "influence", "deck_size", "dominance_checks"})
"""The facts every rule that changes them reports (:meth:`PaxState.fact_changed` and the
like): between observations they are made again only when reported."""


def _market_cell(card: int | None, rupees: int) -> dict[str, Any]:
    """A market cell in the snapshot; a card drawn unknown shows as ``null`` with ``"unknown": true``."""
    if card == 0:
        return {"card": None, "unknown": True, "rupees": rupees}
    return {"card": card, "rupees": rupees}


def _wakhan_seat(players: list[str], options: dict[str, Any]) -> str | None:
    """The Wakhan's seat (option ``wakhan``: her player id), checked."""
    seat = options.get("wakhan")
    if seat is None:
        return None
    if seat not in players:
        raise IllegalMove(f"the Wakhan ({seat!r}) is not one of the players ({', '.join(players)})")
    return str(seat)
