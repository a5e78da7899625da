"""Every combat a simulated game logs resolves the same way by hand, with the rulebook's table and dice."""

from __future__ import annotations

import pytest

from replay.games.perikles import GAME
from replay.replayer import replay
from replay.simulate import simulate_one

# The combat results table as a player reads it: (column, test, attacker target, defender target).
TABLE = [
    (6, lambda a, d: a >= 3 * d, 5, 10),
    (5, lambda a, d: a >= 2 * d, 6, 9),
    (4, lambda a, d: a >= d + 2, 7, 8),
    (3, lambda a, d: a >= d or (a >= d - 1 and a > 1), 8, 7),
    (2, lambda a, d: 2 * a > d, 9, 6),
    (1, lambda a, d: True, 10, 5),
]


def by_hand(a: int, d: int) -> tuple[int, int, int]:
    return next((col, at, dt) for col, test, at, dt in TABLE if test(a, d))


def winner_by_hand(rolls: list[list[int]], at: int, dt: int, tokens_a: int, tokens_d: int, bga: bool) -> str:
    """Roll until a side holds two tokens; both at two on one roll: roll off until exactly one side hits."""
    def hit(total: int, target: int) -> bool:
        return total >= target if bga else total > target

    rolloff = False
    for i, (x, y) in enumerate(rolls):
        last = i == len(rolls) - 1
        ha, hd = hit(x, at), hit(y, dt)
        if rolloff:
            if ha != hd:
                assert last, "the roll-off went on after a decisive roll"
                return "attacker" if ha else "defender"
            continue
        tokens_a += ha
        tokens_d += hd
        if tokens_a >= 2 and tokens_d >= 2:
            rolloff = True
        elif tokens_a >= 2 or tokens_d >= 2:
            assert last, "rolling went on after a side held two tokens"
            return "attacker" if tokens_a >= 2 else "defender"
    raise AssertionError("the rolls end before the combat is decided")


@pytest.mark.parametrize("ruleset", ["official", "bga"])
def test_logged_combats_resolve_by_hand(ruleset: str) -> None:
    combats = []
    for i, n in enumerate((3, 4, 5, 4)):
        r = replay(simulate_one(GAME, n, 99, i, options={"ruleset": ruleset}))
        assert r.status == "complete"
        combats += [m for m in r.milestones if m["type"] == "combat"]
    assert len(combats) > 20
    for c in combats:
        col, at, dt = by_hand(c["attack_strength"], c["defence_strength"])
        assert (c["table_column"], c["attacker_target"], c["defender_target"]) == (col, at, dt), c
        assert 0 <= c["start_tokens_attacker"] <= 1 and 0 <= c["start_tokens_defender"] <= 1
        assert all(2 <= x <= 12 and 2 <= y <= 12 for x, y in c["rolls"])
        assert c["winner"] == winner_by_hand(c["rolls"], at, dt, c["start_tokens_attacker"],
                                             c["start_tokens_defender"], ruleset == "bga"), c
        if c["casualty"] is not None:
            assert c["casualty_strength"] >= 1
        else:
            # attackers always fight with units; only a defence of the intrinsic force alone loses nothing
            assert c["winner"] == "attacker"
