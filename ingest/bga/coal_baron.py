"""Coal Baron from Board Game Arena logs (the ``coalbaron`` implementation, Syarwin/bga-coalbaron).

The log reads turn by turn: a player places workers (``placeWorkers``, after ``moveToCanteen``
when the space was taken), the action's notifications follow (francs, a tile and its coal, an
order card, cage and coal moves, deliveries, a draw-five's keep and return), and once the turn is
confirmed the board is refilled (``refillFactorySpace``, ``refillOrderSpace``).  Shift ends score
majorities (``endShiftMajority``, one per scoring player and category) and the game ends with the
final scoring (``endGameScoring*``).  Each notification type has one small function below; the
table is :attr:`CoalBaronImporter.handlers`.

What a log cannot tell, and how it is recorded (``docs/bga-import.md``, Coal Baron):

* the six to eight factory tiles dealt at setup appear in no notification: they are drawn as
  unknown items and revealed (``{"reveal": "factory_7", ...}``) when a player buys one;
* a draw-five's five items are private even to the log's own viewer (BGA puts them in the state's
  private args, which the harness's logs do not hold and a real log's private copy of the state
  change holds in a form not public): the draw is unknown items, the kept one is named
  by ``giveTileTo``/``giveCardTo``, the rest go back unnamed (``returnTiles``/``returnCards`` give
  only their number, and the message whether to the top or the bottom);
* a refill drawing one of those from the top (or the bottom) of the deck reveals it: a ``reveal``
  of the refilled space instead of a draw.

To know which refills come from the shuffled middle of a deck and which from its known top or
bottom, the importer counts the deck's parts as the log shows them (:class:`DeckParts`), and
checks each draw against what the engine asks for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ingest.bga.base import FRAMEWORK_TYPES, GameImporter
from ingest.bga.log import BgaLog, Notif
from replay.games.coal_baron.components import (
    COLOURS,
    FACE_DOWN,
    MAJORITIES,
    ORDER_IDS,
    ORDERS,
    SETUP,
    SPACES,
    TILE_IDS,
    TILES,
)
from replay.games.coal_baron.rules.placement import workers_needed
from replay.games.coal_baron.state import BGA_OLD_CAGE_CAPACITY, CoalBaronState
from replay.record import MoveEvent

#: BGA's coal types -> our colours
COAL = {"yellow_coal": "yellow", "brown_coal": "brown", "grey_coal": "grey", "black_coal": "black"}

#: BGA's majority index (1..12, ``endShiftMajority.i``) -> (BGA's ``type``, our category)
MAJORITY: dict[int, tuple[str, str]] = {
    i + 1: (bga, m.category) for i, (bga, m) in enumerate(zip(
        ("yellow_coal", "brown_coal", "grey_coal", "black_coal", "barrow", "carriage", "motorcar", "engine",
         "minecart_yellow", "minecart_brown", "minecart_grey", "minecart_black"), MAJORITIES))}

#: the four final-scoring notifications -> our score category
FINAL = {"endGameScoringMoney": "end_francs", "endGameScoringCoals": "end_coal",
         "endGameScoringCards": "end_unfulfilled", "endGameScoringBalance": "end_pit_balance"}

#: BGA's state ids the importer reads (``gameStateChange.args.id``)
DRAFT, NEXT_PLAYER, CHOOSE_CARD, CHOOSE_TILE, CHOOSE_COAL, PRE_END = 3, 10, 40, 50, 60, 98

RETURN_END = re.compile(r"\bto the (top|bottom) of the deck\b")
OLD_STOP = re.compile(r"\$\{player_name\} stops with \$\{a\}/\$\{b\} moves remaining$")
"""A stop of mining, as BGA's code before ``100e327`` (2024-03-28) logged it in ``movePitCage``."""


def card_id(value: Any) -> str:
    """An order card id as our engine names it (BGA's card id = card type = 1..44)."""
    out = f"o{int(value)}"
    if out not in ORDER_IDS:
        raise ValueError(f"no order card {value!r}")
    return out


def tile_id(value: Any) -> str:
    """A tunnel tile id as our engine names it (BGA's tile id = 1..48, kind = ceil(id / 3))."""
    out = f"t{int(value)}"
    if out not in TILE_IDS:
        raise ValueError(f"no tunnel tile {value!r}")
    return out


@dataclass(slots=True)
class DeckParts:
    """How many tiles or cards of a deck lie where, as the log shows them: put back on the top, in
    the shuffled middle, put back at the bottom.  Draws take the top first, then the middle, then
    the bottom (the engine's order; BGA's deck is one pile, which comes to the same)."""

    top: int
    middle: int
    bottom: int

    def __len__(self) -> int:
        return self.top + self.middle + self.bottom

    def draw(self, k: int) -> tuple[int, int, int]:
        """Take ``k`` (fewer if the deck runs out): how many from the top, middle and bottom."""
        a = min(k, self.top)
        m = min(k - a, self.middle)
        b = min(k - a - m, self.bottom)
        self.top -= a
        self.middle -= m
        self.bottom -= b
        return a, m, b

    def put_back(self, n: int, end: str) -> None:
        if end == "top":
            self.top += n
        else:
            self.bottom += n


class CoalBaronImporter(GameImporter):
    """Coal Baron's importer: the handlers below, and what the log has shown so far that the
    handlers need (the decks' parts, cube colours and places, cage levels, BGA's francs, workers
    and points, the scoring brackets)."""

    game_id = "coal_baron"
    signature = frozenset({
        "placeWorkers", "movePitCage", "refillFactorySpace", "refillOrderSpace", "endShiftMajority",
        "giveTileTo", "startMining", "cardDelivered", "returnTiles", "returnCards", "endGameScoringBalance",
    })
    handlers: ClassVar[dict[str, Callable[[Any, Notif], None]]] = {}  # filled below the functions
    ignored = frozenset({
        "startDraft",          # the draft's pool is in the draft state's args (gameStateChange 3)
        "moveToCanteen",       # implied by placeWorkers on a taken space (its n is checked there)
        "endGameScoring",      # announces the final scoring items that follow
        "newUndoableStep",     # private undo checkpoint; BGA deletes what an undo cancels
        "refreshUI",           # the client's redraw after an undo (no game facts)
        "clearTurn",           # read by cancelled(): its notifIds produce no events
    })

    def __init__(self, log: BgaLog, players: list[str], names: dict[str, str | None],
                 variant: Mapping[str, Any] | None = None) -> None:
        super().__init__(log, players, names, variant)
        n = len(players)
        self.decks = {"tiles": DeckParts(0, len(TILE_IDS), 0), "orders": DeckParts(0, len(ORDER_IDS), 0)}
        self.francs = {p: SETUP[n].francs for p in players}
        self.workers = {p: SETUP[n].workers for p in players}
        self.score = dict.fromkeys(players, 0)
        self.cage = dict.fromkeys(players, 0)
        self.coal: dict[int, str] = {}
        """Cube id -> colour, learnt where each cube first shows up (BGA never names it)."""
        self.coal_where: dict[int, str] = {}
        """Cube id -> ``cage`` or ``storage`` while it is there (where a cube onto a card comes from)."""
        self.done: set[int] = set()
        """Notifications already handled by a look-ahead (``id()`` of the :class:`Notif`)."""
        self.set_up = False
        self.shift = 0
        """The shift as BGA's log has it (our engine starts the next one right after the last turn)."""
        self.scored = 0
        """How many shift scorings the log has shown."""
        self.acting: str | None = None
        self.delivered_this_turn = False
        self.majority: tuple[int, int, set[str]] | None = None
        self.final_named: set[tuple[str, str]] = set()

    @property
    def st(self) -> CoalBaronState:
        state = self.state
        assert isinstance(state, CoalBaronState)
        return state

    # ---- hooks ---------------------------------------------------------------------------

    @classmethod
    def seat_order(cls, log: BgaLog, players: list[str]) -> list[str]:
        """The draft runs counter-clockwise from the player before the start player (BGA's seat
        1), so its first lap, reversed, is the turn order."""
        lap: list[str] = []
        for n in log.by_type().get("gameStateChange", ()):
            if n.state_id == DRAFT and isinstance(n.args, dict):
                pid = str(n.args.get("active_player"))
                if pid in lap:
                    break
                lap.append(pid)
        if sorted(lap) != sorted(players):
            return super().seat_order(log, players)
        return lap[::-1]

    @classmethod
    def variants(cls, log: BgaLog, players: list[str]) -> list[Mapping[str, Any]]:
        """The rules of BGA's code of the log's time.  A second place scored after a tie of two for
        first is its code of before 7 July 2024 (option ``second_place_after_two_way_tie``); that
        read, today's cage comes first, then the one of before 27 May 2024, which carried six cubes
        (a log of that time loads a sixth: option ``cage_capacity`` 6, departure ``cage_holds_six``)."""
        era: dict[str, Any] = {"second_place_after_two_way_tie": True} if _second_after_two_way_tie(log) else {}
        return [era, {**era, "cage_capacity": BGA_OLD_CAGE_CAPACITY}]

    def options(self) -> dict[str, Any]:
        return {"ruleset": "bga", **self.variant}

    def cancelled(self) -> set[str]:
        """Notifications a later ``clearTurn`` lists (a log saved live, before BGA deleted them)."""
        return self.cleared_uids()

    def finish(self) -> None:
        """A game BGA ended normally must be over by our rules too (a conceded one need not).  A
        reading of BGA's older code is said in a note (:data:`OLDER_CODE`)."""
        result = self.result() or {}
        if self.ended is not None and result.get("end") == "normal" and not self.st.over:
            self.fail("the log ends the game, but our engine has not reached the end of shift 3")
        self.notes += [note for option, note in OLDER_CODE.items() if option in self.variant]

    # ---- helpers for the handlers ------------------------------------------------------------

    def following(self, n: Notif) -> Iterator[Notif]:
        """The game notifications after ``n`` in its packet (framework ones skipped)."""
        for m in n.packet.notifs[n.index + 1:]:
            if m.type not in FRAMEWORK_TYPES:
                yield m

    def at(self, n: Notif, emit: Callable[[], None]) -> None:
        """Emit an event attributed to notification ``n`` (its ``src``)."""
        current, self.current = self.current, n
        try:
            emit()
        finally:
            self.current = current

    def cube_colour(self, cube: dict[str, Any], player: str) -> str:
        """A cube's colour: learnt from the tile it arrived on, or a starting cube met in the pit
        (each level's printed cart starts with one cube of the level's colour)."""
        cid = int(cube["id"])
        colour = self.coal.get(cid)
        if colour is None:
            level = self.cage[player]
            if level == 0:
                self.fail(f"cube {cid} has not been seen on a minecart, and the cage is at the surface")
            colour = COLOURS[level - 1]
            self.coal[cid] = colour
        return colour

    def coal_at(self, cube: int, where: str) -> None:
        self.coal_where[cube] = where

    def coal_source(self, cube: int) -> str:
        """Where a cube moved onto an order card comes from: the cage or storage."""
        source = self.coal_where.get(cube)
        if source not in ("cage", "storage"):
            self.fail(f"cube {cube} goes onto an order card, but the log never put it in the cage or storage")
        return source

    def private_draw(self, deck: str) -> None:
        """A draw-five: the engine draws unknown items from the middle, as many as it asks."""
        parts = self.decks[deck]
        _, middle, _ = parts.draw(min(SPACES["factory_draw" if deck == "tiles" else "order_draw"].value, len(parts)))
        asked = 0
        while (req := self.awaits_chance()) is not None and req.name == deck:
            asked += req.count
            self.chance({"draw": deck, "items": [None] * req.count})
        if asked != middle:
            self.fail(f"the draw-five takes {middle} {deck} from the shuffled deck by the log's count, "
                      f"our engine drew {asked}")

    def flush_turn(self) -> None:
        """The end of a turn: what BGA's francs, workers and points say of the player who acted.
        After the last turn of a shift our engine has already scored it and handed the workers
        back: then only the francs are compared here (the points are, after BGA's scoring)."""
        pid = self.acting
        if pid is None:
            return
        facts: dict[str, Any] = {"francs": {pid: self.francs[pid]}}
        if self.st.shift == self.shift and not self.st.over:
            facts["workers"] = {pid: self.workers[pid]}
            if self.delivered_this_turn:
                facts["score"] = dict(self.score)
        self.observe(facts)
        self.acting = None
        self.delivered_this_turn = False


# ---- setup and the draft -------------------------------------------------------------------


def game_state_change(imp: CoalBaronImporter, n: Notif) -> None:
    """``gameStateChange``: the draft's pool (state 3), a draw-five whose placement BGA deleted
    (40, 50), the end of a turn (10), the end of the final scoring (98)."""
    sid = n.state_id  # only the states named here have their other args decoded
    if sid == DRAFT and not imp.set_up:
        setup_draws(imp, n)
    elif sid in (CHOOSE_CARD, CHOOSE_TILE):
        lost_draw_placement(imp, n)
    elif sid == NEXT_PLAYER:
        imp.flush_turn()
    elif sid == CHOOSE_COAL:
        imp.fail("a coal shortage (chooseCoal): BGA's supply of 32 cubes per colour cannot run short, the "
                 "tiles have 18 minecarts per colour, so this log is not of the implementation imported here")
    elif sid == PRE_END:
        final_zeros(imp, n)


def setup_draws(imp: CoalBaronImporter, n: Notif) -> None:
    """The tiles dealt onto the factory (in no notification: unknown) and the draft's pool (the
    draft state's public args)."""
    req = imp.awaits_chance()
    if req is None or req.name != "tiles":
        imp.fail("the draft starts, but our engine does not await the setup's factory tiles")
    imp.decks["tiles"].draw(req.count)
    imp.chance({"draw": "tiles", "items": [None] * req.count})
    pool = sorted((card_id(k) for k in n.args["args"]["cards"]), key=ORDER_IDS.index)
    imp.decks["orders"].draw(len(pool))
    imp.chance({"draw": "orders", "items": pool})
    imp.set_up = True


def give_card_to(imp: CoalBaronImporter, n: Notif) -> None:
    """``giveCardTo``: a draft pick, the card kept from a draw-five, or the card of an order space
    (taken by the placement; checked there)."""
    pid = str(n.args["player_id"])
    card = card_id(n.args["card"]["id"])
    decision = imp.st.decision
    if decision == "draft":
        imp.move(pid, "draft_order", card=card)
    elif decision == "keep_order":
        imp.move(pid, "keep_order", card=card)
    elif not any(o.card == card for o in imp.st.pits[pid].outstanding):
        imp.fail(f"BGA gives {card} to {pid}, but our engine gave {pid} no such card")


def end_draft(imp: CoalBaronImporter, n: Notif) -> None:
    """``endDraft``: the card left over goes onto order_4 (the engine does it after the last pick)."""
    card = card_id(n.args["card"]["id"])
    space = str(n.args["card"].get("location") or "order_4")
    lying = imp.st.order_spaces.get(space)
    if lying != card:
        imp.fail(f"BGA leaves {card} on {space}, " + (f"our engine {lying}" if lying else
                                                        "where our engine has nothing: its draft is not over"))


def refill(imp: CoalBaronImporter, n: Notif) -> None:
    """``refillFactorySpace`` / ``refillOrderSpace``: the consecutive refills of one kind are one
    draw; those from the shuffled middle are its items, those from a known end of the deck are
    reveals of their space."""
    if id(n) in imp.done:
        return
    deck, key, name = ("tiles", "tile", tile_id) if n.type == "refillFactorySpace" else ("orders", "card", card_id)
    group = [n]
    for m in imp.following(n):
        if m.type != n.type:
            break
        group.append(m)
    imp.done.update(id(m) for m in group)
    laid = [(m, str(m.args[key]["location"]), name(m.args[key]["id"])) for m in group]
    top, middle, _ = imp.decks[deck].draw(len(laid))
    if middle:
        req = imp.awaits_chance()
        if req is None or req.name != deck or req.count != middle:
            awaited = "nothing" if req is None else f"{req.count} from the {req.name} deck"
            imp.fail(f"BGA refills {middle} space(s) from the shuffled {deck} deck; our engine awaits {awaited}")
        imp.chance({"draw": deck, "items": [item for _, _, item in laid[top:top + middle]]})
    spaces = imp.st.factory if deck == "tiles" else imp.st.order_spaces
    for i, (m, space, item) in enumerate(laid):
        if not top <= i < top + middle:
            imp.at(m, reveal(imp, space, item))
        if spaces.get(space) != item:
            imp.fail(f"BGA lays {item} on {space}, our engine laid it elsewhere (the refill orders differ)")


def reveal(imp: CoalBaronImporter, space: str, item: str) -> Callable[[], None]:
    return lambda: imp.chance({"reveal": space, "items": [item]})


# ---- the work phase: placing workers and the actions --------------------------------------


def new_shift(imp: CoalBaronImporter, n: Notif) -> None:
    """``newShift``: every worker is back with its owner."""
    imp.workers = {p: SETUP[len(imp.players)].workers for p in imp.players}
    imp.shift = int(n.args["n"])
    imp.observe({"shift": imp.shift})


def update_first_player(imp: CoalBaronImporter, n: Notif) -> None:
    """``updateFirstPlayer``: the start player of the shift (checked against rules 8)."""
    imp.observe({"start_player": str(n.args["player_id"])})


def skip_turn(imp: CoalBaronImporter, n: Notif) -> None:
    """``skipTurn``: a player without workers is passed over (the engine does it by itself).  When
    only players who left the table (zombies) still hold workers, BGA's next-player rule skips the
    others (some twice) before it ends the shift, which our rules have already ended: the count is
    then the log's own for the shift that ends."""
    pid = str(n.args["player_id"])
    held = imp.st.pits[pid].workers if imp.st.shift == imp.shift else imp.workers[pid]
    if held:
        imp.fail(f"BGA passes over {pid}, who has {held} workers left by our rules")


def place_workers(imp: CoalBaronImporter, n: Notif) -> None:
    """``placeWorkers``: the turn's decision.  Buying a factory tile the log never named reveals
    it first (``giveTileTo`` follows in the same packet); a draw space draws at once."""
    pid = str(n.args["player_id"])
    space = str(n.args["space"])
    ws = SPACES.get(space)
    if ws is None:
        imp.fail(f"no work space {space!r}")
    if ws.group == "factory":
        given = next((m for m in imp.following(n) if m.type == "giveTileTo"), None)
        if given is None:
            imp.fail(f"{pid} takes {space}, but no giveTileTo follows")
        tile = tile_id(given.args["tile"]["id"])
        lying = imp.st.factory.get(space)
        if lying == FACE_DOWN:
            imp.chance({"reveal": space, "items": [tile]})
        elif lying != tile:
            imp.fail(f"BGA gives {tile} from {space}, where our engine has " + (lying or "no tile"))
    elif ws.group == "order" and imp.st.order_spaces.get(space) == FACE_DOWN:
        imp.fail(f"the order card on {space} is not known to the record")
    imp.flush_turn()
    in_shift(imp)
    unconfirmed_turn(imp, pid)
    imp.move(pid, "place_workers", space=space)
    imp.workers[pid] -= int(n.args["n"])
    imp.acting = pid
    if ws.group in ("factory_draw", "order_draw"):
        imp.private_draw("tiles" if ws.group == "factory_draw" else "orders")


def unconfirmed_turn(imp: CoalBaronImporter, pid: str) -> None:
    """A player who left the table (a zombie) after their turn's action but before confirming it:
    BGA's zombie passes the confirmation, and with it the board's refill that confirming does (the
    next confirmed turn refills both).  Our rules await that refill when another player's turn
    begins: the zombie left there (``leave_table``, which skips it)."""
    if not imp.zombies or imp.awaits_chance() is None:
        return
    last = next((e.player for e in reversed(imp.events) if isinstance(e, MoveEvent)), None)
    if last != pid and last in imp.zombies:
        imp.leave_table(last)


def in_shift(imp: CoalBaronImporter) -> None:
    """A turn belongs to the shift the log last started, and every earlier shift was scored."""
    if imp.st.shift != imp.shift or imp.scored != imp.shift - 1:
        imp.fail(f"a turn of shift {imp.st.shift} by our rules, but the log started shift {imp.shift} and "
                 f"scored {imp.scored} shift(s): a shift's end or scoring is missing")


def lost_draw_placement(imp: CoalBaronImporter, n: Notif) -> None:
    """A draw-five choice state with no placement before it: undoing the choice made BGA delete the
    placement's own notifications too (its undo log entries after the draw's checkpoint carry the
    placement's move id), while the placement stands.  The state can only be reached from that
    placement, so it is restored from the state change; its worker count is the rules'."""
    pid = str(n.args["active_player"])
    if imp.st.decision != "place" or imp.st.actor != pid:
        return  # the placement was logged (or this is the undo's jump back into the choice)
    space = "order_draw" if n.state_id == CHOOSE_CARD else "factory_draw"
    placed = workers_needed(imp.st, space)
    imp.flush_turn()
    in_shift(imp)
    imp.move(pid, "place_workers", space=space)
    imp.workers[pid] -= placed
    imp.acting = pid
    imp.private_draw("tiles" if space == "factory_draw" else "orders")


def give_money(imp: CoalBaronImporter, n: Notif) -> None:
    """``giveMoney``: francs from a money space (implied by the placement; counted for the check)."""
    imp.francs[str(n.args["player_id"])] += int(n.args["n"])


def spend_money(imp: CoalBaronImporter, n: Notif) -> None:
    """``spendMoney``: a tile's price (implied by the purchase; counted for the check)."""
    imp.francs[str(n.args["player_id"])] -= int(n.args["n"])


def give_tile_to(imp: CoalBaronImporter, n: Notif) -> None:
    """``giveTileTo``: the tile kept from a draw-five (a move), or the factory tile bought by the
    placement (revealed and checked there)."""
    pid = str(n.args["player_id"])
    tile = tile_id(n.args["tile"]["id"])
    if imp.st.decision == "keep_tile" and imp.st.actor == pid:
        imp.move(pid, "keep_tile", tile=tile)
    pit = imp.st.pits[pid]
    if tile not in pit.light[TILES[tile].colour] + pit.dark[TILES[tile].colour]:
        imp.fail(f"BGA gives {tile} to {pid}, our engine did not")


def move_coal(imp: CoalBaronImporter, n: Notif) -> None:
    """``moveCoal``: where the cube goes says what happened — onto a new tile's minecart (a
    purchase's coal: implied, the cube takes the tile's colour), into the cage (load), into storage
    (unload), onto an order card (fill; two cubes onto one space are a substitution)."""
    pid = str(n.args["player_id"])
    cube = n.args["coal"]
    where = str(cube["location"])
    if id(n) in imp.done:
        return
    if where.startswith("tile_"):
        coal_onto_tile(imp, n, pid, int(cube["id"]), tile_id(where.removeprefix("tile_")))
    elif where == "pit_cage":
        imp.move(pid, "load_coal", colour=imp.cube_colour(cube, pid))
        imp.coal_at(int(cube["id"]), "cage")
    elif where == "storage":
        imp.move(pid, "store_coal", colour=imp.cube_colour(cube, pid))
        imp.coal_at(int(cube["id"]), "storage")
    elif where.startswith("card_"):
        coal_onto_card(imp, n, pid, where)
    else:
        imp.fail(f"a cube cannot go to {where!r}")


def coal_onto_tile(imp: CoalBaronImporter, n: Notif, pid: str, cube: int, tile: str) -> None:
    colour = COLOURS[TILES[tile].colour]
    known = imp.coal.setdefault(cube, colour)
    if known != colour:
        imp.fail(f"cube {cube} was {known}, it cannot be {colour} now")


def coal_onto_card(imp: CoalBaronImporter, n: Notif, pid: str, where: str) -> None:
    card, spot = where.removeprefix("card_").rsplit("_", 1)
    order = card_id(card)
    cubes = [n.args["coal"]]
    second = next(imp.following(n), None)
    if second is not None and second.type == "moveCoal" and str(second.args["coal"]["location"]) == where:
        cubes.append(second.args["coal"])
        imp.done.add(id(second))
    sources = [imp.coal_source(int(c["id"])) for c in cubes]
    colours = [imp.cube_colour(c, pid) for c in cubes]
    if len(cubes) == 1:
        imp.move(pid, "fill_order", card=order, colour=colours[0], source=sources[0])
    else:
        space = COLOURS[ORDERS[order].coal[int(spot)]]
        by_source = {s: sorted((c for c, x in zip(colours, sources) if x == s), key=COLOURS.index)
                     for s in ("cage", "storage")}
        imp.move(pid, "substitute", card=order, space=space, cage=by_source["cage"], storage=by_source["storage"])
    for c in cubes:
        imp.coal_at(int(c["id"]), "card")


def move_pit_cage(imp: CoalBaronImporter, n: Notif) -> None:
    """``movePitCage``: one work step, from level ``a`` to ``b``.  BGA's code before 28 March 2024
    (``100e327``) sent a stop of mining as ``movePitCage`` too, ``a`` and ``b`` then being the
    steps left and the space's steps (``mediumMessage`` since): only its message tells, so such a
    stop is read from the English message (in another language it is refused as a move from the
    wrong level)."""
    pid = str(n.args["player_id"])
    if OLD_STOP.match(n.log):
        medium_message(imp, n)
        return
    a, b = int(n.args["a"]), int(n.args["b"])
    if a != imp.cage[pid]:
        imp.fail(f"BGA moves {pid}'s cage from level {a}, the log so far left it at level {imp.cage[pid]}")
    imp.move(pid, "move_cage", level=b)
    imp.cage[pid] = b


def start_mining(imp: CoalBaronImporter, n: Notif) -> None:
    """``startMining``: the mining space's work steps (implied by the placement; checked)."""
    if imp.st.decision != "mining" or imp.st.steps != int(n.args["n"]):
        imp.fail(f"BGA gives {n.args['n']} work steps, our engine {imp.st.steps if imp.st.decision == 'mining' else 0}")


def medium_message(imp: CoalBaronImporter, n: Notif) -> None:
    """``mediumMessage``: the player stops mining with ``a`` of ``b`` steps left (not sent when
    every step was used: the engine ends mining by itself then)."""
    imp.move(str(n.args["player_id"]), "stop_mining")


def return_items(imp: CoalBaronImporter, n: Notif) -> None:
    """``returnTiles`` / ``returnCards``: the draw-five's rest goes back, ``n`` items, to the top or
    the bottom (only in the message); which items, and in what order, the log does not say.  No
    ``giveTileTo``/``giveCardTo`` before it: nothing was kept."""
    pid = str(n.args["player_id"])
    tiles = n.type == "returnTiles"
    kind, deck, field = ("tile", "tiles", "tiles") if tiles else ("order", "orders", "cards")
    if imp.st.decision == f"keep_{kind}":
        imp.move(pid, f"keep_{kind}", **{"tile" if tiles else "card": None})
    count = int(n.args["n"])
    if count:
        end = RETURN_END.search(n.log or "")
        if end is None:
            imp.fail(f"only BGA's message says whether the {deck} went to the top or the bottom of the deck, "
                     f"and this one does not say it in English: {n.log!r} (a log saved in another language: "
                     "see 'Saving a log by hand' in docs/bga-import.md)")
        imp.move(pid, f"return_{deck}", to=end.group(1), **{field: [None] * count})
        imp.decks[deck].put_back(count, end.group(1))


def card_delivered(imp: CoalBaronImporter, n: Notif) -> None:
    """``cardDelivered``: one delivered order and its points (the placement delivered them all)."""
    pid = str(n.args["player_id"])
    card = card_id(n.args["cardId"])
    if card not in imp.st.pits[pid].delivered:
        imp.fail(f"BGA delivers {card} for {pid}; by our rules {pid} delivered "
                 + (", ".join(imp.st.pits[pid].delivered) or "nothing"))
    imp.score[pid] += int(n.args["n"])
    imp.delivered_this_turn = True


# ---- the shift scoring and the final scoring -------------------------------------------------


def end_shift(imp: CoalBaronImporter, n: Notif) -> None:
    """``endShift``: the shift is over (our engine scored it right after the last turn's refills,
    and has started the next one).  If our rules still await a turn of this shift, BGA ends it
    without that player: a zombie (BGA ends a shift when only zombies hold workers) leaves first."""
    imp.flush_turn()
    if imp.st.shift == int(n.args["n"]):
        imp.passed_over(None)
    if int(n.args["n"]) != imp.shift:
        imp.fail(f"BGA ends shift {n.args['n']} during shift {imp.shift}")


def start_shift_scoring(imp: CoalBaronImporter, n: Notif) -> None:
    """``startShiftScoring``: every delivered card is shown; their number per player is checked."""
    count = dict.fromkeys(imp.players, 0)
    for card in n.args["cards"]:
        count[str(card["pId"])] += 1
    imp.observe({"delivered": count})


def start_majority(imp: CoalBaronImporter, n: Notif) -> None:
    """``startMajorityScoring``: one category of the shift scoring begins."""
    imp.majority = (int(n.args["shift"]), int(n.args["i"]), set())


def end_shift_majority(imp: CoalBaronImporter, n: Notif) -> None:
    """``endShiftMajority``: a player scores ``p`` points in category ``i`` with value ``n``, in
    place ``pos`` — checked against our shift-ranking milestone at this event."""
    pid = str(n.args["player_id"])
    i = int(n.args["i"])
    if imp.majority is None or imp.majority[1] != i or i not in MAJORITY:
        imp.fail(f"a majority score for category {i} outside its startMajorityScoring bracket")
    bga_type, category = MAJORITY[i]
    if n.args.get("type") not in (None, bga_type):
        imp.fail(f"majority {i} is {bga_type!r}, the notification says {n.args.get('type')!r}")
    shift, _, scorers = imp.majority
    scorers.add(pid)
    points = int(n.args["p"])
    imp.score[pid] += points
    imp.observe({"shift_ranking": {str(shift): {category: {pid: {
        "value": int(n.args["n"]), "rank": int(n.args["pos"]), "points": points}}}}})


OLDER_CODE = {
    "second_place_after_two_way_tie": "a shift scoring gives second place after a tie of two for first, as BGA's code "
                                      "did before 7 July 2024: the record follows that rule "
                                      "(option second_place_after_two_way_tie)",
    "cage_capacity": "a cage takes a sixth cube, as BGA's code allowed before 27 May 2024: the record follows that "
                     "rule (option cage_capacity 6, departure cage_holds_six)",
}
"""The note of each reading of BGA's older code (:meth:`CoalBaronImporter.variants`)."""


def _second_after_two_way_tie(log: BgaLog) -> bool:
    """Whether a shift scoring in the log gives second place in a category where two players share
    first (``endShiftMajority``'s ``pos``), which only BGA's code of before 7 July 2024 did."""
    places: dict[tuple[int | None, str], list[str]] = {}
    for n in log.by_type().get("endShiftMajority", ()):
        if isinstance(n.args, dict):
            places.setdefault((n.packet_id, str(n.args.get("i"))), []).append(str(n.args.get("pos")))
    return any(pos.count("1") == 2 and "2" in pos for pos in places.values())


def end_majority(imp: CoalBaronImporter, n: Notif) -> None:
    """``endMajorityScoring``: the category is over; every player BGA did not name scored nothing."""
    if imp.majority is None or imp.majority[1] != int(n.args["i"]):
        imp.fail(f"endMajorityScoring for category {n.args['i']} without its start")
    shift, i, scorers = imp.majority
    rest = [p for p in imp.players if p not in scorers]
    if rest:
        imp.observe({"shift_ranking": {str(shift): {MAJORITY[i][1]: {p: {"points": 0} for p in rest}}}})
    imp.majority = None


def end_shift_scoring(imp: CoalBaronImporter, n: Notif) -> None:
    """``endShiftScoring``: the shift scoring is over: every player's points so far (after shift 3
    our engine has done the final scoring too; the points are checked after BGA's)."""
    shift = int(n.args["shift"])
    if shift != imp.scored + 1:
        imp.fail(f"the scoring of shift {shift} follows that of shift {imp.scored}")
    imp.scored = shift
    if shift < 3:
        imp.observe({"score": dict(imp.score)})


def end_game_scoring_item(imp: CoalBaronImporter, n: Notif) -> None:
    """``endGameScoringMoney`` / ``Coals`` / ``Cards`` / ``Balance``: one final scoring item of one
    player, with what it counted (francs ``m``, or ``n`` cubes, cards, tiles of imbalance) —
    checked against our final scoring at this event.  BGA sends none for 0 points."""
    pid = str(n.args["player_id"])
    category = FINAL[n.type]
    value = int(n.args["m"] if n.type == "endGameScoringMoney" else n.args["n"])
    points = int(n.args["p"])
    imp.final_named.add((pid, category))
    imp.score[pid] += points
    imp.observe({"final_scoring": {category: {pid: {"value": value, "points": points}}}})


def final_zeros(imp: CoalBaronImporter, n: Notif) -> None:
    """After the final scoring: the items BGA did not announce scored 0; the final points."""
    if imp.scored != 3:
        imp.fail(f"the game ends after {imp.scored} shift scoring(s) in the log, not 3")
    zeros: dict[str, dict[str, dict[str, int]]] = {}
    for category in FINAL.values():
        for pid in imp.players:
            if (pid, category) not in imp.final_named:
                zeros.setdefault(category, {})[pid] = {"points": 0}
    if zeros:
        imp.observe({"final_scoring": zeros})
    imp.observe({"score": dict(imp.score)})


CoalBaronImporter.handlers = {
    "gameStateChange": game_state_change,
    "giveCardTo": give_card_to,
    "endDraft": end_draft,
    "refillFactorySpace": refill,
    "refillOrderSpace": refill,
    "newShift": new_shift,
    "updateFirstPlayer": update_first_player,
    "skipTurn": skip_turn,
    "placeWorkers": place_workers,
    "giveMoney": give_money,
    "spendMoney": spend_money,
    "giveTileTo": give_tile_to,
    "moveCoal": move_coal,
    "movePitCage": move_pit_cage,
    "startMining": start_mining,
    "mediumMessage": medium_message,
    "returnTiles": return_items,
    "returnCards": return_items,
    "cardDelivered": card_delivered,
    "endShift": end_shift,
    "startShiftScoring": start_shift_scoring,
    "startMajorityScoring": start_majority,
    "endShiftMajority": end_shift_majority,
    "endMajorityScoring": end_majority,
    "endShiftScoring": end_shift_scoring,
    "endGameScoringMoney": end_game_scoring_item,
    "endGameScoringCoals": end_game_scoring_item,
    "endGameScoringCards": end_game_scoring_item,
    "endGameScoringBalance": end_game_scoring_item,
}
CoalBaronImporter.states = frozenset({DRAFT, CHOOSE_CARD, CHOOSE_TILE, NEXT_PLAYER, CHOOSE_COAL, PRE_END})
"""The state changes :func:`game_state_change` reads (the others are not visited)."""

IMPORTER = CoalBaronImporter
