"""A player who leaves the table (BGA's zombie, the core's ``leave_table``), over every title.

Only the ``bga`` ruleset knows it; Copenhagen, Coal Baron and Pax Pamir say what BGA's zombie does
(a pass, with no notification; in Pax Pamir one fixed answer per step; in Coal Baron, at a
draw-five's choice, the items stay aside). Elsewhere the move is refused
and the state is left as it was.
A player who left decides nothing again but what BGA logs of its zombie (a Pax Pamir pass), and the
game still ends."""

from __future__ import annotations

import random

import orjson
import pytest

from replay.decisions import LEAVE_TABLE, LeaveTable, TaskState
from replay.engine import OVER, ChanceRequest, IllegalMove, Move, RuleViolation, State
from replay.games import available, get_game
from replay.record import ChanceEvent, Event, MoveEvent, Record, dumps, loads
from replay.replayer import replay
from replay.simulate import sample_outcome

SUPPORTED = ("copenhagen", "coal_baron", "pax_pamir")


def _chance_settled(s: State, rng: random.Random) -> None:
    while isinstance(t := s.turn(), ChanceRequest):
        s.apply_chance(sample_outcome(t, rng))


def _game_at(game_id: str, ruleset: str, decisions: int, seed: int = 3) -> tuple[State, random.Random]:
    """A 3-player game of ``game_id`` after ``decisions`` random decisions."""
    rng = random.Random(seed)
    s = get_game(game_id).initial_state(["a", "b", "c"], {"ruleset": ruleset})
    for _ in range(decisions):
        _chance_settled(s, rng)
        t = s.turn()
        assert isinstance(t, str)
        s.apply_move(t, rng.choice(list(s.legal_moves())))
    _chance_settled(s, rng)
    return s, rng


REFUSED = [(g, "official", "only Board Game Arena's ruleset") for g in available()] + [
    (g, "bga", "do not know how Board Game Arena plays") for g in sorted(set(available()) - set(SUPPORTED))]
"""The rulebook knows no player who leaves; under BGA's ruleset, a title without BGA's zombie rule."""


@pytest.mark.parametrize(("game_id", "ruleset", "reason"), REFUSED)
def test_leaving_is_refused_and_changes_nothing(game_id: str, ruleset: str, reason: str) -> None:
    s, _ = _game_at(game_id, ruleset, 12)
    t = s.turn()
    assert isinstance(t, str)
    before = orjson.dumps(s.snapshot())
    with pytest.raises(IllegalMove, match=reason):
        s.apply_move(t, LEAVE_TABLE)
    assert orjson.dumps(s.snapshot()) == before
    assert s.left == () and LEAVE_TABLE not in list(s.legal_moves())


def _until_coal_baron_decision(s: State, rng: random.Random, *kinds: str) -> None:
    """Play Coal Baron at random until the decision awaited is of one of ``kinds``."""
    while s.snapshot()["decision"]["kind"] not in kinds:
        t = s.turn()
        assert isinstance(t, str)
        s.apply_move(t, rng.choice(list(s.legal_moves())))
        _chance_settled(s, rng)


def _play_out(s: State, rng: random.Random) -> tuple[list[str], list[Move]]:
    """Play ``s`` to its end at random; who decided and what, in order.  Whoever left is given only the
    move BGA's zombie logs there (:meth:`~replay.decisions.TaskState.answer_for_left`), and
    anything else of theirs, leaving again included, is refused and changes nothing."""
    deciders: list[str] = []
    made: list[Move] = []
    while (t := s.turn()) is not OVER:
        if isinstance(t, ChanceRequest):
            s.apply_chance(sample_outcome(t, rng))
            continue
        moves = list(s.legal_moves())
        assert LEAVE_TABLE not in moves
        if t in s.left:
            assert isinstance(s, TaskState)
            assert moves == [s.answer_for_left(s.stack[-1])]
            before = orjson.dumps(s.snapshot())
            with pytest.raises(IllegalMove, match="left the table: Board Game Arena's zombie plays for them"):
                s.apply_move(t, LEAVE_TABLE)
            assert orjson.dumps(s.snapshot()) == before
        deciders.append(t)
        made.append(rng.choice(moves))
        s.apply_move(t, made[-1])
    return deciders, made


@pytest.mark.parametrize("game_id", SUPPORTED)
@pytest.mark.parametrize("at", [10, 37, 61])
def test_who_left_decides_only_what_bga_logs_and_the_game_ends(game_id: str, at: int) -> None:
    s, rng = _game_at(game_id, "bga", at, seed=at)
    if game_id == "coal_baron":
        _until_coal_baron_decision(s, rng, "place", "mining")
    leaver = s.turn()
    assert isinstance(leaver, str)
    s.apply_move(leaver, LEAVE_TABLE)
    assert s.left == (leaver,)
    assert s.snapshot()["left"] == [leaver]
    deciders, made = _play_out(s, rng)
    assert deciders and set(deciders) - {leaver} == {"a", "b", "c"} - {leaver}
    theirs = [m for p, m in zip(deciders, made, strict=True) if p == leaver]  # each its title's answer (_play_out)
    logs_answers = type(s).answer_for_left is not TaskState.answer_for_left  # a Pax Pamir pass
    assert bool(theirs) == logs_answers


@pytest.mark.parametrize("game_id", SUPPORTED)
def test_a_record_with_a_player_who_left_replays_complete(game_id: str) -> None:
    """The move in a record: written, read back and replayed through the checked path, complete."""
    game = get_game(game_id)
    rng = random.Random(5)
    st = game.initial_state(["a", "b", "c"], {"ruleset": "bga"})
    events: list[Event] = []
    decisions = 0
    while (t := st.turn()) is not OVER:
        if isinstance(t, ChanceRequest):
            out = sample_outcome(t, rng)
            st.apply_chance(out)
            events.append(ChanceEvent(out))
            continue
        mv = LEAVE_TABLE if decisions == 20 else rng.choice(list(st.legal_moves()))
        decisions += 1
        st.apply_move(t, mv)
        events.append(MoveEvent(t, mv))
    rec = Record(game=game_id, id="left", players=[{"id": p} for p in ("a", "b", "c")], events=events,
                 options={"ruleset": "bga"}, result={"score": st.totals(), "rank": st.ranking(), "end": "zombie"})
    again = loads(dumps(rec))
    left = [e for e in again.events if isinstance(e, MoveEvent) and isinstance(e.move, LeaveTable)]
    assert len(left) == 1
    result = replay(again)
    assert result.status == "complete", result.divergences[:3]
    assert result.state is not None and result.state.left == (left[0].player,)
    assert "leaves the table" in result.state.describe_move(left[0].player, left[0].move)


@pytest.mark.parametrize("picks_before", [0, 4])
def test_coal_baron_who_leaves_in_the_draft_leaves_the_others_all_cards_but_one(picks_before: int) -> None:
    """BGA's zombie passes at each of its picks, and its draft goes on round the table until one card
    is left: the two who stay draft nine of the ten cards between them, in turn."""
    s, rng = _game_at("coal_baron", "bga", picks_before, seed=1)
    leaver = s.turn()
    assert isinstance(leaver, str) and s.snapshot()["decision"]["kind"] == "draft"
    had = len(s.snapshot()["players"][leaver]["outstanding"])
    s.apply_move(leaver, LEAVE_TABLE)
    assert s.departures[-1]["rule"] == "draft_goes_on_without_who_left"
    pickers = []
    while s.snapshot()["decision"]["kind"] == "draft":
        t = s.turn()
        assert isinstance(t, str) and t != leaver
        pickers.append(t)
        s.apply_move(t, rng.choice(list(s.legal_moves())))
        _chance_settled(s, rng)
    assert len(pickers) == 9 - picks_before and all(a != b for a, b in zip(pickers, pickers[1:]))
    held = {p: len(v["outstanding"]) for p, v in s.snapshot()["players"].items()}
    assert held[leaver] == had and sum(held.values()) == 9 and s.snapshot()["board"]["orders"]["order_4"]


def _until_coal_baron_draws(s: State, rng: random.Random, space: str, kind: str) -> None:
    """Play Coal Baron, taking ``space`` whenever it is legal, until the decision is ``kind``."""
    while s.snapshot()["decision"]["kind"] != kind:
        t = s.turn()
        assert isinstance(t, str)
        moves = list(s.legal_moves())
        draw = [m for m in moves if getattr(m, "space", "") == space]
        s.apply_move(t, draw[0] if draw else rng.choice(moves))
        _chance_settled(s, rng)


def _deck_size(s: State, deck: str) -> int:
    d = s.snapshot()["decks"][deck]
    return len(d["top"]) + d["hidden"] + len(d["bottom"])


@pytest.mark.parametrize(("space", "kind", "deck", "back"), [
    ("factory_draw", "keep_tile", "tiles", "return_tiles"), ("order_draw", "keep_order", "orders", "return_orders")])
def test_coal_baron_who_leaves_at_a_draw_five_leaves_the_items_aside(space: str, kind: str, deck: str,
                                                                     back: str) -> None:
    """BGA's zombie passes at a draw-five's choice: nothing kept, nothing put back, the items stay
    aside; the next draw-five of that deck shows them first, with its own, and all the rest go back."""
    s, rng = _game_at("coal_baron", "bga", 0, seed=1)
    _until_coal_baron_draws(s, rng, space, kind)
    leaver = s.turn()
    assert isinstance(leaver, str)
    shown = s.snapshot()["decision"]["revealed"]
    in_deck = _deck_size(s, deck)
    s.apply_move(leaver, LEAVE_TABLE)
    snap = s.snapshot()
    assert s.left == (leaver,) and snap["aside"][deck] == shown and len(shown) == 5
    assert _deck_size(s, deck) == in_deck and snap["decision"]["kind"] not in (kind, back)
    assert s.departures[-1]["rule"] == "draw_five_left_aside"
    _until_coal_baron_draws(s, rng, space, kind)
    chooser = s.turn()
    revealed = s.snapshot()["decision"]["revealed"]
    assert chooser != leaver and revealed[:5] == shown and len(revealed) == 10
    left_in_deck = _deck_size(s, deck)
    assert "aside" not in s.snapshot() and s.departures[-1]["rule"] == "draw_five_left_aside"
    keep = next(m for m in s.legal_moves() if m.to_dict().get("tile" if deck == "tiles" else "card") is None)
    s.apply_move(chooser, keep)
    field = "tiles" if deck == "tiles" else "cards"
    move_type = type(next(iter(s.legal_moves())))
    before = orjson.dumps(s.snapshot())
    with pytest.raises(IllegalMove, match="must put back exactly"):
        s.apply_move(chooser, move_type(to="top", **{field: tuple(revealed[5:])}))
    assert orjson.dumps(s.snapshot()) == before
    s.apply_move(chooser, move_type(to="top", **{field: tuple(revealed)}))
    assert _deck_size(s, deck) == left_in_deck + 10


def test_coal_baron_shift_ends_when_only_who_left_holds_workers() -> None:
    """BGA ends the shift when only zombies still hold workers: their workers stay unplaced."""
    s, rng = _game_at("coal_baron", "bga", 0, seed=2)
    _until_coal_baron_decision(s, rng, "place")
    leaver = s.turn()
    assert isinstance(leaver, str)
    shift, held = s.snapshot()["shift"], s.snapshot()["players"][leaver]["workers"]
    s.apply_move(leaver, LEAVE_TABLE)
    while s.snapshot()["shift"] == shift:
        t = s.turn()
        if isinstance(t, ChanceRequest):
            s.apply_chance(sample_outcome(t, rng))
            continue
        assert t != leaver
        assert s.snapshot()["players"][leaver]["workers"] == held  # never placed
        s.apply_move(t, rng.choice(list(s.legal_moves())))
    assert held > 0 and s.snapshot()["shift"] == shift + 1


def _coal_baron_awaiting_a_refill(ruleset: str) -> tuple[State, str, list[str]]:
    """Coal Baron right after a turn that emptied display spaces: the refill awaits its draw.  The
    player whose turn it was, and the spaces to refill."""
    from replay.games.coal_baron.rules.turns import Refill, WorkPhaseTask

    s = get_game("coal_baron").initial_state(["a", "b", "c"], {"ruleset": ruleset})
    rng = random.Random(4)
    last = None
    while True:
        t = s.turn()
        if isinstance(t, ChanceRequest):
            stack = s.stack
            if last is not None and isinstance(stack[-1], Refill) and type(stack[-2]) is WorkPhaseTask:
                return s, last, list(stack[-1].slots)
            s.apply_chance(sample_outcome(t, rng))
            continue
        assert isinstance(t, str)
        last = t
        s.apply_move(t, rng.choice(list(s.legal_moves())))


def test_coal_baron_who_leaves_before_confirming_skips_the_refill_of_their_turn() -> None:
    """BGA's zombie passes the turn's confirmation, and the refill with it: the next player's turn
    begins at once, and the refill after it fills the spaces of both turns."""
    from replay.games.coal_baron.rules.turns import Refill

    s, leaver, empty = _coal_baron_awaiting_a_refill("bga")
    s.apply_move(leaver, LEAVE_TABLE)
    nxt = s.turn()
    assert s.left == (leaver,) and isinstance(nxt, str) and nxt != leaver
    rng = random.Random(1)
    while isinstance(s.turn(), str):
        s.apply_move(s.turn(), rng.choice(list(s.legal_moves())))  # the next player's turn
    refill = s.stack[-1]
    assert isinstance(refill, Refill) and set(empty) <= set(refill.slots)


@pytest.mark.parametrize("ruleset", ["bga", "official"])
def test_coal_baron_refuses_a_leave_before_a_refill_by_another_player(ruleset: str) -> None:
    s, leaver, _ = _coal_baron_awaiting_a_refill(ruleset)
    other = next(p for p in ("a", "b", "c") if p != leaver)
    before = orjson.dumps(s.snapshot())
    for who in ([leaver, other] if ruleset == "official" else [other]):
        with pytest.raises(RuleViolation, match="the rules first await"):
            s.apply_move(who, LEAVE_TABLE)
    assert orjson.dumps(s.snapshot()) == before and s.left == ()
