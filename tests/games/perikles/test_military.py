"""The military phase (5.5): recovery, the Spartan choice, commit order, where units may go, permission."""

from __future__ import annotations

import pytest
from perikles_helpers import MILITARY_LOCATIONS as LOCS
from perikles_helpers import commit, give_units, goto, military_phase, placed, play, request

from replay.engine import IllegalMove
from replay.games.perikles import tasks
from replay.games.perikles.components import UNIT
from replay.games.perikles.moves import (
    AnswerPermission,
    ChooseFirstCommitter,
    EndCommit,
    PlaySlaveRevolt,
    RecoverUnit,
    SendUnit,
    SetPermission,
    SpendCube,
)
from replay.games.perikles.phases import commitment


def _military(ruleset: str = "official", hands: dict[str, list[str]] | None = None,
              specials: list[str] | None = None):  # type: ignore[no-untyped-def]
    return military_phase(ruleset, hands or {"p1": ["athens-2a", "any-a"], "p2": ["sparta-2a"], "p3": ["any-b"]},
                          specials)


def _send(power: str, unit_type: str, strength: int, location: str, side: str) -> SendUnit:
    return SendUnit(power=power, unit_type=unit_type, strength=strength, location=location, side=side)


def test_spartan_leader_names_the_first_committer() -> None:
    st = _military()
    assert st.turn() == "p1" and st.stage == "choose_first"
    assert len(list(st.legal_moves())) == 3
    play(st, ChooseFirstCommitter(player="p2"))
    assert st.turn() == "p2" and st.hands["p2"] == [] and st.spent == ["sparta-2a"]


def test_commit_order_two_shards_then_one() -> None:
    st = _military()
    play(st, ChooseFirstCommitter(player="p2"))
    order, spent = [], []
    while st.stage == "commit":
        order.append(st.turn())
        spent.append(st.spent[-1])
        play(st, EndCommit())
    assert order == ["p2", "p1", "p3", "p1"]
    assert spent == ["sparta-2a", "athens-2a", "any-b", "any-a"]


def test_no_sparta_leader_start_player_commits_first() -> None:
    st = placed(3, locations=LOCS)
    st.hands = {"p1": ["any-a"], "p2": ["any-b"], "p3": ["any-c"]}
    give_units(st, "p2", "athens")
    give_units(st, "p3", "persia")
    give_units(st, "p1", "thebes")
    goto(st, tasks.MilitaryPhase())
    assert st.turn() == "p1" and st.stage == "commit"


def test_dead_pool_recovery_takes_the_weakest_automatically() -> None:
    st = placed(3, locations=LOCS)
    st.hands = {"p1": ["any-a"], "p2": ["any-b"], "p3": ["any-c"]}
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    for uid in ("u3", "u5"):  # Athenian hoplites 2 and 3
        st.unit_at[uid] = "dead"
        st.unit_holder[uid] = None
    goto(st, tasks.MilitaryPhase())
    assert st.unit_at["u3"] == "held" and st.unit_holder["u3"] == "p2" and st.unit_at["u5"] == "dead"


def test_dead_pool_recovery_choice_of_type_before_the_spartan_choice() -> None:
    st = placed(3, locations=LOCS)
    st.hands = {"p1": ["any-a"], "p2": ["any-b"], "p3": ["any-c"]}
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    for uid in ("u1", "u14", "u15"):  # Athenian 1-hoplite, 4-trireme; Spartan 1-hoplite
        st.unit_at[uid] = "dead"
    goto(st, tasks.MilitaryPhase())
    assert st.unit_at["u15"] == "held"  # Sparta's only dead type came back first, automatically
    assert st.turn() == "p2" and set(st.legal_moves()) == {RecoverUnit(city="athens", unit_type="hoplite"),
                                                           RecoverUnit(city="athens", unit_type="trireme")}
    play(st, RecoverUnit(city="athens", unit_type="trireme"))
    assert st.unit_at["u14"] == "held" and st.unit_at["u1"] == "dead"
    assert st.turn() == "p1" and st.stage == "choose_first"


def test_bga_spartan_choice_comes_before_recovery() -> None:
    st = placed(3, locations=LOCS, ruleset="bga")
    st.hands = {"p1": ["any-a"], "p2": ["any-b"], "p3": ["any-c"]}
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    for uid in ("u1", "u14"):
        st.unit_at[uid] = "dead"
    goto(st, tasks.MilitaryPhase())
    assert st.stage == "choose_first"
    play(st, ChooseFirstCommitter(player="p3"))
    assert st.turn() == "p2" and st.stage == "recover"


def test_two_units_then_a_cube_for_up_to_two_more_of_that_city() -> None:
    st = _military()
    play(st, ChooseFirstCommitter(player="p2"))
    play(st, _send("athens", "hoplite", 1, "pylos", "attacker"))
    play(st, _send("athens", "hoplite", 2, "pylos", "attacker"))
    with pytest.raises(IllegalMove, match="at most 2 units"):
        st.apply_move("p2", _send("athens", "hoplite", 3, "pylos", "attacker"))
    with pytest.raises(IllegalMove, match="does not lead it"):
        st.apply_move("p2", SpendCube(city="thebes"))
    before = st.cubes["argos"]["p2"]
    play(st, SpendCube(city="argos"))
    assert st.cubes["argos"]["p2"] == before - 1
    with pytest.raises(IllegalMove, match="must send at least one more unit"):
        st.apply_move("p2", EndCommit())
    with pytest.raises(IllegalMove, match="allows only Argos units"):
        st.apply_move("p2", _send("athens", "hoplite", 3, "pylos", "attacker"))
    play(st, _send("argos", "hoplite", 3, "pylos", "attacker"))
    play(st, _send("argos", "hoplite", 3, "pylos", "attacker"))
    with pytest.raises(IllegalMove, match="at most 4 units"):
        st.apply_move("p2", _send("argos", "hoplite", 2, "pylos", "attacker"))
    play(st, EndCommit())


def test_cannot_attack_a_location_of_a_city_he_leads() -> None:
    st = _military()
    play(st, ChooseFirstCommitter(player="p2"))
    with pytest.raises(IllegalMove, match="he leads Athens, which owns it"):
        st.apply_move("p2", _send("argos", "hoplite", 1, "plataea", "attacker"))


def test_attack_restrictions() -> None:
    st = _military()
    play(st, ChooseFirstCommitter(player="p2"))
    # land-only location
    problem = commitment.attack_problem(st, "p1", "sparta", "trireme", "mantinea")
    assert problem == "p1 cannot attack Mantinea with a Sparta trireme: Mantinea is a land battle, triremes cannot go there"
    with pytest.raises(IllegalMove, match="p2 cannot attack Mantinea with an Athens trireme: he leads Argos"):
        st.apply_move("p2", _send("athens", "trireme", 1, "mantinea", "attacker"))
    # Argos defends Pylos (with Sparta's leave): Argos is now allied with Sparta
    st.permissions["pylos"] = ["argos"]
    play(st, _send("argos", "hoplite", 1, "pylos", "defender"))
    assert st.relation("argos", "sparta") == 1
    # Athens may not attack where Argos, led by the same player, defends
    with pytest.raises(IllegalMove, match="he leads Argos, which already defends there"):
        st.apply_move("p2", _send("athens", "hoplite", 1, "pylos", "attacker"))
    # Argos is allied with Sparta now: it may not attack another Spartan location
    with pytest.raises(IllegalMove, match="Argos and Sparta \\(defending\\) are allied"):
        st.apply_move("p2", _send("argos", "hoplite", 1, "sicily", "attacker"))


def test_war_and_alliance_block_later_commitments() -> None:
    st = _military()
    play(st, ChooseFirstCommitter(player="p2"))
    play(st, _send("athens", "hoplite", 1, "cephallenia", "attacker"))
    assert st.relation("athens", "sparta") == -1
    # Persia (p3) defends Sicily for Sparta -> allied with Sparta; then attacks where Athens attacks? allowed.
    st.permissions["sicily"] = ["persia"]
    commitment.commit(st, "p3", "u62", "sicily", "defender")
    assert st.relation("persia", "sparta") == 1
    # Athens cannot defend Sicily: at war with Sparta, which owns it
    problem = commitment.defence_problem(st, "p2", "athens", "hoplite", "sicily")
    assert problem is not None and "at war with Sparta" in problem
    # Persia may not attack Cephallenia alongside... it is allied with Sparta, the owner
    problem = commitment.attack_problem(st, "p3", "persia", "hoplite", "cephallenia")
    assert problem is not None and "allied" in problem


def test_defence_needs_permission_from_the_owners_leader() -> None:
    st = _military()
    play(st, ChooseFirstCommitter(player="p2"))
    play(st, _send("argos", "hoplite", 1, "cephallenia", "defender"))
    assert st.turn() == "p1" and st.stage == "permission"
    play(st, AnswerPermission(grant=False))
    assert st.turn() == "p2" and st.commit_sent == 0
    with pytest.raises(IllegalMove, match="p1 refused"):
        st.apply_move("p2", _send("argos", "hoplite", 1, "cephallenia", "defender"))
    play(st, _send("argos", "hoplite", 2, "sicily", "defender"))
    play(st, AnswerPermission(grant=True))
    assert st.turn() == "p2" and st.commit_sent == 1 and st.permissions["sicily"] == ["argos"]
    play(st, _send("argos", "hoplite", 3, "sicily", "defender"))  # already permitted: no question
    assert st.turn() == "p2" and st.commit_sent == 2


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_a_leader_sets_a_standing_permission_whoever_is_to_move(ruleset: str) -> None:
    """P1: p1 (Sparta) lets Argos defend Cephallenia on his own, during p2's commit turn; p2 then defends
    without asking.  No revocation once Argos defends there; no grant by anyone but the leader, none to a
    city at war with Sparta."""
    st = _military(ruleset)
    play(st, ChooseFirstCommitter(player="p2"))
    assert st.turn() == "p2" and SetPermission(location="cephallenia", power="argos", grant=True) not in st.legal_moves()
    st.apply_move("p1", SetPermission(location="cephallenia", power="argos", grant=True))
    assert st.turn() == "p2" and st.permissions["cephallenia"] == ["argos"]
    assert st.observe(["permissions"])["permissions"]["cephallenia"] == ["argos"]
    with pytest.raises(IllegalMove, match="p2 cannot grant permission to defend Cephallenia: he does not lead Sparta"):
        st.apply_move("p2", SetPermission(location="cephallenia", power="athens", grant=True))
    with pytest.raises(IllegalMove, match="he leads it"):
        st.apply_move("p1", SetPermission(location="cephallenia", power="sparta", grant=True))
    play(st, _send("argos", "hoplite", 1, "cephallenia", "defender"))  # no question asked
    assert st.turn() == "p2" and st.commit_sent == 1
    with pytest.raises(IllegalMove, match="already defend there"):
        st.apply_move("p1", SetPermission(location="cephallenia", power="argos", grant=False))
    play(st, _send("athens", "hoplite", 1, "pylos", "attacker"))  # Athens at war with Sparta now
    with pytest.raises(IllegalMove, match="at war with Sparta"):
        st.apply_move("p1", SetPermission(location="pylos", power="athens", grant=True))
    st.apply_move("p1", SetPermission(location="pylos", power="persia", grant=True))
    st.apply_move("p1", SetPermission(location="pylos", power="persia", grant=False))
    assert "pylos" not in st.permissions


def test_a_refusal_withdraws_a_permission_given_while_the_request_waited() -> None:
    st = _military("bga")
    st.seat_view = True
    play(st, ChooseFirstCommitter(player="p2"))
    from replay.games.perikles.moves import AskPermission
    play(st, AskPermission(power="argos", location="cephallenia"))
    assert st.turn() == "p1"
    st.apply_move("p1", SetPermission(location="cephallenia", power="argos", grant=True))
    play(st, AnswerPermission(grant=False))
    assert "cephallenia" not in st.permissions and st.turn() == "p2"


def test_defence_of_a_leaderless_city_is_impossible() -> None:
    st = _military()
    play(st, ChooseFirstCommitter(player="p2"))
    st.locations[4] = "delium"  # Thebes has no leader
    with pytest.raises(IllegalMove, match="Thebes has no leader"):
        st.apply_move("p2", _send("argos", "hoplite", 1, "delium", "defender"))


def test_main_and_allied_positions() -> None:
    st = _military()
    a = commit(st, "p2", "athens", "hoplite", 1, "cephallenia", "attacker")
    b = commit(st, "p3", "persia", "hoplite", 2, "cephallenia", "attacker")
    c = commit(st, "p2", "athens", "hoplite", 2, "cephallenia", "attacker")
    assert st.main_player["cephallenia"]["attacker"] == "p2"
    assert (st.unit_main[a], st.unit_main[b], st.unit_main[c]) == (True, False, True)


def test_persian_leaders_share_the_main_position() -> None:
    st = _military()
    give_units(st, "p1", "persia")
    a = commit(st, "p3", "persia", "hoplite", 2, "lesbos", "attacker")
    b = commit(st, "p1", "persia", "hoplite", 3, "lesbos", "attacker")
    assert st.unit_main[a] and st.unit_main[b]


def test_bga_free_commit_turn_after_a_granted_permission() -> None:
    hands = {"p1": ["athens-2a"], "p2": ["sparta-2a", "argos-2a"], "p3": ["corinth-2a"]}
    # bga: p3 gets a free turn (no tile spent) right after the grant, and still commits with his own tile later
    for ruleset, expected in (("official", ["p2", "p3", "p1", "p2"]), ("bga", ["p2", "p3", "p1", "p2", "p3"])):
        st = _military(ruleset, hands={k: list(v) for k, v in hands.items()})
        play(st, ChooseFirstCommitter(player="p2"))
        order = []
        while st.stage == "commit":
            p = st.turn()
            order.append(p)
            if len(order) == 1:
                play(st, _send("argos", "hoplite", 1, "sicily", "defender"))
                play(st, AnswerPermission(grant=True))
            play(st, EndCommit())
        assert order == expected, ruleset


def test_slave_revolt_removes_a_random_spartan_hoplite() -> None:
    st = _military(specials=["brasidas", "slaverevolt", "phormio"])
    play(st, ChooseFirstCommitter(player="p2"))
    with pytest.raises(IllegalMove, match="no Spartan hoplite at Pylos"):
        st.apply_move("p2", PlaySlaveRevolt(target="pylos"))
    play(st, PlaySlaveRevolt(target="sparta"))
    req = request(st)
    assert req.kind == "choose" and req.name == "slave_revolt" and len(req.options) == 10
    st.apply_chance({"choose": "slave_revolt", "value": "u24"})
    assert st.unit_at["u24"] == "stack" and UNIT["u24"].strength == 4
    assert st.turn() == "p2" and st.special_used["p2"]
    assert all(not isinstance(m, PlaySlaveRevolt) for m in st.legal_moves())


def test_slave_revolt_pick_must_be_a_spartan_hoplite_there() -> None:
    from replay.engine import ImpossibleChance
    st = _military(specials=["brasidas", "slaverevolt", "phormio"])
    play(st, ChooseFirstCommitter(player="p2"))
    play(st, PlaySlaveRevolt(target="sparta"))
    with pytest.raises(ImpossibleChance):
        st.apply_chance({"choose": "slave_revolt", "value": "u1"})


def test_slave_revolt_pick_may_name_a_twin_of_the_counter_there() -> None:
    """seed8034 packet 64: the record sent 'a Spartan 3-hoplite' (the engine moved u20); BGA's pick names
    u22, the same kind: the two ids swap, u22 goes home and u20 stays with the leader."""
    st = _military(specials=["slaverevolt", "brasidas", "phormio"])
    play(st, ChooseFirstCommitter(player="p1"))
    play(st, _send("sparta", "hoplite", 3, "cephallenia", "defender"))
    assert st.unit_location["u20"] == "cephallenia"
    play(st, PlaySlaveRevolt(target="cephallenia"))
    assert request(st).options == ("u20",)
    st.apply_chance({"choose": "slave_revolt", "value": "u22"})
    assert st.unit_at["u22"] == "stack" and st.unit_at["u20"] == "held" and not st.units_at("cephallenia")
    st2 = _military(specials=["slaverevolt", "brasidas", "phormio"])
    play(st2, ChooseFirstCommitter(player="p1"))
    play(st2, _send("sparta", "hoplite", 3, "cephallenia", "defender"))
    play(st2, PlaySlaveRevolt(target="cephallenia"))
    from replay.engine import ImpossibleChance
    with pytest.raises(ImpossibleChance):  # a Spartan 4-hoplite is no twin of the one there
        st2.apply_chance({"choose": "slave_revolt", "value": "u23"})


def test_player_without_units_is_skipped() -> None:
    st = _military()
    st.unit_at = {u: ("stack" if st.unit_holder[u] == "p1" else a) for u, a in st.unit_at.items()}
    play(st, ChooseFirstCommitter(player="p1"))
    assert st.turn() == "p2"  # p1's tile was spent, he had nothing to send
    assert "athens-2a" in st.spent


def test_attackers_at_war_cannot_attack_together() -> None:
    st = _military()
    commitment.commit(st, "p2", "u1", "cephallenia", "attacker")  # Athens attacks Cephallenia (Sparta's)
    st.set_relation("argos", "athens", -1)
    problem = commitment.attack_problem(st, "p2", "argos", "hoplite", "cephallenia")
    assert problem is not None and "Argos is at war with Athens, which already attacks there" in problem


def test_defender_cannot_be_allied_with_an_attacker() -> None:
    st = _military()
    commitment.commit(st, "p2", "u1", "cephallenia", "attacker")
    st.set_relation("persia", "athens", 1)
    problem = commitment.defence_problem(st, "p3", "persia", "hoplite", "cephallenia")
    assert problem is not None and "Persia is allied with Athens, which attacks it" in problem


def test_persian_leader_spends_a_cube_anywhere_for_more_persians() -> None:
    st = _military(hands={"p1": ["any-a"], "p2": ["any-b"], "p3": ["any-c"]})
    play(st, ChooseFirstCommitter(player="p3"))
    assert st.turn() == "p3"
    play(st, _send("persia", "hoplite", 2, "lesbos", "attacker"))
    play(st, _send("persia", "hoplite", 2, "lesbos", "attacker"))
    play(st, SpendCube(city="megara"))
    play(st, _send("persia", "trireme", 3, "lesbos", "attacker"))
    assert st.commit_sent == 3 and st.cubes["megara"]["p3"] == 3


def test_persian_units_return_for_the_next_round() -> None:
    from replay.games.perikles.phases import elections
    st = placed(3, locations=LOCS)
    st.unit_at["u62"] = "stack"  # a Persian casualty of the last round waits on the Persian stack
    st.alpha["athens"] = "p1"
    elections.hold_elections(st)
    assert st.unit_at["u62"] == "pool"
