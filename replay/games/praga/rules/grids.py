"""The Hunger Wall and St. Vitus Cathedral grids: sideways steps, arrows, tiers and their fees, climbing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..components import GRIDS
from ..tasks import Step, draw, push
from .effects import add_vp, has_tech

if TYPE_CHECKING:
    from ..state import PragaState

TOP_ROW = 4
GRID_LABEL = {"hunger_wall": "Hunger Wall", "cathedral": "Cathedral"}


def grid(name: str) -> dict[str, Any]:
    g: dict[str, Any] = GRIDS[name]
    return g


def tier(name: str, row: int) -> int:
    return int(grid(name)["row_of_tier"][row])


def fee_to_climb(name: str, row: int) -> dict[str, int]:
    """The gold/stone printed between two tiers, due when moving up from ``row`` crosses into a higher tier."""
    if row >= TOP_ROW or tier(name, row + 1) == tier(name, row):
        return {"gold": 0, "stone": 0}
    fee: dict[str, int] = grid(name)["tier_fee"][str(tier(name, row + 1))]
    return fee


def can_pay(s: PragaState, player: str, fee: dict[str, int]) -> bool:
    me = s.d["p"][player]
    return bool(me["gold"] >= fee["gold"] and me["stone"] >= fee["stone"])


def moved(s: PragaState, player: str) -> None:
    """Technology T1-2: every space moved on either grid is worth 2 VP."""
    if has_tech(s, player, "T1-2"):
        add_vp(s, player, 2, "technologies")


def move_sideways(s: PragaState, player: str, name: str, steps: int) -> None:
    """One space per icon: the Hunger Wall marker to the left, the Cathedral marker to the right.
    A marker at the end of its row stays (decision G2)."""
    g = grid(name)
    for _ in range(steps):
        pos = s.d["p"][player][name]
        col = pos["col"] + g["direction"]
        if not 0 <= col < g["columns"]:
            return
        pos["col"] = col
        moved(s, player)
        land(s, player, name)


def land(s: PragaState, player: str, name: str) -> None:
    """Resolve the space the marker lands on: VP score now, an arrow moves the marker on."""
    pos = s.d["p"][player][name]
    cell = grid(name)["cells"][pos["row"]][pos["col"]]
    if "vp" in cell:
        add_vp(s, player, int(cell["vp"]), "shared_tracks")
    elif cell.get("arrow") == "up":
        move_up(s, player, name, pay_fee=True)
    elif cell.get("arrow") == "side":
        move_sideways(s, player, name, 1)


def move_up(s: PragaState, player: str, name: str, *, pay_fee: bool) -> bool:
    """Up one row, paying the tier fee when a tier is crossed (unless waived).  Without the fee the
    marker stays where it is (decision G1).  Returns whether the marker moved."""
    me = s.d["p"][player]
    pos = me[name]
    if pos["row"] >= TOP_ROW:
        return False
    fee = fee_to_climb(name, pos["row"])
    if pay_fee:
        if not can_pay(s, player, fee):
            return False
        me["gold"] -= fee["gold"]
        me["stone"] -= fee["stone"]
    pos["row"] += 1
    moved(s, player)
    if name == "cathedral" and tier(name, pos["row"]) == 3 and not me["cathedral_tile_taken"]:
        me["cathedral_tile_taken"] = True
        push(s, CathedralGoldTile(player))
    land(s, player, name)
    return True


def can_climb(s: PragaState, player: str, name: str) -> str | None:
    """Why ``player`` cannot climb on ``name`` now (None if he can)."""
    me = s.d["p"][player]
    need = int(GRIDS["climb_cost_silver_windows"])
    label = GRID_LABEL[name]
    if me[name]["row"] >= TOP_ROW:
        return f"{player} is already on the top row of the {label}"
    if me["silver"] < need:
        return f"climbing costs {need} silver windows, {player} has {me['silver']}"
    fee = fee_to_climb(name, me[name]["row"])
    if not can_pay(s, player, fee):
        return (f"entering the next tier of the {label} costs {fee['gold']} gold and {fee['stone']} stone, "
                f"{player} has {me['gold']} gold and {me['stone']} stone")
    return None


def climb(s: PragaState, player: str, name: str) -> None:
    s.d["p"][player]["silver"] -= int(GRIDS["climb_cost_silver_windows"])
    move_up(s, player, name, pay_fee=True)


@dataclass(slots=True)
class CathedralGoldTile(Step):
    """Reaching the Cathedral's top tier: take one of the gold (V) tiles lying by the Cathedral."""

    op = "cathedral_gold_tile"

    def run(self, s: PragaState) -> None:
        from .bridge import CathedralGoldDraw

        s.pop(self)
        if s.stacks["bridge_V"].hidden:
            draw(s, CathedralGoldDraw(self.player, "bridge_V"), 1)


def column_value(s: PragaState, player: str, name: str) -> int:
    """Sideways steps made on the grid (the multiplier of the bonus tokens)."""
    g = grid(name)
    return abs(int(s.d["p"][player][name]["col"]) - int(g["start_column"]))


def row_score(s: PragaState, player: str, name: str) -> int:
    return int(grid(name)["row_scores"][s.d["p"][player][name]["row"]])
