"""The odds of the battles still to fight, as the public can reckon them (for the value model).

A location's battle is one or two combats (rulebook §5.6.2): each a dice race to two battle tokens
at the odds of the combat results table column that the two sides' strengths give, the winner of a
first combat starting the second with one token.  Everyone can see how many units of each power and
type each side has at a location, but not which counters they are until it is revealed: an unseen
counter counts at the mean strength of its *group*, the counters of its power and type under the
same leader (the Persians: the pool the Persian leaders share) whose place nobody has seen yet.
Special battle tiles and the two cubes of an undefended attack are left out.

:func:`expected_claims` sums the odds into what :mod:`.features` reads: each player's expected VP
from the locations still to fight, and each city's expected statue value once they are fought.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from .board import BATTLE, HELD, POOL
from .components import (
    ATTACKER,
    CITY,
    CITY_KEYS,
    DEFENDER,
    HOPLITE,
    LOCATION,
    PERSIA,
    TRIREME,
    UNIT,
    UNITS,
    crt_column,
)
from .phases.battles import TOKENS_TO_WIN, hits

if TYPE_CHECKING:
    from .board import Board

Group = tuple[str, str, str]
"""(leader, or ``pool`` for the Persians; power; unit type)."""
_DICE = [a + b for a in range(1, 7) for b in range(1, 7)]


def hit_chance(s: Board, target: int) -> float:
    """The chance that one roll of two dice hits ``target`` (the ruleset's hit rule)."""
    return sum(1 for total in _DICE if hits(s, total, target)) / len(_DICE)


@cache
def _race(p_attacker: float, p_defender: float, attacker: int, defender: int) -> float:
    """The chance that the attackers win a race from these token counts: both sides roll at once,
    each hit takes a token, two tokens win, and both reaching two on one roll means a roll-off."""
    if attacker >= TOKENS_TO_WIN and defender >= TOKENS_TO_WIN:  # the roll-off: one side hits alone
        alone_a, alone_d = p_attacker * (1 - p_defender), p_defender * (1 - p_attacker)
        return alone_a / (alone_a + alone_d)
    if attacker >= TOKENS_TO_WIN:
        return 1.0
    if defender >= TOKENS_TO_WIN:
        return 0.0
    both_miss = (1 - p_attacker) * (1 - p_defender)
    moved = (p_attacker * p_defender * _race(p_attacker, p_defender, attacker + 1, defender + 1)
             + p_attacker * (1 - p_defender) * _race(p_attacker, p_defender, attacker + 1, defender)
             + (1 - p_attacker) * p_defender * _race(p_attacker, p_defender, attacker, defender + 1))
    return moved / (1 - both_miss)


def combat_odds(s: Board, attack: float, defence: float, tokens: tuple[int, int] = (0, 0)) -> float:
    """The attackers' chance of winning a dice combat of these strengths, starting with ``tokens``
    (attackers', defenders')."""
    column = crt_column(attack, defence)
    return _race(hit_chance(s, column.attacker_target), hit_chance(s, column.defender_target), *tokens)


def unseen_strengths(s: Board) -> dict[Group, float]:
    """Each group's mean strength over its counters whose place nobody has seen: those in hand (or in
    the Persian pool) and those sent to a location not yet revealed."""
    totals: dict[Group, list[int]] = {}
    at, holder, location = s.unit_at, s.unit_holder, s.unit_location
    for u in UNITS:
        where = at[u.id]
        if where in (HELD, POOL) or (where == BATTLE and location[u.id] not in s.shown):
            t = totals.setdefault(_group(u.power, holder[u.id], u.type), [0, 0])
            t[0] += u.strength
            t[1] += 1
    return {g: total / n for g, (total, n) in totals.items()}


def _group(power: str, holder: str | None, unit_type: str) -> Group:
    return ("pool" if power == PERSIA else holder or "", power, unit_type)


def side_strengths(s: Board, loc: str, unseen: dict[Group, float]) -> dict[tuple[str, str], tuple[int, float]]:
    """(side, unit type) -> how many units are there and their strength (known once the location is
    revealed, else each counted at its group's mean)."""
    out = {(side, t): (0, 0.0) for side in (ATTACKER, DEFENDER) for t in (HOPLITE, TRIREME)}
    revealed = loc in s.shown

    def add(side: str, unit_type: str, strength: float) -> None:
        n, total = out[side, unit_type]
        out[side, unit_type] = (n + 1, total + strength)

    for uid in s.units_at(loc):
        u = UNIT[uid]
        add(s.unit_side[uid] or ATTACKER, u.type,
            u.strength if revealed else unseen.get(_group(u.power, s.unit_holder[uid], u.type), u.strength))
    for f in s.face_down:
        if f["location"] == loc:
            add(f["side"], f["type"], unseen.get(_group(f["power"], f["holder"], f["type"]), 0.0))
    return out


def location_odds(s: Board, loc: str, unseen: dict[Group, float]) -> tuple[float, float]:
    """The chances that the attackers' and the defenders' main player claim ``loc`` (§5.6.1-5.6.2)."""
    tile = LOCATION[loc]
    forces = side_strengths(s, loc, unseen)
    attackers = sum(forces[ATTACKER, t][0] for t in (HOPLITE, TRIREME))
    defenders = sum(forces[DEFENDER, t][0] for t in (HOPLITE, TRIREME))
    if not attackers:  # nobody came, or defenders only: the tile is unclaimed
        return 0.0, 0.0
    if not defenders and tile.intrinsic_side != DEFENDER:  # unopposed: the last combat's type decides
        return (1.0 if forces[ATTACKER, tile.combats[-1]][0] else 0.0), 0.0
    last_winner: dict[str | None, float] = {None: 1.0}  # the previous combat's winner -> its chance
    for number, unit_type in enumerate(tile.combats):
        after: dict[str | None, float] = {}
        for previous, chance in last_winner.items():
            for winner, p in _combat(s, tile.key, unit_type, forces, previous if number else None).items():
                after[winner] = after.get(winner, 0.0) + chance * p
        last_winner = after
    has_defender = s.main_player.get(loc, {}).get(DEFENDER) is not None
    return last_winner.get(ATTACKER, 0.0), last_winner.get(DEFENDER, 0.0) if has_defender else 0.0


def _combat(s: Board, loc: str, unit_type: str, forces: dict[tuple[str, str], tuple[int, float]],
            first_winner: str | None) -> dict[str | None, float]:
    """One combat's winner and its chance (``None``: no combat, nobody present)."""
    tile = LOCATION[loc]
    (n_attack, attack), (n_defence, defence) = forces[ATTACKER, unit_type], forces[DEFENDER, unit_type]
    guarded = tile.intrinsic(DEFENDER, unit_type)
    if not n_attack:
        return {DEFENDER: 1.0} if n_defence else {None: 1.0}
    if not n_defence and not guarded:
        return {ATTACKER: 1.0}
    attack += 1 if tile.intrinsic(ATTACKER, unit_type) else 0
    defence += 1 if guarded else 0
    tokens = (int(first_winner == ATTACKER), int(first_winner == DEFENDER))
    p = combat_odds(s, attack, defence, tokens)
    return {ATTACKER: p, DEFENDER: 1.0 - p}


def expected_claims(s: Board, to_fight: list[str]) -> tuple[dict[str, float], dict[str, float]]:
    """Over the locations ``to_fight``: each player's expected VP from claiming them (shared by the
    Persian leaders when there are two or more, §5.6.3), and each city's expected statue value once
    they are fought (a claim by the attackers is a defeat of the tile's owner)."""
    vp = dict.fromkeys(s.players, 0.0)
    defeat_chances: dict[str, list[float]] = {c: [] for c in CITY_KEYS}
    unseen = unseen_strengths(s) if to_fight else {}
    shared = len(s.persian_leaders) >= 2
    for loc in to_fight:
        p_attacker, p_defender = location_odds(s, loc, unseen)
        defeat_chances[LOCATION[loc].owner].append(p_attacker)
        sides = s.main_player.get(loc, {})
        for side, p in ((ATTACKER, p_attacker), (DEFENDER, p_defender)):
            main = sides.get(side)
            if main is None or not p:
                continue
            for claimant in (s.persian_leaders if shared and main in s.persian_leaders else [main]):
                vp[claimant] += p * LOCATION[loc].vp
    return vp, {c: _expected_statue_value(s, c, defeat_chances[c]) for c in CITY_KEYS}


def _expected_statue_value(s: Board, city: str, defeat_chances: list[float]) -> float:
    """A statue's expected value in ``city`` once each of its locations has been fought."""
    more = {0: 1.0}  # new defeats -> their chance
    for p in defeat_chances:
        step: dict[int, float] = {}
        for k, q in more.items():
            step[k + 1] = step.get(k + 1, 0.0) + q * p
            step[k] = step.get(k, 0.0) + q * (1 - p)
        more = step
    return sum(q * CITY[city].statue_value(s.defeats[city] + k) for k, q in more.items())


__all__ = ["combat_odds", "expected_claims", "hit_chance", "location_odds", "side_strengths", "unseen_strengths"]
