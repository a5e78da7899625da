"""Win chances by rollouts: determinism, no look into the record's future, the end, calibration."""

from __future__ import annotations

import random
from typing import Any

import pytest

from replay.analysis import (
    KNOWN,
    RESAMPLE,
    Alternative,
    Estimate,
    Settings,
    TurningPoint,
    _apart,
    analyse,
    calibrate,
    positions,
    strength,
    turning_points,
)
from replay.engine import Game
from replay.games import get_game
from replay.record import ChanceEvent, MoveEvent, Record
from replay.simulate import simulate_one

from ..toygame import Bank
from . import cardtoy

ZONED = cardtoy.GAME

FAST = Settings(rollouts=12, agent="random", explain=1, alternatives=3)


def toy_record(index: int, game: Game = ZONED) -> Record:
    return simulate_one(game, 2, 5, index, observe_every=0, agents=["greedy", "random"])


def chances(a: Any) -> dict[int, dict[str, float]]:
    return {pos.seq: {p: e.chance for p, e in pos.chances.items()} for pos in a.positions}


def test_estimate_interval_and_error() -> None:
    e = Estimate(48.0, 64)
    lo, hi = e.interval()
    assert lo < 0.75 < hi and 0.6 < lo and hi < 0.86
    assert Estimate(64.0, 64).interval()[1] == 1.0 and Estimate(64.0, 64).interval()[0] > 0.9
    assert Estimate(0.0, 64).std_error() > 0


def test_analysis_is_deterministic_and_sums_to_one() -> None:
    rec = toy_record(0)
    a, b = analyse(rec, FAST), analyse(rec, FAST)
    assert chances(a) == chances(b)
    assert [t.verdict() for t in a.turning_points] == [t.verdict() for t in b.turning_points]
    for pos in a.positions:
        assert sum(e.chance for e in pos.chances.values()) == pytest.approx(1.0)
    assert len(a.positions) > 3


def test_more_rollouts_extend_the_same_rollouts() -> None:
    """The rollout count is not part of the seed: 2 rollouts are the first 2 of 4."""
    rec = toy_record(1)
    state = positions(rec)[0][1].state
    from replay.analysis import per_rollout
    two = per_rollout(state, rec.id, 3, Settings(rollouts=2, agent="random"))
    four = per_rollout(state, rec.id, 3, Settings(rollouts=4, agent="random"))
    assert four[:2] == two


def test_a_finished_game_is_won_for_sure() -> None:
    rec = toy_record(2)
    a = analyse(rec, FAST)
    end = a.positions[-1]
    assert end.mover is None and end.move_seq is None
    assert rec.result is not None
    rank = rec.result["rank"]
    first = [p for p in rec.player_ids if rank[p] == 1]
    for p, e in end.chances.items():
        assert e.chance == (1.0 / len(first) if p in first else 0.0)
        assert e.rollouts == FAST.rollouts


def test_turn_starts_and_decisions() -> None:
    rec = simulate_one(get_game("copenhagen"), 2, 4, 0, observe_every=0)
    turns, _ = positions(rec, "turns")
    decisions, _ = positions(rec, "decisions")
    moves = [i for i, e in enumerate(rec.events) if isinstance(e, MoveEvent)]
    assert [p.move_seq for p in decisions[:-1]] == moves
    assert len(turns) < len(decisions)
    for p in turns[1:-1]:
        prev = max(i for i in moves if i < p.move_seq)  # type: ignore[operator]
        ev, before = rec.events[p.move_seq], rec.events[prev]  # type: ignore[index]
        assert isinstance(ev, MoveEvent) and isinstance(before, MoveEvent) and ev.player != before.player


def _private_draw_and_its_play(rec: Record) -> list[tuple[int, int, str]]:
    """(draw seq, play seq, colour) for p2's single-card private draws later played by p2."""
    out = []
    for k, ev in enumerate(rec.events):
        if isinstance(ev, ChanceEvent) and len(ev.outcome.get("items") or []) == 1 and k > 0:
            before = rec.events[k - 1]
            if not (isinstance(before, MoveEvent) and before.player == "p2"):
                continue
            colour = ev.outcome["items"][0]
            for m in range(k + 1, len(rec.events)):
                later = rec.events[m]
                if isinstance(later, MoveEvent) and later.player == "p2" and later.move.to_dict()["colour"] == colour:
                    out.append((k, m, colour))
                    break
    return out


def _swapped(rec: Record, k: int, m: int, colour: str) -> Record:
    events = list(rec.events)
    ev_k, ev_m = events[k], events[m]
    assert isinstance(ev_k, ChanceEvent) and isinstance(ev_m, MoveEvent)
    events[k] = ChanceEvent({**ev_k.outcome, "items": [colour]})
    events[m] = MoveEvent(ev_m.player, type(ev_m.move)(colour=colour))  # type: ignore[call-arg]
    return Record(rec.game, rec.id, rec.players, events, dict(rec.options), result=None)


def test_rollouts_never_see_the_future_of_the_record() -> None:
    """Change what p2 drew face down (and the later play that shows it): the chances before the play
    must not move when hidden cards are resampled; taken as known, they do move (so the test can fail)."""
    settings = Settings(rollouts=16, agent="random", explain=0)
    for index in range(12):
        rec = toy_record(index)
        for k, m, colour in _private_draw_and_its_play(rec):
            for other in cardtoy.CARDS:
                if other == colour:
                    continue
                changed = _swapped(rec, k, m, other)
                known_a = chances(analyse(rec, Settings(**{**settings.__dict__, "hidden": KNOWN})))
                known_b = chances(analyse(changed, Settings(**{**settings.__dict__, "hidden": KNOWN})))
                before = [s for s in known_a if s < m]
                if not all(s in known_b for s in before):
                    continue  # the changed record breaks a rule before the play: not a fair comparison
                if not any(s >= k for s in before) or all(known_a[s] == known_b[s] for s in before):
                    continue  # the change did not matter even with the cards known: not a useful case
                a = chances(analyse(rec, settings))
                b = chances(analyse(changed, settings))
                shared = [s for s in a if s < m]
                assert shared and all(s in b for s in shared)
                assert all(a[s] == b[s] for s in shared), (rec.id, k, m, colour, other)
                return
    pytest.fail("no record with a private draw whose change mattered: the test found nothing to check")


def test_a_future_public_draw_does_not_move_earlier_chances() -> None:
    """Copenhagen: cut the record short, or change a later harbour draw: earlier chances stay put."""
    rec = simulate_one(get_game("copenhagen"), 2, 6, 0, observe_every=0, agents=["random", "random"])
    settings = Settings(rollouts=2, agent="random", explain=0, method="rollouts")
    cut = 40
    short = Record(rec.game, rec.id, rec.players, rec.events[:cut], dict(rec.options))
    a = analyse(short, settings)
    draws = [i for i, e in enumerate(rec.events) if i >= cut and isinstance(e, ChanceEvent)]
    changed_events = list(rec.events[:cut + 10])
    k = draws[0]
    ev = changed_events[k]
    assert isinstance(ev, ChanceEvent)
    items = list(ev.outcome["items"])
    swap = next(c for c in ("red", "blue", "green", "yellow", "purple") if c != items[0])
    changed_events[k] = ChanceEvent({**ev.outcome, "items": [swap, *items[1:]]})
    b = analyse(Record(rec.game, rec.id, rec.players, changed_events, dict(rec.options)), settings)
    ca, cb = chances(a), chances(b)
    assert ca and all(cb[s] == v for s, v in ca.items())


def test_alternatives_include_the_played_move_and_name_the_best() -> None:
    rec = toy_record(3)
    a = analyse(rec, Settings(rollouts=12, agent="random", explain=2, alternatives=3))
    explained = [t for t in a.turning_points if t.alternatives]
    for t in explained:
        played = [x for x in t.alternatives if x.played]
        assert len(played) == 1
        ev = rec.events[t.seq]
        assert isinstance(ev, MoveEvent) and played[0].move == ev.move
        assert t.delta < 0 and "fell" in t.verdict(a.names)
        best = max(t.alternatives, key=lambda x: x.estimate.chance)
        if best.estimate.chance > played[0].estimate.chance:
            kept, against = _apart(best.estimate.chance, played[0].estimate.chance)
            assert f"kept {kept} against {against}" in t.verdict() and kept != against
        elif len(t.alternatives) > 1:
            assert f"none of the {len(t.alternatives) - 1} other moves tried kept more" in t.verdict()


def test_a_turning_points_verdict_in_words() -> None:
    """The best alternative shown apart from the played move (a decimal more when whole percents tie);
    a move that was the player's only one said so."""
    def point(*chances: float) -> TurningPoint:
        alts = [Alternative(Bank(), f"move {i}", Estimate.of_model(c), i == 0) for i, c in enumerate(chances)]
        return TurningPoint(5, "p1", Estimate.of_model(0.5), Estimate.of_model(0.3), 9, "p1 moves", alts)

    names = {"p1": "Ana"}
    assert point(0.862, 0.864).verdict(names) == \
        "p1 moves: Ana's chance fell from 50% to 30%; move 1 kept 86.4% against 86.2%"
    assert point(0.40, 0.60).verdict(names).endswith("; move 1 kept 60% against 40%")
    assert point(0.40, 0.30).verdict(names).endswith("; none of the 1 other moves tried kept more (40% for the "
                                                     "move played)")
    assert point(0.40).verdict(names).endswith("; it was the only move Ana had")


def test_turning_points_ignore_changes_within_the_noise() -> None:
    rec = toy_record(4)
    a = analyse(rec, FAST)
    for pos in a.positions:
        pos.chances = {p: Estimate(pos.seq % 2 * 0.02 * 12, 12) for p in pos.chances}
    assert turning_points(a.positions, rec) == []


def test_calibration_on_a_small_simulated_set() -> None:
    """Loose bounds: the estimates carry information (better than no skill) and the 0-20% / 80-100%
    bins are won rarely / mostly."""
    cal = calibrate("cardtoy", 20, 1, Settings(rollouts=16, agent="greedy"), players=2,
                    players_agent="greedy", every=1, convergence=(4, 8))
    assert len(cal.pairs) > 40
    assert cal.brier() < cal.baseline_brier()
    bins = {(lo, hi): (n, won) for lo, hi, n, won in cal.bins()}
    low_n, low_won = bins[(0.0, 0.2)]
    high_n, high_won = bins[(0.8, 1.0)]
    assert low_n >= 5 and high_n >= 5
    assert low_won < 0.4 and high_won > 0.6
    assert cal.convergence[4] > cal.convergence[8] > 0


def test_strength_of_the_greedy_agent() -> None:
    share, n = strength("cardtoy", 20, 2)
    assert n == 20 and 0.0 <= share <= 1.0


def test_settings_are_checked() -> None:
    from replay.analysis import AnalysisError
    with pytest.raises(AnalysisError):
        Settings(rollouts=0)
    with pytest.raises(AnalysisError):
        Settings(agent="oracle")
    with pytest.raises(AnalysisError):
        Settings(hidden="peek")


def test_determinise_deals_unknown_hands_from_what_is_left() -> None:
    from replay.analysis import determinise
    rec = simulate_one(ZONED, 2, 9, 0, observe_every=0, view="p1")
    chart, _ = positions(rec, hidden=RESAMPLE)
    state = chart[1].state
    assert isinstance(state, cardtoy.CardState)
    assert state.hands["p2"].get(None, 0) > 0
    for seed in range(20):  # some deals give a card the hand already holds: it must be bound all the same
        dealt = state.copy()
        determinise(dealt, random.Random(seed))
        assert isinstance(dealt, cardtoy.CardState)
        assert all(None not in h for h in dealt.hands.values())
        assert sum(dealt.hands["p2"].values()) == sum(state.hands["p2"].values())
        assert dealt.deck.pool.unknown == state.deck.pool.unknown - sum(h.get(None, 0) for h in state.hands.values())



def test_bench_rows_have_a_rate_and_a_whole_game_estimate() -> None:
    from benchmarks.win_chances import bench_rollouts, run
    r = bench_rollouts("copenhagen", "random", samples=2, per_position=1)
    assert r["rollouts"] == 2 and r["rollouts_per_s"] > 0 and r["positions"] > 10
    assert r["analyse_s"] == pytest.approx((r["positions"] * 64 + 3 * 6 * 64) / r["rollouts_per_s"])
    rows = run(True, ["cardtoy"])
    assert [row["metric"] for row in rows] == ["analyse cardtoy (greedy rollouts)", "analyse cardtoy (random rollouts)"]
    assert all(row["unit"] == "rollouts/s" and row["value"] > 0 for row in rows)


def test_copenhagen_starting_hands_are_unknown_to_the_public_and_dealt_per_rollout() -> None:
    from replay.analysis import determinise
    rec = simulate_one(get_game("copenhagen"), 2, 4, 1, observe_every=0)
    public = positions(rec, "turns", RESAMPLE)[0][0].state
    known = positions(rec, "turns", KNOWN)[0][0].state
    zones = public.unknown_zones()
    assert zones and all(n > 0 for n, _, _ in zones.values())
    assert known.unknown_zones() == {}
    for seed in range(10):
        dealt = public.copy()
        determinise(dealt, random.Random(seed))
        assert dealt.unknown_zones() == {}
        assert dealt.cards.unknown == public.cards.unknown - sum(n for n, _, _ in zones.values())
    assert public.unknown_zones() == zones  # the position itself is untouched


def test_a_rollout_that_does_not_end_is_counted_and_left_out_never_the_whole_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import replay.analysis as analysis

    rec = toy_record(0)
    full = analyse(rec, FAST)
    assert full.capped == 0
    lengths: list[int] = []
    real = analysis.play_out

    def short_limit(state: Any, rng: random.Random, agent: str) -> Any:
        # the first rollout of every batch "does not end": as if it hit the event limit
        lengths.append(1)
        if len(lengths) % 4 == 1:
            raise analysis.RolloutCapped("a rollout did not end within 50000 events")
        return real(state, rng, agent)

    monkeypatch.setattr(analysis, "play_out", short_limit)
    a = analyse(rec, FAST)
    assert a.capped > 0 and len(a.positions) == len(full.positions)
    for pos in a.positions[:-1]:  # every position still has chances, from the rollouts that ended
        (e, *_) = pos.chances.values()
        assert 0 < e.rollouts <= FAST.rollouts
        assert abs(sum(x.chance for x in pos.chances.values()) - 1) < 1e-9
    assert a.capped == sum(FAST.rollouts - next(iter(p.chances.values())).rollouts for p in a.positions) + sum(
        FAST.rollouts - alt.estimate.rollouts for t in a.turning_points for alt in t.alternatives)


def test_alternatives_name_every_player_a_move_names() -> None:
    """A Perikles nomination names the nominee as well as the mover: both read as names, never as ids."""
    from replay.analysis import state_before, value_alternatives
    from replay.evaluator import load_model
    from replay.games.perikles.moves import Nominate

    model = load_model("perikles")
    assert model is not None
    rec = simulate_one(get_game("perikles"), 3, 4, 0, observe_every=0, agents=["greedy"] * 3)
    rec.players = [{**p, "name": f"Name{i}"} for i, p in enumerate(rec.players)]
    seq, ev = next((i, e) for i, e in enumerate(rec.events)
                   if isinstance(e, MoveEvent) and isinstance(e.move, Nominate) and e.move.nominee != e.player)
    state = state_before(rec, seq, RESAMPLE, ev.player)
    texts = [alt.words for alt in value_alternatives(state, ev.player, ev.move, rec, model, 4)]
    nominees = {m.nominee for m in state.legal_moves() if isinstance(m, Nominate)}
    assert len(nominees) > 1
    for text in texts:
        assert "nominates Name" in text and text.startswith("Name"), text
        assert not any(pid in text.split() for pid in rec.player_ids), text
