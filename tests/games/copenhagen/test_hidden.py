"""Unknown cards: starting hands seen from another seat, bound by the moves that spend them.

A record written from one seat (a BGA log, ``simulate --view``) deals the other hands as
``null`` cards.  They count for the hand size; a build or a discard names their colours,
legal when some colours of the unknown cards (allowed by every card seen elsewhere) make it
legal; a ``reveal`` event may show them.
"""

from __future__ import annotations

import copy

import orjson
import pytest
from copenhagen_helpers import GAME, HARBOUR, build, deck, legal, new_game, play, set_deck, set_hand, to_move
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.engine import OVER, ChanceRequest, IllegalMove, ImpossibleChance
from replay.games.copenhagen.rules.harbour import deck_counts
from replay.games.copenhagen.state import CopenhagenState
from replay.record import ChanceEvent, MoveEvent, ObserveEvent, dumps, loads
from replay.replayer import COMPLETE, replay
from replay.simulate import simulate_one


def hidden_game(n: int = 2) -> CopenhagenState:
    """The harbour known, p1's hand seen (red, red), every other hand dealt face down."""
    s = GAME.initial_state([f"p{i + 1}" for i in range(n)], {})
    assert isinstance(s, CopenhagenState)
    s.apply_chance({"draw": "facade", "items": list(HARBOUR)})
    s.apply_chance({"draw": "facade", "items": ["red", "red"]})
    for size in (3, 3, 4)[: n - 1]:
        s.apply_chance({"draw": "facade", "items": [None] * size})
    return s


def test_starting_hands_are_private_draws() -> None:
    s = GAME.initial_state(["p1", "p2"], {})
    t = s.turn()
    assert isinstance(t, ChanceRequest) and t.visible_to is None  # the harbour is face up
    s.apply_chance({"draw": "facade", "items": list(HARBOUR)})
    t = s.turn()
    assert isinstance(t, ChanceRequest) and t.visible_to == ("p1",) and t.count == 2


def test_unknown_cards_count_for_the_hand_and_show_as_a_count() -> None:
    s = hidden_game()
    assert s.observe(["hand_size"]) == {"hand_size": {"p1": 2, "p2": 3}}
    snap = s.snapshot()
    assert snap["players"]["p2"]["hand"] == {"red": 0, "yellow": 0, "green": 0, "blue": 0, "purple": 0, "?": 3}
    assert "?" not in snap["players"]["p1"]["hand"]
    # p2's cards may be any colour the record has not placed elsewhere: the deck is not determined
    assert snap["deck"] is None and snap["deck_size"] == 70 - 7 - 5 + 1


def test_a_build_binds_unknown_cards_to_the_colours_it_pays() -> None:
    s = hidden_game()
    play(s, "p1", {"type": "take_card", "slot": 4})
    play(s, "p1", {"type": "take_card", "slot": 3})
    for c in ("red", "blue"):
        s.apply_chance({"draw": "facade", "items": [c]})
    play(s, "p2", build("green", 3, 0, 0, {"green": 3}, rotation=90))
    p2 = s.seats["p2"]
    assert p2.hand == {} and s.discard["green"] == 3
    assert s.cards.known["green"] == 1 + 3  # the harbour's green and the three paid


def test_a_move_is_legal_when_some_colours_of_the_unknown_cards_make_it_legal() -> None:
    s = hidden_game()
    to_move(s, 1)
    moves = legal(s)
    # three unknown cards may pay any 2- or 3-cell tile, whatever its colour
    assert {m["color"] for m in moves if m["type"] == "build"} == {"red", "yellow", "green", "blue", "purple"}
    assert all(sum(m["pay"].values()) <= 3 for m in moves if m["type"] == "build")
    assert s.legal_count() == len(moves)


def test_a_move_needing_a_card_the_hand_cannot_hold_is_illegal() -> None:
    s = hidden_game()
    to_move(s, 1)
    # every yellow card is placed elsewhere: the unknown cards cannot be yellow
    s.cards.known["yellow"] = 14
    with pytest.raises(IllegalMove, match="p2 cannot pay 2 yellow cards for the 2-cell yellow tile: p2 holds 3 "
                                          "unknown"):
        play(s, "p2", build("yellow", 2, 0, 0, {"yellow": 2}))
    assert not any(m["type"] == "build" and m["color"] == "yellow" for m in legal(s))
    with pytest.raises(IllegalMove, match="p2 cannot pay 4 red cards"):
        play(s, "p2", build("red", 4, 0, 0, {"red": 4}))  # more cards than the hand holds


def test_a_hand_limit_discard_names_an_unknown_card() -> None:
    s = hidden_game()
    to_move(s, 1)
    set_hand(s, "p2", blue=1, unknown=6)
    play(s, "p2", {"type": "take_card", "slot": 0})
    assert s.must_discard
    assert [m["color"] for m in legal(s)] == ["red", "yellow", "green", "blue", "purple"]
    play(s, "p2", {"type": "discard", "color": "purple"})
    assert s.seats["p2"].hand == {"blue": 1, "red": 1, None: 5} and s.discard["purple"] == 1


def test_a_reveal_binds_unknown_cards_and_refuses_the_impossible() -> None:
    s = hidden_game()
    s.apply_chance({"reveal": "hand:p2", "items": ["blue", "blue"]})
    assert s.seats["p2"].hand == {"blue": 2, None: 1}
    s.cards.known["green"] = 14
    with pytest.raises(ImpossibleChance, match="p2's hand: cannot show 'green'"):
        s.apply_chance({"reveal": "hand:p2", "items": ["green"]})
    with pytest.raises(ImpossibleChance, match="p1's hand: cannot show 'blue'"):
        s.apply_chance({"reveal": "hand:p1", "items": ["blue"]})  # p1's hand is all known
    with pytest.raises(ImpossibleChance, match="only in a hand"):
        s.apply_chance({"reveal": "deck", "items": ["blue"]})


def test_a_refill_cannot_show_a_colour_every_copy_of_which_is_placed() -> None:
    s = hidden_game()
    play(s, "p1", {"type": "take_card", "slot": 4})
    play(s, "p1", {"type": "take_card", "slot": 3})
    s.cards.known["blue"] = 14
    with pytest.raises(ImpossibleChance, match="'blue' cannot be drawn"):
        s.apply_chance({"draw": "facade", "items": ["blue"]})


def test_a_rebuilt_deck_is_exactly_the_discard_pile_whatever_the_hands_hide() -> None:
    """After a rebuild the hands' unknown cards keep their own account: a refill may show only
    what the pile held, even though a hand's unknown card could be another colour."""
    s = hidden_game(3)
    set_deck(s)  # the deck is empty, the pile holds two reds
    s.discard = {"red": 2, "yellow": 0, "green": 0, "blue": 0, "purple": 0}
    play(s, "p1", {"type": "take_card", "slot": 4})
    play(s, "p1", {"type": "take_card", "slot": 3})
    with pytest.raises(ImpossibleChance, match="'blue'"):
        s.apply_chance({"draw": "facade", "items": ["blue"]})
    s.apply_chance({"draw": "facade", "items": ["red"]})
    assert s.rebuilds == 1 and deck(s) == {"red": 1, "yellow": 0, "green": 0, "blue": 0, "purple": 0}
    # the hidden hands still may hold blue cards: a build binds them in the original family
    to_move(s, 1)
    play(s, "p2", build("blue", 2, 0, 0, {"blue": 2}))
    assert s.seats["p2"].hand == {None: 1}


def test_a_face_up_harbour_card_the_record_does_not_name() -> None:
    s = GAME.initial_state(["p1", "p2"], {})
    s.apply_chance({"draw": "facade", "items": ["red", None, "blue", "blue", "green", "purple", "yellow"]})
    for size in (2, 3):
        s.apply_chance({"draw": "facade", "items": ["red"] * size})
    assert s.observe(["harbour"]) == {"harbour": ["red", "?", "blue", "blue", "green", "purple", "yellow"]}
    play(s, "p1", {"type": "take_card", "slot": 1})
    assert s.seats["p1"].hand == {"red": 2, None: 1}
    play(s, "p1", {"type": "take_card", "slot": 0})
    s.apply_chance({"draw": "facade", "items": ["green"]})
    s.apply_chance({"draw": "facade", "items": ["green"]})
    assert s.snapshot()["harbour"] == ["green", "green", "blue", "blue", "green", "purple", "yellow"]


def test_known_records_keep_their_exact_deck() -> None:
    s = new_game()  # two players: the harbour and both hands known
    assert deck_counts(s) == {"red": 14 - 2 - 2, "yellow": 14 - 2, "green": 13, "blue": 14 - 1 - 3, "purple": 13}
    assert s.snapshot()["deck"] == deck(s)
    assert all("?" not in p["hand"] for p in s.snapshot()["players"].values())


# ---- seat views: simulated, replayed, corrupted ---------------------------------


@pytest.mark.parametrize("n,view", [(2, "p2"), (3, "p2"), (4, "p3"), (2, "p1")])
def test_seat_view_records_replay_complete(n: int, view: str) -> None:
    for i in range(3):
        rec = simulate_one(GAME, n, 71, i, view=view)
        assert rec.source["view"] == view
        hands = [ev for ev in rec.events[1: 1 + n]]
        for pid, ev in zip(rec.player_ids, hands):
            items = ev.outcome["items"]  # type: ignore[union-attr]
            assert (None in items) == (pid != view)
        r = replay(loads(dumps(rec)))
        assert r.status == COMPLETE, r.divergences[:2]


def _seat_record() -> tuple[list[dict[str, object]], dict[str, object]]:
    rec = simulate_one(GAME, 2, 5, 0, view="p2")
    raw = orjson.loads(dumps(rec))
    return raw["events"], raw


def test_corrupted_seat_view_a_revealed_card_that_could_not_be_in_that_hand() -> None:
    events, raw = _seat_record()
    # after the setup, reveal three yellow cards in p1's two-card hand
    raw2 = copy.deepcopy(raw)
    raw2["events"].insert(4, {"chance": {"reveal": "hand:p1", "items": ["yellow"] * 3}})
    r = replay(loads(orjson.dumps(raw2)))
    d = r.first_divergence
    assert d is not None and (d.seq, d.kind) == (4, "impossible_chance")
    assert "p1's hand: cannot show 3 'yellow'" in d.message


def test_corrupted_seat_view_a_move_needing_a_card_the_hand_cannot_hold() -> None:
    events, raw = _seat_record()
    i = next(i for i, e in enumerate(events) if e.get("player") == "p1" and e["move"]["type"] == "build")
    raw2 = copy.deepcopy(raw)
    move = raw2["events"][i]["move"]
    size = move["size"]
    move.update({"pay": {move["color"]: size + 4}})  # more cards of the colour than p1 can hold
    r = replay(loads(orjson.dumps(raw2)))
    d = r.first_divergence
    assert d is not None and (d.seq, d.kind) == (i, "illegal_move")
    assert d.message.startswith("p1 pays") or "cannot pay" in d.message


def test_seat_view_observations_are_the_seats_own() -> None:
    rec = simulate_one(GAME, 3, 9, 1, view="p3")
    hashes = [ev for ev in rec.events if isinstance(ev, ObserveEvent) and "state_hash" in ev.facts]
    assert hashes and replay(rec).status == COMPLETE


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), n=st.integers(min_value=2, max_value=4))
def test_seen_from_one_seat_every_move_played_is_listed_and_counted(seed: int, n: int) -> None:
    """In the seat's own replay (unknown cards in the other hands) the move each player really
    made is among the legal moves, and ``legal_count`` counts exactly the listed moves."""
    view = f"p{1 + seed % n}"
    rec = simulate_one(GAME, n, seed, 0, view=view)
    s = GAME.initial_state(rec.player_ids, rec.options)
    for seq, ev in enumerate(rec.events):
        s.seq = seq
        if isinstance(ev, MoveEvent):
            moves = [m.to_dict() for m in s.legal_moves()]
            assert ev.move.to_dict() in moves, (seq, ev.move)
            if seq % 4 == 0:
                assert s.legal_count() == len(moves)
            s.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            s.apply_chance(ev.outcome)
    assert s.turn() is OVER
