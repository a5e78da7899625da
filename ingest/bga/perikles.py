"""Perikles from Board Game Arena logs (the ``perikles`` implementation, Fnordistan/perikles).

The importer reads like the log: one small function per notification type, in
:data:`HANDLERS` below.  Most notifications are the *effects* of a decision
our engine already applied (cubes added by a tile, units taken at an
election): they produce no event, and where BGA states a fact our rules also
compute (a leader, a defeat count, a combat's winner, the final cube and
statue scoring) it becomes an ``observe`` event with origin ``bga``.

BGA groups decisions differently from our engine, so a few events are
*settled* from what the log does not show (docs/games/perikles.md):

* BGA's decisions are composite: a commit is a set of units (and a cube)
  sent at once; the importer orders it as our engine asks (two units, the
  cube, the extra units);
* decisions BGA never prompts for are passes: a player who holds an unused
  special tile and did not play it where he could ends his influence turn
  (``finish_turn``) or declines before a combat (``decline_special``), and a
  commit turn ends (``end_commit``) when the next one begins;
* BGA asks permission to defend before any unit moves and answers all the
  requests of one commit together: each request becomes ``ask_permission``
  with its answer, grants before refusals.

The record is written under ``options.seat_view`` (the order of play depends
only on public facts) and ``ruleset: bga``.  Hidden information stays hidden:
other players' special tiles are ``null`` until played, their units go face
down (``strength: null``) until ``revealCounters`` turns their location up,
and the round-1 display tiles nobody took are ``null``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import msgspec

from ingest.bga.base import GameImporter
from ingest.bga.log import BgaLog, Notif, Packet
from replay.games.perikles import tasks
from replay.games.perikles.board import HELD
from replay.games.perikles.components import (
    CITY,
    CITY_KEYS,
    INFLUENCE,
    INFLUENCE_TILES,
    LOCATION,
    LOCATION_SLOTS,
    UNIT,
)
from replay.games.perikles.phases.military import a_unit, choice_cities, power_name
from replay.games.perikles.state import PeriklesState

# ---- BGA's ids ---------------------------------------------------------------------------


def _bga_influence_ids() -> dict[int, str]:
    """BGA numbers the 36 influence tiles as it creates them: per city (Athens, Sparta, Argos, Corinth,
    Thebes, Megara) its 2-shard tiles, its Candidate tiles, its Assassin; then the five Any tiles."""
    order: list[str] = []
    for city in CITY_KEYS:
        for symbol in ("none", "candidate", "assassin"):
            order += [t.id for t in INFLUENCE_TILES if t.city == city and t.symbol == symbol]
    order += [t.id for t in INFLUENCE_TILES if t.city == "any"]
    return {i + 1: tile for i, tile in enumerate(order)}


INFLUENCE_BY_BGA_ID = _bga_influence_ids()
BGA_TILE_TYPE = {"none": "influence", "candidate": "candidate", "assassin": "assassin"}
CANDIDATE_SPACE = {"α": "alpha", "β": "beta"}
SIDE_OF_BATTLEPOS = {1: "attacker", 2: "attacker", 3: "defender", 4: "defender"}
BATTLE_TILES = ("brasidas", "phormio", "thessalanianallies", "persianfleet")
INFLUENCE_SPECIALS = ("perikles", "plague", "alkibiades")
PASSES: dict[type[tasks.Task], str] = {tasks.SpecialTileAfterTheTile: "finish_turn"}
"""The passes :meth:`PeriklesImporter.settle` emits; the pre-combat window's come at its ``rollBattle``
only (the window of a location without face-down units opens before the log has finished the one
before it)."""
CITY_BY_NAME = {c.name: c.key for c in CITY.values()}


def _int(value: Any) -> int:
    return int(value)


def _pid(value: Any) -> str:
    return str(value)


class PeriklesImporter(GameImporter):
    """The Perikles importer: :data:`HANDLERS` maps each notification type to its function."""

    game_id = "perikles"
    signature = frozenset({
        "influenceCardTaken", "influenceCardDrawn", "candidateProposed", "spartanChoice", "sendBattle",
        "revealCounters", "rollBattle", "scoreStatues", "scoreCubes", "useTile", "takeMilitary",
    })
    ignored = frozenset({
        "plagueReduce",         # the Plague's effect, applied by play_plague
        "takeMilitary",         # units taken at an election: public, the engine takes the same
        "persianLeader",        # who leads Persia follows from the elections
        "takePersians",         # the Persian units go to the Persian leaders (engine)
        "noDefend",             # private note to the requester after a refusal
        "resetBattleTokens",    # tokens cleared at a location or combat start (engine)
        "uncontestedVictory",   # same
        "nonbattle",            # same
        "freeToken",            # same
        "round2",               # the combat-1 winner's token (engine)
        "takeToken",            # a hit's token (the dice decide; hits are observed per combat)
        "returnMilitary",       # units go home after a combat or location (engine)
        "attackerWins",         # the location's result: claims and defeats are observed
        "defenderWins",         # same
        "returnMilitaryPool",   # units go home at the end of a round (engine)
        "endGame",              # the end condition; the result comes from the end-of-game packet
        "tableWindow",          # the final score table: the end-of-game packet's scores are the result
        "preferenceChanged",    # private, after actChangePref: the auto-pass preference only stops BGA prompting
                                # that player for his special tile; a player not prompted passes, which the
                                # record writes as the pass our rules await (nothing depends on it)
    })

    def __init__(self, log: BgaLog, players: list[str], names: dict[str, str | None],
                 variant: Mapping[str, Any] | None = None) -> None:
        super().__init__(log, players, names, variant)
        self.pending_commit: dict[str, Any] | None = None
        """The sends and cube of one BGA commit, gathered until the engine takes them in its order."""
        self._repeats: Repeats | None = None
        """:meth:`zombie_repeats`, once asked."""
        self.requests: list[dict[str, Any]] = []
        """Permission requests of the commit waiting for answers (BGA answers them together)."""
        self.standing: list[Notif] = []
        """Standing permissions (``givePermission``) set while a request of the same power and location
        waited: each comes after that request's ``ask_permission`` (see :func:`flush_requests`)."""
        self.lists: list[Notif] = []
        """The answers given (``givePermission``), and standing permissions set meanwhile where an answer
        waits: BGA's permission lists, observed once all are answered."""
        self.meanwhile: list[Notif] = []
        """Standing permissions set, and observed, while requests waited: later lists than an answer's."""
        self.claimed_turn: tuple[str, int] | None = None
        """The engine's commit turn a ``useTile`` has started (player, tiles spent so far)."""
        self.battle_plays: dict[str, dict[str, Any]] = {}
        """Special tiles played before the current combat (BGA asks everyone at once)."""
        self.hits = {"attacker": 0, "defender": 0}
        self.roles: dict[str, set[str]] | None = None
        """BGA's word for a side in a combat (in the language of the log's messages) -> the sides
        (``attacker``, ``defender``) its Battle Tokens pair it with (read once, when first needed)."""
        self.combat_type: str | None = None
        """The type of the dice combat under way (``rollBattle``'s ``type``)."""
        self.main: dict[str, dict[str, str]] = {}
        """Location -> side -> main player, as ``sendBattle`` showed it."""
        self.location_points = {p: 0 for p in players}
        self.defeats = {c: 0 for c in CITY_KEYS}
        """BGA's location points and defeats so far (``claimTile``, ``cityDefeat``), observed at each
        round's end."""
        self.locations: list[str] = []
        """This round's location tiles by slot (a late ``revealCounters`` may follow the round's end)."""

    def options(self) -> dict[str, Any]:
        return {"ruleset": "bga", "seat_view": True}

    @property
    def pk(self) -> PeriklesState:
        state = self.state
        assert isinstance(state, PeriklesState)
        return state

    # ---- the setup the log names only later ----------------------------------------------

    def zombie_repeats(self) -> Repeats:
        """:func:`zombie_repeats` of this log (worked out once, when first asked); a note for each group
        of pairs it cannot tell apart."""
        if self._repeats is None:
            self._repeats = zombie_repeats(self.log, self.zombies, self.cancelled_uids)
            for (power, unit_type, loc), keys, repeated, packets in self._repeats.untold:
                who = " and ".join(sorted({self.names.get(p) or p for p, _ in keys}))
                were = "was" if repeated == 1 else "were"
                self.notes.append(
                    f"packets {', '.join(map(str, packets))}: {who}, who left the table, sent two "
                    f"{power_name(power)} {unit_type}s to {loc.capitalize()} in each of {len(keys)} turns, and "
                    f"{repeated} of those pairs {were} one counter BGA's zombie picked twice; the log does not "
                    f"say which, so the record takes the earliest {repeated}: the face-down count there between "
                    "those packets may be off by one, the battle and every score are as BGA had them")
        return self._repeats

    def prepare(self) -> None:
        """Round 1's display, locations, the secret special tiles and the first player.

        BGA logs none of the round-1 deal: a display tile is named when it is taken (its slot's first
        take, before any refill of that slot), a location when its battle comes (``revealCounters`` names
        the slot, the battle's notifications the location).  Display tiles nobody took stay unknown.
        """
        display: list[str | None] = [None] * 10
        refilled: set[int] = set()
        locations: dict[int, str] = {}
        open_slot: int | None = None
        for n in self.log.notifs:
            if n.type in ("newInfluence", "newLocations"):
                break
            self.current = n
            try:
                open_slot = self._scan(n, display, refilled, locations, open_slot)
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                self.fail(f"unexpected arguments ({type(exc).__name__}: {exc})")
        self.current = None
        self.log.reorder(sends_in_place(self.log))
        missing = [s for s in range(1, LOCATION_SLOTS + 1) if s not in locations]
        if missing:
            self.fail(f"round 1's location in slot {missing[0]} is never named in the log")
        first = self.players[0]
        self.chance({"draw": "influence", "items": display})
        self.locations = [locations[s] for s in range(1, LOCATION_SLOTS + 1)]
        self.chance({"draw": "locations", "items": self.locations})
        self.chance({"draw": "special", "items": [None] * len(self.players)})
        self.chance({"choose": "first_player", "value": first})

    def _scan(self, n: Notif, display: list[str | None], refilled: set[int], locations: dict[int, str],
              open_slot: int | None) -> int | None:
        """One notification of the pre-scan of round 1 (see :meth:`prepare`); returns the open battle slot."""
        if n.type not in _SCAN_TYPES:
            return open_slot  # most of round 1 (its args are not decoded)
        if n.type == "sendBattle":
            at = n.args_as(BattleSlotArgs)
            if at.slot is not msgspec.UNSET:
                if at.location is msgspec.UNSET:
                    raise KeyError("location")
                self._place_location(locations, _int(at.slot), str(at.location), n)
            return open_slot
        a = n.args if isinstance(n.args, dict) else {}
        if n.type == "influenceCardTaken":
            slot = _int(a["slot"])
            if slot not in refilled and display[slot - 1] is None:
                display[slot - 1] = self._tile(a["tile"], n)
        elif n.type == "influenceCardDrawn":
            refilled.add(_int(a["tile"]["slot"]))
        elif n.type in ("rollBattle", "claimTilePersians") and "slot" in a:
            self._place_location(locations, _int(a["slot"]), str(a["location"]), n)
        elif n.type == "revealCounters":
            open_slot = _int(a["slot"])
            for c in a.get("military") or []:
                self._place_location(locations, open_slot, str(c["location"]), n)
        elif open_slot is not None and "location" in a and n.type in (
                "unclaimedTile", "uncontestedVictory", "claimTile", "attackerWins", "defenderWins",
                "nonbattle", "combatWinner"):
            self._place_location(locations, open_slot, str(a["location"]), n)
        return open_slot

    def _place_location(self, locations: dict[int, str], slot: int, key: str, n: Notif) -> None:
        if key not in LOCATION:
            self.fail(f"unknown location {key!r}")
        if locations.setdefault(slot, key) != key:
            self.fail(f"round 1's location slot {slot} is named both {locations[slot]!r} and {key!r}")

    def _tile(self, tile: dict[str, Any], n: Notif) -> str:
        """Our id of a BGA influence tile object (``{id, city, type}``), checked against its city and type."""
        ours = INFLUENCE_BY_BGA_ID.get(_int(tile["id"]))
        t = INFLUENCE.get(ours or "")
        if t is None or t.city != tile["city"] or BGA_TILE_TYPE[t.symbol] != tile["type"]:
            self.fail(f"influence tile {tile['id']} is a {tile['city']} {tile['type']} tile in this log, "
                      f"not what BGA's numbering gives ({ours})")
        return t.id

    def _unit(self, counter: dict[str, Any]) -> str:
        """Our id of a BGA military counter, checked against its city, type and strength."""
        uid = f"u{_int(counter['id'])}"
        u = UNIT.get(uid)
        if u is None or (u.power, u.type, u.strength) != (counter["city"], counter["type"], _int(counter["strength"])):
            self.fail(f"counter {counter['id']} is a {counter['city']} {counter['type']} of strength "
                      f"{counter['strength']} in this log, but BGA's counter {counter['id']} is {uid}")
        return uid

    def finish(self) -> None:
        flush_commit(self)

    # ---- settling what BGA does not show -------------------------------------------------

    def point(self) -> type[tasks.Task] | None:
        """The step the engine waits at (the top task's class), None once the game is over."""
        task = self.pk.pending()
        return None if task is None else type(task)

    def settle(self, actor: str | None = None, keep: tuple[type[tasks.Task], ...] = ()) -> None:
        """Emit the passes the engine awaits before the next thing the log shows: an unused special tile
        kept at the end of an influence turn, a commit turn that has ended.  ``actor``'s
        own decision at a point in ``keep`` is not passed (he is about to act there)."""
        flush_commit(self)
        while True:
            t = self.turn()
            if not isinstance(t, str):
                return
            at = self.point()
            if at in keep and t == actor:
                return
            if at in PASSES:
                self.move(t, PASSES[at])
            elif at is not None and issubclass(at, tasks.CommitTurn) and t != actor and self.claimed_turn == self.engine_turn():
                self.move(t, "end_commit")  # the commit turn BGA started has ended
            else:
                return

    def engine_turn(self) -> tuple[str, int] | None:
        """The engine's commit turn now: (player, influence tiles spent so far), or None."""
        t = self.turn()
        at = self.point()
        if isinstance(t, str) and at is not None and issubclass(at, tasks.CommitTurn):
            return (t, len(self.pk.spent))
        return None

    def claim(self, player: str) -> None:
        """BGA shows ``player``'s commit turn under way: the engine's turn, if his, is the one."""
        now = self.engine_turn()
        if now is not None and now[0] == player:
            self.claimed_turn = now


Handler = Callable[[PeriklesImporter, Notif], None]

_SCAN_TYPES = frozenset({
    "influenceCardTaken", "influenceCardDrawn", "sendBattle", "rollBattle", "claimTilePersians", "revealCounters",
    "unclaimedTile", "uncontestedVictory", "claimTile", "attackerWins", "defenderWins", "nonbattle", "combatWinner"})
"""The notification types :meth:`PeriklesImporter._scan` reads."""

PERMISSION_STATES = (26, 27, 28)


def sends_in_place(log: BgaLog) -> list[Packet]:
    """The packets with each private ``sendBattle`` packet where BGA sent it.

    BGA sends a move's public notifications and the viewer's private ones in separate packets, and a
    log may list the public packet first, although the units went out before the move's next state
    (the next commit turn, the battles).  The private packet is put back before that state change:
    the first public ``gameStateChange`` of the same move outside the permission states.
    """
    private = {p.move_id: p for p in log.packets
               if p.private and any(n.type == "sendBattle" for n in p.notifs)}
    out: list[Packet] = []
    placed: set[int] = set()
    for p in log.packets:
        if p.private and p.move_id in private and private[p.move_id] is p:
            if id(p) not in placed:
                out.append(p)  # no later public packet of its move took it: it stays where it is
                placed.add(id(p))
            continue
        sends = private.get(p.move_id)
        if p.private or sends is None or id(sends) in placed:
            out.append(p)
            continue
        cut = next((i for i, n in enumerate(p.notifs) if n.type == "gameStateChange"
                    and n.state_id not in PERMISSION_STATES and isinstance(n.args, dict)), None)
        if cut is None:
            out.append(p)
            continue
        out.append(Packet(p.channel, p.packet_id, p.move_id, p.time, p.notifs[:cut]))
        out.append(sends)
        placed.add(id(sends))
        out.append(Packet(p.channel, p.packet_id, p.move_id, p.time, p.notifs[cut:]))
    return out

# ---- setup and influence phase ---------------------------------------------------------------


def influence_cubes(imp: PeriklesImporter, n: Notif) -> None:
    """`influenceCubes`: a starting cube, the Any tile's cube (both decisions), or an effect (a tile's
    cubes, Perikles, an undefended location's reward)."""
    p, city = _pid(n.args["player_id"]), str(n.args["city"])
    at = imp.point()
    if at is tasks.InitialPlacement:
        imp.move(p, "place_cube", city=city)
    elif at is tasks.PlaceTheAnyCube and imp.turn() == p:
        imp.move(p, "place_any_cube", city=city)


def cube_limit(imp: PeriklesImporter, n: Notif) -> None:
    """`cubeLimit`: BGA refuses an addition at 30 cubes on the board (the bga ruleset's ``add_cubes`` does
    the same, Q4).  For the Any tile's cube it is the player's decision, whose city the log does not give:
    ``place_any_cube`` without a city, which the rules accept only when the cube cannot be placed."""
    p = _pid(n.args["player_id"])
    if imp.point() is tasks.PlaceTheAnyCube and imp.turn() == p:
        imp.move(p, "place_any_cube", city=None)


def influence_card_taken(imp: PeriklesImporter, n: Notif) -> None:
    """`influenceCardTaken`: take the tile in a display slot."""
    p = _pid(n.args["player_id"])
    imp.settle()
    slot = _int(n.args["slot"])
    tile = imp._tile(n.args["tile"], n)
    ours = imp.pk.display[slot - 1] if 1 <= slot <= len(imp.pk.display) else None
    if ours != tile:
        imp.fail(f"BGA's slot {slot} holds {tile}, ours holds {ours}")
    imp.move(p, "take_tile", slot=slot)


def influence_card_drawn(imp: PeriklesImporter, n: Notif) -> None:
    """`influenceCardDrawn`: the refill of the emptied slot (chance)."""
    imp.settle()
    req = imp.awaits_chance()
    slot = _int(n.args["tile"]["slot"])
    if req is not None and imp.pk.refill_slot != slot:
        imp.fail(f"BGA refills slot {slot}, our rules refill slot {imp.pk.refill_slot}")
    imp.chance({"draw": "influence", "items": [imp._tile(n.args["tile"], n)]})


def candidate_proposed(imp: PeriklesImporter, n: Notif) -> None:
    """`candidateProposed`: a nomination (the Candidate symbol, or a turn of the nomination phase)."""
    p = _pid(n.args["player_id"])
    imp.settle()
    imp.move(p, "nominate", city=str(n.args["city"]), nominee=_pid(n.args["candidate_id"]))


def cube_removed(imp: PeriklesImporter, n: Notif) -> None:
    """`cubeRemoved`: the Assassin removes a cube (a candidate's when ``candidate`` is given); without a
    log line it is one cube of the Plague's effect."""
    if not n.log:
        return
    space = CANDIDATE_SPACE[n.args["candidate"]] if n.args.get("candidate") else "city"
    imp.move(_pid(n.args["player_id"]), "assassinate", city=str(n.args["city"]),
             victim=_pid(n.args["candidate_id"]), space=space)


def candidate_promoted(imp: PeriklesImporter, n: Notif) -> None:
    """`candidatePromoted`: the beta candidate moved up after the alpha one was removed (effect)."""
    city, who = str(n.args["city"]), _pid(n.args["candidate_id"])
    if imp.pk.alpha[city] != who:
        imp.fail(f"BGA moves {who} up to alpha in {city}, our alpha there is {imp.pk.alpha[city]}")


def play_special(imp: PeriklesImporter, n: Notif) -> None:
    """`playSpecial`: a special tile is played, and so revealed.  Influence tiles and Slave Revolt are
    moves now (Plague's city and Slave Revolt's target come in the same packet); battle tiles are
    collected and played when our engine asks before the combat."""
    p, tile = _pid(n.args["player_id"]), str(n.args["tile"])
    later = n.packet.notifs[n.index + 1:]
    if tile in BATTLE_TILES:
        side = next((str(x.args["side"]) for x in later if x.type == "takeToken"), None)
        imp.battle_plays[p] = {"tile": tile, "side": side}
        return
    if tile == "slaverevolt":
        revolt = next((x for x in later if x.type == "slaveRevolt"), None)
        if revolt is None:
            imp.fail("Slave Revolt is played, but the packet does not say where it strikes")
        imp.settle(actor=p)
        imp.claim(p)
        imp.move(p, "play_slave_revolt", target=str(revolt.args["return_from"]))
        return
    imp.settle(actor=p, keep=(tasks.SpecialTileAfterTheTile,))
    if tile == "perikles":
        imp.move(p, "play_perikles")
    elif tile == "alkibiades":
        imp.move(p, "play_alkibiades")
    elif tile == "plague":
        struck = next((x for x in later if x.type == "plagueReduce"), None)
        if struck is None:
            imp.fail("the Plague removes no cube, so the log does not say which city it struck")
        imp.move(p, "play_plague", city=str(struck.args["city"]))
    else:
        imp.fail(f"unknown special tile {tile!r}")


def alkibiades_move(imp: PeriklesImporter, n: Notif) -> None:
    """`alkibiadesMove`: one of the two cubes Alkibiades moves (``player_id`` owns the cube)."""
    mover = imp.turn()
    imp.move(mover, "alkibiades_move", owner=_pid(n.args["player_id"]), from_city=str(n.args["city"]),
             to_city=str(n.args["city2"]))


# ---- elections ----------------------------------------------------------------------------------


def election(imp: PeriklesImporter, n: Notif) -> None:
    """`election`: a city's new leader (the engine holds the elections): observed."""
    imp.settle()
    imp.observe({"leaders": {str(n.args["city"]): _pid(n.args["player_id"])}})


ELECTION_ORDER = ("athens", "sparta", "argos", "corinth", "thebes", "megara")
"""The order BGA holds the elections in (its list of cities): each city gets one ``election`` or
``noElection``, all in one packet."""


def no_election(imp: PeriklesImporter, n: Notif) -> None:
    """`noElection`: a city without candidates has no leader: observed.  BGA names the city only by
    its name in the language of the log's messages, so the city is the one whose turn it is in
    :data:`ELECTION_ORDER`; an English name is checked against it."""
    imp.settle()
    before = [x for x in n.packet.notifs[:n.index] if x.type in ("election", "noElection")]
    if len(before) >= len(ELECTION_ORDER) or any(
            x.type == "election" and str(x.args["city"]) != c for x, c in zip(before, ELECTION_ORDER)):
        imp.fail("the elections before it are not in BGA's order of cities")
    city = ELECTION_ORDER[len(before)]
    named = CITY_BY_NAME.get(str(n.args["city_name"]))
    if named not in (None, city):
        imp.fail(f"BGA names {named} where its order of elections has {city}")
    imp.observe({"leaders": {city: None}})


# ---- military phase ------------------------------------------------------------------------------


def spartan_choice(imp: PeriklesImporter, n: Notif) -> None:
    """`spartanChoice`: the leader of Sparta names the first committer."""
    imp.settle()
    imp.move(_pid(n.args["player_id"]), "choose_first_committer", player=_pid(n.args["candidate_id"]))


def retrieve_deadpool(imp: PeriklesImporter, n: Notif) -> None:
    """`retrieveDeadpool`: a unit back from the dead pool; a decision only when both types lay there."""
    p, city = _pid(n.args["player_id"]), str(n.args["city"])
    if imp.point() is tasks.RecoverAUnit and imp.turn() == p and city in choice_cities(imp.pk, p):
        imp.move(p, "recover_unit", city=city, unit_type=str(n.args["type"]))
    uid = imp._unit({"id": n.args["id"], "city": n.args["city"], "type": n.args["type"],
                     "strength": n.args["strength"]})
    u = UNIT[uid]
    held = [k for k in UNIT if (UNIT[k].power, UNIT[k].type, UNIT[k].strength) == (u.power, u.type, u.strength)
            and imp.pk.unit_at[k] == HELD and imp.pk.unit_holder[k] == p]
    if not held:
        imp.fail(f"BGA gives {p} {uid} from the dead pool; our rules give him no unit of that kind")


def use_tile(imp: PeriklesImporter, n: Notif) -> None:
    """`useTile`: a commit turn starts (its tile is spent by the engine); the turn before it has ended."""
    p = _pid(n.args["player_id"])
    imp.settle()
    imp.claim(p)


def no_commits(imp: PeriklesImporter, n: Notif) -> None:
    """`noCommits`: the player sends nothing this turn.  His turn ends with the next thing the log shows
    (BGA may first prompt him for his special tile: Slave Revolt after an empty commit); our engine skips
    a turn with nothing to do."""
    p = _pid(n.args["player_id"])
    imp.settle(actor=p)
    imp.claim(p)


class SendBattleArgs(msgspec.Struct):
    """What the import reads of a ``sendBattle`` (not the table of wars it restates)."""

    player_id: Any
    location: Any
    battlepos: Any
    id: Any
    city: Any
    type: Any
    strength: Any


class BattleSlotArgs(msgspec.Struct):
    """What round 1's pre-scan reads of a ``sendBattle``: the battle's slot and its location."""

    slot: Any = msgspec.UNSET
    location: Any = msgspec.UNSET


def send_battle(imp: PeriklesImporter, n: Notif) -> None:
    """`sendBattle` (private): one unit committed; another player's comes with id and strength 0 (face
    down).  Gathered per commit, then sent in our engine's order."""
    a = n.args_as(SendBattleArgs)
    p = _pid(a.player_id)
    loc, pos = str(a.location), _int(a.battlepos)
    side = SIDE_OF_BATTLEPOS[pos]
    if pos in (1, 3):
        imp.main.setdefault(loc, {}).setdefault(side, p)
    strength: int | None = None
    if _int(a.id) != 0:
        strength = UNIT[imp._unit({"id": a.id, "city": a.city, "type": a.type, "strength": a.strength})].strength
    commit = _commit_for(imp, p, n)
    commit["sends"].append({"power": str(a.city), "unit_type": str(a.type), "strength": strength,
                            "location": loc, "side": side})


def spent_influence(imp: PeriklesImporter, n: Notif) -> None:
    """`spentInfluence`: a cube removed to send extra units (part of the commit)."""
    _commit_for(imp, _pid(n.args["player_id"]), n)["cube"] = str(n.args["city"])


def _commit_for(imp: PeriklesImporter, p: str, n: Notif) -> dict[str, Any]:
    c = imp.pending_commit
    if c is not None and (c["player"] != p or c["move"] != n.packet.move_id):
        flush_commit(imp)
        c = None
    if c is None:
        c = imp.pending_commit = {"player": p, "move": n.packet.move_id, "sends": [], "cube": None}
    return c


def flush_commit(imp: PeriklesImporter) -> None:
    """Emit a gathered commit: two units, the cube, the extra units."""
    c = imp.pending_commit
    if c is None:
        return
    imp.pending_commit = None
    p, sends = c["player"], c["sends"]
    if c["cube"] is not None and len(sends) <= 2:
        imp.fail(f"{p} spends a cube for extra units but sends {len(sends)}")
    imp.settle(actor=p)
    imp.claim(p)
    if p in imp.zombies and len(sends) == 2:
        repeat = imp.zombie_repeats().verdicts.get((p, c["move"]), False)
        if repeat is None:
            s = sends[0]
            imp.fail(f"{p}, who left the table, sends {a_unit(s['power'], s['unit_type'])} twice in one turn, and "
                     "the units revealed at its battle do not match BGA's zombie picking one counter twice or "
                     "two counters")
        if repeat:  # one counter picked twice: BGA moves it on to where the second send says
            imp.move(p, "send_unit", **sends[0])
            imp.move(p, "resend_unit", **sends[1])
            return
    for i, s in enumerate(sends):
        if i == 2 and c["cube"] is not None:
            imp.move(p, "spend_cube", city=c["cube"])
        imp.move(p, "send_unit", **s)


class Repeats(NamedTuple):
    """What :func:`zombie_repeats` works out of a log."""

    verdicts: dict[tuple[str, Any], bool | None]
    """(player, BGA move id) of a zombie's pair of like sends -> one counter picked twice (``True``),
    two counters (``False``), or the log contradicts itself (``None``)."""
    untold: list[tuple[tuple[str, str, str], list[tuple[str, Any]], int, list[int | None]]]
    """The groups of like pairs whose reveals say how many were one counter but not which:
    (power, unit type, location), the pairs in log order, how many were one counter, their packets."""


def zombie_repeats(log: BgaLog, zombies: frozenset[str], cancelled: set[str]) -> Repeats:
    """For each commit of a player who left the table (BGA's zombie) whose two sends are of one kind
    (power and type): whether one counter was sent twice, keyed by (player, BGA move id), as
    :func:`_commit_for` gathers a commit.

    BGA's zombie (``sendRandomUnits``) draws its two units from one list, so it may draw a counter
    twice, to one location or two; BGA then notifies both sends, moving the counter each time, so it
    ends where the second send says and the first is the one too many.  Face down, the sends do not
    say which; the reveals do.  The sends of a kind to a location in one commit phase (all players':
    only a zombie's pair can be too many) less the units of that kind revealed there are the repeated
    picks whose first send went there.  A pair whose counters the log names (the zombie's own view) is
    decided by their ids.

    When some but not all of a battle's like pairs were one counter, the log does not say which.  Every
    reading ends with the same units at every location, so the battles and scores are the same; only
    the face-down count between those commits differs.  The earliest pairs are taken as the repeated
    picks (the reading that needs the fewest counters early, so the zombie's pool never runs short),
    and the group is listed in :attr:`Repeats.untold` for the import to say so."""
    commits: dict[tuple[str, Any], list[tuple[str, str, str, int, int]]] = {}
    packets: dict[tuple[str, Any], int | None] = {}
    sent: Counter[tuple[str, str, str, int]] = Counter()
    revealed: Counter[tuple[str, str, str, int]] = Counter()
    round_, battles = 0, False  # the commit phase's count, and whether its battles have begun
    for n in log.notifs:
        if n.type == "revealCounters":
            battles = True
            for unit in n.args.get("military") or ():
                revealed[(str(unit["city"]), str(unit["type"]), str(unit["location"]), round_)] += 1
            continue
        if n.type != "sendBattle" or n.uid in cancelled:
            continue
        if battles:
            round_, battles = round_ + 1, False
        a = n.args_as(SendBattleArgs)
        send = (str(a.city), str(a.type), str(a.location), round_, _int(a.id))
        sent[send[:4]] += 1
        p = _pid(a.player_id)
        if p in zombies:
            commits.setdefault((p, n.packet.move_id), []).append(send)
            packets.setdefault((p, n.packet.move_id), n.packet_id)
    verdicts: dict[tuple[str, Any], bool | None] = {}
    pairs: dict[tuple[str, str, str, int], list[tuple[str, Any]]] = {}
    for key, sends in commits.items():
        if len(sends) != 2 or sends[0][:2] != sends[1][:2]:
            continue
        if sends[0][4] and sends[1][4]:  # the counters are named
            verdicts[key] = sends[0][4] == sends[1][4]
        else:
            pairs.setdefault(sends[0][:4], []).append(key)
    untold = []
    for kind, keys in pairs.items():
        repeated = sent[kind] - revealed[kind]
        if not 0 <= repeated <= len(keys) or kind[3] == round_ and not battles:
            verdicts.update(dict.fromkeys(keys, None))  # more or fewer than the pairs, or never revealed
            continue
        verdicts.update((key, i < repeated) for i, key in enumerate(keys))
        if 0 < repeated < len(keys):
            untold.append((kind[:3], keys, repeated, [packets[k] for k in keys]))
    return Repeats(verdicts, untold)


def defend_request(imp: PeriklesImporter, n: Notif) -> None:
    """`defendRequest`: BGA asks the owning city's leader before any unit of the commit moves."""
    p = _pid(n.args["player_id"])
    imp.settle(actor=p)
    imp.claim(p)
    imp.requests.append({"player": p, "power": str(n.args["city"]), "location": str(n.args["battle"]),
                         "answer": None})


def give_permission(imp: PeriklesImporter, n: Notif) -> None:
    """`givePermission`: a leader grants or denies.  In a packet that changes the state it answers a
    request (once every request of the commit is answered they become ``ask_permission`` +
    ``answer_permission`` pairs, grants first: BGA redoes a commit when any request is refused); alone in
    its packet it is the leader's standing permission, set at any time (``set_permission``); while a
    request of the same power and location is pending it waits for that request's ``ask_permission``
    (it came after it).  BGA's list of the location's permissions after it is observed (once the
    requests are answered, each location's latest list, a standing permission's included)."""
    power, loc = str(n.args["city"]), str(n.args["location"])
    grant = _grants(imp, n)
    allowed = _permissions(n.args["permissions"])
    waiting = [r for r in imp.requests if r["power"] == power and r["location"] == loc and r["answer"] is None]
    if waiting and _changes_state(n):
        waiting[0]["answer"] = grant
        waiting[0]["after"] = len(imp.standing)  # the standing permissions set before this answer
        waiting[0]["notif"] = n
        imp.lists.append(n)
        if all(r["answer"] is not None for r in imp.requests):
            flush_requests(imp)
        return
    if any(r["power"] == power and r["location"] == loc for r in imp.requests):
        imp.standing.append(n)
        return
    flush_commit(imp)  # units sent before it are there (a revocation cannot touch them)
    set_permission(imp, n)
    if any(str(x.args["location"]) == loc for x in imp.lists):
        imp.lists.append(n)  # BGA's list counts an answer held back here: observed with it
        return
    imp.observe({"permissions": {loc: allowed}})
    if imp.requests:
        imp.meanwhile.append(n)


def set_permission(imp: PeriklesImporter, n: Notif) -> None:
    """A leader's standing permission (``givePermission`` outside an answer)."""
    imp.move(_pid(n.args["player_id"]), "set_permission", location=str(n.args["location"]),
             power=str(n.args["city"]), grant=_grants(imp, n))


_GRANTS = {"grants": True, "denies": False, "gives": True, "revokes": False}
"""``givePermission``'s word for it, in English: ``grants_or_denies`` since BGA's permission
requests (December 2025), ``gives_or_revokes`` before them (standing permissions only)."""


def _grants(imp: PeriklesImporter, n: Notif) -> bool:
    """Whether ``givePermission`` grants (else denies or revokes) the permission: whether the power
    is on BGA's list of the location's permissions after it.  The word BGA puts in the message says
    the same in the language of the log's messages, so it is only checked, and only when English."""
    grant = str(n.args["city"]) in _permissions(n.args["permissions"])
    word = n.args.get("grants_or_denies", n.args.get("gives_or_revokes"))
    if _GRANTS.get(str(word), grant) != grant:
        imp.fail(f"BGA says a leader {word} the permission, but its list of permissions after it is "
                 f"{n.args['permissions']!r}")
    return grant


def _changes_state(n: Notif) -> bool:
    """Whether ``n``'s packet moves BGA's state machine after it (an answer to a request does)."""
    return any(x.type in ("gameStateMultipleActiveUpdate", "gameStateChange") for x in n.packet.notifs[n.index + 1:])


def _permissions(value: Any) -> list[str]:
    """BGA's comma list of the powers allowed to defend a location (null, or with empty entries left
    where one was revoked), sorted."""
    if value is None:
        return []
    return sorted(p for p in str(value).split(",") if p)


def request_canceled(imp: PeriklesImporter, n: Notif) -> None:
    """`requestCanceled`: the requester withdraws his requests, so none of them was asked in the end; the
    answers already given stand on BGA as the leaders' own permissions (``set_permission``, in log order)
    and the requester commits again (no free turn follows, whatever was granted: Q3 needs a commit
    whose requests were all granted)."""
    answers = [r["notif"] for r in imp.requests if r["answer"] is not None]
    standing, lists = imp.standing, imp.lists
    imp.requests, imp.standing, imp.lists = [], [], []
    for x in sorted(answers + standing, key=lambda x: x.seq):
        _set_standing(imp, [x])
    if lists:
        _observe_latest(imp, lists + standing)
    imp.meanwhile = []


def flush_requests(imp: PeriklesImporter) -> None:
    """The answered requests as ask + answer pairs (grants first), each standing permission held back for
    one of them after its ask, before or after its answer as in the log; then each location's permissions
    as BGA gave them last are observed."""
    answered = [r for r in imp.requests if r["answer"] is not None]
    standing, imp.standing = imp.standing, []
    standing_all = list(standing)
    imp.requests = []
    seen: set[tuple[str, str]] = set()
    for r in sorted(answered, key=lambda r: not r["answer"]):
        pair = (r["power"], r["location"])
        if pair in seen:
            continue  # one request per unit on BGA; one permission per power and location here
        seen.add(pair)
        imp.move(r["player"], "ask_permission", power=r["power"], location=r["location"])
        mine = [i for i, x in enumerate(standing_all) if (str(x.args["city"]), str(x.args["location"])) == pair]
        _set_standing(imp, [standing_all[i] for i in mine if i < r["after"]])
        imp.move(imp.turn(), "answer_permission", grant=r["answer"])
        _set_standing(imp, [standing_all[i] for i in mine if i >= r["after"]])
        standing = [x for x in standing if (str(x.args["city"]), str(x.args["location"])) != pair]
    _set_standing(imp, standing)
    if imp.lists:
        _observe_latest(imp, imp.lists + standing_all)
        imp.lists = []


def _observe_latest(imp: PeriklesImporter, held: list[Notif]) -> None:
    """Each location's permissions as BGA listed them last, among the ``givePermission``s ``held`` back
    and those observed meanwhile (:attr:`PeriklesImporter.meanwhile`, not observed again)."""
    meanwhile, imp.meanwhile = imp.meanwhile, []
    last = {str(x.args["location"]): x for x in sorted(held + meanwhile, key=lambda x: x.seq)}  # log order
    lists = {loc: _permissions(x.args["permissions"]) for loc, x in last.items() if x not in meanwhile}
    if lists:
        imp.observe({"permissions": lists})


def _set_standing(imp: PeriklesImporter, notifs: list[Notif]) -> None:
    """Standing permissions held back by :func:`give_permission`, each with its own packet as ``src``."""
    now = imp.current
    for n in notifs:
        imp.current = n
        set_permission(imp, n)
    imp.current = now


def slave_revolt(imp: PeriklesImporter, n: Notif) -> None:
    """`slaveRevolt`: the Spartan hoplite picked at random (chance), now revealed."""
    imp.chance({"choose": "slave_revolt", "value": imp._unit(n.args["military"])})


# ---- battles ------------------------------------------------------------------------------------


def reveal_counters(imp: PeriklesImporter, n: Notif) -> None:
    """`revealCounters`: a location starts and its counters are turned up: a ``reveal`` event."""
    imp.settle()
    slot = _int(n.args["slot"])
    if not 1 <= slot <= len(imp.locations):
        imp.fail(f"no location in slot {slot}")
    loc = imp.locations[slot - 1]
    units = [imp._unit(c) for c in n.args.get("military") or []]
    imp.hits = {"attacker": 0, "defender": 0}
    imp.chance({"reveal": f"location:{loc}", "items": units})


def roll_battle(imp: PeriklesImporter, n: Notif) -> None:
    """`rollBattle`: a dice combat begins. The special tiles played before it are moves now (everyone
    else with an unused tile declines); BGA's strengths and table column are observed."""
    while imp.point() is tasks.PreCombatSpecialTile:
        p = imp.turn()
        play = imp.battle_plays.pop(p, None)
        if play is None:
            imp.move(p, "decline_special")
        elif play["tile"] in ("brasidas", "phormio"):
            imp.move(p, f"play_{play['tile']}")
        else:
            if play["side"] is None:
                imp.fail(f"{play['tile']} is played, but the log does not say which side takes the token")
            kind = "play_thessalian_allies" if play["tile"] == "thessalanianallies" else "play_persian_fleet"
            imp.move(p, kind, side=play["side"])
    if imp.battle_plays:
        p, play = next(iter(imp.battle_plays.items()))
        imp.fail(f"BGA shows {p} playing {play['tile']}, but our rules do not offer it before this combat")
    imp.hits = {"attacker": 0, "defender": 0}
    imp.combat_type = str(n.args["type"])
    imp.observe({"combat": {str(n.args["location"]): {str(n.args["type"]): {
        "attack_strength": _int(n.args["att"]), "defence_strength": _int(n.args["def"]),
        "table_column": _int(n.args["crt"])}}}})


def dice_roll(imp: PeriklesImporter, n: Notif) -> None:
    """`diceRoll`: both sides' 2d6 (chance: the attacker's pair, then the defender's)."""
    a = n.args
    imp.chance({"roll": [_int(a["attd1"]), _int(a["attd2"])]})
    imp.chance({"roll": [_int(a["defd1"]), _int(a["defd2"])]})
    imp.hits["attacker"] += bool(a["atthit"])
    imp.hits["defender"] += bool(a["defhit"])


def combat_winner(imp: PeriklesImporter, n: Notif) -> None:
    """`combatWinner`: a dice combat's winner, with BGA's hit count per side: observed."""
    loc = str(n.args["location"])
    side = _side_named(imp, str(n.args["winner"]))
    imp.observe({"combat": {loc: {_combat_type(imp, loc): {
        "winner": side, "winner_player": imp.main.get(loc, {}).get(side),
        "attacker_hits": imp.hits["attacker"], "defender_hits": imp.hits["defender"]}}}})


def _side_named(imp: PeriklesImporter, word: str) -> str:
    """The side BGA's ``word`` for it names.  The word is in the language of the log's messages
    ("Attacker", "Defender" in English); every Battle Token BGA gives (``takeToken``, ``round2``) names
    its side both by that word and by a fixed one, and a combat's winner has taken one."""
    if imp.roles is None:
        imp.roles = {}
        by_type = imp.log.by_type()
        for x in (*by_type.get("takeToken", ()), *by_type.get("round2", ())):
            imp.roles.setdefault(str(x.args["winner"]), set()).add(str(x.args["side"]))
    sides = imp.roles.get(word, set())
    if len(sides) != 1 or not sides <= {"attacker", "defender"}:
        imp.fail(f"BGA names the winner {word!r}, which its Battle Tokens pair with {sorted(sides) or 'no side'}")
    return next(iter(sides))


def _combat_type(imp: PeriklesImporter, loc: str) -> str:
    """The type of the combat being fought at ``loc`` (BGA's ``type`` args are translated names)."""
    if loc not in LOCATION:
        imp.fail(f"unknown location {loc!r}")
    if imp.combat_type is None:
        imp.fail(f"a combat result at {loc} before any combat began there")
    return imp.combat_type


def to_deadpool(imp: PeriklesImporter, n: Notif) -> None:
    """`toDeadpool`: the casualty (a decision when the weakest units belong to several powers)."""
    if imp.point() is tasks.Casualty:
        imp.move(imp.turn(), "choose_casualty", power=str(n.args["city"]))
    loc = str(n.args["location"])
    imp.observe({"combat": {loc: {_combat_type(imp, loc): {
        "casualty_power": str(n.args["city"]), "casualty_strength": _int(n.args["strength"])}}}})


def claim_tile(imp: PeriklesImporter, n: Notif) -> None:
    """`claimTile`: a player takes a location and its VP: who claimed it observed (his location points
    are observed at the end of the round: a location fought without a decision may already be decided)."""
    imp.settle()
    p = _pid(n.args["player_id"])
    imp.location_points[p] += _int(n.args["vp"])
    imp.observe({"claims": {str(n.args["location"]): [p]}})


def claim_tile_persians(imp: PeriklesImporter, n: Notif) -> None:
    """`claimTilePersians`: shared Persian leaders each take the location's VP."""
    imp.settle()
    for who in n.args["persians"]:
        p = _pid(who)
        imp.location_points[p] += _int(n.args["vp"])
    imp.observe({"claims": {str(n.args["location"]): sorted(_pid(w) for w in n.args["persians"])}})


def unclaimed_tile(imp: PeriklesImporter, n: Notif) -> None:
    """`unclaimedTile`: nobody claims the location: observed."""
    imp.settle()
    imp.observe({"claims": {str(n.args["location"]): []}})


def city_defeat(imp: PeriklesImporter, n: Notif) -> None:
    """`cityDefeat`: a city's defeat count, observed at the end of the round (as the location points)."""
    imp.settle()
    imp.defeats[str(n.args["city"])] = _int(n.args["defeats"])


def end_turn(imp: PeriklesImporter, n: Notif) -> None:
    """`endTurn` (no args): the round is over; the location points and defeats BGA announced are observed."""
    imp.settle()
    imp.observe({"location_points": dict(imp.location_points), "defeats": dict(imp.defeats)})


# ---- end of round and game --------------------------------------------------------------------


def add_statue(imp: PeriklesImporter, n: Notif) -> None:
    """`addStatue`: a leader's statue: the player's statues in that city observed."""
    imp.settle()
    imp.observe({"statues": {str(n.args["city"]): {_pid(n.args["player_id"]): _int(n.args["statues"])}}})


def new_influence(imp: PeriklesImporter, n: Notif) -> None:
    """`newInfluence`: a new round's display, slots 1-10 (chance)."""
    imp.settle()
    tiles = sorted(n.args["influence"], key=lambda t: _int(t["slot"]))
    imp.chance({"draw": "influence", "items": [imp._tile(t, n) for t in tiles]})


def new_locations(imp: PeriklesImporter, n: Notif) -> None:
    """`newLocations`: a new round's location tiles, slots 1-7 (chance)."""
    tiles = sorted(n.args["locations"], key=lambda t: _int(t["slot"]))
    imp.locations = [str(t["location"]) for t in tiles]
    imp.chance({"draw": "locations", "items": imp.locations})


def next_turn(imp: PeriklesImporter, n: Notif) -> None:
    """`nextTurn`: the new round's start player (the last Athens leader): observed."""
    imp.observe({"start_player": _pid(n.args["player_id"])})


def score_statues(imp: PeriklesImporter, n: Notif) -> None:
    """`scoreStatues`: final scoring of one player's statues in one city: observed."""
    imp.settle()
    imp.observe({"statue_points": {str(n.args["city"]): {_pid(n.args["player_id"]): _int(n.args["total"])}}})


def score_cubes(imp: PeriklesImporter, n: Notif) -> None:
    """`scoreCubes`: final scoring of one player's cubes in one city (one VP each): observed."""
    imp.settle()
    imp.observe({"city_cubes": {str(n.args["city"]): {_pid(n.args["player_id"]): _int(n.args["vp"])}}})


HANDLERS: dict[str, Handler] = {
    # setup and influence phase
    "influenceCubes": influence_cubes,
    "cubeLimit": cube_limit,
    "influenceCardTaken": influence_card_taken,
    "influenceCardDrawn": influence_card_drawn,
    "candidateProposed": candidate_proposed,
    "cubeRemoved": cube_removed,
    "candidatePromoted": candidate_promoted,
    "playSpecial": play_special,
    "alkibiadesMove": alkibiades_move,
    # elections
    "election": election,
    "noElection": no_election,
    # military phase
    "spartanChoice": spartan_choice,
    "retrieveDeadpool": retrieve_deadpool,
    "useTile": use_tile,
    "noCommits": no_commits,
    "sendBattle": send_battle,
    "spentInfluence": spent_influence,
    "defendRequest": defend_request,
    "givePermission": give_permission,
    "requestCanceled": request_canceled,
    "slaveRevolt": slave_revolt,
    # battles
    "revealCounters": reveal_counters,
    "rollBattle": roll_battle,
    "diceRoll": dice_roll,
    "combatWinner": combat_winner,
    "toDeadpool": to_deadpool,
    "claimTile": claim_tile,
    "claimTilePersians": claim_tile_persians,
    "unclaimedTile": unclaimed_tile,
    "cityDefeat": city_defeat,
    # end of round and game
    "addStatue": add_statue,
    "endTurn": end_turn,
    "newInfluence": new_influence,
    "newLocations": new_locations,
    "nextTurn": next_turn,
    "scoreStatues": score_statues,
    "scoreCubes": score_cubes,
}
PeriklesImporter.handlers = HANDLERS

IMPORTER = PeriklesImporter

__all__ = ["IMPORTER", "PeriklesImporter"]
