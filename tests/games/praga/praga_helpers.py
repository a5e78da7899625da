"""Helpers: a set-up game with a known layout, and short cuts to put a player in a given position."""

from __future__ import annotations

from typing import Any

from replay.engine import ChanceRequest, Move
from replay.games.praga import GAME, PragaState, flow

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


def run(st: PragaState) -> None:
    """Run queued rule steps after a test changed the position by hand."""
    if st.d["decision"] is not None and st.d["decision"]["kind"] == "turn":
        st.d["decision"] = None
    flow.run(st)
    settle(st)


def decision(st: PragaState) -> dict[str, Any]:
    dec: dict[str, Any] = st.d["decision"]
    return dec


def vp(st: PragaState, player: str = "p1") -> int:
    return sum(st.d["p"][player]["vp"].values())
