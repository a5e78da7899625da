"""Game review's record rebuilding and stepping agree with the replayer."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics import queries as q
from analytics.queries import run
from analytics.review import (
    CHECKPOINT_EVERY,
    ReviewError,
    Stepper,
    describe_event,
    record_for_game,
    record_from_rows,
)
from replay.games import get_game
from replay.record import ObserveEvent, dumps, loads
from replay.replayer import state_at
from replay.simulate import simulate_one

from .conftest import DIVERGED_ID, TITLES


@pytest.mark.parametrize("title", TITLES)
def test_steps_match_the_replayer(title: str) -> None:
    game = get_game(title)
    record = simulate_one(game, game.min_players, 5, 0)
    stepper = Stepper(record)
    n = len(record.events)
    seqs = sorted({0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, n // 2, n - 1})
    for seq in seqs:
        step = stepper.step(seq)
        expected = state_at(record, seq)
        assert step.snapshot == expected.snapshot(), seq
        assert step.score == expected.score()
        assert step.words
    # stepping backwards gives the same as stepping forwards
    assert stepper.step(seqs[1]).snapshot == state_at(record, seqs[1]).snapshot()
    assert stepper.milestones == state_at(record, n - 1).milestones
    with pytest.raises(IndexError):
        stepper.step(n)


def test_records_rebuild_exactly_from_the_database(sample_db: Path) -> None:
    for gid in run(sample_db, q.game_list).get_column("game_id"):
        rec = run(sample_db, record_for_game, game_id=gid)
        raw = run(sample_db, q.game_record_raw, game_id=gid)
        assert rec is not None and dumps(rec) == dumps(loads(raw))
        # and from the events table alone, as if the raw record were not kept
        rows = record_from_rows(run(sample_db, q.game_header, game_id=gid),
                                run(sample_db, q.game_players, game_id=gid),
                                run(sample_db, q.game_events, game_id=gid))
        assert [e.to_dict() for e in rows.events] == [e.to_dict() for e in rec.events]
        assert rows.player_ids == rec.player_ids and rows.options.get("ruleset", "official") == \
            rec.options.get("ruleset", "official")
    assert run(sample_db, record_for_game, game_id="no-such-game") is None


def test_diverged_game_steps_past_its_divergence(sample_db: Path) -> None:
    rec = run(sample_db, record_for_game, game_id=DIVERGED_ID)
    stepper = Stepper(rec)
    first = run(sample_db, q.game_divergences, game_id=DIVERGED_ID).get_column("seq")[0]
    step = stepper.step(first)
    assert step.kind == "observe" and "score" in step.words
    assert stepper.stopped_at is None  # an observation mismatch does not stop the replay


def test_illegal_move_stops_the_board_there() -> None:
    record = simulate_one(get_game(TITLES[0]), 2, 9, 0)
    moves = [i for i, e in enumerate(record.events) if e.kind == "move"]
    bad = moves[len(moves) // 2]
    other = [p for p in record.player_ids if p != record.events[bad].player][0]
    record.events[bad].player = other  # a move by the wrong player
    stepper = Stepper(record)
    assert stepper.stopped_at == bad and "wrong_player" in (stepper.stop_reason or "")
    at_bad = stepper.step(bad + 3)
    assert at_bad.stopped_at == bad
    assert at_bad.snapshot == state_at(record, bad - 1).snapshot()
    assert "to move" not in at_bad.turn and f"stopped the replay at event {bad}" in at_bad.turn
    assert "to move" in stepper.step(bad - 1).turn


def test_describe_chance_and_observe_events() -> None:
    record = simulate_one(get_game(TITLES[0]), 2, 2, 0)
    state = get_game(TITLES[0]).initial_state(record.player_ids, record.options)
    chance = next(e for e in record.events if e.kind == "chance")
    assert describe_event(state, chance).startswith("Chance:")
    observe = next(e for e in record.events if e.kind == "observe")
    text = describe_event(state, observe, {"p1": "Ana"})
    assert text.startswith("The record notes") and "Ana" in text
    facts = describe_event(state, ObserveEvent({"legal_count": 20, "state_hash": "ab12", "end_pit_balance": {"p1": 3}}),
                           {"p1": "Ana"})
    assert facts.endswith("legal moves 20; state hash ab12; end pit balance Ana 3")  # words, not keys (issue 26)


def test_unknown_title_is_a_review_error() -> None:
    record = simulate_one(get_game(TITLES[0]), 2, 2, 0)
    record.game = "chess"  # no engine of that name
    with pytest.raises(ReviewError):
        Stepper(record)


def test_decisive_events_from_a_timeline() -> None:
    import polars as pl

    from analytics.review import decisive_events

    # p2 leads at 3, p1 catches up at 5 (tie), p1 leads alone from 8 with a +7 jump in "b"
    tl = pl.DataFrame({
        "seq": [3, 5, 8, 8, 12],
        "player_id": ["p2", "p1", "p1", "p1", "p2"],
        "category": ["a", "a", "a", "b", "a"],
        "points": [2, 2, 3, 7, 4],
    })
    events = decisive_events(tl, {"p1": "Ana"})
    assert events[0] == (8, "Ana leads alone from here to the end")
    assert events[1] == (8, "biggest gain: Ana +8 (a, b)")
    tie = pl.DataFrame({"seq": [1, 1], "player_id": ["p1", "p2"], "category": ["a", "a"], "points": [1, 1]})
    assert [t for _, t in decisive_events(tie)] == ["biggest gain: p1 +1 (a)"]
    assert decisive_events(tl.clear()) == []


def test_jump_targets_merge_everything_by_event() -> None:
    from analytics.review import jump_targets

    milestones = [{"type": "shift_ranking", "seq": 40}, {"type": "shift_ranking", "seq": 40},
                  {"type": "dominance_check", "seq": 12}]
    jumps = jump_targets([12, 30], ["observation_mismatch", "illegal_move"], milestones, 99,
                         [(30, "Ana leads alone from here to the end")])
    assert list(jumps) == [None, 12, 30, 40, 99]
    assert jumps[12] == "event 12: divergence (observation mismatch); dominance check"
    assert jumps[30] == "event 30: Ana leads alone from here to the end; divergence (illegal move)"
    assert jumps[40] == "event 40: shift ranking ×2"
    assert jumps[99] == "event 99: the end"


def test_a_player_without_score_rows_is_on_zero_not_absent() -> None:
    import polars as pl

    from analytics.review import decisive_events
    from dashboard import charts

    # only Ben ever scores, first at event 91: until then both are on 0 and nobody leads
    tl = pl.DataFrame({"seq": [91, 120], "player_id": ["p2", "p2"], "category": ["a", "a"], "points": [3, 5]})
    names = {"p1": "Ana", "p2": "Ben"}
    assert decisive_events(tl, names)[0] == (91, "Ben leads alone from here to the end")
    spec = charts.score_timeline(tl, 0, [], names).to_dict()
    titles = [panel.get("title") for panel in spec["vconcat"]]
    assert titles == ["Ana (p1)", "Ben (p2)"]
    assert spec["vconcat"][0]["mark"]["type"] == "text" and "no points in any category" in str(spec["datasets"])
    assert spec["resolve"]["scale"]["y"] == "shared"


def test_biggest_gain_during_play_leaves_out_the_final_scoring() -> None:
    import polars as pl

    from analytics.review import decisive_events

    tl = pl.DataFrame({"seq": [10, 20, 99], "player_id": ["p1", "p2", "p1"], "category": ["a", "a", "end"],
                       "points": [3, 5, 40]})
    names = {"p1": "Ana", "p2": "Ben"}
    assert decisive_events(tl, names)[-1] == (99, "biggest gain: Ana +40 (end)")
    assert decisive_events(tl, names, last_seq=99)[-1] == (20, "biggest gain during play: Ben +5 (a)")


def test_a_move_in_words_names_its_player_not_the_id() -> None:
    from replay.engine import with_names
    from replay.record import ChanceEvent, MoveEvent

    names = {"84101012": "Birch1", "84101011": "Amber1"}
    assert with_names("84101012 builds; 84101011 waits; 840101012 is no id", names) == (
        "Birch1 builds; Amber1 waits; 840101012 is no id")
    for title in ("pax_pamir", "coal_baron", "copenhagen"):
        game = get_game(title)
        record = simulate_one(game, 2, 2, 0)
        ids = {pid: f"Name{i}" for i, pid in enumerate(record.player_ids)}
        state = game.initial_state(record.player_ids, record.options)
        for ev in record.events[:60]:
            if isinstance(ev, MoveEvent):
                text = describe_event(state, ev, ids)
                assert ids[ev.player] in text and f"({ev.player})" not in text, text
                state.apply_move(ev.player, ev.move)
            elif isinstance(ev, ChanceEvent):
                assert "deck deck" not in describe_event(state, ev, ids)
                state.apply_chance(ev.outcome)
