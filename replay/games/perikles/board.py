"""The Perikles position as plain data, with the small helpers every phase uses.

:class:`Board` holds everything (cubes, candidates, leaders, units, tiles,
relationships, the progress of the current phase).  The rules live in
``phases/``; :class:`replay.games.perikles.state.PeriklesState` adds the
engine protocol on top.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any

from replay.decisions import TaskState

from .components import (
    CITY,
    CITY_KEYS,
    CUBE_LIMIT,
    DISPLAY_SLOTS,
    LOCATION,
    PERSIA,
    POWERS,
    UNIT,
    UNIT_IDS,
    UNIT_INDEX,
    UNITS,
    LocationTile,
)

if TYPE_CHECKING:
    from .tasks import Task

# Where a unit is: its home stack, the dead pool, with the player who leads its
# city ("held"), in the shared Persian pool ("pool"), or committed to a location.
STACK, DEAD, HELD, POOL, BATTLE = "stack", "dead", "held", "pool", "battle"

UNKNOWN = "?"
"""A tile the record's viewer did not see: another player's special tile (secret until played), or a
round-1 display tile nobody took (a BGA log names display tiles only when they are taken)."""


class Board(TaskState["Task"]):
    """Perikles state data and shared helpers (the protocol comes from the task stack, ``tasks.py``;
    the rest of it is in ``state.py``)."""

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.round = 1
        self.cur: str | None = None
        """The player whose turn it is in the current phase (the tasks name who decides)."""
        self.first_player: str | None = None
        self.start_player: str | None = None
        self.last_athens_leader: str | None = None
        # cities
        self.cubes: dict[str, dict[str, int]] = {c: {p: 2 for p in players} for c in CITY_KEYS}
        self.alpha: dict[str, str | None] = {c: None for c in CITY_KEYS}
        self.beta: dict[str, str | None] = {c: None for c in CITY_KEYS}
        self.leader: dict[str, str | None] = {c: None for c in CITY_KEYS}
        self.statues: dict[str, dict[str, int]] = {c: {p: 0 for p in players} for c in CITY_KEYS}
        self.defeats: dict[str, int] = {c: 0 for c in CITY_KEYS}
        self.persian_leaders: list[str] = []
        # influence tiles
        self.display: list[str | None] = [None] * DISPLAY_SLOTS
        self.hands: dict[str, list[str]] = {p: [] for p in players}
        self.spent: list[str] = []
        self.refill_slot = 0
        self.takes = 0
        self.placements_left = 0
        self.special_played_this_turn = False
        self.resume_step = ""
        self.alkibiades_left = 0
        # location tiles
        self.locations: list[str] = []
        self.dealt_locations: list[str] = []
        self.claimed: dict[str, list[str]] = {p: [] for p in players}
        self.location_vp: dict[str, int] = {p: 0 for p in players}
        self.unclaimed: list[str] = []
        # special tiles
        self.special: dict[str, str | None] = {p: None for p in players}
        self.special_used: dict[str, bool] = {p: False for p in players}
        self.seat_view = bool(options.get("seat_view", False))
        """The record may be seen from one seat (``options.seat_view``): the order of play then depends
        only on public facts (whether a player's special tile is used, never which tile it is), and
        permission to defend is asked before units are chosen (``ask_permission``), as on BGA.  See
        docs/games/perikles.md."""
        # units
        self.unit_at: dict[str, str] = {u.id: STACK for u in UNITS}
        self.unit_holder: dict[str, str | None] = {u.id: None for u in UNITS}
        self.unit_location: dict[str, str | None] = {u.id: None for u in UNITS}
        self.unit_side: dict[str, str | None] = {u.id: None for u in UNITS}
        self.unit_main: dict[str, bool] = {u.id: False for u in UNITS}
        self._committed: dict[str, list[str]] = {}
        """Location -> the units committed there, in unit order (kept by commit_unit and send_home)."""
        self.face_down: list[dict[str, Any]] = []
        """Units committed face down (a record seen from one seat): power, type, holder, location, side
        and main are known, the counter is not, until the location is revealed (``unknowns.py``)."""
        self.away: dict[str, int] = {}
        """Group key (``zone|power|type``) -> how many of the group's uncommitted-looking units are in
        fact among :attr:`face_down` (which ones is unknown until a reveal)."""
        self.turn_sent: list[str] = []
        """Units sent in the current commit turn (BGA checks a commit against the units sent before it)."""
        self.turn_face_down = 0
        """How many of :attr:`face_down` were there when the current commit turn began."""
        self.shown: dict[str, list[str]] = {}
        """Location -> the units there when it was revealed this round (to check a late reveal)."""
        # military phase
        self.relations: dict[str, int] = {}
        self.permissions: dict[str, list[str]] = {}
        self.main_player: dict[str, dict[str, str | None]] = {}
        self.recovery_queue: list[list[str]] = []
        self.first_committer: str | None = None
        self.commit_shards = 2
        self.commit_next: str | None = None
        self.commit_sent = 0
        self.commit_cube_city: str | None = None
        self.commit_denied: list[list[str]] = []
        self.commit_granted = False
        self.free_turn_for: str | None = None
        self.permission_request: dict[str, Any] | None = None
        self.revolt_target: str | None = None
        # battles
        self.battle_slot = 0
        self.combat_no = 0
        self.tokens: dict[str, int] = {"attacker": 0, "defender": 0}
        self.combat1_winner: str | None = None
        self.brasidas = False
        self.phormio = False
        self.window: list[str] = []
        self.combat: dict[str, Any] | None = None
        self.pending_roll: int | None = None
        self.casualty_side: str | None = None
        # engine bookkeeping
        self._score_cache: dict[str, dict[str, int]] | None = None
        """The last score(); every rule that moves a cube or candidate, raises a statue, adds a defeat or
        scores a location calls :meth:`score_changed`."""
        self._memo: dict[tuple[str, ...], Any] | None = None
        """Unit lookups and commit conditions cached while legal moves are listed or a move is checked
        (nothing moves meanwhile)."""

    @property
    def stage(self) -> str:
        """The step of the rules under way, as the snapshot names it: the top task's (``over`` once the
        game has ended)."""
        return "over" if self.over else self.stack[-1].stage

    def pending(self) -> Task | None:
        """The task the rules wait on (the top of the stack), None once the game is over."""
        return None if self.over else self.stack[-1]

    # ---- players --------------------------------------------------------

    def next_player(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def in_order_from(self, player: str) -> list[str]:
        """Every player once, clockwise, starting with ``player``."""
        i = self.players.index(player)
        return self.players[i:] + self.players[:i]

    # ---- cubes ------------------------------------------------------------

    def cubes_on_board(self, player: str) -> int:
        """Cubes of ``player`` in cities and on candidate spaces."""
        cubes, alpha, beta = self.cubes, self.alpha, self.beta
        n = 0
        for c in CITY_KEYS:  # (a loop, not three generators: this runs for every cube placed)
            n += cubes[c][player] + (alpha[c] == player) + (beta[c] == player)
        return n

    def placeable(self, player: str, n: int) -> int:
        """How many of ``n`` cubes ``player`` may add under the 30-cube limit (``bga``: all or none, Q4)."""
        on_board = self.cubes_on_board(player)
        if self.ruleset == "bga":
            return 0 if on_board >= CUBE_LIMIT else n
        return max(0, min(n, CUBE_LIMIT - on_board))

    def add_cubes(self, player: str, city: str, n: int) -> int:
        """Place up to ``n`` cubes of ``player`` in ``city`` under the 30-cube limit; returns how many."""
        placed = self.placeable(player, n)
        if self.ruleset == "bga":
            on_board = self.cubes_on_board(player)
            by_the_rulebook = max(0, min(n, CUBE_LIMIT - on_board))
            if placed != by_the_rulebook:
                self.depart("cube_limit_checked_before_adding",
                            f"{player} has {on_board} cubes on the board and places all {n} in "
                            f"{city.capitalize()} ({on_board + placed} on the board); by the rulebook "
                            f"{by_the_rulebook} (the 30-cube limit)")
        self.cubes[city][player] += placed
        self.score_changed()
        return placed

    def has_influence(self, player: str, city: str) -> bool:
        """A cube in the city or one of its candidate spaces."""
        return self.cubes[city][player] > 0 or self.alpha[city] == player or self.beta[city] == player

    def score_changed(self) -> None:
        """Cubes, candidates, statues, defeats or location points changed: the score is recomputed."""
        self._score_cache = None

    # ---- leaders and units -------------------------------------------------

    def leads(self, player: str, power: str) -> bool:
        if power == PERSIA:
            return player in self.persian_leaders
        return self.leader[power] == player

    def controlled_units(self, player: str) -> list[str]:
        """Uncommitted units ``player`` may send: his own, plus the Persian pool if he is a Persian leader."""
        memo = self._memo
        if memo is not None and ("c", player) in memo:
            units: list[str] = memo[("c", player)]
            return units
        persian = player in self.persian_leaders
        at, holder = self.unit_at, self.unit_holder
        out = [uid for uid in UNIT_IDS
               if (holder[uid] == player and at[uid] == HELD) or (persian and at[uid] == POOL)]
        if memo is not None:
            memo[("c", player)] = out
        return out

    def group_key(self, player: str, power: str, unit_type: str) -> str:
        """The units a face-down commitment may have come from: the leader's own, or the Persian pool."""
        return f"{'pool' if power == PERSIA else player}|{power}|{unit_type}"

    def available(self, player: str, power: str, unit_type: str) -> int:
        """How many uncommitted units of that power and type ``player`` may still send."""
        n = sum(1 for uid in self.controlled_units(player) if UNIT[uid].power == power and UNIT[uid].type == unit_type)
        return n - self.away.get(self.group_key(player, power, unit_type), 0) if self.away else n

    def may_hold_special(self, player: str, key: str) -> bool:
        """Whether ``player``'s special tile may be ``key``: it is, or it is unknown and nobody else's is."""
        tile = self.special[player]
        if tile == UNKNOWN:
            return key not in self.special.values()
        return tile == key

    def bind_special(self, player: str, key: str) -> None:
        """The tile is played, so everyone now knows it."""
        self.special[player] = key

    def controls(self, player: str, unit_id: str) -> bool:
        """Whether ``unit_id`` is among :meth:`controlled_units` of ``player``."""
        at = self.unit_at[unit_id]
        return ((self.unit_holder[unit_id] == player and at == HELD)
                or (at == POOL and player in self.persian_leaders))

    def units_at(self, location: str, side: str | None = None, unit_type: str | None = None) -> list[str]:
        at, sides = self.unit_at, self.unit_side
        return [uid for uid in self._committed.get(location, ())
                if at[uid] == BATTLE
                and (side is None or sides[uid] == side)
                and (unit_type is None or UNIT[uid].type == unit_type)]

    def powers_at(self, location: str, side: str) -> list[str]:
        memo = self._memo
        if memo is not None and ("p", location, side) in memo:
            powers: list[str] = memo[("p", location, side)]
            return powers
        units = self.units_at(location, side)
        hidden = [f for f in self.face_down if f["location"] == location and f["side"] == side]
        if self.ruleset == "bga" and self.stage in ("commit", "permission"):
            # BGA checks a commit's units against the units sent before it: its own are placed only
            # after all are checked (docs/games/perikles.md, Q8)
            units = [u for u in units if u not in self.turn_sent]
            hidden = [f for f in hidden if self.face_down.index(f) < self.turn_face_down]
        found = {UNIT[u].power for u in units}
        found.update(f["power"] for f in hidden)
        out = [p for p in POWERS if p in found]
        if memo is not None:
            memo[("p", location, side)] = out
        return out

    def commit_unit(self, unit_id: str, player: str, location: str, side: str, main: bool) -> None:
        """The unit joins the battle at ``location`` on ``side``, sent by ``player``."""
        self._leave_location(unit_id)
        self.unit_at[unit_id] = BATTLE
        self.unit_holder[unit_id] = player
        self.unit_location[unit_id] = location
        self.unit_side[unit_id] = side
        self.unit_main[unit_id] = main
        if self.stage in ("commit", "permission"):
            self.turn_sent.append(unit_id)
        insort(self._committed.setdefault(location, []), unit_id, key=UNIT_INDEX.__getitem__)

    def send_home(self, unit_id: str) -> None:
        self._leave_location(unit_id)
        self.unit_at[unit_id] = STACK
        self.unit_holder[unit_id] = None
        self.unit_location[unit_id] = None
        self.unit_side[unit_id] = None
        self.unit_main[unit_id] = False

    def swap_units(self, a: str, b: str) -> None:
        """Two interchangeable units (same power, type and strength) trade places, so that the state's
        ids follow a record that names them the other way round."""
        tables: tuple[dict[str, Any], ...] = (self.unit_at, self.unit_holder, self.unit_location,
                                              self.unit_side, self.unit_main)
        for table in tables:
            table[a], table[b] = table[b], table[a]
        for loc in {self.unit_location[a], self.unit_location[b]}:
            if loc is not None:
                units = [b if u == a else a if u == b else u for u in self._committed[loc]]
                units.sort(key=UNIT_INDEX.__getitem__)
                self._committed[loc] = units

    def _leave_location(self, unit_id: str) -> None:
        location = self.unit_location[unit_id]
        if location is not None:
            self._committed[location].remove(unit_id)

    # ---- relationships -------------------------------------------------------

    @staticmethod
    def _pair(a: str, b: str) -> str:
        return f"{a}|{b}" if a < b else f"{b}|{a}"

    def relation(self, a: str, b: str) -> int:
        """1 allied, 0 neutral, -1 at war (a power is always allied with itself)."""
        if a == b:
            return 1
        return self.relations.get(self._pair(a, b), 0)

    def set_relation(self, a: str, b: str, value: int) -> None:
        if a != b:
            self.relations[self._pair(a, b)] = value

    # ---- tiles ----------------------------------------------------------------

    def current_location(self) -> LocationTile:
        return LOCATION[self.locations[self.battle_slot]]

    def location_slot(self, key: str) -> int:
        return self.locations.index(key) + 1

    def statue_points(self, player: str) -> int:
        return sum(self.statues[c][player] * CITY[c].statue_value(self.defeats[c]) for c in CITY_KEYS)

    def statue_count(self, player: str) -> int:
        return sum(self.statues[c][player] for c in CITY_KEYS)

