"""Pax Pamir (2nd edition) on BGA (``paxpamir``, FransBongers/bga-pax-pamir) -> ``pax_pamir`` records.

The log names what happened; our engine (``replay/games/pax_pamir``, ruleset
``bga``) knows what the rules wait for.  Each notification below is one small
function: a notification that shows a player's decision becomes that move
(``purchaseCard`` -> ``buy``, ``playCard`` -> ``play``, ``taxMarket`` -> one
``tax_market`` per rupee ...); a notification that only shows a consequence
the rules produce by themselves (``changeRuler``, ``shiftMarket``, an army
icon's ``placeArmy``) is checked against our state where it names something
checkable, and produces no event; ``drawMarketCard`` is the chance outcome;
``dominanceCheckScores`` and ``updateInfluence`` are BGA's claims, kept as
``observe`` events.  The table at the bottom lists every notification.

Two things the log leaves implicit are settled from the engine's side:

* **Optional steps not taken.** BGA shows what a player did, never what they
  left undone: a Tax that stops before the card's rank, a Blackmail spy not
  placed, a Safe House not used.  Before the next decision, every open
  optional step our rules still offer is closed (``end_action`` / ``skip``);
  a Blackmail spy on a Kandahar card closes Herat's Blackmail, offered first.
  Pashtunwali Values' choice is announced only when it changes the favored
  suit: a choice BGA passes over in silence kept the suit (``choose_suit``
  with the favored suit).
* **Which card acted.** ``battle`` and a betrayal name the region or target,
  not the card used; the card is the one the next ``gameStateChange`` to
  ``playerActions`` adds to its ``usedCards`` (BGA's own list), else the only
  card of the player's court that could legally do it; otherwise the import
  is refused.

Against the Wakhan (BGA's automated opponent, id ``1``) the log is read the same way, with what
BGA leaves implicit for her settled as BGA's own code does it: her turn ends without a ``pass``
(:meth:`PaxImporter.end_wakhan_turn`), her Battle and Betray name no card
(:func:`wakhan_action_card`), and her bribe for a Move comes after it (:meth:`PaxImporter.settle_bribe`).

A player who left the table (BGA's zombie, marked ``zombie`` at the end of game) plays through
logged passes until BGA first skips one of their discards in silence: another player's discard
comes while ours await theirs.  They leave there (``leave_table``); from then on our rules take
the steps BGA's zombie skips in silence, and await what it logs (its ``pass``, ``declinePrize``),
which is played as their move where the log shows it (:mod:`replay.games.pax_pamir.zombie`).

The opening market (12 cards) is in no notification.  :meth:`PaxImporter.prepare`
follows the market through the log (purchases, shifts, discards, rupees paid
onto cards) back to the opening cells and fills the opening draws with the
identities the log fixes; a card the log never names stays unknown (``null``).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from heapq import merge
from itertools import islice
from operator import attrgetter
from typing import Any

import msgspec

from ingest.bga.base import FRAMEWORK_TYPES, GameImporter
from ingest.bga.errors import BgaImportError
from ingest.bga.log import BgaLog, Notif
from replay.games.pax_pamir.actions import hostage_bribe
from replay.games.pax_pamir.bribes import least_cost
from replay.games.pax_pamir.components import (
    COALITIONS,
    CONFLICT_FATIGUE,
    COURT,
    DC_LEAD,
    DC_LEAD_FATIGUE,
    EVENTS,
    NO_OVERTHROW_FOR_TAKEN_TRIBES,
    PUBLIC_WITHDRAWAL_HOLDS_RUPEES,
    RULER_AGAINST_PLAYERS_ONLY,
    WAKHAN_CARDS,
    card_name,
)
from replay.games.pax_pamir.court import SpyTask
from replay.games.pax_pamir.dominance import dominant_coalition
from replay.games.pax_pamir.market import RefillTask, cell_name, next_empty_cell
from replay.games.pax_pamir.state import MARKET_CELLS, PaxState
from replay.games.pax_pamir.turns import ActionsTask
from replay.games.pax_pamir.wakhan import WAKHAN_DECK, pragmatic_loyalty
from replay.games.pax_pamir.wakhan import play_bribe as wakhan_play_bribe
from replay.games.pax_pamir.zombie import ZOMBIE_TURN

# --------------------------------------------------------------------------
# BGA's identifiers
# --------------------------------------------------------------------------


def card_id(v: Any) -> int:
    """``card_12`` -> 12 (our ids are the printed numbers, as BGA's)."""
    known = _CARD_IDS.get(v) if type(v) is str else None
    if known is not None:
        return known
    text = str(v)
    if text[:5] != "card_" or not text[5:].isdigit():
        raise ValueError(f"not a card id: {text!r}")
    if type(v) is str:
        _CARD_IDS[v] = int(text[5:])
    return int(text[5:])


def cell(location: str) -> tuple[int, int]:
    """``market_1_3`` -> (1, 3)."""
    known = _CELLS.get(location) if type(location) is str else None
    if known is not None:
        return known
    kind, row, col = str(location).split("_")
    if kind != "market":
        raise ValueError(f"not a market cell: {location!r}")
    if type(location) is str:
        _CELLS[location] = int(row), int(col)
    return int(row), int(col)


_CARD_IDS: dict[str, int] = {}
_CELLS: dict[str, tuple[int, int]] = {}
"""The ids read so far (a log names the same few hundred again and again)."""


def pid(v: Any) -> str:
    return str(v)


def board_piece(location: str) -> str | None:
    """A board location as our ``take_piece`` names the piece there (``None``: a supply)."""
    loc = str(location)
    for prefix, kind in (("armies_", "army"), ("roads_", "road"), ("tribes_", "tribe")):
        if loc.startswith(prefix):
            return f"{kind}:{loc[len(prefix):]}"
    if loc.startswith("spies_card_"):
        return f"spy:{loc[len('spies_card_'):]}"
    if loc.startswith("gift_"):
        return f"gift:{loc.split('_')[1]}"
    return None


# --------------------------------------------------------------------------
# The importer
# --------------------------------------------------------------------------


@dataclass(slots=True)
class Negotiation:
    """A bribe negotiation under way: who pays, for which card and action, their last offer."""

    payer: str
    card: int
    action: str
    amount: int


class PaxImporter(GameImporter):
    game_id = "pax_pamir"

    state: PaxState

    def __init__(self, log: BgaLog, players: list[str], names: dict[str, str | None],
                 variant: Mapping[str, Any] | None = None) -> None:
        if WAKHAN_ID in players:
            names.setdefault(WAKHAN_ID, WAKHAN_NAME)  # BGA lists the people only; the record names her too
        super().__init__(log, players, names, variant)
        self.rulers_claimed: dict[str, tuple[str | None, Notif]] = {}
        """BGA's ruler changes inside a Move or Battle, checked once our rules settle rulers (after it)."""
        self.cardless_gifts = False
        """A log of BGA's code before 17 October 2023, whose ``purchaseGift`` does not name its card
        (set by :meth:`prepare`)."""
        self.bribe: int | None = None
        """The bribe BGA shows paid (``payBribe``) for the play or action that follows."""
        self.by_name: dict[str, str] = {n: p for p, n in names.items() if n}
        self.negotiation: Negotiation | None = None
        """The bribe negotiation under way (``startBribeNegotiation`` until it is accepted or declined)."""
        self.wakhan_bribe: int | None = None
        """A bribe the Wakhan paid by our rules that BGA shows after her action (its ``payBribe`` to come)."""
        self.court_order: dict[int, int] = {}
        """Card -> its place in BGA's order of the court it was played to (the card's ``state``)."""

    @classmethod
    def seat_order(cls, log: BgaLog, players: list[str]) -> list[str]:
        """Turn order: BGA's players choose loyalty in seat order (``changeLoyalty`` with a log line);
        the Wakhan, when she plays, sits second (BGA's ``player_no`` 2, her id 1)."""
        order: list[str] = []
        for n in log.by_type().get("changeLoyalty", ()):
            if n.log and isinstance(n.args, dict):
                p = pid(n.args.get("playerId"))
                if p in players and p not in order:
                    order.append(p)
        if len(order) != len(players):
            order = super().seat_order(log, players)
        if _with_wakhan(log, players):
            order.insert(1, WAKHAN_ID)
        return order

    @classmethod
    def variants(cls, log: BgaLog, players: list[str]) -> list[Mapping[str, Any]]:
        """Against the Wakhan without a table file, her loyalty variant is not in the log: first the
        rulebook's, then the steadfast one (the first whose every pragmatic loyalty BGA announces
        is ours is the record).  A log of BGA's code before 17 October 2023 is read by the rules of
        that code (:func:`older_eras`)."""
        readings: list[Mapping[str, Any]] = [{}, {"wakhan_steadfast": True}] if (
            WAKHAN_ID in players and log.table is None) else [{}]
        eras = older_eras(log)
        if eras:
            readings = [{**r, **era} for era in eras for r in readings]
        return readings

    def options(self) -> dict[str, Any]:
        """``bga``; with the Wakhan, her seat and her loyalty variant (the table's options, else the
        reading tried: :meth:`variants`)."""
        older = {option: True for option in OLDER_CODE if self.variant.get(option)}
        if WAKHAN_ID not in self.players:
            return {"ruleset": "bga", **older}
        table = self.log.table
        opts = table.options if table is not None else {}
        steadfast = (str(opts.get(WAKHAN_OPTION)) == WAKHAN_IMPROVED or str(opts.get(STEADFAST_OPTION)) == "1"
                     or bool(self.variant.get("wakhan_steadfast")))
        return {"ruleset": "bga", "wakhan": WAKHAN_ID, **({"wakhan_steadfast": True} if steadfast else {}), **older}

    def cancelled(self) -> set[str]:
        """Undo: the uids the ``clearTurn`` notifications list (each lists all cancelled so far),
        less those of the first move that came before the point the undo goes back to.

        BGA flags whole moves cancelled: every move that wrote to its undo journal since the last
        checkpoint.  When the checkpoint was taken inside a move (a turn that starts with
        Blackmail, after the previous player's last discard and the refill; the other player's
        answer to a bribe), that move is flagged whole, though what it did before the checkpoint
        stands.  The undo returns to the state entered at the checkpoint, which the state change
        after the ``clearTurn`` names: if the game was not in that state just before the first
        flagged notification, the checkpoint is the last change to that state within the first
        flagged move, and what precedes it there stands.
        """
        out: set[str] = set()
        listed: set[str] = set()
        notifs = self.log.notifs
        for clear in self.log.by_type().get("clearTurn", ()):
            if not isinstance(clear.args, dict):
                continue
            new = {str(u) for u in clear.args.get("notifIds") or ()} - listed
            listed |= new
            out |= new
            flagged = [n for n in notifs if n.uid in new]
            if not flagged:
                continue
            back_to = next((n.state_id for n in islice(notifs, clear.seq + 1, None)
                            if n.type == "gameStateChange"), None)
            before = next((n.state_id for n in reversed(notifs[:flagged[0].seq]) if n.type == "gameStateChange"),
                          None)
            if back_to is None or before == back_to:
                continue
            first_move = [n for n in flagged if n.packet is flagged[0].packet]
            checkpoint = next((n for n in reversed(first_move)
                               if n.type == "gameStateChange" and n.state_id == back_to), None)
            if checkpoint is not None:
                out -= {n.uid for n in first_move if n.seq < checkpoint.seq and n.uid is not None}
        return out

    def prepare(self) -> None:
        """Read the log tokens of BGA's code before October 2023 as today's (:func:`read_log_tokens`);
        deal the opening market with the identities the log fixes later (unknown otherwise)."""
        if has_log_tokens(self.log):
            read_log_tokens(self, self.log)
        self.cardless_gifts = bool(older_eras(self.log))
        known = opening_market(self.log, self.cancelled_uids)
        for r, c in MARKET_CELLS:
            card, where = known.get((r, c), (None, None))
            self.current = where
            self.chance({"draw": "deck", "items": [card]})
        self.current = None

    def finish(self) -> None:
        """The last ruler claims are checked; BGA's end of game must be ours too (in a solo game,
        with the person's margin over the Wakhan).  A reading of BGA's older code is said in a note
        (:data:`OLDER_CODE`)."""
        self.notes += [note for option, note in OLDER_CODE.items() if self.variant.get(option)]
        if self.rulers_claimed:
            self.check_rulers()
        if self.ended is not None and self.is_over() and self.players == [self.players[0], WAKHAN_ID]:
            self.check_solo_margin()
        if self.ended is not None and not self.is_over():
            t = self.task()
            req = self.awaits_chance()
            awaiting = (f"{t.player}'s {t.describe()}" if t is not None
                        else req.describe() if req is not None else "more of the game")
            self.fail(f"BGA ends the game here; our rules still await {awaiting}")

    def check_solo_margin(self) -> None:
        """BGA's score of a solo game is the person's final score less the Wakhan's, and 1 for a tie
        the person wins on the tiebreak (military stars, then rupees); checked against ours."""
        s = self.state
        person = self.players[0]
        bga = super().result() or {}
        claimed = (bga.get("score") or {}).get(person)
        if claimed is None:
            return
        margin = s.total(person) - s.total(WAKHAN_ID)
        tiebreak = {p: s.stars(p, "military") * 100 + s.rupees[p] for p in (person, WAKHAN_ID)}
        if margin == 0 and tiebreak[person] >= tiebreak[WAKHAN_ID]:
            margin = 1
        self.current = self.ended
        self.check(claimed == margin, f"BGA's final score for {person} (their margin over the Wakhan) is {claimed}; "
                                      f"our rules give {margin}")

    def result(self) -> dict[str, Any] | None:
        """BGA's result; with the Wakhan, without BGA's ranks (they leave her out) and, in a solo
        game, without its score (the margin over her, checked by :meth:`check_solo_margin`)."""
        out = super().result()
        if out is None or WAKHAN_ID not in self.players:
            return out
        out.pop("rank", None)
        if len(self.players) == 2:
            out.pop("score", None)
        return out

    # ---- helpers for handlers --------------------------------------------------------

    def task(self) -> Any:
        """The engine's pending decision (its top task), or ``None`` while it awaits chance / is over."""
        s = self.state
        if s.over or not s.stack or not s.stack[-1].decision:
            return None
        return s.stack[-1]

    def zombie_went_on(self) -> None:
        """BGA shows what comes after a step our rules still await of a player its end of game marks
        as a zombie, one BGA's zombie takes in silence (a spy or a road of a card just played, a
        piece to choose): the player left there, and the rules take that step as BGA's zombie does."""
        t = self.task()
        if t is not None and type(t) in ZOMBIE_TURN and t.player in self.zombies and t.player not in self.state.left:
            self.leave_table(t.player)

    def accepted(self, t: Any) -> frozenset[str]:
        """The move types the pending decision ``t`` accepts (none while there is none)."""
        if t is None:
            return _NOTHING
        tags = _ACCEPTS.get(type(t))
        if tags is None:
            tags = _ACCEPTS[type(t)] = frozenset(str(m.__struct_config__.tag) for m in t.accepts)
        return tags

    def awaits(self, move_type: str) -> bool:
        """The engine's pending decision accepts a move of this type."""
        return move_type in self.accepted(self.task())

    def settle(self, keep: str | None = None) -> None:
        """Close the optional steps BGA shows were not taken (``end_action`` / ``skip``).

        ``keep``: the move type about to be played; a step that accepts it is left open.
        """
        for _ in range(20):
            t = self.task()
            tags = self.accepted(t)
            if t is None or keep in tags:
                break
            closing = "end_action" if "end_action" in tags else "skip" if "skip" in tags else None
            if closing and self.zombies and self.left_here(t.player, self._move_of(closing, {})):
                continue  # a zombie's step, which BGA took in silence
            if "end_action" in tags:
                self.move(t.player, "end_action")
            elif "skip" in tags:
                self.move(t.player, "skip")
            elif "choose_suit" in tags:
                # Pashtunwali Values: BGA announces a choice only when the suit changes
                self.move(t.player, "choose_suit", suit=self.state.favored)
            else:
                break
        if self.rulers_claimed and not self.awaits("end_action"):
            self.check_rulers()

    def move(self, player: Any, type_: str, /, **fields: Any) -> None:
        """A move, once BGA's ruler claims so far are checked (see :func:`change_ruler`) and the
        Wakhan's turn is over if the move is not hers to make in it (:meth:`end_wakhan_turn`)."""
        if self.rulers_claimed and not self.awaits("end_action"):
            self.check_rulers()
        if self.wakhan_bribe is not None and type_ in _ACTION_TYPES:
            self.fail(f"BGA shows no bribe paid by the Wakhan for her last action; our rules paid {self.wakhan_bribe}")
        if self.wakhan_acting() and (pid(player) != WAKHAN_ID or type_ not in self.accepted(self.task())):
            self.end_wakhan_turn()
        super().move(player, type_, **fields)

    def chance(self, outcome: dict[str, Any]) -> None:
        if self.rulers_claimed and not self.awaits("end_action"):
            self.check_rulers()
        if self.wakhan_acting():
            self.end_wakhan_turn()
        super().chance(outcome)

    def wakhan_acting(self) -> bool:
        """The rules await the Wakhan's next action (or the end of her action phase)."""
        t = self.task()
        return type(t) is ActionsTask and t.player == WAKHAN_ID

    def end_wakhan_turn(self) -> None:
        """``end_turn`` for the Wakhan: BGA sends no ``pass`` for her; her action phase is over when
        something else happens (another player's move, her cleanup, a draw).  What she left
        undone in it is closed first (:meth:`settle`)."""
        t = self.task()
        if t is None or t.player != WAKHAN_ID:
            return
        self.settle()
        if self.wakhan_acting():
            super().move(WAKHAN_ID, "end_turn")

    def check_rulers(self) -> None:
        """BGA's ruler changes against ours (see :func:`change_ruler`)."""
        claims, self.rulers_claimed = self.rulers_claimed, {}
        here = self.current
        for region, (new, n) in sorted(claims.items()):
            ours = self.state.rulers[region]
            if ours != new:
                self.current = n
                self.fail(f"BGA makes {new or 'nobody'} ruler of {region.title()}; our rules give {ours or 'nobody'}")
        self.current = here

    def decide(self, player: Any, type_: str, /, **fields: Any) -> None:
        """A player's decision: close what was left undone, then play it (and settle its bribe)."""
        self.settle(keep=type_)
        self.move(player, type_, **fields)
        self.settle_bribe()

    def settle_bribe(self) -> None:
        """The bribe step our rules ask for after a play or card action.

        BGA shows a bribe only when one is paid (``payBribe``, after any
        negotiation); an action that goes ahead without one was done for
        nothing (a bribe of 0: waived by Courtly Manners, or accepted).
        """
        t = self.task()
        if "offer_bribe" in self.accepted(t) and t.player == WAKHAN_ID and self.bribe is None:
            # the Wakhan pays in full (none while she holds Courtly Manners); BGA may show it after the action
            amount = 0 if self.state.may_refuse_bribes(WAKHAN_ID) else t.full
            self.wakhan_bribe = amount or None
            self.move(WAKHAN_ID, "offer_bribe", amount=amount)
        elif "offer_bribe" in self.accepted(t):
            amount, self.bribe = self.bribe or 0, None
            self.move(t.player, "offer_bribe", amount=amount)
            t = self.task()
            if "accept_bribe" in self.accepted(t):
                self.move(t.player, "accept_bribe")
        elif self.bribe is not None:
            self.fail(f"BGA shows a bribe of {self.bribe} paid, our rules ask for none here")

    def refill_cell(self) -> tuple[int, int] | None:
        """The market cell our rules draw into next, while they await that draw (else ``None``).

        Asking the engine's turn tells the same, but makes the draw's request, whose pool
        (every card the deck may still give) the import never reads: a fifth of a draw's cost.
        """
        s = self.state
        t = s.stack[-1] if s.stack and not s.over else None
        if type(t) is not RefillTask or not t.awaits(s):
            return None
        return next_empty_cell(s)

    def check(self, ok: bool, reason: str) -> None:
        if not ok:
            self.fail(reason)

    def player_named(self, name: Any) -> str:
        """The player BGA names by name only (the Wakhan too), else the log is refused."""
        p = self.by_name.get(str(name)) or self.player_by_name(name)
        if p is None:
            self.fail(f"no player is named {name!r} at this table")
        return p

    def used_card(self, n: Notif, action: str) -> int:
        """The court card that performed ``action`` (see the module docstring; the Wakhan's:
        :func:`wakhan_action_card`)."""
        s = self.state
        player = pid(n.args["playerId"])
        if player == WAKHAN_ID:
            return wakhan_action_card(self, action)
        changes = self.log.by_type().get("gameStateChange", [])
        for later in islice(changes, bisect_left(changes, n.seq, key=_SEQ), None):  # those after n
            sid = later.state_id  # most are to other states: told without decoding their args
            if (sid is not None and sid not in _USED_CARD_STATES) or not isinstance(later.args, dict):
                continue
            if sid == 20 and isinstance(later.args.get("args"), dict):
                used = [card_id(c) for c in later.args["args"].get("usedCards") or ()]
                new = [c for c in used if c not in s.used and c in s.courts[player]]
                if len(new) == 1:
                    return new[0]
                break
            if sid in (40, 98, 99):
                break
        fits = [c for c in s.courts[player] if action in COURT[c].actions and c not in s.used]
        if len(fits) == 1:
            return fits[0]
        self.fail(f"cannot tell which card of {player}'s court was used to {action} "
                  f"(candidates: {', '.join(card_name(c) for c in fits) or 'none'})")

    def following(self, n: Notif) -> list[Notif]:
        """The notifications after ``n`` (for look-ahead)."""
        return self.log.notifs[n.seq + 1:]

    def following_from(self, n: Notif) -> Iterator[Notif]:
        """``n`` and the notifications after it, undone ones left out (for look-ahead)."""
        cancelled = self.cancelled_uids
        for later in islice(self.log.notifs, n.seq, None):
            if later.uid is None or later.uid not in cancelled:
                yield later


WAKHAN_ID = "1"
"""The Wakhan's player id on BGA (she is in no list of the table's players)."""
WAKHAN_NAME = "Wakhan"
WAKHAN_OPTION = "101"
"""BGA's table option for the Wakhan: 0 off, 1 the rulebook's, 2 improved (every variant), 3 custom."""
WAKHAN_IMPROVED = "2"
STEADFAST_OPTION = "104"
"""BGA's table option for the steadfast pragmatic loyalty variant (1: on)."""

WAKHAN_TYPES = frozenset({"wakhanDrawCard", "wakhanReshuffleDeck", "wakhanRadicalize", "wakhanUpdatePragmaticLoyalty"})
"""The Wakhan's own notifications: the first one shows a game against her (her first turn
draws from her deck)."""


def wakhan_action_card(imp: PaxImporter, action: str) -> int:
    """The card of the Wakhan's court that performs ``action``, which BGA's notification does not name.

    BGA's Wakhan acts with a card it picks by a fixed rule, which this follows: among her unused
    cards that show the action and whose cost and bribe she can pay, while she has actions left
    the first of these that decides (BGA's card priority): a card of the favored suit, a patriot
    of the dominant coalition, a card whose prize is of that coalition, any patriot, a leveraged
    card, the highest rank, the highest card number; once her actions are spent (her bonus
    actions), the first such card of the favored suit in her court from left to right.
    """
    s = imp.state
    w = WAKHAN_ID
    cards = [c for c in s.courts[w] if action in COURT[c].actions and c not in s.used and _affords(s, c, action)]
    if s.actions_left <= 0:
        cards = [c for c in cards if s.acts_favored(c)]
        if cards:
            return cards[0]
    elif cards:
        return _highest_priority(s, cards)
    imp.fail(f"cannot tell which card of the Wakhan's court was used to {action}: none of her cards could")


def _affords(s: PaxState, card: int, action: str) -> bool:
    """BGA's ``wakhanCanPayForCardAction``: the action's least cost and the card's bribe."""
    cost = least_cost(s, WAKHAN_ID, action)
    due = hostage_bribe(s, WAKHAN_ID, card)
    return cost is not None and cost + (due[1] if due else 0) <= s.rupees[WAKHAN_ID]


def _highest_priority(s: PaxState, cards: list[int]) -> int:
    """BGA's card priority for the Wakhan (see :func:`wakhan_action_card`): each test that some
    but not all of the cards pass narrows them; the highest card number settles the rest."""
    threshold = DC_LEAD_FATIGUE if s.event_held(CONFLICT_FATIGUE) else DC_LEAD
    dominant = dominant_coalition({c: s.blocks_in_play(c) for c in COALITIONS}, threshold)
    tests: list[Callable[[int], bool]] = [
        lambda c: COURT[c].suit == s.favored,
        lambda c: dominant is not None and COURT[c].patriot == dominant,
        lambda c: dominant is not None and COURT[c].prize == dominant,
        lambda c: COURT[c].patriot is not None,
        lambda c: "leverage" in COURT[c].impact,
    ]
    for test in tests:
        kept = [c for c in cards if test(c)]
        if len(kept) == 1:
            return kept[0]
        if kept:
            cards = kept
    top = max(COURT[c].rank for c in cards)
    return max(c for c in cards if COURT[c].rank == top)


def _with_wakhan(log: BgaLog, players: list[str]) -> bool:
    """A game against the Wakhan: her notifications, her table option, or a single person (BGA's
    solo game is always against her)."""
    if any(t in log.by_type() for t in WAKHAN_TYPES) or len(players) == 1:
        return True
    table = log.table
    return table is not None and str(table.options.get(WAKHAN_OPTION, "0")) not in ("0", "")

_USED_CARD_STATES = frozenset({20, 40, 98, 99})
"""The state changes :meth:`PaxImporter.used_card` reads: ``playerActions`` (its ``usedCards``), and
the ends of a turn (cleanup, the final scoring, the end of the game)."""
_SEQ = attrgetter("seq")

_ACTION_TYPES = frozenset({"radicalize", "buy", "play", "tax", "gift", "build", "move", "betray", "battle", "end_turn"})
"""A player's next action (or the end of the action phase): a bribe still to be shown is missing."""

_ACCEPTS: dict[type, frozenset[str]] = {}
"""Task class -> the move types it accepts."""
_NOTHING: frozenset[str] = frozenset()

_MARKET_TYPES = frozenset({"purchaseCard", "payRupeesToMarket", "shiftMarket", "drawMarketCard", "discardFromMarket",
                           "wakhanRadicalize"})


def opening_market(log: BgaLog, cancelled: set[str]) -> dict[tuple[int, int], tuple[int, Notif]]:
    """Opening cell -> (card, the notification that names it), following the market through the log.

    Each cell starts with its opening card (unknown).  A purchase, a shift,
    a discard from the market or a rupee paid onto a card names the card in
    a cell; if that cell still holds an opening card, its identity is fixed.
    Draws put known cards in; purchases and discards empty cells.
    """
    grid: dict[tuple[int, int], Any] = {rc: ("opening", rc) for rc in MARKET_CELLS}
    found: dict[tuple[int, int], tuple[int, Notif]] = {}

    def name(rc: tuple[int, int], card: int, n: Notif) -> None:
        v = grid.get(rc)
        if isinstance(v, tuple):
            found[v[1]] = (card, n)
            grid[rc] = card

    by_type = log.by_type()
    # in log order, merged as they are read: the walk stops long before the log's end
    for n in merge(*(by_type[t] for t in _MARKET_TYPES if t in by_type), key=_SEQ):
        if len(found) == len(MARKET_CELLS):
            break  # every opening card is named: the rest of the log changes nothing here
        if (n.uid is not None and n.uid in cancelled) or not isinstance(n.args, dict):
            continue
        try:
            _follow_market(n, grid, name)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise BgaImportError(f"unexpected arguments ({type(exc).__name__}: {exc})", file=log.source,
                                 packet=n.packet_id, notif=n.type, uid=n.uid) from None
    return found


def _follow_market(n: Notif, grid: dict[tuple[int, int], Any],
                   name: Callable[[tuple[int, int], int, Notif], None]) -> None:
    """One market notification for :func:`opening_market`."""
    t, a = n.type, n.args
    if t in ("purchaseCard", "payRupeesToMarket", "wakhanRadicalize"):
        for r in a.get("rupeesOnCards") or ():
            name((int(r["row"]), int(r["column"])), card_id(r["cardId"]), n)
    if t in ("purchaseCard", "wakhanRadicalize"):
        rc = cell(a["marketLocation"])
        name(rc, card_id(a["card"]["id"]), n)
        grid[rc] = None
    elif t == "shiftMarket":
        m = a["move"]
        frm, to = cell(m["from"]), cell(m["to"])
        name(frm, card_id(m["cardId"]), n)
        grid[to], grid[frm] = grid[frm], None
    elif t == "drawMarketCard":
        grid[cell(a["to"])] = card_id(a["cardId"])
    elif t == "discardFromMarket":
        rc = cell(a["from"])
        name(rc, card_id(a["cardId"]), n)
        grid[rc] = None


# --------------------------------------------------------------------------
# Setup and the action phase
# --------------------------------------------------------------------------


def wakhan_card(v: Any) -> int:
    """``wakhan_card_7`` -> 7."""
    text = str(v)
    if not text.startswith("wakhan_card_") or not text[len("wakhan_card_"):].isdigit():
        raise ValueError(f"not an AI card of the Wakhan: {text!r}")
    return int(text[len("wakhan_card_"):])


def wakhan_draw_card(imp: PaxImporter, n: Notif) -> None:
    """The chance outcome of her AI deck: the card that goes onto her discard pile
    (``discardPile.to``; ``deck.to`` is the next card's back, public, which her rules do not read)."""
    imp.chance({"draw": WAKHAN_DECK, "items": [wakhan_card(n.args["discardPile"]["to"])]})


def wakhan_reshuffle_deck(imp: PaxImporter, n: Notif) -> None:
    """Checked: our rules shuffled her AI deck again (her last card drawn)."""
    s = imp.state
    imp.check(not s.ai_discard and len(s.ai_deck) == len(WAKHAN_CARDS),
              f"BGA reshuffles the Wakhan's AI deck; ours still holds {len(s.ai_deck)} card(s)")


def wakhan_update_pragmatic_loyalty(imp: PaxImporter, n: Notif) -> None:
    """Checked: her pragmatic loyalty is ours (the table's variant decides it, see :meth:`PaxImporter.options`)."""
    bga, ours = n.args.get("pragmaticLoyalty"), pragmatic_loyalty(imp.state)
    imp.check(bga == ours, f"BGA gives the Wakhan the pragmatic loyalty {bga}; our rules give {ours} "
                           f"(steadfast variant {'on' if imp.state.wakhan_steadfast else 'off'})")


def wakhan_radicalize(imp: PaxImporter, n: Notif) -> None:
    """``radicalize``: her purchase, played at once (its bribe, ``payBribe`` before it, paid by the
    rules); to the discard pile (``newLocation``) when she cannot pay the bribe."""
    a = n.args
    row, col = cell(a["marketLocation"])
    card = card_id(a["card"]["id"])
    imp.settle(keep="radicalize")
    _check_purchase(imp, row, col, card, a["marketLocation"], a.get("receivedRupees"))
    s = imp.state
    side: str | None = None
    if card in COURT and a.get("newLocation") != "discardPile":
        side = court_side(imp, WAKHAN_ID, CardRef(a["card"]["id"], a["card"].get("state")), a.get("side"))
    paid, imp.bribe = imp.bribe or 0, None
    due = wakhan_play_bribe(s, WAKHAN_ID, card) if card in COURT else None
    if side is not None and paid != (due[1] if due else 0):
        imp.fail(f"BGA shows the Wakhan paying a bribe of {paid} to play {card_name(card)}; our rules ask "
                 f"{due[1] if due else 0}")
    imp.move(WAKHAN_ID, "radicalize", row=row, col=col, side=side)


def change_loyalty(imp: PaxImporter, n: Notif) -> None:
    """With a log line: a starting loyalty (``choose_loyalty``). Empty log: a change the rules made."""
    p, coalition = pid(n.args["playerId"]), n.args["coalition"]
    if n.log:
        imp.decide(p, "choose_loyalty", coalition=coalition)
    else:
        imp.check(imp.state.loyalty[p] == coalition,
                  f"BGA changes {p}'s loyalty to {coalition}; our rules give {imp.state.loyalty[p]}")


class CardRef(msgspec.Struct):
    id: Any
    state: Any = None


class Purchase(msgspec.Struct):
    """What ``purchaseCard`` says that the import reads (BGA restates the whole card - its text,
    icons, actions - which is skipped, not decoded)."""

    playerId: Any  # noqa: N815 - BGA's names
    marketLocation: Any  # noqa: N815
    card: CardRef
    receivedRupees: Any = 0  # noqa: N815


class Play(msgspec.Struct):
    """What ``playCard`` says that the import reads (the card restated, skipped as in :class:`Purchase`)."""

    playerId: Any  # noqa: N815
    card: CardRef
    side: Any = None


# What the most frequent notifications say that the import reads: the rest (the log line's
# tokens, the player's name again) is skipped, not decoded.

class ByPlayer(msgspec.Struct):
    """``pass``: who."""

    playerId: Any  # noqa: N815


class CardAction(msgspec.Struct):
    """``tax``, ``move``: who, with which card."""

    playerId: Any  # noqa: N815
    tkn_largeCard: Any


class Route(msgspec.Struct):
    """A piece's way: ``move.from`` -> ``move.to``."""

    from_: Any = msgspec.field(name="from")
    to: Any


class Placement(msgspec.Struct):
    """``placeArmy``, ``placeRoad``, ``placeCylinder``: who, and the piece's way."""

    playerId: Any  # noqa: N815
    move: Route


class Discard(msgspec.Struct):
    """``discard``: the card, whose it was, and where from (``hand``, ``court``)."""

    cardId: Any  # noqa: N815
    playerId: Any  # noqa: N815
    from_: Any = msgspec.field(default=None, name="from")


class Draw(msgspec.Struct):
    """``drawMarketCard``: the card, and the cell it goes to."""

    cardId: Any  # noqa: N815
    to: Any


def purchase_card(imp: PaxImporter, n: Notif) -> None:
    """``buy`` the card at ``marketLocation`` (checked: the card, and the rupees taken from it)."""
    a = n.args_as(Purchase)
    row, col = cell(a.marketLocation)
    card = card_id(a.card.id)
    imp.settle(keep="buy")
    _check_purchase(imp, row, col, card, a.marketLocation, a.receivedRupees)
    if pid(a.playerId) == WAKHAN_ID:  # her Ambition: a Dominance Check, bought as she radicalizes
        imp.move(WAKHAN_ID, "radicalize", row=row, col=col)
        return
    imp.move(a.playerId, "buy", row=row, col=col)


def _check_purchase(imp: PaxImporter, row: int, col: int, card: int, location: Any, received: Any) -> None:
    """A purchase (or the Wakhan's Radicalize) checked: our market has the card there, with the
    rupees its buyer takes."""
    s = imp.state
    ours = s.market[row][col]
    if ours != card:
        imp.fail(f"BGA buys {card_name(card)} at {cell_name(row, col)} ({location}); our market has "
                 f"{card_name(ours) if ours else 'nothing'} there")
    got = int(received or 0)
    if s.market_rupees[row][col] != got:
        imp.fail(f"BGA's buyer takes {got} rupee(s) from {card_name(card)}; our market has "
                 f"{s.market_rupees[row][col]} on it")


def play_card(imp: PaxImporter, n: Notif) -> None:
    """``play`` a card from hand to the left or right end of the court."""
    a = n.args_as(Play)
    player = pid(a.playerId)
    imp.decide(player, "play", card=card_id(a.card.id), side=court_side(imp, player, a.card, a.side))


def court_side(imp: PaxImporter, player: str, card: CardRef, word: Any) -> str:
    """The end of ``player``'s court a card played to it went to, from BGA's order of that court.

    BGA numbers a court's cards (``state``): the first at 0, a card played to the left end one
    below the lowest, one to the right end one above the highest.  Its ``side`` word ("left",
    "right") says the same in the language of the log's messages, so it is only checked, and only
    when it is English.  In an empty court both ends are one place, which our records write as
    "left" (BGA names a side there too)."""
    court = imp.state.courts[player]
    order = imp.court_order
    try:
        place = order[card_id(card.id)] = int(card.state)
    except (TypeError, ValueError):
        imp.fail(f"BGA does not say where in the court {card_name(card_id(card.id))} went (state {card.state!r})")
    if not court:
        return "left"
    leftmost = order.get(court[0])
    if leftmost is None:
        imp.fail(f"BGA never said where in the court {card_name(court[0])} went")
    side = "left" if place < leftmost else "right"
    if word in ("left", "right") and word != side:
        imp.fail(f"BGA says the {word} end of the court, but numbers the card {place} and the leftmost {leftmost}")
    return side


# ---- the log tokens of the code before October 2023 --------------------------------

LOG_TOKENS: dict[str, tuple[str, str]] = {
    "logTokenLargeCard": ("tkn_largeCard", "largeCard"),
    "logTokenLocation": ("tkn_regionName", "regionName"),
}
"""BGA's code before ``d68382c`` (2023-10-11) sent the card or region a notification is about as a
log token, ``"kind:value"`` (``logTokenLargeCard: "largeCard:card_53"``), where today's sends the
value under a ``tkn_`` name (``tkn_largeCard: "card_53"``): old name -> (today's name, its kind)."""
TOKEN_TYPES = ("tax", "move", "battle", "payRupeesToMarket", "startBribeNegotiation")
"""The notifications whose card or region this importer reads from a token."""


OLDER_CODE = {
    RULER_AGAINST_PLAYERS_ONLY: "read by the rulership of BGA's code before 19 October 2023, which compared a "
                                "player's ruling pieces with the other players' only (option "
                                "ruler_against_players_only)",
    NO_OVERTHROW_FOR_TAKEN_TRIBES: "read without Overthrow where a last tribe is taken for a piece placed "
                                   "elsewhere, as in BGA's code before 16 October 2023 (option "
                                   "no_overthrow_for_taken_tribes)",
    PUBLIC_WITHDRAWAL_HOLDS_RUPEES: "read with Public Withdrawal holding the rupees paid onto it, as in BGA's "
                                    "code before 1 October 2023 (option public_withdrawal_holds_rupees)",
}
"""The note of each reading of BGA's older code (:meth:`PaxImporter.variants`)."""
_RULERSHIP = {RULER_AGAINST_PLAYERS_ONLY: True}
_OVERTHROW = {**_RULERSHIP, NO_OVERTHROW_FOR_TAKEN_TRIBES: True}
TOKEN_ERAS: tuple[dict[str, bool], ...] = (_OVERTHROW, {**_OVERTHROW, PUBLIC_WITHDRAWAL_HOLDS_RUPEES: True})
"""The rules a log with log tokens (BGA's code before 11 October 2023) is read by, in turn: those of
1 to 11 October (rulership and Overthrow, fixed on 19 and 16 October), then of before 1 October
(Public Withdrawal as well)."""
GIFT_ERAS: tuple[dict[str, bool], ...] = (_RULERSHIP, _OVERTHROW)
"""The rules a log of BGA's code of 11 to 17 October 2023 (no log tokens, a gift without its card) is
read by, in turn: those of 16 to 17 October (rulership), then of before 16 October (Overthrow too)."""


def older_eras(log: BgaLog) -> tuple[dict[str, bool], ...]:
    """The rules of BGA's older code a log is read by, in turn (none: today's rules only).  The log
    tells its code apart by its log tokens (:func:`has_log_tokens`, before 11 October 2023) or by a
    ``purchaseGift`` that never names its card (before ``a7b3cfd``, 17 October 2023)."""
    if has_log_tokens(log):
        return TOKEN_ERAS
    gifts = log.by_type().get("purchaseGift", ())
    if gifts and all(isinstance(n.args, dict) and "tkn_largeCard" not in n.args for n in gifts):
        return GIFT_ERAS
    return ()


def has_log_tokens(log: BgaLog) -> bool:
    """Whether the log comes from BGA's code before 11 October 2023: a notification of
    :data:`TOKEN_TYPES` names its card or region by an old log token."""
    by_type = log.by_type()
    first = [ns[0] for t in TOKEN_TYPES if (ns := by_type.get(t))]
    return any(isinstance(n.args, dict) and not LOG_TOKENS.keys().isdisjoint(n.args) for n in first)


def read_log_tokens(imp: PaxImporter, log: BgaLog) -> None:
    """Give each notification of :data:`TOKEN_TYPES` that carries an old log token (:data:`LOG_TOKENS`)
    today's argument, unless it has one; a token of another kind refuses the log."""
    by_type = log.by_type()
    for n in (n for t in TOKEN_TYPES for n in by_type.get(t, ())):
        a = n.args
        if not isinstance(a, dict):
            continue
        for old, (name, kind) in LOG_TOKENS.items():
            token = a.get(old)
            if token is None or name in a:
                continue
            found, _, value = str(token).partition(":")
            if found != kind or not value:
                imp.current = n
                imp.fail(f"{old} is {token!r}, not a {kind} token")
            a[name] = value


def pass_(imp: PaxImporter, n: Notif) -> None:
    """``end_turn``: the action phase ends, cleanup follows."""
    imp.decide(n.args_as(ByPlayer).playerId, "end_turn")


# ---- card actions ------------------------------------------------------------------


def tax(imp: PaxImporter, n: Notif) -> None:
    a = n.args_as(CardAction)
    imp.decide(a.playerId, "tax", card=card_id(a.tkn_largeCard))


def tax_market(imp: PaxImporter, n: Notif) -> None:
    """One ``tax_market`` per rupee taken."""
    for r in n.args["selectedRupees"]:
        imp.move(n.args["playerId"], "tax_market", row=int(r["row"]), col=int(r["column"]))


def tax_player(imp: PaxImporter, n: Notif) -> None:
    """One ``tax_player`` per rupee taken."""
    for _ in range(int(n.args["amount"])):
        imp.move(n.args["playerId"], "tax_player", player=pid(n.args["taxedPlayerId"]))


def purchase_gift(imp: PaxImporter, n: Notif) -> None:
    """A gift bought with a court card's action: BGA's code before 17 October 2023 does not name the
    card (found as for a battle: :meth:`PaxImporter.used_card`); later code must."""
    a = n.args
    card = imp.used_card(n, "gift") if imp.cardless_gifts else card_id(a["tkn_largeCard"])
    imp.decide(a["playerId"], "gift", card=card, value=int(a["value"]))


_BETWEEN_BLOCKS = FRAMEWORK_TYPES | {"changeRuler", "returnCylinder", "returnCoalitionBlock"}
"""What may come between a build's payment and its placements, or between two of them: the
framework's notifications (clocks, states, a player waking the others) and what a placement
changes (rulers, pieces it displaces)."""


def pay_rupees_to_market(imp: PaxImporter, n: Notif) -> None:
    """Build (BGA says how many rupees: the blocks are the placements that follow), betray (a card,
    no count), or a gift's payment (neither).  Told apart by the arguments, which are the same in
    every language of the log's messages."""
    a = n.args
    player = pid(a["playerId"])
    if "numberOfRupees" in a:
        blocks = 0
        for later in imp.following(n):
            if later.type in ("placeArmy", "placeRoad"):
                blocks += 1
            elif later.type not in _BETWEEN_BLOCKS:
                break
        imp.decide(player, "build", card=card_id(a["tkn_largeCard"]), blocks=blocks)
    elif "tkn_largeCard" in a:
        target = card_id(a["tkn_largeCard"])
        imp.settle(keep="betray")
        imp.move(player, "betray", card=imp.used_card(n, "betray"), target=target)
        imp.settle_bribe()
    elif n.log:
        imp.fail(f"a payment to the market this importer does not know ({n.log!r})")


def move_action(imp: PaxImporter, n: Notif) -> None:
    a = n.args_as(CardAction)
    imp.decide(a.playerId, "move", card=card_id(a.tkn_largeCard))


def battle(imp: PaxImporter, n: Notif) -> None:
    """``battle`` in a region (``tkn_regionName``) or on a court card (``tkn_largeCard``)."""
    a = n.args
    imp.settle(keep="battle")
    card = imp.used_card(n, "battle")
    if a.get("tkn_regionName"):
        imp.move(a["playerId"], "battle", card=card, region=str(a["tkn_regionName"]))
    else:
        imp.move(a["playerId"], "battle", card=card, court_card=card_id(a["tkn_largeCard"]))
    imp.settle_bribe()


def move_token(imp: PaxImporter, n: Notif) -> None:
    """A piece's whole way (BGA gives only its start and end): our steps along a shortest legal path.

    During a Safe House decision it is the spy sheltering on a Safe House card.
    """
    m = n.args["move"]
    frm, to = str(m["from"]), str(m["to"])
    player = pid(n.args["playerId"])
    if imp.awaits("remove_spy") and frm == f"spies_card_{imp.task().court_card}":
        shelter_battle_spies(imp, n)
    if imp.awaits("safe_house"):
        if to.startswith("spies_card_"):
            imp.move(player, "safe_house", card=int(to[len("spies_card_"):]))
        elif to == f"cylinders_{player}":
            imp.move(player, "skip")
        else:
            imp.fail(f"BGA moves {player}'s removed spy to {to}: neither a Safe House card nor the supply")
        return
    imp.settle(keep="move_army")
    steps = step_path(imp, player, frm, to)
    if steps is None:
        imp.fail(f"our rules find no way for {player}'s piece from {frm} to {to} in the steps left")
    for type_, fields in steps:
        imp.move(player, type_, **fields)


def shelter_battle_spies(imp: PaxImporter, n: Notif) -> None:
    """A battle on a court card: the spies whose owners hold a Safe House, removed.

    BGA removes such spies silently (no ``returnCylinder``) and asks each owner, after the
    battle, where the spy goes: a ``moveToken`` from the battle's card to a Safe House card or
    to the owner's supply.  Those ``moveToken`` notifications, from ``n`` on, name the spies
    removed (our ``remove_spy``, in the order BGA asks, so that our Safe House decisions come in
    the same order); the battle then ends.
    """
    card = f"spies_card_{imp.task().court_card}"
    for later in imp.following_from(n):
        if later.type == "moveToken":
            a = later.args
            if not isinstance(a, dict) or not isinstance(a.get("move"), dict) or str(a["move"].get("from")) != card:
                break
            imp.move(imp.task().player, "remove_spy", player=pid(a["playerId"]))
        elif later.type not in FRAMEWORK_TYPES:
            break
    if imp.awaits("remove_spy"):  # the battle removed fewer than it could: it is over
        imp.move(imp.task().player, "end_action")


def step_path(imp: PaxImporter, player: str, frm: str, to: str) -> list[tuple[str, dict[str, Any]]] | None:
    """The shortest sequence of our one-step moves taking a piece from ``frm`` to ``to`` (breadth first)."""
    if frm.startswith("armies_") and to.startswith("armies_"):
        type_, key, a, b = "move_army", "region", frm[7:], to[7:]
    elif frm.startswith("tribes_") and to.startswith("tribes_"):
        type_, key, a, b = "move_tribe", "region", frm[7:], to[7:]
    elif frm.startswith("spies_card_") and to.startswith("spies_card_"):
        type_, key, a, b = "move_spy", "card", int(frm[11:]), int(to[11:])  # type: ignore[assignment]
    else:
        return None
    frontier: list[tuple[Any, PaxState, list[tuple[str, dict[str, Any]]]]] = [(a, imp.state, [])]
    for _ in range(8):
        nxt = []
        for here, st, path in frontier:
            for mv in st.legal_moves():
                if mv.type != type_ or getattr(mv, key) != here:
                    continue
                there = mv.to  # type: ignore[attr-defined]
                fields = {key: here, "to": there}
                if there == b:
                    return [*path, (type_, fields)]
                st2 = st.copy()
                assert isinstance(st2, PaxState)
                st2.apply_move(player, mv)
                nxt.append((there, st2, [*path, (type_, fields)]))
        if not nxt:
            return None
        frontier = nxt
    return None


def return_coalition_block(imp: PaxImporter, n: Notif) -> None:
    """In a battle: the chosen enemy block (``remove_army`` / ``remove_road``); otherwise a consequence."""
    a = n.args
    if not imp.awaits("remove_army"):
        return
    if a["type"] == "road":
        imp.move(a["playerId"], "remove_road", border=str(a["from"])[len("roads_"):], coalition=a["coalition"])
    else:
        imp.move(a["playerId"], "remove_army", coalition=a["coalition"])


def return_cylinder(imp: PaxImporter, n: Notif) -> None:
    """In a battle: the chosen tribe or spy (its owner from ``cylinderId``); otherwise a consequence."""
    a = n.args
    if not imp.awaits("remove_tribe"):
        return
    owner = str(a["cylinderId"]).split("_")[1]
    frm = str(a["from"])
    if frm.startswith("spies_card_") or frm.startswith("card_"):
        imp.move(a["playerId"], "remove_spy", player=owner)
    else:
        imp.move(a["playerId"], "remove_tribe", player=owner)


def accept_prize(imp: PaxImporter, n: Notif) -> None:
    imp.decide(n.args["playerId"], "accept_prize")


def decline_prize(imp: PaxImporter, n: Notif) -> None:
    imp.decide(n.args["playerId"], "decline_prize")


# ---- placements (impact icons, build, Infrastructure, Blackmail, Insurrection) ------


def _place(imp: PaxImporter, a: Placement, decision: str, fields: dict[str, Any]) -> None:
    """A placement: our decision if the rules ask for one; the piece taken from the board if the supply was empty."""
    if decision and imp.awaits(decision):
        imp.move(a.playerId, decision, **fields)
    piece = board_piece(a.move.from_)
    if piece is not None and imp.awaits("take_piece"):
        t = imp.task()
        imp.move(t.player, "take_piece", piece=piece)


def place_road(imp: PaxImporter, n: Notif) -> None:
    a = n.args_as(Placement)
    _place(imp, a, "place_road", {"border": str(a.move.to)[len("roads_"):]})


def place_army(imp: PaxImporter, n: Notif) -> None:
    a = n.args_as(Placement)
    _place(imp, a, "place_army", {"region": str(a.move.to)[len("armies_"):]})


def _pass_other_blackmail(imp: PaxImporter, card: int) -> None:
    """A spy on a card of the other Blackmail region: the player skipped the Blackmail offered
    first (Herat's), which BGA leaves unsaid; a spy on a Kandahar card cannot be Herat's."""
    t = imp.task()
    if isinstance(t, SpyTask) and t.blackmail and card in COURT and COURT[card].region != t.region:
        imp.move(t.player, "skip")


def place_cylinder(imp: PaxImporter, n: Notif) -> None:
    """A tribe, a spy (``place_spy`` when the rules ask where) or a gift's cylinder."""
    a = n.args_as(Placement)
    to = str(a.move.to)
    if to.startswith("spies_card_"):
        card = int(to[len("spies_card_"):])
        if pid(a.playerId) != WAKHAN_ID and imp.wakhan_acting():
            imp.end_wakhan_turn()  # a person's spy while her action phase is open: Blackmail, the next turn
        _pass_other_blackmail(imp, card)
        _place(imp, a, "place_spy", {"card": card})
    else:
        _place(imp, a, "", {})


# ---- discards ----------------------------------------------------------------------------


def discard(imp: PaxImporter, n: Notif) -> None:
    """A discard the rules ask a player to choose (limits, leverage, Confidence Failure): ``discard``.

    Otherwise the rules discarded it themselves (an overthrow, a loyalty change, a lasting
    event ending): checked that our rules did too.
    """
    a = n.args_as(Discard)
    card = card_id(a.cardId)
    owner = pid(a.playerId)
    s = imp.state
    if imp.zombies and imp.awaits("discard") and imp.task().player != owner:
        imp.passed_over(owner)  # BGA's zombie skips its discard in silence: this one is the next player's
    if imp.awaits("end_action") and not imp.awaits("discard"):
        imp.settle()  # an Overthrow after a Move or a Battle: BGA has closed the action
    if owner == WAKHAN_ID and card in s.courts[owner] and not imp.awaits("discard"):
        imp.end_wakhan_turn()  # her cleanup's court limit
    t = imp.task()
    if "discard" in imp.accepted(t) and (card in s.hands.get(t.player, ()) or card in s.courts.get(t.player, ())):
        imp.move(t.player, "discard", card=card)
        return
    imp.check(card not in s.hands.get(owner, ()) and card not in s.courts.get(owner, ()),
              f"BGA discards {card_name(card)} ({a.from_}); our rules keep it with {owner}")


# ---- events' choices ---------------------------------------------------------------------


def change_favored_suit(imp: PaxImporter, n: Notif) -> None:
    """Pashtunwali Values' choice (``choose_suit``), else a consequence (checked).  Two events that
    change the suit can leave column 0 in one cleanup, which our rules run at once: a change BGA
    shows before another of the same packet is checked by the last one."""
    to = n.args["to"]
    if imp.awaits("choose_suit"):
        imp.move(n.args["playerId"], "choose_suit", suit=to)
        return
    if imp.task() is None and _another_in_packet(imp, n):
        return
    imp.zombie_went_on()
    imp.check(imp.state.favored == to, f"BGA's favored suit becomes {to}; ours is {imp.state.favored}")


def _another_in_packet(imp: PaxImporter, n: Notif) -> bool:
    """Whether another notification of ``n``'s type follows it in its packet (undone ones left out)."""
    for later in imp.following_from(n):
        if later.packet is not n.packet:
            return False
        if later is not n and later.type == n.type:
            return True
    return False


def move_card(imp: PaxImporter, n: Notif) -> None:
    """Rumor: the chosen player (``tkn_playerName_2``)."""
    imp.decide(n.args["playerId"], "rumor", player=imp.player_named(n.args["tkn_playerName_2"]))


def exchange_hand(imp: PaxImporter, n: Notif) -> None:
    """Other Persuasive Methods: the chosen player (``tkn_playerName_2``); hand sizes checked."""
    who = imp.player_named(n.args["tkn_playerName"])
    imp.decide(who, "swap_hands", player=imp.player_named(n.args["tkn_playerName_2"]))
    for p, count in (n.args.get("newHandCounts") or {}).items():
        imp.check(len(imp.state.hands[pid(p)]) == int(count),
                  f"BGA gives {p} {count} card(s) in hand after the swap; ours {len(imp.state.hands[pid(p)])}")


def return_all_to_supply(imp: PaxImporter, n: Notif) -> None:
    """Rebuke's chosen region (``rebuke``); Riots are a consequence."""
    if imp.awaits("rebuke"):
        imp.move(n.args["playerId"], "rebuke", region=str(n.args["regionId"]))


# ---- consequences checked ----------------------------------------------------------------


def change_ruler(imp: PaxImporter, n: Notif) -> None:
    """Checked: our rules give the region the same ruler (``None``: no ruler).

    BGA announces each change as it happens, piece by piece; our rules may
    run several of those steps in one event (a played card's icons), and the
    ``bga`` rules settle rulers when a Move or Battle ends.  So each region's
    latest claim is checked before the next event (inside a Move or Battle,
    once the action is over), and at the end.
    """
    region = str(n.args["region"])
    new = n.args.get("newRuler")
    imp.rulers_claimed[region] = (None if new in (None, "", 0, "0") else pid(new), n)


_SHIFT = re.compile(rb'\{"move":\{"cardId":"card_(\d+)","from":"market_\d+_\d+","to":"market_(\d_\d)"\}\}')
"""``shiftMarket``'s args as BGA writes them (the most frequent notification of a log): group 1 is the
card's number, group 2 the cell it goes to (``1_3``)."""
_CELL_TEXT = {f"{r}_{c}".encode(): (r, c) for r, c in MARKET_CELLS}
_CARD_TEXT = {card: str(card).encode() for card in (*COURT, *EVENTS)}
"""Market cells and cards as BGA's ids write them, to read a shift without converting its numbers."""


def shift_market_message(imp: PaxImporter, n: Notif) -> None:
    """The text before the shifts: a cleanup's refill, so the Wakhan's action phase is over."""
    imp.end_wakhan_turn()


def shift_market(imp: PaxImporter, n: Notif) -> None:
    """Checked: our market holds the shifted card where BGA puts it (``move.to``)."""
    raw = n.raw_args
    got = _SHIFT.fullmatch(raw) if type(raw) is msgspec.Raw else None
    if got is not None:  # BGA's own form: read without decoding it
        card, to = got.groups()
        rc = _CELL_TEXT.get(to)
        held = imp.state.market[rc[0]][rc[1]] if rc is not None else None
        if held is not None and _CARD_TEXT.get(held) == card:
            return
    m = n.args["move"]
    r, c = cell(m["to"])
    card = card_id(m["cardId"])
    ours = imp.state.market[r][c]
    if ours != card:
        imp.fail(f"BGA shifts {card_name(card)} to {cell_name(r, c)} ({m['to']}); our market has "
                 f"{card_name(ours) if ours else 'nothing'} there")


def discard_from_market(imp: PaxImporter, n: Notif) -> None:
    imp.end_wakhan_turn()  # her cleanup: an event in column 0
    card = card_id(n.args["cardId"])
    if any(card in row for row in imp.state.market):
        imp.fail(f"BGA discards {card_name(card)} from the market; our rules leave it there")


def draw_market_card(imp: PaxImporter, n: Notif) -> None:
    """The chance outcome: the deck's top card, into the cell our rules fill next."""
    imp.settle()
    imp.end_wakhan_turn()
    a = n.args_as(Draw)
    card = card_id(a.cardId)
    want = cell(a.to)
    if imp.refill_cell() == want:  # the usual case, told without making the deck's pool
        imp.chance({"draw": "deck", "items": [card]})
        return
    req = imp.awaits_chance()
    if req is None:
        t = imp.task()
        imp.fail(f"BGA draws {card_name(card)} for the market, our rules await "
                 + (f"{t.player}'s {t.describe()}" if t is not None else "nothing (the game is over)"))
    if req.reason != f"{cell_name(*want)} of the market":
        imp.fail(f"BGA draws into {cell_name(*want)} ({a.to}); our rules fill {req.reason}")
    imp.chance({"draw": "deck", "items": [card]})


def dominance_check_scores(imp: PaxImporter, n: Notif) -> None:
    """BGA's scores after a Dominance Check: ``observe score`` of the players it lists (those who scored;
    an unlisted player's score is not restated, so it is not observed here)."""
    scores = {pid(p): int(row["newScore"]) for p, row in (n.args.get("scores") or {}).items()}
    if scores:
        imp.observe({"score": scores})


def update_influence(imp: PaxImporter, n: Notif) -> None:
    """BGA's influence per player when a modifier changes: ``observe influence``; the Wakhan's, per
    coalition: ``observe wakhan_influence``."""
    values = {pid(u["playerId"]): int(u["value"]) for u in n.args["updates"] if u.get("type") == "playerInfluence"}
    facts: dict[str, Any] = {"influence": values} if values else {}
    for u in n.args["updates"]:
        if u.get("type") == "wakhanInfluence":
            facts["wakhan_influence"] = {str(c): int(v) for c, v in u["influence"].items()}
    if facts:
        imp.observe(facts)


def pay_bribe(imp: PaxImporter, n: Notif) -> None:
    """The bribe agreed for the play or action that follows (settled when it is played); the
    Wakhan's for an action already played (checked against the one our rules paid)."""
    paid = int(n.args["rupees"])
    if imp.wakhan_bribe is not None and pid(n.args.get("briberId")) == WAKHAN_ID:
        imp.check(paid == imp.wakhan_bribe, f"BGA shows the Wakhan paying a bribe of {paid}; our rules paid "
                                            f"{imp.wakhan_bribe}")
        imp.wakhan_bribe = None
        return
    imp.bribe = paid


_BGA_ACTIONS = {"playCard": "play", "tax": "tax", "gift": "gift", "build": "build", "move": "move",
                "betray": "betray", "battle": "battle"}
"""BGA's names of what a bribe is negotiated for -> ours."""


def start_bribe_negotiation(imp: PaxImporter, n: Notif) -> None:
    """The payer opens a negotiation: the card, the action, the first offer (kept until it ends)."""
    a = n.args
    action = _BGA_ACTIONS.get(str(a["action"]))
    if action is None:
        imp.fail(f"a bribe negotiated for {a['action']!r}, not a play or a card action")
    imp.settle()
    imp.negotiation = Negotiation(pid(a["playerId"]), card_id(a["tkn_largeCard"]), action, int(a["amount"]))


def propose_bribe_amount(imp: PaxImporter, n: Notif) -> None:
    """A counter-offer: the payer's new offer is kept (the recipient's demands leave no trace)."""
    neg = imp.negotiation
    if neg is None:
        imp.fail("a bribe offer outside a negotiation")
    if pid(n.args["playerId"]) == neg.payer:
        neg.amount = int(n.args["rupees"])


def accept_bribe(imp: PaxImporter, n: Notif) -> None:
    """Both sides name one amount: the play or action follows with it (``payBribe`` when above 0),
    or the payer cancels (``declineBribe`` without an amount)."""
    if imp.negotiation is None:
        imp.fail("a bribe accepted outside a negotiation")
    imp.negotiation = None


def decline_bribe(imp: PaxImporter, n: Notif) -> None:
    """With an amount: a side declines the other's offer, the negotiation fails: ``bribe_refused``
    (the card, the action, the payer's last offer).  Without: the payer gives up an agreed bribe
    and does something else, which leaves no trace (nothing paid, not one of BGA's refusals)."""
    if "rupees" not in n.args:
        return
    neg, imp.negotiation = imp.negotiation, None
    if neg is None:
        imp.fail("a bribe declined outside a negotiation")
    imp.decide(neg.payer, "bribe_refused", card=neg.card, action=neg.action, amount=neg.amount)


HANDLERS: dict[str, Callable[[PaxImporter, Notif], None]] = {
    # the Wakhan
    "wakhanDrawCard": wakhan_draw_card,
    "wakhanReshuffleDeck": wakhan_reshuffle_deck,
    "wakhanUpdatePragmaticLoyalty": wakhan_update_pragmatic_loyalty,
    "wakhanRadicalize": wakhan_radicalize,
    "shiftMarketMessage": shift_market_message,
    # setup
    "changeLoyalty": change_loyalty,
    # the action phase
    "purchaseCard": purchase_card,
    "playCard": play_card,
    "pass": pass_,
    "tax": tax,
    "taxMarket": tax_market,
    "taxPlayer": tax_player,
    "purchaseGift": purchase_gift,
    "payRupeesToMarket": pay_rupees_to_market,
    "move": move_action,
    "moveToken": move_token,
    "battle": battle,
    "returnCoalitionBlock": return_coalition_block,
    "returnCylinder": return_cylinder,
    "startBribeNegotiation": start_bribe_negotiation,
    "proposeBribeAmount": propose_bribe_amount,
    "acceptBribe": accept_bribe,
    "payBribe": pay_bribe,
    "declineBribe": decline_bribe,
    "acceptPrize": accept_prize,
    "declinePrize": decline_prize,
    # placements
    "placeRoad": place_road,
    "placeArmy": place_army,
    "placeCylinder": place_cylinder,
    # discards
    "discard": discard,
    # events' choices
    "changeFavoredSuit": change_favored_suit,
    "moveCard": move_card,
    "exchangeHand": exchange_hand,
    "returnAllToSupply": return_all_to_supply,
    # the market
    "shiftMarket": shift_market,
    "discardFromMarket": discard_from_market,
    "drawMarketCard": draw_market_card,
    # BGA's claims
    "dominanceCheckScores": dominance_check_scores,
    "updateInfluence": update_influence,
    # consequences
    "changeRuler": change_ruler,
}

IGNORED = frozenset({
    "changeLoyaltyMessage",        # the text before a loyalty change (the change itself is checked)
    "discardMessage",              # the text before a discard (handled at `discard`)
    "message",                     # free text ("A Dominance Check is resolved", Instability, Confidence Failure)
    "takeRupeesFromSupply",        # leverage / Persian Aristocracy income: the rules pay it
    "returnRupeesToSupply",        # leverage repayment: the rules take it
    "additionalDiscardsLeverage",  # announces leverage discards (the discards follow)
    "returnAllSpies",              # spies return with a discarded card: the rules do it
    "takePrize",                   # the accepted prize moves to the prizes (accept_prize did it)
    "discardPrizes",               # prizes lost with a loyalty change or Failure to Impress: the rules do it
    "dominanceCheckReturnCoalitionBlocks",  # a successful check clears the blocks: the rules do it
    "insurrectionSpecialAbility",  # Insurrection's armies: the rules place them (placeArmy follows)
    "publicWithdrawal",            # rupees on Public Withdrawal leave the game: the rules do it
    "clearTurn",                   # undo: its uids are dropped before the import (cancelled())
    "smallRefreshInterface",       # the full refresh after an undo
    "smallRefreshHand",            # the viewer's hand after an undo (private channel)
    "replaceHand",                 # the viewer's new hand after Other Persuasive Methods (private)
    "log",                         # BGA debug payload
    "build",                       # Infrastructure's log line (its placement follows)
    "refreshInterface",            # a full refresh (declared by the module; the state is ours)
    "refreshUI",                   # the same
    "discardPatriots",             # the text before a loyalty change's discards (declared, not sent by the module)
    "leveragedDiscardRemaining",   # the text before leverage discards (declared, not sent by the module)
})


class PaxPamirImporter(PaxImporter):
    signature = frozenset({"dominanceCheckScores", "purchaseGift", "shiftMarketMessage", "changeLoyalty",
                           "drawMarketCard", "changeFavoredSuit", "placeCylinder", "taxMarket"})
    handlers = HANDLERS
    ignored = IGNORED


IMPORTER = PaxPamirImporter
