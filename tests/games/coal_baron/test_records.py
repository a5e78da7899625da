"""Records: corruption is reported at the right event with the right kind; observables; moves in
words; copies are independent."""

from __future__ import annotations

import copy

import orjson
import pytest
from coal_baron_helpers import GAME, place, setup

from replay.record import ChanceEvent, MoveEvent, ObserveEvent, Record, loads
from replay.replayer import replay
from replay.simulate import simulate_one


@pytest.fixture(scope="module")
def record() -> Record:
    return simulate_one(GAME, 3, 11, 0)


def first(rec: Record) -> tuple[int, str]:
    r = replay(rec)
    assert r.divergences, "the corruption went unnoticed"
    return r.divergences[0].seq, r.divergences[0].kind


def test_francs_observation_off_by_one(record: Record) -> None:
    rec = copy.deepcopy(record)
    i = next(i for i, e in enumerate(rec.events) if isinstance(e, MoveEvent) and e.move.type == "place_workers")
    rec.events.insert(i, ObserveEvent({"francs": {"p1": 9, "p2": 9, "p3": 10}, "shift": 1}, "bga"))
    r = replay(rec)
    assert [(d.seq, d.kind, d.key, d.recorded, d.replayed) for d in r.divergences] == [
        (i, "observation_mismatch", "francs.p3", 10, 9)]


def test_legal_count_off_by_one(record: Record) -> None:
    rec = copy.deepcopy(record)
    i, ev = next((i, e) for i, e in enumerate(rec.events)
                 if isinstance(e, ObserveEvent) and e.facts.get("legal_count"))
    ev.facts["legal_count"] += 1
    assert first(rec) == (i, "observation_mismatch")


def test_wrong_player_in_the_draft(record: Record) -> None:
    rec = copy.deepcopy(record)
    i, ev = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, MoveEvent))
    assert ev.move.type == "draft_order" and ev.player == "p3"   # the draft starts right of the start player
    ev.player = "p1"
    assert first(rec) == (i, "wrong_player")


def test_dropped_refill_is_a_missing_chance(record: Record) -> None:
    rec = copy.deepcopy(record)
    i = next(i for i, e in enumerate(rec.events) if i > 20 and isinstance(e, ChanceEvent)
             and isinstance(rec.events[i + 1], MoveEvent))
    del rec.events[i]
    assert first(rec) == (i, "missing_chance")


def test_a_card_drawn_twice_is_impossible(record: Record) -> None:
    rec = copy.deepcopy(record)
    draft_pool = rec.events[1]
    assert isinstance(draft_pool, ChanceEvent) and draft_pool.outcome["draw"] == "orders"
    i, ev = next((i, e) for i, e in enumerate(rec.events) if i > 1 and isinstance(e, ChanceEvent)
                 and e.outcome["draw"] == "orders")
    ev.outcome["items"][0] = draft_pool.outcome["items"][0]
    assert first(rec) == (i, "impossible_chance")


def test_illegal_move_stops_the_replay_with_a_reason(record: Record) -> None:
    rec = copy.deepcopy(record)
    i, ev = next((i, e) for i, e in enumerate(rec.events)
                 if isinstance(e, MoveEvent) and e.move.type == "place_workers")
    rec.events[i] = MoveEvent(ev.player, GAME.parse_move({"type": "place_workers", "space": "delivery_4"}))
    r = replay(rec)
    d = r.divergences[0]
    assert (d.seq, d.kind) == (i, "illegal_move") and len(r.frames) == i
    assert d.message == f"{ev.player} cannot place workers on delivery_4: {ev.player} has no completed engine order to deliver"


def test_move_of_the_wrong_kind_is_explained(record: Record) -> None:
    rec = copy.deepcopy(record)
    i, ev = next((i, e) for i, e in enumerate(rec.events)
                 if isinstance(e, MoveEvent) and e.move.type == "place_workers")
    rec.events[i] = MoveEvent(ev.player, GAME.parse_move({"type": "move_cage", "level": 2}))
    r = replay(rec)
    assert r.divergences[0].message == (f"{ev.player} cannot move the cage now: "
                                        f"{ev.player} must place workers on a work space")


def test_move_after_the_end_and_truncation(record: Record) -> None:
    rec = copy.deepcopy(record)
    rec.events.append(MoveEvent("p1", GAME.parse_move({"type": "stop_mining"})))
    rec.result = None
    assert first(rec) == (len(rec.events) - 1, "events_after_end")
    short = copy.deepcopy(record)
    short.events = short.events[:150]
    short.result = None
    r = replay(short)
    assert r.status == "incomplete" and not r.divergences
    with_result = copy.deepcopy(record)
    with_result.events = with_result.events[:150]
    assert first(with_result) == (149, "result_mismatch")  # reported at the last event


def test_wrong_final_rank_is_a_result_mismatch(record: Record) -> None:
    rec = copy.deepcopy(record)
    assert rec.result is not None
    winner = next(p for p, r in rec.result["rank"].items() if r == 1)
    rec.result["rank"][winner] = 2
    assert first(rec)[1] == "result_mismatch"


def test_record_with_unknown_move_field_is_invalid() -> None:
    raw = {"format": "gamerec/1", "game": "coal_baron", "id": "x", "players": [{"id": "p1"}, {"id": "p2"}],
           "events": [{"player": "p1", "move": {"type": "place_workers", "space": "bank_1", "n": 1}}]}
    with pytest.raises(Exception, match="events\\[0\\].move"):
        loads(orjson.dumps(raw))


def test_observables_and_phase() -> None:
    st = setup(2)
    obs = st.observe(["francs", "workers", "shift", "start_player", "cage_level", "outstanding", "delivered"])
    assert obs == {"francs": {"p1": 10, "p2": 10}, "workers": {"p1": 18, "p2": 18}, "shift": 1,
                   "start_player": "p1", "cage_level": {"p1": 0, "p2": 0}, "outstanding": {"p1": 3, "p2": 3},
                   "delivered": {"p1": 0, "p2": 0}}
    assert set(obs) | {"score", "legal_count", "state_hash", "shift_ranking", "final_scoring"} == set(GAME.observable_keys)
    assert st.phase() == (1, "work")
    place(st, "mining_10")
    assert st.phase() == (1, "mining")


def test_moves_in_words() -> None:
    st = setup(2)
    words = {st.describe_move("p1", m) for m in st.legal_moves()}
    assert "p1 places 1 worker on mining (10 work steps)" in words
    assert "p1 places 1 worker on mine cart factory 1 to buy t1 (dark yellow, 1 minecart, 1 francs)" in words
    assert "p1 places 1 worker on new orders 4 to take o7 (barrow, 7 VP)" in words


def test_copy_is_independent() -> None:
    st = setup(2)
    before = st.state_hash()
    trial = st.copy()
    place(trial, "factory_1")
    trial.pits["p1"].outstanding[0].spots[0].append(0)
    assert st.state_hash() == before and trial.state_hash() != before
    assert st.snapshot() == copy.deepcopy(st).snapshot()


def test_every_move_of_a_game_has_words_and_every_snapshot_is_json() -> None:
    rec = simulate_one(GAME, 4, 3, 2, observe_every=0)
    st = GAME.initial_state(rec.player_ids, rec.options)
    kinds = set()
    for ev in rec.events:
        if isinstance(ev, MoveEvent):
            text = st.describe_move(ev.player, ev.move)
            assert text.startswith(ev.player + " ") and not text.startswith(f"{ev.player}: ")
            kinds.add(ev.move.type)
            st.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            snap = st.snapshot()
            assert snap["chance"]["deck"] == ev.outcome["draw"] and snap["turn"] is None
            st.apply_chance(ev.outcome)
        orjson.dumps(st.snapshot())
    assert {"draft_order", "place_workers", "move_cage"} <= kinds


def test_every_move_type_has_words_for_an_error() -> None:
    from replay.games.coal_baron.moves import MOVES
    assert all(isinstance(m.__dict__.get("doing"), str) and m.doing for m in MOVES)  # type: ignore[attr-defined]
    assert len({m.doing for m in MOVES}) == len(MOVES)  # type: ignore[attr-defined]
