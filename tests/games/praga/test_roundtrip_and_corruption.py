"""Simulated games replay complete (every player count, both rulesets); legal moves are exactly what the
rules accept; corrupted records and bad moves are reported where they happen, in words."""

from __future__ import annotations

import copy
import dataclasses

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from praga_helpers import legal, new_game

from replay.engine import ChanceRequest, IllegalMove
from replay.games.praga import GAME
from replay.games.praga import moves as m
from replay.games.praga.components import ACTIONS, GRID_NAMES, POSITIONS, ROWS, SEALS, SPACES, TECHS
from replay.games.praga.geometry import CENTRE, WALL_SLOTS
from replay.games.praga.rules.free_actions import EXTRA_PAYMENTS
from replay.games.praga.scoring import CATEGORIES
from replay.record import ChanceEvent, MoveEvent, ObserveEvent
from replay.replayer import replay
from replay.simulate import simulate_one


@settings(max_examples=8, deadline=None)
@given(seed=hs.integers(0, 10_000), n=hs.integers(2, 4), bga=hs.booleans())
def test_simulated_games_replay_complete(seed: int, n: int, bga: bool) -> None:
    rec = simulate_one(GAME, n, seed, 0, observe_every=9, options={"ruleset": "bga"} if bga else None)
    r = replay(rec)
    assert r.status == "complete", [d.to_dict() for d in r.divergences]
    assert rec.result is not None
    for pid, cats in r.score.items():
        assert tuple(cats) == CATEGORIES
        assert sum(cats.values()) == rec.result["score"][pid]
    kinds = {x["type"] for x in r.milestones}
    assert {"era_change", "final_scoring"} <= kinds


def test_every_player_count_and_the_extra_observables_replay() -> None:
    for n in (2, 3, 4):
        rec = simulate_one(GAME, n, 3, n)
        st = GAME.initial_state(rec.player_ids, rec.options)
        for i, ev in enumerate(rec.events):
            st.seq = i
            if isinstance(ev, MoveEvent):
                st.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                st.apply_chance(ev.outcome)
        obs = st.observe()
        assert set(obs) == set(GAME.observable_keys)
        rec.events.append(ObserveEvent({k: obs[k] for k in ("resources", "tracks", "round", "era")}, "simulator"))
        assert replay(rec).status == "complete"


def test_legal_moves_are_exactly_what_the_rules_accept() -> None:
    """At sampled decisions every listed move is accepted, and near-miss moves are refused."""
    rec = simulate_one(GAME, 3, 21, 0)
    st = GAME.initial_state(rec.player_ids, rec.options)
    probes = [m.TakeTile(position=p) for p in range(10)] + [m.Climb(grid="cathedral"), m.EndTurn(),
                                                            m.RotateTile(rotation=6), m.PickTile(slot=3)]
    checked = 0
    for i, ev in enumerate(rec.events):
        if isinstance(ev, MoveEvent) and i % 3 == 0:
            listed = legal(st)
            for mv in listed + probes:
                trial = st.copy()
                try:
                    trial.apply_move(ev.player, mv)
                    ok = True
                except IllegalMove:
                    ok = False
                assert ok == (mv in listed), (i, mv)
                checked += 1
        if isinstance(ev, MoveEvent):
            st.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            st.apply_chance(ev.outcome)
    assert st.is_over() and checked > 500


def _probes() -> list[m.Move]:
    """Every move the menu, a display row or a placement could be asked for, legal or not: each field
    over its whole domain and a little beyond."""
    wall_slots = [*WALL_SLOTS, CENTRE, "9,9"]
    return [
        *(m.TakeTile(position=p) for p in range(-1, len(POSITIONS) + 2)),
        *(m.Climb(grid=g) for g in (*GRID_NAMES, "bridge")),
        *(m.ExtraAction(action=a, pay=pay) for a in (*ACTIONS, "dance") for pay in (*EXTRA_PAYMENTS, "eggs")),
        *(m.SwapTiles(row=r) for r in (*ROWS, "crane")),
        *(m.ClaimSeal(seal=x) for x in (*sorted(SEALS), "no_seal")),
        *(m.UseTechnology(tech=t) for t in sorted(TECHS)),
        m.EndTurn(),
        *(m.PickTile(slot=i) for i in range(-1, 6)),
        m.SkipAction(),
        *(m.PlaceTile(at=at) for at in (*wall_slots, *sorted(SPACES), "b99")),
        m.ChooseAction(action="wall"), m.RotateTile(rotation=0), m.Manage(mode="produce"),
    ]


@pytest.mark.parametrize(("n", "ruleset"), [(2, "official"), (3, "bga"), (4, "official")])
def test_the_checked_path_accepts_exactly_the_listed_moves(n: int, ruleset: str) -> None:
    """A record's move is checked by its own rule, not looked up in the list of legal moves: at every
    decision of a whole game, every probe is accepted exactly when it is listed, and one refused
    leaves the state as it was, with the refusal's reason."""
    rec = simulate_one(GAME, n, 7, n, options={"ruleset": ruleset})
    st = GAME.initial_state(rec.player_ids, rec.options)
    probes = _probes()
    kinds: set[str] = set()
    for i, ev in enumerate(rec.events):
        st.seq = i
        if isinstance(ev, MoveEvent):
            dec = st.pending()
            assert dec is not None
            kinds.add(dec.kind)
            listed = legal(st)
            before = st.snapshot()
            for mv in [*listed, *probes]:
                accepted = type(mv) in dec.accepted and dec.check(st, ev.player, mv) is None
                assert accepted == (mv in listed), (i, dec.kind, mv)
                if mv not in listed and i % 5 == 0:
                    with pytest.raises(IllegalMove) as refused:
                        st.apply_move(ev.player, mv)
                    reason = dec.check(st, ev.player, mv) if type(mv) in dec.accepted else dec.refuse(st, ev.player, mv)
                    assert str(refused.value) == reason
            assert st.snapshot() == before
            st.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            st.apply_chance(ev.outcome)
    assert st.is_over() and {"turn", "pick_tile", "place"} <= kinds


def test_copy_is_independent_and_snapshot_is_plain_json() -> None:
    rec = simulate_one(GAME, 4, 5, 1)
    r = replay(rec, until=150)
    st = r.state
    assert st is not None
    before = st.snapshot()
    assert orjson.loads(orjson.dumps(before)) == before
    twin = st.copy()
    for _ in range(30):
        t = twin.turn()
        if isinstance(t, ChanceRequest):
            break
        twin.play(str(t), legal(twin)[0])
    assert st.snapshot() == before
    assert {"p", "crane", "crane_view", "display", "city", "bridge", "stacks", "turn", "decision"} <= set(before)


def test_moves_read_as_sentences() -> None:
    rec = simulate_one(GAME, 2, 8, 2)
    st = GAME.initial_state(rec.player_ids, rec.options)
    for ev in rec.events:
        if isinstance(ev, MoveEvent):
            text = st.describe_move(ev.player, ev.move)
            assert text.startswith(ev.player + " ") and not text.startswith(f"{ev.player}: ")
            st.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            st.apply_chance(ev.outcome)


def test_bga_record_under_the_rulebook_diverges_at_a_street_space() -> None:
    """BGA's either/or street spaces leave the official engine awaiting the free effect's choice."""
    for i in range(12):
        rec = simulate_one(GAME, 2, 40, i, options={"ruleset": "bga"})
        clean = replay(rec)
        assert clean.status == "complete"
        r = replay(dataclasses.replace(rec, options={"ruleset": "official"}))
        if any(isinstance(e, MoveEvent) and e.move.type == "road_egg" for e in rec.events):
            assert r.status == "diverged"
            return
    pytest.fail("no simulated BGA game paid an egg on a street space")


def test_corruptions_are_caught_at_their_event() -> None:
    rec = simulate_one(GAME, 3, 9, 0, observe_every=6)
    # a chance outcome naming a tile not in the stack
    bad = copy.deepcopy(rec)
    i = next(i for i, e in enumerate(bad.events) if isinstance(e, ChanceEvent) and "draw" in e.outcome
             and e.outcome["draw"] == "wall_I")
    ev = bad.events[i]
    assert isinstance(ev, ChanceEvent)
    ev.outcome["items"][0] = "WII-01"
    d = replay(bad).divergences[0]
    assert (d.seq, d.kind) == (i, "impossible_chance") and "WII-01" in d.message
    # a resources observation off by one
    bad = copy.deepcopy(rec)
    st = GAME.initial_state(bad.player_ids, bad.options)
    j = next(i for i, e in enumerate(bad.events) if isinstance(e, MoveEvent) and e.move.type == "end_turn")
    for e in bad.events[: j + 1]:
        if isinstance(e, MoveEvent):
            st.apply_move(e.player, e.move)
        elif isinstance(e, ChanceEvent):
            st.apply_chance(e.outcome)
    res = copy.deepcopy(st.observables()["resources"])
    res["p2"]["gold"] += 1
    bad.events.insert(j + 1, ObserveEvent({"resources": res}, "simulator"))
    divs = replay(bad).divergences
    assert [(x.seq, x.kind) for x in divs] == [(j + 1, "observation_mismatch")]


def test_bad_moves_explain_the_rule() -> None:
    st = new_game(3)
    with pytest.raises(IllegalMove, match="p1 cannot choose action now: p1 must"):
        st.apply_move("p1", m.ChooseAction(action="wall"))
    with pytest.raises(IllegalMove, match="once per turn|cannot pay an extra action with 2 gold and 0 silver"):
        st.apply_move("p1", m.ExtraAction(action="wall", pay="two_gold"))
    with pytest.raises(IllegalMove, match="no action tile on blue space 1"):
        st.apply_move("p1", m.TakeTile(position=7))
    with pytest.raises(IllegalMove, match="holds no stored technology T3-1"):
        st.apply_move("p1", m.UseTechnology(tech="T3-1"))
    st.apply_move("p1", m.TakeTile(position=5))  # notch W11: buy an egg for a stone, or not
    with pytest.raises(IllegalMove, match="p1 cannot take tile now: p1 must first choose one of the offered"):
        st.apply_move("p1", m.TakeTile(position=4))
    with pytest.raises(IllegalMove, match=r"p1 has 2 rewards to choose from: 0: nothing; 1: pay 1 stone, 1 egg"):
        st.apply_move("p1", m.ChooseReward(option=2))
