"""Free actions on one's own turn: climb, extra action, swap display tiles, claim a seal, use a technology."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from .. import moves as m
from ..components import ACTIONS, ROWS, SEALS, TECHS, hex_deck
from ..tasks import Decision, push
from .actions import perform, performable
from .turn_end import RefillSlot

if TYPE_CHECKING:
    from ..state import PragaState

EXTRA_PAYMENTS = {"two_gold": (2, 0), "gold_silver": (1, 1)}


def why_not_extra(s: PragaState, player: str, action: str, pay: str) -> str | None:
    me = s.d["p"][player]
    if s.d["turn"]["extra_used"]:
        return f"{player} has already taken an extra action this turn (once per turn)"
    if action not in ACTIONS:
        return f"{action!r} is not one of the six actions"
    if pay not in EXTRA_PAYMENTS:
        return f"an extra action is paid with two_gold or gold_silver windows, not {pay!r}"
    gold, silver = EXTRA_PAYMENTS[pay]
    if me["goldw"] < gold or me["silver"] < silver:
        return (f"{player} cannot pay an extra action with {gold} gold and {silver} silver windows: "
                f"{player} has {me['goldw']} gold and {me['silver']} silver windows")
    if not performable(s, player, action):
        return f"{player} cannot take the King's Road action: the pawn is on V, or the bridge needs an egg"
    return None


def extra_action(s: PragaState, player: str, action: str, pay: str) -> None:
    gold, silver = EXTRA_PAYMENTS[pay]
    me = s.d["p"][player]
    me["goldw"] -= gold
    me["silver"] -= silver
    s.d["turn"]["extra_used"] = True
    perform(s, player, action, bonus=True, source="extra")


def why_not_swap(s: PragaState, player: str, row: str) -> str | None:
    me = s.d["p"][player]
    if s.d["turn"]["swap_used"]:
        return f"{player} has already swapped display tiles this turn (once per turn)"
    if me["gold"] < 1 and me["stone"] < 1:
        return f"swapping costs 1 gold or 1 stone; {player} has neither"
    if row not in ROWS:
        return f"there is no display row {row!r} (upgrade, wall or building)"
    if sum(1 for t in s.d["display"][row] if t is not None) < 2:
        return f"the {row} row holds fewer than 2 tiles to swap"
    return None


def swap_choices(s: PragaState, player: str, row: str) -> list[tuple[list[int], str]]:
    """The pairs of filled slots of the row, times the payments the player can make."""
    me = s.d["p"][player]
    filled = [i for i, t in enumerate(s.d["display"][row]) if t is not None]
    return [(list(pair), r) for pair in combinations(filled, 2) for r in ("gold", "stone") if me[r] >= 1]


def swap_tiles(s: PragaState, player: str, row: str) -> None:
    s.d["turn"]["swap_used"] = True
    s.push(SwapSlotsChoice(player, row))


@dataclass(slots=True)
class SwapSlotsChoice(Decision):
    """Swapping display tiles: which two tiles of ``row`` go under their stacks, and the payment."""

    row: str = ""
    kind = "swap"
    accepts = (m.SwapSlots,)
    awaiting = "choose the two tiles to swap and the payment"

    def candidates(self, s: PragaState) -> list[Move]:
        return [m.SwapSlots(slots=sl, pay=pay) for sl, pay in swap_choices(s, self.player, self.row)]

    def check(self, s: PragaState, player: str, move: Any) -> str | None:
        if (move.slots, move.pay) in swap_choices(s, player, self.row):
            return None
        return (f"{player} cannot swap slots {move.slots} paying {move.pay}: two different filled slots of the "
                f"{self.row} row are needed, and 1 gold or 1 stone {player} has")

    def apply(self, s: PragaState, player: str, move: Any) -> None:
        s.pop(self)
        swap_slots(s, player, self.row, move.slots, move.pay)


def swap_slots(s: PragaState, player: str, row: str, slots: list[int], pay: str) -> None:
    """Put two tiles of a row under their stacks and refill those slots from the top at once."""
    s.d["p"][player][pay] -= 1
    display = s.d["display"][row]
    tasks: list[RefillSlot] = []
    for slot in sorted(slots):
        tile = display[slot]
        display[slot] = None
        s.stacks[hex_deck(tile)].put_back([tile], "bottom")
        tasks.append(RefillSlot(row=row, slot=slot))
    push(s, *tasks)


def why_not_seal(s: PragaState, player: str, seal: str) -> str | None:
    me = s.d["p"][player]
    if seal not in SEALS:
        return f"there is no seal {seal!r}"
    if seal in s.d["seals"]:
        return f"the {seal.replace('_', ' ')} already belongs to {s.d['seals'][seal]}"
    rights = [t for t in me["seal_rights"] if t not in me["seal_tracks"]]
    if not rights:
        return (f"{player} has no seal to claim: a seal needs a production track at its last space, "
                f"one seal per track (holds {len(me['seals'])})")
    cost = SEALS[seal]["cost"]
    if me["silver"] < cost["silver"]:
        return f"the {seal.replace('_', ' ')} costs {cost['silver']} silver windows, {player} has {me['silver']}"
    if me["cubes"] < 1:
        return f"{player} has no cube left in reserve to put on the seal"
    return None


def claim_seal(s: PragaState, player: str, seal: str) -> None:
    me = s.d["p"][player]
    track = next(t for t in me["seal_rights"] if t not in me["seal_tracks"])
    me["seal_tracks"].append(track)
    me["silver"] -= SEALS[seal]["cost"]["silver"]
    me["cubes"] -= 1
    me["seals"].append(seal)
    s.d["seals"][seal] = player
    s.add_milestone("seal_claimed", round=s.round(), player_id=player, seal=seal, track=track)


def why_not_technology(s: PragaState, player: str, tech: str) -> str | None:
    if tech not in s.d["p"][player]["stored"]:
        held = ", ".join(s.d["p"][player]["stored"]) or "none"
        return f"{player} holds no stored technology {tech} (stored: {held})"
    return None


def technology_text(tech: str) -> str:
    return f"{tech} ({TECHS[tech]['text']})"
