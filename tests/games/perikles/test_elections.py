"""Nominations (5.3) and elections (5.4): who may nominate whom, skipping, every tie pattern, units, Persia."""

from __future__ import annotations

import pytest
from perikles_helpers import goto, milestones, placed, play

from replay.engine import IllegalMove
from replay.games.perikles import tasks
from replay.games.perikles.components import CITY_KEYS, UNITS
from replay.games.perikles.moves import Nominate
from replay.games.perikles.phases import elections, nominations


def _nomination_phase(ruleset: str = "official"):  # type: ignore[no-untyped-def]
    st = placed(3, ruleset=ruleset)
    goto(st, tasks.NominationsBegin())
    return st


def test_nominator_needs_influence_and_nominee_a_cube() -> None:
    st = _nomination_phase()
    assert st.turn() == "p1"
    st.cubes["argos"]["p1"] = 0
    with pytest.raises(IllegalMove, match="p1 cannot nominate in Argos: he has no cube there"):
        st.apply_move("p1", Nominate(city="argos", nominee="p2"))
    st.cubes["thebes"]["p2"] = 0
    with pytest.raises(IllegalMove, match="p2 has no cube there outside the candidate spaces"):
        st.apply_move("p1", Nominate(city="thebes", nominee="p2"))


def test_alpha_then_beta_and_never_the_same_colour_twice() -> None:
    st = _nomination_phase()
    play(st, Nominate(city="athens", nominee="p2"))
    assert st.alpha["athens"] == "p2" and st.cubes["athens"]["p2"] == 1
    assert st.turn() == "p2"
    with pytest.raises(IllegalMove, match="already its alpha candidate"):
        st.apply_move("p2", Nominate(city="athens", nominee="p2"))
    play(st, Nominate(city="athens", nominee="p3"))
    assert st.beta["athens"] == "p3"
    with pytest.raises(IllegalMove, match="both candidate spaces are taken"):
        st.apply_move("p3", Nominate(city="athens", nominee="p1"))


def test_a_candidate_counts_as_influence_for_nominating() -> None:
    st = _nomination_phase()
    st.cubes["corinth"] = {"p1": 0, "p2": 2, "p3": 0}
    st.alpha["corinth"] = "p1"
    assert nominations.nominate_check(st, "p1", Nominate(city="corinth", nominee="p2")) is None


def test_lone_alpha_cannot_nominate_there() -> None:
    st = _nomination_phase()
    st.cubes["megara"] = {"p1": 3, "p2": 0, "p3": 0}
    st.alpha["megara"] = "p1"
    assert all(m.city != "megara" for m in st.legal_moves())


def _only_p1_and_p3_can_nominate(st):  # type: ignore[no-untyped-def]
    for c in CITY_KEYS:
        st.cubes[c] = {"p1": 0, "p2": 0, "p3": 0}
    for c in ("athens", "sparta", "argos"):
        st.cubes[c]["p1"] = 1
        st.cubes[c]["p3"] = 1


def test_a_player_who_cannot_nominate_is_passed_over() -> None:
    st = _nomination_phase()
    _only_p1_and_p3_can_nominate(st)
    play(st, Nominate(city="athens", nominee="p1"))
    assert st.turn() == "p3"  # p2 cannot, so p3 goes


def test_bga_passes_over_two_players() -> None:
    st = placed(4, ruleset="bga")
    goto(st, tasks.NominationsBegin())
    for c in CITY_KEYS:
        st.cubes[c] = {p: 0 for p in st.players}
    for c in ("athens", "sparta", "argos", "corinth"):
        for p in ("p1", "p3", "p4"):
            st.cubes[c][p] = 1
    play(st, Nominate(city="athens", nominee="p1"))
    assert st.turn() == "p4"  # p2 cannot; BGA also passes over p3
    official = placed(4)
    goto(official, tasks.NominationsBegin())
    official.cubes = {c: dict(v) for c, v in st.cubes.items()}
    official.cubes["athens"]["p1"] = 1
    play(official, Nominate(city="athens", nominee="p1"))
    assert official.turn() == "p3"


def test_phase_ends_when_nobody_can_nominate() -> None:
    st = _nomination_phase()
    for c in CITY_KEYS:
        st.cubes[c] = {"p1": 0, "p2": 0, "p3": 0}
    st.cubes["athens"]["p1"] = 1
    play(st, Nominate(city="athens", nominee="p1"))
    assert st.phase()[1] == "military" or st.stage not in ("nomination", "nomination_start")
    [athens] = [m for m in milestones(st, "election") if m["city"] == "athens"]
    assert athens["winner"] == "p1" and athens["beta_player"] is None


@pytest.mark.parametrize("alpha_cubes, beta_cubes, winner, removed", [
    (3, 1, "p1", 1),   # alpha has more
    (1, 3, "p2", 1),   # beta has more
    (2, 2, "p1", 2),   # tie: alpha
    (0, 0, "p1", 0),   # tie at nothing: alpha
    (0, 1, "p2", 0),   # beta wins, alpha has nothing to match
    (4, 0, "p1", 0),
])
def test_contested_election(alpha_cubes: int, beta_cubes: int, winner: str, removed: int) -> None:
    st = placed(3)
    st.cubes["corinth"] = {"p1": alpha_cubes, "p2": beta_cubes, "p3": 5}
    st.alpha["corinth"], st.beta["corinth"] = "p1", "p2"
    elections.hold_election(st, "corinth")
    assert st.leader["corinth"] == winner
    loser_cubes = {"p1": alpha_cubes, "p2": beta_cubes}
    loser = "p2" if winner == "p1" else "p1"
    assert st.cubes["corinth"][winner] == loser_cubes[winner] - removed
    assert st.cubes["corinth"][loser] == loser_cubes[loser]
    assert (st.alpha["corinth"], st.beta["corinth"]) == (None, None)
    [m] = milestones(st, "election")
    assert m == {"type": "election", "seq": st.seq, "round": 1, "city": "corinth", "alpha_player": "p1",
                 "alpha_cubes": alpha_cubes, "beta_player": "p2", "beta_cubes": beta_cubes, "winner": winner,
                 "cubes_removed": removed}


def test_unopposed_and_empty_elections() -> None:
    st = placed(3)
    st.alpha["thebes"] = "p3"
    before = st.cubes["thebes"]["p3"]
    elections.hold_election(st, "thebes")
    elections.hold_election(st, "argos")
    assert st.leader["thebes"] == "p3" and st.cubes["thebes"]["p3"] == before
    assert st.leader["argos"] is None
    thebes, argos = milestones(st, "election")
    assert thebes["cubes_removed"] == 0 and argos["winner"] is None and argos["alpha_player"] is None


def test_leaders_take_units_and_the_rest_lead_persia() -> None:
    st = placed(3)
    st.alpha["athens"] = "p1"
    st.alpha["sparta"] = "p1"
    elections.hold_elections(st)
    athens_units = [u.id for u in UNITS if u.power == "athens"]
    assert all(st.unit_at[u] == "held" and st.unit_holder[u] == "p1" for u in athens_units)
    assert st.persian_leaders == ["p2", "p3"]
    persians = [u.id for u in UNITS if u.power == "persia"]
    assert all(st.unit_at[u] == "pool" for u in persians)
    assert sorted(st.controlled_units("p2")) == sorted(persians) == sorted(st.controlled_units("p3"))


def test_dead_units_are_not_taken_by_the_new_leader() -> None:
    st = placed(3)
    st.unit_at["u1"] = "dead"
    st.alpha["athens"] = "p2"
    elections.hold_elections(st)
    assert st.unit_at["u1"] == "dead" and st.unit_holder["u2"] == "p2"


def test_no_persia_when_everyone_leads() -> None:
    st = placed(3)
    for c, p in zip(CITY_KEYS, ["p1", "p2", "p3", "p1", "p2", "p3"]):
        st.alpha[c] = p
    elections.hold_elections(st)
    assert st.persian_leaders == []
    assert all(st.unit_at[u.id] == "stack" for u in UNITS if u.power == "persia")
