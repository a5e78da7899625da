"""Helpers: a set-up game with a known layout, and short cuts to put a player in a given position."""

from __future__ import annotations

from typing import Any

from replay.engine import ChanceRequest, Move
from replay.games.praga import GAME, PragaState
from replay.games.praga.rules.turn import Turn

PLAYERS = ["p1", "p2", "p3", "p4"]


def first_items(req: ChanceRequest) -> dict[str, Any]:
    """The deterministic outcome: the first tiles of the pool in its (sorted) order, or the first option."""
    if req.kind == "choose":
        return {"choose": req.name, "value": req.options[0]}
    items = [item for item, _ in req.pool][: req.count]
    return {"draw": req.name, "items": items}


def settle(st: PragaState) -> list[dict[str, Any]]:
    """Answer every pending chance request with ``first_items``; returns the outcomes given."""
    given = []
    while isinstance(st.turn(), ChanceRequest):
        req = st.turn()
        assert isinstance(req, ChanceRequest)
        out = first_items(req)
        given.append(out)
        st.apply_chance(out)
    return given


def new_game(n: int = 3, ruleset: str = "official") -> PragaState:
    st = GAME.initial_state(PLAYERS[:n], {"ruleset": ruleset})
    assert isinstance(st, PragaState)
    settle(st)
    return st


def play(st: PragaState, move: Move) -> None:
    t = st.turn()
    assert isinstance(t, str), t
    st.apply_move(t, move)
    settle(st)


def me(st: PragaState, player: str = "p1") -> dict[str, Any]:
    p: dict[str, Any] = st.d["p"][player]
    return p


def resume(st: PragaState) -> None:
    """Run the pending rule steps after a test changed the position by hand (or called a rule): the
    turn in progress is asked afresh, of the player whose turn it now is."""
    for t in [t for t in st.stack if isinstance(t, Turn)]:
        st.pop(t)
    st.advance()


def run(st: PragaState) -> None:
    """:func:`resume`, then answer the draws it comes to with ``first_items``."""
    resume(st)
    settle(st)


def decision(st: PragaState) -> dict[str, Any]:
    """The pending decision as the snapshot shows it."""
    dec = st.decision()
    assert dec is not None
    return dec


def legal(st: PragaState) -> list[Move]:
    return list(st.legal_moves())


def vp(st: PragaState, player: str = "p1") -> int:
    return sum(st.d["p"][player]["vp"].values())
