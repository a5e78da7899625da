"""The Pax Pamir BGA importer: the shared logs end to end, fixtures, undo, hand-edited logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bgatest import import_edited

from ingest.bga import BgaImportError, import_file
from ingest.bga.pax_pamir import GIFT_ERAS, has_log_tokens, older_eras
from replay.games.pax_pamir.components import COURT
from replay.record import MoveEvent
from replay.replayer import COMPLETE, replay

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs" / "pax_pamir"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs/pax_pamir")
needs_logs = pytest.mark.skipif(not LOGS.is_dir(), reason="../shared/bga-logs/pax_pamir is not here")
EVERY_ACTION = LOGS.parent.parent / "bga-logs-every-action" / "pax_pamir"
"""Logs whose players take every action the client offers (bribes, spy moves, Safe House...)."""
FIXTURES = Path(__file__).parent / "bga_logs" / "pax_pamir"
"""Harness logs committed to pin a rule down (see each test that names one)."""


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.log.json.gz")) if folder.is_dir() else []


def _against_the_wakhan(path: Path) -> bool:
    table = path.with_name(path.name.replace(".log.json.gz", ".table.json"))
    return table.is_file() and str(json.loads(table.read_text()).get("options", {}).get("101", 0)) != "0"


ALL_FILES = _files(LOGS) + _files(EVERY_ACTION) + _files(FIXTURES)
HUMAN_TABLES = [p for p in ALL_FILES if not _against_the_wakhan(p)]
WAKHAN_TABLES = [p for p in ALL_FILES if _against_the_wakhan(p)]


@needs_logs
@pytest.mark.parametrize("path", HUMAN_TABLES, ids=lambda p: f"{p.parent.parent.name}/{p.name.split('.')[0]}")
def test_every_shared_log_imports_and_replays_complete_with_bgas_scores(path: Path) -> None:
    imp = import_file(path)
    rec = imp.record
    assert imp.mismatches == []
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:1]
    assert rec.result is not None
    assert r.totals == rec.result["score"]
    table = imp.log.table
    assert table is not None
    assert {p["id"]: p["score"] for p in table.players} == rec.result["score"]
    assert [p["name"] for p in rec.players] == [p["name"] for p in sorted(table.players, key=lambda p: p["player_no"])]


@needs_logs
@pytest.mark.parametrize("path", WAKHAN_TABLES, ids=lambda p: p.name.split(".")[0])
def test_a_game_against_the_wakhan_imports_complete_with_her_seated_second(path: Path) -> None:
    imp = import_file(path)
    rec = imp.record
    assert imp.mismatches == []
    assert rec.options["wakhan"] == "1" and rec.players[1] == {"id": "1", "name": "Wakhan"}
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:1]
    table = imp.log.table
    assert table is not None
    # BGA's ranks leave her out, so the record keeps none; with two people its table scores are
    # theirs, alone its score is the margin over her (checked by the import), which the record leaves out
    assert rec.result is not None and "rank" not in rec.result
    if len(rec.players) == 2:
        assert "score" not in rec.result
        (person,) = table.players
        margin = r.totals[person["id"]] - r.totals["1"]
        assert person["score"] == margin or (margin == 0 and person["score"] == 1)
    else:
        assert {p["id"]: p["score"] for p in table.players} == rec.result["score"]
        assert {p: r.totals[p] for p in rec.result["score"]} == rec.result["score"]


# ---- the project's own hand-made logs (tests/ingest/paxlog.py) ---------------------------

import copy  # noqa: E402
import gzip  # noqa: E402
import sys  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))

from paxlog import ANN, BOB, OPENING, TABLE, PaxLog, opening_game, setup  # noqa: E402

from ingest.bga import import_log, parse_log  # noqa: E402
from replay.replayer import INCOMPLETE  # noqa: E402


def imported(log: PaxLog) -> object:
    return import_log(parse_log(log.envelope(), "fixture.json"))


def test_hand_made_game_maps_each_notification_to_its_event() -> None:
    imp = imported(opening_game())
    rec = imp.record  # type: ignore[attr-defined]
    assert rec.id == f"bga-{TABLE}" and rec.game == "pax_pamir" and rec.options == {"ruleset": "bga"}
    assert [p["id"] for p in rec.players] == [str(ANN), str(BOB)]
    opening = rec.events[:12]
    # the opening market is dealt column by column, each card from the packet that names it
    assert [e.outcome["items"][0] for e in opening] == [OPENING[(r, c)] for c in range(6) for r in range(2)]
    assert opening[0].extra == {"src": {"packet": 4, "uid": "u00006"}}  # Bob's purchase names card 5
    moves = [(e.player, e.move.to_dict()) for e in rec.events[12:] if e.kind == "move"]
    assert moves == [
        (str(ANN), {"type": "choose_loyalty", "coalition": "russian"}),
        (str(BOB), {"type": "choose_loyalty", "coalition": "afghan"}),
        (str(BOB), {"type": "buy", "row": 0, "col": 0}),
        (str(BOB), {"type": "play", "card": 5, "side": "left"}),  # BGA's "right" in an empty court
        (str(BOB), {"type": "end_turn"}),
        (str(ANN), {"type": "buy", "row": 1, "col": 0}),
        (str(ANN), {"type": "end_turn"}),
    ]
    draws = [e.outcome for e in rec.events[12:] if e.kind == "chance"]
    assert draws == [{"draw": "deck", "items": [32]}, {"draw": "deck", "items": [33]}]
    assert rec.result is None
    r = replay(rec)
    assert r.status == INCOMPLETE and not r.divergences
    assert r.state is not None and r.state.rulers["kabul"] == str(BOB)  # type: ignore[attr-defined]


def test_unnamed_opening_cards_stay_unknown_and_the_engine_takes_them() -> None:
    log = PaxLog()
    setup(log)  # an abandoned table: nothing after the loyalties
    rec = imported(log).record  # type: ignore[attr-defined]
    assert [e.outcome for e in rec.events[:12]] == [{"draw": "deck", "items": [None]}] * 12
    assert all(e.extra is None for e in rec.events[:12])
    r = replay(rec)
    assert r.status == INCOMPLETE and not r.divergences
    snap = r.state.snapshot()  # type: ignore[union-attr]
    assert snap["market"][0][0] == {"card": None, "unknown": True, "rupees": 0}
    assert snap["deck"]["size"] == 6 * 7 + 2 + 8 - 12  # 2 players: 7 court cards per pile, 10 events/checks
    # the rules refuse to put a card nobody named into a hand
    from replay.games.pax_pamir.moves import Buy

    with pytest.raises(Exception, match="never said which card"):
        r.state.apply_move(str(BOB), Buy(row=0, col=0))  # type: ignore[union-attr]


def test_undone_notifications_produce_no_events() -> None:
    log = PaxLog()
    setup(log)
    undone = log.packet(log.purchase(BOB, 16, 0, 1, paid=[(0, 0, 5)]))  # bought, then undone
    uids = [n["uid"] for n in undone["data"]]
    log.packet(log.n("clearTurn", "${tkn_playerName} restarts his turn", BOB, notifIds=uids),
               log.n("smallRefreshInterface", gamedatas={}))
    log.packet(log.purchase(BOB, 5, 0, 0))
    rec = imported(log).record  # type: ignore[attr-defined]
    moves = [e.move.to_dict() for e in rec.events if e.kind == "move"]
    assert moves[-1] == {"type": "buy", "row": 0, "col": 0}
    assert sum(1 for m in moves if m["type"] == "buy") == 1
    # the undone packet names no opening card either: card 16 stays unknown
    assert rec.events[2].outcome == {"draw": "deck", "items": [None]}
    assert replay(rec).status == INCOMPLETE


def test_a_purchase_our_market_cannot_match_is_refused_at_its_packet() -> None:
    log = opening_game()
    log.packets[3]["data"][0]["args"]["receivedRupees"] = 1  # no rupee lies on Shah Shujah Durrani
    with pytest.raises(BgaImportError) as e:
        imported(log)
    assert str(e.value) == ("fixture.json: packet 4 (purchaseCard): BGA's buyer takes 1 rupee(s) from "
                            "Shah Shujah Durrani; our market has 0 on it")


def test_a_value_of_the_wrong_type_for_its_move_is_refused_at_its_packet() -> None:
    log = opening_game()
    log.packets[1]["data"][0]["args"]["coalition"] = 3  # the move takes it as it is: checked as a record's move
    with pytest.raises(BgaImportError) as e:
        imported(log)
    assert str(e.value) == ("fixture.json: packet 2 (changeLoyalty): cannot build a 'choose_loyalty' move from it "
                            "(Expected `str`, got `int` - at `$.coalition`)")


def test_a_ruler_our_rules_do_not_give_is_refused() -> None:
    log = opening_game()
    log.packets[4]["data"][2]["args"]["newRuler"] = ANN
    with pytest.raises(BgaImportError, match=r"packet 5 \(changeRuler\): BGA makes 91000001 ruler of Kabul; "
                                             r"our rules give 91000002"):
        imported(log)


def test_a_draw_into_another_cell_is_refused() -> None:
    log = opening_game()
    log.packets[5]["data"][7]["args"]["to"] = "market_1_5"
    with pytest.raises(BgaImportError, match=r"packet 6 \(drawMarketCard\): BGA draws into the bottom row, "
                                             r"column 6 \(market_1_5\); our rules fill the top row, column 6 of the "
                                             r"market"):
        imported(log)


def test_an_unknown_pax_notification_stops_the_table() -> None:
    log = opening_game()
    log.packets[4]["data"].insert(1, log.n("grantWish", "${tkn_playerName} makes a wish", BOB))
    with pytest.raises(BgaImportError, match=r"packet 5 \(grantWish\): unknown notification type 'grantWish' "
                                             r"for Pax Pamir"):
        imported(log)


# ---- hand-edited shared logs: caught at the right event, or refused clearly ----------------


def shared(name: str) -> dict:  # type: ignore[type-arg]
    with gzip.open(LOGS / name) as fh:
        return json.load(fh)  # type: ignore[no-any-return]


@needs_logs
def test_a_dominance_score_changed_by_one_is_caught_at_that_check() -> None:
    obj = shared("paxpamir_3p_seed402.log.json.gz")
    hit = None
    for p in obj["data"]["logs"]:
        for n in p["data"]:
            if n["type"] == "dominanceCheckScores" and n["args"]["scores"] and hit is None:
                row = next(iter(n["args"]["scores"].values()))
                row["newScore"] += 1
                hit = (int(p["packet_id"]), n["uid"], str(row["playerId"]))
    assert hit is not None
    imp = import_log(parse_log(obj, "edited.json"))
    assert [m.notif.packet_id for m in imp.mismatches] == [hit[0]]
    r = replay(imp.record)
    d = r.divergences[0]
    assert d.kind == "observation_mismatch" and d.key == f"score.{hit[2]}"
    assert imp.record.events[d.seq].extra == {"src": {"packet": hit[0], "uid": hit[1]}}
    assert d.recorded == d.replayed + 1


@needs_logs
def test_a_drawn_card_changed_is_refused_where_the_log_stops_making_sense() -> None:
    obj = shared("paxpamir_2p_seed401.log.json.gz")
    edited = None
    for p in obj["data"]["logs"]:
        for n in p["data"]:
            if n["type"] == "drawMarketCard" and edited is None:
                n["args"]["cardId"] = "card_62" if n["args"]["cardId"] != "card_62" else "card_63"
                edited = int(p["packet_id"])
    with pytest.raises(BgaImportError) as e:
        import_log(parse_log(obj, "edited.json"))
    assert e.value.packet is not None and e.value.packet >= edited  # type: ignore[operator]
    assert e.value.notif in ("drawMarketCard", "shiftMarket", "purchaseCard", "discardFromMarket")


@needs_logs
def test_a_removed_packet_is_refused() -> None:
    obj = shared("paxpamir_2p_seed401.log.json.gz")
    logs = obj["data"]["logs"]
    k = next(i for i, p in enumerate(logs) if any(n["type"] == "purchaseCard" for n in p["data"]) and i > 20)
    removed = copy.deepcopy(logs[k])
    del logs[k]
    with pytest.raises(BgaImportError) as e:
        import_log(parse_log(obj, "edited.json"))
    assert e.value.packet is not None and e.value.packet > int(removed["packet_id"])


@needs_logs
def test_undo_in_a_shared_log_leaves_no_trace() -> None:
    path = LOGS / "paxpamir_3p_seed406.log.json.gz"
    imp = import_file(path)
    cancelled = {u for n in imp.log.notifs if n.type == "clearTurn" for u in n.args["notifIds"]}
    assert cancelled
    srcs = {e.extra["src"].get("uid") for e in imp.record.events if e.extra}
    assert not srcs & cancelled


@needs_logs
def test_cli_import_verify_and_official_ruleset(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from gamerec_cli.main import main

    src = tmp_path / "logs"
    src.mkdir()
    for f in ("paxpamir_2p_seed409.log.json.gz", "paxpamir_2p_seed409.table.json"):
        (src / f).write_bytes((LOGS / f).read_bytes())
    res = CliRunner().invoke(main, ["import", "bga", str(src), "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert "imported 1 of 1 logs" in res.output
    res = CliRunner().invoke(main, ["verify", str(tmp_path / "out")])
    assert res.exit_code == 0 and "1 records: 1 complete" in res.output
    # the rulebook against BGA: the first departure is the loyalty order (BGA: seat order, no draw)
    res = CliRunner().invoke(main, ["verify", str(src), "--ruleset", "official"])
    assert res.exit_code == 1
    assert "event 12: missing_chance" in res.output and "first chooser" in res.output


def test_the_board_shows_unknown_opening_cards_face_down() -> None:
    from dashboard.boards import render

    log = PaxLog()
    setup(log)
    r = replay(imported(log).record)  # type: ignore[attr-defined]
    view = render("pax_pamir", r.state.snapshot(), {str(ANN): "Ann", str(BOB): "Bob"})  # type: ignore[union-attr]
    assert view.html is not None and view.html.count("unknown card") == 12


def test_bga_identifiers() -> None:
    from ingest.bga.pax_pamir import board_piece, card_id, cell

    assert card_id("card_12") == 12 and cell("market_1_3") == (1, 3)
    assert board_piece("armies_kabul") == "army:kabul"
    assert board_piece("roads_herat_kabul") == "road:herat_kabul"
    assert board_piece("tribes_punjab") == "tribe:punjab"
    assert board_piece("spies_card_41") == "spy:41"
    assert board_piece("gift_4_91000001") == "gift:4"
    assert board_piece("cylinders_91000001") is None and board_piece("blocks_afghan") is None
    for bad in ("card_x", "wakhan_card_3", "12"):
        with pytest.raises(ValueError):
            card_id(bad)
    with pytest.raises(ValueError):
        cell("hand_91000001")


@needs_logs
def test_a_leveraged_old_patriot_lets_the_player_order_the_discards() -> None:
    """paxpamir_4p_seed403 packets 127-131: a played foreign patriot discards the old patriots; one is
    leveraged, so they go one by one (42, its repayment discards 57 and 28, then 11), all before the
    played card's icons (its spy)."""
    rec = import_file(LOGS / "paxpamir_4p_seed403.log.json.gz").record
    moves = [(e.extra["src"]["packet"], e.move.to_dict()) for e in rec.events
             if e.kind == "move" and e.extra and 127 <= e.extra["src"]["packet"] <= 131]
    assert moves == [
        (127, {"type": "play", "card": 40, "side": "left"}),
        (128, {"type": "discard", "card": 42}),
        (129, {"type": "discard", "card": 57}),
        (130, {"type": "discard", "card": 28}),
        (130, {"type": "discard", "card": 11}),
        (131, {"type": "place_spy", "card": 40}),
    ]


@needs_logs
def test_a_market_notification_without_its_arguments_is_refused_at_its_packet_not_a_traceback() -> None:
    # the opening-market pre-scan reads shiftMarket before any handler does
    obj = shared("paxpamir_3p_seed402.log.json.gz")
    hit = None
    for p in obj["data"]["logs"]:
        for n in p["data"]:
            if n["type"] == "shiftMarket" and hit is None:
                del n["args"]["move"]
                hit = int(p["packet_id"])
    with pytest.raises(BgaImportError, match=r"unexpected arguments \(KeyError: 'move'\)") as e:
        import_log(parse_log(obj, "edited.json"))
    assert (e.value.packet, e.value.notif) == (hit, "shiftMarket")


@needs_logs
def test_a_shift_into_another_cell_is_refused_alike_from_the_file_and_from_decoded_json() -> None:
    # shiftMarket, the most frequent notification, is read from its raw JSON when BGA wrote it in its
    # own form; a shift our market does not show is refused with the same line either way
    from ingest.bga.log import parse_bytes

    obj = shared("paxpamir_2p_seed401.log.json.gz")
    last = [(p, n) for p in obj["data"]["logs"] for n in p["data"] if n["type"] == "shiftMarket"][-1]
    packet, notif = last
    row, col = notif["args"]["move"]["to"].split("_")[1:]
    notif["args"]["move"]["to"] = f"market_{1 - int(row)}_{col}"  # the other row
    errors = []
    for read in (lambda: parse_log(copy.deepcopy(obj), "edited.json"),
                 lambda: parse_bytes(json.dumps(obj, separators=(",", ":")).encode(), "edited.json")):
        with pytest.raises(BgaImportError) as e:
            import_log(read())
        errors.append(str(e.value))
    assert errors[0] == errors[1]
    assert errors[0].startswith(f"edited.json: packet {packet['packet_id']} (shiftMarket): BGA shifts ")
    assert f"(market_{1 - int(row)}_{col}); our market has " in errors[0]


# ---- the every-action logs: what each new handler makes of its notifications --------------

needs_every_action = pytest.mark.skipif(not EVERY_ACTION.is_dir(), reason=f"{EVERY_ACTION} is not here")


def moves_in(path: Path, first: int, last: int) -> list[tuple[int, str, dict]]:  # type: ignore[type-arg]
    """(packet, player, move) of the record's moves made from packets ``first``..``last``."""
    rec = import_file(path).record
    return [(e.extra["src"]["packet"], e.player, e.move.to_dict()) for e in rec.events
            if e.kind == "move" and e.extra and first <= e.extra["src"]["packet"] <= last]


@needs_every_action
def test_a_declined_negotiation_is_bribe_refused_and_a_cancelled_agreement_leaves_nothing() -> None:
    """paxpamir_3p_seed1014 packets 41-47: Birch offers Cobalt 0 to battle with Seaforth Highlanders,
    Cobalt declines; offers again, Cobalt accepts, Birch gives up the agreed bribe (declineBribe
    without an amount) and negotiates once more."""
    birch = "84100142"
    assert moves_in(EVERY_ACTION / "paxpamir_3p_seed1014.log.json.gz", 41, 47) == [
        (43, birch, {"type": "bribe_refused", "card": 37, "action": "battle", "amount": 0}),
    ]


@needs_every_action
def test_an_agreed_bribe_is_offered_and_accepted_with_the_action() -> None:
    """paxpamir_2p_seed1009 packets 80-81: Amber9 and Birch9 agree on 1 rupee (acceptBribe), the full
    bribe here, then Amber9 moves with Alexander Griboyedov, paying it (payBribe): paid at once."""
    got = moves_in(EVERY_ACTION / "paxpamir_2p_seed1009.log.json.gz", 80, 81)
    assert got[:3] == [(81, "84100091", {"type": "move", "card": 70}),
                       (81, "84100091", {"type": "offer_bribe", "amount": 1}),
                       (81, "84100091", {"type": "move_army", "region": "punjab", "to": "kandahar"})]


@needs_every_action
def test_safe_house_spies_removed_in_a_court_battle_are_named_by_their_moves() -> None:
    """paxpamir_2p_seed1017 packets 68-70: Birch17 battles on Hajj Mirza Aghasi; Amber17's spy there
    (she holds Claude Wade, a Safe House) leaves with no returnCylinder, then moves to Claude Wade."""
    amber = "84100171"
    got = moves_in(EVERY_ACTION / "paxpamir_2p_seed1017.log.json.gz", 70, 70)
    assert got == [(70, "84100172", {"type": "remove_spy", "player": amber}),
                   (70, amber, {"type": "safe_house", "card": 72})]
    # paxpamir_5p_seed1020 packet 171: the spy goes back to its owner's supply instead
    got = moves_in(EVERY_ACTION / "paxpamir_5p_seed1020.log.json.gz", 171, 171)
    assert got[-1] == (171, "84100201", {"type": "skip"})


@needs_every_action
def test_a_pashtunwali_choice_bga_passes_over_in_silence_kept_the_favored_suit() -> None:
    """paxpamir_4p_seed1023 packets 290-292: Pashtunwali Values bought, its choice state, no
    changeFavoredSuit (political was already favored), then a battle."""
    got = moves_in(EVERY_ACTION / "paxpamir_4p_seed1023.log.json.gz", 290, 292)
    assert got[:3] == [(290, "84100231", {"type": "buy", "row": 0, "col": 1}),
                       (292, "84100231", {"type": "choose_suit", "suit": "political"}),
                       (292, "84100231", {"type": "battle", "card": 93, "region": "persia"})]


def test_an_undo_keeps_the_moves_before_its_checkpoint() -> None:
    """Fixture seed 7018: Birch's restart (packet 124) flags packet 118 whole, though Cobalt's hand
    discard and the refill there came before Birch's turn began; Birch's first Blackmail (packet 119)
    is undone, the second (packet 126) stands."""
    got = moves_in(FIXTURES / "paxpamir_4p_seed7018.log.json.gz", 118, 127)
    assert got[0] == (118, "84100183", {"type": "discard", "card": 78})
    assert [m for _, _, m in got[1:3]] == [{"type": "place_spy", "card": 59}, {"type": "buy", "row": 1, "col": 0}]
    assert [p for p, _, _ in got[1:3]] == [126, 127]


def test_a_spy_on_a_kandahar_card_at_turn_start_skipped_the_herat_blackmail_offered_first() -> None:
    """Fixture seed 7844 packets 100-102: Birch44 holds both Blackmail cards; BGA offers Herat's
    (packet 100), Birch44 skips it in silence (packet 101 only changes state to Kandahar's), then
    blackmails Pashtun Mercenary, a Kandahar card."""
    got = moves_in(FIXTURES / "paxpamir_2p_seed7844.log.json.gz", 100, 102)
    assert got[1:] == [(102, "84108442", {"type": "skip"}), (102, "84108442", {"type": "place_spy", "card": 52})]


def test_ruler_changes_announced_piece_by_piece_are_checked_once_the_icons_are_placed() -> None:
    """Fixture seed 7008 packet 86: a card with two tribe icons; BGA makes nobody ruler of Herat after
    the first tribe, Birch8 after the second.  Editing the last claim is refused there."""
    with gzip.open(FIXTURES / "paxpamir_2p_seed7008.log.json.gz") as fh:
        obj = json.load(fh)
    packet = next(p for p in obj["data"]["logs"] if p["packet_id"] == "86")
    claims = [n for n in packet["data"] if n["type"] == "changeRuler"]
    assert [c["args"]["newRuler"] for c in claims] == [None, 84100082]
    claims[-1]["args"]["newRuler"] = None
    with pytest.raises(BgaImportError, match=r"packet 86 \(changeRuler\): BGA makes nobody ruler of Herat; "
                                             r"our rules give 84100082"):
        import_log(parse_log(obj, "edited.json"))


@needs_every_action
def test_a_negotiation_edited_to_an_action_the_card_lacks_is_refused_where_it_fails() -> None:
    """paxpamir_3p_seed1014 packet 41 edited: the negotiation is for a gift with Seaforth Highlanders
    (a battle and move card); the refusal comes at its end, packet 43, with the rules' reason."""
    with gzip.open(EVERY_ACTION / "paxpamir_3p_seed1014.log.json.gz") as fh:
        obj = json.load(fh)
    start = next(n for p in obj["data"]["logs"] if p["packet_id"] == "41" for n in p["data"]
                 if n["type"] == "startBribeNegotiation")
    start["args"]["action"] = "gift"
    with pytest.raises(BgaImportError) as e:
        import_log(parse_log(obj, "edited.json"))
    assert (e.value.packet, e.value.notif) == (43, "declineBribe")
    assert "cannot gift with Seaforth Highlanders: the card shows battle, move" in str(e.value)


@needs_every_action
def test_a_wakhan_table_cut_before_her_first_turn_seats_her_by_its_table_option() -> None:
    from ingest.bga.log import attach_table, read_table_file

    path = EVERY_ACTION / "paxpamir_2p_seed1025.log.json.gz"
    with gzip.open(path) as fh:
        obj = json.load(fh)
    obj["data"]["logs"] = obj["data"]["logs"][:2]  # the loyalties only
    log = parse_log(obj, "cut.json")
    attach_table(log, read_table_file(path.with_name("paxpamir_2p_seed1025.table.json")))
    rec = import_log(log).record
    assert [p["id"] for p in rec.players] == ["84100252", "1", "84100251"]
    assert rec.options == {"ruleset": "bga", "wakhan": "1"}


# ---- the Wakhan (pinned harness logs: tests/ingest/bga_logs) ------------------------------


def _moves_of_packet(rec: Any, packet: int) -> list[Any]:
    return [e.move for e in rec.events if getattr(e, "move", None) is not None and e.extra["src"]["packet"] == packet]


def test_her_radicalized_card_whose_bribe_she_cannot_pay_goes_to_the_discard_pile() -> None:
    """Packet 38: Charles Stoddart (4), radicalized with a bribe she cannot pay: discarded, no side."""
    from replay.games.pax_pamir.moves import Radicalize

    rec = import_file(FIXTURES / "paxpamir_1p_seed30209.log.json.gz").record
    assert _moves_of_packet(rec, 38)[0] == Radicalize(row=0, col=0)
    r = replay(rec, until=next(i for i, e in enumerate(rec.events) if e.extra["src"]["packet"] == 38))
    assert r.state.discard_pile[-1] == 4 and 4 not in r.state.courts["1"]


def test_her_army_crosses_a_border_without_her_road_under_bga() -> None:
    """Packet 66: her Russian army moves from Kabul to Punjab with no Russian road between."""
    from replay.games.pax_pamir.moves import MoveArmy

    rec = import_file(FIXTURES / "paxpamir_1p_seed30209.log.json.gz").record
    assert MoveArmy(region="kabul", to="punjab") in _moves_of_packet(rec, 66)
    r = replay(rec)
    assert r.status == COMPLETE
    found = [d for d in r.departures if d["rule"] == "wakhan_moves_off_road"]
    assert len(found) == 1 and "Kabul to Punjab" in found[0]["happened"]


def test_her_overthrow_waits_until_the_icons_of_her_card_are_resolved() -> None:
    """Packets 67-68: Prince Akbar Khan's spy takes her last Kabul tribe; her next spy still goes onto
    Dost Mohammad (7), a Kabul political card, which the Overthrow discards after the icons (BGA)."""
    from replay.games.pax_pamir.moves import PlaceSpy

    rec = import_file(FIXTURES / "paxpamir_1p_seed30205.log.json.gz").record
    assert PlaceSpy(card=7) in _moves_of_packet(rec, 68)
    r = replay(rec)
    assert r.status == COMPLETE
    waited = [d["happened"] for d in r.departures if d["rule"] == "wakhan_overthrow_after_icons"]
    assert any("in Kabul" in w for w in waited)


def test_the_card_she_battles_with_is_the_one_bgas_priority_picks() -> None:
    """BGA's notification of her Battle names no card.  Packet 30: with actions left, Nomadic Warlord
    (60, military, favored: a free action) before Prince Akbar Khan (3, a patriot of higher rank);
    packet 45: her actions spent, the favored card (intelligence) leftmost in her court, Allard (73)."""
    from replay.games.pax_pamir.moves import Battle

    rec = import_file(FIXTURES / "paxpamir_1p_seed31216.log.json.gz").record
    assert [m.card for m in _moves_of_packet(rec, 30) if isinstance(m, Battle)] == [60]
    assert [m.card for m in _moves_of_packet(rec, 45) if isinstance(m, Battle)] == [73]
    assert replay(rec).status == COMPLETE


def test_without_its_table_file_the_improved_wakhans_variant_is_read_from_her_loyalties() -> None:
    """The table file says option 101 = 2 (improved: steadfast pragmatic loyalty); the log alone
    does not, so the import tries the rulebook's reading, which BGA's packet 21 refutes, then the
    steadfast one."""
    with gzip.open(FIXTURES / "paxpamir_2p_seed30412.log.json.gz") as fh:
        obj = json.load(fh)
    rec = import_log(parse_log(obj, "no-table.json")).record
    assert rec.options == {"ruleset": "bga", "wakhan": "1", "wakhan_steadfast": True}
    assert replay(rec).status == COMPLETE
    with_table = import_file(FIXTURES / "paxpamir_2p_seed30412.log.json.gz").record
    assert with_table.options == rec.options


def test_without_its_table_file_a_wakhan_log_no_reading_fits_gives_the_first_readings_refusal() -> None:
    with gzip.open(FIXTURES / "paxpamir_2p_seed30412.log.json.gz") as fh:
        obj = json.load(fh)
    for packet in obj["data"]["logs"]:  # BGA's claims of her loyalty, all changed to one neither reading gives
        for n in packet["data"]:
            if n["type"] == "wakhanUpdatePragmaticLoyalty":
                n["args"]["pragmaticLoyalty"] = "nobody"
    with pytest.raises(BgaImportError) as e:
        import_log(parse_log(obj, "no-table.json"))
    assert e.value.notif == "wakhanUpdatePragmaticLoyalty" and "steadfast variant off" in str(e.value)


LOST_AT = 74
"""The event at which the Wakhan, playing the cards a person's Other Persuasive Methods gave her, takes
her last Kandahar tribe (packet 34): BGA never overthrows her Kandahar cards."""


@pytest.mark.parametrize(("log", "rule", "seq"), [
    ("paxpamir_1p_seed32006", "wakhan_takes_new_spy", 151),  # her spy on Bukharan Jews, placed this turn
    ("paxpamir_1p_seed32035", "wakhan_takes_public_withdrawal", 79),
    ("paxpamir_2p_seed32319", "wakhan_buys_a_paid_check", 79),  # her Ambition after paying onto the check
    ("paxpamir_1p_seed33018", "wakhan_overthrow_lost", LOST_AT),  # packet 34: her Kandahar cards stay
])
def test_bgas_wakhan_departs_from_the_rulebook_where_the_log_shows(log: str, rule: str, seq: int) -> None:
    r = replay(import_file(FIXTURES / f"{log}.log.json.gz").record)
    assert r.status == COMPLETE
    assert [d["seq"] for d in r.departures if d["rule"] == rule] == [seq]


def test_her_bribe_for_a_move_is_paid_in_full_though_bga_shows_it_after_the_action() -> None:
    """Packet 127: BGA sends her ``move`` first, then the ``payBribe`` of 1 to the hostage holder."""
    from replay.games.pax_pamir.moves import MoveAction, OfferBribe

    rec = import_file(FIXTURES / "paxpamir_2p_seed32128.log.json.gz").record
    moves = _moves_of_packet(rec, 127)
    assert moves[:2] == [MoveAction(card=87), OfferBribe(amount=1)]
    assert replay(rec).status == COMPLETE
    with gzip.open(FIXTURES / "paxpamir_2p_seed32128.log.json.gz") as fh:
        obj = json.load(fh)
    for packet in obj["data"]["logs"]:  # BGA shows 2 paid instead
        for n in packet["data"]:
            if n["type"] == "payBribe" and str(packet["packet_id"]) == "127" and n["args"].get("briberId") == 1:
                n["args"]["rupees"] = 2
    with pytest.raises(BgaImportError, match="paying a bribe of 2; our rules paid 1"):
        import_log(parse_log(obj, "edited.json"))


def test_a_persons_blackmail_spy_ends_the_wakhans_silent_turn() -> None:
    """Packet 16: BGA sends no ``pass`` for her; the person's Blackmail spy on Giljee Nobles (43) is the
    first thing of the next turn, so her ``end_turn`` comes right before it."""
    from replay.games.pax_pamir.moves import EndTurn, PlaceSpy

    rec = import_file(FIXTURES / "paxpamir_1p_seed35024.log.json.gz").record
    assert [(e.player, e.move) for e in rec.events if e.extra["src"]["packet"] == 16] == [
        ("1", EndTurn()), ("84100241", PlaceSpy(card=43))]
    assert replay(rec).status == COMPLETE


def test_two_suit_changes_in_one_cleanup_are_checked_by_the_last() -> None:
    """Packet 121: Rebuke (political) and New Tactics (military) leave column 0 in one cleanup; our
    rules discard both at once, so BGA's first change (to political) is checked by its second."""
    rec = import_file(FIXTURES / "paxpamir_2p_seed35224.log.json.gz").record
    assert replay(rec).status == COMPLETE
    with gzip.open(FIXTURES / "paxpamir_2p_seed35224.log.json.gz") as fh:
        obj = json.load(fh)
    for packet in obj["data"]["logs"]:  # the last change claimed otherwise: refused there
        if str(packet["packet_id"]) == "121":
            last = [n for n in packet["data"] if n["type"] == "changeFavoredSuit"][-1]
            last["args"]["to"] = "economic"
    with pytest.raises(BgaImportError, match="favored suit becomes economic; ours is military"):
        import_log(parse_log(obj, "edited.json"))


def test_a_player_renamed_since_the_game_is_still_found_by_the_name_the_log_gives() -> None:
    from ingest.bga.log import attach_table, parse_table

    """The table's names are today's; the log's are those of the day.  Other Persuasive Methods
    names both players by name only (packet ``exchangeHand``): a name the table does not know is
    the id the log's notifications give beside it."""
    path = FIXTURES / "paxpamir_2p_seed30605.log.json.gz"
    obj = json.loads(gzip.decompress(path.read_bytes()))
    table = json.loads(path.with_name(path.name.replace(".log.json.gz", ".table.json")).read_text())
    old = obj["data"]["players"][0]["name"]
    assert any(n["type"] == "exchangeHand" and old in (n["args"].get("tkn_playerName"), n["args"].get("tkn_playerName_2"))
               for p in obj["data"]["logs"] for n in p["data"])
    obj["data"]["players"][0]["name"] = "Renamed"
    for p in table["players"]:
        if p["name"] == old:
            p["name"] = "Renamed"
    renamed = parse_log(obj, "renamed.json")
    attach_table(renamed, parse_table(table, "renamed.table.json"))
    ours = import_log(renamed).record
    assert ours.events == import_file(path).record.events
    assert "Renamed" in [p["name"] for p in ours.players]


OLD_TOKENS = FIXTURES / "paxpamir_2p_seed41003_2023-10.log.json.gz"
"""A harness log of BGA's code of 10 October 2023 (``3cb9352``, run with ``b9282fe``'s PHP 8 fixes, which
change no rule; its table file names ``3cb9352``): cards
and regions named by log tokens (``logTokenLargeCard: "largeCard:card_42"``), gifts without their card,
and a player who rules Kandahar where two British armies stand and nobody is British."""


def test_a_log_of_bga_s_code_before_october_2023_imports_with_that_code_s_rulership() -> None:
    imp = import_file(OLD_TOKENS)
    rec = imp.record
    assert has_log_tokens(imp.log)
    assert rec.options == {"ruleset": "bga", "ruler_against_players_only": True, "no_overthrow_for_taken_tribes": True}
    assert any("rulership of BGA's code before 19 October 2023" in note for note in rec.source["notes"])
    r = replay(rec)
    assert r.status == COMPLETE and not imp.mismatches
    assert any(d["rule"] == "ruler_against_players_only" for d in r.state.departures)
    moves = [e.move for e in rec.events if isinstance(e, MoveEvent)]
    gifts = [m for m in moves if m.type == "gift"]
    taxes = [m for m in moves if m.type == "tax"]
    assert len(gifts) == 2 and taxes  # each gift's card found as a battle's is, each tax's read from its token
    assert all(m.card in COURT for m in gifts + taxes)


def test_a_last_tribe_taken_elsewhere_overthrows_nothing_in_a_log_of_bga_s_code_before_october_2023() -> None:
    """A log of ``3cb9352`` where p2's last Persian tribe becomes a spy elsewhere: BGA keeps Fath-Ali Shah
    (Persia) in p2's court, which a cleanup later shows (seven cards, no discard)."""
    imp = import_file(FIXTURES / "paxpamir_2p_seed41002_2023-10.log.json.gz")
    r = replay(imp.record)
    assert r.status == COMPLETE and not imp.mismatches
    assert [d["rule"] for d in r.state.departures].count("no_overthrow_for_taken_tribes") == 1


def test_a_log_of_bga_s_code_of_11_to_17_october_2023_is_told_by_its_gifts() -> None:
    """A log of ``d68382c`` (11 October 2023): no log tokens, but its gifts do not name their card, which
    BGA's code did until ``a7b3cfd`` (17 October): read by that code's rulership (a player rules
    Punjab where the rulebook gives nobody), and its Overthrow if that fails."""
    imp = import_file(FIXTURES / "paxpamir_4p_seed41514_2023-10b.log.json.gz")
    assert not has_log_tokens(imp.log) and older_eras(imp.log) == GIFT_ERAS
    assert imp.record.options == {"ruleset": "bga", "ruler_against_players_only": True}
    r = replay(imp.record)
    assert r.status == COMPLETE and not imp.mismatches
    assert any(d["rule"] == "ruler_against_players_only" and "Punjab" in d["happened"] for d in r.state.departures)


def test_today_s_logs_are_read_by_today_s_rules_only() -> None:
    today = [p for p in _files(FIXTURES) if "_2023-" not in p.name][:8]
    assert len(today) == 8 and not any(older_eras(import_file(p).log) for p in today)


def test_an_old_log_token_of_another_kind_is_refused_where_it_is() -> None:
    raw = json.loads(gzip.decompress(OLD_TOKENS.read_bytes()))
    tax = next(n for p in raw["data"]["logs"] for n in p["data"] if n["type"] == "tax")
    tax["args"]["logTokenLargeCard"] = "cardName:card_31"
    with pytest.raises(BgaImportError, match=r"packet \d+ \(tax\): logTokenLargeCard is 'cardName:card_31', "
                                             "not a largeCard token"):
        import_edited(raw, OLD_TOKENS)


OLD_WITHDRAWAL = FIXTURES / "paxpamir_3p_seed41110_2023-09.log.json.gz"
"""A harness log of BGA's code of 30 September 2023 (``34392c5``, run with ``b9282fe``'s PHP 8 fixes;
its table file names ``34392c5``): a player taxes a rupee that an action's cost put on Public
Withdrawal, which that code left there."""


def test_a_log_of_bga_s_code_before_1_october_2023_reads_public_withdrawal_as_that_code_did() -> None:
    imp = import_file(OLD_WITHDRAWAL)
    rec = imp.record
    assert rec.options == {"ruleset": "bga", "ruler_against_players_only": True,
                           "no_overthrow_for_taken_tribes": True, "public_withdrawal_holds_rupees": True}
    assert any("Public Withdrawal holding the rupees" in note for note in rec.source["notes"])
    r = replay(rec)
    assert r.status == COMPLETE and not imp.mismatches and r.totals == rec.result["score"]
    assert any(d["rule"] == "public_withdrawal_holds_rupees" for d in r.state.departures)


def test_a_gift_of_today_s_code_without_its_card_is_refused_not_read_as_older_code() -> None:
    """Only a log whose every gift leaves out its card is of the code of before 17 October 2023: one gift
    edited so in a later log refuses that log at that gift."""
    path = FIXTURES / "paxpamir_2p_seed7008.log.json.gz"
    raw = json.loads(gzip.decompress(path.read_bytes()))
    gifts = [n for p in raw["data"]["logs"] for n in p["data"] if n["type"] == "purchaseGift"]
    assert len(gifts) >= 2
    del gifts[0]["args"]["tkn_largeCard"]
    with pytest.raises(BgaImportError, match=r"packet \d+ \(purchaseGift\): unexpected arguments \(KeyError"):
        import_edited(raw, path)
