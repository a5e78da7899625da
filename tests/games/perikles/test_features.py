"""The value model's features of a Perikles position: right on known positions, public only, defined at
every state of simulated games, seat views and BGA logs, and fast."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from perikles_helpers import commit, fresh, military_phase, placed

from replay.analysis import positions
from replay.engine import OVER, State
from replay.games import get_game
from replay.games.perikles import features as F
from replay.games.perikles.components import CITY, CITY_KEYS, UNITS
from replay.games.perikles.state import PeriklesState
from replay.record import ChanceEvent, MoveEvent, Record
from replay.simulate import simulate_one

GAME = get_game("perikles")
LOGS = Path(__file__).resolve().parents[4] / "shared" / "bga-logs" / "perikles"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/perikles")
needs_logs = pytest.mark.skipif(not LOGS.is_dir(), reason="../shared/bga-logs is not here")

HANDS = {"p1": ["athens-2a", "athens-candidate-a"], "p2": ["sparta-2a"], "p3": ["corinth-2a"]}


def named(state: State, player: str) -> dict[str, float]:
    return dict(zip(F.NAMES, F.features(state, player), strict=True))


def strength(power: str, unit_type: str) -> int:
    return sum(u.strength for u in UNITS if u.power == power and u.type == unit_type)


def count(power: str, unit_type: str) -> int:
    return sum(1 for u in UNITS if u.power == power and u.type == unit_type)


# ---- known positions ---------------------------------------------------------------------------


def test_after_the_initial_placement_every_player_is_level() -> None:
    st = placed(3)  # 2 cubes in every city, both extra cubes in Megara
    assert F.global_features(st) == [1.0, 1.0, 0.0, 0.0, 0.0, 7.0, 0.0, 0.0]
    for p in st.players:
        f = named(st, p)
        assert f["score"] == f["cubes"] == 14.0 and f["cubes_left"] == 16.0
        assert f["cities_first"] == 3.0 and f["cube_margin"] == 0.0  # a tie for first everywhere: 1/2 each
        assert f["special_unused"] == 1.0
        assert f["leads"] == f["projected_leads"] == f["stake"] == f["uncommitted"] == 0.0


def test_candidates_project_the_elections() -> None:
    st = placed(3)
    st.cubes["corinth"]["p1"] = 5
    st.alpha["corinth"], st.beta["corinth"] = "p2", "p1"   # p1 has more cubes: he would win, losing p2's 2
    st.alpha["athens"] = "p3"                               # unopposed
    st.score_changed()
    p1, p2, p3 = named(st, "p1"), named(st, "p2"), named(st, "p3")
    assert (p1["alpha"], p1["beta"], p2["alpha"], p3["alpha"]) == (0.0, 1.0, 1.0, 1.0)
    assert p1["projected_leads"] == 1.0 and p1["projected_statues"] == CITY["corinth"].statue_value(0)
    assert p1["projected_score"] == p1["score"] + CITY["corinth"].statue_value(0) - 2
    assert p2["projected_leads"] == 0.0 and p2["projected_score"] == p2["score"]
    assert p3["projected_statues"] == CITY["athens"].statue_value(0)
    assert p1["cities_first"] == 1 + 5 * 0.5 and p1["cube_margin"] == 3.0


def test_leaders_and_their_forces() -> None:
    st = military_phase("official", {p: list(h) for p, h in HANDS.items()})
    p1, p2, p3 = named(st, "p1"), named(st, "p2"), named(st, "p3")
    assert (p1["leads"], p1["leads_sparta"], p1["leads_athens"], p1["persian_leader"]) == (1.0, 1.0, 0.0, 0.0)
    assert (p2["leads"], p2["leads_athens"]) == (2.0, 1.0)
    assert p3["persian_leader"] == 1.0 and p3["leads"] == 0.0
    assert p1["hoplite_strength"] == strength("sparta", "hoplite")
    assert p1["triremes"] == count("sparta", "trireme")
    assert p2["trireme_strength"] == strength("athens", "trireme") + strength("argos", "trireme")
    assert p3["persian_strength"] == strength("persia", "hoplite") + strength("persia", "trireme")
    assert p3["uncommitted"] == count("persia", "hoplite") + count("persia", "trireme")
    assert p2["projected_statues"] == CITY["athens"].statue_value(0) + CITY["argos"].statue_value(0)
    assert (p1["hand_tiles"], p1["hand_shards"], p1["hand_two_shard"]) == (2.0, 3.0, 1.0)
    assert F.global_features(st)[F.GLOBAL_NAMES.index("persian_leaders")] == 1.0


def test_committed_units_count_for_their_side_not_their_strength() -> None:
    st = military_phase("official", {p: list(h) for p, h in HANDS.items()})
    before = named(st, "p1")
    commit(st, "p1", "sparta", "hoplite", 4, "mantinea", "attacker")
    commit(st, "p1", "sparta", "hoplite", 1, "mantinea", "attacker")
    commit(st, "p2", "argos", "hoplite", 1, "mantinea", "defender")
    commit(st, "p3", "persia", "hoplite", 2, "mantinea", "defender")
    p1, p2, p3 = named(st, "p1"), named(st, "p2"), named(st, "p3")
    assert p1["hoplite_strength"] == before["hoplite_strength"]  # still his forces, face down
    assert p1["uncommitted"] == before["uncommitted"] - 2
    vp = 5  # Mantinea
    assert p1["stake"] == p2["stake"] == vp and p3["stake"] == 0.0
    assert p1["stake_edge"] == pytest.approx(vp * (2 - 2) / 5)
    assert p3["allied_units"] == 1.0 and p1["allied_units"] == 0.0
    commit(st, "p1", "sparta", "hoplite", 3, "mantinea", "attacker")
    assert named(st, "p1")["stake_edge"] == pytest.approx(vp * (3 - 2) / 6)


# ---- public only ---------------------------------------------------------------------------------


def everything(state: State) -> list[list[float]]:
    return [F.global_features(state)] + [F.features(state, p) for p in state.players]


def test_which_counter_was_sent_face_down_changes_nothing() -> None:
    a = military_phase("official", {p: list(h) for p, h in HANDS.items()})
    b = military_phase("official", {p: list(h) for p, h in HANDS.items()})
    commit(a, "p1", "sparta", "hoplite", 4, "sicily", "defender")
    commit(b, "p1", "sparta", "hoplite", 1, "sicily", "defender")
    commit(a, "p3", "persia", "trireme", 3, "sicily", "attacker")
    commit(b, "p3", "persia", "trireme", 2, "sicily", "attacker")
    assert everything(a) == everything(b)


def test_the_secret_special_tiles_change_nothing() -> None:
    a = placed(3, specials=["brasidas", "phormio", "plague"])
    b = placed(3, specials=["perikles", "alkibiades", "slaverevolt"])
    assert everything(a) == everything(b)
    a.special_used["p2"] = True  # a tile played is public
    assert everything(a) != everything(b)


def _apply(st: State, e: object) -> None:
    if isinstance(e, MoveEvent):
        st.apply_move(e.player, e.move)
    elif isinstance(e, ChanceEvent):
        st.apply_chance(e.outcome)


def same_as_the_public_saw(rec: Record) -> int:
    """Every decision of ``rec``: the features of the record's own state equal those of the state the
    public saw (units face down, secret tiles unknown).  Returns how many positions were compared."""
    known, stop_known = positions(rec, at="decisions", hidden="known")
    seen, stop_seen = positions(rec, at="decisions", hidden="resample")
    assert stop_known is None and stop_seen is None
    assert [p.seq for p in known] == [p.seq for p in seen]
    for k, s in zip(known, seen, strict=True):
        assert everything(k.state) == everything(s.state), f"event {k.seq} ({k.state.phase()})"  # type: ignore[attr-defined]
    return len(known)


def every_state(rec: Record) -> int:
    """The features exist, have their lengths and are finite before every event and at the end."""
    st = GAME.initial_state(rec.player_ids, rec.options)
    n = 0
    for e in [*rec.events, None]:
        g = F.global_features(st)
        assert len(g) == len(F.GLOBAL_NAMES)
        for p in st.players:
            f = F.features(st, p)
            assert len(f) == len(F.NAMES) and all(math.isfinite(x) for x in f + g)
        assert F.features_of_all(st) == [F.features(st, p) for p in st.players]  # the odds reckoned once
        n += 1
        if e is not None:
            _apply(st, e)
    assert st.turn() is OVER
    assert F.global_features(st)[F.GLOBAL_NAMES.index("over")] == 1.0
    return n


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_simulated_games_look_the_same_to_the_public(players: int, seed: int) -> None:
    rec = simulate_one(GAME, players, seed, 0)
    assert any(isinstance(e, MoveEvent) and e.move.type == "send_unit" for e in rec.events)
    assert same_as_the_public_saw(rec) > 100
    assert every_state(rec) == len(rec.events) + 1


@pytest.mark.parametrize(("players", "view"), [(3, "p1"), (4, "p3")])
def test_seat_views(players: int, view: str) -> None:
    rec = simulate_one(GAME, players, 7, 0, view=view)
    assert rec.options["seat_view"] is True
    same_as_the_public_saw(rec)
    every_state(rec)


@needs_logs
@pytest.mark.parametrize("name", ["perikles_3p_seed201", "perikles_4p_seed202", "perikles_5p_seed209"])
def test_bga_logs(name: str) -> None:
    from ingest.bga.convert import import_file
    rec = import_file(LOGS / f"{name}.log.json.gz").record
    assert rec is not None
    same_as_the_public_saw(rec)
    every_state(rec)


# ---- speed ---------------------------------------------------------------------------------------------


def test_a_fresh_game_before_any_deal() -> None:
    st = GAME.initial_state(["p1", "p2", "p3"], {})
    assert isinstance(st, PeriklesState)
    assert len(F.features(st, "p2")) == len(F.NAMES)
    assert F.global_features(st)[:3] == [1.0, 0.0, 0.0]
    assert fresh(3).cubes[CITY_KEYS[0]]["p1"] == 2


def test_the_shipped_model_reads_these_features() -> None:
    """The model in the package was trained on exactly these names (the version check), and gives
    chances that add up to one on the public positions of a seat-view game."""
    from replay.evaluator import load_model

    model = load_model("perikles")
    assert model is not None
    assert model.features.names == F.NAMES and model.features.global_names == F.GLOBAL_NAMES
    rec = simulate_one(GAME, 3, 5, 0, view="p2")
    chart = positions(rec, hidden="resample")[0]
    for got in model.chances_many([p.state for p in chart[::10]]):
        assert sum(got.values()) == pytest.approx(1.0) and all(0.0 < c < 1.0 for c in got.values())
