"""The Copenhagen BGA importer: one test per notification, the first-harbour layout, the shared
logs end to end, and hand-edited logs caught at the right event."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

from ingest.bga import BgaImportError, import_file, import_log, parse_log
from ingest.bga.copenhagen import CopenhagenImporter, card_color, place_first_harbour
from replay.games.copenhagen.steps import CoatOfArms, goto
from replay.record import ObserveEvent, dumps, loads
from replay.replayer import COMPLETE, DIVERGED, replay

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "copenhagen"))
from copenhagen_helpers import new_game, play, put, set_deck, set_hand  # noqa: E402

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs" / "copenhagen"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/copenhagen")
FILES = sorted(LOGS.glob("*.log.json.gz")) if LOGS.is_dir() else []
EVERY_ACTION = LOGS.parent.parent / "bga-logs-every-action" / "copenhagen"
EVERY_FILES = sorted(EVERY_ACTION.glob("*.log.json.gz")) if EVERY_ACTION.is_dir() else []
"""Logs whose players take every action the client offers (undo, preferences)."""
needs_logs = pytest.mark.skipif(not FILES, reason=f"the shared Copenhagen BGA logs are not at {LOGS}")
from bgatest import events, raw_log, send, table_of  # noqa: E402

# ---- a live importer on a position built by hand ----------------------------------


def importer(n: int = 2) -> CopenhagenImporter:
    raw = {"status": 1, "data": {"players": [{"id": f"p{i + 1}", "name": f"P{i + 1}"} for i in range(n)],
                                 "logs": [packet(1, note("gameStateChange", name="gameSetup", id=1))]}}
    imp = CopenhagenImporter(parse_log(raw, "unit.json"), [f"p{i + 1}" for i in range(n)], {})
    imp.state = new_game(n, ruleset="bga")
    return imp


UIDS = iter(range(10**6))


def note(type_: str, **args: Any) -> dict[str, Any]:
    return {"uid": f"u{next(UIDS)}", "type": type_, "log": "", "args": args}


def packet(pid: int, *notes: dict[str, Any], channel: str = "/table/t1") -> dict[str, Any]:
    return {"channel": channel, "table_id": 1, "packet_id": str(pid), "packet_type": "resend",
            "move_id": str(pid), "time": "0", "data": list(notes)}






def board(filled: int) -> dict[str, Any]:
    """A BGA ``playerboard`` with ``filled`` covered cells (and BGA's stray ``"x": []``)."""
    cells = [{"x": str(i // 9), "y": str(i % 9), "fill": "window" if i < filled else None} for i in range(45)]
    out: dict[str, Any] = {"x": []}
    for c in cells:
        out.setdefault(c["x"], []).append(c)
    return out


RED = [2, 3, 4, 5]  # BGA card ids of red cards (card 1 is the mermaid)
BLUE = [44, 45, 46]


def test_card_numbering() -> None:
    assert card_color(1, 2) == "mermaid"
    assert [card_color(i, 2) for i in (2, 15, 16, 29, 30, 44, 58, 71)] == \
        ["red", "red", "yellow", "yellow", "green", "blue", "purple", "purple"]
    assert card_color(14, 3) == "yellow" and card_color(61, 3) == "purple"
    with pytest.raises(ValueError):
        card_color(62, 3)


def test_take_card() -> None:
    imp = importer()
    imp.take_slots = [3, 4]  # popped from the end
    send(imp, "takeCard", player_id="p1", card_id=58, color="purple", hand_size="3")
    assert events(imp) == [("p1", {"type": "take_card", "slot": 4}), ("observe", {"hand_size": {"p1": 3}})]
    assert imp.mismatches == []


def test_used_ability_any_cards_is_spent_by_the_second_card() -> None:
    imp = importer()
    imp.take_slots = [0, 4]
    send(imp, "takeCard", player_id="p1", card_id=58, color="purple", hand_size="3")
    send(imp, "usedAbility", player_id="p1", used_ability="any_cards")
    send(imp, "takeCard", player_id="p1", card_id=2, color="red", hand_size="4")
    assert events(imp)[-3:] == [("p1", {"type": "take_card", "slot": 0}), ("observe", {"hand_size": {"p1": 4}}),
                                ("observe", {"abilities": {"p1": {"any_cards": "used"}}})]
    assert imp.mismatches == []


def test_used_ability_both_actions_is_a_move() -> None:
    imp = importer()
    imp.cph.seats["p1"].gain_ability("both_actions")
    play(imp.cph, "p1", {"type": "take_card", "slot": 4})
    play(imp.cph, "p1", {"type": "take_card", "slot": 3})
    send(imp, "usedAbility", player_id="p1", used_ability="both_actions")
    assert events(imp) == [("p1", {"type": "both_actions"}), ("observe", {"abilities": {"p1": {"both_actions": "used"}}})]
    assert imp.cph.step == "build_after_taking"


def test_discard_down_to_max_hand_size() -> None:
    imp = importer()
    set_hand(imp.cph, "p1", red=7)
    play(imp.cph, "p1", {"type": "take_card", "slot": 4})
    send(imp, "discardDownToMaxHandSize", player_id="p1", card_id=60, color="purple", hand_size="7")
    assert events(imp) == [("p1", {"type": "discard", "color": "purple"}), ("observe", {"hand_size": {"p1": 7}})]
    with pytest.raises(BgaImportError, match="card 3 is not purple"):
        send(imp, "discardDownToMaxHandSize", player_id="p1", card_id=3, color="purple", hand_size="7")


def test_place_polyomino_builds_paying_the_discarded_cards() -> None:
    imp = importer()
    send(imp, "placePolyomino", player_id="p1", discarded_card_count=2, discards=RED[:2],
         polyomino={"color": "red", "squares": 2, "copy": 1, "x": 0, "y": 0, "flip": 0, "rotation": 0},
         playerboard=board(2), coat_of_arms_ids=[], hand_size=0)
    assert events(imp) == [
        ("p1", {"type": "build", "color": "red", "size": 2, "x": 0, "y": 0, "rotation": 0, "flip": 0,
                "pay": {"red": 2}, "construction_discount": False, "change_from": None}),
        ("observe", {"hand_size": {"p1": 0}, "covered": {"p1": 2}}),
    ]
    assert imp.mismatches == []


def test_place_polyomino_with_the_abilities_announced_before_it() -> None:
    imp = importer()
    p1 = imp.cph.seats["p1"]
    p1.gain_ability("construction_discount")
    p1.gain_ability("change_of_colors")
    set_hand(imp.cph, "p1", red=1, blue=2)
    send(imp, "usedAbility", player_id="p1", used_ability="construction_discount")
    send(imp, "usedAbility", player_id="p1", used_ability="change_of_colors")
    send(imp, "placePolyomino", player_id="p1", discarded_card_count=3, discards=[RED[0], *BLUE[:2]],
         polyomino={"color": "red", "squares": 4, "copy": 1, "x": 0, "y": 0, "flip": 0, "rotation": 0},
         playerboard=board(4), coat_of_arms_ids=[], hand_size=0)
    move = events(imp)[0][1]
    assert move["pay"] == {"red": 1, "blue": 2} and move["construction_discount"] is True
    assert move["change_from"] == "blue"
    assert events(imp)[1] == ("observe", {"abilities": {"p1": {"construction_discount": "used",
                                                                 "change_of_colors": "used"}}})


def test_place_polyomino_a_white_tile_and_bgas_repeated_announcements() -> None:
    imp = importer()
    s = imp.cph
    s.seats["p1"].gain_ability("construction_discount")
    s.seats["p1"].use("construction_discount")
    goto(s, CoatOfArms("p1"))
    s.pending_arms = 1
    send(imp, "usedAbility", player_id="p1", used_ability="construction_discount")  # already spent
    send(imp, "placePolyomino", player_id="p1", discarded_card_count=0, discards=[],
         polyomino={"color": "white", "squares": 1, "copy": 3, "x": 2, "y": 0, "flip": 0, "rotation": 0},
         playerboard=board(1), coat_of_arms_ids=[], hand_size=2)
    assert events(imp)[0] == ("p1", {"type": "place_white", "x": 2, "y": 0})


def test_update_score_is_an_observation() -> None:
    imp = importer()
    send(imp, "updateScore", player_id="p1", score=0, point_difference=0)
    send(imp, "updateScore", player_id="p2", score=3, point_difference=3)
    assert events(imp) == [("observe", {"score": {"p1": 0}}), ("observe", {"score": {"p2": 3}})]
    assert [(m.key, m.bga, m.ours) for m in imp.mismatches] == [("score.p2", 3, 0)]


def coat_of_arms(imp: CopenhagenImporter) -> None:
    s = imp.cph
    put(s, "p1", "purple-5", 0, 0)
    put(s, "p1", "purple-5", 0, 1)
    set_hand(s, "p1", green=3)
    play(s, "p1", {"type": "build", "color": "green", "size": 3, "x": 0, "y": 2, "rotation": 0, "flip": 0,
                   "pay": {"green": 3}})
    assert s.step == "coat_of_arms"


def test_take_ability_tile() -> None:
    imp = importer()
    coat_of_arms(imp)
    send(imp, "takeAbilityTile", player_id="p1", ability_name="both_actions", copy=1)
    assert events(imp)[0] == ("p1", {"type": "take_ability", "ability": "both_actions"})


def test_reset_used_abilities_even_with_nothing_used_as_bga_allows() -> None:
    imp = importer()
    coat_of_arms(imp)
    assert not imp.cph.seats["p1"].any_used()
    send(imp, "resetUsedAbilities", player_id="p1")
    assert events(imp)[0] == ("p1", {"type": "refresh_abilities"})


def test_skipping_coat_of_arms() -> None:
    imp = importer()
    send(imp, "skippingCoatOfArms", player_id="p1")  # our rules skipped it too: nothing to do
    assert events(imp) == []
    coat_of_arms(imp)
    with pytest.raises(BgaImportError, match="our rules still offer a bonus"):
        send(imp, "skippingCoatOfArms", player_id="p1")


def refill_args(*cards: tuple[int, str, int], deck: int, mermaid: str = "deck") -> dict[str, Any]:
    return {"harbor": [{"id": str(i), "type": t, "type_arg": "0", "location": "harbor", "location_arg": str(s)}
                       for i, t, s in cards], "cards_in_deck": str(deck), "mermaid_card": mermaid}


def test_refill_harbor_one_draw_per_slot_in_slot_order() -> None:
    imp = importer()
    play(imp.cph, "p1", {"type": "take_card", "slot": 4})
    play(imp.cph, "p1", {"type": "take_card", "slot": 3})
    send(imp, "refillHarbor", **refill_args((44, "blue", 3), (16, "yellow", 4), deck=57))
    assert events(imp) == [{"draw": "facade", "items": ["blue"]}, {"draw": "facade", "items": ["yellow"]},
                           ("observe", {"deck_size": 57, "rebuilds": 0})]
    assert imp.mismatches == [] and imp.cph.turn() == "p2"


def test_refill_harbor_refuses_a_slot_our_rules_do_not_refill() -> None:
    imp = importer()
    play(imp.cph, "p1", {"type": "take_card", "slot": 4})
    play(imp.cph, "p1", {"type": "take_card", "slot": 3})
    with pytest.raises(BgaImportError, match=r"BGA fills harbour slot 6 \(location_arg 5\)"):
        send(imp, "refillHarbor", **refill_args((44, "blue", 5), deck=57))


def test_refill_harbor_after_a_declined_choice_ends_the_turn() -> None:
    """BGA's endTurn is in no notification: the refill says the player ended the turn."""
    imp = importer()
    imp.cph.seats["p1"].gain_ability("both_actions")
    play(imp.cph, "p1", {"type": "take_card", "slot": 4})
    play(imp.cph, "p1", {"type": "take_card", "slot": 3})
    assert imp.cph.step == "after_taking"
    send(imp, "refillHarbor", **refill_args((44, "blue", 3), (16, "yellow", 4), deck=56))
    assert events(imp)[0] == ("p1", {"type": "end_turn"})


def test_shuffle_discard_into_deck_is_checked_by_the_refill() -> None:
    imp = importer(3)
    s = imp.cph
    set_deck(s, red=1)
    s.discard = {"red": 0, "yellow": 0, "green": 0, "blue": 3, "purple": 0}
    play(s, "p1", {"type": "take_card", "slot": 4})
    play(s, "p1", {"type": "take_card", "slot": 3})
    send(imp, "shuffleDiscardIntoDeck")
    send(imp, "refillHarbor", **refill_args((5, "red", 3), (44, "blue", 4), deck=3))
    assert events(imp)[-1] == ("observe", {"deck_size": 3, "rebuilds": 1})
    assert imp.mismatches == [] and s.rebuilds == 1 and s.mermaid == "deck"


def test_private_activations_make_no_event() -> None:
    imp = importer()
    send(imp, "activateAbility", player_id="p1", ability_name="any_cards", ability_log_name="Any cards")
    send(imp, "activateAbilityChangeOfColors", player_id="p1", from_color="blue", to_color="red",
         ability_name="change_of_colors")
    assert events(imp) == [] and imp.change_from == {"p1": "blue"}


# ---- the first harbour, placed from what the log shows later ---------------------


def log_of(*notes: dict[str, Any]) -> Any:
    raw = {"status": 1, "data": {"players": [{"id": "1", "name": "A"}, {"id": "2", "name": "B"}],
                                 "logs": [packet(i + 1, n) for i, n in enumerate(notes)]}}
    return parse_log(raw, "harbour.json")


def adjacent(*cards: int) -> dict[str, Any]:
    return note("gameStateChange", id=5, active_player="2", type="activeplayer",
                args={"adjacent_card_ids": list(cards), "ability_activated_any_cards": "0"})


def take(card: int) -> dict[str, Any]:
    return note("takeCard", player_id="2", card_id=card, color=card_color(card, 2), hand_size="3")


def test_first_harbour_placed_by_neighbours_and_refilled_slots() -> None:
    log = log_of(take(2), adjacent(16, 30), take(16), note("refillHarbor", **refill_args((44, "blue", 2),
                                                                                     (58, "purple", 3), deck=56)))
    colours, slots = place_first_harbour(log, 2)
    assert colours == [None, None, "yellow", "red", "green", None, None] and slots == [3, 2]


def test_first_harbour_that_the_log_leaves_open_stops_before_the_open_card() -> None:
    log = log_of(take(2), adjacent(16, 30))  # the table stops here: card 2 may have lain in slot 1 to 5
    assert place_first_harbour(log, 2) == ([None] * 7, [])
    # a finished game is refused rather than cut
    end = note("gameStateChange", id=99, active_player="2", type="manager", args={"result": []})
    raw = {"status": 1, "data": {"players": [{"id": "1", "name": "A"}, {"id": "2", "name": "B"}],
                                 "logs": [packet(1, note("gameStateChange", id=3, active_player="2",
                                                         type="activeplayer")),
                                          packet(2, take(2), adjacent(16, 30)), packet(3, end)]}}
    with pytest.raises(BgaImportError, match="packet 2 \\(takeCard\\): the log leaves several layouts"):
        import_log(parse_log(raw, "open.json"))
    del raw["data"]["logs"][2]
    imp = import_log(parse_log(raw, "open.json"))
    assert [e.to_dict() for e in imp.record.events][0]["chance"]["items"] == [None] * 7
    assert len(imp.record.events) == 3  # the harbour and the two starting hands: the take is left out


def test_first_harbour_contradicted_by_the_log_is_refused() -> None:
    log = log_of(take(2), adjacent(16, 30), take(16),
                 note("refillHarbor", **refill_args((44, "blue", 5), (58, "purple", 6), deck=56)))
    with pytest.raises(ValueError, match="no layout of the first harbour fits"):
        place_first_harbour(log, 2)
    with pytest.raises(BgaImportError) as refused:  # one line, naming the packet that contradicts
        import_log(log)
    assert refused.value.located_reason().startswith("packet 4 (refillHarbor): no layout of the first harbour fits")


# ---- the shared logs --------------------------------------------------------------






@needs_logs
@pytest.mark.parametrize("path", FILES + EVERY_FILES, ids=lambda p: p.name.split(".")[0])
def test_every_shared_log_imports_and_replays_complete_with_bga_final_scores(path: Path) -> None:
    imp = import_file(path)
    assert imp.mismatches == []
    rec = loads(dumps(imp.record))
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:3]
    table = table_of(path)
    assert r.totals == {p["id"]: p["score"] for p in table["players"]}
    # turn order: player_no 2 first, ..., player_no 1 last (it gets the last position's hand)
    by_no = [p["id"] for p in sorted(table["players"], key=lambda p: p["player_no"])]
    assert [p["id"] for p in rec.players] == by_no[1:] + by_no[:1]
    # every score BGA announced is an observation of the record
    announced = sum(1 for p in raw_log(path)["data"]["logs"] for n in p["data"] if n["type"] == "updateScore")
    assert sum(1 for ev in rec.events if isinstance(ev, ObserveEvent) and "score" in ev.facts) == announced
    # starting hands are unknown; a never-spent card stays unknown to the end
    assert all(None in ev.outcome["items"] for ev in rec.events[1:1 + len(rec.players)])  # type: ignore[union-attr]


@needs_logs
def test_bga_departs_from_the_rulebook_only_where_the_bga_ruleset_says() -> None:
    """Two shared logs refresh ability tiles when none is used: the rulebook reading refuses it
    at exactly that packet."""
    departures = {}
    for path in FILES:
        rec = import_file(path).record
        rec.options = {"ruleset": "official"}
        r = replay(loads(dumps(rec)))
        if r.status != COMPLETE:
            d = r.first_divergence
            assert d is not None and d.kind == "illegal_move" and "cannot refresh ability tiles" in d.message
            departures[path.name.split(".")[0]] = rec.events[d.seq].extra["src"]["packet"]  # type: ignore[index]
    assert departures == {"copenhagen_3p_seed102": 98, "copenhagen_4p_seed109": 96}


def _edited(path: Path, edit: Any) -> Any:
    raw = raw_log(path)
    edit(raw["data"]["logs"])
    return import_log(parse_log(copy.deepcopy(raw), str(path)))


@needs_logs
def test_an_update_score_changed_by_one_is_caught_at_that_event() -> None:
    path = FILES[0]

    def bump(packets: list[dict[str, Any]]) -> None:
        for p in packets:
            for n in p["data"]:
                if n["type"] == "updateScore":
                    n["args"]["score"] += 1
                    bump.packet = int(p["packet_id"])  # type: ignore[attr-defined]
                    return

    imp = _edited(path, bump)
    assert len(imp.mismatches) == 1
    r = replay(loads(dumps(imp.record)))
    assert r.status == DIVERGED
    d = r.first_divergence
    assert d is not None and d.kind == "observation_mismatch" and d.key.startswith("score.")
    assert d.recorded == d.replayed + 1
    assert imp.record.events[d.seq].extra["src"]["packet"] == bump.packet  # type: ignore[attr-defined, index]


@needs_logs
@pytest.mark.parametrize("kind", ["takeCard", "refillHarbor", "placePolyomino"])
def test_a_removed_packet_is_refused_with_its_place(kind: str) -> None:
    path = FILES[4]

    def drop(packets: list[dict[str, Any]]) -> None:
        hits = [i for i, p in enumerate(packets) if any(n["type"] == kind for n in p["data"])]
        del packets[hits[len(hits) // 2]]

    with pytest.raises(BgaImportError) as err:
        _edited(path, drop)
    assert str(err.value).startswith(f"{path}: packet ")


def test_a_change_of_colours_spent_without_changing_a_card() -> None:
    """BGA spends an activated change of colours at the next placement, whatever paid for it.
    An opponent's activation is private: the record writes the tile's own colour (nothing
    changed); the viewer's own names the colour it would have changed."""
    for viewer_knows in (False, True):
        imp = importer()
        imp.cph.seats["p1"].gain_ability("change_of_colors")
        if viewer_knows:
            send(imp, "activateAbilityChangeOfColors", player_id="p1", from_color="blue", to_color="green",
                 ability_name="change_of_colors")
        send(imp, "usedAbility", player_id="p1", used_ability="change_of_colors")
        send(imp, "placePolyomino", player_id="p1", discarded_card_count=2, discards=RED[:2],
             polyomino={"color": "red", "squares": 2, "copy": 1, "x": 0, "y": 0, "flip": 0, "rotation": 0},
             playerboard=board(2), coat_of_arms_ids=[], hand_size=0)
        move = events(imp)[0][1]
        assert move["pay"] == {"red": 2} and move["change_from"] == ("blue" if viewer_knows else "red")
        assert imp.cph.seats["p1"].abilities["change_of_colors"] is True
        official = new_game()
        official.seats["p1"].gain_ability("change_of_colors")
        with pytest.raises(Exception, match="cannot change red cards into red|pays no blue card"):
            play(official, "p1", move)


@needs_logs
@pytest.mark.parametrize("cut", [2, 5, 40])
def test_a_log_that_stops_early_imports_as_far_as_it_goes(cut: int) -> None:
    """An abandoned table (or a log saved mid-game): recognised from its first notifications,
    imported up to its last packet, replayed as incomplete."""
    raw = raw_log(FILES[0])
    raw["data"]["logs"] = raw["data"]["logs"][:cut]
    imp = import_log(parse_log(raw, "cut.json"))
    assert imp.record.result is None
    assert replay(loads(dumps(imp.record))).status == "incomplete"


@needs_logs
def test_a_log_without_the_viewers_private_packets_imports_the_same_game() -> None:
    """Another player's view of the same table lacks this viewer's private activations; every
    public fact is the same, so the game is the same."""
    raw = raw_log(FILES[7])
    raw["data"]["logs"] = [p for p in raw["data"]["logs"] if not p["channel"].startswith("/player/")]
    imp = import_log(parse_log(raw, "public.json"))
    assert imp.mismatches == [] and replay(loads(dumps(imp.record))).status == COMPLETE


def test_a_board_read_raw_counts_the_covered_cells_as_the_decoded_board_does() -> None:
    import msgspec

    from ingest.bga.copenhagen import covered

    cell = {"id": "1", "owner": "7", "x": "0", "y": "0", "color": None}
    board = {"x": [], "0": [dict(cell, fill=None), dict(cell, fill="red"), dict(cell, fill="")],
             "1": {"0": dict(cell, fill="white"), "1": None}}
    assert covered(board) == 2
    assert covered(msgspec.Raw(msgspec.json.encode(board))) == 2
    # cells of a shape the fast reading does not expect are read as plain JSON
    odd = {"x": [], "0": [dict(cell, fill="blue"), "not a cell"]}
    assert covered(msgspec.Raw(msgspec.json.encode(odd))) == covered(odd) == 1


# ---- BGA's framework undo ----------------------------------------------------------------

UNDO = Path(__file__).resolve().parent / "bga_logs" / "copenhagen" / "copenhagen_2p_seed6515_undo.log.json.gz"
"""A harness log that keeps the packets two undos took back (listed in its table file's
``cancelled_packets``), each undo's move opened by ``undoRestorePoint`` and ``resetInterfaceWithAllDatas``."""


def test_an_undo_takes_back_everything_since_the_turn_began() -> None:
    """Moves 59-61 (a card, a discard, a card) and 79-84 (two cards, an ability, two tiles, a coat of
    arms) were undone: the record is the one of the log without them."""
    raw = raw_log(UNDO)
    undone = {str(p) for p in table_of(UNDO)["cancelled_packets"]}
    assert {"60", "61", "62", "80", "82", "83", "86"} <= undone
    kept = copy.deepcopy(raw)
    kept["data"]["logs"] = [p for p in kept["data"]["logs"] if str(p["packet_id"]) not in undone]
    for p in kept["data"]["logs"]:
        p["data"] = [n for n in p["data"] if n["type"] not in ("undoRestorePoint", "resetInterfaceWithAllDatas")]
    with_undo = import_file(UNDO)
    without = import_log(parse_log(kept, str(UNDO)))
    assert with_undo.record.events == without.record.events
    assert replay(with_undo.record).status == COMPLETE
    assert with_undo.record.result == without.record.result


def test_an_undo_before_any_turn_began_is_refused() -> None:
    raw = raw_log(UNDO)
    first = raw["data"]["logs"][0]
    first["data"].insert(0, {"uid": "early", "type": "undoRestorePoint", "log": "", "args": []})
    with pytest.raises(BgaImportError, match=r"packet 1 \(undoRestorePoint\): an undo with no turn begun before it"):
        import_log(parse_log(raw, "early.json"))
