"""Positions built by hand for the Copenhagen rule tests."""

from __future__ import annotations

from typing import Any

from replay.engine import Move
from replay.games import get_game
from replay.games.copenhagen.geometry import placement_at
from replay.games.copenhagen.rules.harbour import DRAW, deck_counts
from replay.games.copenhagen.scoring import add_points, completions
from replay.games.copenhagen.state import CopenhagenState
from replay.games.copenhagen.steps import FirstCard, goto
from replay.hidden import HiddenPool, PartlyKnownDeck

GAME = get_game("copenhagen")
HARBOUR = ["red", "yellow", "green", "blue", "purple", "red", "yellow"]
HANDS = [["red", "red"], ["blue", "blue", "blue"], ["green", "green", "green"],
         ["purple", "purple", "purple", "purple"]]


def new_game(n: int = 2, ruleset: str = "official", harbour: list[str] | None = None,
             hands: list[list[str]] | None = None) -> CopenhagenState:
    """A game dealt with known cards; p1 to move."""
    s = GAME.initial_state([f"p{i + 1}" for i in range(n)], {"ruleset": ruleset})
    assert isinstance(s, CopenhagenState)
    s.apply_chance({"draw": "facade", "items": list(harbour or HARBOUR)})
    for i in range(n):
        s.apply_chance({"draw": "facade", "items": list((hands or HANDS)[i])})
    return s


def set_hand(s: CopenhagenState, pid: str, **cards: int) -> None:
    """Give ``pid`` exactly these known cards (``unknown=n``: n cards of unknown colour)."""
    hand = s.seats[pid].hand
    hand.clear()
    hand.update({(None if c == "unknown" else c): n for c, n in cards.items() if n})


def set_deck(s: CopenhagenState, **cards: int) -> None:
    """Make the deck hold exactly these cards (a family of its own, every card known)."""
    pool = HiddenPool(DRAW, [(c, n) for c, n in cards.items() if n])
    s.deck = PartlyKnownDeck(DRAW, pool)


def deck(s: CopenhagenState) -> dict[str, int]:
    counts = deck_counts(s)
    assert counts is not None
    return counts


def put(s: CopenhagenState, pid: str, tile: str, x: int, y: int, rotation: int = 0, flip: int = 0) -> None:
    """Put a tile on a facade directly (no cost, no support check), scoring its lines."""
    p = placement_at(tile, x, y, rotation, flip)
    assert p is not None, (tile, x, y, rotation, flip)
    player = s.seats[pid]
    assert not p.mask & player.facade.covered
    player.facade.place(p, tile.split("-")[0])
    player.score = add_points(player.score, completions(player.facade, p))
    s._score = None


def to_move(s: CopenhagenState, seat: int) -> None:
    """The turn of the player in ``seat`` begins (a position set up by hand)."""
    s.current = seat
    goto(s, FirstCard(s.players[seat]))


def play(s: CopenhagenState, pid: str, move: dict[str, Any]) -> None:
    s.apply_move(pid, GAME.parse_move(move))


def legal(s: CopenhagenState) -> list[dict[str, Any]]:
    return [m.to_dict() for m in s.legal_moves()]


def build(color: str, size: int, x: int, y: int, pay: dict[str, int], rotation: int = 0, flip: int = 0,
          **extra: Any) -> dict[str, Any]:
    return {"type": "build", "color": color, "size": size, "x": x, "y": y, "rotation": rotation, "flip": flip,
            "pay": pay, **extra}


def refill(s: CopenhagenState, *cards: str) -> None:
    for c in cards:
        s.apply_chance({"draw": "facade", "items": [c]})


def as_move(d: dict[str, Any]) -> Move:
    return GAME.parse_move(d)
