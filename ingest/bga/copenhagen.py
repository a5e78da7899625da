"""Copenhagen (BGA ``copenhagen``, JoeProgram/bga-copenhagen) logs -> ``gamerec/1`` records.

One function per notification type, in :data:`HANDLERS` at the bottom.  What the log
shows and what it does not:

* **Cards are numbered** by the implementation at setup: card 1 is the mermaid, then the
  colours in the order red, yellow, green, blue, purple, 14 cards each (12 with three
  players).  So any card id names its colour (:func:`card_color`); the importer checks that
  numbering against every colour the log states and refuses a log that contradicts it.
* **The starting hands** appear in no notification, not even the viewer's own: they are
  dealt as unknown cards (``null``).  A card of a hand is named when it is discarded (for
  the hand limit, or to pay for a tile: ``placePolyomino.discards``).
* **The first seven harbour cards** appear in no notification either.  They are face up,
  so the log shows them as they are taken (``takeCard``), named as neighbours of a taken
  card (the ``takeAdjacentCard`` state's ``adjacent_card_ids``) and by the slots the refill
  fills (``refillHarbor``); :func:`place_first_harbour` works out which slot each lay in.
  A card never taken nor named stays unknown in its slot.  If the log allows two layouts that
  would make different records, the import is refused (nothing is guessed).
* **Abilities**: an activation is private (``activateAbility``, only in the viewer's own
  channel); the public ``usedAbility`` comes when a tile is spent.  Any cards and additional
  card are spent by the ``take_card`` moves themselves, both actions is the ``both_actions``
  move, the construction discount and change of colours are fields of the ``build`` that
  follows.  Each ``usedAbility`` also becomes an ``abilities`` observation after its move.
* BGA's announcements become ``observe`` events with origin ``bga``: ``updateScore``
  (score), ``hand_size`` on every card taken, discarded or paid, ``covered`` (from the
  ``playerboard`` of a placement), ``deck_size`` (``refillHarbor.cards_in_deck``, the
  mermaid counted while it is in the deck, as ours) and ``rebuilds``
  (``shuffleDiscardIntoDeck``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Set
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any

import msgspec

from ingest.bga.base import END_STATE_ID, GameImporter
from ingest.bga.log import BgaLog, Notif
from replay.games.copenhagen.components import components
from replay.games.copenhagen.rules.harbour import MERMAID, next_empty_slot
from replay.games.copenhagen.state import CopenhagenState

MERMAID_ID = 1
"""The implementation creates the mermaid card first."""
SLOTS = 7
NEXT_PLAYER_STATE = 2
"""``nextPlayer``: a turn begins; the implementation saves the game for an undo there."""
ADJACENT_STATE = 5
"""``takeAdjacentCard``: its args name the cards next to the slot the first card left."""
_ADJACENT = frozenset({ADJACENT_STATE})


def card_color(card_id: int, n_players: int) -> str:
    """The colour of BGA card ``card_id`` (``"mermaid"`` for card 1), by the setup's numbering."""
    colours = numbering(n_players)
    if not 0 < card_id < len(colours):
        raise ValueError(f"there is no card {card_id} in a {n_players}-player game")
    return colours[card_id]


@functools.cache
def numbering(n_players: int) -> tuple[str, ...]:
    """The setup's numbering: the colour of each card id (card 1 the mermaid, then each colour's
    cards in turn; index 0 names no card)."""
    comp = components()
    per = comp.cards_per_color[n_players]
    return ("", MERMAID, *(colour for colour in comp.colors for _ in range(per)))


# --------------------------------------------------------------------------
# Where the first seven harbour cards lay
# --------------------------------------------------------------------------


@dataclass
class _Layout:
    """One way the first harbour could have been laid out, followed through the log.

    ``harbour[s]`` is the card id in slot ``s``, ``-1`` for a first-harbour card the log has
    not named yet, ``None`` for an empty slot.
    """

    harbour: list[int | None] = field(default_factory=lambda: [-1] * SLOTS)
    first: dict[int, int] = field(default_factory=dict)  # first-harbour card id -> slot
    slots: list[int] = field(default_factory=list)  # the slot of every takeCard, in log order
    first_slot: int | None = None
    taken: int = 0

    def copy(self) -> _Layout:
        return _Layout(list(self.harbour), dict(self.first), list(self.slots), self.first_slot, self.taken)

    def can_place(self, card: int, slot: int) -> bool:
        """Whether the unnamed first-harbour card in ``slot`` may be ``card``."""
        return self.harbour[slot] == -1 and card not in self.first and card not in self.harbour

    def place(self, card: int, slot: int) -> bool:
        """Name the unnamed first-harbour card in ``slot`` as ``card`` (False if impossible)."""
        if not self.can_place(card, slot):
            return False
        self.harbour[slot] = card
        self.first[card] = slot
        return True


def _take(layouts: list[_Layout], card: int, non_adjacent: bool) -> list[_Layout]:
    """The layouts in which ``card`` can be the next card taken from the harbour (one per slot it
    may come from).  ``layouts`` are used up: each goes on in itself for its last way, so the
    caller keeps only what this returns."""
    out: list[_Layout] = []
    for lay in layouts:
        if card in lay.harbour:
            slots = [lay.harbour.index(card)]
        else:  # a first-harbour card not named yet: any slot still holding one
            slots = [s for s in range(SLOTS) if lay.can_place(card, s)]
        if lay.taken == 1:
            first = lay.first_slot
            assert first is not None
            # BGA spends "any cards" exactly when the second card is not adjacent
            slots = [s for s in slots if (abs(s - first) != 1) == non_adjacent]
        for i, s in enumerate(slots):
            b = lay if i == len(slots) - 1 else lay.copy()  # the last way goes on in the layout itself
            if b.harbour[s] == -1:
                b.place(card, s)
            if b.taken == 0:
                b.first_slot = s
            b.taken += 1
            b.harbour[s] = None
            b.slots.append(s)
            out.append(b)
    return out


def _adjacent(layouts: list[_Layout], cards: list[int]) -> list[_Layout]:
    """The cards either side of the slot the first card left, left one first (``layouts`` are
    used up, as in :func:`_take`)."""
    out = []
    for lay in layouts:  # each layout goes on in itself (or is dropped)
        s = lay.first_slot
        around = [] if s is None else [p for p in (s - 1, s + 1) if 0 <= p < SLOTS]
        if s is None or len(around) != len(cards):
            continue
        if all(lay.harbour[p] == card or lay.place(card, p) for p, card in zip(around, cards)):
            out.append(lay)
    return out


def _refill(layouts: list[_Layout], dealt: list[tuple[int, int]], mermaid: bool) -> list[_Layout]:
    out = []
    for lay in layouts:
        empty = [s for s in range(SLOTS) if lay.harbour[s] is None]
        filled = [s for _, s in dealt]
        if filled != empty[: len(filled)] or (not mermaid and len(filled) != len(empty)):
            continue
        for card, s in dealt:
            lay.harbour[s] = card
        lay.first_slot, lay.taken = None, 0
        out.append(lay)
    return out


class HarbourContradiction(ValueError):
    """The log contradicts itself about the first harbour, at notification ``notif``."""

    def __init__(self, notif: Notif, reason: str) -> None:
        super().__init__(f"packet {notif.packet_id} ({notif.type}): {reason}")
        self.notif = notif
        self.reason = reason


def place_first_harbour(log: BgaLog, n_players: int, undone: Set[str] = frozenset()
                        ) -> tuple[list[str | None], list[int]]:
    """The first harbour's colours by slot (``None``: never shown) and the slot of every
    ``takeCard`` of the log, in order, as far as every layout the log allows agrees (``undone``:
    the uids of notifications an undo took back, which are left out).

    Raises :class:`HarbourContradiction` when the log contradicts itself.  When layouts remain that would
    write different records, the slots stop before the first ``takeCard`` they disagree on
    (the caller refuses a finished game, and imports an unfinished one up to there).
    """
    layouts = [_Layout()]
    any_cards = False
    notifs = log.of_types(("takeCard", "usedAbility", "refillHarbor")) + log.state_changes(_ADJACENT)
    notifs.sort(key=attrgetter("seq"))  # most of a log's state changes are not looked into
    if undone:
        notifs = [n for n in notifs if n.uid not in undone]
    for n in notifs:
        a = n.args if isinstance(n.args, dict) else {}
        if n.type == "takeCard":
            layouts = _take(layouts, int(a["card_id"]), any_cards)
            any_cards = False
        elif n.type == "usedAbility" and a.get("used_ability") == "any_cards":
            any_cards = True
        elif n.type == "gameStateChange" and n.state_id == ADJACENT_STATE and isinstance(a.get("args"), dict):
            layouts = _adjacent(layouts, [int(c) for c in a["args"].get("adjacent_card_ids") or []])
        elif n.type == "refillHarbor":
            dealt = [(int(c["id"]), int(c["location_arg"])) for c in a["harbor"]]
            layouts = _refill(layouts, dealt, any(card == MERMAID_ID for card, _ in dealt))
        if not layouts:
            raise HarbourContradiction(n, "no layout of the first harbour fits the log up to here (cards taken, "
                                          "their neighbours and the slots refilled disagree)")
    colours: list[list[str | None]] = []
    for lay in layouts:
        row: list[str | None] = [None] * SLOTS
        for card, s in lay.first.items():
            row[s] = card_color(card, n_players)
        colours.append(row)
    agreed = [c[0] if all(c[0] == x for x in c) else None for c in zip(*colours)]
    slots = layouts[0].slots
    same = len(slots)
    for lay in layouts[1:]:
        same = min(same, next((i for i, (a, b) in enumerate(zip(slots, lay.slots)) if a != b), same))
    return agreed, slots[:same]


# --------------------------------------------------------------------------
# The importer
# --------------------------------------------------------------------------


class CopenhagenImporter(GameImporter):
    game_id = "copenhagen"
    signature = frozenset({"refillHarbor", "placePolyomino", "takeAbilityTile", "shuffleDiscardIntoDeck",
                           "discardDownToMaxHandSize", "takeCard", "usedAbility", "activateAbility",
                           "activateAbilityChangeOfColors", "resetUsedAbilities", "skippingCoatOfArms"})
    ignored = frozenset({
        "undoRestorePoint",            # read by cancelled(): what came since the turn began produces nothing
        "resetInterfaceWithAllDatas",  # the client's redraw after an undo (no game facts)
    })

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.take_slots: list[int] = []
        self.used: list[str] = []  # usedAbility announcements not yet matched to their move
        self.change_from: dict[str, str] = {}  # the viewer's own change-of-colours activation
        self.rebuilds_seen = 0

    @property
    def cph(self) -> CopenhagenState:
        assert isinstance(self.state, CopenhagenState)
        return self.state

    def cancelled(self) -> set[str]:
        """BGA's framework undo: Copenhagen saves the game as each turn begins (``undoSavepoint`` when
        the state changes to ``nextPlayer``, kept at the end of that move) and a player's undo
        restores it (``undoRestorePoint``).  Where a log has the restore point, everything between
        the saving move and it was taken back and produces no events.  (What BGA leaves in a log
        around an undo is not public: logs may lack the undone moves, the restore point, or both.)"""
        out: set[str] = set()
        notifs = self.log.notifs
        for undo in self.log.by_type().get("undoRestorePoint", ()):
            self.current = undo
            saved = next((n for n in reversed(notifs[:undo.seq])
                          if n.type == "gameStateChange" and n.state_id == NEXT_PLAYER_STATE), None)
            if saved is None or saved.packet.move_id is None or undo.packet.move_id is None:
                self.fail("an undo with no turn begun before it (or moves the log does not number)")
            first, last = saved.packet.move_id, undo.packet.move_id
            out.update(n.uid for n in notifs[saved.seq + 1:undo.seq]
                       if n.packet.move_id is not None and first < n.packet.move_id < last)
        self.current = None
        return out

    def prepare(self) -> None:
        """The setup, which no notification shows: the first harbour as the rest of the log
        places it, and every starting hand face down, in turn order."""
        n = len(self.players)
        self.current = self.log.notifs[0] if self.log.notifs else None
        self._check_numbering()
        try:
            first, self.take_slots = place_first_harbour(self.log, n, self.cancelled_uids)
        except HarbourContradiction as exc:
            self.current = exc.notif
            self.fail(exc.reason)
        takes = [t for t in self.log.by_type().get("takeCard", []) if t.uid not in self.cancelled_uids]
        if len(self.take_slots) < len(takes):
            self._stop_before(takes[len(self.take_slots)])
        self.take_slots.reverse()  # popped from the end, in log order
        self.chance({"draw": "facade", "items": first})
        for i in range(n):
            self.chance({"draw": "facade", "items": [None] * components().starting_hands[i]})

    def _stop_before(self, take: Notif) -> None:
        """The log leaves the slot of ``take`` open (two layouts of the first harbour, two records).
        A finished game is refused; an unfinished one is imported up to the packet before it."""
        ends = any(notif.state_id == END_STATE_ID for notif in self.log.by_type().get("gameStateChange", ()))
        if ends:
            self.current = take
            self.fail("the log leaves several layouts of the first harbour possible (the setup is in no "
                      "notification), and they put this card in different slots; the importer does not guess")
        cut = next(i for i, p in enumerate(self.log.packets) if p is take.packet)
        self.log = replace(self.log, packets=self.log.packets[:cut], _notifs=None, _by_type=None)

    def _check_numbering(self) -> None:
        """Every colour the log states must be the one the card's number gives."""
        colours = numbering(len(self.players))
        for notif in self.log.of_types(("takeCard", "discardDownToMaxHandSize", "refillHarbor")):
            a = notif.args
            if not isinstance(a, dict):
                a = {}
            pairs: list[tuple[Any, Any]]
            if notif.type == "refillHarbor":
                pairs = [(c.get("id"), c.get("type")) for c in a.get("harbor") or [] if isinstance(c, dict)]
            else:
                pairs = [(a.get("card_id"), a.get("color"))]
            for card, colour in pairs:
                try:
                    number = int(card)
                except (TypeError, ValueError):
                    number = 0
                ours = colours[number] if 0 < number < len(colours) else None
                if ours != colour:
                    self.current = notif
                    self.fail(f"card {card} is {colour!r} here, but the implementation numbers the cards so "
                              f"that it is {ours!r}: not a log of the implementation this importer reads")

    # ---- helpers the handlers share ------------------------------------------

    def color_of(self, card: Any) -> str:
        return card_color(int(card), len(self.players))

    def end_turn_if_awaited(self) -> None:
        """BGA's ``endTurn`` is in no notification: when the harbour refill comes while our
        rules still offer the active player a choice (third card, both actions, the extra
        build), the player ended the turn."""
        s = self.cph
        t = self.turn()
        if isinstance(t, str) and s.step in ("after_taking", "build_after_taking") and not s.must_discard:
            self.move(t, "end_turn")

    def observe_used(self, pid: str, kinds: list[str]) -> None:
        if kinds:
            self.observe({"abilities": {pid: {k: "used" for k in kinds}}})

    def take_pending(self, *kinds: str) -> list[str]:
        out = [k for k in self.used if k in kinds]
        self.used = [k for k in self.used if k not in kinds]
        return out


# ---- one function per notification ------------------------------------------


def take_card(imp: CopenhagenImporter, n: Notif) -> None:
    """``takeCard``: a card from the harbour into the hand (first, second or third card)."""
    pid = str(n.args["player_id"])
    imp.move(pid, "take_card", slot=imp.take_slots.pop())
    imp.observe({"hand_size": {pid: int(n.args["hand_size"])}})
    imp.observe_used(pid, imp.take_pending("any_cards", "additional_card"))


def discard_down(imp: CopenhagenImporter, n: Notif) -> None:
    """``discardDownToMaxHandSize``: over 7 cards, one card (face up) to the discard pile."""
    pid = str(n.args["player_id"])
    colour = str(n.args["color"])
    if imp.color_of(n.args["card_id"]) != colour:
        imp.fail(f"card {n.args['card_id']} is not {colour}")
    imp.move(pid, "discard", color=colour)
    imp.observe({"hand_size": {pid: int(n.args["hand_size"])}})


def used_ability(imp: CopenhagenImporter, n: Notif) -> None:
    """``usedAbility``: an ability tile is spent.  Both actions is a move of its own; the
    others are spent by the move that follows (a card taken, a tile built)."""
    pid = str(n.args["player_id"])
    kind = str(n.args["used_ability"])
    if kind == "both_actions":
        imp.move(pid, "both_actions")
        imp.observe_used(pid, [kind])
    elif kind in components().ability_ids:
        imp.used.append(kind)
    else:
        imp.fail(f"unknown ability {kind!r}")


def place_polyomino(imp: CopenhagenImporter, n: Notif) -> None:
    """``placePolyomino``: a facade tile built (its cost discarded face up), or a white tile
    placed as a coat-of-arms bonus."""
    a = n.args_keeping("playerboard")  # the player's whole board: only its covered cells are counted
    pid = str(a["player_id"])
    tile = a["polyomino"]
    colour = str(tile["color"])
    x, y = int(tile["x"]), int(tile["y"])
    if colour == components().white:
        # BGA announces again the construction discount / change of colours already spent
        # this turn when a white tile follows (their flags stay set): nothing more is spent.
        imp.move(pid, "place_white", x=x, y=y)
        again = imp.take_pending("construction_discount", "change_of_colors")
        if any(not imp.cph.seats[pid].abilities.get(k) for k in again):
            imp.fail(f"BGA spends {', '.join(again)} on a white tile, which costs nothing")
    else:
        paid = [imp.color_of(c) for c in a.get("discards") or []]
        if len(paid) != int(a["discarded_card_count"]):
            imp.fail("the discarded cards do not match their count")
        pay = {c: paid.count(c) for c in (colour, *components().colors) if c in paid}
        spent = imp.take_pending("construction_discount", "change_of_colors")
        others = [c for c in pay if c != colour]
        change_from: str | None = None
        if "change_of_colors" in spent:
            if len(others) > 1:
                imp.fail(f"change of colours turns one colour, but {', '.join(others)} cards paid the tile")
            # BGA spends an activated change of colours at the placement even if no card of
            # another colour paid: then the colour it named is the viewer's own private
            # notification, or unknown (written as the tile's own colour: nothing changed).
            change_from = others[0] if others else imp.change_from.get(pid, colour)
        imp.move(pid, "build", color=colour, size=int(tile["squares"]), x=x, y=y,
                 rotation=int(tile["rotation"]), flip=int(tile["flip"]), pay=pay,
                 construction_discount="construction_discount" in spent, change_from=change_from)
        imp.observe_used(pid, spent)
    imp.observe({"hand_size": {pid: int(a["hand_size"])}, "covered": {pid: covered(a["playerboard"])}})


class _Cell(msgspec.Struct):
    """A ``playerboard`` cell as :func:`covered` reads it (its other fields are skipped)."""

    fill: Any = None


_BOARD = msgspec.json.Decoder(dict[str, dict[str, _Cell | None] | list[_Cell | None]])


def covered(board: Any) -> int:
    """Covered cells of a ``playerboard`` (column -> row -> cell; BGA adds a stray ``"x": []``),
    given decoded or as raw JSON."""
    if type(board) is msgspec.Raw:
        try:
            cols = _BOARD.decode(board)
        except msgspec.ValidationError:  # cells of another shape: read it as plain JSON
            board = msgspec.json.decode(board)
        else:
            return sum(1 for key, column in cols.items() if key != "x"
                       for cell in (column.values() if isinstance(column, dict) else column)
                       if cell is not None and cell.fill)
    n = 0
    for key, column in board.items():
        if key == "x":
            continue
        cells = column.values() if isinstance(column, dict) else column
        n += sum(1 for cell in cells if isinstance(cell, dict) and cell.get("fill"))
    return n


def update_score(imp: CopenhagenImporter, n: Notif) -> None:
    """``updateScore``: BGA's new total for the player who just placed a tile."""
    imp.observe({"score": {str(n.args["player_id"]): int(n.args["score"])}})


def take_ability_tile(imp: CopenhagenImporter, n: Notif) -> None:
    """``takeAbilityTile``: coat-of-arms bonus, a new ability tile."""
    imp.move(n.args["player_id"], "take_ability", ability=str(n.args["ability_name"]))


def reset_used_abilities(imp: CopenhagenImporter, n: Notif) -> None:
    """``resetUsedAbilities``: coat-of-arms bonus, every used ability tile turns back."""
    imp.move(n.args["player_id"], "refresh_abilities")


def skipping_coat_of_arms(imp: CopenhagenImporter, n: Notif) -> None:
    """``skippingCoatOfArms``: no bonus possible; our rules skip it by themselves."""
    if imp.cph.step == "coat_of_arms":
        imp.fail("BGA skips the coat of arms, but our rules still offer a bonus")


def shuffle_discard_into_deck(imp: CopenhagenImporter, n: Notif) -> None:
    """``shuffleDiscardIntoDeck``: the deck ran out during the refill; the discard pile becomes
    the deck, the mermaid among its bottom ten.  Our rules do it when the next card is needed
    (no event); the ``rebuilds`` observation after the refill checks they did."""
    imp.rebuilds_seen += 1


def refill_harbor(imp: CopenhagenImporter, n: Notif) -> None:
    """``refillHarbor``: the end of a turn; one draw per emptied slot, in slot order, stopping
    at the mermaid (which ends the game)."""
    imp.end_turn_if_awaited()
    for card in n.args["harbor"]:
        slot = int(card["location_arg"])
        imp.passed_over(None)
        if imp.awaits_chance() is None or next_empty_slot(imp.cph) != slot:
            imp.fail(f"BGA fills harbour slot {slot + 1} (location_arg {slot}), our rules do not refill that slot now")
        imp.chance({"draw": "facade", "items": [str(card["type"])]})
    if imp.awaits_chance() is not None:
        imp.fail("BGA's refill stops before every empty slot is filled, without the mermaid")
    imp.observe({"deck_size": int(n.args["cards_in_deck"]), "rebuilds": imp.rebuilds_seen})


def activate_ability(imp: CopenhagenImporter, n: Notif) -> None:
    """``activateAbility`` (private): an ability switched on; nothing is spent until it is used."""


def activate_change_of_colors(imp: CopenhagenImporter, n: Notif) -> None:
    """``activateAbilityChangeOfColors`` (private): which colour the viewer's change turns."""
    imp.change_from[str(n.args["player_id"])] = str(n.args["from_color"])


HANDLERS: dict[str, Callable[[CopenhagenImporter, Notif], None]] = {
    "takeCard": take_card,
    "discardDownToMaxHandSize": discard_down,
    "usedAbility": used_ability,
    "placePolyomino": place_polyomino,
    "updateScore": update_score,
    "takeAbilityTile": take_ability_tile,
    "resetUsedAbilities": reset_used_abilities,
    "skippingCoatOfArms": skipping_coat_of_arms,
    "shuffleDiscardIntoDeck": shuffle_discard_into_deck,
    "refillHarbor": refill_harbor,
    "activateAbility": activate_ability,
    "activateAbilityChangeOfColors": activate_change_of_colors,
}
CopenhagenImporter.handlers = HANDLERS

IMPORTER = CopenhagenImporter
