"""What a record seen from one seat leaves unknown, and how a reveal settles it.

A Board Game Arena log is one player's view of the table.  Three things in it
can be unknown to the record:

* **another player's special tile** — dealt face down and named only when
  played (``Board.special`` holds :data:`~.board.UNKNOWN`; ``may_hold_special``
  allows any tile nobody else is known to hold, and playing binds it);
* **a round-1 display tile nobody took** — BGA's log names display tiles
  only when they are taken (the display slot holds :data:`~.board.UNKNOWN`);
* **a unit committed face down** — the log says who sent which power's
  hoplite or trireme where, not which counter (``send_unit`` with
  ``strength: null``).

A face-down unit is one of its *group*: the uncommitted units of that power
and type its sender controls (his own, or the shared Persian pool).  The
units of a group are exchangeable as far as the record can tell, so the
state keeps the group's units where they were and counts how many of them
are in fact away (``Board.away``); a unit of the group named later (a send
the viewer saw, a Slave Revolt pick) is possible exactly when one more than
the away count is still there.  When the battles reach the location, its
counters are turned up: the record's ``reveal`` event
``{"reveal": "location:<key>", "items": [unit ids]}`` binds each face-down
unit to its counter and checks every unit the state already placed there.
The rules wait for that reveal before fighting a location with face-down
units.  Units of one power, type and strength are interchangeable: when a
reveal names a counter the state holds under another id of the same kind,
the two ids swap places, so the state's ids follow the record's.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from replay.engine import ImpossibleChance
from replay.hidden import HiddenPool

from .board import BATTLE, HELD, POOL, UNKNOWN
from .components import LOCATION, PERSIA, SPECIAL, SPECIAL_TILES, UNIT, UNIT_IDS, UNITS_BY_KIND

if TYPE_CHECKING:
    from .board import Board

LOCATION_ZONE = "location:"
SPECIAL_ZONE = "special:"
DISPLAY_ZONE = "display:"
FACE_DOWN_ZONE = "face_down:"
WAITING_ZONE = "waiting:"


def zone_name(location: str) -> str:
    """The ``reveal`` zone of a location: ``location:<key>``."""
    return LOCATION_ZONE + location


def face_down_at(s: Board, location: str) -> list[dict[str, Any]]:
    return [f for f in s.face_down if f["location"] == location]


def _describe(uid: str) -> str:
    u = UNIT[uid]
    return f"{uid} (a {u.power.capitalize()} {u.type} of strength {u.strength})"


def in_group(s: Board, uid: str, holder: str, power: str) -> bool:
    """Whether ``uid`` is an uncommitted unit of the group a face-down unit of ``holder`` came from."""
    if power == PERSIA:
        return s.unit_at[uid] == POOL
    return s.unit_at[uid] == HELD and s.unit_holder[uid] == holder


def take_identity(s: Board, uid: str, holder: str, power: str) -> str | None:
    """A unit of ``uid``'s kind in the group, made to carry the id ``uid`` (swapping with an
    interchangeable unit if needed); None if the group has no unit of that kind."""
    if in_group(s, uid, holder, power):
        return uid
    u = UNIT[uid]
    for other in UNITS_BY_KIND[(u.power, u.type, u.strength)]:
        if other != uid and in_group(s, other, holder, power):
            s.swap_units(uid, other)
            return uid
    return None


def bind_face_down(s: Board, f: dict[str, Any], uid: str) -> None:
    """The face-down unit ``f`` is counter ``uid`` (already in its group): it takes its place."""
    s.face_down.remove(f)
    group = s.group_key(f["holder"], f["power"], f["type"])
    s.away[group] -= 1
    if not s.away[group]:
        del s.away[group]
    s.commit_unit(uid, f["holder"], f["location"], f["side"], f["main"])


def pick_from_group(s: Board, uid: str, holder: str, power: str, where: str) -> None:
    """A unit named while some of its group are away face down (a Slave Revolt pick from the leader's
    forces): it must be there, and one more than the away count must remain."""
    u = UNIT[uid]
    if take_identity(s, uid, holder, power) is None:
        raise ImpossibleChance(f"{where}: {_describe(uid)} is not among {holder}'s uncommitted units")
    if s.away and s.available(holder, u.power, u.type) < 1:
        raise ImpossibleChance(f"{where}: {_describe(uid)} cannot still be with {holder}: all his uncommitted "
                               f"{u.power.capitalize()} {u.type}s are among the units he sent face down")


def reveal(s: Board, zone: str, items: list[Any]) -> None:
    """Apply ``{"reveal": zone, "items": [...]}``: the counters at a location are turned up, or one
    of the zones :func:`unknown_zones` names is dealt."""
    if zone.startswith(SPECIAL_ZONE):
        return reveal_special(s, zone[len(SPECIAL_ZONE):], items)
    if zone.startswith(DISPLAY_ZONE):
        return reveal_display(s, zone[len(DISPLAY_ZONE):], items)
    if zone.startswith(FACE_DOWN_ZONE):
        return reveal_face_down(s, zone, items)
    if zone.startswith(WAITING_ZONE):
        return reveal_waiting(s, zone[len(WAITING_ZONE):], items)
    if not zone.startswith(LOCATION_ZONE):
        raise ImpossibleChance(f"nothing is hidden in a zone called {zone!r} in Perikles (zones: "
                               f"location:<key>, special:<player>, display:<slot>, face_down:..., waiting:<location>)")
    return reveal_location(s, zone[len(LOCATION_ZONE):], items)


def reveal_location(s: Board, loc: str, items: list[Any]) -> None:
    """The counters at ``loc`` are turned up: each face-down unit there is bound to its counter."""
    if loc in s.shown:  # already fought (perhaps in the round just ended): a check only
        ids_ = [str(it) for it in items]
        if any(u not in UNIT for u in ids_):
            raise ImpossibleChance(f"the units revealed at {LOCATION[loc].name}: not all are military counters")
        _check_late(s, loc, ids_, f"the units revealed at {LOCATION[loc].name}")
        return
    if loc not in LOCATION or loc not in s.locations:
        raise ImpossibleChance(f"cannot reveal the units at {loc!r}: not a location of round {s.round}")
    name = LOCATION[loc].name
    where = f"the units revealed at {name}"
    ids = []
    for it in items:
        uid = str(it)
        if uid not in UNIT:
            raise ImpossibleChance(f"{where}: {it!r} is not a military counter (u1..u{len(UNIT)})")
        ids.append(uid)
    if len(set(ids)) != len(ids):
        raise ImpossibleChance(f"{where}: a counter is named twice")
    known = [u for u in s.units_at(loc)]
    hidden = face_down_at(s, loc)
    # 1. counters the state already has there, by id, then by kind (interchangeable units)
    unmatched = [u for u in ids if u not in known]
    left = [u for u in known if u not in ids]
    rest = []
    for uid in unmatched:
        kind = (UNIT[uid].power, UNIT[uid].type, UNIT[uid].strength)
        twin = next((k for k in left if (UNIT[k].power, UNIT[k].type, UNIT[k].strength) == kind), None)
        if twin is None:
            rest.append(uid)
            continue
        left.remove(twin)
        s.swap_units(uid, twin)
    if left:
        raise ImpossibleChance(f"{where} leave out {', '.join(_describe(u) for u in left)}, which is there")
    # 2. the rest are the face-down units
    for uid in rest:
        u = UNIT[uid]
        f = next((f for f in hidden if f["power"] == u.power and f["type"] == u.type), None)
        if f is None:
            raise ImpossibleChance(f"{where} include {_describe(uid)}, but no {u.power.capitalize()} "
                                   f"{u.type} was sent there")
        if take_identity(s, uid, f["holder"], f["power"]) is None:
            raise ImpossibleChance(f"{where} include {_describe(uid)}, but {f['holder']} had no such "
                                   f"uncommitted unit to send there face down")
        hidden.remove(f)
        bind_face_down(s, f, uid)
    if hidden:
        what = ", ".join(f"a {f['power'].capitalize()} {f['type']} of {f['holder']}" for f in hidden)
        raise ImpossibleChance(f"{where} do not include {what}, sent there face down")


def _check_late(s: Board, loc: str, ids: list[str], where: str) -> None:
    """A reveal after the location was fought: it must show what was there (kinds, as units of one
    kind are interchangeable)."""
    def kinds(units: list[str]) -> Counter[tuple[str, str, int]]:
        return Counter((UNIT[u].power, UNIT[u].type, UNIT[u].strength) for u in units)

    had, shown = kinds(s.shown[loc]), kinds(ids)
    if had != shown:
        extra = ", ".join(f"{p} {t} {n}" for (p, t, n) in sorted((shown - had).elements()))
        missing = ", ".join(f"{p} {t} {n}" for (p, t, n) in sorted((had - shown).elements()))
        raise ImpossibleChance(f"{where} do not match what was fought there: "
                               f"{'shown but absent: ' + extra if extra else ''}"
                               f"{'; ' if extra and missing else ''}"
                               f"{'present but not shown: ' + missing if missing else ''}")


def location_revealed(s: Board, loc: str) -> None:
    """The location is reached with every unit known: remember what is there (a later reveal is checked
    against it) and tell a seat-view simulation which counters were turned up."""
    units = s.units_at(loc)
    s.shown[loc] = units
    reveals = getattr(s, "reveals", None)
    if reveals is not None and units:
        reveals.append({"reveal": zone_name(loc), "items": list(units)})


def still_hidden(s: Board) -> str | None:
    """At the end of a round nothing may remain face down (every location was revealed)."""
    if s.face_down:
        f = s.face_down[0]
        return (f"a {f['power'].capitalize()} {f['type']} of {f['holder']} at "
                f"{LOCATION[f['location']].name} was never revealed")
    return None


def follow_twin(s: Board, options: tuple[Any, ...], named: Any) -> bool:
    """``named`` is not among ``options`` but a counter of the same kind is: the two swap ids (True)."""
    if named in options or named not in UNIT:
        return False
    kind = (UNIT[named].power, UNIT[named].type, UNIT[named].strength)
    twin = next((o for o in options if o in UNIT and (UNIT[o].power, UNIT[o].type, UNIT[o].strength) == kind), None)
    if twin is None:
        return False
    s.swap_units(named, twin)
    return True


def revolt_strikes(s: Board, target: str, uid: str) -> None:
    """Slave Revolt's pick ``uid`` goes home: at a location it may be a face-down unit, in the leader's
    forces it must not be one he sent face down."""
    leader = s.leader["sparta"]
    assert leader is not None
    where = "Slave Revolt"
    if UNIT[uid].power != "sparta" or UNIT[uid].type != "hoplite":
        raise ImpossibleChance(f"{where}: {_describe(uid)} is not a Spartan hoplite")
    if target == "sparta":
        pick_from_group(s, uid, leader, "sparta", where)
    elif not (s.unit_at[uid] == BATTLE and s.unit_location[uid] == target):
        f = next((f for f in face_down_at(s, target) if f["power"] == "sparta" and f["type"] == "hoplite"), None)
        u = UNIT[uid]
        twin = next((k for k in s.units_at(target, None, "hoplite")
                     if (UNIT[k].power, UNIT[k].strength) == ("sparta", u.strength)), None)
        if twin is not None:
            s.swap_units(uid, twin)
        elif f is not None and take_identity(s, uid, f["holder"], "sparta") is not None:
            bind_face_down(s, f, uid)
        else:
            raise ImpossibleChance(f"{where}: {_describe(uid)} is not at {LOCATION[target].name}")
    s.send_home(uid)


# ---- dealing what a record left unknown (the win-chance rollouts) -------------------------------


def unknown_zones(s: Board) -> dict[str, tuple[int, HiddenPool, dict[Any, int]]]:
    """What the state holds unknown, as zones a ``reveal`` can deal (see ``State.unknown_zones``).

    * ``special:<player>`` — a special tile nobody has seen: one of the tiles no other player is known
      to hold;
    * ``display:<slot>`` — a display tile the record never named: one of the tiles neither on display,
      in a hand nor spent;
    * ``face_down:<location>:<side>:<holder>:<power>:<type>`` — the units one player sent to one side of
      a location face down, of one power and type: as many of his group's counters (his uncommitted
      units of that power and type, or the Persian pool's), each counter as likely as any other;
    * ``waiting:<location>`` — the unit waiting face down for permission to defend a location: one of
      its sender's group (offered once none of that group is away face down, so that the two deals
      never name one counter).

    Each zone's pool is made afresh from the state, so a deal narrows the next zone's (two players
    cannot be dealt one tile; a counter dealt to one location is no longer in its group).
    """
    out: dict[str, tuple[int, HiddenPool, dict[Any, int]]] = {}
    held = set(s.special.values())
    for p in s.players:
        if s.special[p] == UNKNOWN:
            out[SPECIAL_ZONE + p] = (1, HiddenPool("special", [(t.key, 1) for t in SPECIAL_TILES
                                                               if t.key not in held]), {})
    if UNKNOWN in s.display:
        from .phases.influence import deck_pool

        pool = HiddenPool("influence", deck_pool(s))
        for i, t in enumerate(s.display):
            if t == UNKNOWN:
                out[f"{DISPLAY_ZONE}{i + 1}"] = (1, pool, {})
    for zone, sent in _face_down_zones(s).items():
        f = sent[0]
        group = [uid for uid in UNIT_IDS if UNIT[uid].power == f["power"] and UNIT[uid].type == f["type"]
                 and in_group(s, uid, f["holder"], f["power"])]
        out[zone] = (len(sent), HiddenPool("units", [(uid, 1) for uid in group]), {})
    req = s.permission_request
    if req is not None and req["unit_type"] is not None and req["strength"] is None \
            and not s.away.get(s.group_key(req["player"], req["power"], req["unit_type"])):
        out[WAITING_ZONE + req["location"]] = (1, HiddenPool("units", [(uid, 1) for uid in _waiting_group(s)]), {})
    return out


def _waiting_group(s: Board) -> list[str]:
    req = s.permission_request
    assert req is not None
    return [uid for uid in UNIT_IDS if UNIT[uid].power == req["power"] and UNIT[uid].type == req["unit_type"]
            and in_group(s, uid, req["player"], req["power"])]


def _face_down_zones(s: Board) -> dict[str, list[dict[str, Any]]]:
    """The face-down units by zone: one zone per location, side, sender, power and unit type."""
    out: dict[str, list[dict[str, Any]]] = {}
    for f in s.face_down:
        zone = f"{FACE_DOWN_ZONE}{f['location']}:{f['side']}:{f['holder']}:{f['power']}:{f['type']}"
        out.setdefault(zone, []).append(f)
    return out


def reveal_special(s: Board, player: str, items: list[Any]) -> None:
    """``special:<player>``: the player's special tile is shown."""
    where = f"{player}'s special tile"
    if player not in s.special:
        raise ImpossibleChance(f"no player {player!r} holds a special tile")
    if len(items) != 1 or str(items[0]) not in SPECIAL:
        raise ImpossibleChance(f"{where}: a reveal names one special tile "
                               f"({', '.join(t.key for t in SPECIAL_TILES)}), not {items}")
    key = str(items[0])
    if not s.may_hold_special(player, key):
        raise ImpossibleChance(f"{where} cannot be {key}: "
                               + (f"it is {s.special[player]}" if s.special[player] not in (UNKNOWN, None)
                                  else "another player is known to hold it"))
    s.bind_special(player, key)


def reveal_display(s: Board, slot: str, items: list[Any]) -> None:
    """``display:<slot>``: the display tile the record never named is shown."""
    from .phases.influence import deck_pool

    if not slot.isdigit() or not 1 <= int(slot) <= len(s.display):
        raise ImpossibleChance(f"the display has slots 1 to {len(s.display)}, not {slot!r}")
    i = int(slot) - 1
    where = f"display slot {slot}"
    if len(items) != 1:
        raise ImpossibleChance(f"{where} holds one tile; a reveal there names one, not {len(items)}")
    tile = str(items[0])
    if s.display[i] == tile:
        return
    if s.display[i] != UNKNOWN:
        raise ImpossibleChance(f"{where}: {s.display[i] or 'no tile'} lies there, not {tile}")
    if tile not in {t for t, _ in deck_pool(s)}:
        raise ImpossibleChance(f"{where} cannot show {tile}: it is not an influence tile, or it is on "
                               "display, in a hand or spent")
    s.display[i] = tile


def reveal_face_down(s: Board, zone: str, items: list[Any]) -> None:
    """``face_down:<location>:<side>:<holder>:<power>:<type>``: counters of the units sent there face
    down (at most as many as were sent), each from the sender's group."""
    sent = _face_down_zones(s).get(zone)
    if not sent:
        raise ImpossibleChance(f"no unit lies face down in zone {zone!r}")
    f0 = sent[0]
    where = f"the {f0['power'].capitalize()} {f0['type']}s {f0['holder']} sent face down to {LOCATION[f0['location']].name}"
    if len(items) > len(sent):
        raise ImpossibleChance(f"{where}: {len(sent)} were sent, {len(items)} are named")
    for it in items:
        uid = str(it)
        if uid not in UNIT or (UNIT[uid].power, UNIT[uid].type) != (f0["power"], f0["type"]):
            raise ImpossibleChance(f"{where}: {it!r} is not a {f0['power'].capitalize()} {f0['type']}")
        if take_identity(s, uid, f0["holder"], f0["power"]) is None:
            raise ImpossibleChance(f"{where}: {f0['holder']} had no uncommitted unit like {_describe(uid)}")
        f = sent.pop(0)
        earlier = s.face_down.index(f) < s.turn_face_down  # sent before the commit turn under way
        bind_face_down(s, f, uid)
        if earlier:  # it keeps counting as sent before this turn (BGA checks a commit against those)
            s.turn_face_down -= 1
            if uid in s.turn_sent:
                s.turn_sent.remove(uid)


def reveal_waiting(s: Board, location: str, items: list[Any]) -> None:
    """``waiting:<location>``: the counter of the unit waiting face down for permission to defend."""
    req = s.permission_request
    if req is None or req["location"] != location or req["unit_type"] is None:
        raise ImpossibleChance(f"no unit waits for permission to defend {location!r}")
    if len(items) != 1 or str(items[0]) not in _waiting_group(s):
        raise ImpossibleChance(f"the unit {req['player']} wants to defend {location} with is one of his "
                               f"uncommitted {req['power'].capitalize()} {req['unit_type']}s, not {items}")
    strength = UNIT[str(items[0])].strength
    if req["strength"] not in (None, strength):
        raise ImpossibleChance(f"the unit waiting to defend {location} has strength {req['strength']}, "
                               f"not {strength}")
    req["strength"] = strength
