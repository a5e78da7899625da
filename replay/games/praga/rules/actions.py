"""The six actions and their upgrade bonuses: manage mines/quarries, upgrade, build a wall, build a building,
King's Road (in bridge.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import geometry as g
from .. import moves as m
from ..components import ACTION_NAMES, BOARD, HEX_TILES, SPACES, spaces_in_play
from ..tasks import Decision, Step, push
from . import grids, placement, production
from .bridge import kings_road
from .effects import add_vp, advance_university, gain, has_tech, pay
from .plazas import CheckPlazas, buildings_around

if TYPE_CHECKING:
    from ..state import PragaState

ROW_OF = {"upgrade": "upgrade", "wall": "wall", "building": "building"}
SPECIAL_SLOT = 3


def slot_label(slot: int) -> str:
    """A display slot as a player counts it, from 1 at the left; the rightmost (4th) holds the special
    tile.  A record's ``slot`` counts from 0; one off the display is quoted as the record gives it."""
    if 0 <= slot < SPECIAL_SLOT:
        return str(slot + 1)
    if slot == SPECIAL_SLOT:
        return f"{slot + 1} (special)"
    return f"{slot} (the record's number; slots 0-{SPECIAL_SLOT})"


def slot_name(row: str, slot: int | list[int]) -> str:
    """``slot 2 of the wall row``; ``slots 1 and 4 (special) of the wall row`` for several."""
    if isinstance(slot, int):
        return f"slot {slot_label(slot)} of the {row} row"
    return f"slots {' and '.join(slot_label(x) for x in slot)} of the {row} row"


def performable(s: PragaState, player: str, action: str) -> bool:
    """King's Road cannot be chosen from space V, nor onto the bridge (IV, V) without an egg."""
    if action != "kings_road":
        return True
    me = s.d["p"][player]
    return bool(me["road"] < 5 and (me["road"] < 3 or me["eggs"] >= 1))


def perform(s: PragaState, player: str, action: str, *, bonus: bool, discount: dict[str, int] | None = None,
            source: str = "crane") -> None:
    push(s, PerformAction(player, action, bonus, discount or {}, source))


@dataclass(slots=True)
class ChooseAction(Decision):
    """Which action to perform: one of the crane tile's two, or any action a technology grants."""

    options: list[str] = field(default_factory=list)
    bonus: bool = False
    discount: dict[str, int] = field(default_factory=dict)
    source: str = ""
    kind = "choose_action"
    accepts = (m.ChooseAction,)
    awaiting = "choose which action to perform"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.ChooseAction(action=o) for o in self.options]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if move.action in self.options:
            return None
        return (f"{player} cannot choose {move.action!r}: the choice is among "
                f"{', '.join(ACTION_NAMES[a] for a in self.options)} (King's Road needs the pawn before V and an "
                f"egg for the bridge)")

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        perform(s, player, move.action, bonus=self.bonus, discount=self.discount, source=self.source)


@dataclass(slots=True)
class PerformAction(Step):
    """Perform ``action`` (with its upgrade bonus when ``bonus``; ``source``: the crane tile, an extra
    action or a technology)."""

    action: str = ""
    bonus: bool = False
    discount: dict[str, int] = field(default_factory=dict)
    source: str = ""
    op = "action"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        p, action = self.player, self.action
        turn = s.d["turn"]
        if self.source == "crane":
            push(s, CraneActionDone())
        if self.bonus:
            turn["performed"][action] = turn["performed"].get(action, 0) + 1
            push(s, UpgradeBonus(p, action))
        if action in ("mines", "quarries"):
            s.push(ManageTrack(p, action))
        elif action == "kings_road":
            kings_road(s, p)
        else:
            s.push(PickFromDisplay(p, ROW_OF[action], self.discount))


@dataclass(slots=True)
class CraneActionDone(Step):
    """The crane tile's action is carried out: the turn may end."""

    op = "crane_action_done"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        s.d["turn"]["action_done"] = True


# --- upgrade bonuses -------------------------------------------------------------


def bonus_tiles(s: PragaState, player: str, action: str) -> list[str]:
    """The upgrade tiles whose bonus a performance of ``action`` may use: the top tile; under the BGA
    ruleset also every tile that was on top earlier this turn (BGA's amendment)."""
    pile = s.d["p"][player]["upgrades"][action]
    if not pile:
        return []
    if s.ruleset == "bga":
        seen: list[str] = s.d["turn"]["turn_upgrades"].get(action, [])
        return sorted(set(seen) | {pile[-1][0]})
    return [pile[-1][0]]


def take_upgrade_bonus(s: PragaState, player: str, action: str, tile: str) -> None:
    """The chosen tile's bonus (``choose_upgrade_bonus``, BGA ruleset only)."""
    top = s.d["p"][player]["upgrades"][action][-1][0]
    if HEX_TILES[tile]["upgrade_bonus"] != HEX_TILES[top]["upgrade_bonus"]:
        s.depart("upgrade_bonus_this_turn", f"{player} takes the bonus of {tile}, on top of the {action} pile "
                                            f"earlier this turn; the rulebook gives the top tile {top}'s")
    gain(s, player, HEX_TILES[tile]["upgrade_bonus"], "upgrades")


@dataclass(slots=True)
class UpgradeBonus(Step):
    """The upgrade bonus of a performance of ``action`` (a choice under the BGA ruleset when the action
    was upgraded twice this turn with different bonuses)."""

    action: str = ""
    op = "upgrade_bonus"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        tiles = bonus_tiles(s, self.player, self.action)
        bonuses = {str(HEX_TILES[t]["upgrade_bonus"]) for t in tiles}
        if len(bonuses) > 1:
            s.push(ChooseUpgradeBonus(self.player, self.action, tiles))
        elif tiles:
            gain(s, self.player, HEX_TILES[tiles[0]]["upgrade_bonus"], "upgrades")


@dataclass(slots=True)
class ChooseUpgradeBonus(Decision):
    """BGA ruleset: which of this turn's upgrade tiles of ``action`` gives its bonus."""

    action: str = ""
    tiles: list[str] = field(default_factory=list)
    kind = "upgrade_bonus"
    accepts = (m.ChooseUpgradeBonus,)
    awaiting = "choose which upgrade tile's bonus to take"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.ChooseUpgradeBonus(tile=t) for t in self.tiles]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        return None if move.tile in self.tiles else self.otherwise(player, move)

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        take_upgrade_bonus(s, player, self.action, move.tile)


# --- manage mines / quarries ---------------------------------------------------


@dataclass(slots=True)
class ManageTrack(Decision):
    """Manage mines (or quarries): expand or produce."""

    track: str = ""
    kind = "manage"
    accepts = (m.Manage,)
    awaiting = "choose to expand or produce"

    def candidates(self, s: PragaState) -> list[Move]:
        out: list[Move] = [] if production.at_end(s, self.player, self.track) else [m.Manage(mode="expand")]
        return out + [m.Manage(mode="produce")]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if move.mode == "produce" or (move.mode == "expand" and not production.at_end(s, player, self.track)):
            return None
        return f"{player}'s {self.track} marker is on the last space and cannot expand further; only produce"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        manage(s, player, self.track, move.mode)


def manage(s: PragaState, player: str, track: str, mode: str) -> None:
    if mode == "expand":
        production.expand(s, player, track, "production")
    else:
        production.produce(s, player, track, "production")


# --- taking a tile from a display row ---------------------------------------------


def tile_cost(s: PragaState, tile: str, discount: dict[str, int]) -> dict[str, int]:
    c = HEX_TILES[tile]["cost"]
    return {r: max(0, int(c.get(r, 0)) - int(discount.get(r, 0))) for r in ("gold", "stone")}


def covers(s: PragaState, player: str, cost: dict[str, int]) -> bool:
    me = s.d["p"][player]
    return bool(me["gold"] >= cost["gold"] and me["stone"] >= cost["stone"])


def free_spaces(s: PragaState) -> list[str]:
    built = s.d["city"]["built"]
    return [b for b in spaces_in_play(len(s.players)) if b not in built]


def space_cost(s: PragaState, tile: str, space: str, discount: dict[str, int]) -> dict[str, int]:
    c = tile_cost(s, tile, discount)
    extra = SPACES[space]["extra_cost"]
    return {r: c[r] + int(extra.get(r, 0)) for r in ("gold", "stone")}


EXTRA_COST: dict[str, tuple[int, int]] = {
    b: (int(d["extra_cost"].get("gold", 0)), int(d["extra_cost"].get("stone", 0))) for b, d in SPACES.items()}
"""The extra (gold, stone) a building space costs on top of its tile (the northern spaces: 1 gold)."""


def affordable_somewhere(s: PragaState, player: str, tile: str, spaces: list[str], discount: dict[str, int]) -> bool:
    """Whether ``player`` can pay for ``tile`` on at least one of ``spaces`` (with its extra cost)."""
    me = s.d["p"][player]
    cost = tile_cost(s, tile, discount)
    return any(me["gold"] >= cost["gold"] + gold and me["stone"] >= cost["stone"] + stone
               for gold, stone in {EXTRA_COST[b] for b in spaces})


def why_not_pick(s: PragaState, player: str, row: str, slot: int, discount: dict[str, int]) -> str | None:
    display = s.d["display"][row]
    if not 0 <= slot < len(display) or display[slot] is None:
        return f"there is no tile in {slot_name(row, slot)}"
    tile = display[slot]
    if slot == SPECIAL_SLOT and not s.d["turn"]["special_ok"]:
        return (f"{player} cannot take the special {row} tile {tile}: that needs the S bonus of the crane "
                f"wheel this turn")
    if row == "wall":
        cost = tile_cost(s, tile, discount)
        if not covers(s, player, cost):
            me = s.d["p"][player]
            return (f"{player} cannot build wall {tile}: it costs {cost['gold']} gold and {cost['stone']} stone, "
                    f"{player} has {me['gold']} gold and {me['stone']} stone")
        if len(s.d["p"][player]["walls"]) >= len(g.WALL_SLOTS):
            return f"{player} has no free place around the action board for another wall"
    if row == "building":
        spaces = free_spaces(s)
        if not spaces:
            return "every building space of the city is built"
        if not affordable_somewhere(s, player, tile, spaces, discount):
            me = s.d["p"][player]
            cost = tile_cost(s, tile, discount)
            return (f"{player} cannot build {tile}: it costs {cost['gold']} gold and {cost['stone']} stone "
                    f"(plus a northern space's extra gold), {player} has {me['gold']} gold and {me['stone']} stone")
    return None


@dataclass(slots=True)
class PickFromDisplay(Decision):
    """Take a tile from the action's display row (the special one only with S), or skip when none
    can be taken."""

    row: str = ""
    discount: dict[str, int] = field(default_factory=dict)
    kind = "pick_tile"
    accepts = (m.PickTile, m.SkipAction)
    awaiting = "take a tile from the display row"

    def candidates(self, s: PragaState) -> list[Move]:
        return [*(m.PickTile(slot=i) for i in range(SPECIAL_SLOT + 1)), m.SkipAction()]

    def check(self, s: PragaState, player: str, move: Move) -> str | None:
        if isinstance(move, m.PickTile):
            return why_not_pick(s, player, self.row, move.slot, self.discount)
        if all(why_not_pick(s, player, self.row, i, self.discount) is not None for i in range(SPECIAL_SLOT + 1)):
            return None
        return f"{player} cannot skip the {self.row} action: a tile of the row can be taken"

    def apply(self, s: PragaState, player: str, move: Move) -> None:
        s.pop(self)
        if isinstance(move, m.PickTile):
            pick_tile(s, player, self.row, move.slot, self.discount)


def pick_tile(s: PragaState, player: str, row: str, slot: int, discount: dict[str, int]) -> None:
    tile = s.d["display"][row][slot]
    s.d["display"][row][slot] = None
    s.take(player, f"{row} tile", tile)
    if row == "upgrade":
        direction = BOARD["action_hex_direction"][HEX_TILES[tile]["upgrades"]]
        s.push(RotateTile(player, tile, g.action_hex(direction), "upgrade"))
    elif row == "wall":
        pay(s, player, tile_cost(s, tile, discount))
        push(s, PromptPlace(player, tile, "wall", discount))
        gain(s, player, HEX_TILES[tile]["reward"], "walls")
    else:
        s.push(PlaceTile(player, tile, "building", discount))


@dataclass(slots=True)
class PromptPlace(Step):
    """After a wall's reward: where the wall goes."""

    tile: str = ""
    tile_kind: str = ""
    discount: dict[str, int] = field(default_factory=dict)
    op = "prompt_place"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        s.push(PlaceTile(self.player, self.tile, self.tile_kind, self.discount))


@dataclass(slots=True)
class PlaceTile(Decision):
    """Where the tile taken goes: a wall on the ring around the action board, a building on a city space."""

    tile: str = ""
    tile_kind: str = ""
    discount: dict[str, int] = field(default_factory=dict)
    kind = "place"
    accepts = (m.PlaceTile,)
    awaiting = "choose where the tile goes"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.PlaceTile(at=a) for a in (g.WALL_SLOTS if self.tile_kind == "wall" else free_spaces(s))]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if can_place(s, player, self.tile_kind, self.tile, self.discount, move.at):
            return None
        return f"{player} cannot place {self.tile} at {move.at!r}: it is taken, unknown or unaffordable"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        place(s, player, self.tile, self.tile_kind, self.discount, move.at)


def can_place(s: PragaState, player: str, tile_kind: str, tile: str, discount: dict[str, int], at: str) -> bool:
    """A wall goes on a free slot of the ring around the action board; a building on a free space of the
    city in play whose cost (with the space's extra) the player can pay."""
    if tile_kind == "wall":
        return at in g.WALL_SLOTS and at not in s.d["p"][player]["walls"]
    return (at in SPACES and at not in s.d["city"]["built"] and at in spaces_in_play(len(s.players))
            and covers(s, player, space_cost(s, tile, at, discount)))


def place(s: PragaState, player: str, tile: str, tile_kind: str, discount: dict[str, int], at: str) -> None:
    if tile_kind == "wall":
        s.push(RotateTile(player, tile, at, "wall"))
        return
    cost = space_cost(s, tile, at, discount)
    pay(s, player, cost)
    s.d["turn"]["last_paid"] = cost["gold"] + cost["stone"]
    push(s, PromptRotate(player, tile, at, "building"))
    gain(s, player, list(HEX_TILES[tile]["reward"]) + list(SPACES[at]["extra_reward"]), "buildings")


@dataclass(slots=True)
class PromptRotate(Step):
    """After a building's rewards: its rotation."""

    tile: str = ""
    at: str = ""
    tile_kind: str = ""
    op = "prompt_rotate"

    def run(self, s: PragaState) -> None:
        s.pop(self)
        s.push(RotateTile(self.player, self.tile, self.at, self.tile_kind))


@dataclass(slots=True)
class RotateTile(Decision):
    """The rotation of the tile being placed; then the tile is finished as an upgrade, a wall or a building."""

    tile: str = ""
    at: str = ""
    tile_kind: str = ""
    kind = "rotate"
    accepts = (m.RotateTile,)
    awaiting = "choose the tile's rotation"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.RotateTile(rotation=r) for r in range(6)]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if move.rotation in range(6):
            return None
        return f"a hex tile has rotations 0 to 5, not {move.rotation!r}"

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        FINISH[self.tile_kind](s, player, self.tile, self.at, move.rotation)


def finish_upgrade(s: PragaState, player: str, tile: str, at: str, rot: int) -> None:
    """Upgrade: on top of the action's hex; University +1 (Era I) or +2 (Era II); new contacts; the bonus
    for a performance of that action earlier this turn, retroactively."""
    me = s.d["p"][player]
    t = HEX_TILES[tile]
    action = t["upgrades"]
    pile = me["upgrades"][action]
    seen = s.d["turn"]["turn_upgrades"].setdefault(action, [pile[-1][0]] if pile else [])
    seen.append(tile)
    pile.append([tile, rot])
    advance_university(s, player, 1 if t["era"] == 1 else 2)
    times = s.d["turn"]["performed"].get(action, 0)
    for _ in range(times):
        gain(s, player, t["upgrade_bonus"], "upgrades")
    placement.place_on_board(s, player, at, tile, rot, "upgrades")


def finish_wall(s: PragaState, player: str, tile: str, at: str, rot: int) -> None:
    """Wall: around the action board; a Hunger Wall icon moves the marker 1 left; contacts; T2-1."""
    me = s.d["p"][player]
    me["walls"][at] = [tile, rot]
    icons = HEX_TILES[tile]["icons"]
    placement.place_on_board(s, player, at, tile, rot, "walls")
    if "hunger_wall" in icons:
        grids.move_sideways(s, player, "hunger_wall", 1)
        if has_tech(s, player, "T2-1"):
            add_vp(s, player, 1, "technologies")
            gain(s, player, [{"gold": 1}], "technologies")


def finish_building(s: PragaState, player: str, tile: str, at: str, rot: int) -> None:
    """Building: a cube on its cube space (ownership) or, without one, 1 VP per building around its plazas;
    a Cathedral icon moves the marker 1 right; corner contacts; T2-3/T2-6; the plaza check."""
    me = s.d["p"][player]
    t = HEX_TILES[tile]
    owner = None
    if "cube_space" in t["icons"]:
        if me["cubes"] > 0:
            me["cubes"] -= 1
            owner = player
    paid = s.d["turn"]["last_paid"]
    s.d["city"]["built"][at] = {"tile": tile, "rot": rot, "owner": owner, "paid": paid}
    if "cube_space" not in t["icons"]:
        add_vp(s, player, buildings_around(s, at), "buildings")
    push(s, CheckPlazas(player, at))
    placement.place_in_city(s, player, SPACES[at]["hex"], tile, rot)
    if "cathedral" in t["icons"]:
        grids.move_sideways(s, player, "cathedral", 1)
    tech = "T2-6" if "cathedral" in t["icons"] else "T2-3"
    if has_tech(s, player, tech):
        add_vp(s, player, 1, "technologies")
        gain(s, player, [{"stone" if tech == "T2-6" else "gold": 1}], "technologies")


FINISH = {"upgrade": finish_upgrade, "wall": finish_wall, "building": finish_building}
"""How a rotated tile is finished, by its kind."""
