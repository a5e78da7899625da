"""End of turn: windows down to 2, the crane turns, the displays refill, the era may change, the game may end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..components import BOARD, ERA_CHANGE_AFTER, ERA_NAME, ROUNDS, ROWS, deck_name
from ..flow import Task, decide, draw, handler, push, resolver
from . import crane, plazas

if TYPE_CHECKING:
    from ..state import PragaState

WINDOWS_KEPT: int = BOARD["windows_kept"]
NORMAL_SLOTS = (0, 1, 2)
SPECIAL_SLOT = 3


def end_turn(s: PragaState, player: str) -> None:
    """Windows down to 2, turn the crane, refill the rows (not after the very last turn: nobody would
    take them), then the era change or the game end when their turn has come."""
    last = s.d["turns"] + 1 >= ROUNDS * len(s.players)
    refills = [] if last else [{"op": "refill_row", "row": r} for r in ROWS]
    push(s, {"op": "discard_windows", "p": player}, {"op": "turn_crane"}, *refills, {"op": "next_turn", "p": player})


@handler("discard_windows")
def discard_windows(s: PragaState, task: Task) -> None:
    me = s.d["p"][task["p"]]
    if me["silver"] + me["goldw"] > WINDOWS_KEPT:
        if me["silver"] == 0 or me["goldw"] == 0:
            kind = "silver" if me["silver"] else "goldw"
            me[kind] = WINDOWS_KEPT
            return
        push(s, {"op": "discard_windows", "p": task["p"]})
        decide(s, task["p"], "discard_window")


def discard_window(s: PragaState, player: str, window: str) -> None:
    s.d["p"][player]["silver" if window == "silver" else "goldw"] -= 1


@handler("turn_crane")
def turn_crane(s: PragaState, task: Task) -> None:
    crane.rotate(s)


def row_deck(s: PragaState, row: str, special: bool) -> str:
    return deck_name(row, s.d["era"], special)


@handler("refill_row")
def refill_row(s: PragaState, task: Task) -> None:
    """Refill a row: 3 normal tiles and the special one, from the current era's stacks."""
    row = task["row"]
    display = s.d["display"][row]
    empty = [i for i in NORMAL_SLOTS if display[i] is None]
    if display[SPECIAL_SLOT] is None:
        push(s, {"op": "refill_slot", "row": row, "slot": SPECIAL_SLOT})
    if empty:
        draw(s, row_deck(s, row, False), len(empty), "display", row=row, slots=empty)


@resolver("display")
def display_drawn(s: PragaState, info: dict[str, Any], items: list[str]) -> None:
    display = s.d["display"][info["row"]]
    for slot, tile in zip(info["slots"], items):
        display[slot] = tile


@handler("next_turn")
def next_turn(s: PragaState, task: Task) -> None:
    d = s.d
    d["turns"] += 1
    if d["era"] == 1 and d["turns"] == ERA_CHANGE_AFTER[len(s.players)]:
        push(s, {"op": "era_change", "p": task["p"]})
        return
    finish_turn(s)


def finish_turn(s: PragaState) -> None:
    d = s.d
    if d["turns"] >= ROUNDS * len(s.players):
        push(s, {"op": "game_end"})
        return
    d["turn"] = new_turn()


@handler("era_change")
def era_change(s: PragaState, task: Task) -> None:
    """Era II: every Era I tile leaves the rows and the stacks; the Era II stacks deal new displays."""
    d = s.d
    removed = 0
    for row in ROWS:
        removed += sum(1 for t in d["display"][row] if t is not None)
        d["display"][row] = [None] * 4
        for special in (False, True):
            stack = s.stacks[deck_name(row, 1, special)]
            removed += len(stack)
            stack.hidden, stack.top, stack.bottom = 0, [], []
    d["era"] = 2
    s.add_milestone("era_change", round=s.round(), player_id=task["p"], turn=d["turns"], era=ERA_NAME[2],
                    tiles_removed=removed)
    push(s, *({"op": "refill_row", "row": r} for r in ROWS), {"op": "after_era_change"})


@handler("after_era_change")
def after_era_change(s: PragaState, task: Task) -> None:
    finish_turn(s)


@handler("game_end")
def game_end(s: PragaState, task: Task) -> None:
    """After the last round: the uncompleted plazas' lower rewards, then the final scoring."""
    d = s.d
    d["stage"] = "final"
    plazas.game_end_rewards(s)
    push(s, {"op": "final_scoring"})


@handler("final_scoring")
def final_scoring(s: PragaState, task: Task) -> None:
    from ..scoring import final_points

    for p in s.players:
        s.d["p"][p]["final"] = final_points(s, p)
    s.d["over"] = True
    s.d["stage"] = "over"
    s._score = None
    for p in s.players:
        s.add_milestone("final_scoring", round=ROUNDS, player_id=p, **s.d["p"][p]["final"],
                        total=sum(s.score()[p].values()))


def new_turn() -> dict[str, Any]:
    return {"tile_taken": False, "action_done": False, "used_tile": None, "extra_used": False, "swap_used": False,
            "special_ok": False, "t11_used": False, "performed": {}, "turn_upgrades": {}, "last_paid": 0}
