"""Praga move types: one struct per decision (see docs/games/praga.md for when each is awaited)."""

from __future__ import annotations

from replay.engine import Move

# --- the turn menu ----------------------------------------------------------


class TakeTile(Move, tag="take_tile", frozen=True):
    """Take the action tile at crane ``position`` (0-3 red, 4-6 green, 7-9 blue)."""

    position: int


class Climb(Move, tag="climb", frozen=True):
    """Free action: 2 silver windows (+ tier fee) to move up one row on ``grid`` (hunger_wall/cathedral)."""

    grid: str


class ExtraAction(Move, tag="extra_action", frozen=True):
    """Free action, once per turn: pay ``pay`` (two_gold / gold_silver windows) to perform ``action``."""

    action: str
    pay: str


class SwapTiles(Move, tag="swap_tiles", frozen=True):
    """Free action, once per turn: swap two tiles of display ``row`` (the slots and the payment follow)."""

    row: str


class ClaimSeal(Move, tag="claim_seal", frozen=True):
    """Free action: claim ``seal`` (a production track is at its end)."""

    seal: str


class UseTechnology(Move, tag="use_technology", frozen=True):
    """Free action: use the stored one-shot technology ``tech`` (level III or IV)."""

    tech: str


class EndTurn(Move, tag="end_turn", frozen=True):
    """End the turn (after the crane tile's action)."""


# --- decisions inside a turn ---------------------------------------------------


class ChooseAction(Move, tag="choose_action", frozen=True):
    """Which action to perform (one of the crane tile's two, or any action a technology grants)."""

    action: str


class ChooseReward(Move, tag="choose_reward", frozen=True):
    """Which of the offered rewards to take (index ``option`` into the decision's options)."""

    option: int


class Manage(Move, tag="manage", frozen=True):
    """Manage mines / quarries: ``mode`` is expand or produce."""

    mode: str


class TakeProductionToken(Move, tag="take_production_token", frozen=True):
    """Take production ``token`` from the river."""

    token: str


class PickTile(Move, tag="pick_tile", frozen=True):
    """Take the tile in display ``slot`` (0-2 normal, 3 special) of the row the action uses."""

    slot: int


class SkipAction(Move, tag="skip_action", frozen=True):
    """Carry out nothing: no tile of the row can be taken."""


class PlaceTile(Move, tag="place_tile", frozen=True):
    """Where the taken tile goes: a wall slot hex (``"2,-1"``) or a building space id (``"b07"``)."""

    at: str


class RotateTile(Move, tag="rotate_tile", frozen=True):
    """The rotation (0-5) of the tile being placed."""

    rotation: int


class RoadEgg(Move, tag="road_egg", frozen=True):
    """On a street space of the King's Road: ``pay`` 1 egg for the egg effect, or not."""

    pay: bool


class KeepBridgeTile(Move, tag="keep_bridge_tile", frozen=True):
    """Keep ``tile`` of the silver (IV) bridge tiles drawn."""

    tile: str


class PlacePlank(Move, tag="place_plank", frozen=True):
    """Lay the bridge tile as plank ``plank``."""

    plank: str


class KeepTechnology(Move, tag="keep_technology", frozen=True):
    """Keep ``tech`` of the three technology tiles drawn."""

    tech: str


class ChooseUpgradeBonus(Move, tag="choose_upgrade_bonus", frozen=True):
    """BGA ruleset, an action upgraded twice this turn: which upgrade tile's bonus this performance gets."""

    tile: str


class ChooseGrid(Move, tag="choose_grid", frozen=True):
    """Which grid (hunger_wall / cathedral) a technology moves you up on."""

    grid: str


class ChoosePlaza(Move, tag="choose_plaza", frozen=True):
    """Which plaza's two upper rewards to take (technology T4-1)."""

    plaza: str


class ChooseTrack(Move, tag="choose_track", frozen=True):
    """Which production track (mines / quarries) a technology advances or produces on."""

    track: str


class SwapSlots(Move, tag="swap_slots", frozen=True):
    """The two display ``slots`` (0-3) put under their stacks, paying 1 ``pay`` (gold/stone)."""

    slots: list[int]
    pay: str


class DiscardWindow(Move, tag="discard_window", frozen=True):
    """End of turn with more than 2 windows: discard one ``window`` (gold / silver)."""

    window: str


MOVES: tuple[type[Move], ...] = (
    TakeTile, Climb, ExtraAction, SwapTiles, ClaimSeal, UseTechnology, EndTurn,
    ChooseAction, ChooseReward, Manage, TakeProductionToken, PickTile, SkipAction, PlaceTile, RotateTile,
    RoadEgg, KeepBridgeTile, PlacePlank, KeepTechnology, ChooseUpgradeBonus, ChooseGrid, ChoosePlaza,
    ChooseTrack, SwapSlots, DiscardWindow,
)
