"""The six actions and their upgrade bonuses: manage mines/quarries, upgrade, build a wall, build a building,
King's Road (in bridge.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import geometry as g
from ..components import BOARD, HEX_TILES, SPACES, spaces_in_play
from ..flow import Task, decide, handler, push
from . import grids, placement, production
from .bridge import kings_road
from .effects import add_vp, advance_university, gain, has_tech, pay
from .plazas import buildings_around

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
    push(s, {"op": "action", "p": player, "action": action, "bonus": bonus, "discount": discount or {},
             "source": source})


@handler("action")
def do_action(s: PragaState, task: Task) -> None:
    p, action = task["p"], task["action"]
    turn = s.d["turn"]
    if task["source"] == "crane":
        push(s, {"op": "crane_action_done"})
    if task["bonus"]:
        turn["performed"][action] = turn["performed"].get(action, 0) + 1
        push(s, {"op": "upgrade_bonus", "p": p, "action": action})
    if action in ("mines", "quarries"):
        decide(s, p, "manage", track=action)
    elif action == "kings_road":
        kings_road(s, p)
    else:
        decide(s, p, "pick_tile", row=ROW_OF[action], discount=task["discount"])


@handler("crane_action_done")
def crane_action_done(s: PragaState, task: Task) -> None:
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


@handler("upgrade_bonus")
def upgrade_bonus(s: PragaState, task: Task) -> None:
    tiles = bonus_tiles(s, task["p"], task["action"])
    bonuses = {str(HEX_TILES[t]["upgrade_bonus"]) for t in tiles}
    if len(bonuses) > 1:
        decide(s, task["p"], "upgrade_bonus", action=task["action"], tiles=tiles)
    elif tiles:
        gain(s, task["p"], HEX_TILES[tiles[0]]["upgrade_bonus"], "upgrades")


# --- manage mines / quarries ---------------------------------------------------


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


def pick_tile(s: PragaState, player: str, row: str, slot: int, discount: dict[str, int]) -> None:
    tile = s.d["display"][row][slot]
    s.d["display"][row][slot] = None
    s.take(player, f"{row} tile", tile)
    if row == "upgrade":
        direction = BOARD["action_hex_direction"][HEX_TILES[tile]["upgrades"]]
        decide(s, player, "rotate", tile=tile, at=g.action_hex(direction), tile_kind="upgrade")
    elif row == "wall":
        pay(s, player, tile_cost(s, tile, discount))
        push(s, {"op": "prompt_place", "p": player, "tile": tile, "kind": "wall", "discount": discount})
        gain(s, player, HEX_TILES[tile]["reward"], "walls")
    else:
        decide(s, player, "place", tile=tile, tile_kind="building", discount=discount)


@handler("prompt_place")
def prompt_place(s: PragaState, task: Task) -> None:
    decide(s, task["p"], "place", tile=task["tile"], tile_kind=task["kind"], discount=task["discount"])


def place_targets(s: PragaState, player: str, dec: dict[str, Any]) -> list[str]:
    if dec["tile_kind"] == "wall":
        return [w for w in g.WALL_SLOTS if can_place(s, player, dec, w)]
    return [b for b in free_spaces(s) if can_place(s, player, dec, b)]


def can_place(s: PragaState, player: str, dec: dict[str, Any], at: str) -> bool:
    """A wall goes on a free slot of the ring around the action board; a building on a free space of the
    city in play whose cost (with the space's extra) the player can pay."""
    if dec["tile_kind"] == "wall":
        return at in g.WALL_SLOTS and at not in s.d["p"][player]["walls"]
    return (at in SPACES and at not in s.d["city"]["built"] and at in spaces_in_play(len(s.players))
            and covers(s, player, space_cost(s, dec["tile"], at, dec["discount"])))


def place(s: PragaState, player: str, dec: dict[str, Any], at: str) -> None:
    tile = dec["tile"]
    if dec["tile_kind"] == "wall":
        decide(s, player, "rotate", tile=tile, at=at, tile_kind="wall")
        return
    cost = space_cost(s, tile, at, dec["discount"])
    pay(s, player, cost)
    s.d["turn"]["last_paid"] = cost["gold"] + cost["stone"]
    push(s, {"op": "prompt_rotate", "p": player, "tile": tile, "at": at, "kind": "building"})
    gain(s, player, list(HEX_TILES[tile]["reward"]) + list(SPACES[at]["extra_reward"]), "buildings")


@handler("prompt_rotate")
def prompt_rotate(s: PragaState, task: Task) -> None:
    decide(s, task["p"], "rotate", tile=task["tile"], at=task["at"], tile_kind=task["kind"])


def rotate(s: PragaState, player: str, dec: dict[str, Any], rot: int) -> None:
    {"upgrade": finish_upgrade, "wall": finish_wall, "building": finish_building}[dec["tile_kind"]](
        s, player, dec["tile"], dec["at"], rot)


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
    push(s, {"op": "check_plazas", "space": at, "p": player})
    placement.place_in_city(s, player, SPACES[at]["hex"], tile, rot)
    if "cathedral" in t["icons"]:
        grids.move_sideways(s, player, "cathedral", 1)
    tech = "T2-6" if "cathedral" in t["icons"] else "T2-3"
    if has_tech(s, player, tech):
        add_vp(s, player, 1, "technologies")
        gain(s, player, [{"stone" if tech == "T2-6" else "gold": 1}], "technologies")
