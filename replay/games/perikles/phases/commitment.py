"""Commit turns in detail: where a unit may go, sending it, permission to defend, extra units for a cube."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..components import (
    ATTACKER,
    CITY_KEYS,
    DEFENDER,
    LOCATION,
    PERSIA,
    POWERS,
    SIDES,
    TRIREME,
    UNIT,
    UNIT_TYPES,
    UNITS_BY_KIND,
)
from ..moves import AnswerPermission, AskPermission, EndCommit, ResendUnit, SendUnit, SetPermission, SpendCube
from ..rulebook import by_the_rulebook
from .military import MAX_UNITS, MAX_UNITS_WITH_CUBE, a_unit, finish_commit_turn, power_name

if TYPE_CHECKING:
    from ..board import Board

# ---- where a unit may go ------------------------------------------------------------


def _defending_powers(s: Board, location: str) -> list[str]:
    owner = LOCATION[location].owner
    found = s.powers_at(location, DEFENDER)
    return [owner] + [p for p in found if p != owner]


def attack_problem(s: Board, player: str, power: str, unit_type: str, location: str) -> str | None:
    """The five conditions for committing ``power``'s unit as attacker at ``location``."""
    tile = LOCATION[location]
    owner = tile.owner

    def who() -> str:
        return f"{player} cannot attack {tile.name} with {a_unit(power, unit_type)}"

    if s.leader[owner] == player:
        return f"{who()}: he leads {power_name(owner)}, which owns it"
    for d in _defending_powers(s, location):
        if s.relation(power, d) == 1:
            why = "the same city" if d == power else "allied with it this round"
            return f"{who()}: {power_name(power)} and {power_name(d)} (defending) are {why}"
    for d in s.powers_at(location, DEFENDER):
        if s.leads(player, d):
            return f"{who()}: he leads {power_name(d)}, which already defends there"
    for a in s.powers_at(location, ATTACKER):
        if s.relation(power, a) == -1:
            return f"{who()}: {power_name(power)} is at war with {power_name(a)}, which already attacks there"
    if unit_type == TRIREME and tile.land_only:
        return f"{who()}: {tile.name} is a land battle, triremes cannot go there"
    return None


def defence_problem(s: Board, player: str, power: str, unit_type: str, location: str) -> str | None:
    """The conditions for committing as defender, permission aside."""
    tile = LOCATION[location]

    def who() -> str:
        return f"{player} cannot defend {tile.name} with {a_unit(power, unit_type)}"

    for d in _defending_powers(s, location):
        if s.relation(power, d) == -1:
            return f"{who()}: {power_name(power)} is at war with {power_name(d)}, which defends it"
    for a in s.powers_at(location, ATTACKER):
        if s.relation(power, a) == 1:
            return f"{who()}: {power_name(power)} is allied with {power_name(a)}, which attacks it"
        if s.leads(player, a):
            return f"{who()}: he leads {power_name(a)}, which attacks it"
    if unit_type == TRIREME and tile.land_only:
        return f"{who()}: {tile.name} is a land battle, triremes cannot go there"
    return None


def side_problem(s: Board, player: str, power: str, unit_type: str, location: str, side: str) -> str | None:
    """:func:`attack_problem` or :func:`defence_problem` (the unit's strength plays no part, so the
    answer is shared by every strength while legal moves are listed)."""
    memo = s._memo
    key = ("side", player, power, unit_type, location, side)
    if memo is not None and key in memo:
        why: str | None = memo[key]
        return why
    problem = attack_problem if side == ATTACKER else defence_problem
    why = problem(s, player, power, unit_type, location)
    if memo is not None:
        memo[key] = why
    return why


def needs_permission(s: Board, player: str, power: str, location: str) -> bool:
    owner = LOCATION[location].owner
    return not s.leads(player, owner) and power not in s.permissions.get(location, [])


def extra_power(s: Board, player: str) -> str | None:
    """After a spent cube: the power whose units may follow (Persia for a Persian leader).

    ``bga``: any power the player controls (BGA checks only the cube), so None as before a cube;
    the cube is still the condition for the third and fourth unit (:func:`unit_limit`).
    """
    return None if s.ruleset == "bga" else cube_power(s, player)


def cube_power(s: Board, player: str) -> str | None:
    """The power the rulebook allows after a spent cube (the cube's city; a Persian leader's: Persia),
    whatever the ruleset; None before a cube."""
    if s.commit_cube_city is None:
        return None
    return PERSIA if player in s.persian_leaders else s.commit_cube_city


def find_unit(s: Board, player: str, power: str, unit_type: str, strength: int) -> str | None:
    """The first unit of that kind among the units ``player`` controls (and has not sent face down)."""
    if s.away and s.available(player, power, unit_type) < 1:
        return None
    for uid in UNITS_BY_KIND.get((power, unit_type, strength), ()):
        if s.controls(player, uid):
            return uid
    return None


def unit_limit(s: Board) -> int:
    """Units a commit turn may send: two, or four after a spent cube."""
    return MAX_UNITS if s.commit_cube_city is None else MAX_UNITS_WITH_CUBE


def send_unit_options(s: Board, player: str) -> Iterator[SendUnit]:
    extra = extra_power(s, player)
    if s.commit_sent >= unit_limit(s):
        return  # no further unit this turn (send_unit_check refuses them all)
    kinds = sorted({(UNIT[u].power, UNIT[u].type, UNIT[u].strength) for u in s.controlled_units(player)
                    if (extra is None or UNIT[u].power == extra)
                    and (not s.away or s.available(player, UNIT[u].power, UNIT[u].type) > 0)},
                   key=lambda k: (UNIT_TYPES.index(k[1]), k[0], k[2]))
    for power, unit_type, strength in kinds:
        for loc in s.locations:
            for side in SIDES:
                yield SendUnit(power=power, unit_type=unit_type, strength=strength, location=loc, side=side)


def send_unit_check(s: Board, player: str, move: SendUnit) -> str | None:
    if move.unit_type not in UNIT_TYPES:
        return f"{player} cannot send a {move.unit_type!r}: units are hoplites or triremes"
    if move.side not in SIDES:
        return f"{player} cannot send a unit to side {move.side!r}: the sides are attacker and defender"
    if move.location not in s.locations:
        return f"{player} cannot send a unit to {move.location!r}: it is not a location of this round"
    if move.strength is None:
        if s.available(player, move.power, move.unit_type) < 1:
            return f"{player} cannot send {a_unit(move.power, move.unit_type)}: he controls no uncommitted one"
    elif find_unit(s, player, move.power, move.unit_type, move.strength) is None:
        return (f"{player} cannot send {a_unit(move.power, move.unit_type)} of strength {move.strength}: "
                f"he controls no such uncommitted unit")
    extra = extra_power(s, player)
    if s.commit_cube_city is None and s.commit_sent >= MAX_UNITS:
        return (f"{player} cannot send a third unit: a commit turn sends at most {MAX_UNITS} units "
                f"unless he first removes a cube from a city he leads")
    if s.commit_cube_city is not None and s.commit_sent >= MAX_UNITS_WITH_CUBE:
        return f"{player} cannot send a fifth unit: a commit turn sends at most {MAX_UNITS_WITH_CUBE} units"
    if extra is not None:
        if move.power != extra:
            return (f"{player} cannot send a {power_name(move.power)} unit as an extra unit: the cube he spent "
                    f"allows only {power_name(extra)} units")
    if move.side == ATTACKER:
        return side_problem(s, player, move.power, move.unit_type, move.location, ATTACKER)
    bad = side_problem(s, player, move.power, move.unit_type, move.location, DEFENDER)
    if bad:
        return bad
    if needs_permission(s, player, move.power, move.location):
        tile = LOCATION[move.location]
        owner_leader = s.leader[tile.owner]
        if owner_leader is None:
            return (f"{player} cannot defend {tile.name} with {power_name(move.power)} units: it needs permission "
                    f"from the leader of {power_name(tile.owner)}, and {power_name(tile.owner)} has no leader")
        if [move.location, move.power] in s.commit_denied:
            return (f"{player} cannot ask again to defend {tile.name} with {power_name(move.power)} units this turn: "
                    f"{owner_leader} refused")
    return None


def take_position(s: Board, player: str, power: str, location: str, side: str) -> bool:
    """A unit of ``power`` joins ``side`` at ``location``: the first player on a side is its main player
    (a Persian leader's Persians join a Persian main player); relationships follow. Returns main-ness."""
    sides = s.main_player.setdefault(location, {ATTACKER: None, DEFENDER: None})
    if sides[side] is None:
        sides[side] = player
    main = sides[side]
    is_main = main == player or (power == PERSIA and main in s.persian_leaders and player in s.persian_leaders)
    for a, b, value in relation_changes(s, power, location, side):
        s.set_relation(a, b, value)
    return is_main


def relation_changes(s: Board, power: str, location: str, side: str) -> list[tuple[str, str, int]]:
    """The relationships a unit of ``power`` joining ``side`` at ``location`` sets: at war with the
    other side's powers, allied with its own side's."""
    attackers = s.powers_at(location, ATTACKER)
    defenders = _defending_powers(s, location)
    enemies, friends = (defenders, attackers) if side == ATTACKER else (attackers, defenders)
    return [(power, p, -1) for p in enemies] + [(power, p, 1) for p in friends]


def commit(s: Board, player: str, uid: str, location: str, side: str) -> None:
    """Place the unit at its side of the location."""
    is_main = take_position(s, player, UNIT[uid].power, location, side)
    s.commit_unit(uid, player, location, side, is_main)
    s.commit_sent += 1


def commit_face_down(s: Board, player: str, power: str, unit_type: str, location: str, side: str) -> None:
    """A unit whose counter the record does not name: one of the group's units, which one is unknown."""
    is_main = take_position(s, player, power, location, side)
    s.face_down.append({"power": power, "type": unit_type, "holder": player, "location": location,
                        "side": side, "main": is_main})
    group = s.group_key(player, power, unit_type)
    s.away[group] = s.away.get(group, 0) + 1
    s.commit_sent += 1


def send(s: Board, player: str, power: str, unit_type: str, strength: int | None, location: str, side: str) -> None:
    if s.ruleset == "bga":
        placement_departures(s, player, power, unit_type, location, side)
    if strength is None:
        commit_face_down(s, player, power, unit_type, location, side)
        return
    uid = find_unit(s, player, power, unit_type, strength)
    assert uid is not None
    commit(s, player, uid, location, side)


def resend_unit_options(s: Board, player: str) -> Iterator[ResendUnit]:
    """None: only BGA's zombie sends one counter twice, and a record says so (``bga``)."""
    return iter(())


def resend_unit_check(s: Board, player: str, move: ResendUnit) -> str | None:
    if s.ruleset != "bga":
        return f"{player} cannot send a unit twice in one turn"
    if move.side not in SIDES:
        return f"{player} cannot send a unit to side {move.side!r}: the sides are attacker and defender"
    if move.location not in s.locations:
        return f"{player} cannot send a unit to {move.location!r}: it is not a location of this round"
    if sent_this_turn(s, player, move) is None:
        strength = "" if move.strength is None else f" of strength {move.strength}"
        return f"{player} sent no {power_name(move.power)} {move.unit_type}{strength} this turn to send again"
    return None


def sent_this_turn(s: Board, player: str, move: ResendUnit) -> str | int | None:
    """The unit ``move`` names among those ``player`` sent this turn, the latest first: its id, or
    its index in :attr:`Board.face_down` when it went face down."""
    if move.strength is None:
        return next((i for i in range(len(s.face_down) - 1, s.turn_face_down - 1, -1)
                     if (f := s.face_down[i])["holder"] == player and f["power"] == move.power
                     and f["type"] == move.unit_type), None)
    return next((u for u in reversed(s.turn_sent) if UNIT[u].power == move.power and UNIT[u].type == move.unit_type
                 and UNIT[u].strength == move.strength), None)


def resend_unit(s: Board, player: str, move: ResendUnit) -> None:
    """``bga``: BGA moves the counter at each of its zombie's two picks, so it ends where the second
    sends it; the first location keeps what the first pick did there (the main role, relationships)."""
    sent = sent_this_turn(s, player, move)
    assert sent is not None  # resend_unit_check
    is_main = take_position(s, player, move.power, move.location, move.side)
    if isinstance(sent, str):
        was = s.unit_location[sent]
        assert was is not None  # a unit sent this turn is at its location
        s.turn_sent.remove(sent)
        s.commit_unit(sent, player, move.location, move.side, is_main)
    else:
        was = s.face_down[sent]["location"]
        s.face_down[sent] = {**s.face_down[sent], "location": move.location, "side": move.side, "main": is_main}
    s.depart("zombie_picks_one_counter_twice",
             f"{player}, who left the table: BGA picked his {power_name(move.power)} {move.unit_type} sent to "
             f"{LOCATION[was].name} a second time, for {LOCATION[move.location].name}: it moves there, and what the "
             f"first pick did at {LOCATION[was].name} stays; by the rulebook a unit is sent once")


RELATION = {-1: "at war", 0: "neutral", 1: "allied"}


def placement_departures(s: Board, player: str, power: str, unit_type: str, location: str, side: str) -> None:
    """``bga``, a unit about to be placed by a commit turn (right away, or once permission is granted):
    the rulebook's branch would refuse it, or set other relationships.  One record per unit and rule;
    a request or a spent cube records nothing of itself, the units that follow it do."""
    tile = LOCATION[location]
    what = f"{player} sends {a_unit(power, unit_type)} to {'attack' if side == ATTACKER else 'defend'} {tile.name}"
    own = cube_power(s, player)
    if own is not None and power != own:
        assert s.commit_cube_city is not None
        s.depart("extra_units_of_any_power",
                 f"{what} after spending a cube in {s.commit_cube_city.capitalize()}; by the rulebook the extra "
                 f"units must be {power_name(own)} units")
    with by_the_rulebook(s):
        why = side_problem(s, player, power, unit_type, location, side)
        official = relation_changes(s, power, location, side)
    if why is not None:
        s.depart("commit_checked_as_a_whole", f"{what}, checked against earlier commit turns only; by the rulebook "
                                              f"the units sent this turn forbid it: {why}")
        return

    def after(sets: list[tuple[str, str, int]]) -> dict[str, int]:
        out = dict(s.relations)
        out.update({s._pair(a, b): value for a, b, value in sets if a != b})
        return out

    mine, theirs = after(relation_changes(s, power, location, side)), after(official)
    pairs = sorted(k for k in set(mine) | set(theirs) if mine.get(k, 0) != theirs.get(k, 0))
    if pairs:
        said = "; ".join(f"{' and '.join(power_name(p) for p in k.split('|'))} stay {RELATION[mine.get(k, 0)]} "
                         f"(by the rulebook {RELATION[theirs.get(k, 0)]})" for k in pairs)
        s.depart("commit_checked_as_a_whole",
                 f"{what}, unrelated to the units sent with it this turn: {said}")


def send_unit(s: Board, player: str, move: SendUnit) -> str | None:
    """The unit goes to its side of the location, or, to defend it without permission, waits for the
    owning city's leader: he is returned (he answers next)."""
    if move.side == DEFENDER and needs_permission(s, player, move.power, move.location):
        owner_leader = s.leader[LOCATION[move.location].owner]
        assert owner_leader is not None  # send_unit_check: a location without a leader cannot be asked
        s.permission_request = {"player": player, "power": move.power, "unit_type": move.unit_type,
                                "strength": move.strength, "location": move.location}
        s.cur = owner_leader
        return owner_leader
    send(s, player, move.power, move.unit_type, move.strength, move.location, move.side)
    return None


# ---- permission -------------------------------------------------------------------


def answer_permission_options(s: Board, player: str) -> Iterator[AnswerPermission]:
    yield AnswerPermission(grant=True)
    yield AnswerPermission(grant=False)


def ask_permission_options(s: Board, player: str) -> Iterator[AskPermission]:
    powers = sorted({UNIT[u].power for u in s.controlled_units(player)})
    for power in powers:
        for loc in s.locations:
            yield AskPermission(power=power, location=loc)


def ask_permission_check(s: Board, player: str, move: AskPermission) -> str | None:
    if move.location not in s.locations:
        return f"{player} cannot ask to defend {move.location!r}: it is not a location of this round"
    tile = LOCATION[move.location]
    if not needs_permission(s, player, move.power, move.location):
        return f"{player} need not ask to defend {tile.name} with {power_name(move.power)} units: he may already"
    extra = extra_power(s, player)
    if extra is not None and move.power != extra:
        return (f"{player} cannot ask to defend {tile.name} with {power_name(move.power)} units: the cube he "
                f"spent allows only {power_name(extra)} units")
    usable = [t for t in UNIT_TYPES if s.available(player, move.power, t) > 0
              and side_problem(s, player, move.power, t, move.location, DEFENDER) is None]
    if not usable:
        return (f"{player} cannot ask to defend {tile.name} with {power_name(move.power)} units: he has no "
                f"uncommitted one that could defend it")
    owner_leader = s.leader[tile.owner]
    if owner_leader is None:
        return (f"{player} cannot ask to defend {tile.name}: {power_name(tile.owner)} has no leader to grant "
                f"the permission")
    if s.ruleset != "bga" and [move.location, move.power] in s.commit_denied:
        return (f"{player} cannot ask again to defend {tile.name} with {power_name(move.power)} units this turn: "
                f"{owner_leader} refused")
    return None


def ask_permission(s: Board, player: str, move: AskPermission) -> str:
    """The request goes to the owning city's leader, who is returned (he answers next); no unit moves
    until he answers."""
    if s.ruleset == "bga":
        _ask_departures(s, player, move)
    s.permission_request = {"player": player, "power": move.power, "unit_type": None, "strength": None,
                            "location": move.location, "ask": True}
    leader = s.leader[LOCATION[move.location].owner]
    assert leader is not None  # ask_permission_check
    s.cur = leader
    return leader


def _ask_departures(s: Board, player: str, move: AskPermission) -> None:
    """``bga``: asked again after a refusal this turn, which the rulebook does not allow."""
    tile = LOCATION[move.location]
    if [move.location, move.power] in s.commit_denied:
        s.depart("asking_again_after_refusal",
                 f"{player} asks again to defend {tile.name} with {power_name(move.power)} units after "
                 f"{s.leader[tile.owner]} refused this turn; by the rulebook the refusal stands for the turn")


def answer_permission(s: Board, player: str, move: AnswerPermission) -> None:
    """A grant admits that power to defend the location for the round (and sends the waiting unit, if
    the request came with one); a refusal sends the turn back to the requester (and, like a revocation,
    withdraws any permission the leader gave that power there meanwhile)."""
    req = s.permission_request
    assert req is not None
    requester = req["player"]
    permit(s, req["location"], req["power"], move.grant)
    if move.grant:
        if not req.get("ask"):
            send(s, requester, req["power"], req["unit_type"], req["strength"], req["location"], DEFENDER)
        s.commit_granted = True
    else:
        s.commit_denied.append([req["location"], req["power"]])
        if req.get("ask"):
            s.commit_granted = False
    s.permission_request = None
    s.cur = requester


# ---- standing permission, set at any time --------------------------------------------------

BATTLE_STAGES = frozenset({"location", "reveal", "combat", "window", "battle_special", "roll", "casualty"})


def permit(s: Board, location: str, power: str, grant: bool) -> None:
    """``power`` may (or may no longer) defend ``location`` without asking: one entry per power."""
    allowed = s.permissions.get(location, [])
    if grant and power not in allowed:
        s.permissions[location] = allowed + [power]
    elif not grant and power in allowed:
        allowed = [p for p in allowed if p != power]
        if allowed:
            s.permissions[location] = allowed
        else:
            del s.permissions[location]


def on_board(s: Board, location: str) -> bool:
    """A location of this round whose battle has not been fought yet."""
    if location not in s.locations:
        return False
    return s.stage not in BATTLE_STAGES or s.locations.index(location) >= s.battle_slot


def defends(s: Board, location: str, power: str) -> bool:
    """Whether ``power`` has units on the defending side of ``location`` (face down included)."""
    return (any(UNIT[u].power == power for u in s.units_at(location, DEFENDER))
            or any(f["location"] == location and f["side"] == DEFENDER and f["power"] == power for f in s.face_down))


def set_permission_options(s: Board, player: str) -> Iterator[SetPermission]:
    for loc in s.locations:
        for power in POWERS:
            for grant in (True, False):
                yield SetPermission(location=loc, power=power, grant=grant)


def set_permission_check(s: Board, player: str, move: SetPermission) -> str | None:
    """The leader of the owning city, for another power he does not lead; no grant to a power at war with
    his city, no revocation once that power defends there."""
    verb = "grant" if move.grant else "revoke"
    if move.location not in LOCATION or not on_board(s, move.location):
        return f"{player} cannot {verb} permission to defend {move.location!r}: it is no location still to be fought"
    tile = LOCATION[move.location]
    if move.power not in POWERS:
        return f"{player} cannot {verb} permission to defend {tile.name} to {move.power!r}: not a city or Persia"
    if s.leader[tile.owner] != player:
        return f"{player} cannot {verb} permission to defend {tile.name}: he does not lead {power_name(tile.owner)}"
    if move.power != PERSIA and s.leader[move.power] == player:
        return f"{player} cannot {verb} permission to defend {tile.name} to {power_name(move.power)}: he leads it"
    if move.grant and s.relation(tile.owner, move.power) == -1:
        return (f"{player} cannot grant {power_name(move.power)} permission to defend {tile.name}: it is at war "
                f"with {power_name(tile.owner)}")
    if not move.grant and defends(s, move.location, move.power):
        return (f"{player} cannot revoke {power_name(move.power)}'s permission to defend {tile.name}: its units "
                f"already defend there")
    return None


def set_permission(s: Board, player: str, move: SetPermission) -> None:
    permit(s, move.location, move.power, move.grant)


# ---- extra units for a cube ---------------------------------------------------------------


def spend_cube_options(s: Board, player: str) -> Iterator[SpendCube]:
    for c in CITY_KEYS:
        yield SpendCube(city=c)


def spend_cube_check(s: Board, player: str, move: SpendCube) -> str | None:
    c = move.city
    if c not in CITY_KEYS:
        return f"{player} cannot spend a cube in {c!r}: the cities are {', '.join(CITY_KEYS)}"
    if s.commit_cube_city is not None:
        return f"{player} cannot spend a second cube: one cube per commit turn"
    if s.commit_sent != MAX_UNITS:
        return (f"{player} cannot spend a cube for extra units yet: he has sent {s.commit_sent} units this turn, "
                f"extra units come after {MAX_UNITS}")
    persian = player in s.persian_leaders
    if not persian and s.leader[c] != player:
        return f"{player} cannot spend a cube in {c.capitalize()}: he does not lead it"
    if s.cubes[c][player] == 0:
        return f"{player} cannot spend a cube in {c.capitalize()}: he has no cube there"
    power = PERSIA if persian else c
    s.commit_cube_city = c
    try:
        ok = any(send_unit_check(s, player, m) is None for m in send_unit_options(s, player)
                 if m.power == power or s.ruleset == "bga")
    finally:
        s.commit_cube_city = None
    if not ok:
        what = "" if s.ruleset == "bga" else f" {power_name(power)}"
        return f"{player} cannot spend a cube in {c.capitalize()}: he could send no further{what} unit"
    return None


def spend_cube(s: Board, player: str, move: SpendCube) -> None:
    s.cubes[move.city][player] -= 1
    s.score_changed()
    s.commit_cube_city = move.city




# ---- the end of a commit turn ----------------------------------------------------------


def end_commit_check(s: Board, player: str, move: EndCommit) -> str | None:
    """After a spent cube the turn goes on while a further unit can be sent: the cube was spent for it."""
    if s.commit_cube_city is None or s.commit_sent > MAX_UNITS:
        return None
    if any(send_unit_check(s, player, m) is None for m in send_unit_options(s, player)):
        return (f"{player} cannot end his commit turn yet: he spent a cube in "
                f"{s.commit_cube_city.capitalize()} and must send at least one more unit")
    return None


def end_commit(s: Board, player: str, move: EndCommit) -> None:
    """The player ends his commit turn.  A cube is only spent if more than two units are sent
    (§5.5.3): when a refused permission leaves no further unit to send, it returns to its city."""
    if s.commit_cube_city is not None and s.commit_sent <= MAX_UNITS:
        cube_back(s, player, s.commit_cube_city)
    finish_commit_turn(s, player)


def cube_back(s: Board, player: str, city: str) -> None:
    s.cubes[city][player] += 1
    s.score_changed()
    s.commit_cube_city = None
