"""Players who left the table (BGA's zombies) in Copenhagen, Coal Baron and Pax Pamir logs.

BGA's framework passes a zombie's turns in silence; its end of game marks the player ``zombie``.
The importer makes the player leave (``leave_table``) at the first turn BGA passes over, and only
with that mark: without it the same log is refused there.  The logs are harness games in which a
seat was turned into a zombie part way (``tests/ingest/bga_logs/README.md``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from ingest.bga import BgaImportError, import_file
from replay.decisions import LeaveTable
from replay.games.pax_pamir.zombie import LOGGED
from replay.record import ChanceEvent, MoveEvent, ObserveEvent
from replay.replayer import COMPLETE, replay

HERE = Path(__file__).resolve().parent / "bga_logs"
COPENHAGEN = HERE / "copenhagen" / "copenhagen_4p_seed20103.log.json.gz"
COAL_BARON = HERE / "coal_baron" / "coalbaron_3p_seed20000.log.json.gz"
UNCONFIRMED = HERE / "coal_baron" / "coalbaron_3p_seed20204.log.json.gz"

COAL_BARON_SHIFT_END = HERE / "coal_baron" / "coalbaron_4p_seed20609.log.json.gz"
COAL_BARON_ASIDE = HERE / "coal_baron" / "coalbaron_2p_seed22018.log.json.gz"
COAL_BARON_DRAFT = HERE / "coal_baron" / "coalbaron_3p_seed22102.log.json.gz"

PAX_PAMIR = HERE / "pax_pamir" / "paxpamir_3p_seed20904.log.json.gz"
PAX_PAMIR_DECK_OUT = HERE / "pax_pamir" / "paxpamir_2p_seed21518.log.json.gz"
PAX_PAMIR_SPY = HERE / "pax_pamir" / "paxpamir_2p_seed23100.log.json.gz"
PAX_PAMIR_ROAD = HERE / "pax_pamir" / "paxpamir_3p_seed23101.log.json.gz"
PAX_PAMIR_SUIT = HERE / "pax_pamir" / "paxpamir_4p_seed23102.log.json.gz"

LOGGED_ANSWERS = {"pax_pamir": {m.type for m in LOGGED.values()}}
"""What BGA logs of a zombie (in Copenhagen and Coal Baron: nothing)."""

# (log, the zombie, the packet of the first step BGA passes over, the notification there, the refusal
# without the end of game's mark)
CASES = [
    (COPENHAGEN, "84101034", "32", "takeCard", "it is 84101034's turn"),
    (COAL_BARON, "84100001", "96", "placeWorkers", "it is 84100001's turn"),
    # Pax Pamir: an event has every player discard a card; BGA's zombie skips its own in silence
    (PAX_PAMIR, "84109043", "135", "discard", "BGA discards Aminullah Khan Logari (hand); our rules keep it"),
    # Pax Pamir: a card's spy or road, which BGA's zombie skips in silence (below)
    (PAX_PAMIR_SPY, "84101001", "7", "pass", "84101001 cannot skip the spy icon"),
    (PAX_PAMIR_ROAD, "84101013", "15", "pass", "84101013 cannot end turn now: the rules await 84101013's choice of a border"),
    (PAX_PAMIR_SUIT, "84101022", "8", "changeFavoredSuit", "BGA's favored suit becomes military; ours is political"),
]


@pytest.mark.parametrize(("path", "zombie", "packet", "notif", "refusal"), CASES)
def test_the_zombie_leaves_where_bga_first_passes_them_over(path: Path, zombie: str, packet: str, notif: str,
                                                            refusal: str) -> None:
    imported = import_file(path)
    rec = imported.record
    assert rec.result is not None and rec.result["end"] == "zombie"
    moves = [(i, e) for i, e in enumerate(rec.events) if isinstance(e, MoveEvent)]
    left = [(i, e) for i, e in moves if isinstance(e.move, LeaveTable)]
    assert [e.player for _, e in left] == [zombie]
    i, ev = left[0]
    assert ev.extra is not None and str(ev.extra["src"]["packet"]) == packet
    after = {e.move.type for j, e in moves if j > i and e.player == zombie}
    assert after <= LOGGED_ANSWERS.get(rec.game, set()), "a player who left makes only the moves BGA logs of its zombie"
    assert any(e.player == zombie for j, e in moves if j < i), "they played before they left"
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]
    assert result.state is not None and result.state.left == (zombie,)


def _without_zombies(path: Path, tmp_path: Path) -> Path:
    """The log with the end of game's ``zombie`` marks cleared (what a log of a player who did not
    leave would say)."""
    raw: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
    for packet in raw["data"]["logs"]:
        for n in packet["data"]:
            if n["type"] == "gameStateChange" and str(n["args"].get("id")) == "99":
                for row in n["args"]["args"]["result"]:
                    row["zombie"] = 0
    out = tmp_path / path.name
    out.write_bytes(gzip.compress(json.dumps(raw).encode()))
    return out


@pytest.mark.parametrize(("path", "zombie", "packet", "notif", "refusal"), CASES)
def test_without_the_end_of_games_mark_the_log_is_refused_there(path: Path, zombie: str, packet: str, notif: str,
                                                                refusal: str, tmp_path: Path) -> None:
    with pytest.raises(BgaImportError) as err:
        import_file(_without_zombies(path, tmp_path))
    assert str(err.value.packet) == packet and err.value.notif == notif
    assert refusal in str(err.value)


def test_bgas_skip_of_a_zombies_turn_is_read(tmp_path: Path) -> None:
    """``skipTurnOfPlayer``: the player ran out of time and BGA played their turn by the zombie rule;
    for a player the end of game marks as a zombie the import is the same, leave and all."""
    raw: dict[str, Any] = json.loads(gzip.decompress(COAL_BARON.read_bytes()))
    at = next(p for p in raw["data"]["logs"] if str(p["packet_id"]) == "96" or p.get("move_id") == 96)
    at["data"].insert(0, {"uid": "skip1", "type": "skipTurnOfPlayer", "log": "", "args": {"player_id": 84100001,
                                                                                          "zombie": True}})
    out = tmp_path / COAL_BARON.name
    out.write_bytes(gzip.compress(json.dumps(raw).encode()))
    rec = import_file(out).record
    assert rec.events == import_file(COAL_BARON).record.events
    assert replay(rec).status == COMPLETE


def test_a_coal_baron_zombie_who_left_their_turn_unconfirmed_skips_its_refill() -> None:
    """Packet 242: the third seat buys the tile on factory_7, then leaves before confirming; BGA's
    zombie passes the confirmation and with it the refill.  The zombie leaves there, when the next
    turn begins (packet 245), and the next confirmed turn refills factory_3 and factory_7 together."""
    rec = import_file(UNCONFIRMED).record
    left = [(i, e) for i, e in enumerate(rec.events) if isinstance(e, MoveEvent) and isinstance(e.move, LeaveTable)]
    assert [(e.player, e.extra and e.extra["src"]["packet"]) for _, e in left] == [("84102043", 245)]
    draws = [e.outcome for e in rec.events[left[0][0]:] if isinstance(e, ChanceEvent)]
    assert draws[0] == {"draw": "tiles", "items": ["t29", "t41"]}  # factory_3 and factory_7, at packet 246
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]


def test_a_coal_baron_zombie_at_a_draw_five_leaves_the_tiles_aside_for_the_next_one() -> None:
    """Packet 36: the first seat takes the tile draw-five and leaves at its choice; BGA's zombie keeps
    nothing and puts nothing back, and it leaves in the record where BGA passes over it (packet 39).
    Packet 112: the other seat's draw-five shows those five with its own five; it buys one and puts
    nine back (packet 114: ``returnTiles`` 9)."""
    rec = import_file(COAL_BARON_ASIDE).record
    at = {(e.move.type, e.extra and e.extra["src"]["packet"]): e for e in rec.events if isinstance(e, MoveEvent)}
    assert at[("leave_table", 39)].player == "84100181"
    back = at[("return_tiles", 114)].move.to_dict()
    assert list(back["tiles"]) == [None] * 9 and at[("keep_tile", 114)].move.to_dict()["tile"] == "t26"
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]
    assert [d["rule"] for d in result.departures].count("draw_five_left_aside") == 2


def test_a_coal_baron_zombie_in_the_draft_leaves_the_others_all_cards_but_one() -> None:
    """Packet 4: the third seat, second to pick, leaves; BGA's zombie passes at each of its picks and
    the other two draft in turn until one card of the ten is left (packets 4–14): four and five cards."""
    rec = import_file(COAL_BARON_DRAFT).record
    moves = [e for e in rec.events if isinstance(e, MoveEvent)]
    left = [e for e in moves if isinstance(e.move, LeaveTable)]
    assert [(e.player, e.extra and e.extra["src"]["packet"]) for e in left] == [("84101023", 4)]
    drafted = [e.player for e in moves if e.move.type == "draft_order"]
    assert len(drafted) == 9 and "84101023" not in drafted and sorted(map(drafted.count, set(drafted))) == [4, 5]
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]
    assert [d["rule"] for d in result.departures].count("draft_goes_on_without_who_left") == 1


@pytest.mark.parametrize(("path", "card"), [(PAX_PAMIR_SPY, 88), (PAX_PAMIR_ROAD, 94), (PAX_PAMIR_SUIT, 92)])
def test_a_pax_pamir_zombie_who_left_at_a_played_cards_spy_or_road_leaves_there(path: Path, card: int) -> None:
    """The player plays a card and leaves at its spy or road, which BGA's zombie skips in silence;
    what BGA shows next tells that the step was not taken (the zombie's ``pass`` where our rules
    have no skip for it or await the road, the card's favored-suit impact), so the player leaves at
    it (:data:`CASES`) and the rules skip it as BGA's zombie does."""
    moves = [e for e in import_file(path).record.events if isinstance(e, MoveEvent)]
    at = next(i for i, e in enumerate(moves) if isinstance(e.move, LeaveTable))
    assert (moves[at - 1].player, moves[at - 1].move.to_dict()) == (moves[at].player, {"type": "play", "card": card,
                                                                                     "side": "left"})


PERIKLES_REPEAT = HERE / "perikles" / "perikles_3p_seed20400.log.json.gz"
PERIKLES_UNTOLD = HERE / "perikles" / "perikles_4p_seed20302.log.json.gz"


def test_a_perikles_zombie_who_picked_one_counter_twice_sent_one_unit() -> None:
    """Packet 173: the zombie's two Megara hoplites go to Cythera and Epidaurus; none is revealed at
    Cythera, so one counter was picked twice and moved on to Epidaurus (the second send)."""
    rec = import_file(PERIKLES_REPEAT).record
    assert rec.result is not None and rec.result["end"] == "zombie"
    assert _sends_at(rec, 173) == [("send_unit", "megara", "hoplite", "cythera"),
                                   ("resend_unit", "megara", "hoplite", "epidaurus")]
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]


def _sends_at(rec: Any, packet: int) -> list[tuple[str, str, str, str]]:
    moves = [e.move.to_dict() for e in rec.events if isinstance(e, MoveEvent)
             and e.move.type in ("send_unit", "resend_unit") and e.extra and e.extra["src"]["packet"] == packet]
    return [(m["type"], m["power"], m["unit_type"], m["location"]) for m in moves]


def test_a_perikles_zombies_pairs_the_reveals_cannot_tell_apart_take_the_earliest_with_a_note() -> None:
    """Four pairs of Argos hoplites to Mantinea (packets 66, 82, 115, 136) and six units revealed there:
    two pairs were one counter, and the log does not say which.  Every reading ends with the same units,
    so the record takes the first two, and the import says so."""
    imported = import_file(PERIKLES_UNTOLD)
    rec = imported.record
    one = [("send_unit", "argos", "hoplite", "mantinea"), ("resend_unit", "argos", "hoplite", "mantinea")]
    two = [("send_unit", "argos", "hoplite", "mantinea")] * 2
    # the sends are emitted at the next packet, where the engine's commit turn comes
    assert [_sends_at(rec, p) for p in (70, 86, 119, 140)] == [one, one, two, two]
    assert rec.source is not None and rec.source["notes"] == [w for w in imported.warnings if "Mantinea" in w]
    assert [w for w in imported.warnings if "Mantinea" in w] == [
        "packets 66, 82, 115, 136: Amber2, who left the table, sent two Argos hoplites to Mantinea in each of 4 "
        "turns, and 2 of those pairs were one counter BGA's zombie picked twice; the log does not say which, so "
        "the record takes the earliest 2: the face-down count there between those packets may be off by one, "
        "the battle and every score are as BGA had them"]
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]


PERIKLES_FIRST_ROLE = HERE / "perikles" / "perikles_5p_seed21105.log.json.gz"


def test_a_perikles_zombie_keeps_the_role_its_first_pick_of_a_counter_took() -> None:
    """Packet 80: the zombie (Ember5) picks one Megara hoplite for Delium, then again for Solygeia.  The
    counter ends at Solygeia, but BGA keeps Ember5 Delium's main attacker with no unit there: the
    attackers' casualty is then the weakest of all of them (a Sparta trireme), and Delium is his."""
    rec = import_file(PERIKLES_FIRST_ROLE).record
    assert _sends_at(rec, 83) == [("send_unit", "megara", "hoplite", "delium"),
                                  ("resend_unit", "megara", "hoplite", "solygeia")]
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]
    assert [d["seq"] for d in result.departures if d["rule"] == "zombie_picks_one_counter_twice"] == [115, 366, 377]
    claims = [e.facts["claims"] for e in rec.events if isinstance(e, ObserveEvent) and "claims" in e.facts
              and "delium" in e.facts["claims"]]
    assert claims[0]["delium"] == ["84101055"]


def test_a_coal_baron_zombie_passed_over_at_the_end_of_a_shift_leaves_there() -> None:
    """Packet 108: the fourth seat, a zombie with workers left, never gets a turn again; BGA skips the
    others (they have none) and ends the shift.  Our rules awaited the zombie: it leaves at endShift."""
    rec = import_file(COAL_BARON_SHIFT_END).record
    left = [e for e in rec.events if isinstance(e, MoveEvent) and isinstance(e.move, LeaveTable)]
    assert [(e.player, e.extra["src"]["packet"] if e.extra else None) for e in left] == [("84106092", 108)]
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]


def test_a_pax_pamir_zombies_pass_comes_where_bga_logs_it() -> None:
    """Packet 183: a cleanup shifts the market with the deck out (nothing is drawn) and the next turn
    is the zombie's.  Its ``pass`` (packet 184) is its move there, after BGA's shifts are checked
    against our market: taken at once, its cleanup would have discarded the Dominance Check the
    shifts bring to column 0 before BGA shows them.  That discard ends the game."""
    rec = import_file(PAX_PAMIR_DECK_OUT).record
    moves = [e for e in rec.events if isinstance(e, MoveEvent)]
    last = moves[-1]
    assert (last.player, last.move.type) == ("84105181", "end_turn")
    assert last.extra is not None and last.extra["src"]["packet"] == 184
    result = replay(rec)
    assert result.status == COMPLETE, result.divergences[:3]
    assert result.state is not None and result.state.over and result.state.left == ("84105181",)


def test_a_pax_pamir_zombies_missing_pass_is_refused_where_bga_goes_on(tmp_path: Path) -> None:
    """Without the zombie's logged ``pass`` of packet 136, the next player's Tax (packet 137) comes
    while our rules await that pass: refused there, not taken for a silent skip."""
    raw: dict[str, Any] = json.loads(gzip.decompress(PAX_PAMIR.read_bytes()))
    for packet in raw["data"]["logs"]:
        if packet["packet_id"] == "136":
            packet["data"] = [n for n in packet["data"] if n["type"] != "pass"]
    cut = tmp_path / PAX_PAMIR.name
    cut.write_bytes(gzip.compress(json.dumps(raw).encode()))
    with pytest.raises(BgaImportError) as err:
        import_file(cut)
    assert str(err.value.packet) == "137"
    assert "it is 84109043's turn, not 84109041's" in str(err.value)


def test_ingest_says_what_an_import_settled_once(tmp_path: Path) -> None:
    """A log whose import settled what it left open (the Perikles zombie's pairs above) is counted
    and its note printed by ``gamerec ingest``, as ``gamerec import`` prints it; once stored, not
    again.  A log with nothing to settle says nothing."""
    from click.testing import CliRunner

    from gamerec_cli.main import main

    for log in (PERIKLES_UNTOLD, COPENHAGEN):
        (tmp_path / log.name).write_bytes(log.read_bytes())
    db = str(tmp_path / "g.duckdb")
    res = CliRunner().invoke(main, ["ingest", str(tmp_path), "--db", db])
    assert res.exit_code == 0, res.output
    notes = [line for line in res.output.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and notes[0].startswith(f"note: {tmp_path / PERIKLES_UNTOLD.name}: packets 66, 82, 115, 136: ")
    again = CliRunner().invoke(main, ["ingest", str(tmp_path), "--db", db])
    assert again.exit_code == 0 and "note: " not in again.output
