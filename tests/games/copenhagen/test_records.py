"""Records: corrupted records are caught at the right event; legal moves agree exactly with the rules."""

from __future__ import annotations

import copy
import random

import orjson
from copenhagen_helpers import GAME, new_game
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.engine import OVER, ChanceRequest, IllegalMove, Move, RuleViolation
from replay.games.copenhagen.components import components
from replay.games.copenhagen.geometry import placements
from replay.games.copenhagen.moves import Build
from replay.games.copenhagen.state import CopenhagenState
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import replay
from replay.simulate import sample_outcome, simulate_one


def sim(players: int = 3, seed: int = 11) -> Record:
    return simulate_one(GAME, players, seed, 0, observe_every=6)


def first(rec: Record) -> tuple[int, str, str]:
    r = replay(rec)
    assert r.divergences, "the corruption went unnoticed"
    d = r.divergences[0]
    return d.seq, d.kind, d.message


def test_every_observable_key_is_checked() -> None:
    rec = sim()
    state = GAME.initial_state(rec.player_ids, rec.options)
    cut = 40
    for seq, ev in enumerate(rec.events[:cut]):
        state.seq = seq
        if isinstance(ev, MoveEvent):
            state.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            state.apply_chance(ev.outcome)
    facts = state.observe()
    assert set(facts) == set(GAME.observable_keys)
    good = copy.deepcopy(rec)
    good.events.insert(cut, ObserveEvent(copy.deepcopy(facts), "human"))
    assert replay(good).status == "complete"
    for key, sub in (("covered", "p2"), ("hand_size", "p1"), ("deck_size", None), ("legal_count", None)):
        wrong = copy.deepcopy(facts[key])
        if sub is None:
            wrong += 1
        else:
            wrong[sub] += 1
        bad = copy.deepcopy(good)
        bad.events[cut] = ObserveEvent({key: wrong}, "human")
        r = replay(bad)
        assert [(d.seq, d.kind) for d in r.divergences] == [(cut, "observation_mismatch")], key
    bad = copy.deepcopy(good)
    harbour = list(facts["harbour"])
    harbour[0] = "mermaid"
    bad.events[cut] = ObserveEvent({"harbour": harbour}, "human")
    assert first(bad)[:2] == (cut, "observation_mismatch")


def test_score_off_by_one() -> None:
    rec = sim()
    i, ev = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, ObserveEvent) and i > 60)
    ev.facts["score"]["p2"] += 1
    r = replay(rec)
    assert [(d.seq, d.kind, d.key) for d in r.divergences] == [(i, "observation_mismatch", "score.p2")]


def test_wrong_player_dropped_chance_after_end_truncated() -> None:
    rec = sim()
    i, ev = [(i, e) for i, e in enumerate(rec.events) if isinstance(e, MoveEvent)][10]
    bad = copy.deepcopy(rec)
    bad.events[i] = MoveEvent("p3" if ev.player != "p3" else "p1", ev.move)
    assert first(bad)[:2] == (i, "wrong_player")

    j = next(j for j, e in enumerate(rec.events[:-1])
             if j > 30 and isinstance(e, ChanceEvent) and isinstance(rec.events[j + 1], MoveEvent))
    bad = copy.deepcopy(rec)
    del bad.events[j]
    seq, kind, message = first(bad)
    assert (seq, kind) == (j, "missing_chance") and "facade deck (refill harbour slot" in message

    bad = copy.deepcopy(rec)
    bad.events.append(MoveEvent("p1", GAME.parse_move({"type": "end_turn"})))
    bad.result = None
    assert first(bad)[:2] == (len(bad.events) - 1, "events_after_end")

    bad = copy.deepcopy(rec)
    bad.events = bad.events[:100]
    bad.result = None
    r = replay(bad)
    assert r.status == "incomplete" and not r.divergences


def test_an_illegal_build_is_reported_with_the_rule() -> None:
    rec = sim()
    i, ev = next((i, e) for i, e in enumerate(rec.events)
                 if isinstance(e, MoveEvent) and isinstance(e.move, Build) and e.move.y == 0)
    assert isinstance(ev, MoveEvent) and isinstance(ev.move, Build)
    raw = orjson.loads(dumps(rec))
    raw["events"][i]["move"]["y"] = 8 - (raw["events"][i]["move"]["rotation"] in (90, 270)) * 4
    seq, kind, message = first(loads(orjson.dumps(raw)))
    assert (seq, kind) == (i, "illegal_move")
    assert message.startswith(f"{ev.player} cannot build the {ev.move.size}-cell {ev.move.color} tile at")
    assert "float" in message or "stick out" in message


def test_a_hand_edited_second_card_from_the_emptied_slot() -> None:
    rec = sim(2, 5)
    raw = orjson.loads(dumps(rec))
    events = raw["events"]
    i = next(i for i in range(len(events) - 1)
             if events[i].get("move", {}).get("type") == "take_card"
             and events[i + 1].get("move", {}).get("type") == "take_card")
    first_slot = events[i]["move"]["slot"]
    events[i + 1]["move"]["slot"] = first_slot
    seq, kind, message = first(loads(orjson.dumps(raw)))
    assert (seq, kind) == (i + 1, "illegal_move")
    assert message.startswith(f"{events[i]['player']} cannot take a second card from harbour slot {first_slot + 1}: "
                              "that slot is empty")


def test_an_official_game_replays_the_same_under_bga() -> None:
    """BGA's only departure (a refresh with nothing to turn back) widens the choices, so an
    official game is a BGA game too (the legal counts aside, which the extra choice changes)."""
    for seed in (21, 22):
        rec = simulate_one(GAME, 4, seed, 0, options={"ruleset": "official"})
        rec.events = [e for e in rec.events if not (isinstance(e, ObserveEvent) and "legal_count" in e.facts)]
        other = copy.deepcopy(rec)
        other.options = {"ruleset": "bga"}
        a, b = replay(rec), replay(other)
        assert a.status == b.status == "complete"
        assert a.state is not None and b.state is not None
        assert a.state.state_hash() == b.state.state_hash()


# ---- legal moves agree exactly with what the rules accept ----------------


def _candidates(s: CopenhagenState, rng: random.Random) -> list[Move]:
    """Builds the rules may or may not allow: every tile, sampled positions, several payments."""
    comp = components()
    out: list[Move] = []
    for tile, shape in comp.shapes.items():
        if shape.color == comp.white:
            continue
        for pl in rng.sample(placements(tile), 6):
            for cost in range(max(0, shape.size - 2), shape.size + 1):
                for cd in (False, True):
                    out.append(Build(color=shape.color, size=shape.size, x=pl.x, y=pl.y,
                                     rotation=pl.orientation.rotation, flip=pl.orientation.flip,
                                     pay={shape.color: cost} if cost else {}, construction_discount=cd))
                    frm = rng.choice([c for c in comp.colors if c != shape.color])
                    for k in range(1, cost + 1):
                        pay = {shape.color: cost - k} if cost - k else {}
                        pay[frm] = k
                        out.append(Build(color=shape.color, size=shape.size, x=pl.x, y=pl.y,
                                         rotation=pl.orientation.rotation, flip=pl.orientation.flip,
                                         pay=pay, construction_discount=cd, change_from=frm))
    return out


def _key(m: Move) -> bytes:
    return orjson.dumps(m.to_dict(), option=orjson.OPT_SORT_KEYS)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=100_000), players=st.integers(min_value=2, max_value=4))
def test_legal_moves_are_exactly_what_the_rules_accept(seed: int, players: int) -> None:
    rng = random.Random(seed)
    s = new_game(players)
    for pid in s.players:  # every ability in play, so every payment path is exercised
        for a in ("additional_card", "construction_discount", "change_of_colors", "both_actions"):
            s.seats[pid].gain_ability(a)
    checked = 0
    for step in range(160):
        t = s.turn()
        if t is OVER:
            break
        if isinstance(t, ChanceRequest):
            s.reveal(sample_outcome(t, rng))
            continue
        assert isinstance(t, str)
        moves = list(s.legal_moves())
        assert s.legal_count() == len(moves)
        assert len({_key(m) for m in moves}) == len(moves), "no move is listed twice"
        if s.step in ("start", "build_after_taking") and step % 3 == 0:
            listed = {_key(m) for m in moves}
            for cand in _candidates(s, rng):
                trial = s.copy()
                try:
                    trial.apply_move(t, cand)
                    accepted = True
                except IllegalMove:
                    accepted = False
                assert accepted == (_key(cand) in listed), cand
                checked += 1
        move = moves[rng.randrange(len(moves))]
        try:
            s.apply_move(t, move)
        except RuleViolation as exc:  # pragma: no cover - a listed move must be accepted
            raise AssertionError(f"listed move refused: {move}: {exc}") from None
    assert checked > 0
