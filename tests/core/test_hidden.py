"""Hidden information: the partly-known deck, zones with unknown cards, seat views.

The unit tests pin the accounting (what an unknown card may still be); the
toy game with hidden hands (tests/handtoy.py) drives the whole path: a record
with unknown draws, a move that binds an unknown card, a ``reveal`` event, and
the corruptions a seat-view record can carry.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from replay.engine import IllegalMove, ImpossibleChance
from replay.games import available, get_game
from replay.hidden import HiddenPool, PartlyKnownDeck, add, could_hold, reveal_in, take, zone_snapshot
from replay.record import ChanceEvent, MoveEvent, Record, RecordError, dumps, loads
from replay.replayer import replay
from replay.simulate import simulate_one

COLOURS = {"red": 3, "blue": 2, "green": 1}


def pool() -> HiddenPool:
    return HiddenPool("deck", COLOURS)


# ---- HiddenPool -------------------------------------------------------------


def test_pool_accounts_for_seen_cards() -> None:
    p = pool()
    assert p.unknown == 6 and p.possible() == (("red", 3), ("blue", 2), ("green", 1))
    p.see("green", "p1's hand")
    assert not p.could_be("green") and p.unknown == 5
    assert p.possible() == (("red", 3), ("blue", 2))
    with pytest.raises(ImpossibleChance, match="the only copy of it"):
        p.see("green", "p2's hand")
    with pytest.raises(ImpossibleChance, match="no 'purple'"):
        p.see("purple", "p2's hand")


def test_hide_makes_a_card_unknown_again() -> None:
    p = pool()
    p.see("blue", "x")
    p.see("blue", "x")
    assert not p.could_be("blue")
    p.hide("blue")
    assert p.unaccounted("blue") == 1 and p.unknown == 5
    with pytest.raises(ValueError):
        p.hide("green")


def test_copy_is_independent() -> None:
    p = pool()
    q = p.copy()
    q.see("red", "x")
    assert p.unaccounted("red") == 3 and q.unaccounted("red") == 2


# ---- zones --------------------------------------------------------------------


def test_could_hold_is_exact() -> None:
    p = pool()
    hand: dict[object, int] = {}
    add(hand, ["red", None, None])
    assert could_hold(hand, {"red": 1}, p)
    assert could_hold(hand, {"red": 3}, p)  # one known + two unknown reds
    assert could_hold(hand, {"blue": 2}, p)
    assert not could_hold(hand, {"green": 2}, p)  # only one green exists
    assert not could_hold(hand, {"blue": 1, "green": 1, "red": 2}, p)  # needs 3 unknowns, has 2
    p.see("green", "elsewhere")
    assert not could_hold(hand, {"green": 1}, p)


def test_take_spends_known_copies_before_binding_unknowns() -> None:
    p = pool()
    hand: dict[object, int] = {}
    add(hand, ["red", None])
    p.see("red", "deal")
    take(hand, "red", p, "p1 plays")
    assert hand == {None: 1} and p.unaccounted("red") == 2
    take(hand, "blue", p, "p1 plays")
    assert hand == {} and p.unaccounted("blue") == 1


def test_take_refuses_a_card_the_hand_cannot_hold() -> None:
    p = pool()
    p.see("green", "elsewhere")
    hand: dict[object, int] = {None: 2}
    with pytest.raises(IllegalMove, match="needs 1 'green'.*only 0 'green' card"):
        take(hand, "green", p, "p2 plays")
    assert hand == {None: 2} and p.unaccounted("green") == 0  # nothing changed
    with pytest.raises(IllegalMove, match="needs 3 'red'.*holds 0 and 2 unknown"):
        take(hand, "red", p, "p2 plays", n=3)


def test_reveal_binds_unknowns_and_accepts_known_copies() -> None:
    p = pool()
    hand: dict[object, int] = {}
    add(hand, ["blue", None, None])
    p.see("blue", "deal")
    reveal_in(hand, ["blue", "red"], p, "p2's hand")
    assert hand == {"blue": 1, "red": 1, None: 1}
    assert p.unaccounted("red") == 2
    with pytest.raises(ImpossibleChance, match="cannot show 'green', 2 'blue'"):
        reveal_in(hand, ["green", "blue", "blue"], p, "p2's hand")  # two cards missing, one unknown
    assert hand == {"blue": 1, "red": 1, None: 1}


def test_reveal_of_an_exhausted_identity_is_impossible() -> None:
    p = pool()
    p.see("green", "elsewhere")
    hand: dict[object, int] = {None: 1}
    with pytest.raises(ImpossibleChance, match="cannot show 'green'"):
        reveal_in(hand, ["green"], p, "p2's hand")
    assert hand == {None: 1}


def test_zone_snapshot_shows_unknown_as_a_count() -> None:
    hand: dict[object, int] = {}
    add(hand, ["red", None, "blue", None])
    assert zone_snapshot(hand, COLOURS) == {"red": 1, "blue": 1, "?": 2}


# ---- the partly-known deck ------------------------------------------------------


def test_deck_draws_and_put_back() -> None:
    d = PartlyKnownDeck("deck", pool())
    assert len(d) == 6 and d.hidden == 6
    req = d.request(2, "deal", visible_to=("p1",))
    assert req.pool == (("red", 3), ("blue", 2), ("green", 1)) and req.visible_to == ("p1",)
    d.draw_hidden(["green", None], "deal")
    assert d.hidden == 4 and d.pool.unaccounted("green") == 0
    assert d.request(1).pool == (("red", 3), ("blue", 2))
    d.put_back(["green"], "bottom")
    d.put_back([None], "top")
    assert len(d) == 6 and d.snapshot() == {"top": [None], "hidden": 4, "bottom": ["green"]}
    assert d.take_top(1) == [None] and d.take_bottom(1) == ["green"]
    with pytest.raises(ImpossibleChance, match="has only 4 shuffled"):
        d.draw_hidden([None] * 5, "draw")


def test_shuffle_in_forgets_identities() -> None:
    d = PartlyKnownDeck("deck", pool())
    d.draw_hidden(["green"], "x")
    d.shuffle_in(["green"])
    assert d.hidden == 6 and d.pool.could_be("green")


ITEMS = st.sampled_from([None, "red", "blue", "green", "purple", 0, 1, True, ["red"], ("red",)])


@settings(max_examples=300, deadline=None)
@given(seen=st.lists(st.sampled_from(["red", "blue", "green"]), max_size=5),
       off=st.sampled_from([0, 0, 0, 1, -1]), items=st.lists(ITEMS, min_size=1, max_size=4),
       deck=st.sampled_from(["deck", "other"]), shape=st.sampled_from(["items", "none", "tuple"]))
@example(seen=[], off=0, items=["purple"], deck="deck", shape="items")
@example(seen=["green"], off=0, items=["green"], deck="deck", shape="items")
@example(seen=["green"], off=0, items=["blue", "blue", "blue"], deck="deck", shape="items")
def test_admits_is_what_the_pool_admits(seen: list[str], off: int, items: list[object], deck: str,
                                        shape: str) -> None:
    """A draw a deck admits without its pool (the chance steps' fast path) passes the generic
    check against the pool, and for plain items (names, numbers, face down) exactly those do."""
    from replay.engine import check_outcome_form

    count = max(1, len(items) + off)
    p = pool()
    for c in seen:
        if p.could_be(c):
            p.see(c, "somewhere")
    d = PartlyKnownDeck("deck", p)
    outcome: dict[str, object] = {"draw": deck}
    if shape == "items":
        outcome["items"] = items
    elif shape == "tuple":
        outcome["items"] = tuple(items)
    quick = d.admits(outcome, count)
    try:
        check_outcome_form(d.request(count), outcome)
        pooled = True
    except (ImpossibleChance, TypeError):  # (TypeError: an unhashable item, which the pool cannot hold)
        pooled = False
    if quick:
        assert pooled
    elif all(i is None or type(i) in (str, int) for i in items):
        assert not pooled


# ---- records with unknown items (the hidden-hand toy) -----------------------------


def toy_record(events: list[object], players: int = 2) -> Record:
    return loads(dumps(Record(game="handtoy", id="t", players=[{"id": f"p{i + 1}"} for i in range(players)],
                              events=events)))  # type: ignore[arg-type]


def test_unknown_items_are_valid_in_records_and_old_records_stay_valid() -> None:
    rec = loads(b'{"format":"gamerec/1","game":"handtoy","id":"x","players":[{"id":"p1"},{"id":"p2"}],'
                b'"events":[{"chance":{"draw":"deck","items":["red",null]}},'
                b'{"chance":{"reveal":"hand:p1","items":["blue"]}}]}')
    assert rec.events[0].to_dict() == {"chance": {"draw": "deck", "items": ["red", None]}}
    r = replay(rec)
    assert r.status == "incomplete", r.divergences
    assert r.state is not None and r.state.snapshot()["hands"]["p1"] == {"red": 1, "blue": 1}


def test_a_revealed_item_cannot_be_null() -> None:
    with pytest.raises(RecordError, match=r"items\[0\]: a revealed item cannot be unknown"):
        loads(b'{"format":"gamerec/1","game":"handtoy","id":"x","players":[{"id":"p1"},{"id":"p2"}],'
              b'"events":[{"chance":{"reveal":"hand:p1","items":[null]}}]}')


def test_a_move_binds_an_unknown_card() -> None:
    rec = toy_record([ChanceEvent({"draw": "deck", "items": [None, None]}),
                      ChanceEvent({"draw": "deck", "items": ["red", "red"]}),
                      MoveEvent("p1", get_game("handtoy").parse_move({"type": "play", "colour": "green"}))])
    r = replay(rec)
    assert r.status == "incomplete", r.divergences
    assert r.state is not None and r.state.snapshot()["hands"]["p1"] == {"?": 1}
    assert r.totals == {"p1": 3, "p2": 0}


def test_a_move_needing_a_card_the_hand_cannot_hold_is_illegal_at_that_event() -> None:
    play = get_game("handtoy").parse_move
    rec = toy_record([ChanceEvent({"draw": "deck", "items": [None, None]}),
                      ChanceEvent({"draw": "deck", "items": ["green", "red"]}),
                      MoveEvent("p1", play({"type": "play", "colour": "green"}))])
    r = replay(rec)
    assert r.status == "diverged"
    d = r.divergences[0]
    assert (d.seq, d.kind) == (2, "illegal_move") and "green" in d.message


def test_an_impossible_revelation_is_caught_at_that_event() -> None:
    rec = toy_record([ChanceEvent({"draw": "deck", "items": [None, None]}),
                      ChanceEvent({"draw": "deck", "items": ["blue", "red"]}),
                      ChanceEvent({"reveal": "hand:p1", "items": ["blue", "blue"]})])
    r = replay(rec)
    d = r.divergences[0]
    assert (d.seq, d.kind) == (2, "impossible_chance") and "cannot show 2 'blue'" in d.message


def test_a_known_draw_of_a_card_held_unknown_elsewhere_is_still_possible() -> None:
    # p1 holds two unknown cards; the deck may still yield the green (p1's cards may be anything)
    rec = toy_record([ChanceEvent({"draw": "deck", "items": [None, None]}),
                      ChanceEvent({"draw": "deck", "items": ["green", "blue"]}),
                      ChanceEvent({"reveal": "hand:p1", "items": ["green"]})])
    r = replay(rec)
    assert r.divergences[0].kind == "impossible_chance" and r.divergences[0].seq == 2


def test_reveal_of_an_unknown_zone_is_impossible_chance() -> None:
    rec = toy_record([ChanceEvent({"reveal": "discard", "items": ["red"]})])
    assert replay(rec).divergences[0].kind == "impossible_chance"


# ---- simulate from one seat -----------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(index=st.integers(0, 10_000), players=st.integers(2, 3), seat=st.integers(1, 3))
def test_seat_view_records_hide_others_draws_and_replay_complete(index: int, players: int, seat: int) -> None:
    game = get_game("handtoy")
    view = f"p{min(seat, players)}"
    full = simulate_one(game, players, 5, index)
    seen = simulate_one(game, players, 5, index, view=view)
    assert f"-view-{view}-" in seen.id and seen.source and seen.source["view"] == view
    r = replay(loads(dumps(seen)))
    assert r.status == "complete", r.divergences[:2]
    assert r.totals == replay(full).totals
    unknown_owners = set()
    for ev in seen.events[:players]:  # the starting hands
        assert isinstance(ev, ChanceEvent)
    for i, ev in enumerate(seen.events[:players]):
        if None in ev.outcome["items"]:  # type: ignore[union-attr]
            unknown_owners.add(f"p{i + 1}")
    assert unknown_owners == {f"p{i + 1}" for i in range(players)} - {view}


def _p2_moves(rec: Record) -> list[int]:
    return [i for i, ev in enumerate(rec.events) if isinstance(ev, MoveEvent) and ev.player == "p2"]


def test_seat_view_revelation_that_could_not_be_in_that_hand_is_caught() -> None:
    seen = loads(dumps(simulate_one(get_game("handtoy"), 2, 5, 1, view="p1", observe_every=0)))
    i = _p2_moves(seen)[0]
    colour = seen.events[i].move.colour  # type: ignore[union-attr]
    # p2's hand is unknown to p1; showing more copies of a colour than exist there is impossible
    seen.events.insert(i, ChanceEvent({"reveal": "hand:p2", "items": [colour] * (COLOURS[colour] + 1)}))
    d = replay(seen).divergences[0]
    assert (d.seq, d.kind) == (i, "impossible_chance")


def test_seat_view_move_needing_a_card_the_hand_cannot_hold_is_caught() -> None:
    play = get_game("handtoy").parse_move
    for index in range(40):
        seen = loads(dumps(simulate_one(get_game("handtoy"), 2, 5, index, view="p1", observe_every=0)))
        for i in _p2_moves(seen):
            before = replay(seen, until=i - 1, keep_frames=False).state
            assert before is not None
            pool = before.deck.pool  # type: ignore[attr-defined]
            hand = before.hands["p2"]  # type: ignore[attr-defined]
            gone = [c for c in COLOURS if not pool.could_be(c) and not hand.get(c)]
            if gone:
                seen.events[i] = MoveEvent("p2", play({"type": "play", "colour": gone[0]}))
                d = replay(seen).divergences[0]
                assert (d.seq, d.kind) == (i, "illegal_move") and gone[0] in d.message
                return
    pytest.fail("no seat-view record where a colour was exhausted before a move of p2")


@pytest.mark.parametrize("game_id", ["handtoy", *available()])
def test_every_game_replays_complete_from_every_seat(game_id: str) -> None:
    game = get_game(game_id)
    for i in range(2):
        n = game.min_players + i % (game.max_players - game.min_players + 1)
        for seat in (1, n):
            rec = simulate_one(game, n, 11, i, observe_every=9, view=f"p{seat}")
            r = replay(loads(dumps(rec)))
            assert r.status == "complete", (game_id, seat, r.divergences[:2])


def test_the_worked_example_of_the_record_format_page() -> None:
    play = get_game("handtoy").parse_move
    events = [ChanceEvent({"draw": "deck", "items": [None, None]}),
              ChanceEvent({"draw": "deck", "items": ["green", "red"]}),
              MoveEvent("p1", play({"type": "play", "colour": "blue"})),
              ChanceEvent({"draw": "deck", "items": [None]}),
              ChanceEvent({"reveal": "hand:p1", "items": ["red"]})]
    assert replay(toy_record(events)).divergences == []
    bad_move = events[:2] + [MoveEvent("p1", play({"type": "play", "colour": "green"}))] + events[3:]
    assert [(d.seq, d.kind) for d in replay(toy_record(bad_move)).divergences] == [(2, "illegal_move")]
    bad_reveal = events[:4] + [ChanceEvent({"reveal": "hand:p1", "items": ["green"]})]
    assert [(d.seq, d.kind) for d in replay(toy_record(bad_reveal)).divergences] == [(4, "impossible_chance")]
