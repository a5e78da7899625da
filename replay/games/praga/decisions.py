"""What each pending decision accepts: its legal moves, how a move is applied, and why a move is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from replay.engine import Move

from . import moves as m
from .components import ACTION_NAMES, ACTIONS, PLAZA_TILES, POSITIONS, ROWS, SEALS, TECHS
from .rules import actions, bridge, crane, free_actions, grids, plazas, production, technologies, turn_end
from .rules.effects import describe_atoms, gain

if TYPE_CHECKING:
    from .state import PragaState

Dec = dict[str, Any]

AWAITS = {
    "turn": "take a crane tile, use a free action or end the turn",
    "choose_action": "choose which action to perform",
    "reward": "choose one of the offered rewards",
    "manage": "choose to expand or produce",
    "production_token": "take a production token from the river",
    "pick_tile": "take a tile from the display row",
    "place": "choose where the tile goes",
    "rotate": "choose the tile's rotation",
    "road_egg": "decide whether to pay an egg on the King's Road",
    "keep_bridge_tile": "keep one of the silver bridge tiles drawn",
    "plank": "choose the plank space for the bridge tile",
    "keep_technology": "keep one of the technology tiles drawn",
    "upgrade_bonus": "choose which upgrade tile's bonus to take",
    "grid": "choose the Hunger Wall or the Cathedral",
    "plaza": "choose a plaza",
    "track": "choose the gold mine or the quarry track",
    "swap": "choose the two tiles to swap and the payment",
    "discard_window": "discard a window down to 2",
}


# --- the turn menu --------------------------------------------------------------------


def menu_moves(s: PragaState, dec: Dec) -> list[Move]:
    p = dec["player"]
    me = s.d["p"][p]
    turn = s.d["turn"]
    out: list[Move] = []
    if not turn["tile_taken"]:
        out += [m.TakeTile(position=pos) for pos in range(len(POSITIONS))
                if crane.why_not_take(s, p, pos) is None]
    out += [m.Climb(grid=name) for name in ("hunger_wall", "cathedral") if grids.can_climb(s, p, name) is None]
    out += [m.ExtraAction(action=a, pay=pay) for a in ACTIONS for pay in free_actions.EXTRA_PAYMENTS
            if free_actions.why_not_extra(s, p, a, pay) is None]
    out += [m.SwapTiles(row=row) for row in ROWS if free_actions.why_not_swap(s, p, row) is None]
    out += [m.ClaimSeal(seal=x) for x in sorted(SEALS) if free_actions.why_not_seal(s, p, x) is None]
    out += [m.UseTechnology(tech=t) for t in sorted(set(me["stored"]))]
    if turn["tile_taken"] and turn["action_done"]:
        out.append(m.EndTurn())
    return out


def menu_allows(s: PragaState, dec: Dec, move: Move) -> bool:
    """Whether ``move`` is on the turn menu, checked by its own rule (the checked path of a record's move
    does not list the whole menu)."""
    p = dec["player"]
    turn = s.d["turn"]
    if isinstance(move, m.TakeTile):
        return crane.why_not_take(s, p, move.position) is None
    if isinstance(move, m.Climb):
        return move.grid in grids.GRID_LABEL and grids.can_climb(s, p, move.grid) is None
    if isinstance(move, m.ExtraAction):
        return free_actions.why_not_extra(s, p, move.action, move.pay) is None
    if isinstance(move, m.SwapTiles):
        return free_actions.why_not_swap(s, p, move.row) is None
    if isinstance(move, m.ClaimSeal):
        return free_actions.why_not_seal(s, p, move.seal) is None
    if isinstance(move, m.UseTechnology):
        return move.tech in s.d["p"][p]["stored"]
    if isinstance(move, m.EndTurn):
        return bool(turn["tile_taken"] and turn["action_done"])
    return False


def menu_apply(s: PragaState, dec: Dec, move: Move) -> None:
    p = dec["player"]
    if isinstance(move, m.TakeTile):
        crane.take_tile(s, p, move.position)
    elif isinstance(move, m.Climb):
        grids.climb(s, p, move.grid)
    elif isinstance(move, m.ExtraAction):
        free_actions.extra_action(s, p, move.action, move.pay)
    elif isinstance(move, m.SwapTiles):
        free_actions.swap_tiles(s, p, move.row)
    elif isinstance(move, m.ClaimSeal):
        free_actions.claim_seal(s, p, move.seal)
    elif isinstance(move, m.UseTechnology):
        technologies.use_technology(s, p, move.tech)
    elif isinstance(move, m.EndTurn):
        turn_end.end_turn(s, p)


def menu_explain(s: PragaState, dec: Dec, move: Move) -> str:
    p = dec["player"]
    why: str | None = None
    if isinstance(move, m.TakeTile):
        why = crane.why_not_take(s, p, move.position)
    elif isinstance(move, m.Climb):
        why = (grids.can_climb(s, p, move.grid) if move.grid in grids.GRID_LABEL
               else f"there is no grid {move.grid!r} (hunger_wall or cathedral)")
    elif isinstance(move, m.ExtraAction):
        why = free_actions.why_not_extra(s, p, move.action, move.pay)
    elif isinstance(move, m.SwapTiles):
        why = free_actions.why_not_swap(s, p, move.row)
    elif isinstance(move, m.ClaimSeal):
        why = free_actions.why_not_seal(s, p, move.seal)
    elif isinstance(move, m.UseTechnology):
        why = free_actions.why_not_technology(s, p, move.tech)
    elif isinstance(move, m.EndTurn):
        why = (f"{p} cannot end the turn yet: a crane tile must be taken and its action carried out first")
    return why or f"{p} cannot {move.type.replace('_', ' ')} now: {p} must {AWAITS['turn']}"


# --- decisions inside a turn -------------------------------------------------------------


def _options(dec: Dec, cls: Callable[..., Move], field: str) -> list[Move]:
    return [cls(**{field: o}) for o in dec["options"]]


def _reward_moves(s: PragaState, dec: Dec) -> list[Move]:
    return [m.ChooseReward(option=i) for i in range(len(dec["options"]))]


def _reward_apply(s: PragaState, dec: Dec, move: Any) -> None:
    gain(s, dec["player"], dec["options"][move.option], dec["cat"], dec["src"])


def _choose_action_apply(s: PragaState, dec: Dec, move: Any) -> None:
    actions.perform(s, dec["player"], move.action, bonus=dec["bonus"], discount=dec["discount"],
                    source=dec["source"])


def _manage_moves(s: PragaState, dec: Dec) -> list[Move]:
    out: list[Move] = [m.Manage(mode="expand")] if not production.at_end(s, dec["player"], dec["track"]) else []
    return out + [m.Manage(mode="produce")]


def _pick_moves(s: PragaState, dec: Dec) -> list[Move]:
    p, row = dec["player"], dec["row"]
    slots = [i for i in range(4) if actions.why_not_pick(s, p, row, i, dec["discount"]) is None]
    return [m.PickTile(slot=i) for i in slots] if slots else [m.SkipAction()]


def _pick_allows(s: PragaState, dec: Dec, move: Move) -> bool:
    p, row = dec["player"], dec["row"]
    if isinstance(move, m.PickTile):
        return 0 <= move.slot < 4 and actions.why_not_pick(s, p, row, move.slot, dec["discount"]) is None
    if isinstance(move, m.SkipAction):
        return all(actions.why_not_pick(s, p, row, i, dec["discount"]) is not None for i in range(4))
    return False


def _pick_apply(s: PragaState, dec: Dec, move: Move) -> None:
    if isinstance(move, m.PickTile):
        actions.pick_tile(s, dec["player"], dec["row"], move.slot, dec["discount"])


def _pick_explain(s: PragaState, dec: Dec, move: Move) -> str | None:
    if isinstance(move, m.PickTile):
        return actions.why_not_pick(s, dec["player"], dec["row"], move.slot, dec["discount"])
    if isinstance(move, m.SkipAction):
        return f"{dec['player']} cannot skip the {dec['row']} action: a tile of the row can be taken"
    return None


def _token_moves(s: PragaState, dec: Dec) -> list[Move]:
    return [m.TakeProductionToken(token=t) for t in sorted(s.d["river"])]


def _road_moves(s: PragaState, dec: Dec) -> list[Move]:
    return [m.RoadEgg(pay=True), m.RoadEgg(pay=False)]


def _discard_moves(s: PragaState, dec: Dec) -> list[Move]:
    me = s.d["p"][dec["player"]]
    out: list[Move] = [m.DiscardWindow(window="gold")] if me["goldw"] else []
    return out + ([m.DiscardWindow(window="silver")] if me["silver"] else [])


def _grid_apply(s: PragaState, dec: Dec, move: Any) -> None:
    grids.move_up(s, dec["player"], move.grid, pay_fee=False)


Rule = tuple[Callable[[Any, Dec], list[Move]], Callable[[Any, Dec, Any], None]]

RULES: dict[str, Rule] = {
    "turn": (menu_moves, menu_apply),
    "choose_action": (lambda s, d: _options(d, m.ChooseAction, "action"), _choose_action_apply),
    "reward": (_reward_moves, _reward_apply),
    "manage": (_manage_moves, lambda s, d, mv: actions.manage(s, d["player"], d["track"], mv.mode)),
    "production_token": (_token_moves,
                         lambda s, d, mv: production.take_production_token(s, d["player"], d["track"], mv.token)),
    "pick_tile": (_pick_moves, _pick_apply),
    "place": (lambda s, d: [m.PlaceTile(at=a) for a in actions.place_targets(s, d["player"], d)],
              lambda s, d, mv: actions.place(s, d["player"], d, mv.at)),
    "rotate": (lambda s, d: [m.RotateTile(rotation=r) for r in range(6)],
               lambda s, d, mv: actions.rotate(s, d["player"], d, mv.rotation)),
    "road_egg": (_road_moves, lambda s, d, mv: bridge.road_egg(s, d["player"], d["space"], mv.pay)),
    "keep_bridge_tile": (lambda s, d: [m.KeepBridgeTile(tile=t) for t in sorted(d["tiles"])],
                         lambda s, d, mv: bridge.keep_silver(s, d["player"], d["tiles"], mv.tile)),
    "plank": (lambda s, d: [m.PlacePlank(plank=k) for k in bridge.free_planks(s)],
              lambda s, d, mv: bridge.place_plank(s, d["player"], d["tile"], mv.plank)),
    "keep_technology": (lambda s, d: [m.KeepTechnology(tech=t) for t in sorted(d["tiles"])],
                        lambda s, d, mv: technologies.keep_technology(s, d["player"], d["tiles"], mv.tech)),
    "upgrade_bonus": (lambda s, d: [m.ChooseUpgradeBonus(tile=t) for t in d["tiles"]],
                      lambda s, d, mv: actions.take_upgrade_bonus(s, d["player"], d["action"], mv.tile)),
    "grid": (lambda s, d: _options(d, m.ChooseGrid, "grid"), _grid_apply),
    "plaza": (lambda s, d: _options(d, m.ChoosePlaza, "plaza"),
              lambda s, d, mv: plazas.both_rewards(s, d["player"], mv.plaza)),
    "track": (lambda s, d: _options(d, m.ChooseTrack, "track"),
              lambda s, d, mv: technologies.track_chosen(s, d["player"], d, mv.track)),
    "swap": (lambda s, d: [m.SwapSlots(slots=sl, pay=pay) for sl, pay in free_actions.swap_choices(s, d["player"], d["row"])],
             lambda s, d, mv: free_actions.swap_slots(s, d["player"], d["row"], mv.slots, mv.pay)),
    "discard_window": (_discard_moves, lambda s, d, mv: turn_end.discard_window(s, d["player"], mv.window)),
}


ALLOWS: dict[str, Callable[[Any, Dec, Move], bool]] = {
    "turn": menu_allows,
    "pick_tile": _pick_allows,
    "place": lambda s, d, mv: isinstance(mv, m.PlaceTile) and actions.can_place(s, d["player"], d, mv.at),
}
"""Decisions whose legal moves are many or costly to list check a move by its own rule; the others
check it against their (short) list of legal moves."""


def allows(s: PragaState, dec: Dec, move: Move) -> bool:
    """Whether ``move`` is one of the legal moves at decision ``dec`` (the checked path)."""
    check = ALLOWS.get(dec["kind"])
    if check is not None:
        return check(s, dec, move)
    return move in RULES[dec["kind"]][0](s, dec)


ACCEPTS: dict[str, tuple[type[Move], ...]] = {
    "choose_action": (m.ChooseAction,), "reward": (m.ChooseReward,), "manage": (m.Manage,),
    "production_token": (m.TakeProductionToken,), "pick_tile": (m.PickTile, m.SkipAction),
    "place": (m.PlaceTile,), "rotate": (m.RotateTile,), "road_egg": (m.RoadEgg,),
    "keep_bridge_tile": (m.KeepBridgeTile,), "plank": (m.PlacePlank,), "keep_technology": (m.KeepTechnology,),
    "upgrade_bonus": (m.ChooseUpgradeBonus,), "grid": (m.ChooseGrid,), "plaza": (m.ChoosePlaza,),
    "track": (m.ChooseTrack,), "swap": (m.SwapSlots,), "discard_window": (m.DiscardWindow,),
}


def explain(s: PragaState, dec: Dec, move: Move) -> str:
    """Why ``move`` is refused at this decision, in a player's words."""
    p, kind = dec["player"], dec["kind"]
    why: str | None = None
    if kind == "turn":
        return menu_explain(s, dec, move)
    if type(move) not in ACCEPTS[kind]:
        return f"{p} cannot {move.type.replace('_', ' ')} now: {p} must first {AWAITS[kind]}"
    if kind == "pick_tile":
        why = _pick_explain(s, dec, move)
    elif kind == "choose_action":
        why = (f"{p} cannot choose {move.to_dict().get('action')!r}: the choice is among "
               f"{', '.join(ACTION_NAMES[a] for a in dec['options'])} (King's Road needs the pawn before V and an "
               f"egg for the bridge)")
    elif kind == "reward":
        why = (f"{p} has {len(dec['options'])} rewards to choose from: "
               + "; ".join(f"{i}: {describe_atoms(o) or 'nothing'}" for i, o in enumerate(dec["options"])))
    elif kind == "manage":
        why = f"{p}'s {dec['track']} marker is on the last space and cannot expand further; only produce"
    elif kind == "place":
        why = f"{p} cannot place {dec['tile']} at {move.to_dict().get('at')!r}: it is taken, unknown or unaffordable"
    elif kind == "rotate":
        why = f"a hex tile has rotations 0 to 5, not {move.to_dict().get('rotation')!r}"
    elif kind == "keep_technology":
        why = f"{p} drew {', '.join(sorted(dec['tiles']))}; {move.to_dict().get('tech')!r} is not among them"
    elif kind == "keep_bridge_tile":
        why = f"{p} drew {', '.join(sorted(dec['tiles']))}; {move.to_dict().get('tile')!r} is not among them"
    elif kind == "plank":
        why = f"plank {move.to_dict().get('plank')!r} is not free (free: {', '.join(bridge.free_planks(s))})"
    elif kind == "production_token":
        why = f"{move.to_dict().get('token')!r} is not in the river (left: {', '.join(sorted(s.d['river']))})"
    elif kind == "swap":
        why = (f"{p} cannot swap slots {move.to_dict().get('slots')} paying {move.to_dict().get('pay')}: two different "
               f"filled slots of the {dec['row']} row are needed, and 1 gold or 1 stone {p} has")
    elif kind == "discard_window":
        why = f"{p} has no {move.to_dict().get('window')} window to discard"
    return why or f"{p} cannot {move.type.replace('_', ' ')} that way: {p} must {AWAITS[kind]}"


def describe_decision(s: PragaState, dec: Dec) -> str:
    if dec["kind"] == "keep_technology":
        return ", ".join(f"{t} {TECHS[t]['text']}" for t in dec["tiles"])
    if dec["kind"] == "plaza":
        return ", ".join(f"{p} ({PLAZA_TILES[s.d['city']['plaza_tiles'][p]]['id']})" for p in dec["options"])
    return AWAITS[dec["kind"]]

