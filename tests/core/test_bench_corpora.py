"""The benchmark's corpora (pass-heavy agents, an observation after every turn) and the fast
observation check: agreeing observations pass, every disagreeing leaf is still reported."""

from __future__ import annotations

import copy
from typing import Any

import orjson

from benchmarks.replay_speed import pass_heavy, rich_keys, with_turn_observations
from replay.games import get_game
from replay.record import MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import Divergence, _compare_observation, replay


def _observed(game_id: str = "pax_pamir") -> Record:
    return with_turn_observations(pass_heavy(game_id, 1, seed=3)[0])


def test_passing_agents_end_most_turns_at_once() -> None:
    rec = pass_heavy("pax_pamir", 1, seed=3)[0]
    moves = [e.move.type for e in rec.events if isinstance(e, MoveEvent)]
    assert moves.count("end_turn") > len(moves) / 3
    assert replay(rec).status == "complete"


def test_an_observation_after_every_turn_replays_clean() -> None:
    rec = _observed()
    obs = [e for e in rec.events if isinstance(e, ObserveEvent)]
    r = replay(rec)
    assert r.state is not None
    assert len(obs) >= r.state.phase()[0] - 1  # type: ignore[operator]
    assert set(obs[0].facts) == set(rich_keys(get_game("pax_pamir")))
    assert r.status == "complete" and not r.divergences


def test_every_disagreeing_leaf_of_an_observation_is_reported() -> None:
    rec = copy.deepcopy(_observed())
    i = next(i for i, e in enumerate(rec.events) if isinstance(e, ObserveEvent))
    ev = rec.events[i]
    assert isinstance(ev, ObserveEvent)
    facts = ev.facts
    p1_rupees = facts["rupees"]["p1"]
    facts["rupees"]["p1"] = p1_rupees + 1
    facts["market"][0][0] = -1
    r = replay(rec)
    keys = {d.key for d in r.divergences if d.seq == i}
    assert keys == {"rupees.p1", "market"}


class _Facts:
    """A stand-in state whose observed facts are given."""

    def __init__(self, facts: dict[str, Any]) -> None:
        self.facts = facts

    def observed(self, keys: Any) -> dict[str, Any]:
        return {k: self.facts.get(k) for k in keys}


def test_a_boolean_for_a_number_is_a_mismatch_even_though_python_calls_them_equal() -> None:
    divs: list[Divergence] = []
    state = _Facts({"blocks": {"afghan": 1, "british": 0}, "deck_size": 1})
    _compare_observation(state, 7, {"blocks": {"afghan": True, "british": 0}, "deck_size": 1},  # type: ignore[arg-type]
                         divs)
    assert [(d.seq, d.key, d.recorded, d.replayed) for d in divs] == [(7, "blocks.afghan", True, 1)]
    divs.clear()
    _compare_observation(state, 8, {"blocks": {"afghan": 1}, "deck_size": 1}, divs)  # type: ignore[arg-type]
    assert divs == [], "a recorded subset of a mapping is compared leaf by leaf"


def test_observed_and_observe_agree_and_observe_copies() -> None:
    rec = _observed()
    r = replay(rec)
    s = r.state
    assert s is not None
    keys = ["score", *rich_keys(get_game("pax_pamir"))]
    assert s.observed(keys) == s.observe(keys)
    facts = s.observe(keys)
    facts["courts"]["p1"].append(999)
    facts["market"][0][0] = 999
    assert 999 not in s.observe(["courts"])["courts"]["p1"]
    assert s.observe(["market"])["market"][0][0] != 999


def test_a_record_without_booleans_compares_its_observations_as_plain_values() -> None:
    """``loads`` tells whether a record's text holds a JSON boolean; without one its
    observations are compared as plain values, and a wrong value is still caught."""
    from replay.record import dumps, loads

    text = dumps(_observed())
    assert not loads(text).booleans and loads(text).sha256
    assert replay(loads(text)).status == "complete"
    wrong = loads(text.replace(b'"dominance_checks":0', b'"dominance_checks":7', 1))
    assert not wrong.booleans
    assert [(d.kind, d.key, d.recorded, d.replayed) for d in replay(wrong).divergences] == [
        ("observation_mismatch", "dominance_checks", 7, 0)]
    as_bool = loads(text.replace(b'"dominance_checks":0', b'"dominance_checks":false', 1))
    assert as_bool.booleans
    assert [(d.key, d.recorded, d.replayed) for d in replay(as_bool).divergences] == [
        ("dominance_checks", False, 0)]


def _repeated_observations(text: bytes) -> list[int]:
    """Indexes of observations whose text repeats the observation before them (a quiet turn)."""
    from replay.record import loads

    rec = loads(text)
    seqs = sorted(rec.observation_texts)
    return [b for a, b in zip(seqs, seqs[1:]) if rec.observation_texts[a] == rec.observation_texts[b]]


def test_an_observation_is_settled_by_its_text_only_when_it_repeats_one_that_agreed() -> None:
    """A record read from JSON keeps each observation's text; the replayer settles an
    observation of unchanged facts by its text when it is the text of the last observation
    that agreed with them.  A changed text of unchanged facts is still compared leaf by leaf,
    as is every observation after one that disagreed, booleans included."""
    from replay.record import dumps, loads

    text = dumps(_observed())
    rec = loads(text)
    assert rec.observation_texts and all(isinstance(rec.events[i], ObserveEvent) for i in rec.observation_texts)
    repeats = _repeated_observations(text)
    assert len(repeats) > 50, "quiet turns repeat the observation before them"
    assert replay(rec).status == "complete"
    # change one repeated observation's text (only that event's): caught at that event alone
    events = orjson.loads(text)["events"]
    target = repeats[len(repeats) // 2]
    events[target]["observe"]["rupees"]["p1"] += 1
    wrong = loads(orjson.dumps({**orjson.loads(text), "events": events}))
    assert {d.seq for d in replay(wrong).divergences} == {target}
    # an observation repeating the one before after the facts changed: caught
    events = orjson.loads(text)["events"]
    seqs = sorted(rec.observation_texts)
    a, b = next((a, b) for a, b in zip(seqs, seqs[1:]) if rec.observation_texts[a] != rec.observation_texts[b])
    events[b]["observe"] = events[a]["observe"]
    stale = loads(orjson.dumps({**orjson.loads(text), "events": events}))
    assert b in {d.seq for d in replay(stale).divergences}
    # a boolean in two repeated observations: neither agrees (true is never 1)
    events = orjson.loads(text)["events"]
    first = repeats[0] - 1
    while "observe" not in events[first]:
        first -= 1
    for i in (first, repeats[0]):
        assert events[i]["observe"]["influence"]["p1"] == 1
        events[i]["observe"]["influence"]["p1"] = True
    as_bool = loads(orjson.dumps({**orjson.loads(text), "events": events}))
    assert as_bool.booleans
    got = {(d.seq, d.key) for d in replay(as_bool).divergences}
    assert got == {(first, "influence.p1"), (repeats[0], "influence.p1")}



def test_a_partial_observation_in_a_record_holds_or_names_its_wrong_leaf() -> None:
    """BGA's observations name a few facts of one player (``rupees.p1`` alone): one that holds
    leaves the replay clean; a wrong leaf, or a boolean for a number, is reported at its key."""
    rec = _observed()
    # an observation where p1 holds exactly 1 rupee: ``true`` equals it in Python, not in JSON
    i = next(i for i, e in enumerate(rec.events) if isinstance(e, ObserveEvent) and e.facts["rupees"]["p1"] == 1)
    for facts, want in (({"rupees": {"p1": 1}}, set()),
                        ({"rupees": {"p1": 2}}, {"rupees.p1"}),
                        ({"rupees": {"p1": 1}, "market": [[-1]]}, {"market"}),
                        ({"rupees": {"p1": True}}, {"rupees.p1"})):
        edited = copy.deepcopy(rec)
        ev = edited.events[i]
        assert isinstance(ev, ObserveEvent)
        ev.facts = facts
        r = replay(loads(dumps(edited)))
        assert {d.key for d in r.divergences} == want, facts
