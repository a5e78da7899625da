"""The odds of the battles still to fight (``odds.py``): the dice, the race to two tokens, a location's
combats, and what the public cannot see counted at its group's mean."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from perikles_helpers import commit, fight, fresh, military_phase

from replay.games.perikles import features as F
from replay.games.perikles import odds
from replay.games.perikles.components import ATTACKER, DEFENDER, UNITS, crt_column
from replay.games.perikles.phases.battles import hits

HANDS = {"p1": ["sparta-2a"], "p2": ["athens-2a"], "p3": ["corinth-2a"]}


def race_by_dice(s: Any, attack: float, defence: float, tokens: tuple[int, int], trials: int, seed: int) -> float:
    """The race played with dice, as the rulebook words it (§5.6.2, step 4): the share the attackers win."""
    column = crt_column(attack, defence)
    rng = random.Random(seed)
    won = 0
    for _ in range(trials):
        a, d = tokens
        while a < 2 and d < 2:
            a += hits(s, rng.randint(1, 6) + rng.randint(1, 6), column.attacker_target)
            d += hits(s, rng.randint(1, 6) + rng.randint(1, 6), column.defender_target)
        while a >= 2 and d >= 2:  # both at two: roll off until exactly one side hits
            ha = hits(s, rng.randint(1, 6) + rng.randint(1, 6), column.attacker_target)
            hd = hits(s, rng.randint(1, 6) + rng.randint(1, 6), column.defender_target)
            if ha != hd:
                a, d = (2, 0) if ha else (0, 2)
        won += a >= 2
    return won / trials


def test_the_hit_rule_sets_the_chance_of_a_hit() -> None:
    assert odds.hit_chance(fresh(3, ruleset="official"), 7) == pytest.approx(15 / 36)  # 8 or more
    assert odds.hit_chance(fresh(3, ruleset="bga"), 7) == pytest.approx(21 / 36)       # 7 or more
    assert odds.hit_chance(fresh(3), 12) == 0.0


@pytest.mark.parametrize(("ruleset", "attack", "defence", "tokens"), [
    ("official", 4, 4, (0, 0)), ("official", 9, 3, (0, 0)), ("official", 2, 5, (0, 1)),
    ("bga", 5, 4, (1, 0)), ("bga", 3, 7, (0, 0)),
])
def test_the_race_to_two_tokens_matches_the_dice(ruleset: str, attack: int, defence: int,
                                                 tokens: tuple[int, int]) -> None:
    s = fresh(3, ruleset=ruleset)
    assert odds.combat_odds(s, attack, defence, tokens) == pytest.approx(
        race_by_dice(s, attack, defence, tokens, 40_000, seed=attack * 100 + defence), abs=0.012)


def test_one_token_each_is_a_roll_off() -> None:
    s = fresh(3)
    column = crt_column(5, 4)
    pa, pd = odds.hit_chance(s, column.attacker_target), odds.hit_chance(s, column.defender_target)
    assert odds.combat_odds(s, 5, 4, (1, 1)) == pytest.approx(pa * (1 - pd) / (pa * (1 - pd) + pd * (1 - pa)))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 25), st.integers(1, 25), st.sampled_from([(0, 0), (1, 0), (0, 1)]))
def test_more_strength_never_lowers_the_odds(attack: int, defence: int, tokens: tuple[int, int]) -> None:
    s = fresh(3)
    p = odds.combat_odds(s, attack, defence, tokens)
    assert 0.0 < p < 1.0
    assert odds.combat_odds(s, attack + 1, defence, tokens) >= p >= odds.combat_odds(s, attack, defence + 1, tokens)
    if tokens == (0, 0):
        assert odds.combat_odds(s, attack, defence, (1, 0)) > p > odds.combat_odds(s, attack, defence, (0, 1))


def group_mean(power: str, unit_type: str) -> float:
    strengths = [u.strength for u in UNITS if u.power == power and u.type == unit_type]
    return sum(strengths) / len(strengths)


def test_unseen_counters_count_at_their_groups_mean_until_the_location_is_revealed() -> None:
    s = military_phase("official", {p: list(h) for p, h in HANDS.items()})
    commit(s, "p1", "sparta", "hoplite", 4, "mantinea", ATTACKER)   # Mantinea: one hoplite combat, no +1
    commit(s, "p2", "argos", "hoplite", 1, "mantinea", DEFENDER)
    unseen = odds.unseen_strengths(s)
    assert unseen["p1", "sparta", "hoplite"] == pytest.approx(group_mean("sparta", "hoplite"))
    assert unseen["pool", "persia", "trireme"] == pytest.approx(group_mean("persia", "trireme"))
    expected = odds.combat_odds(s, group_mean("sparta", "hoplite"), group_mean("argos", "hoplite"))
    assert odds.location_odds(s, "mantinea", unseen) == pytest.approx((expected, 1 - expected))
    f = dict(zip(F.NAMES, F.features(s, "p1"), strict=True))
    assert f["battle_vp"] == pytest.approx(5 * expected)  # Mantinea is worth 5
    assert f["expected_location_vp"] == pytest.approx(5 * expected)

    fight(s, "mantinea")  # revealed: the counters' own strengths
    revealed = odds.combat_odds(s, 4, 1)
    assert odds.location_odds(s, "mantinea", odds.unseen_strengths(s)) == pytest.approx((revealed, 1 - revealed))


def test_who_came_decides_a_location_without_dice() -> None:
    s = military_phase("official", {p: list(h) for p, h in HANDS.items()})
    commit(s, "p1", "sparta", "hoplite", 2, "cephallenia", ATTACKER)   # no +1 there; hoplites, then triremes
    commit(s, "p2", "athens", "trireme", 1, "pylos", DEFENDER)        # defenders only: unclaimed
    commit(s, "p1", "sparta", "trireme", 2, "lesbos", ATTACKER)
    unseen = odds.unseen_strengths(s)
    assert odds.location_odds(s, "cephallenia", unseen) == (0.0, 0.0)  # no trireme for the last combat
    assert odds.location_odds(s, "pylos", unseen) == (0.0, 0.0)
    commit(s, "p1", "sparta", "trireme", 1, "cephallenia", ATTACKER)
    assert odds.location_odds(s, "cephallenia", odds.unseen_strengths(s)) == (1.0, 0.0)
    # Lesbos has no defender but its attackers' +1: they win both combats unopposed, no dice
    assert odds.location_odds(s, "lesbos", unseen) == (1.0, 0.0)


def test_a_first_combat_won_gives_a_token_in_the_second() -> None:
    s = military_phase("official", {p: list(h) for p, h in HANDS.items()})
    for unit_type, strength in (("trireme", 2), ("hoplite", 3)):   # Pylos: triremes, then hoplites; no +1
        commit(s, "p1", "sparta", unit_type, strength, "pylos", ATTACKER)
    commit(s, "p2", "athens", "trireme", 4, "pylos", DEFENDER)
    commit(s, "p2", "argos", "hoplite", 3, "pylos", DEFENDER)
    fight(s, "pylos")
    first = odds.combat_odds(s, 2, 4)
    second = first * odds.combat_odds(s, 3, 3, (1, 0)) + (1 - first) * odds.combat_odds(s, 3, 3, (0, 1))
    assert odds.location_odds(s, "pylos", odds.unseen_strengths(s)) == pytest.approx((second, 1 - second))
