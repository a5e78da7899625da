"""The Perikles BGA importer: one test per notification on positions built by hand (or reached by a
simulated seat-view game), the shared logs end to end, and hand-edited logs caught at the right event."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from ingest.bga import BgaImportError, import_log, parse_log, read_log
from ingest.bga.log import Notif, Packet
from ingest.bga.perikles import ELECTION_ORDER, HANDLERS, INFLUENCE_BY_BGA_ID, PeriklesImporter, _side_named
from replay.games import get_game
from replay.games.perikles import tasks
from replay.games.perikles.components import CITY_KEYS, INFLUENCE, LOCATION, UNIT
from replay.games.perikles.moves import Nominate
from replay.record import ChanceEvent, MoveEvent, ObserveEvent
from replay.replayer import COMPLETE, replay
from replay.simulate import simulate_one

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs" / "perikles"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/perikles")
FILES = sorted(LOGS.glob("*.log.json.gz")) if LOGS.is_dir() else []
EVERY_ACTION = LOGS.parent.parent / "bga-logs-every-action" / "perikles"
EVERY = sorted(EVERY_ACTION.glob("*.log.json.gz")) if EVERY_ACTION.is_dir() else []
"""The shared logs whose players take every action the client offers (standing permissions, the
auto-pass preference, Slave Revolt after an empty commit...)."""
needs_logs = pytest.mark.skipif(not FILES, reason=f"the shared Perikles BGA logs are not at {LOGS}")
PINNED = Path(__file__).resolve().parent / "bga_logs" / "perikles"
"""Harness logs pinned for a rule (tests/ingest/bga_logs/README.md)."""
GAME = get_game("perikles")
PLAYERS = ["p1", "p2", "p3"]
BGA_ID = {ours: bga for bga, ours in INFLUENCE_BY_BGA_ID.items()}

# ---- a live importer on a position built by hand -----------------------------------------
from bgatest import events  # noqa: E402
from bgatest import send as _send  # noqa: E402


def importer() -> PeriklesImporter:
    raw = {"status": 1, "data": {"players": [{"id": p, "name": p.upper()} for p in PLAYERS], "logs": []}}
    return PeriklesImporter(parse_log(raw, "unit.json"), list(PLAYERS), {})


def send(imp: PeriklesImporter, type_: str, log: str = "x", **args: Any) -> None:
    _send(imp, type_, log, **args)


def answer(imp: PeriklesImporter, **args: Any) -> None:
    """A ``givePermission`` that answers a request: BGA's state machine moves on in the same packet."""
    p = Packet("/table/t1", 43, 43, 0)
    n = Notif("givePermission", args, "x", "u-answer", p, 0)
    p.notifs += [n, Notif("gameStateMultipleActiveUpdate", [], "", "u-multi", p, 1)]
    imp.current = n
    HANDLERS["givePermission"](imp, n)




def reach(imp: PeriklesImporter, done: Any, seed: int = 7) -> None:
    """Drive the importer's engine with a simulated seat-view game until ``done(state)``."""
    rec = simulate_one(GAME, 3, seed, 0, options={"ruleset": "bga", "seat_view": True})
    st = imp.state
    for ev in rec.events:
        if done(st):
            return
        if isinstance(ev, MoveEvent):
            st.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            st.apply_chance(ev.outcome)
    raise AssertionError("the simulated game never reached that point")


def secret(imp: PeriklesImporter) -> None:
    """Forget the simulated deal: every unused special tile is unknown, as in a BGA log."""
    for q in PLAYERS:
        if not imp.pk.special_used[q]:
            imp.pk.special[q] = "?"


def tile(ours: str, slot: int) -> dict[str, Any]:
    t = INFLUENCE[ours]
    kind = {"none": "influence", "candidate": "candidate", "assassin": "assassin"}[t.symbol]
    return {"id": str(BGA_ID[ours]), "city": t.city, "type": kind, "location": "board", "slot": str(slot)}


def counter(uid: str, location: str = "x", pos: int = 0) -> dict[str, Any]:
    u = UNIT[uid]
    return {"id": uid[1:], "city": u.power, "type": u.type, "strength": str(u.strength), "location": location,
            "battlepos": str(pos)}


# ---- setup and influence phase --------------------------------------------------------------


def test_bga_influence_tile_numbering_matches_the_components() -> None:
    assert INFLUENCE_BY_BGA_ID[1] == "athens-2a" and INFLUENCE_BY_BGA_ID[6] == "athens-assassin"
    assert INFLUENCE[INFLUENCE_BY_BGA_ID[16]].city == "argos" and INFLUENCE[INFLUENCE_BY_BGA_ID[36]].city == "any"
    assert len(INFLUENCE_BY_BGA_ID) == 36


def test_influence_cubes_is_a_starting_cube_in_placement() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "placement")
    first = imp.turn()
    send(imp, "influenceCubes", player_id=first, cubes=1, city="megara")
    assert events(imp) == [(first, {"type": "place_cube", "city": "megara"})]


def test_influence_cubes_of_a_tile_is_an_effect() -> None:
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.TakeATile)
    p = imp.turn()
    send(imp, "influenceCubes", player_id=p, cubes=2, city="athens")
    assert events(imp) == []


def test_cube_limit_on_the_any_tiles_cube_is_the_placement_without_a_city() -> None:
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.PlaceTheAnyCube)
    p = imp.turn()
    imp.pk.cubes["megara"][p] += 30 - imp.pk.cubes_on_board(p)
    send(imp, "cubeLimit", player_id=p)
    assert events(imp) == [(p, {"type": "place_any_cube", "city": None})]
    send(imp, "cubeLimit", player_id=p)  # any other refused addition is an effect
    assert len(events(imp)) == 1


def test_influence_card_taken_takes_the_slot_and_checks_the_tile() -> None:
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.TakeATile)
    p, slot = imp.turn(), 1
    ours = imp.pk.display[0]
    send(imp, "influenceCardTaken", player_id=p, slot=str(slot), card_id=BGA_ID[ours], tile=tile(ours, slot))
    assert events(imp)[0] == (p, {"type": "take_tile", "slot": 1})
    imp2 = importer()
    reach(imp2, lambda s: type(s.pending()) is tasks.TakeATile)
    wrong = next(t for t in INFLUENCE if t != imp2.pk.display[0] and t not in imp2.pk.display)
    with pytest.raises(BgaImportError, match="BGA's slot 1 holds"):
        send(imp2, "influenceCardTaken", player_id=imp2.turn(), slot="1", tile=tile(wrong, 1))


def test_influence_card_drawn_is_the_refill() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "refill")
    slot = imp.pk.refill_slot
    drawn = next(t for t, _ in imp.state.turn().pool)
    send(imp, "influenceCardDrawn", tile=tile(drawn, slot))
    assert events(imp)[-1] == {"draw": "influence", "items": [drawn]}


def test_candidate_proposed_is_a_nomination() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "nomination")
    p = imp.turn()
    m = next(iter(imp.state.legal_moves())).to_dict()
    send(imp, "candidateProposed", player_id=p, candidate_id=m["nominee"], city=m["city"], candidate="α")
    assert events(imp)[-1] == (p, m)


def test_cube_removed_is_the_assassin_or_a_plague_effect() -> None:
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.AssassinSymbol)
    p = imp.turn()
    m = next(m.to_dict() for m in imp.state.legal_moves() if m.to_dict()["space"] == "city")
    send(imp, "cubeRemoved", "", candidate_id=m["victim"], city=m["city"])   # no log line: Plague's effect
    assert events(imp) == []
    send(imp, "cubeRemoved", player_id=p, candidate_id=m["victim"], city=m["city"])
    assert events(imp) == [(p, m)]


def test_candidate_promoted_is_checked() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "nomination")
    alpha = imp.pk.alpha["athens"]
    if alpha is not None:
        send(imp, "candidatePromoted", candidate_id=alpha, city="athens")   # consistent: no event
        assert events(imp) == []
    other = next(p for p in PLAYERS if p != alpha)
    with pytest.raises(BgaImportError, match=f"moves {other} up to alpha"):
        send(imp, "candidatePromoted", candidate_id=other, city="athens")


def test_play_special_influence_tiles_are_moves_and_pass_the_after_step() -> None:
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.SpecialTileAfterTheTile)
    p = imp.turn()
    secret(imp)
    send(imp, "playSpecial", player_id=p, tile="perikles")
    assert events(imp)[-1] == (p, {"type": "play_perikles"})
    assert imp.pk.special[p] == "perikles"


def test_play_special_plague_takes_its_city_from_the_packet() -> None:
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.TakeATile)
    p = imp.turn()
    secret(imp)
    pk = Packet("/table/t1", 42, 42, 0)
    for i, (t, a) in enumerate([("playSpecial", {"player_id": p, "tile": "plague"}),
                                ("plagueReduce", {"player_id": p, "city": "sparta", "nbr": 1})]):
        pk.notifs.append(Notif(t, a, "x", f"u{i}", pk, i))
    imp.current = pk.notifs[0]
    HANDLERS["playSpecial"](imp, pk.notifs[0])
    assert events(imp)[-1] == (p, {"type": "play_plague", "city": "sparta"})


def test_alkibiades_move_moves_one_cube() -> None:
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.TakeATile)
    p = imp.turn()
    secret(imp)
    imp.move(p, "play_alkibiades")
    owner = next(q for q in PLAYERS if imp.pk.cubes["athens"][q] > 0)
    send(imp, "alkibiadesMove", player_id=owner, city="athens", city2="sparta")
    assert events(imp)[-1] == (p, {"type": "alkibiades_move", "owner": owner, "from_city": "athens",
                                   "to_city": "sparta"})


# ---- elections ---------------------------------------------------------------------------------


def elections(imp: PeriklesImporter, names: dict[str, str]) -> None:
    """One packet of elections, as BGA sends them: a city at a time in its order of cities, an
    ``election`` for each city with a leader, a ``noElection`` (``names``: the city's name in the
    log's language) for each without."""
    p = Packet("/table/t1", 44, 44, 0)
    for city in ELECTION_ORDER:
        leader = imp.pk.leader[city]
        n = (Notif("election", {"player_id": leader, "city": city, "cubes": 0}, "x", f"u-{city}", p, len(p.notifs))
             if leader is not None else
             Notif("noElection", {"city_name": names[city], "i18n": ["city_name"]}, "x", f"u-{city}", p, len(p.notifs)))
        p.notifs.append(n)
    for n in p.notifs:
        imp.current = n
        HANDLERS[n.type](imp, n)


def test_election_and_no_election_are_observed_whatever_the_language_of_the_city_names() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage in ("choose_first", "recover", "commit"))
    imp.pk.leader["argos"] = imp.pk.leader["thebes"] = None   # no candidates there
    elections(imp, {"argos": "Άργος", "thebes": "Thèbes"})
    assert events(imp) == [("observe", {"leaders": {c: imp.pk.leader[c]}}) for c in ELECTION_ORDER]
    assert not imp.mismatches


def test_a_city_named_out_of_bgas_order_of_elections_is_refused() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage in ("choose_first", "recover", "commit"))
    imp.pk.leader["argos"] = None
    with pytest.raises(BgaImportError, match="names megara where its order of elections has argos"):
        elections(imp, {"argos": "Megara"})


def test_spartan_choice_names_the_first_committer() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "choose_first")
    p = imp.turn()
    send(imp, "spartanChoice", player_id=p, candidate_id="p2")
    assert events(imp)[-1] == (p, {"type": "choose_first_committer", "player": "p2"})


# ---- military phase ---------------------------------------------------------------------------


def test_send_battle_gathers_a_commit_and_face_down_units_have_no_strength() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and s.commit_sent == 0)
    p = imp.turn()
    send_move = next(m for m in imp.state.legal_moves() if m.type == "send_unit")
    m = send_move.to_dict()
    pos = 1 if m["side"] == "attacker" else 3
    send(imp, "sendBattle", player_id=p, id=0, type=m["unit_type"], strength=0, city=m["power"],
         battlepos=pos, location=m["location"], slot="1")
    assert imp.pending_commit is not None and events(imp) == []
    send(imp, "useTile", player_id="p1", id=1, shardct=2, city="athens")   # the next turn flushes it
    assert events(imp)[0] == (p, {**m, "strength": None})


def test_spent_influence_goes_between_the_second_and_third_unit() -> None:
    imp = importer()
    imp.pending_commit = {"player": "p1", "move": 5, "sends": [{"power": "athens"}] * 3, "cube": "athens"}
    calls: list[tuple[str, dict[str, Any]]] = []
    imp.move = lambda player, type_, /, **f: calls.append((type_, f))  # type: ignore[method-assign]
    imp.settle = lambda actor=None, keep=(): None  # type: ignore[method-assign]
    imp.claim = lambda player: None  # type: ignore[method-assign]
    from ingest.bga.perikles import flush_commit
    flush_commit(imp)
    assert [c[0] for c in calls] == ["send_unit", "send_unit", "spend_cube", "send_unit"]


def test_a_cube_without_extra_units_is_refused() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and s.commit_sent == 0)
    send(imp, "spentInfluence", player_id=imp.turn(), candidate_id=imp.turn(), city="athens")
    with pytest.raises(BgaImportError, match="spends a cube for extra units but sends 0"):
        send(imp, "useTile", player_id="p1", id=1, shardct=2, city="athens")


def test_no_commits_ends_the_turn_with_the_next_notification() -> None:
    """seed8023 packets 73-74: an empty commit, then BGA's prompt for the special tile: Slave Revolt."""
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and s.commit_sent == 0)
    p = imp.turn()
    send(imp, "noCommits", player_id=p)
    assert events(imp) == []
    send(imp, "useTile", player_id=imp.pk.next_player(p), id=1, shardct=2, city="athens")
    assert events(imp) == [(p, {"type": "end_commit"})]


def test_defend_request_and_give_permission_become_ask_and_answer() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and s.commit_sent == 0
          and any(m.type == "ask_permission" for m in s.legal_moves()))
    p = imp.turn()
    ask = next(m for m in imp.state.legal_moves() if m.type == "ask_permission").to_dict()
    send(imp, "defendRequest", player_id=p, city=ask["power"], city2="x", battle=ask["location"])
    assert events(imp) == []
    answer(imp, player_id="p9", grants_or_denies="denies", location=ask["location"], city=ask["power"],
           permissions=None)
    evs = events(imp)
    assert evs[0] == (p, ask) and evs[1][1] == {"type": "answer_permission", "grant": False}
    assert evs[2] == ("observe", {"permissions": {ask["location"]: []}})


def test_request_canceled_drops_unanswered_requests() -> None:
    imp = importer()
    imp.requests = [{"player": "p1", "power": "athens", "location": "pylos", "answer": None}]
    send(imp, "requestCanceled", player_id="p1")
    assert imp.requests == [] and events(imp) == []


def _asked_at_a_commit() -> tuple[Any, str, dict[str, Any], str]:
    """An importer at the first commit turn where a request can be made, the request sent by the
    player to move: the importer, that player, the request's move and the leader who answers it."""
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and s.commit_sent == 0
          and any(m.type == "ask_permission" for m in s.legal_moves()))
    p = imp.turn()
    ask = next(m for m in imp.state.legal_moves() if m.type == "ask_permission").to_dict()
    lead = imp.pk.leader[LOCATION[ask["location"]].owner]
    send(imp, "defendRequest", player_id=p, city=ask["power"], city2="x", battle=ask["location"])
    return imp, p, ask, lead


def test_a_grant_before_the_request_is_withdrawn_is_the_leaders_own_permission() -> None:
    """seed8005 packets 281-283: two requests, one granted, then withdrawn: nothing was asked in the end,
    the grant stands as the leader's permission, and no free commit turn follows (Q3)."""
    imp, p, ask, lead = _asked_at_a_commit()
    send(imp, "defendRequest", player_id=p, city=ask["power"], city2="x", battle="nowhere")
    answer(imp, player_id=lead, grants_or_denies="grants", location=ask["location"], city=ask["power"],
           permissions=ask["power"])
    assert events(imp) == []
    send(imp, "requestCanceled", player_id=p)
    assert events(imp) == [
        (lead, {"type": "set_permission", "location": ask["location"], "power": ask["power"], "grant": True}),
        ("observe", {"permissions": {ask["location"]: [ask["power"]]}})]
    assert imp.turn() == p and not imp.pk.commit_granted and imp.requests == []


def _leader_and_location(imp: PeriklesImporter) -> tuple[str, str, str]:
    """A location of this round, its city's leader and another city he does not lead."""
    st = imp.pk
    for loc in st.locations:
        owner = LOCATION[loc].owner
        lead = st.leader[owner]
        other = next((c for c in CITY_KEYS if c != owner and st.leader[c] != lead
                      and st.relation(owner, c) != -1), None)
        if lead is not None and other is not None:
            return lead, loc, other
    raise AssertionError("no led location")


@pytest.mark.parametrize(("key", "grant", "deny"), [("grants_or_denies", "grants", "denies"),
                                                     ("gives_or_revokes", "gives", "revokes")])
def test_give_permission_without_a_request_is_a_standing_permission(key: str, grant: str, deny: str) -> None:
    """Either wording: ``gives_or_revokes`` before BGA's permission requests (December 2025), when a
    standing permission was the only kind.  BGA's list of permissions after it decides; an English
    word that says otherwise is refused, a word of another language is not read."""
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and s.commit_sent == 0)
    lead, loc, city = _leader_and_location(imp)
    send(imp, "givePermission", player_id=lead, **{key: grant}, location=loc, city=city, permissions=city)
    assert events(imp) == [(lead, {"type": "set_permission", "location": loc, "power": city, "grant": True}),
                           ("observe", {"permissions": {loc: [city]}})]
    assert imp.pk.permissions[loc] == [city]
    send(imp, "givePermission", player_id=lead, **{key: deny}, location=loc, city=city, permissions="")
    assert events(imp)[-2][1]["grant"] is False and loc not in imp.pk.permissions
    other = next(p for p in PLAYERS if p != lead)
    with pytest.raises(BgaImportError, match=f"{other} cannot grant permission to defend .*: he does not lead"):
        send(imp, "givePermission", player_id=other, **{key: grant}, location=loc, city=city, permissions=city)
    with pytest.raises(BgaImportError, match=rf"BGA says a leader {grant} the permission, but its list of "
                                             r"permissions after it is ''"):
        send(imp, "givePermission", player_id=lead, **{key: grant}, location=loc, city=city, permissions="")
    send(imp, "givePermission", player_id=lead, **{key: "accorde"}, location=loc, city=city, permissions=city)
    assert events(imp)[-2] == (lead, {"type": "set_permission", "location": loc, "power": city, "grant": True})


def test_a_standing_permission_while_its_request_waits_comes_after_the_ask() -> None:
    """seed1101 packets 60-62: Sparta asks to defend Potidea, Athens' leader grants it on his own, then
    answers the request: ask, set_permission, answer (the ask would be refused after the grant)."""
    imp, p, ask, lead = _asked_at_a_commit()
    send(imp, "givePermission", player_id=lead, grants_or_denies="grants", location=ask["location"],
         city=ask["power"], permissions=ask["power"])
    assert events(imp) == []
    answer(imp, player_id=lead, grants_or_denies="grants", location=ask["location"], city=ask["power"],
           permissions=ask["power"])
    assert [e[1]["type"] for e in events(imp)[:3]] == ["ask_permission", "set_permission", "answer_permission"]
    assert imp.pk.commit_granted and imp.pk.permissions[ask["location"]] == [ask["power"]]


def test_slave_revolt_is_the_random_pick() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and s.leader["sparta"] is not None and s.commit_sent == 0
          and any(s.unit_holder[u] == s.leader["sparta"] and UNIT[u].power == "sparta" and UNIT[u].type == "hoplite"
                  for u in s.controlled_units(s.leader["sparta"])))
    p = imp.turn()
    secret(imp)
    imp.move(p, "play_slave_revolt", target="sparta")
    uid = next(u for u in imp.pk.controlled_units(imp.pk.leader["sparta"] or "")
               if UNIT[u].power == "sparta" and UNIT[u].type == "hoplite")
    send(imp, "slaveRevolt", military=counter(uid), return_from="sparta")
    assert events(imp)[-1] == {"choose": "slave_revolt", "value": uid}
    assert imp.pk.unit_at[uid] == "stack"


# ---- battles ---------------------------------------------------------------------------------------


def _battle_importer() -> PeriklesImporter:
    imp = importer()
    reach(imp, lambda s: s.stage == "roll" and s.pending_roll is None)
    imp.locations = list(imp.pk.locations)
    return imp


def test_reveal_counters_is_a_reveal_event() -> None:
    imp = importer()
    reach(imp, lambda s: bool(s.shown))   # the first location is reached (every unit known here)
    imp.locations = list(imp.pk.locations)
    loc = imp.pk.locations[0]
    units = imp.pk.shown[loc]
    send(imp, "revealCounters", "", slot="1", military=[counter(u, loc) for u in units])
    assert events(imp)[-1] == {"reveal": f"location:{loc}", "items": list(units)}
    wrong = [counter(u, loc) for u in units[1:]] if units else [counter("u1", loc)]
    with pytest.raises(BgaImportError, match="do not match what was fought there"):
        send(imp, "revealCounters", "", slot="1", military=wrong)


def test_roll_battle_dice_roll_combat_winner_and_to_deadpool() -> None:
    imp = _battle_importer()
    c = imp.pk.combat
    assert c is not None
    loc, kind = c["location"], c["combat_type"]
    p = Packet("/table/t1", 42, 42, 0)
    n = Notif("rollBattle", {"type": kind, "location": loc, "att": c["attack_strength"],
                             "def": c["defence_strength"], "crt": c["table_column"]}, "x", "u", p, 0)
    p.notifs.append(n)
    imp.current = n
    HANDLERS["rollBattle"](imp, n)
    assert not imp.mismatches
    send(imp, "diceRoll", attd1=6, attd2=6, defd1=1, defd2=1, atthit=True, defhit=False)
    assert events(imp)[-2:] == [{"roll": [6, 6]}, {"roll": [1, 1]}]
    assert imp.hits == {"attacker": 1, "defender": 0}


def test_a_combat_winner_disagreeing_with_our_rules_is_a_mismatch_naming_the_location() -> None:
    imp = _battle_importer()
    c = imp.pk.combat
    assert c is not None
    imp.combat_type = c["combat_type"]
    imp.roles = {"Attacker": {"attacker"}, "Defender": {"defender"}}
    send(imp, "combatWinner", winner="Attacker", type="x", location=c["location"])
    assert any(m.key == f"combat.{c['location']}.{c['combat_type']}.winner" for m in imp.mismatches)


def test_the_combat_winner_is_the_side_its_battle_tokens_name_by_the_same_word() -> None:
    """BGA names the winning side by a word of the log's language; its Battle Tokens pair that word
    with the side (``takeToken``, ``round2``).  A word no token names, or names for both sides, is refused."""
    def tokens(*pairs: tuple[str, str]) -> PeriklesImporter:
        raw = {"status": 1, "data": {"players": [{"id": p, "name": p.upper()} for p in PLAYERS], "logs": [
            {"channel": "/table/t1", "table_id": 1, "packet_id": str(i + 1), "packet_type": "resend",
             "move_id": str(i + 1), "time": "0", "data": [
                 {"uid": f"t{i}", "type": "takeToken" if i else "round2", "log": "${winner}",
                  "args": {"winner": word, "side": side, "i18n": ["winner"]}}]}
            for i, (word, side) in enumerate(pairs)]}}
        return PeriklesImporter(parse_log(raw, "tokens.json"), list(PLAYERS), {})

    imp = tokens(("Défenseur", "defender"), ("Attaquant", "attacker"), ("Attaquant", "attacker"))
    assert (_side_named(imp, "Attaquant"), _side_named(imp, "Défenseur")) == ("attacker", "defender")
    with pytest.raises(BgaImportError, match="names the winner 'Angreifer', which its Battle Tokens pair with no side"):
        _side_named(imp, "Angreifer")
    imp = tokens(("Camp", "defender"), ("Camp", "attacker"))
    with pytest.raises(BgaImportError, match=r"pair with \['attacker', 'defender'\]"):
        _side_named(imp, "Camp")


def test_claims_defeats_statues_start_player_and_final_scoring_are_observed() -> None:
    imp = importer()
    send(imp, "claimTile", player_id="p2", location="pylos", city="sparta", vp=4)
    send(imp, "claimTilePersians", location="delium", city="thebes", slot="2", vp=3, persians=["p3", "p2"])
    send(imp, "unclaimedTile", location="sicily")
    send(imp, "cityDefeat", city="sparta", defeats="1")
    send(imp, "addStatue", player_id="p1", city="athens", statues=1)
    send(imp, "endTurn")
    send(imp, "nextTurn", player_id="p3", city="athens")
    send(imp, "scoreStatues", player_id="p1", city="athens", statues=1, vp=5, total=5)
    send(imp, "scoreCubes", player_id="p1", city="athens", vp=2)
    obs = [e[1] for e in events(imp)]
    defeats = {c: 0 for c in CITY_KEYS} | {"sparta": 1}
    assert obs == [{"claims": {"pylos": ["p2"]}}, {"claims": {"delium": ["p2", "p3"]}}, {"claims": {"sicily": []}},
                   {"statues": {"athens": {"p1": 1}}},
                   {"location_points": {"p1": 0, "p2": 7, "p3": 3}, "defeats": defeats},
                   {"start_player": "p3"}, {"statue_points": {"athens": {"p1": 5}}},
                   {"city_cubes": {"athens": {"p1": 2}}}]
    assert {m.key for m in imp.mismatches} >= {"claims.pylos", "location_points.p2", "defeats.sparta",
                                               "statues.athens.p1"}


def test_the_pre_combat_window_is_passed_at_its_roll_battle_only() -> None:
    """seed8018 packet 242: the window of a location whose units are all known opens while the log is
    still claiming the one before; what the log shows meanwhile passes nobody's special tile there."""
    imp = importer()
    reach(imp, lambda s: type(s.pending()) is tasks.PreCombatSpecialTile, seed=1)
    imp.settle()
    assert events(imp) == [] and type(imp.pk.pending()) is tasks.PreCombatSpecialTile


def test_a_location_decided_without_a_decision_does_not_spoil_the_claim_before_it() -> None:
    """seed8006 packet 220: Megara's location (all its units known to the viewer) is decided by the engine
    before the log claims Potidea; the claim is observed per location, the points at the round's end."""
    path = PINNED / "perikles_3p_seed8006.log.json.gz"
    imported = import_log(read_log(path))
    assert imported.mismatches == []


def test_bga_passes_over_two_pairs_of_players_before_the_next_nomination() -> None:
    """seed9805 packets 417-418: after 84108055 nominates, 84108051 and 84108054 cannot; BGA passes over
    84108052 and 84108053 with them, and 84108055 nominates again (by the rulebook 84108052 would)."""
    imported = import_log(read_log(PINNED / "perikles_5p_seed9805.log.json.gz"))
    at = {(e.extra or {}).get("src", {}).get("packet"): seq for seq, e in enumerate(imported.record.events)
          if isinstance(e, MoveEvent) and isinstance(e.move, Nominate)}
    nominators = [imported.record.events[at[packet]] for packet in (417, 418)]
    assert [e.player for e in nominators if isinstance(e, MoveEvent)] == ["84108055", "84108055"]
    r = replay(imported.record)
    assert r.status == COMPLETE, r.divergences[:1]
    assert [d["happened"] for d in r.departures if d["seq"] == at[417]] == [
        "84108051 cannot nominate, so BGA passes over 84108052 too; then 84108054 cannot nominate, so BGA passes "
        "over 84108053 too: 84108055 nominates next; by the rulebook 84108052 would"]


def test_a_standing_permission_given_while_requests_wait_is_the_locations_latest_list() -> None:
    """seed10058 packets 65-68: Dune58 asks to defend Acarnania and Epidaurus for Persia; Birch58 denies
    Epidaurus (its list: none), then grants Thebes there on his own (list: thebes), then Cobalt58 answers
    Acarnania.  Once all are answered, each location's latest list is claimed: the denial's for Epidaurus
    is not the latest; the standing grant's is, held with the answer it comes after."""
    imported = import_log(read_log(PINNED / "perikles_4p_seed10058.log.json.gz"))
    seen = [e.facts["permissions"] for e in imported.record.events
            if isinstance(e, ObserveEvent) and (e.extra or {}).get("src", {}).get("packet") in (67, 68)]
    assert seen == [{"epidaurus": ["thebes"], "acarnania": ["persia"]}]
    assert replay(imported.record).status == COMPLETE


def test_new_influence_and_new_locations_are_the_round_deal() -> None:
    imp = importer()
    ours = list(INFLUENCE)[:10]
    send(imp, "newInfluence", "", influence=[tile(t, i + 1) for i, t in enumerate(ours)][::-1], decksize=26)
    locs = ["pylos", "delium", "sicily", "lesbos", "melos", "leucas", "attica"]
    send(imp, "newLocations", "", locations=[{"location": k, "slot": str(i + 1)} for i, k in enumerate(locs)])
    assert events(imp) == [{"draw": "influence", "items": ours}, {"draw": "locations", "items": locs}]
    assert imp.locations == locs


def test_every_handled_type_has_a_test_or_is_ignored_for_a_reason() -> None:
    tested = {"cubeLimit", "influenceCubes", "influenceCardTaken", "influenceCardDrawn", "candidateProposed", "cubeRemoved",
              "candidatePromoted", "playSpecial", "alkibiadesMove", "election", "noElection", "spartanChoice",
              "retrieveDeadpool", "useTile", "noCommits", "sendBattle", "spentInfluence", "defendRequest",
              "givePermission", "requestCanceled", "slaveRevolt", "revealCounters", "rollBattle", "diceRoll",
              "combatWinner", "toDeadpool", "claimTile", "claimTilePersians", "unclaimedTile", "cityDefeat", "addStatue",
              "endTurn",
              "newInfluence", "newLocations", "nextTurn", "scoreStatues", "scoreCubes"}
    assert set(HANDLERS) == tested
    assert not set(HANDLERS) & PeriklesImporter.ignored


def test_an_unknown_notification_is_refused() -> None:
    raw = {"status": 1, "data": {"players": [{"id": p, "name": p} for p in PLAYERS], "logs": [
        {"channel": "/table/t1", "table_id": 1, "packet_id": "1", "packet_type": "resend", "move_id": "1",
         "time": "0", "data": [{"uid": "a", "type": "influenceCardTaken", "log": "", "args": {}},
                               {"uid": "b", "type": "mysteryNote", "log": "x", "args": {}}]}]}}
    with pytest.raises(BgaImportError):
        import_log(parse_log(raw, "bad.json"), game="perikles")


# ---- the shared logs end to end ---------------------------------------------------------------------


@needs_logs
@pytest.mark.parametrize("path", FILES + EVERY, ids=[f.name.split(".")[0] for f in FILES + EVERY])
def test_shared_log_imports_complete_with_bgas_final_scores(path: Path) -> None:
    imported = import_log(read_log(path))
    rec = imported.record
    assert not imported.mismatches, [str(m) for m in imported.mismatches[:3]]
    assert rec.options == {"ruleset": "bga", "seat_view": True}
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:1]
    table = json.loads(path.with_name(path.name.replace(".log.json.gz", ".table.json")).read_text())
    assert rec.result is not None
    assert rec.result["score"] == {str(p["id"]): int(p["score"]) for p in table["players"]}


PINNED_FILES = sorted(PINNED.glob("*.log.json.gz"))


@pytest.mark.parametrize("path", PINNED_FILES, ids=[f.name.split(".")[0] for f in PINNED_FILES])
def test_pinned_log_imports_complete_with_bgas_final_scores(path: Path) -> None:
    """The harness logs kept in tests/ingest/bga_logs (their README names the packet each one pins)."""
    imported = import_log(read_log(path))
    assert not imported.mismatches, [str(m) for m in imported.mismatches[:3]]
    r = replay(imported.record)
    assert r.status == COMPLETE, r.divergences[:1]
    assert imported.record.result is not None and imported.record.result["score"] == r.totals


def _edited(path: Path, edit: Any) -> Any:
    raw = json.loads(gzip.decompress(path.read_bytes()))
    for packet in raw["data"]["logs"]:
        for n in packet["data"]:
            if edit(n):
                return raw
    raise AssertionError("nothing edited")


@needs_logs
def test_a_changed_die_is_caught_at_the_combat() -> None:
    path = FILES[0]
    done = {"n": 0}

    def change(n: dict[str, Any]) -> bool:
        if n["type"] == "diceRoll" and not n["args"]["atthit"] and n["args"]["attd1"] < 6:
            n["args"]["attd1"] = 6
            n["args"]["attd2"] = 6
            done["n"] += 1
            return True
        return False

    raw = _edited(path, change)
    try:
        imported = import_log(parse_log(raw, "edited.json"))
    except BgaImportError as exc:   # the combat went otherwise, and the log can no longer be followed
        assert "packet" in str(exc)
        return
    assert imported.mismatches
    first = imported.mismatches[0]
    assert first.key.startswith("combat.") and first.notif.type in ("combatWinner", "toDeadpool", "rollBattle")
    r = replay(imported.record)
    assert r.divergences and r.divergences[0].key.startswith("combat.")


def _edited_packet(path: Path, packet: str, kind: str, edit: Any) -> Any:
    raw = json.loads(gzip.decompress(path.read_bytes()))
    for p in raw["data"]["logs"]:
        for n in p["data"]:
            if str(p["packet_id"]) == packet and n["type"] == kind:
                edit(n["args"])
                return raw
    raise AssertionError("nothing edited")


@pytest.mark.skipif(not EVERY, reason="the every-action Perikles logs are not here")
def test_an_edited_standing_permission_is_caught_at_its_packet() -> None:
    """seed1101 packet 48: Athens' leader (84101011) grants Corinth Potidea on his own.  Given to another
    player, it is refused there; with another list of permissions, that observation disagrees."""
    path = EVERY_ACTION / "perikles_3p_seed1101.log.json.gz"
    raw = _edited_packet(path, "48", "givePermission", lambda a: a.update(player_id="84101013"))
    with pytest.raises(BgaImportError, match=r"packet 48 \(givePermission\).*84101013 cannot grant permission"):
        import_log(parse_log(raw, "edited.json"))
    raw = _edited_packet(path, "48", "givePermission", lambda a: a.update(permissions="corinth,megara"))
    imported = import_log(parse_log(raw, "edited.json"))
    [m] = imported.mismatches
    assert m.notif.packet_id == 48 and m.key == "permissions.potidea" and m.bga == ["corinth", "megara"]
    r = replay(imported.record)
    assert r.divergences[0].key == "permissions.potidea"


@needs_logs
def test_a_score_cubes_off_by_one_is_caught_at_that_event() -> None:
    path = FILES[0]
    edited: dict[str, Any] = {}

    def change(n: dict[str, Any]) -> bool:
        if n["type"] == "scoreCubes":
            n["args"]["vp"] = int(n["args"]["vp"]) + 1
            edited.update(n["args"])
            return True
        return False

    raw = _edited(path, change)
    imported = import_log(parse_log(raw, "edited.json"))
    r = replay(imported.record)
    div = [d for d in r.divergences if d.kind == "observation_mismatch"]
    assert len(div) == 1
    key = f"city_cubes.{edited['city']}.{edited['player_id']}"
    assert div[0].key == key and div[0].recorded == edited["vp"] and div[0].replayed == edited["vp"] - 1
    ev = imported.record.events[div[0].seq]
    assert isinstance(ev, ObserveEvent) and ev.facts == {"city_cubes": {edited["city"]: {
        str(edited["player_id"]): edited["vp"]}}}


@needs_logs
def test_a_seat_view_import_corrupted_is_caught() -> None:
    imported = import_log(read_log(FILES[1]))
    rec = copy.deepcopy(imported.record)
    seq = next(i for i, e in enumerate(rec.events)
               if isinstance(e, ChanceEvent) and "reveal" in e.outcome and e.outcome["items"])
    rec.events[seq].outcome["items"] = rec.events[seq].outcome["items"][1:]
    r = replay(rec)
    assert r.divergences[0].seq == seq and r.divergences[0].kind == "impossible_chance"


def test_a_seat_view_game_begins_with_the_deal() -> None:
    st = GAME.initial_state(PLAYERS, {"ruleset": "bga", "seat_view": True})
    assert type(st.pending()) is tasks.DealInfluenceTiles and st.snapshot()["stage"] == "deal_influence"


def test_retrieve_deadpool_is_checked_against_the_units_our_rules_returned() -> None:
    imp = importer()
    reach(imp, lambda s: s.stage == "commit" and any(s.leader[c] for c in s.leader))
    city = next(c for c in imp.pk.leader if imp.pk.leader[c])
    p = imp.pk.leader[city]
    held = next(u for u in imp.pk.controlled_units(p) if UNIT[u].power == city)
    send(imp, "retrieveDeadpool", player_id=p, city=city, id=held[1:], strength=UNIT[held].strength,
         type=UNIT[held].type)
    assert events(imp) == []                       # automatic: nothing to record, and it agrees
    foreign = next(u for u in UNIT if UNIT[u].power != city and not imp.pk.leads(p, UNIT[u].power))
    with pytest.raises(BgaImportError, match="our rules give him no unit of that kind"):
        send(imp, "retrieveDeadpool", player_id=p, city=UNIT[foreign].power, id=foreign[1:],
             strength=UNIT[foreign].strength, type=UNIT[foreign].type)


# ---- a player who left the table (BGA's zombie) ------------------------------------------------


def _zombie_log(pairs: list[tuple[str, str]], revealed: int | None, *rounds: tuple[list[tuple[str, str]], int]) -> Any:
    """A log where p2 (marked ``zombie`` at the end) commits, per packet, the two sends ``pairs`` names
    (``(location, location)`` of two face-down Argos hoplites), and ``revealed`` Argos hoplites are turned
    up at Mantinea (``None``: the battles never come); each of ``rounds`` is one more commit phase and its
    battles."""
    packets: list[dict[str, Any]] = []
    for n, (round_pairs, round_revealed) in enumerate([(pairs, revealed), *rounds]):
        for i, (a, b) in enumerate(round_pairs, start=10 + 100 * n):
            packets.append({"channel": "/player/pp1", "table_id": 1, "packet_id": str(i), "packet_type": "resend",
                            "move_id": str(i), "time": "0",
                            "data": [{"uid": f"s{i}{k}", "type": "sendBattle", "log": "",
                                      "args": {"player_id": "p2", "location": loc, "battlepos": 3, "id": 0,
                                               "city": "argos", "type": "hoplite", "strength": 0, "slot": "1"}}
                                     for k, loc in enumerate((a, b))]})
        if round_revealed is None:
            continue
        military = [{"id": str(20 + k), "city": "argos", "type": "hoplite", "strength": "1", "location": "mantinea",
                     "battlepos": "3"} for k in range(round_revealed)]
        packets.append({"channel": "/table/t1", "table_id": 1, "packet_id": str(90 + 100 * n), "packet_type": "resend",
                        "move_id": str(90 + 100 * n), "time": "0",
                        "data": [{"uid": f"r{n}", "type": "revealCounters", "log": "",
                                  "args": {"slot": "1", "military": military}}]})
    raw = {"status": 1, "data": {"players": [{"id": p, "name": p.upper()} for p in PLAYERS], "logs": packets}}
    return parse_log(raw, "zombie.json")


@pytest.mark.parametrize(("pairs", "revealed", "verdicts"), [
    ([("mantinea", "mantinea")], 1, [True]),     # two sends, one unit: one counter picked twice
    ([("mantinea", "mantinea")], 2, [False]),    # two units: two counters
    ([("mantinea", "mantinea")] * 2, 2, [True, True]),
    ([("mantinea", "mantinea")], 0, [None]),     # fewer units than counters: the log contradicts itself
    ([("mantinea", "mantinea")], 3, [None]),     # more units than were sent
    ([("mantinea", "mantinea")], None, [None]),  # the battle never comes: nothing tells
])
def test_zombie_repeats_counts_the_units_revealed(pairs: list[tuple[str, str]], revealed: int | None,
                                                  verdicts: list[bool | None]) -> None:
    from ingest.bga.perikles import zombie_repeats

    got = zombie_repeats(_zombie_log(pairs, revealed), frozenset({"p2"}), set())
    assert list(got.verdicts.values()) == verdicts
    assert got.untold == []
    assert zombie_repeats(_zombie_log(pairs, revealed), frozenset(), set()).verdicts == {}  # nobody left


def test_zombie_repeats_takes_the_earliest_pairs_when_the_reveal_cannot_tell_which() -> None:
    """Three pairs and four units revealed: two pairs were one counter, and every reading ends with the
    same four units at Mantinea; the first two are taken, and the group is listed for a note."""
    from ingest.bga.perikles import zombie_repeats

    got = zombie_repeats(_zombie_log([("mantinea", "mantinea")] * 3, 4), frozenset({"p2"}), set())
    assert list(got.verdicts.values()) == [True, True, False]
    assert got.untold == [(("argos", "hoplite", "mantinea"), list(got.verdicts), 2, [10, 11, 12])]


def test_zombie_repeats_counts_each_commit_phase_against_its_own_battles() -> None:
    """A pair in each of two rounds: one unit revealed after the first, two after the second.  Counted
    over the game (four sent, three revealed) the log could not tell which; round by round it does."""
    from ingest.bga.perikles import zombie_repeats

    got = zombie_repeats(_zombie_log([("mantinea", "mantinea")], 1, ([("mantinea", "mantinea")], 2)),
                         frozenset({"p2"}), set())
    assert list(got.verdicts.values()) == [True, False]
    assert got.untold == []


@pytest.mark.parametrize(("revealed", "verdict"), [(0, True), (1, False)])
def test_a_zombies_pair_to_two_locations_is_judged_where_the_first_went(revealed: int, verdict: bool) -> None:
    """BGA moves a counter picked twice at each send: it ends where the second send says."""
    from ingest.bga.perikles import zombie_repeats

    got = zombie_repeats(_zombie_log([("mantinea", "delium")], revealed), frozenset({"p2"}), set())
    assert list(got.verdicts.values()) == [verdict]


def test_zombie_repeats_leaves_unlike_sends_alone() -> None:
    from ingest.bga.perikles import zombie_repeats

    log = _zombie_log([("mantinea", "mantinea")], 1)
    for n in log.by_type()["sendBattle"][1:]:
        n.args["type"] = "trireme"
    assert zombie_repeats(log, frozenset({"p2"}), set()).verdicts == {}


@pytest.mark.parametrize(("ids", "verdict"), [((21, 21), True), ((21, 22), False)])
def test_a_zombies_pair_the_log_names_is_judged_by_its_ids(ids: tuple[int, int], verdict: bool) -> None:
    """In the zombie's own log the counters are named: no reveal is needed (here it would say otherwise)."""
    from ingest.bga.perikles import zombie_repeats

    log = _zombie_log([("mantinea", "mantinea")], 1 if not verdict else 2)
    for n, uid in zip(log.by_type()["sendBattle"], ids):
        n.args["id"] = uid
    assert list(zombie_repeats(log, frozenset({"p2"}), set()).verdicts.values()) == [verdict]


def test_zombie_repeats_counts_the_pairs_of_every_zombie_at_a_location() -> None:
    """Two zombies' pairs at one location: the units too many are shared out over both."""
    from ingest.bga.perikles import zombie_repeats

    log = _zombie_log([("mantinea", "mantinea")] * 2, 2)
    for n in log.by_type()["sendBattle"][2:]:
        n.args["player_id"] = "p3"
    got = zombie_repeats(log, frozenset({"p2", "p3"}), set()).verdicts
    assert sorted(p for p, _ in got) == ["p2", "p3"] and set(got.values()) == {True}
