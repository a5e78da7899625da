"""The value model: training on tiny data, the version check, determinism, the value agent, and the
analysis by the value method (issue 30)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replay.analysis import (
    RESAMPLE,
    ROLLOUTS,
    VALUE,
    VALUE_TURN,
    AnalysisError,
    Settings,
    ValueCalibration,
    analyse,
    calibrate_value,
    positions,
    state_before,
    turning_points,
)
from replay.engine import OVER, ChanceRequest, with_names
from replay.evaluator import (
    DRAWS,
    META_FILE,
    MODEL_FILE,
    ModelError,
    ValueModel,
    after_move,
    feature_set,
    installed,
    load_model,
    looked_ahead,
    settled,
    win_shares,
)
from replay.games import GAME_IDS, get_game
from replay.games.copenhagen import features as F
from replay.record import ChanceEvent, MoveEvent, Record
from replay.simulate import AGENTS, ValueAgent, simulate_one
from replay.training import Trained, TrainingError, train, write

GAME = "copenhagen"


@pytest.fixture(scope="module")
def tiny() -> Trained:
    """A Copenhagen model from 6 greedy games and 6 of its own agent (seconds)."""
    return train(GAME, games=6, seed=3, iterations=2, players=2, command="test")


@pytest.fixture
def model(tiny: Trained) -> Iterator[ValueModel]:
    with installed(tiny.model) as m:
        yield m


@pytest.fixture
def no_praga_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Praga as a title without a value model (its shipped one set aside while the test runs)."""
    from replay import evaluator

    monkeypatch.setitem(evaluator._installed, "praga", None)


def _record(index: int, agents: list[str] | None = None) -> Record:
    return simulate_one(get_game(GAME), 2, 11, index, observe_every=0, agents=agents or ["greedy", "greedy"])


def test_training_writes_a_small_model_that_loads(tiny: Trained, tmp_path: Path) -> None:
    folder = write(tiny, tmp_path)
    assert (folder / MODEL_FILE).stat().st_size < 500_000
    meta = json.loads((folder / META_FILE).read_text())
    fs = feature_set(GAME)
    assert fs is not None
    assert meta["format"] == 1 and meta["game"] == GAME and meta["names"] == fs.row_names
    assert meta["trained"]["games"] == 6 and meta["trained"]["iterations"] == 2 and meta["trained"]["seed"] == 3
    loaded = ValueModel.from_files(GAME, folder)
    chart, _ = positions(_record(0), "turns")
    for pos in chart:
        assert loaded.chances(pos.state) == tiny.model.chances(pos.state)


def test_the_same_command_gives_a_byte_identical_model(tiny: Trained) -> None:
    again = train(GAME, games=6, seed=3, iterations=2, players=2, command="test")
    assert again.text == tiny.text and again.meta == tiny.meta
    spread = train(GAME, games=6, seed=3, iterations=2, players=2, command="test", workers=2)
    assert spread.text == tiny.text and spread.meta == tiny.meta  # the games played in two processes
    other = train(GAME, games=6, seed=4, iterations=1, players=2, command="test")
    assert other.text != tiny.text


def test_exploring_games_are_the_asked_share_of_the_later_iterations() -> None:
    from replay.training import line_up

    assert [line_up(0, k, 2, 0.5) for k in range(2)] == [["greedy", "greedy"]] * 2  # the first: greedy only
    ups = [line_up(1, k, 3, 0.25) for k in range(8)]
    assert [u for u in ups if u == ["exploring"] * 3] == [["exploring"] * 3] * 2
    assert ups[3] == ups[7] == ["exploring"] * 3  # spread over the iteration
    assert all(line_up(1, k, 2, 0.0) != ["exploring"] * 2 for k in range(20))
    assert all(line_up(2, k, 2, 1.0) == ["exploring"] * 2 for k in range(5))


def test_the_exploring_agent_plays_a_random_move_at_one_decision_in_ten(model: ValueModel,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.simulate import ExploringAgent

    rec = simulate_one(get_game(GAME), 2, 11, 3, observe_every=0, agents=["exploring", "value"])
    assert rec.result is not None  # a whole legal game
    seq = next(i for i, ev in enumerate(rec.events) if i >= 40 and isinstance(ev, MoveEvent)
               and len(list(state_before(rec, i, RESAMPLE, ev.player).legal_moves())) > 4)
    mover = rec.events[seq].player  # type: ignore[union-attr]
    state = state_before(rec, seq, RESAMPLE, mover)
    legal = list(state.legal_moves())
    picks = [ExploringAgent(random.Random(k)).choose(state.copy(), mover) for k in range(200)]
    assert all(m in legal for m in picks)
    valued = "the value agent's move"
    monkeypatch.setattr(ValueAgent, "choose", lambda self, state, player: valued)
    picks = [ExploringAgent(random.Random(k)).choose(state.copy(), mover) for k in range(200)]
    off = [m for m in picks if m != valued]
    assert 8 <= len(off) <= 35 and all(m in legal for m in off)  # about one in ten: 20
    assert len({repr(m) for m in off}) > 3  # any legal move, at random
    monkeypatch.setattr(ExploringAgent, "RATE", 0.0)
    assert all(ExploringAgent(random.Random(k)).choose(state.copy(), mover) == valued for k in range(20))


def test_training_with_exploring_games_says_so_and_stays_deterministic() -> None:
    a = train(GAME, games=4, seed=3, iterations=2, players=2, command="test", explore=0.5)
    assert a.meta["trained"]["explore"] == 0.5 and "50% exploring" in a.log[1]
    b = train(GAME, games=4, seed=3, iterations=2, players=2, command="test", explore=0.5, workers=2)
    assert a.text == b.text and a.meta == b.meta
    plain = train(GAME, games=4, seed=3, iterations=2, players=2, command="test")
    assert "explore" not in plain.meta["trained"] and plain.text != a.text
    with pytest.raises(TrainingError, match="between 0 and 1"):
        train(GAME, games=4, seed=3, iterations=2, players=2, explore=1.5)


WORKERS_AFTER_A_LOADED_MODEL = """
from replay.evaluator import load_model
from replay.training import _play, line_up

if __name__ == "__main__":
    model = load_model("coal_baron")  # parsing it starts LightGBM's OpenMP threads in this process
    tasks = [("coal_baron", 2, 3, 1_000_000 + k, line_up(1, k, 2), f"stride {k}") for k in range(2)]
    print(sum(len(rows.x) for rows in _play(tasks, model, 2)))
"""


def test_a_process_that_loaded_a_model_can_still_train_in_workers(tmp_path: Path) -> None:
    """Workers forked from a process that has parsed a model, each parsing one in turn, waited for
    ever (OpenMP after fork); they now start from a fork server."""
    script = tmp_path / "after_a_model.py"
    script.write_text(WORKERS_AFTER_A_LOADED_MODEL)
    try:
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("the worker processes hung after the parent loaded a value model")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 0


def test_the_version_check_refuses_a_model_of_other_features(tiny: Trained, tmp_path: Path) -> None:
    folder = write(tiny, tmp_path)
    meta = json.loads((folder / META_FILE).read_text())

    def broken(**change: object) -> str:
        (folder / META_FILE).write_text(json.dumps({**meta, **change}))
        with pytest.raises(ModelError) as err:
            ValueModel.from_files(GAME, folder)
        return str(err.value)

    assert "own_points" in broken(names=[n for n in meta["names"] if n != "own_points"])
    assert "other order" in broken(names=list(reversed(meta["names"])))
    assert "format" in broken(format=2)
    assert "coal_baron" in broken(game="coal_baron")
    (folder / META_FILE).write_text(json.dumps(meta))
    (folder / MODEL_FILE).write_text("not a model")
    with pytest.raises(ModelError):
        ValueModel.from_files(GAME, folder)


def test_chances_sum_to_one_and_a_finished_game_gives_its_win_shares(model: ValueModel) -> None:
    rec = _record(1)
    chart, _ = positions(rec, "decisions")
    batch = model.chances_many([p.state for p in chart])
    assert batch == [model.chances(p.state) for p in chart]
    for chances in batch[:-1]:
        assert sum(chances.values()) == pytest.approx(1.0)
        assert all(0.0 < c < 1.0 for c in chances.values())
    end = chart[-1].state
    assert end.is_over() and batch[-1] == win_shares(end)
    assert len({round(c["p1"], 6) for c in batch}) > 5  # the model tells positions apart


def test_rows_compare_each_player_with_the_others(model: ValueModel) -> None:
    fs = model.features
    chart, _ = positions(_record(2), "turns")
    state = chart[len(chart) // 2].state
    rows = fs.rows(state)
    n = len(fs.names)
    g = len(fs.global_names)
    own = [r[g:g + n] for r in rows]
    assert [r[g + n:g + 2 * n] for r in rows] == [own[1], own[0]]  # two players: max = mean = the other
    assert [r[-3:-1] for r in rows] == [[2.0, 0.0], [2.0, 1.0]]
    assert sorted(r[-1] for r in rows) == [0.0, 1.0]  # exactly one is to move


def test_the_value_agent_keeps_the_move_the_model_likes_best(model: ValueModel) -> None:
    assert AGENTS["value"] is ValueAgent
    rec = _record(3)
    chart, _ = positions(rec, "decisions", "known")
    checked = 0
    for pos in chart[5:40:5]:
        state, player = pos.state, pos.mover
        assert player is not None
        moves = list(state.legal_moves())
        chosen = ValueAgent(random.Random(0), breadth=len(moves)).choose(state, player)
        scores = []
        for m in moves:  # each judged once the mover's turn is done (Copenhagen's mid_action)
            scores.append(model.chances(after_move(state, player, m))[player])
        assert scores[moves.index(chosen)] == max(scores)
        checked += 1
    assert checked >= 5


def test_a_move_that_ends_on_a_draw_is_judged_once_the_draw_is_made(model: ValueModel) -> None:
    """A card taken ends the turn on the harbour's refill, where nobody is to move: the move is
    judged by the mean over seeded refills from the deck's pool, each up to the next decision."""
    rec = _record(7)
    chart, _ = positions(rec, "turns", RESAMPLE)
    checked = 0
    for pos in chart[4:30]:
        state, player = pos.state, pos.mover
        assert player is not None
        children = [after_move(state, player, m) for m in state.legal_moves()]
        drawn = [c for c in children if isinstance(c.turn(), ChanceRequest)]
        passed = [c for c in children if isinstance(c.turn(), str)]
        if not drawn or not passed:
            continue
        child, plain = drawn[0], passed[0]
        before = child.snapshot()
        copies = [settled(child, i) for i in range(DRAWS)]
        assert child.snapshot() == before and isinstance(child.turn(), ChanceRequest)  # the original untouched
        assert all(isinstance(c.turn(), str) for c in copies)  # each read where someone is to move
        assert len({json.dumps(c.snapshot(), sort_keys=True, default=str) for c in copies}) > 1  # draws differ
        reads = model.chances_many(copies)
        mean = {p: sum(r[p] for r in reads) / DRAWS for p in child.players}
        judged = model.judge([child, plain])
        assert judged[0] == pytest.approx(mean) and judged[0] != model.chances(child)
        assert judged[1] == model.chances(plain)  # no draw: read as it is
        assert model.judge([child, plain]) == judged  # the same position, the same draws
        checked += 1
    assert checked >= 3


def test_a_move_that_turns_up_face_down_counters_is_judged_on_dealt_counters() -> None:
    """Perikles: the last commitment starts the battles, whose first location turns up the counters
    sent face down. From the mover's view the others' are unknown, so each settled draw deals them
    from what the mover cannot rule out (a draw from the pools alone cannot say who is there)."""
    rec = simulate_one(get_game("perikles"), 3, 1, 0, observe_every=0, agents=["greedy"] * 3)
    chart, _ = positions(rec, "turns", RESAMPLE)
    pos = chart[45]
    assert pos.mover is not None and pos.move_seq is not None
    state = state_before(rec, pos.move_seq, RESAMPLE, pos.mover)
    ends = [m for m in state.legal_moves() if type(m).__name__ == "EndCommit"]
    child = after_move(state, pos.mover, ends[0])
    request = child.turn()
    assert isinstance(request, ChanceRequest) and request.kind == "reveal"
    copies = [settled(child, i) for i in range(DRAWS)]
    assert all(isinstance(c.turn(), str) or c.turn() is OVER for c in copies)
    assert child.turn() == request  # the original untouched
    assert len({json.dumps(c.snapshot(), sort_keys=True, default=str) for c in copies}) > 1  # the deals differ
    assert [settled(child, i).snapshot() for i in range(DRAWS)] == [c.snapshot() for c in copies]
    model = load_model("perikles")
    assert model is not None
    judged = model.judge([child])[0]
    assert sum(judged.values()) == pytest.approx(1.0)


def test_an_analysis_reads_copenhagen_a_round_later(model: ValueModel) -> None:
    """Copenhagen's ``LOOKAHEAD = 2``: a position's chances are the mean over seeded value-agent
    continuations to the turn start two changes of mover later, never read where it stands."""
    assert feature_set(GAME).lookahead == 2  # type: ignore[union-attr]
    assert feature_set("coal_baron").lookahead == 0  # type: ignore[union-attr]
    rec = _record(8)
    chart, _ = positions(rec, "turns", RESAMPLE)
    states = [pos.state for pos in chart[3:40:6]]
    before = [s.snapshot() for s in states]
    read = model.read(states)
    assert [s.snapshot() for s in states] == before  # the positions untouched
    for s, chances in zip(states, read, strict=True):
        ends = [looked_ahead(s, 2, i, F.mid_action) for i in range(DRAWS)]
        for end in ends:
            assert end.turn() is OVER or (isinstance(end.turn(), str) and not F.mid_action(end))
            assert end.turn() is OVER or end.turns == s.turns + 2  # type: ignore[attr-defined]
        reads = model.chances_many(ends)
        assert chances == pytest.approx({p: sum(r[p] for r in reads) / DRAWS for p in s.players})
    assert read != model.chances_many(states)
    assert model.read(states) == read  # the same positions, the same continuations


def test_the_look_ahead_is_played_by_the_value_agent_at_every_seat(model: ValueModel,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The continuations follow the agent whose games the model learnt from, not the greedy one:
    every move of a round is the value agent's choice, for both players."""
    chosen: list[str] = []

    class Watched(ValueAgent):
        def choose(self, state, player):  # type: ignore[no-untyped-def]
            chosen.append(player)
            return super().choose(state, player)

    monkeypatch.setitem(AGENTS, "value", Watched)
    chart, _ = positions(_record(8), "turns", RESAMPLE)
    looked_ahead(chart[10].state, 2, 0, F.mid_action)
    assert set(chosen) == set(chart[10].state.players)


def test_the_value_agent_plays_legal_games_that_replay_clean(model: ValueModel) -> None:
    from replay.replayer import COMPLETE, replay

    for i in range(2):
        rec = _record(10 + i, ["value", "greedy"])
        assert replay(rec).status == COMPLETE


@pytest.mark.usefixtures("no_praga_model")
def test_the_value_agent_needs_a_model() -> None:
    from replay.simulate import SimulationError

    with pytest.raises(SimulationError, match="no value model"):
        simulate_one(get_game("praga"), 2, 1, 0, observe_every=0, agents=["value", "greedy"])


def test_analysis_by_the_value_method(model: ValueModel) -> None:
    rec = _record(4)
    settings = Settings(method=VALUE, explain=2, alternatives=4)
    a = analyse(rec, settings)
    assert a.settings.method == VALUE and a.capped == 0 and a.note is None
    assert analyse(rec, Settings(explain=2, alternatives=4)).settings.method == VALUE  # the default
    for pos, read in zip(a.positions, model.read([pos.state for pos in a.positions]), strict=True):
        assert {p: e.chance for p, e in pos.chances.items()} == read
        assert all(e.exact and e.interval() == (e.chance, e.chance) for e in pos.chances.values())
    b = analyse(rec, Settings(method=VALUE, explain=0))
    turns = [(here.move_seq, nxt.chances[here.mover].chance - here.chances[here.mover].chance)
             for here, nxt in zip(b.positions, b.positions[1:]) if here.mover is not None]
    assert any(0.01 < abs(d) < VALUE_TURN for _, d in turns), "no small change of chance: nothing to check"
    every = turning_points(b.positions, rec, limit=len(turns), threshold=VALUE_TURN)
    assert sorted(t.seq for t in every) == sorted(s for s, d in turns if abs(d) >= VALUE_TURN)  # small ones left out
    big_falls = sorted((d, s) for s, d in turns if d <= -VALUE_TURN)[:3]
    big_rises = sorted((-d, s) for s, d in turns if d >= VALUE_TURN)[:3]
    assert sorted(t.seq for t in b.turning_points) == sorted(s for _, s in big_falls + big_rises)
    falls = [t for t in a.turning_points if t.delta < 0]
    assert falls, "the game has no fall: pick another record"
    explained = [t for t in falls if t.alternatives]
    assert len(explained) == min(2, len(falls))
    worst = sorted(falls, key=lambda t: t.delta)[:2]
    assert sorted(t.seq for t in explained) == sorted(t.seq for t in worst)
    t = explained[0]
    assert sum(x.played for x in t.alternatives) == 1 and len(t.alternatives) <= 4
    view = state_before(rec, t.seq, RESAMPLE, t.player)
    for alt in t.alternatives:
        judged = after_move(view, t.player, alt.move)  # the mover's turn finished by the greedy agent
        assert alt.estimate.chance == pytest.approx(model.judge([judged])[0][t.player])
    others = [x.estimate.chance for x in t.alternatives if not x.played]
    assert others == sorted(others, reverse=True)


@pytest.mark.parametrize("at", ["turns", "decisions"])
def test_every_decision_is_judged_against_the_moves_its_player_had(model: ValueModel, at: str) -> None:
    """A choice is the model's chance after the best move the mover had minus after the move played,
    each move applied from the mover's own view: the alternatives' reading, at every decision."""
    rec = _record(4)
    a = analyse(rec, Settings(method=VALUE, explain=0, at=at, choices=True))
    deciding = [pos for pos in a.positions if pos.mover is not None]
    assert [c.move_seq for c in a.choices] == [pos.move_seq for pos in deciding]
    assert any(c.given_away > 0.01 for c in a.choices) and any(c.given_away == 0 for c in a.choices)
    for c, pos in list(zip(a.choices, deciding))[::5]:
        view = state_before(rec, c.move_seq, RESAMPLE, c.player)
        played = rec.events[c.move_seq].move  # type: ignore[union-attr]
        moves = list(view.legal_moves())
        reads = [model.judge([after_move(view, c.player, m)])[0][c.player] for m in moves]
        mine = reads[moves.index(played)]
        assert (c.seq, c.player, c.moves) == (pos.seq, pos.mover, len(moves))
        assert c.played == pytest.approx(mine) and c.best == pytest.approx(max(reads))
        assert c.given_away == pytest.approx(max(reads) - mine) and c.given_away >= 0
        assert reads[moves.index(c.best_move)] == pytest.approx(c.best) and c.best_words
        assert c.played_words == with_names(view.describe_move(c.player, played), a.names)
        if c.given_away == 0:
            assert c.best_move == played  # of moves judged equal, the played one is the best


def test_the_value_agent_gives_away_less_than_a_random_player() -> None:
    """Coal Baron's shipped model: the value agent plays the moves the model likes, a random agent any
    move, so over a game the random player's choices give away far more chance."""
    rec = simulate_one(get_game("coal_baron"), 2, 5, 0, observe_every=0, agents=["value", "random"])
    a = analyse(rec, Settings(method=VALUE, explain=0, choices=True))
    away = {p: [c.given_away for c in a.choices if c.player == p and c.moves > 1] for p in rec.player_ids}
    mean = {p: sum(v) / len(v) for p, v in away.items()}
    assert all(len(v) > 10 for v in away.values())
    assert mean["p2"] > 0.05 and mean["p1"] < mean["p2"] / 3, mean


def test_choices_are_judged_by_default_where_the_title_says_so() -> None:
    """Pax Pamir's features set CHOICES (its model's preferred moves proved better when played out),
    Coal Baron's do not; either way --choices / --no-choices decides."""
    pax = simulate_one(get_game("pax_pamir"), 2, 1, 0, observe_every=0, agents=["greedy", "greedy"])
    assert analyse(pax, Settings(explain=0)).choices and not analyse(pax, Settings(explain=0, choices=False)).choices
    # a Coal Baron game with an explained turning point
    cb, without = next((rec, a) for rec in (simulate_one(get_game("coal_baron"), 2, 1, i, observe_every=0,
                                                         agents=["greedy", "greedy"]) for i in range(10))
                       for a in [analyse(rec, Settings())] if any(t.alternatives for t in a.turning_points))
    assert not without.choices and analyse(cb, Settings(explain=0, choices=True)).choices
    # without choices, the turning points' alternatives are the same
    with_all = analyse(cb, Settings(choices=True))
    assert [t.verdict() for t in with_all.turning_points] == [t.verdict() for t in without.turning_points]


def test_the_choice_check_plays_out_the_choices_of_a_title_that_does_not_judge_them_by_default(
        tiny: Trained, tmp_path: Path) -> None:
    """``benchmarks.choice_check`` measures the titles whose choices are off by default (Copenhagen's):
    it judges them itself, and reads the model it is given."""
    from click.testing import CliRunner

    from benchmarks.choice_check import choice_check, main

    assert feature_set(GAME) is not None and not feature_set(GAME).choices  # type: ignore[union-attr]
    with installed(tiny.model):
        rows = choice_check(GAME, games=1, seed=31, threshold=0.05, playouts=1)
    assert rows and all(model_says >= 0.05 and -1 <= played <= 1 for model_says, played in rows)
    res = CliRunner().invoke(main, [GAME, "--games", "1", "--playouts", "1", "--model", str(write(tiny, tmp_path))])
    assert res.exit_code == 0, res.output
    assert f"{GAME}: {len(rows)} choices of 1 greedy games" in res.output


def test_rollouts_judge_no_choice() -> None:
    a = analyse(_record(4), Settings(method=ROLLOUTS, rollouts=2, agent="random", explain=0))
    assert a.choices == []


def test_value_chances_never_see_the_future_of_the_record(model: ValueModel) -> None:
    """Cut the record short, or change a later harbour draw: the earlier chances stay put."""
    rec = _record(5)
    settings = Settings(method=VALUE, explain=0)
    cut = 60
    a = analyse(Record(rec.game, rec.id, rec.players, rec.events[:cut], dict(rec.options)), settings)
    events = list(rec.events)
    k = next(i for i, e in enumerate(events) if i >= cut and isinstance(e, ChanceEvent))
    ev = events[k]
    assert isinstance(ev, ChanceEvent)
    items = list(ev.outcome["items"])
    swap = next(c for c in ("red", "blue", "green", "yellow", "purple") if c != items[0])
    events[k] = ChanceEvent({**ev.outcome, "items": [swap, *items[1:]]})
    b = analyse(Record(rec.game, rec.id, rec.players, events[:k + 1], dict(rec.options)), settings)
    ca = {p.seq: p.chances for p in a.positions}
    cb = {p.seq: p.chances for p in b.positions}
    assert ca and all(cb[s] == v for s, v in ca.items())


def test_a_secret_starting_hand_does_not_move_the_public_chances(model: ValueModel) -> None:
    """Copenhagen's starting hands are drawn face down: another colour in p2's starting hand gives the
    same public positions, so the same chances, until p2 shows a card."""
    rec = _record(6)
    deals = [i for i, e in enumerate(rec.events) if isinstance(e, ChanceEvent)][:3]
    k = deals[-1]  # p2's starting hand
    ev = rec.events[k]
    assert isinstance(ev, ChanceEvent)
    items = list(ev.outcome["items"])
    swap = next(c for c in ("red", "blue", "green", "yellow", "purple") if c not in items)
    changed = Record(rec.game, rec.id, rec.players,
                     [*rec.events[:k], ChanceEvent({**ev.outcome, "items": [swap, *items[1:]]})] + list(rec.events[k + 1:k + 8]),
                     dict(rec.options))
    short = Record(rec.game, rec.id, rec.players, list(rec.events[:k + 8]), dict(rec.options))
    settings = Settings(method=VALUE, explain=0, at="decisions", choices=True)
    a, b = analyse(short, settings), analyse(changed, settings)
    shared = [p.seq for p in b.positions]
    assert shared and [p.chances for p in a.positions if p.seq in shared] == [p.chances for p in b.positions]
    known = Settings(method=VALUE, explain=0, at="decisions", hidden="known", choices=True)
    ka, kb = analyse(short, known), analyse(changed, known)
    assert [p.chances for p in ka.positions] != [p.chances for p in kb.positions]  # it would matter, known

    def choices_of(an: Any, player: str) -> list[tuple[int, int, float, float]]:
        return [(c.move_seq, c.moves, c.played, c.best) for c in an.choices if c.player == player]

    # p1's choices are judged from p1's view, which does not hold p2's hand; p2's own view does
    assert choices_of(a, "p1") and choices_of(a, "p1") == choices_of(b, "p1")
    assert choices_of(a, "p2") != choices_of(b, "p2")
    assert choices_of(ka, "p1") != choices_of(kb, "p1")  # it would matter, known


@pytest.mark.usefixtures("no_praga_model")
def test_a_title_without_a_model_falls_back_to_rollouts() -> None:
    rec = simulate_one(get_game("praga"), 2, 1, 0, observe_every=0, agents=["random", "random"])
    short = Record(rec.game, rec.id, rec.players, rec.events[:30], dict(rec.options))
    assert load_model("praga") is None
    a = analyse(short, Settings(rollouts=1, agent="random", explain=0))
    assert a.settings.method == ROLLOUTS and a.note and "no value model" in a.note
    with pytest.raises(AnalysisError, match="gamerec train --game praga"):
        analyse(short, Settings(method=VALUE))


def test_calibration_reports_brier_strength_and_rollouts(model: ValueModel) -> None:
    cal = calibrate_value(GAME, 2, 1, every=8, rollouts=2, strength_games=2)
    out = cal.as_json()
    assert out["positions"] == len(cal.pairs) == len(cal.rollout_pairs) > 2
    for key in ("brier", "no_skill", "rollout_brier", "strength", "strength_ci"):
        assert key in out
    assert 0.0 <= out["brier"] <= 1.0 and out["strength_games"] == 2
    assert len(cal.rollout_noise) == len(cal.rollout_pairs)
    for (mean, _), noise in zip(cal.rollout_pairs, cal.rollout_noise, strict=True):
        # two rollouts won 0 or 1 each: s^2 = 2 m(1 - m), over 2 (two shared firsts: the same half twice)
        assert noise == pytest.approx(mean * (1 - mean)) or (mean == 0.5 and noise == 0.0)
    assert out["rollout_brier_unlimited"] == pytest.approx(out["rollout_brier"] - sum(cal.rollout_noise) / len(cal.rollout_noise))


def test_a_calibration_spread_over_processes_gives_the_same_figures() -> None:
    """``gamerec calibrate --workers``: the games go to other processes (the shipped model) and come
    back in game order, so every figure is the one of a calibration in this process."""
    from ingest.winchances import local_mapper

    here = calibrate_value(GAME, 3, 1, every=8, rollouts=2, strength_games=0)
    with local_mapper(2) as mapper:
        spread = calibrate_value(GAME, 3, 1, every=8, rollouts=2, strength_games=0, mapper=mapper)
    assert spread.pairs == here.pairs and spread.rollout_pairs == here.rollout_pairs
    assert spread.as_json() == here.as_json()


def test_the_rollouts_brier_without_their_sampling_noise() -> None:
    """Rollout estimates of known chances: their Brier score less each estimate's sampling variance
    is, over many positions, the Brier score of the chances themselves (what unlimited rollouts
    would score); the plain one is worse by about p(1-p)/n."""
    rng = random.Random(5)
    cal = ValueCalibration("copenhagen", 1, 2, rollouts=4)
    exact = 0.0
    for _ in range(20_000):
        p = rng.random()
        won = 1.0 if rng.random() < p else 0.0
        shares = [1.0 if rng.random() < p else 0.0 for _ in range(4)]
        mean = sum(shares) / 4
        cal.rollout_pairs.append((mean, won))
        cal.rollout_noise.append(sum((x - mean) ** 2 for x in shares) / 3 / 4)
        cal.pairs.append((p, won))
        exact += (p - won) ** 2
    got = cal.as_json()
    assert got["rollout_brier_unlimited"] == pytest.approx(exact / 20_000, abs=0.004)
    assert got["rollout_brier"] - got["rollout_brier_unlimited"] == pytest.approx(1 / 6 / 4, abs=0.004)
    # analyse's default of 64 rollouts: the same expectation, a sixteenth of the four rollouts' variance
    assert got["default_rollouts"] == Settings().rollouts == 64
    assert got["rollout_brier_default"] - got["rollout_brier_unlimited"] == pytest.approx(1 / 6 / 64, abs=0.0005)
    assert got["rollout_brier_default"] == pytest.approx(
        got["rollout_brier_unlimited"] + (got["rollout_brier"] - got["rollout_brier_unlimited"]) * 4 / 64)


def test_the_commands_train_analyse_and_calibrate(tmp_path: Path, tiny: Trained, monkeypatch: pytest.MonkeyPatch) -> None:
    import orjson
    from click.testing import CliRunner

    from gamerec_cli.main import main
    from replay.record import dumps

    out = tmp_path / "model"
    res = CliRunner().invoke(main, ["train", "--game", GAME, "--games", "2", "--iterations", "1", "--players", "2",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    meta = json.loads((out / META_FILE).read_text())
    assert meta["trained"]["command"] == f"gamerec train --game {GAME} --games 2 --seed 1 --iterations 1 --players 2"
    res = CliRunner().invoke(main, ["train", "--game", GAME, "--games", "2", "--iterations", "2", "--players", "2",
                                    "--explore", "0.5", "--out", str(tmp_path / "explored")])
    assert res.exit_code == 0, res.output
    trained = json.loads((tmp_path / "explored" / META_FILE).read_text())["trained"]
    assert trained["command"].endswith("--iterations 2 --players 2 --explore 0.5") and trained["explore"] == 0.5
    res = CliRunner().invoke(main, ["train", "--game", GAME, "--explore", "2", "--out", str(out)])
    assert res.exit_code == 2 and "--explore" in res.output and "Traceback" not in res.output
    with monkeypatch.context() as m:  # Praga as a title without features
        m.setattr("replay.training.feature_set", lambda game_id: None)
        res = CliRunner().invoke(main, ["train", "--game", "praga", "--games", "2", "--out", str(out)])
    assert res.exit_code == 2 and "praga has no features" in res.output and "Traceback" not in res.output

    path = tmp_path / "games.jsonl"
    path.write_bytes(dumps(_record(7)) + b"\n")
    db = tmp_path / "a.duckdb"
    with installed(tiny.model):
        res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(db), "--workers", "0", "--choices"])
        assert res.exit_code == 0, res.output
        assert "value model" in res.output
        a = analyse(_record(7), Settings(method=VALUE, choices=True))
        (p, n, away, best), *_ = a.choice_quality()
        assert f"  choices: {a.names[p]} {away:.1%} given away per choice, the best move in {best:.0%} of {n}" \
            in res.output
        res = CliRunner().invoke(main, ["calibrate", "--game", GAME, "--games", "1", "--every", "10", "--rollouts", "1",
                                        "--strength-games", "1", "--json"])
        assert res.exit_code == 0, res.output
        got = orjson.loads(res.output)
        assert {"brier", "no_skill", "strength", "rollout_brier"} <= got.keys() and got["method"] == "value"
    import duckdb
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT method, rollouts, agent FROM analyses").fetchall() == [("value", 0, None)]
    assert con.execute("SELECT DISTINCT rollouts FROM win_chances").fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM choices").fetchall() == [(len(a.choices),)]
    con.close()
    res = CliRunner().invoke(main, ["analyse", str(path), "--db", str(db), "--method", "rollouts", "--rollouts", "1",
                                    "--agent", "random", "--explain", "0", "--workers", "0"])
    assert res.exit_code == 0 and "rollouts" in res.output and "choices:" not in res.output
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT method, rollouts FROM analyses").fetchall() == [("rollouts", 1)]
    assert con.execute("SELECT count(*) FROM choices").fetchall() == [(0,)]  # replaced with the analysis
    con.close()


@pytest.mark.usefixtures("no_praga_model")
def test_analyse_says_a_title_has_no_model_yet(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from gamerec_cli.main import main
    from replay.record import dumps

    rec = simulate_one(get_game("praga"), 2, 1, 0, observe_every=0, agents=["random", "random"])
    short = Record(rec.game, rec.id, rec.players, rec.events[:20], dict(rec.options))
    path = tmp_path / "p.jsonl"
    path.write_bytes(dumps(short) + b"\n")
    args = ["analyse", str(path), "--db", str(tmp_path / "p.duckdb"), "--workers", "0", "--rollouts", "1",
            "--agent", "random", "--explain", "0"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "praga has no value model yet: chances by rollouts" in res.output
    res = CliRunner().invoke(main, [*args, "--method", "value"])
    assert res.exit_code == 1 and "gamerec train --game praga" in res.output and "Traceback" not in res.output


def test_the_bench_times_a_whole_analysis_by_the_value_model(model: ValueModel) -> None:
    from benchmarks.win_chances import bench_value, run

    got = bench_value(GAME)
    assert got["method"] == VALUE and got["positions"] > 10 and got["cpu_s"] > 0
    rows = [r for r in run(True, [GAME]) if "value model" in r["metric"]]
    assert len(rows) == 1 and rows[0]["unit"] == "s CPU" and "target ≤ 10 s" in rows[0]["detail"]


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if feature_set(g) is not None])
def test_the_rows_of_many_states_are_each_states_own(game_id: str) -> None:
    """:meth:`FeatureSet.matrix` builds the rows of states of every player count at once: each row is
    the player's own features beside the opponents' maximum and mean (in seat order), whatever
    the other states of the batch."""
    fs = feature_set(game_id)
    assert fs is not None
    game = get_game(game_id)
    states = []
    for n in range(game.min_players, game.max_players + 1):
        chart, _ = positions(simulate_one(game, n, 5, 0), "turns", "known")
        states += [p.state for p in chart[3:-1:7]]
    random.Random(1).shuffle(states)  # counts interleaved
    expected = []
    for s in states:
        own = [fs.player_features(s, p) for p in s.players]
        for i, p in enumerate(s.players):
            others = [own[j] for j in range(len(own)) if j != i] or [[0.0] * len(fs.names)]
            expected.append([*fs.game_features(s), *own[i], *(max(col) for col in zip(*others)),
                             *(sum(col) / len(others) for col in zip(*others)),
                             float(len(own)), float(i), 1.0 if s.turn() == p else 0.0])
    assert len({len(s.players) for s in states}) == game.max_players - game.min_players + 1
    assert fs.matrix(states).tolist() == expected
    assert [row for s in states for row in fs.rows(s)] == expected
