"""Protocol properties: legal moves are exactly what the engine accepts, copies are
independent, snapshots are plain deterministic JSON, moves read as words."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pax_pamir_helpers import GAME, setup, to_court, to_hand

from benchmarks.replay_speed import pass_heavy
from replay.decisions import LeaveTable
from replay.engine import OVER, ChanceRequest, IllegalMove, Move
from replay.games.pax_pamir.components import BORDER_IDS, COALITIONS, REGIONS, SUITS
from replay.games.pax_pamir.market import check_buy
from replay.games.pax_pamir.moves import Buy, MoveAction, Play, TaxMarket
from replay.games.pax_pamir.state import SUIT_RANKS, PaxState
from replay.record import ChanceEvent, MoveEvent
from replay.simulate import sample_outcome

FIELD_VALUES: dict[str, list[Any]] = {
    "row": [0, 1, 2], "col": [0, 3, 5, 6], "card": [1, 9, 29, 62, 101, 0], "side": ["left", "right", "up"],
    "value": [2, 3, 4, 6], "blocks": [0, 1, 3, 4, 6], "target": [5, 29, 62], "region": [*REGIONS[:3], "x"],
    "court_card": [5, 29], "amount": [0, 1, 2, 5], "border": [*BORDER_IDS[:3], "x"], "to": ["kabul", "punjab", 29, 5],
    "piece": ["army:kabul", "tribe:herat", "spy:29", "gift:2", "road:kabul_punjab"],
    "player": ["p1", "p2", "p3", "p9"], "coalition": [*COALITIONS, "x"], "suit": [*SUITS, "x"],
    "action": ["play", "tax", "battle", "gift", "x"],
}


def random_moves(rng: random.Random, n: int) -> list[Move]:
    out: list[Move] = []
    for _ in range(n):
        cls = rng.choice([m for m in GAME.moves if m is not LeaveTable])  # (accepted, never legal: test_zombie)
        kwargs = {}
        for f in cls.__struct_fields__:
            choices = FIELD_VALUES[f]
            if f == "to" and cls.__name__ == "MoveSpy":
                choices = [29, 5, 62]
            elif f == "to":
                choices = ["kabul", "punjab", "herat"]
            kwargs[f] = rng.choice(choices)
        if cls.__name__ == "Battle":
            kwargs = {"card": rng.choice([1, 29]), rng.choice(["region", "court_card"]): rng.choice([5, 29])
                      if rng.random() < 0.5 else "kabul"}
            if isinstance(kwargs.get("court_card"), str) or isinstance(kwargs.get("region"), int):
                kwargs = {"card": 29, "region": "kabul"}
        out.append(cls(**kwargs))
    return out


@pytest.mark.parametrize("ruleset", ["official", "bga"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_legal_moves_are_exactly_the_accepted_moves(ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    s = GAME.initial_state(["p1", "p2", "p3"], {"ruleset": ruleset})
    assert isinstance(s, PaxState)
    steps = 0
    while s.turn() is not OVER and steps < 400:
        t = s.turn()
        if isinstance(t, ChanceRequest):
            s.apply_chance(sample_outcome(t, rng))
            continue
        assert isinstance(t, str)
        legal = list(s.legal_moves())
        assert len(legal) == len(set(legal)) == s.legal_count()
        for m in random_moves(rng, 6) + legal[:3]:
            trial = s.copy()
            try:
                trial.apply_move(t, m)
                accepted = True
            except IllegalMove:
                accepted = False
            assert accepted == (m in legal), (m, type(s.stack[-1]).__name__)
        s.apply_move(t, rng.choice(legal))
        steps += 1


def test_copy_is_independent() -> None:
    s = setup()
    to_court(s, "p1", 9)
    h = s.state_hash()
    c = s.copy()
    c.apply_move("p1", Buy(row=0, col=2))
    c.apply_move("p1", MoveAction(card=9))
    assert s.state_hash() == h and c.state_hash() != h
    assert s.hands["p1"] == [] and s.market[0][2] == 48


def test_snapshot_is_plain_json_and_deterministic() -> None:
    s = setup(4)
    to_hand(s, "p1", 7)
    s.apply_move("p1", Play(card=7, side="left"))
    snap = s.snapshot()
    assert orjson.loads(orjson.dumps(snap)) == snap
    assert snap["map"]["regions"]["kabul"]["tribes"] == {"p1": 2}
    assert snap["pending"][-1]["task"] == "SpyTask"
    assert s.copy().state_hash() == s.state_hash()


def test_moves_read_as_words_and_the_heuristic_prefers_points() -> None:
    s = setup()
    # as a player names the cell: top or bottom row, columns counted from 1 at the left (the record's col 1)
    assert s.describe_move("p1", Buy(row=0, col=1)) == "p1 buys Khyber Pass (the top row, column 2 of the market)"
    assert s.describe_move("p1", TaxMarket(row=1, col=0)) == "p1 takes a rupee from the bottom row, column 1 of the market"
    assert check_buy(s, "p1", 2, 0) == ("p1 cannot buy at row 2, col 0 (the record's numbers; the market has "
                                        "rows 0-1 and cols 0-5)")
    assert s.describe_move("p1", Play(card=7, side="left")) == "p1 plays Dost Mohammad on the left of their court"
    for m in random_moves(random.Random(1), 60):
        assert s.describe_move("p2", m).startswith("p2 ")
    before = s.evaluate("p1")
    s.vp["p1"]["dominance_successful"] = 5
    assert s.evaluate("p1") > before


def test_every_declared_observable_key_is_observed() -> None:
    s = setup(3)
    obs = s.observe()
    assert set(obs) == set(GAME.observable_keys)
    assert obs["rupees"] == {"p1": 4, "p2": 4, "p3": 4}
    assert obs["loyalty"] == {"p1": "afghan", "p2": "british", "p3": "russian"}
    assert obs["favored_suit"] == "political" and obs["deck_size"] == 46
    assert obs["blocks"] == {"afghan": 0, "british": 0, "russian": 0}
    assert obs["influence"] == {"p1": 1, "p2": 1, "p3": 1}
    assert s.phase() == (1, "actions")


def test_observed_facts_after_a_quiet_pass_are_the_facts_made_afresh() -> None:
    """Observations reused while nothing observable can have changed (passes that needed no
    cleanup) agree with facts made afresh after every event of pass-heavy games; every
    other event moves the epoch on."""
    keys = tuple(k for k in GAME.observable_keys if k not in ("legal_count", "state_hash"))
    reused = 0
    for rec in pass_heavy("pax_pamir", 4, seed=5):
        s = GAME.initial_state(rec.player_ids, rec.options)
        for ev in rec.events:
            if not isinstance(ev, (MoveEvent, ChanceEvent)):
                continue
            before, epoch = s.observed(keys), s.epoch
            cleanup = isinstance(ev, MoveEvent) and ev.move.type == "end_turn"
            if isinstance(ev, MoveEvent):
                s.apply_move(ev.player, ev.move)
            else:
                s.apply_chance(ev.outcome)
            fresh = s.copy().observed(keys)
            assert fresh["influence"] == {p: s.influence(p) if s.loyalty[p] else 0 for p in s.players}
            assert orjson.dumps(s.observed(keys)) == orjson.dumps(fresh)
            if s.epoch == epoch:
                assert cleanup and s.observed(keys) is before
                reused += 1
            else:
                assert s.epoch == epoch + 1
    assert reused > 100


def _kept_facts_agree_with_fresh_ones(records: list[Any]) -> int:
    """After every event: the facts :meth:`PaxState.observed` hands out (kept until what they
    count changes) equal the facts made afresh on a copy; returns how many facts were kept."""
    keys = tuple(k for k in GAME.observable_keys if k not in ("legal_count", "state_hash"))
    kept = 0
    for rec in records:
        s = GAME.initial_state(rec.player_ids, rec.options)
        before = s.observed(keys)
        for ev in rec.events:
            if isinstance(ev, MoveEvent):
                s.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                s.apply_chance(ev.outcome)
            else:
                continue
            facts = s.observed(keys)
            fresh = s.copy().observe(keys)
            assert orjson.dumps(facts) == orjson.dumps(fresh), f"{rec.id}: event {ev}"
            for p in s.players:  # stars are kept too, until the court changes
                for suit, ranks in SUIT_RANKS.items():
                    assert s.stars(p, suit) == sum(ranks.get(c, 0) for c in s.courts[p]), f"{rec.id}: {ev}"
            kept += sum(facts[k] is before[k] for k in ("influence", "cylinders", "blocks", "hand_size"))
            before = facts
    return kept


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_facts_kept_between_observations_are_the_facts_made_afresh(ruleset: str) -> None:
    """Influence, deck size, pieces in play and hand sizes are kept until a rule changes what
    they count: after every event of games played by the simulator's agents (every action,
    event card and Dominance Check they reach), under both rulesets, they agree with facts
    made afresh."""
    from replay.simulate import simulate

    records = list(simulate("pax_pamir", 6, seed=11, observe_every=0, options={"ruleset": ruleset}))
    assert _kept_facts_agree_with_fresh_ones(records) > 100


def test_facts_kept_between_observations_follow_unknown_cards_named_later() -> None:
    """A seat's record (market cards drawn unknown, named by later reveals) keeps its facts right too."""
    from replay.simulate import simulate

    records = list(simulate("pax_pamir", 3, seed=12, observe_every=0, view="p2"))
    assert _kept_facts_agree_with_fresh_ones(records) > 100


def _same_as_the_general_path(records: list[Any]) -> int:
    """Every event applied by the checked path (with its shortcuts for the usual cases), on a
    copy by the general checks of :class:`State` (each task in turn), and a move on another
    copy by the trusted path, leaves the same state; returns how
    many turns ended by ``end_turn`` passed at once (their cleanup had nothing to do)."""
    from replay.engine import State

    quiet = 0
    for rec in records:
        s = GAME.initial_state(rec.player_ids, rec.options)
        assert isinstance(s, PaxState)
        for ev in rec.events:
            if not isinstance(ev, (MoveEvent, ChanceEvent)):
                continue
            general = s.copy()
            trusted = s.copy()
            stack = list(s.stack)
            if isinstance(ev, MoveEvent):
                s.apply_move(ev.player, ev.move)
                State.apply_move(general, ev.player, ev.move)
                trusted.play(ev.player, ev.move)
                assert trusted.snapshot() == s.snapshot(), f"{rec.id}: {ev}"
                if ev.move.type == "end_turn" and len(stack) == len(s.stack) and all(
                        a is b for a, b in zip(stack, s.stack, strict=True)):
                    quiet += 1  # the same two tasks serve the next turn
            else:
                s.apply_chance(ev.outcome)
                State.apply_chance(general, ev.outcome)
            assert s.snapshot() == general.snapshot(), f"{rec.id}: {ev}"
            assert (s.epoch, s.phase(), s.turn()) == (general.epoch, general.phase(), general.turn()), f"{rec.id}: {ev}"
    return quiet


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_the_checked_path_leaves_the_state_the_general_checks_leave(ruleset: str) -> None:
    """A turn ended with nothing to clean up passes to the next player at once (the same
    cleanup and action-phase tasks serve the next turn); any other event goes through its
    task.  Either way the state after every event of pass-heavy games and of the simulator's
    games is the state the general checks of the core leave."""
    from replay.simulate import simulate, simulate_one

    options = {"ruleset": ruleset}
    records = [*(simulate_one(GAME, n, 8, i, observe_every=0, options=options, agents=["passing"] * n)
                 for i, n in enumerate((2, 3, 4))),
               *simulate("pax_pamir", 3, seed=9, observe_every=0, options=options)]
    assert _same_as_the_general_path(records) > 100
