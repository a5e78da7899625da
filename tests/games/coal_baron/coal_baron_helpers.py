"""Build Coal Baron positions for tests: a known setup, then direct edits of the state."""

from __future__ import annotations

from typing import Any

from replay.engine import Move
from replay.games import get_game
from replay.games.coal_baron.components import COLOUR_INDEX
from replay.games.coal_baron.moves import DraftOrder, PlaceWorkers
from replay.games.coal_baron.pit import Outstanding
from replay.games.coal_baron.state import CoalBaronState
from replay.hidden import PartlyKnownDeck

GAME = get_game("coal_baron")
PIDS = ("p1", "p2", "p3", "p4")
TILE_SLOTS = {2: 6, 3: 7, 4: 8}
#: one-cart tiles: dark yellow, brown, grey, black, then light yellow, brown, grey, black
DEFAULT_TILES = ["t1", "t7", "t13", "t19", "t25", "t31", "t37", "t43"]


def fresh(n: int = 2, ruleset: str = "official", **options: Any) -> CoalBaronState:
    st = GAME.initial_state(list(PIDS[:n]), {"ruleset": ruleset, **options})
    assert isinstance(st, CoalBaronState)
    return st


def setup(n: int = 2, ruleset: str = "official", tiles: list[str] | None = None,
          pool: list[str] | None = None, board: list[str] | None = None, **options: Any) -> CoalBaronState:
    """Setup with known reveals; every drafter takes the first card left in the pool."""
    st = fresh(n, ruleset, **options)
    st.apply_chance({"draw": "tiles", "items": tiles or DEFAULT_TILES[: TILE_SLOTS[n]]})
    st.apply_chance({"draw": "orders", "items": pool or [f"o{i}" for i in range(1, 3 * n + 2)]})
    while st.decision == "draft":
        st.apply_move(st.actor, DraftOrder(card=st.draft_pool[0]))
    k = 2 if n == 2 else 3
    st.apply_chance({"draw": "orders", "items": board or [f"o{40 - i}" for i in range(k)]})
    return st


def play(st: CoalBaronState, move: Move, player: str | None = None) -> None:
    """The checked path, by the player to move unless told otherwise."""
    who = player or st.turn()
    assert isinstance(who, str), f"expected a player's turn, got {st.turn()!r}"
    st.apply_move(who, move)


def place(st: CoalBaronState, space: str) -> None:
    play(st, PlaceWorkers(space=space))


def give_order(st: CoalBaronState, player: str, card: str, *fills: list[str]) -> Outstanding:
    """Put ``card`` among ``player``'s outstanding orders, optionally with cubes on its spaces."""
    o = Outstanding(card)
    for i, f in enumerate(fills):
        o.spots[i] = [COLOUR_INDEX[c] for c in f]
    st.pits[player].outstanding.append(o)
    return o


def draw(st: CoalBaronState, deck: str, items: list[str]) -> None:
    st.apply_chance({"draw": deck, "items": items})


def leave_hidden(deck: PartlyKnownDeck, items: list[str]) -> None:
    """Make ``items`` the only cards left in the deck's shuffled middle (every other identity is
    accounted for elsewhere)."""
    deck.hidden = len(items)
    deck.pool.known = {i: n for i, n in deck.pool.composition.items() if i not in items}
