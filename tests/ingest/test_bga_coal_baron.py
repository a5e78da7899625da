"""The Coal Baron BGA importer, one notification type at a time, on hand-made logs.

:class:`Table` writes a log the way the game's BGA code sends it (the notifications, their args
and their order, as read from Syarwin/bga-coalbaron): a two-player setup, then whatever turns a
test needs.  ``full_game`` plays a whole (dull) game so that shift and final scorings appear.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.bga import BgaImportError, import_log, parse_log
from ingest.bga.coal_baron import DeckParts
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, Record, dumps, loads
from replay.replayer import COMPLETE, DIVERGED, INCOMPLETE, replay

A, B = 84100001, 84100002
TABLE = 900000999
DRAFT_PICKS = [(B, 4), (A, 1), (B, 5), (A, 3), (B, 6), (A, 2)]
#: meeple ids: each player's 18 workers then 4 starting cubes (yellow, brown, grey, black)
START_CUBE = {A: {"yellow": 19, "brown": 20, "grey": 21, "black": 22},
              B: {"yellow": 41, "brown": 42, "grey": 43, "black": 44}}
SUPPLY = {"yellow": 45, "brown": 77, "grey": 109, "black": 141}
TILE_COLOUR = {1: "yellow", 7: "brown", 13: "grey", 19: "black", 25: "yellow", 31: "brown", 33: "brown"}


class Table:
    """A two-player Coal Baron log in the making (2026 archive envelope)."""

    def __init__(self) -> None:
        self.packets: list[dict[str, Any]] = []
        self.uid = 0
        self.francs = {A: 10, B: 10}
        self.workers = {A: 18, B: 18}
        self.on: dict[str, int] = {}
        self.supply = dict(SUPPLY)

    # ---- notifications and packets ---------------------------------------------------

    def n(self, type_: str, log: str = "", **args: Any) -> dict[str, Any]:
        self.uid += 1
        return {"uid": f"u{self.uid:05d}", "type": type_, "log": log, "args": args}

    def state(self, sid: int, active: int, args: Any = None) -> dict[str, Any]:
        return self.n("gameStateChange", id=sid, active_player=str(active), args=args,
                      type="activeplayer" if sid in (3, 11, 30, 40, 50, 60, 70) else "game",
                      reflexion={"total": {str(A): None, str(B): None}})

    def packet(self, *notifs: dict[str, Any], private: bool = False) -> None:
        pid = int(self.packets[-1]["packet_id"]) + 1 if self.packets else 1
        self.packets.append({
            "channel": f"/player/p{A}" if private else f"/table/t{TABLE}", "table_id": TABLE,
            "packet_id": str(pid), "packet_type": "resend", "move_id": str(pid), "time": str(1800000000 + pid),
            "data": list(notifs)})

    def by(self, player: int, type_: str, log: str = "", **args: Any) -> dict[str, Any]:
        return self.n(type_, log, player_id=player, player_name=f"n{player}", **args)

    def raw(self) -> dict[str, Any]:
        return {"status": 1, "data": {"players": [{"id": str(A), "name": "Ann"}, {"id": str(B), "name": "Bob"}],
                                      "logs": self.packets}}

    # ---- the game ----------------------------------------------------------------------

    def setup(self) -> Table:
        pool = {c: {"id": c, "location": "draft"} for c in range(1, 8)}
        self.packet(self.n("startDraft", "Starting draft"), self.state(3, B, {"cards": dict(pool)}))
        for k, (player, card) in enumerate(DRAFT_PICKS):
            del pool[card]
            nxt = DRAFT_PICKS[k + 1][0] if k + 1 < len(DRAFT_PICKS) else None
            tail = [self.state(3, nxt, {"cards": dict(pool)})] if nxt else [
                self.n("endDraft", card={"id": 7, "location": "order_4"}),
                self.n("refillOrderSpace", card={"id": 20, "location": "order_2"}),
                self.n("refillOrderSpace", card={"id": 21, "location": "order_3"}),
                self.n("newShift", n=1, m=3), self.by(A, "updateFirstPlayer"), self.state(11, A)]
            self.packet(self.by(player, "giveCardTo", card={"id": card, "location": "outstanding"}),
                        self.state(4, player), *tail)
        return self

    def place(self, player: int, space: str, *action: dict[str, Any], n: int | None = None,
              canteen: bool = True) -> list[dict[str, Any]]:
        taken = 0 if space == "bank_1" else self.on.get(space, 0)
        k = n if n is not None else taken + 1
        out = [self.n("moveToCanteen", n=taken, space=space)] if taken and canteen else []
        out.append(self.by(player, "placeWorkers", "${player_name} places ${n} workers", space=space, n=k,
                           workerIds=list(range(k)), space_name=space))
        self.on[space] = 1 if space == "bank_1" else k
        self.workers[player] -= k
        return out + list(action)

    def turn(self, player: int, space: str, *action: dict[str, Any], refills: tuple[dict[str, Any], ...] = (),
             nxt: int | None = None, n: int | None = None, canteen: bool = True) -> None:
        """One turn: the placement and its action, the confirmation, the refills, the next player."""
        self.packet(self.n("newUndoableStep", "Undo here", stepId=len(self.packets)), private=True)
        self.packet(*self.place(player, space, *action, n=n, canteen=canteen),
                    self.state(20, player), self.state(70, player))
        follow = [self.n("updateReflexionTime", player_id=str(nxt), delta="30", max="180"),
                  self.state(11, nxt)] if nxt is not None else []
        self.packet(*refills, self.state(10, player), *follow)

    def money(self, player: int, francs: int) -> dict[str, Any]:
        self.francs[player] += francs
        return self.by(player, "giveMoney", n=francs)

    def buy(self, player: int, tile: int, price: int) -> list[dict[str, Any]]:
        self.francs[player] -= price
        colour = TILE_COLOUR[tile]
        cube = self.supply[colour]
        self.supply[colour] += 1
        return [self.by(player, "spendMoney", n=price),
                self.by(player, "giveTileTo", tile={"id": tile, "location": "player"}),
                self.by(player, "moveCoal", tile={"id": tile}, coal={"id": cube, "location": f"tile_{tile}"})]


def imported(t: Table) -> Any:
    return import_log(parse_log(t.raw(), "table.json"))


def events(t: Table) -> list[dict[str, Any]]:
    """The record's events as JSON has them (lists, not tuples)."""
    out: list[dict[str, Any]] = json.loads(dumps(imported(t).record))["events"]
    return out


def after_setup(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events after the setup's (9) and the shift's first observations (2)."""
    return evs[11:]


def moves(evs: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(e["player"], {k: v for k, v in e["move"].items()}) for e in evs if "move" in e]


# ---- setup and the draft ------------------------------------------------------------------


def test_the_draft_and_the_setup_draws() -> None:
    """startDraft, gameStateChange 3 (the pool), giveCardTo (picks), endDraft, refillOrderSpace,
    newShift, updateFirstPlayer."""
    t = Table().setup()
    imp = imported(t)
    rec = imp.record
    assert [p["id"] for p in rec.players] == [str(A), str(B)]     # the draft runs backwards from B
    evs = [e.to_dict() for e in rec.events]
    assert evs[0]["chance"] == {"draw": "tiles", "items": [None] * 6}   # dealt at setup, never named
    assert evs[1]["chance"] == {"draw": "orders", "items": [f"o{i}" for i in range(1, 8)]}
    assert [(e["player"], e["move"]["card"]) for e in evs[2:8]] == [(str(p), f"o{c}") for p, c in DRAFT_PICKS]
    assert evs[8]["chance"] == {"draw": "orders", "items": ["o20", "o21"]}
    assert evs[9]["observe"] == {"shift": 1} and evs[10]["observe"] == {"start_player": str(A)}
    assert evs[9]["origin"] == "bga" and evs[1]["src"]["packet"] == 1
    assert replay(loads(dumps(rec))).status == INCOMPLETE


def test_end_draft_on_another_card_is_refused() -> None:
    t = Table().setup()
    for n in t.packets[-1]["data"]:
        if n["type"] == "endDraft":
            n["args"]["card"]["id"] = 9
    with pytest.raises(BgaImportError, match=r"packet 7 \(endDraft\): BGA leaves o9 on order_4, our engine o7"):
        imported(t)


# ---- placements and their actions --------------------------------------------------------


def test_buying_a_face_down_factory_tile_reveals_it_first() -> None:
    """placeWorkers on a factory space, spendMoney, giveTileTo, moveCoal to the tile; the refill."""
    t = Table().setup()
    t.turn(A, "factory_7", *t.buy(A, 33, 2),
           refills=(t.n("refillFactorySpace", tile={"id": 9, "location": "factory_7"}),), nxt=B)
    evs = after_setup(events(t))
    assert evs[0]["chance"] == {"reveal": "factory_7", "items": ["t33"]}
    assert evs[1]["move"] == {"type": "place_workers", "space": "factory_7"}
    assert evs[2]["chance"] == {"draw": "tiles", "items": ["t9"]}
    assert evs[3]["observe"] == {"francs": {str(A): 8}, "workers": {str(A): 17}}


def test_money_and_a_taken_space() -> None:
    """giveMoney; moveToCanteen and placeWorkers with k + 1 workers."""
    t = Table().setup()
    t.turn(A, "bank_4", t.money(A, 4), nxt=B)
    t.turn(B, "bank_4", t.money(B, 4), nxt=A)
    evs = after_setup(events(t))
    assert moves(evs) == [(str(A), {"type": "place_workers", "space": "bank_4"}),
                          (str(B), {"type": "place_workers", "space": "bank_4"})]
    assert evs[-1]["observe"] == {"francs": {str(B): 14}, "workers": {str(B): 16}}   # 2 workers placed


def test_a_worker_count_the_rules_do_not_give_is_a_mismatch_at_that_turn() -> None:
    t = Table().setup()
    t.turn(A, "bank_4", t.money(A, 4), nxt=B)
    t.turn(B, "bank_4", t.money(B, 4), nxt=A, n=1, canteen=False)   # BGA would have taken 2
    imp = imported(t)
    assert [(m.key, m.bga, m.ours) for m in imp.mismatches] == [(f"workers.{B}", 17, 16)]
    r = replay(loads(dumps(imp.record)))
    assert r.status == DIVERGED and r.divergences[0].key == f"workers.{B}"


def test_an_order_space_card() -> None:
    """placeWorkers on an order space, giveCardTo, the order refill."""
    t = Table().setup()
    t.turn(A, "order_2", t.by(A, "giveCardTo", card={"id": 20, "location": "outstanding"}),
           refills=(t.n("refillOrderSpace", card={"id": 30, "location": "order_2"}),), nxt=B)
    evs = after_setup(events(t))
    assert evs[0]["move"]["space"] == "order_2" and evs[1]["chance"] == {"draw": "orders", "items": ["o30"]}


def test_an_order_space_card_other_than_ours_is_refused() -> None:
    t = Table().setup()
    t.turn(A, "order_2", t.by(A, "giveCardTo", card={"id": 21, "location": "outstanding"}))
    with pytest.raises(BgaImportError, match="BGA gives o21 to 84100001, but our engine gave 84100001 no such card"):
        imported(t)


def draw_five_orders(t: Table, keep: int | None, n: int, end: str) -> None:
    kept = [t.by(A, "giveCardTo", card={"id": keep, "location": "outstanding"})] if keep else []
    t.packet(*t.place(A, "order_draw"), t.state(40, A, []))
    t.packet(*kept, t.by(A, "returnCards", f"${{player_name}} returns ${{n}} cards to the {end} of the deck", n=n),
             t.state(20, A), t.state(70, A))
    t.packet(t.state(10, A), t.state(11, B))


def test_a_draw_five_of_orders_is_private_the_return_unnamed_and_a_refill_from_the_top_a_reveal() -> None:
    """placeWorkers order_draw, gameStateChange 40, giveCardTo (kept), returnCards (top); later
    refillOrderSpace from the returned cards."""
    t = Table().setup()
    draw_five_orders(t, keep=30, n=4, end="top")
    t.turn(B, "order_2", t.by(B, "giveCardTo", card={"id": 20, "location": "outstanding"}),
           refills=(t.n("refillOrderSpace", card={"id": 33, "location": "order_2"}),), nxt=A)
    evs = after_setup(events(t))
    assert evs[1]["chance"] == {"draw": "orders", "items": [None] * 5}
    assert moves(evs)[1:3] == [(str(A), {"type": "keep_order", "card": "o30"}),
                               (str(A), {"type": "return_orders", "to": "top", "cards": [None] * 4})]
    reveal = next(e for e in evs if "reveal" in e.get("chance", {}))
    assert reveal["chance"] == {"reveal": "order_2", "items": ["o33"]}
    assert not any(e.get("chance", {}).get("draw") == "orders" for e in evs[2:])


def test_a_draw_five_of_tiles_with_nothing_kept_goes_to_the_bottom() -> None:
    """placeWorkers factory_draw, gameStateChange 50, returnTiles (bottom) with no giveTileTo."""
    t = Table().setup()
    t.packet(*t.place(A, "factory_draw"), t.state(50, A, []))
    t.packet(t.by(A, "returnTiles", "${player_name} returns ${n} tiles to the bottom of the deck", n=5),
             t.state(20, A), t.state(70, A))
    t.packet(t.state(10, A), t.state(11, B))
    evs = after_setup(events(t))
    assert moves(evs) == [(str(A), {"type": "place_workers", "space": "factory_draw"}),
                          (str(A), {"type": "keep_tile", "tile": None}),
                          (str(A), {"type": "return_tiles", "to": "bottom", "tiles": [None] * 5})]


def test_a_return_whose_message_names_no_end_in_english_is_refused_with_the_reason() -> None:
    """Which end of the deck the items went to is only in BGA's message: a log saved in another
    language (or a message naming no end) is refused there, saying why."""
    t = Table().setup()
    t.packet(*t.place(A, "factory_draw"), t.state(50, A, []))
    t.packet(t.by(A, "returnTiles", "${player_name} remet ${n} tuiles sous la pioche", n=5))
    with pytest.raises(BgaImportError, match=r"\(returnTiles\): only BGA's message says whether the tiles went to "
                                             r"the top or the bottom of the deck, and this one does not say it in English"):
        imported(t)


def test_a_draw_five_whose_placement_bga_deleted_is_restored_from_the_choice_state() -> None:
    """BGA's undo of a draw-five choice deletes the placement's packet too: the choice state
    (gameStateChange 40) is all that is left of it."""
    t = Table().setup()
    t.packet(t.state(40, A, []))                                   # the placement packet is gone
    t.packet(t.state(40, A, []))                                   # the undo's jump back
    t.packet(t.by(A, "returnCards", "${player_name} returns ${n} cards to the bottom of the deck", n=5),
             t.state(20, A), t.state(70, A))
    t.packet(t.state(10, A), t.state(11, B))
    evs = after_setup(events(t))
    assert moves(evs)[0] == (str(A), {"type": "place_workers", "space": "order_draw"})
    assert evs[-1]["observe"] == {"francs": {str(A): 10}, "workers": {str(A): 17}}


def mining(t: Table, player: int, space: str, *ops: dict[str, Any], stop: tuple[int, int] | None = None,
           nxt: int | None = B) -> None:
    steps = int(space.split("_")[1])
    end = [t.by(player, "mediumMessage", a=stop[0], b=stop[1])] if stop else []
    t.turn(player, space, t.by(player, "startMining", n=steps), *ops, *end, nxt=nxt)


def cage(t: Table, player: int, a: int, b: int) -> dict[str, Any]:
    return t.by(player, "movePitCage", a=a, b=b)


def coal(t: Table, player: int, cube: int, where: str, **more: Any) -> dict[str, Any]:
    return t.by(player, "moveCoal", coal={"id": cube, "location": where, "pId": player}, **more)


def test_mining_moves_the_cage_and_the_coal() -> None:
    """startMining, movePitCage, moveCoal to the cage, to storage and onto a card; mediumMessage."""
    t = Table().setup()
    y = START_CUBE[A]["yellow"]
    mining(t, A, "mining_6", cage(t, A, 0, 1), coal(t, A, y, "pit_cage"), cage(t, A, 1, 0),
           coal(t, A, y, "storage"), coal(t, A, y, "card_1_0", card="1", spotIndex="0"), stop=(1, 6))
    assert moves(after_setup(events(t)))[1:] == [
        (str(A), {"type": "move_cage", "level": 1}), (str(A), {"type": "load_coal", "colour": "yellow"}),
        (str(A), {"type": "move_cage", "level": 0}), (str(A), {"type": "store_coal", "colour": "yellow"}),
        (str(A), {"type": "fill_order", "card": "o1", "colour": "yellow", "source": "storage"}),
        (str(A), {"type": "stop_mining"})]


def test_two_cubes_onto_one_space_are_a_substitution_and_all_steps_used_need_no_stop() -> None:
    t = Table().setup()
    y, b = START_CUBE[A]["yellow"], START_CUBE[A]["brown"]
    mining(t, A, "mining_10", cage(t, A, 0, 1), coal(t, A, y, "pit_cage"), cage(t, A, 1, 2),
           coal(t, A, b, "pit_cage"), cage(t, A, 2, 0), coal(t, A, b, "storage"),
           coal(t, A, b, "card_2_0", card="2", spotIndex="0"), coal(t, A, y, "card_2_0", card="2", spotIndex="0"),
           cage(t, A, 0, 4), cage(t, A, 4, 0))
    got = moves(after_setup(events(t)))
    assert got[-1] == (str(A), {"type": "move_cage", "level": 0}) and got[-3] == (
        str(A), {"type": "substitute", "card": "o2", "space": "brown", "cage": ["yellow"], "storage": ["brown"]})


def test_a_cage_move_from_another_level_than_the_log_left_it_is_refused() -> None:
    t = Table().setup()
    mining(t, A, "mining_6", cage(t, A, 2, 1), stop=(5, 6))
    with pytest.raises(BgaImportError, match=r"\(movePitCage\): BGA moves 84100001's cage from level 2, the log"):
        imported(t)


def test_mining_steps_other_than_the_space_gives_are_refused() -> None:
    t = Table().setup()
    t.turn(A, "mining_6", t.by(A, "startMining", n=8))
    with pytest.raises(BgaImportError, match=r"\(startMining\): BGA gives 8 work steps, our engine 6"):
        imported(t)


def test_a_delivery_scores_and_is_checked() -> None:
    """cardDelivered after placeWorkers on a delivery space."""
    t = Table().setup()
    y = START_CUBE[A]["yellow"]
    mining(t, A, "mining_6", cage(t, A, 0, 1), coal(t, A, y, "pit_cage"), cage(t, A, 1, 0),
           coal(t, A, y, "card_1_0", card="1", spotIndex="0"), stop=(2, 6))
    t.turn(B, "bank_1", t.money(B, 1), nxt=A)
    t.turn(A, "delivery_1", t.by(A, "cardDelivered", cardId=1, n=2), nxt=B)
    evs = events(t)
    assert evs[-1]["observe"] == {"francs": {str(A): 10}, "workers": {str(A): 16}, "score": {str(A): 2, str(B): 0}}
    assert replay(loads(dumps(imported(t).record))).divergences == []


def test_a_delivery_of_a_card_our_rules_did_not_deliver_is_refused() -> None:
    t = Table().setup()
    t.turn(A, "delivery_1", t.by(A, "cardDelivered", cardId=1, n=2))
    with pytest.raises(BgaImportError, match="cannot place workers on delivery_1: 84100001 has no completed barrow"):
        imported(t)


def test_skip_turn_of_a_player_who_has_workers_is_refused() -> None:
    t = Table().setup()
    t.packet(t.by(A, "skipTurn"))
    with pytest.raises(BgaImportError, match=r"\(skipTurn\): BGA passes over 84100001, who has 18 workers"):
        imported(t)


def test_an_undone_turn_leaves_only_gaps_in_the_ids() -> None:
    """BGA deletes an undone turn's packets, its private undo checkpoints included: the ids that
    are left have gaps, and the log reads as if the turn had never been tried."""
    t = Table().setup()
    before = len(t.packets)
    t.turn(A, "bank_6", t.money(A, 6), nxt=B)                  # tried, then undone
    t.francs[A] -= 6
    t.workers[A] += 1
    t.on.pop("bank_6")
    del t.packets[before:before + 2]                            # the checkpoint and the placement
    t.packets[before]["data"] = [t.state(11, A)]                # the undo's return to the choice
    t.turn(A, "bank_4", t.money(A, 4), nxt=B)
    ids = [int(p["packet_id"]) for p in t.packets]
    assert ids != list(range(1, len(ids) + 1))
    evs = after_setup(events(t))
    assert moves(evs) == [(str(A), {"type": "place_workers", "space": "bank_4"})]
    assert evs[-1]["observe"] == {"francs": {str(A): 14}, "workers": {str(A): 17}}


def test_a_conceded_game_imports_as_far_as_it_goes() -> None:
    t = Table().setup()
    t.turn(A, "bank_4", t.money(A, 4), nxt=B)
    t.packet(t.n("gameStateChange", id=99, type="manager", args={"table": {"concede": True}, "result": [
        {"player": str(A), "score": "0", "rank": 1, "zombie": 0, "concede": 0},
        {"player": str(B), "score": "0", "rank": 2, "zombie": 0, "concede": 1}]}))
    rec = loads(dumps(imported(t).record))
    assert rec.result is not None and rec.result["end"] == "concede"
    assert replay(rec).status == INCOMPLETE


def test_a_game_bga_ends_normally_before_our_rules_do_is_refused() -> None:
    t = Table().setup()
    t.packet(t.n("gameStateChange", id=99, type="manager", args={"table": {"concede": False}, "result": []}))
    with pytest.raises(BgaImportError, match="the log ends the game, but our engine has not reached the end"):
        imported(t)


def test_a_coal_shortage_is_refused() -> None:
    """BGA's supply (32 per colour) outlasts the 18 minecarts per colour of the tiles: a chooseCoal
    state means a different implementation."""
    t = Table().setup()
    t.packet(t.state(60, A, {"n": 1, "tile": 1, "coalsInReserve": {}}))
    with pytest.raises(BgaImportError, match=r"\(gameStateChange\): a coal shortage \(chooseCoal\)"):
        imported(t)


def test_an_unknown_notification_is_refused() -> None:
    t = Table().setup()
    t.packet(t.by(A, "noPlayerDeliveries"))
    with pytest.raises(BgaImportError, match="unknown notification type 'noPlayerDeliveries'"):
        imported(t)


def test_notifications_a_later_clear_turn_lists_produce_nothing() -> None:
    """clearTurn (with the cancelled uids) and refreshUI, as a log saved live would hold them."""
    t = Table().setup()
    t.packet(*t.place(A, "bank_6"), t.money(A, 6))
    t.francs[A] -= 6
    t.workers[A] += 1
    cancelled = [n["uid"] for n in t.packets[-1]["data"]]
    t.packet(t.by(A, "clearTurn", notifIds=cancelled), t.n("refreshUI", datas={}), t.state(11, A))
    t.turn(A, "bank_4", t.money(A, 4), nxt=B)
    assert moves(after_setup(events(t))) == [(str(A), {"type": "place_workers", "space": "bank_4"})]


# ---- a whole game: shift scorings, first players, final scoring ------------------------


def full_game(majority_points: int = 10, money_points: int = 0) -> Table:
    """Both players take the bank, except that A takes bank_4 twice in shift 1 (bumping itself:
    A runs out first and is skipped) and mines once in shift 3, emptying its printed yellow cart
    (A scores the empty yellow carts majority)."""
    t = Table().setup()
    first = A
    for shift in (1, 2, 3):
        if shift > 1:
            first = B if first == A else A   # nobody stood on the factory: the next player clockwise
        order = [first, B if first == A else A]
        t.on = {}
        t.workers = {A: 18, B: 18}
        k = 0
        while t.workers[A] or t.workers[B]:
            player = order[k % 2]
            k += 1
            if not t.workers[player]:
                t.packets[-1]["data"].insert(-1, t.by(player, "skipTurn"))
                continue
            other = order[k % 2]
            nxt = other if t.workers[other] else player
            done = t.workers[player] == 1 and not t.workers[other]
            if shift == 1 and player == A and t.workers[A] in (18, 17) and "bank_4" not in t.on:
                t.turn(A, "bank_4", t.money(A, 4), nxt=None if done else nxt)
            elif shift == 1 and player == A and t.on.get("bank_4") == 1 and t.workers[A] == 17:
                t.turn(A, "bank_4", t.money(A, 4), nxt=None if done else nxt)
            elif shift == 3 and player == A and t.workers[A] == 18:
                y = START_CUBE[A]["yellow"]
                mining(t, A, "mining_6", cage(t, A, 0, 1), coal(t, A, y, "pit_cage"), cage(t, A, 1, 0),
                       coal(t, A, y, "storage"), stop=(2, 6), nxt=nxt)
            else:
                t.turn(player, "bank_1", t.money(player, 1), nxt=None if done else nxt)
        scoring = [t.state(6, player), t.n("endShift", n=shift, m=3), t.n("startShiftScoring", cards=[], shift=shift)]
        for i in range(1, 4 * shift + 1):
            scoring.append(t.n("startMajorityScoring", shift=shift, i=i))
            if shift == 3 and i == 9:
                scoring.append(t.by(A, "endShiftMajority", p=majority_points, i=9, n=1, pos=1, type="minecart_yellow"))
            scoring.append(t.n("endMajorityScoring", shift=shift, i=i))
        scoring.append(t.n("endShiftScoring", cards=[], shift=shift))
        if shift < 3:
            nxt_first = B if first == A else A
            scoring += [t.state(5, nxt_first), t.n("newShift", n=shift + 1, m=3), t.by(nxt_first, "updateFirstPlayer"),
                        t.state(11, nxt_first)]
        t.packets[-1]["data"].extend(scoring)
    final = [t.state(90, A), t.n("endGameScoring")]
    score = {A: majority_points, B: 0}
    for p in (A, B):
        final.append(t.by(p, "endGameScoringMoney", m=t.francs[p], p=t.francs[p] // 5 + money_points))
        final.append(t.by(p, "endGameScoringCoals", n=4, p=1))
        final.append(t.by(p, "endGameScoringCards", n=3, p=-3))
        score[p] += t.francs[p] // 5 + money_points + 1 - 3
    ranked = sorted((A, B), key=lambda p: (-score[p], -(t.francs[p] % 5)))
    final += [t.state(98, A), t.n("gameStateChange", id=99, type="manager", args={"table": {"concede": False},
              "result": [{"player": str(p), "score": str(score[p]), "rank": ranked.index(p) + 1, "zombie": 0,
                          "concede": 0} for p in (A, B)]}), t.n("simpleNode", "End of game")]
    t.packets[-1]["data"].extend(final)
    return t


def test_a_whole_game_with_its_shift_and_final_scorings_replays_complete() -> None:
    """skipTurn, endShift, startShiftScoring, start/endMajorityScoring, endShiftMajority,
    endShiftScoring, newShift/updateFirstPlayer after a shift, endGameScoring and its items, the
    end of game (simpleNode, state 99)."""
    t = full_game()
    sent = {n["type"] for p in t.packets for n in p["data"]}
    assert {"skipTurn", "moveToCanteen", "endShiftMajority", "simpleNode", "newUndoableStep"} <= sent
    imp = imported(t)
    assert imp.mismatches == []
    rec: Record = loads(dumps(imp.record))
    r = replay(rec)
    assert r.status == COMPLETE, r.divergences[:3]
    assert rec.result is not None and r.totals == rec.result["score"]
    facts = [e.facts for e in rec.events if isinstance(e, ObserveEvent)]
    assert {"shift_ranking": {"3": {"carts_yellow": {str(A): {"value": 1, "rank": 1, "points": 10}}}}} in facts
    assert {"shift_ranking": {"3": {"carts_yellow": {str(B): {"points": 0}}}}} in facts
    assert {"start_player": str(B)} in facts and {"final_scoring": {"end_pit_balance": {
        str(A): {"points": 0}, str(B): {"points": 0}}}} in facts
    assert sum(1 for e in rec.events if isinstance(e, MoveEvent)) > 108
    assert any(isinstance(e, ChanceEvent) for e in rec.events)


def test_a_majority_one_point_off_is_a_divergence_at_that_event_naming_category_and_player() -> None:
    imp = imported(full_game(majority_points=11))
    rec = loads(dumps(imp.record))
    r = replay(rec)
    bad = [d for d in r.divergences if d.key and d.key.startswith("shift_ranking")]
    assert len(bad) == 1
    d = bad[0]
    ev = rec.events[d.seq]
    assert isinstance(ev, ObserveEvent) and ev.facts["shift_ranking"]["3"]["carts_yellow"][str(A)]["points"] == 11
    assert d.key == f"shift_ranking.3.carts_yellow.{A}.points" and (d.recorded, d.replayed) == (11, 10)
    assert "carts_yellow" in d.message and str(A) in d.message and "11" in d.message and "10" in d.message
    assert r.divergences[0] is d   # the first place where the record and the rules part


def test_a_final_money_item_one_point_off_is_a_divergence_there() -> None:
    rec = loads(dumps(imported(full_game(money_points=1)).record))
    d = replay(rec).divergences[0]
    assert d.key == f"final_scoring.end_francs.{A}.points" and d.recorded == d.replayed + 1


# ---- the decks' parts, as the log shows them -------------------------------------------


@given(top=st.integers(0, 6), middle=st.integers(0, 44), bottom=st.integers(0, 6), k=st.integers(0, 8))
def test_a_draw_takes_the_top_then_the_middle_then_the_bottom(top: int, middle: int, bottom: int, k: int) -> None:
    parts = DeckParts(top, middle, bottom)
    a, m, b = parts.draw(k)
    assert a + m + b == min(k, top + middle + bottom)
    assert a == min(k, top) and (m == 0 or a == top) and (b == 0 or m == middle)
    assert (parts.top, parts.middle, parts.bottom) == (top - a, middle - m, bottom - b)
