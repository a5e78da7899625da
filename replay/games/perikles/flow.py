"""The order of play: which stage follows which, and what chance or player each stage waits for.

:func:`advance` runs the automatic parts of the rules (elections, battles without dice, the end
of a round...) until a player must decide or chance must speak; :func:`reveal` applies a chance
outcome.  Each stage has one function returning whose turn it is, or None to go on.
"""

from __future__ import annotations

from collections.abc import Callable

from replay.engine import OVER, ChanceRequest, ImpossibleChance, Outcome, Turn

from . import unknowns
from .board import UNKNOWN, Board
from .components import DISPLAY_SLOTS, INFLUENCE_TILES, LOCATION_SLOTS, LOCATIONS, SPECIAL_TILES
from .decisions import can_do_more_than_end
from .phases import (
    battle_specials,
    battles,
    elections,
    end_of_round,
    influence,
    military,
    nominations,
    slave_revolt,
)


def deal_influence(s: Board) -> Turn | None:
    return ChanceRequest("draw", "influence", count=DISPLAY_SLOTS, pool=tuple((t.id, 1) for t in INFLUENCE_TILES),
                         reason=f"round {s.round}: the influence display")


def deal_locations(s: Board) -> Turn | None:
    pool = tuple((t.key, 1) for t in LOCATIONS if t.key not in s.dealt_locations)
    return ChanceRequest("draw", "locations", count=LOCATION_SLOTS, pool=pool,
                         reason=f"round {s.round}: the location tiles")


def deal_specials(s: Board) -> Turn | None:
    # seat view: the deal is one draw, and each player sees only his own tile, so the record names none
    return ChanceRequest("draw", "special", count=len(s.players), pool=tuple((t.key, 1) for t in SPECIAL_TILES),
                         reason="one secret special tile per player, in seat order",
                         visible_to=() if s.seat_view else None)


def first_player(s: Board) -> Turn | None:
    return ChanceRequest("choose", "first_player", options=tuple(s.players))


def placement(s: Board) -> Turn | None:
    if s.placements_left == 0:
        influence.start_influence(s)
        return None
    return s.cur


def influence_turn(s: Board) -> Turn | None:
    if s.step == "done":
        influence.end_of_turn(s)
        return None
    return s.cur


def refill(s: Board) -> Turn | None:
    return ChanceRequest("draw", "influence", count=1, pool=influence.deck_pool(s),
                         reason=f"refill of display slot {s.refill_slot}")


def nomination_start(s: Board) -> Turn | None:
    assert s.start_player is not None
    s.cur = nominations.first_nominator(s, s.start_player)
    s.stage = "nomination" if s.cur is not None else "elections"
    return None


def hold_elections(s: Board) -> Turn | None:
    elections.hold_elections(s)
    s.stage = "military"
    return None


def start_military(s: Board) -> Turn | None:
    military.start_military(s)
    return None


def recover(s: Board) -> Turn | None:
    if military.run_recoveries(s):
        return s.cur
    military.after_recovery(s)
    return None


def choose_first(s: Board) -> Turn | None:
    spartan = s.leader["sparta"]
    if spartan is None:
        military.no_spartan_choice(s)
        return None
    s.cur = spartan
    return spartan


def next_commit(s: Board) -> Turn | None:
    p = military.next_commit_turn(s)
    if p is None:
        s.battle_slot = 0
        s.stage = "location"
        return None
    military.begin_commit_turn(s, p)
    if not can_do_more_than_end(s, p):
        military.finish_commit_turn(s, p)
        return None
    return p


def revolt(s: Board) -> Turn | None:
    assert s.revolt_target is not None
    return ChanceRequest("choose", "slave_revolt", options=tuple(slave_revolt.revolt_candidates(s, s.revolt_target)),
                         reason="Slave Revolt: which Spartan hoplite rises")


def location(s: Board) -> Turn | None:
    battles.start_location(s)
    return None


def reveal_units(s: Board) -> Turn | None:
    loc = s.current_location()
    return ChanceRequest("reveal", unknowns.zone_name(loc.key),
                         reason=f"the units sent face down to {loc.name} are turned up")


def combat(s: Board) -> Turn | None:
    battles.start_combat(s)
    return None


def window(s: Board) -> Turn | None:
    battle_specials.open_window(s)
    return None


def dice(s: Board) -> Turn | None:
    side = "attacker" if s.pending_roll is None else "defender"
    return ChanceRequest("roll", side, count=2, sides=6,
                         reason=f"{s.current_location().name}, {battles.combat_type(s)} combat: the {side}'s 2d6")


def end_round(s: Board) -> Turn | None:
    end_of_round.end_round(s)
    return None


def over(s: Board) -> Turn | None:
    return OVER


def decision(s: Board) -> Turn | None:
    assert s.cur is not None, f"no player to move in stage {s.stage}"
    return s.cur


STAGES: dict[str, Callable[[Board], Turn | None]] = {
    "deal_influence": deal_influence, "deal_locations": deal_locations, "deal_specials": deal_specials,
    "first_player": first_player, "placement": placement, "influence": influence_turn, "refill": refill,
    "nomination_start": nomination_start, "nomination": decision, "elections": hold_elections,
    "military": start_military, "recover": recover, "choose_first": choose_first, "next_commit": next_commit,
    "commit": decision, "permission": decision, "slave_revolt": revolt, "location": location, "reveal": reveal_units, "combat": combat,
    "window": window, "battle_special": decision, "roll": dice, "casualty": decision, "end_round": end_round,
    "over": over,
}


def advance(s: Board) -> Turn:
    """Run the automatic parts of the rules until a player or chance must act."""
    while True:
        turn = STAGES[s.stage](s)
        if turn is not None:
            return turn


def reveal(s: Board, request: ChanceRequest, outcome: Outcome) -> None:
    """Apply a chance outcome to the stage that asked for it."""
    st = s.stage
    if request.kind == "draw":
        items = [UNKNOWN if x is None else str(x) for x in outcome["items"]]
        if UNKNOWN in items and st in ("deal_locations", "deal_specials") and not (st == "deal_specials" and s.seat_view):
            what = "location tiles are dealt face up" if st == "deal_locations" else (
                "special tiles dealt face down need options.seat_view, under which the order of play does not "
                "depend on which tile a player holds")
            raise ImpossibleChance(f"a {request.name} draw cannot leave items unknown: {what}")
        if st == "deal_influence":
            s.display = list(items)
            s.stage = "deal_locations"
        elif st == "deal_locations":
            s.shown = {}  # a late reveal of the last round's locations can no longer come
            s.locations = list(items)
            s.dealt_locations += items
            if s.round == 1:
                s.stage = "deal_specials"
            else:
                influence.start_influence(s)
        elif st == "deal_specials":
            for p, tile in zip(s.players, items):
                s.special[p] = tile
            s.stage = "first_player"
        else:  # refill
            s.display[s.refill_slot - 1] = items[0]
            s.stage = "influence"
            assert s.cur is not None
            influence.begin_turn(s, s.next_player(s.cur))
    elif request.kind == "choose":
        value = str(outcome["value"])
        if st == "first_player":
            s.first_player = s.start_player = value
            s.placements_left = 2 * len(s.players)
            s.cur = value
            s.stage = "placement"
        else:
            slave_revolt.slave_revolt_strikes(s, value)
    else:
        total = sum(outcome["roll"])
        if s.pending_roll is None:
            s.pending_roll = total
        else:
            attacker_total, s.pending_roll = s.pending_roll, None
            battles.roll(s, attacker_total, total)


PHASES: dict[str, str] = {
    "deal_influence": "deal", "deal_locations": "deal", "deal_specials": "setup", "first_player": "setup",
    "placement": "setup", "influence": "influence", "refill": "influence", "nomination_start": "nominations",
    "nomination": "nominations", "elections": "elections", "military": "military", "recover": "military",
    "choose_first": "military", "next_commit": "military", "commit": "military", "permission": "military",
    "slave_revolt": "military", "location": "battles", "reveal": "battles", "combat": "battles", "window": "battles",
    "battle_special": "battles", "roll": "battles", "casualty": "battles", "end_round": "end of round",
    "over": "game end",
}
