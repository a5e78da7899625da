"""Battles (rules 5.6): the combat results table, the hit rule, dice, casualties, claims, defeats."""

from __future__ import annotations

import pytest
from perikles_helpers import at_battle, commit, fight, give_units, milestones, play, request, roll

from replay.engine import IllegalMove, ImpossibleChance, MissingChance
from replay.games.perikles.components import CRT, crt_column
from replay.games.perikles.moves import (
    ChooseCasualty,
    DeclineSpecial,
    PlayBrasidas,
    PlayPersianFleet,
    PlayPhormio,
    PlayThessalianAllies,
)
from replay.games.perikles.phases import battles

LOCS = ["pylos", "plataea", "amphipolis", "cephallenia", "mantinea", "lesbos", "sicily"]


@pytest.mark.parametrize("a, d, column", [
    # 3:1 (a >= 3d) and just below it
    (3, 1, 6), (6, 2, 6), (9, 3, 6), (5, 2, 5), (8, 3, 5),
    # 2:1 (a >= 2d) and just below it
    (2, 1, 5), (4, 2, 5), (6, 3, 5), (5, 3, 4), (7, 4, 4),
    # +2 (a >= d + 2) and just below it
    (7, 5, 4), (6, 4, 4), (6, 5, 3), (8, 7, 3),
    # 1:1 (a >= d, or a >= d - 1 with a > 1) and just below it
    (1, 1, 3), (4, 4, 3), (2, 3, 3), (4, 5, 3), (1, 2, 1), (3, 5, 2),
    # -2 (2a > d) and just below it
    (4, 7, 2), (3, 5, 2), (5, 9, 2), (2, 4, 1), (4, 8, 1),
    # 1:2 (otherwise)
    (1, 3, 1), (2, 5, 1), (1, 9, 1),
])
def test_combat_results_table_columns(a: int, d: int, column: int) -> None:
    assert crt_column(a, d).column == column


def test_combat_results_table_targets() -> None:
    targets = {c.label: (c.attacker_target, c.defender_target) for c in CRT}
    assert targets == {"3:1": (5, 10), "2:1": (6, 9), "+2": (7, 8), "1:1": (8, 7), "-2": (9, 6), "1:2": (10, 5)}


@pytest.mark.parametrize("ruleset, total, target, hit", [
    ("official", 8, 8, False), ("official", 9, 8, True), ("official", 7, 8, False),
    ("bga", 8, 8, True), ("bga", 9, 8, True), ("bga", 7, 8, False),
])
def test_hit_rule(ruleset: str, total: int, target: int, hit: bool) -> None:
    st = at_battle(ruleset=ruleset, locations=LOCS)
    assert battles.hits(st, total, target) is hit


def _sparta_vs_athens(ruleset: str = "official"):  # type: ignore[no-untyped-def]
    """p1 leads Sparta and defends Pylos with a 1-hoplite; p2 leads Athens and attacks with a 3-hoplite."""
    st = at_battle(ruleset=ruleset, locations=LOCS)
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "hoplite", 3, "pylos", "attacker")
    commit(st, "p1", "sparta", "hoplite", 1, "pylos", "defender")
    return st


def test_dice_combat_attacker_wins_claims_and_defeats() -> None:
    st = _sparta_vs_athens()
    fight(st, "pylos")  # trireme combat: nobody; hoplite combat: 3 vs 1 -> 3:1
    roll(st, (3, 3), (5, 5))  # 6 > 5 hits; 10 is not > 10
    roll(st, (1, 5), (6, 6))  # 6 > 5 hits; 12 > 10 hits -> attacker has 2 first
    [c] = milestones(st, "combat")
    assert (c["location"], c["combat_no"], c["combat_type"]) == ("pylos", 2, "hoplite")
    assert (c["attack_strength"], c["defence_strength"], c["table_column"]) == (3, 1, 6)
    assert (c["attacker_target"], c["defender_target"]) == (5, 10)
    assert c["rolls"] == [[6, 10], [6, 12]]
    assert c["winner"] == "attacker"
    assert (c["casualty_power"], c["casualty_strength"]) == ("sparta", 1)
    assert c["attacker_player"] == "p2" and c["defender_player"] == "p1"
    assert st.defeats["sparta"] == 1
    assert st.location_vp["p2"] == 4 and "pylos" in st.claimed["p2"]
    assert milestones(st, "location_claimed")[0] == {
        "type": "location_claimed", "seq": st.seq, "round": 1, "location": "pylos", "player_id": "p2", "points": 4}


def test_dice_combat_bga_counts_equal_totals() -> None:
    st = _sparta_vs_athens("bga")
    fight(st, "pylos")
    roll(st, (2, 3), (5, 5))  # 5 >= 5 and 10 >= 10: both hit under bga
    roll(st, (1, 1), (4, 6))  # 2 misses, 10 >= 10 hits -> defender holds 2
    [c] = milestones(st, "combat")
    assert c["winner"] == "defender"
    assert st.location_vp["p1"] == 4 and st.defeats["sparta"] == 0


def test_casualty_goes_to_dead_pool() -> None:
    st = _sparta_vs_athens()
    fight(st, "pylos")
    roll(st, (6, 6), (1, 1))
    roll(st, (6, 6), (1, 1))
    lost = milestones(st, "combat")[0]["casualty"]
    assert st.unit_at[lost] == "dead"


def test_roll_off_when_both_reach_two() -> None:
    st = _sparta_vs_athens()
    fight(st, "pylos")
    roll(st, (6, 6), (6, 6))  # 1 - 1
    roll(st, (6, 6), (6, 6))  # 2 - 2: roll-off
    roll(st, (6, 6), (6, 6))  # both hit again: still a roll-off
    roll(st, (1, 1), (1, 1))  # neither
    roll(st, (1, 2), (6, 5))  # only the defender hits: defender wins
    [c] = milestones(st, "combat")
    assert c["winner"] == "defender" and len(c["rolls"]) == 5
    assert c["casualty_power"] == "athens"


def test_impossible_die_is_impossible_chance() -> None:
    st = _sparta_vs_athens()
    fight(st, "pylos")
    with pytest.raises(ImpossibleChance, match="d6 cannot show 7"):
        st.apply_chance({"roll": [7, 1]})
    with pytest.raises(ImpossibleChance):
        st.apply_chance({"roll": [3]})


ROLLS: list[object] = [[1, 6], [6, 6], [0, 3], [7, 1], [3, 7], [True, 2], [2, False], [1.0, 2], ["1", 2],
                       [1], [1, 2, 3], [], (1, 2), None, [None, 1]]


@pytest.mark.parametrize("dice", ROLLS)
def test_a_roll_taken_at_once_is_a_roll_the_request_admits(dice: object) -> None:
    """The dice step takes a roll at once (no request made) exactly when its request would admit
    it, and the state after it is the one the checked way gives."""
    from replay.engine import check_outcome_form
    from replay.games.perikles.tasks import Dice

    st = _sparta_vs_athens()
    fight(st, "pylos")
    top = st.stack[-1]
    assert isinstance(top, Dice) and top._request is None
    outcome = {"roll": dice}
    try:
        check_outcome_form(request(st.copy()), outcome)
        admitted = True
    except ImpossibleChance:
        admitted = False
    assert (top.outcome_at_once(st, outcome) is not None) == admitted
    if admitted:
        checked = st.copy()
        req = request(checked)  # the long way: the request made, the roll checked against it
        check_outcome_form(req, outcome)
        checked._reveal(req, outcome)
        st.apply_chance(outcome)
        assert st.snapshot() == checked.snapshot()


def test_nobody_committed_leaves_the_tile_unclaimed() -> None:
    st = at_battle(locations=LOCS)
    fight(st, "pylos")
    assert "pylos" in st.unclaimed and not milestones(st, "combat")


def test_only_defenders_earn_two_cubes() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p1", "sparta")
    before = st.cubes["sparta"]["p1"]
    commit(st, "p1", "sparta", "trireme", 1, "pylos", "defender")
    fight(st, "pylos")
    assert "pylos" in st.unclaimed
    assert st.cubes["sparta"]["p1"] == before + 2


def test_only_persian_defenders_reward_every_persian_leader() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p2", "sparta")
    give_units(st, "p1", "persia")
    give_units(st, "p3", "persia")
    st.permissions["pylos"] = ["persia"]
    before = {p: st.cubes["sparta"][p] for p in st.players}
    commit(st, "p1", "persia", "hoplite", 2, "pylos", "defender")
    fight(st, "pylos")
    assert {p: st.cubes["sparta"][p] - before[p] for p in st.players} == {"p1": 2, "p2": 0, "p3": 2}


def test_only_attackers_claim_with_units_of_the_last_combat_type() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "hoplite", 1, "pylos", "attacker")
    fight(st, "pylos")
    assert st.location_vp["p2"] == 4 and st.defeats["sparta"] == 1 and not milestones(st, "combat")


def test_only_attackers_without_last_combat_type_leave_it_unclaimed() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "trireme", 1, "pylos", "attacker")  # Pylos ends with the hoplite combat
    fight(st, "pylos")
    assert "pylos" in st.unclaimed and st.defeats["sparta"] == 0


def test_intrinsic_defender_fights_alone() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p3", "thebes")
    commit(st, "p3", "thebes", "hoplite", 1, "plataea", "attacker")
    fight(st, "plataea")
    roll(st, (1, 1), (6, 6))
    roll(st, (1, 1), (6, 6))
    [c] = milestones(st, "combat")
    assert (c["attack_strength"], c["defence_strength"], c["defender_player"]) == (1, 1, None)
    assert c["winner"] == "defender" and c["casualty_power"] == "thebes"
    assert "plataea" in st.unclaimed


def test_beating_the_intrinsic_defender_costs_it_no_unit() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p3", "thebes")
    commit(st, "p3", "thebes", "hoplite", 1, "plataea", "attacker")
    fight(st, "plataea")
    roll(st, (6, 6), (1, 1))
    roll(st, (6, 6), (1, 1))
    [c] = milestones(st, "combat")
    assert c["winner"] == "attacker" and c["casualty"] is None
    assert st.location_vp["p3"] == 4 and st.defeats["athens"] == 1


def test_intrinsic_attacker_adds_one() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p1", "sparta", "hoplite", 2, "lesbos", "attacker")  # Lesbos: attacker +1 in both combats
    commit(st, "p2", "athens", "hoplite", 2, "lesbos", "defender")
    fight(st, "lesbos")
    roll(st, (6, 6), (1, 1))
    roll(st, (6, 6), (1, 1))
    c = milestones(st, "combat")[0]
    assert (c["attack_strength"], c["defence_strength"], c["table_column"]) == (3, 2, 3)


def test_combat_one_winner_starts_combat_two_with_a_token() -> None:
    st = _sparta_vs_athens()
    commit(st, "p2", "athens", "trireme", 1, "pylos", "attacker")
    commit(st, "p1", "sparta", "trireme", 3, "pylos", "defender")
    fight(st, "pylos")
    roll(st, (1, 1), (6, 6))  # trireme combat 1 vs 3: 1:2, targets 10 / 5
    roll(st, (1, 1), (6, 6))
    roll(st, (1, 1), (1, 1))  # hoplite combat starts: defender already holds one token
    c1, = milestones(st, "combat")
    assert c1["combat_type"] == "trireme" and c1["winner"] == "defender" and c1["table_column"] == 1
    assert st.tokens == {"attacker": 0, "defender": 1}
    assert st.unit_at["u7"] == "dead"  # the attacker's 1-trireme


def test_casualty_main_player_first_then_allies() -> None:
    st = _sparta_vs_athens()
    give_units(st, "p3", "thebes")
    commit(st, "p3", "thebes", "hoplite", 1, "pylos", "attacker")  # ally, weaker than the main 3-hoplite
    fight(st, "pylos")
    roll(st, (1, 1), (6, 6))
    roll(st, (1, 1), (6, 6))
    c = milestones(st, "combat")[0]
    assert (c["casualty_power"], c["casualty_strength"]) == ("athens", 3)


def test_casualty_from_allies_when_main_has_none_of_the_type() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    give_units(st, "p3", "thebes")
    commit(st, "p2", "athens", "trireme", 2, "pylos", "attacker")
    commit(st, "p3", "thebes", "hoplite", 2, "pylos", "attacker")
    commit(st, "p1", "sparta", "hoplite", 4, "pylos", "defender")
    fight(st, "pylos")
    roll(st, (1, 1), (6, 6))
    roll(st, (1, 1), (6, 6))
    c = milestones(st, "combat")[0]
    assert (c["casualty_power"], c["casualty_strength"]) == ("thebes", 2)


def test_casualty_choice_when_powers_tie() -> None:
    st = _sparta_vs_athens()
    give_units(st, "p2", "argos")
    commit(st, "p2", "athens", "hoplite", 1, "pylos", "attacker")
    commit(st, "p2", "argos", "hoplite", 1, "pylos", "attacker")
    fight(st, "pylos")
    roll(st, (1, 1), (6, 6))
    roll(st, (1, 1), (6, 6))
    assert st.turn() == "p2" and {m.power for m in st.legal_moves()} == {"argos", "athens"}
    with pytest.raises(Exception, match="weakest units"):
        st.apply_move("p2", ChooseCasualty(power="thebes"))
    play(st, ChooseCasualty(power="argos"))
    c = milestones(st, "combat")[0]
    assert (c["casualty_power"], c["casualty_strength"]) == ("argos", 1)


def test_persian_casualty_returns_to_persia() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "persia")
    commit(st, "p2", "persia", "hoplite", 2, "pylos", "attacker")
    commit(st, "p1", "sparta", "hoplite", 4, "pylos", "defender")
    fight(st, "pylos")
    roll(st, (1, 1), (6, 6))
    roll(st, (1, 1), (6, 6))
    lost = milestones(st, "combat")[0]["casualty"]
    assert st.unit_at[lost] == "stack"


def test_shared_persian_claim_scores_for_each_persian_leader() -> None:
    st = at_battle(locations=LOCS)
    give_units(st, "p1", "persia")
    give_units(st, "p3", "persia")
    commit(st, "p1", "persia", "hoplite", 3, "pylos", "attacker")
    fight(st, "pylos")
    assert st.location_vp == {"p1": 4, "p2": 0, "p3": 4}
    assert [m["player_id"] for m in milestones(st, "location_claimed")] == ["p1", "p3"]


def test_units_go_home_after_the_location() -> None:
    st = _sparta_vs_athens()
    fight(st, "pylos")
    roll(st, (6, 6), (1, 1))
    roll(st, (6, 6), (1, 1))
    assert not st.units_at("pylos")
    assert st.unit_at["u5"] == "stack"  # the Athenian 3-hoplite went home, not back to p2


def test_thessalian_allies_gives_a_token_to_a_side_without_one() -> None:
    st = at_battle(locations=LOCS, specials=["perikles", "plague", "thessalanianallies"])
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "hoplite", 3, "mantinea", "attacker")
    commit(st, "p1", "sparta", "hoplite", 1, "mantinea", "defender")
    fight(st, "mantinea")
    assert st.turn() == "p3"
    assert set(st.legal_moves()) == {PlayThessalianAllies(side="attacker"), PlayThessalianAllies(side="defender"),
                                     DeclineSpecial()}
    play(st, PlayThessalianAllies(side="defender"))
    roll(st, (1, 1), (6, 6))
    c = milestones(st, "combat")[0]
    assert c["start_tokens_defender"] == 1 and c["winner"] == "defender" and len(c["rolls"]) == 1
    assert st.special_used["p3"]


def _brasidas(ruleset: str):  # type: ignore[no-untyped-def]
    """Cephallenia (hoplite then trireme): Sparta defends, Athens attacks; p3 holds Brasidas."""
    st = at_battle(ruleset=ruleset, locations=LOCS, specials=["perikles", "plague", "brasidas"])
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "hoplite", 2, "cephallenia", "attacker")
    commit(st, "p2", "athens", "trireme", 2, "cephallenia", "attacker")
    commit(st, "p1", "sparta", "hoplite", 2, "cephallenia", "defender")
    commit(st, "p1", "sparta", "trireme", 1, "cephallenia", "defender")
    fight(st, "cephallenia")
    assert st.turn() == "p3"
    play(st, PlayBrasidas())
    roll(st, (6, 6), (1, 1))
    roll(st, (6, 6), (1, 1))
    return st


def test_brasidas_doubles_spartan_hoplites_for_that_combat_only() -> None:
    st = _brasidas("official")
    c1 = milestones(st, "combat")[0]
    assert (c1["attack_strength"], c1["defence_strength"]) == (2, 4)
    roll(st, (6, 6), (1, 1))
    c2 = milestones(st, "combat")[1]
    assert c2["combat_type"] == "trireme" and (c2["attack_strength"], c2["defence_strength"]) == (2, 1)


def test_brasidas_carries_into_the_second_combat_under_bga() -> None:
    st = _brasidas("bga")
    roll(st, (6, 6), (1, 1))
    c2 = milestones(st, "combat")[1]
    assert (c2["attack_strength"], c2["defence_strength"]) == (4, 1)  # Athenian triremes doubled too


def test_brasidas_needs_spartan_hoplites() -> None:
    st = at_battle(locations=LOCS, specials=["perikles", "plague", "brasidas"])
    give_units(st, "p1", "argos")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "hoplite", 2, "mantinea", "defender")
    commit(st, "p1", "argos", "hoplite", 2, "mantinea", "attacker")
    st.permissions["mantinea"] = ["athens"]
    fight(st, "mantinea")
    assert request(st).name == "attacker"  # no window: nobody could play a special tile


def _phormio(ruleset: str):  # type: ignore[no-untyped-def]
    """Pylos (trireme then hoplite): Athens attacks, Sparta defends; p3 holds Phormio."""
    st = at_battle(ruleset=ruleset, locations=LOCS, specials=["perikles", "plague", "phormio"])
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "trireme", 2, "pylos", "attacker")
    commit(st, "p2", "athens", "hoplite", 2, "pylos", "attacker")
    commit(st, "p1", "sparta", "trireme", 1, "pylos", "defender")
    commit(st, "p1", "sparta", "hoplite", 2, "pylos", "defender")
    fight(st, "pylos")
    assert st.turn() == "p3"
    play(st, PlayPhormio())
    roll(st, (6, 6), (1, 1))
    roll(st, (6, 6), (1, 1))
    roll(st, (6, 6), (1, 1))  # the hoplite combat (attacker starts with combat 1's token)
    return milestones(st, "combat")


def test_phormio_doubles_athenian_triremes_for_that_combat_only() -> None:
    c1, c2 = _phormio("official")
    assert (c1["combat_type"], c1["attack_strength"], c1["defence_strength"]) == ("trireme", 4, 1)
    assert (c2["combat_type"], c2["attack_strength"], c2["defence_strength"]) == ("hoplite", 2, 2)
    assert c2["start_tokens_attacker"] == 1


def test_phormio_carries_into_the_hoplite_combat_under_bga() -> None:
    c1, c2 = _phormio("bga")
    assert (c1["attack_strength"], c1["defence_strength"]) == (4, 1)
    assert (c2["attack_strength"], c2["defence_strength"]) == (2, 4)  # Spartan hoplites doubled too


def test_persian_fleet_gives_a_token_before_a_trireme_combat() -> None:
    st = at_battle(locations=LOCS, specials=["perikles", "persianfleet", "plague"])
    give_units(st, "p1", "sparta")
    give_units(st, "p3", "athens")
    commit(st, "p3", "athens", "trireme", 1, "pylos", "attacker")
    commit(st, "p1", "sparta", "trireme", 3, "pylos", "defender")
    fight(st, "pylos")
    assert st.turn() == "p2"
    play(st, PlayPersianFleet(side="attacker"))
    with pytest.raises(MissingChance):
        st.apply_move("p2", PlayPersianFleet(side="attacker"))  # the window has moved on: dice now
    roll(st, (6, 6), (1, 1))
    [c] = milestones(st, "combat")
    assert c["start_tokens_attacker"] == 1 and c["winner"] == "attacker" and c["rolls"] == [[12, 2]]


def test_token_tile_refused_for_a_side_already_holding_one() -> None:
    st = at_battle(locations=LOCS, specials=["perikles", "plague", "thessalanianallies"])
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "trireme", 1, "pylos", "attacker")
    commit(st, "p2", "athens", "hoplite", 1, "pylos", "attacker")
    commit(st, "p1", "sparta", "trireme", 3, "pylos", "defender")
    commit(st, "p1", "sparta", "hoplite", 1, "pylos", "defender")
    fight(st, "pylos")
    roll(st, (1, 1), (6, 6))
    roll(st, (1, 1), (6, 6))  # the defender wins the trireme combat and starts the hoplite one with a token
    assert st.turn() == "p3"
    assert set(st.legal_moves()) == {PlayThessalianAllies(side="attacker"), DeclineSpecial()}
    with pytest.raises(IllegalMove, match="the defender already holds 1"):
        st.apply_move("p3", PlayThessalianAllies(side="defender"))
    play(st, DeclineSpecial())
    assert request(st).name == "attacker" and not st.special_used["p3"]


@pytest.mark.parametrize("ruleset, cubes", [("official", 0), ("bga", 2)])
def test_a_defence_slave_revolt_emptied_is_absent_by_the_rules_and_uncontested_on_bga(ruleset: str, cubes: int) -> None:
    """Q12 (seed1117 packets 121 and 175): the only defender's Spartan hoplite is taken by Slave Revolt.
    By the rules nobody is at Pylos; BGA keeps the main defender and rewards him as an uncontested one."""
    st = at_battle(ruleset=ruleset, locations=LOCS)
    give_units(st, "p1", "sparta")
    before = st.cubes["sparta"]["p1"]
    uid = commit(st, "p1", "sparta", "hoplite", 1, "pylos", "defender")
    st.send_home(uid)  # Slave Revolt's pick
    fight(st, "pylos")
    assert "pylos" in st.unclaimed
    assert st.cubes["sparta"]["p1"] - before == cubes


@pytest.mark.parametrize("ruleset, claimant", [("official", None), ("bga", "p1")])
def test_an_attack_slave_revolt_emptied_leaves_the_defender_the_tile_on_bga(ruleset: str, claimant: str | None) -> None:
    """Q12: the attackers' only unit, a Spartan hoplite, is taken by Slave Revolt.  By the rules only the
    defenders came (2 cubes, no claim); BGA fights the location and its defender wins the tile."""
    st = at_battle(ruleset=ruleset, locations=LOCS)
    give_units(st, "p1", "athens")
    give_units(st, "p2", "sparta")
    uid = commit(st, "p2", "sparta", "hoplite", 1, "plataea", "attacker")
    commit(st, "p1", "athens", "hoplite", 1, "plataea", "defender")
    st.send_home(uid)
    before = st.cubes["athens"]["p1"]
    assert st.main_player["plataea"]["attacker"] == "p2"
    fight(st, "plataea")
    claimed = [p for p in st.players if "plataea" in st.claimed[p]]
    assert claimed == ([claimant] if claimant else [])
    assert st.cubes["athens"]["p1"] - before == (0 if claimant else 2)
