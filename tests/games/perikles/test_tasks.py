"""The tasks of Perikles's rules (``tasks.py``): what the snapshot shows of them, and copies."""

from __future__ import annotations

import pytest
from perikles_helpers import at_battle, commit, fight, give_units, request

from replay.games.perikles import GAME, tasks
from replay.games.perikles.state import FLAT, PeriklesState
from replay.simulate import simulate_one
from tests.states import every_state

SETUP = {"deal_influence", "deal_locations", "deal_specials", "first_player", "placement"}
STEPS = {cls.step: cls for cls in (tasks.TakeATile, tasks.PlaceTheAnyCube, tasks.CandidateSymbol,
                                   tasks.AssassinSymbol, tasks.SpecialTileAfterTheTile, tasks.AlkibiadesMoves)}


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_the_snapshot_shows_the_pending_task_s_stage_and_step(ruleset: str) -> None:
    """At every state of a game the snapshot's stage is the pending task's, its phase the task's phase,
    and its step the influence turn's: the task's own during a turn, else the last turn's (``done``),
    or none before the first."""
    rec = simulate_one(GAME, 3, 5, 0, options={"ruleset": ruleset})
    seen: set[tuple[str, str]] = set()
    turns_begun = False
    for state in every_state(rec):
        assert isinstance(state, PeriklesState)
        snap = state.snapshot()
        task = state.pending()
        seen.add((snap["stage"], snap["step"]))
        if task is None:
            assert (snap["stage"], snap["step"], snap["phase"]) == ("over", "done", "game end")
            continue
        assert snap["stage"] == task.stage == state.stage and snap["phase"] == task.phase
        if isinstance(task, tasks.InfluenceStep):
            turns_begun = True
            assert snap["stage"] == "influence" and STEPS[snap["step"]] is type(task)
        else:
            assert snap["step"] == ("done" if turns_begun else "")
            assert turns_begun or snap["stage"] in SETUP
    assert {("placement", ""), ("influence", "before"), ("refill", "done"), ("commit", "done"),
            ("deal_influence", "done"), ("over", "done")} <= seen


def _pylos_dice() -> PeriklesState:
    """Pylos' hoplite combat, at its dice (Athens' 3-hoplite attacks Sparta's 1-hoplite)."""
    st = at_battle(locations=["pylos", "plataea", "amphipolis", "cephallenia", "mantinea", "lesbos", "sicily"])
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "hoplite", 3, "pylos", "attacker")
    commit(st, "p1", "sparta", "hoplite", 1, "pylos", "defender")
    fight(st, "pylos")
    return st


def test_a_copy_shares_no_task_with_its_original() -> None:
    """The dice step waits on for the defender's roll after the attacker's: rolling on a copy leaves the
    original awaiting the attacker's."""
    st = _pylos_dice()
    assert type(st.pending()) is tasks.Dice and request(st).name == "attacker"
    trial = st.copy()
    trial.apply_chance({"roll": [3, 3]})
    assert request(trial).name == "defender"
    assert request(st).name == "attacker" and st.pending() is not trial.pending()
    st.apply_chance({"roll": [1, 2]})
    assert request(st).name == "defender" and st.pending_roll == 3


@pytest.mark.parametrize("players", [3, 4, 5])
def test_what_a_copy_copies_one_level_deep_holds_nothing_deeper(players: int) -> None:
    """A copy copies :data:`FLAT`'s dicts and lists one level deep: at every state of a game they hold
    no dict or list (one that did would be shared between a state and its copies)."""
    seen = 0
    for rec in (simulate_one(GAME, players, 11, 0), simulate_one(GAME, players, 11, 1, agents=["random"] * players)):
        for st in every_state(rec):
            for name in FLAT:
                value = getattr(st, name)
                assert isinstance(value, (dict, list)), name
                inner = value.values() if isinstance(value, dict) else value
                assert not any(isinstance(v, (dict, list)) for v in inner), name
            seen += 1
    assert seen > 500


def test_a_listing_left_unfinished_keeps_no_unit_lookups() -> None:
    """The commit turn keeps its unit lookups while its moves are listed or one is checked; a listing
    dropped half-way, and a copy made during one, keep none."""
    st = at_battle()
    give_units(st, "p1", "sparta")
    st.stack = [tasks.CommitTurn("p1")]
    moves = iter(st.legal_moves())
    first = next(moves)
    assert st._memo is not None and st.copy()._memo is None
    del moves
    assert st._memo is None
    assert st.pending() is not None and st.pending().check(st, "p1", first) is None and st._memo is None  # type: ignore[union-attr]
