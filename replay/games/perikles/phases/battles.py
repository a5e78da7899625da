"""The battle phase: locations in slot order, their combats, dice, casualties, claims and defeats."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .. import unknowns
from ..board import DEAD
from ..components import (
    ATTACKER,
    DEFENDER,
    HOPLITE,
    PERSIA,
    TRIREME,
    UNIT,
    LocationTile,
    crt_column,
)
from ..moves import (
    ChooseCasualty,
)

if TYPE_CHECKING:
    from ..board import Board

TOKENS_TO_WIN = 2
UNDEFENDED_REWARD = 2


def other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


def hits(s: Board, total: int, target: int) -> bool:
    """The hit rule: a total greater than the target (official); equal is enough under ``bga``."""
    return total >= target if s.ruleset == "bga" else total > target


# ---- a location begins ------------------------------------------------------------------


def start_location(s: Board) -> bool:
    """The location is revealed (every counter there known): settle the cases without a fight, or
    say that its combats are fought (True)."""
    tile = s.current_location()
    loc = tile.key
    unknowns.location_revealed(s, loc)
    s.tokens = {ATTACKER: 0, DEFENDER: 0}
    s.combat1_winner = None
    s.brasidas = s.phormio = False
    s.combat_no = 0
    sides = s.main_player.get(loc, {ATTACKER: None, DEFENDER: None})
    attackers, defenders = came(s, loc, ATTACKER), came(s, loc, DEFENDER)
    if s.ruleset == "bga":
        _came_departure(s, tile, attackers, defenders)
    if not attackers and not defenders:
        finish_location(s, None)
    elif not attackers:
        reward_undefended_attack(s, sides[DEFENDER])
        finish_location(s, None)
    elif not defenders and tile.intrinsic_side != DEFENDER:
        last = tile.combats[-1]
        if s.units_at(loc, ATTACKER, last):
            finish_location(s, ATTACKER)
        else:
            finish_location(s, None)
    else:
        return True
    return False


def came(s: Board, location: str, side: str) -> bool:
    """Whether ``side`` came to the location: it has units there.

    ``bga``: it has a main player, that is, some unit was sent there, even if Slave Revolt has taken
    every one of them away since (BGA keeps the main players of a location until it is resolved; Q12).
    """
    if s.ruleset == "bga":
        return s.main_player.get(location, {}).get(side) is not None
    return bool(s.units_at(location, side))


def _came_departure(s: Board, tile: LocationTile, attackers: bool, defenders: bool) -> None:
    """``bga``: a side counted as come though Slave Revolt emptied it; a departure where the location
    then settles otherwise than by the units there (the rulebook's reading)."""
    by_units = bool(s.units_at(tile.key, ATTACKER)), bool(s.units_at(tile.key, DEFENDER))
    if by_units == (attackers, defenders):
        return
    happened, rulebook = settles(s, tile, attackers, defenders), settles(s, tile, *by_units)
    if happened[1] != rulebook[1]:
        emptied = " and ".join(side for side, bga, units in zip((ATTACKER, DEFENDER), (attackers, defenders), by_units)
                               if bga and not units)
        s.depart("revolted_side_still_came",
                 f"{tile.name}: Slave Revolt left the {emptied} side without units, BGA still counts it: "
                 f"{': '.join(happened)}; by the rulebook {': '.join(rulebook)}")


def settles(s: Board, tile: LocationTile, attackers: bool, defenders: bool) -> tuple[str, str]:
    """How the location settles when the given sides came, in words: which case of
    :func:`start_location` applies, and its result with the units there (a claim, the reward for an
    unattacked defence, an unclaimed tile, or dice)."""
    sides = s.main_player.get(tile.key, {ATTACKER: None, DEFENDER: None})

    def won_by(winner: str | None) -> str:
        claimant = None if winner is None else sides[winner]
        if claimant is None:
            return "the tile stays unclaimed"
        return f"{claimant} claims it" + (f", a defeat for {tile.owner.capitalize()}" if winner == ATTACKER else "")

    if not attackers and not defenders:
        return "nobody came", "the tile stays unclaimed"
    if not attackers:
        d = sides[DEFENDER]
        rewarded = [] if d is None else list(s.persian_leaders) if d in s.persian_leaders else [d]
        reward = "".join(f"{p} places {UNDEFENDED_REWARD} cubes in {tile.owner.capitalize()} and " for p in rewarded)
        return "only the defence came", f"{reward}the tile stays unclaimed"
    last = tile.combats[-1]
    att, dfn = s.units_at(tile.key, ATTACKER, last), s.units_at(tile.key, DEFENDER, last)
    if not defenders and tile.intrinsic_side != DEFENDER:
        return "only the attack came", won_by(ATTACKER if att else None)
    # the combats are fought; the last one alone decides who claims, and it needs no dice when a side
    # has no units in it (as start_combat settles it)
    if not att and not dfn:
        return "the combats are fought", won_by(None)
    if not att:
        return "the combats are fought", won_by(DEFENDER)
    if not dfn and not tile.intrinsic(DEFENDER, last):
        return "the combats are fought", won_by(ATTACKER)
    return "the combats are fought", "the dice decide"


def reward_undefended_attack(s: Board, defender: str | None) -> None:
    """Only defenders came: the main defender (every Persian leader, if he is one) places 2 cubes in the owning city."""
    if defender is None:
        return
    owner = s.current_location().owner
    rewarded = list(s.persian_leaders) if defender in s.persian_leaders else [defender]
    for p in rewarded:
        s.add_cubes(p, owner, UNDEFENDED_REWARD)


# ---- one combat --------------------------------------------------------------------------


def combat_type(s: Board) -> str:
    return s.current_location().combats[s.combat_no]


def start_combat(s: Board) -> tuple[bool, str | None]:
    """Second-combat setup and who is present: ``(True, None)`` when the dice decide (the special-tile
    window opens), else ``(False, winner)``, the combat decided without dice (no casualty)."""
    tile = s.current_location()
    loc = tile.key
    kind = combat_type(s)
    if s.combat_no == 1:
        for uid in s.units_at(loc, None, tile.combats[0]):
            s.send_home(uid)
        s.tokens = {ATTACKER: 0, DEFENDER: 0}
        if s.combat1_winner is not None:
            s.tokens[s.combat1_winner] = 1
    att = s.units_at(loc, ATTACKER, kind)
    dfn = s.units_at(loc, DEFENDER, kind)
    if not att and not dfn:
        return False, None
    if not att:
        return False, DEFENDER
    if not dfn and not tile.intrinsic(DEFENDER, kind):
        return False, ATTACKER
    s.combat = {"rolls": [], "rolloff": False}
    s.window = s.in_order_from(s.start_player or s.players[0])
    return True, None


# ---- strengths, the table, the dice --------------------------------------------------------


def doubled(s: Board, power: str, unit_type: str, rulebook: bool = False) -> bool:
    """Brasidas doubles Spartan hoplites, Phormio Athenian triremes, in the combat played for.

    ``bga``: either flag lasts the whole location and doubles Spartan hoplites in a hoplite
    combat and Athenian triremes in a trireme combat.  ``rulebook``: the official answer under
    ``bga`` too: a location never has two combats of one type, so the flag of the current
    combat's type can only have been played for this combat.
    """
    if s.ruleset == "bga" and not rulebook:
        active = s.brasidas or s.phormio
        return active and ((power, unit_type) in (("sparta", HOPLITE), ("athens", TRIREME)))
    if unit_type == HOPLITE:
        return s.brasidas and power == "sparta"
    return s.phormio and power == "athens"


def side_strength(s: Board, side: str, rulebook: bool = False) -> int:
    tile = s.current_location()
    kind = combat_type(s)
    total = 0
    for uid in s.units_at(tile.key, side, kind):
        u = UNIT[uid]
        total += u.strength * (2 if doubled(s, u.power, u.type, rulebook) else 1)
    if tile.intrinsic(side, kind):
        total += 1
    return total


def begin_rolling(s: Board) -> None:
    tile = s.current_location()
    attack = side_strength(s, ATTACKER)
    defence = side_strength(s, DEFENDER)
    col = crt_column(attack, defence)
    if s.ruleset == "bga":
        _doubling_departure(s, attack, defence, col.label)
    sides = s.main_player.get(tile.key, {ATTACKER: None, DEFENDER: None})
    assert s.combat is not None
    s.combat.update({
        "round": s.round, "location": tile.key, "combat_no": s.combat_no + 1, "combat_type": combat_type(s),
        "attacker_player": sides[ATTACKER], "defender_player": sides[DEFENDER],
        "attack_strength": attack, "defence_strength": defence,
        "table_column": col.column, "table_label": col.label,
        "attacker_target": col.attacker_target, "defender_target": col.defender_target,
        "start_tokens_attacker": s.tokens[ATTACKER], "start_tokens_defender": s.tokens[DEFENDER],
    })
    s.pending_roll = None


def _doubling_departure(s: Board, attack: int, defence: int, label: str) -> None:
    """``bga``: a Brasidas or Phormio played for the location's other combat still doubles here."""
    official = side_strength(s, ATTACKER, rulebook=True), side_strength(s, DEFENDER, rulebook=True)
    if official == (attack, defence):
        return
    kind = combat_type(s)
    carried = "Phormio" if kind == HOPLITE else "Brasidas"  # the flag of this combat's type agrees
    s.depart("doubling_lasts_the_location",
             f"{s.current_location().name}, {kind} combat: {carried}, played for the location's "
             f"{'trireme' if kind == HOPLITE else 'hoplite'} combat, still doubles "
             f"{'Spartan hoplites' if kind == HOPLITE else 'Athenian triremes'}: attack {attack} against "
             f"defence {defence} ({label}); by the rulebook the doubling ended with that combat: "
             f"{official[0]} against {official[1]} ({crt_column(*official).label})")


def _hit_departure(s: Board, c: dict[str, Any], totals: tuple[int, int], bga: tuple[bool, bool]) -> None:
    """``bga``: a total equal to its target hit; a departure where the rulebook's misses give other tokens
    (a roll-off: another winner)."""
    targets = c["attacker_target"], c["defender_target"]
    official = (totals[0] > targets[0], totals[1] > targets[1])
    if official == bga:
        return
    if c["rolloff"]:
        def result(hit: tuple[bool, bool]) -> str:
            return "nobody wins yet" if hit[0] == hit[1] else f"the {ATTACKER if hit[0] else DEFENDER} wins"
        if result(bga) == result(official):
            return
        outcome = f"in the roll-off {result(bga)}; by the rulebook {result(official)}"
    else:
        def tokens(hit: tuple[bool, bool]) -> str:
            return f"{s.tokens[ATTACKER] + hit[0]}-{s.tokens[DEFENDER] + hit[1]}"
        outcome = f"tokens {tokens(bga)} (attacker-defender); by the rulebook {tokens(official)}"
    equal = " and ".join(f"the {side}'s {total}" for side, total, target in zip((ATTACKER, DEFENDER), totals, targets)
                         if total == target)
    s.depart("hit_on_equal_total",
             f"{s.current_location().name}, {c['combat_type']} combat: {equal}, equal to its target, hits: {outcome}")


def roll(s: Board, attacker_total: int, defender_total: int) -> str | None:
    """Both sides rolled: hits take tokens; two tokens win; both at two means a roll-off.  The winner,
    or None while the dice roll on."""
    c = s.combat
    assert c is not None
    c["rolls"].append([attacker_total, defender_total])
    hit_a = hits(s, attacker_total, c["attacker_target"])
    hit_d = hits(s, defender_total, c["defender_target"])
    if s.ruleset == "bga":
        _hit_departure(s, c, (attacker_total, defender_total), (hit_a, hit_d))
    winner: str | None = None
    if c["rolloff"]:
        if hit_a != hit_d:
            winner = ATTACKER if hit_a else DEFENDER
    else:
        s.tokens[ATTACKER] += hit_a
        s.tokens[DEFENDER] += hit_d
        a_won = s.tokens[ATTACKER] >= TOKENS_TO_WIN
        d_won = s.tokens[DEFENDER] >= TOKENS_TO_WIN
        if a_won and d_won:
            c["rolloff"] = True
        elif a_won:
            winner = ATTACKER
        elif d_won:
            winner = DEFENDER
    if winner is not None:
        c["winner"] = winner
    return winner


# ---- casualties --------------------------------------------------------------------------------


def casualty_candidates(s: Board, side: str) -> list[str]:
    """The weakest units of the losing side in this combat: the main player's first, then the allies'."""
    units = s.units_at(s.current_location().key, side, combat_type(s))
    main = [u for u in units if s.unit_main[u]]
    group = main or units
    if not group:
        return []
    low = min(UNIT[u].strength for u in group)
    return [u for u in group if UNIT[u].strength == low]


def take_casualty(s: Board, side: str) -> bool:
    """The losing side gives up its weakest unit; True when several powers' units tie and its main
    player (``cur``) chooses whose."""
    found = casualty_candidates(s, side)
    powers = sorted({UNIT[u].power for u in found})
    if len(powers) > 1:
        sides = s.main_player[s.current_location().key]
        s.casualty_side = side
        s.cur = sides[side]
        return True
    lose_unit(s, found[0] if found else None)
    return False


def lose_unit(s: Board, uid: str | None) -> str | None:
    """A city unit goes to the dead pool; a Persian one back to Persia, out for the round.  The
    combat is over: its winner is returned."""
    c = s.combat
    assert c is not None
    if uid is not None:
        u = UNIT[uid]
        s.send_home(uid)
        if u.power != PERSIA:
            s.unit_at[uid] = DEAD
        c.update({"casualty": uid, "casualty_power": u.power, "casualty_strength": u.strength})
    else:
        c.update({"casualty": None, "casualty_power": None, "casualty_strength": None})
    winner: str | None = c["winner"]
    milestone = {k: c[k] for k in COMBAT_FIELDS}
    s.add_milestone("combat", **milestone)
    s.combat = None
    s.casualty_side = None
    return winner


COMBAT_FIELDS = ("round", "location", "combat_no", "combat_type", "attacker_player", "defender_player",
                 "attack_strength", "defence_strength", "table_column", "table_label", "attacker_target",
                 "defender_target", "start_tokens_attacker", "start_tokens_defender", "rolls", "winner",
                 "casualty", "casualty_power", "casualty_strength")


def choose_casualty_options(s: Board, player: str) -> Iterator[ChooseCasualty]:
    assert s.casualty_side is not None
    for p in sorted({UNIT[u].power for u in casualty_candidates(s, s.casualty_side)}):
        yield ChooseCasualty(power=p)


def choose_casualty_check(s: Board, player: str, move: ChooseCasualty) -> str | None:
    assert s.casualty_side is not None
    found = casualty_candidates(s, s.casualty_side)
    powers = sorted({UNIT[u].power for u in found})
    if move.power not in powers:
        strength = UNIT[found[0]].strength
        return (f"{player} cannot give up a {move.power} unit: the weakest units of his side "
                f"(strength {strength}) belong to {', '.join(powers)}")
    return None


def choose_casualty(s: Board, player: str, move: ChooseCasualty) -> str | None:
    """The chosen power's weakest unit is lost; the combat's winner is returned."""
    assert s.casualty_side is not None
    found = [u for u in casualty_candidates(s, s.casualty_side) if UNIT[u].power == move.power]
    return lose_unit(s, found[0])


# ---- the result ------------------------------------------------------------------------------


def end_combat(s: Board, winner: str | None) -> bool:
    """Combat 1's winner starts combat 2 with a token (True: it follows); the last combat's winner
    takes the location."""
    if s.ruleset != "bga":
        s.brasidas = s.phormio = False
    if s.combat_no + 1 < len(s.current_location().combats):
        s.combat1_winner = winner
        s.combat_no += 1
        return True
    finish_location(s, winner)
    return False


def finish_location(s: Board, winner: str | None) -> None:
    """Attackers won: their main player claims the tile, a defeat for its city. Defenders won: theirs claims it."""
    tile = s.current_location()
    sides = s.main_player.get(tile.key, {ATTACKER: None, DEFENDER: None})
    claimant = sides[winner] if winner is not None else None
    if claimant is None:
        s.unclaimed.append(tile.key)
    else:
        claim_tile(s, claimant)
        if winner == ATTACKER:
            s.defeats[tile.owner] += 1
            s.score_changed()
    for uid in s.units_at(tile.key):
        s.send_home(uid)
    s.battle_slot += 1
    s.brasidas = s.phormio = False


def claim_tile(s: Board, claimant: str) -> None:
    """The claimant scores the tile; with two or more Persian leaders, a Persian claim scores for each."""
    tile = s.current_location()
    if claimant in s.persian_leaders and len(s.persian_leaders) >= 2:
        scorers = list(s.persian_leaders)
    else:
        scorers = [claimant]
    for p in scorers:
        s.claimed[p].append(tile.key)
        s.location_vp[p] += tile.vp
        s.score_changed()
        s.add_milestone("location_claimed", round=s.round, location=tile.key, player_id=p, points=tile.vp)


def combat_view(s: Board) -> dict[str, dict[str, dict[str, Any]]]:
    """The game's dice combats by location (each location is fought once a game) and combat type, the
    one being fought included once its strengths are known: strengths, table column, hits per side,
    winner and its main player, casualty."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    fought = [m for m in s.milestones if m["type"] == "combat"]
    if s.combat is not None and "attack_strength" in s.combat:
        fought.append(s.combat)
    for c in fought:
        winner = c.get("winner")
        view = {
            "combat_no": c["combat_no"],
            "attack_strength": c["attack_strength"], "defence_strength": c["defence_strength"],
            "table_column": c["table_column"],
            "attacker_hits": sum(1 for a, _ in c["rolls"] if hits(s, a, c["attacker_target"])),
            "defender_hits": sum(1 for _, d in c["rolls"] if hits(s, d, c["defender_target"])),
            "winner": winner,
            "winner_player": None if winner is None else c[f"{winner}_player"],
        }
        if "casualty_power" in c:
            view["casualty_power"] = c["casualty_power"]
            view["casualty_strength"] = c["casualty_strength"]
        out.setdefault(c["location"], {})[c["combat_type"]] = view
    return out


def battle_view(s: Board) -> dict[str, Any] | None:
    """The location being fought, for the snapshot."""
    if s.stage not in ("combat", "window", "battle_special", "roll", "casualty"):
        return None
    tile = s.current_location()
    return {"location": tile.key, "combat_no": s.combat_no + 1, "combat_type": combat_type(s),
            "tokens": dict(s.tokens), "brasidas": s.brasidas, "phormio": s.phormio,
            "combat1_winner": s.combat1_winner, "window": list(s.window), "pending_roll": s.pending_roll,
            "casualty_side": s.casualty_side,
            "combat": None if s.combat is None else dict(s.combat)}

