"""``legal_moves`` lists exactly what the rules accept: every listed move is accepted, and every
near miss (other spaces, levels, colours, cards, sources, orders) not listed is refused."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.engine import IllegalMove, Move
from replay.games import get_game
from replay.games.coal_baron import moves as mv
from replay.games.coal_baron.components import COLOURS, SPACE_IDS
from replay.games.coal_baron.state import CoalBaronState
from replay.record import MoveEvent, loads
from replay.replayer import replay
from replay.simulate import simulate_one

GAME = get_game("coal_baron")
DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "coal_baron.md"


def candidates(s: CoalBaronState) -> list[Move]:
    pit = s.pits[s.actor]
    cards = [o.card for o in pit.outstanding] + ["o44"]
    out: list[Move] = []
    if s.decision == "place":
        out += [mv.PlaceWorkers(space=x) for x in SPACE_IDS]
    elif s.decision == "draft":
        out += [mv.DraftOrder(card=c) for c in s.draft_pool + ["o44"]]
    elif s.decision == "mining":
        out += [mv.MoveCage(level=lv) for lv in range(-1, 6)] + [mv.StopMining()]
        for c in COLOURS:
            out += [mv.LoadCoal(colour=c), mv.StoreCoal(colour=c)]
            out += [mv.FillOrder(card=k, colour=c, source=src) for k in cards for src in ("cage", "storage")]
        cubes = [("cage", c) for c in COLOURS] + [("storage", c) for c in COLOURS]
        for k in cards[:2] + cards[-1:]:
            for space in COLOURS:
                for a, b in itertools.combinations_with_replacement(cubes, 2):
                    cage = tuple(c for src, c in (a, b) if src == "cage")
                    storage = tuple(c for src, c in (a, b) if src == "storage")
                    out.append(mv.Substitute(card=k, space=space, cage=cage, storage=storage))
                    if len(cage) == 2 and cage[0] != cage[1]:
                        out.append(mv.Substitute(card=k, space=space, cage=cage[::-1], storage=storage))
    elif s.decision == "keep_tile":
        out += [mv.KeepTile(tile=t) for t in [None, *s.revealed, "t48"]]
    elif s.decision == "keep_order":
        out += [mv.KeepOrder(card=c) for c in [None, *s.revealed, "o44"]]
    elif s.decision in ("return_tiles", "return_orders"):
        rest = tuple(s.revealed)
        for to in ("top", "bottom", "middle"):
            for items in (rest, rest[::-1], rest[1:]):
                out.append(mv.ReturnTiles(to=to, tiles=items) if s.decision == "return_tiles"
                           else mv.ReturnOrders(to=to, cards=items))
    elif s.decision == "choose_coal":
        out += [mv.ChooseCoal(colour=c) for c in COLOURS]
    return out


def check_position(s: CoalBaronState) -> int:
    legal = list(s.legal_moves())
    assert len(legal) == len(set(map(repr, legal))), "a move is listed twice"
    accepted = set()
    for m in legal + candidates(s):
        trial = s.copy()
        try:
            trial.apply_move(s.actor, m)
        except IllegalMove as exc:
            assert s.actor in str(exc)
            continue
        accepted.add(repr(m))
    assert accepted == set(map(repr, legal))
    return len(legal)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 5_000), players=st.sampled_from([2, 3, 4]))
def test_legal_moves_are_exactly_the_accepted_moves(seed: int, players: int) -> None:
    rec = simulate_one(GAME, players, seed, 3, observe_every=0)
    s = GAME.initial_state(rec.player_ids, rec.options)
    assert isinstance(s, CoalBaronState)
    checked = 0
    for i, ev in enumerate(rec.events):
        if isinstance(ev, MoveEvent):
            routine = ev.move.type in ("place_workers", "move_cage", "load_coal", "stop_mining")
            if i % 6 == 0 or not routine:
                checked += check_position(s)
            s.apply_move(ev.player, ev.move)
        elif hasattr(ev, "outcome"):
            s.apply_chance(ev.outcome)
    assert checked > 0


def test_the_worked_example_of_the_docs_replays() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert block is not None
    rec = loads(json.dumps(json.loads(block.group(1))))
    r = replay(rec)
    assert r.status == "incomplete" and not r.divergences
    assert r.totals == {"p1": 3, "p2": 0}


WORDS = st.sampled_from(["yellow", "brown", "grey", "black", "purple", "", "cage", "storage", "top", "bottom",
                         "o1", "o44", "o45", "t1", "t48", "t0", "bank_1", "mining_4", "order_1", "canteen"])


@st.composite
def any_move(draw: st.DrawFn) -> Move:
    w = lambda: draw(WORDS)  # noqa: E731
    words = lambda: tuple(draw(st.lists(WORDS, max_size=3)))  # noqa: E731
    return draw(st.sampled_from([
        mv.DraftOrder(card=w()), mv.PlaceWorkers(space=w()), mv.MoveCage(level=draw(st.integers(-3, 7))),
        mv.LoadCoal(colour=w()), mv.StoreCoal(colour=w()), mv.FillOrder(card=w(), colour=w(), source=w()),
        mv.Substitute(card=w(), space=w(), cage=words(), storage=words()), mv.StopMining(),
        mv.KeepTile(tile=w()), mv.ReturnTiles(to=w(), tiles=words()), mv.KeepOrder(card=w()),
        mv.ReturnOrders(to=w(), cards=words()), mv.ChooseCoal(colour=w()),
    ]))


@settings(max_examples=20, deadline=None)
@given(cut=st.integers(0, 400), moves=st.lists(any_move(), min_size=1, max_size=25))
def test_garbage_moves_are_refused_with_reasons_never_crash(cut: int, moves: list[Move]) -> None:
    rec = simulate_one(GAME, 3, 21, 0, observe_every=0)
    s = GAME.initial_state(rec.player_ids, rec.options)
    assert isinstance(s, CoalBaronState)
    for ev in rec.events[:cut]:
        if isinstance(ev, MoveEvent):
            s.apply_move(ev.player, ev.move)
        elif hasattr(ev, "outcome"):
            s.apply_chance(ev.outcome)
    if not isinstance(s.turn(), str):
        return
    legal = set(map(repr, s.legal_moves()))
    before = s.state_hash()
    for m in moves:
        trial = s.copy()
        try:
            trial.apply_move(s.actor, m)
        except IllegalMove as exc:
            assert repr(m) not in legal and str(exc).startswith(s.actor + " ")
            assert trial.state_hash() == before, "a refused move changed the state"
        else:
            assert repr(m) in legal
