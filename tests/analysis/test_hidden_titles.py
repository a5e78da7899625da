"""What Perikles, Pax Pamir, Praga and Coal Baron keep hidden is dealt afresh in every rollout, never read from the record,
and never seen by the title's value model (checked once the title has one).

Each test changes something the public could not know at a point of a record (a unit committed
face down, a secret special tile, a market card the record names only later, a future draw) and
checks that every chance before the point where it becomes public stays put — and that the change
would matter to someone who knew it (the same positions with the item known move), so that the
test can fail.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from replay.analysis import (
    KNOWN,
    RESAMPLE,
    Settings,
    alternatives,
    analyse,
    can_deal,
    determinise,
    estimate,
    positions,
    rollouts,
    state_before,
)
from replay.engine import State
from replay.evaluator import load_model
from replay.games import get_game
from replay.record import ChanceEvent, Event, MoveEvent, Record
from replay.simulate import simulate_one

RANDOM = Settings(rollouts=3, agent="random", explain=0)


def _with(rec: Record, events: list[Event], options: dict[str, Any] | None = None) -> Record:
    return Record(rec.game, rec.id, rec.players, events, dict(rec.options if options is None else options))


def _chances(rec: Record, seqs: list[int], hidden: str) -> dict[int, dict[str, float]]:
    """The chances at the positions after events ``seqs`` (3 random rollouts each)."""
    settings = Settings(**{**RANDOM.__dict__, "hidden": hidden})
    chart, _ = positions(rec, settings.at, hidden)
    return {p.seq: {q: e.chance for q, e in estimate(p.state, rec.id, p.seq, settings).items()}
            for p in chart if p.seq in seqs}


def _public_hashes(rec: Record, before: int) -> dict[int, str]:
    chart, _ = positions(rec, "turns", RESAMPLE)
    return {p.seq: p.state.state_hash() for p in chart if p.seq < before}


def _unmoved_before(rec: Record, changed: Record, start: int, public_at: int, picks: int = 4) -> bool:
    """Chances at positions from event ``start`` up to (not including) ``public_at`` are the same in both
    records when hidden items are resampled; returns whether they differ with the items known (the
    change mattered).  The public positions before ``public_at`` must be identical state for state."""
    a, b = _public_hashes(rec, public_at), _public_hashes(changed, public_at)
    assert a and a == b, "the public saw a difference before the change became public"
    seqs = [s for s in a if s >= start]
    seqs = seqs[:: max(1, len(seqs) // picks)][:picks] + seqs[-1:]
    assert seqs
    assert _chances(rec, seqs, RESAMPLE) == _chances(changed, seqs, RESAMPLE)
    if load_model(rec.game) is not None:  # the value method too, once the title has a model
        assert _value_chances(rec, seqs) == _value_chances(changed, seqs)
    return _chances(rec, seqs, KNOWN) != _chances(changed, seqs, KNOWN)


def _value_chances(rec: Record, seqs: list[int]) -> dict[int, dict[str, float]]:
    """The value model's chances at the public positions after events ``seqs`` (as ``analyse`` reads them)."""
    a = analyse(rec, Settings(method="value", explain=0))
    return {p.seq: {q: e.chance for q, e in p.chances.items()} for p in a.positions if p.seq in seqs}


def _first_event(rec: Record, hit: Callable[[State], bool]) -> int | None:
    """The first event after which ``hit(state)`` holds, replaying the record as it is."""
    state = get_game(rec.game).initial_state(rec.player_ids, rec.options)
    for i, ev in enumerate(rec.events):
        if isinstance(ev, MoveEvent):
            state.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            state.apply_chance(ev.outcome)
        if hit(state):
            return i
        state.reveals.clear()
    return None


# ---- Perikles -------------------------------------------------------------------------------------


def _perikles(seed: int, index: int, **options: Any) -> Record:
    return simulate_one(get_game("perikles"), 3, seed, index, observe_every=0, agents=["random"] * 3,
                        options=options or None)


def test_perikles_a_unit_sent_face_down_is_dealt_afresh_until_its_location_is_revealed() -> None:
    """Change the counter a player sent (another of his of that power and type): the chances before the
    battles turn that location's counters up do not move; with the counters known they do."""
    from replay.games.perikles.components import UNIT
    from replay.games.perikles.moves import SendUnit
    from replay.games.perikles.state import PeriklesState

    for seed in range(3):
        rec = _perikles(seed, 0)
        sends = [(i, ev) for i, ev in enumerate(rec.events)
                 if isinstance(ev, MoveEvent) and isinstance(ev.move, SendUnit)]
        for i, ev in sends[:12]:
            move = ev.move
            assert isinstance(move, SendUnit)
            before = _state_before(rec, i)
            assert isinstance(before, PeriklesState)
            others = sorted({UNIT[u].strength for u in before.controlled_units(ev.player)
                             if (UNIT[u].power, UNIT[u].type) == (move.power, move.unit_type)} - {move.strength})
            if not others:
                continue
            zone = "location:" + move.location
            public_at = _first_event(rec, lambda s, z=zone: any(o.get("reveal") == z for o in s.reveals))
            assert public_at is not None and public_at > i
            revolt = [j for j, e in enumerate(rec.events) if j > i and isinstance(e, ChanceEvent)
                      and e.outcome.get("choose") == "slave_revolt"]  # its pick names counters
            public_at = min([public_at, *revolt])
            events = list(rec.events)
            events[i] = MoveEvent(ev.player, SendUnit(power=move.power, unit_type=move.unit_type, strength=others[0],
                                                     location=move.location, side=move.side))
            changed = _with(rec, events)
            if len(_public_hashes(changed, public_at)) < len(_public_hashes(rec, public_at)):
                continue  # the changed record breaks a rule before the battle: not a fair comparison
            if _unmoved_before(rec, changed, i, public_at):
                return
    pytest.fail("no face-down commitment whose change mattered: the test found nothing to check")


def _state_before(rec: Record, seq: int) -> State:
    state = get_game(rec.game).initial_state(rec.player_ids, rec.options)
    for ev in rec.events[:seq]:
        if isinstance(ev, MoveEvent):
            state.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            state.apply_chance(ev.outcome)
    return state


def test_perikles_secret_special_tiles_are_dealt_afresh_until_played() -> None:
    """Seat view (special tiles secret): swap two players' special tiles in the deal; the chances before
    either is played do not move; with the tiles known they do."""
    for index in range(6):
        rec = _perikles(4, index, seat_view=True)
        k = next(i for i, ev in enumerate(rec.events)
                 if isinstance(ev, ChanceEvent) and ev.outcome.get("draw") == "special")
        dealt = list(rec.events[k].outcome["items"])  # type: ignore[union-attr]
        a, b = rec.player_ids[0], rec.player_ids[1]
        played = _first_event(rec, lambda s, a=a, b=b: bool(s.special_used[a] or s.special_used[b]))  # type: ignore[attr-defined]
        if played is None:
            continue
        events = list(rec.events)
        events[k] = ChanceEvent({"draw": "special", "items": [dealt[1], dealt[0], *dealt[2:]]})
        if _unmoved_before(rec, _with(rec, events), k, played):
            return
    pytest.fail("no game where the special tiles mattered: the test found nothing to check")


def test_perikles_determinise_deals_every_unknown_consistently() -> None:
    """A seat-view record: every zone is dealt, a special tile once, each face-down unit from its sender's
    group; the position itself is untouched."""
    from replay.games.perikles.board import BATTLE
    from replay.games.perikles.components import UNIT
    from replay.games.perikles.state import PeriklesState

    rec = simulate_one(get_game("perikles"), 3, 2, 0, observe_every=0, view="p1")
    chart, stop = positions(rec, "turns", RESAMPLE)
    assert stop is None and can_deal(chart[0].state)
    kinds = Counter(z.split(":")[0] for p in chart for z in p.state.unknown_zones())
    assert kinds["special"] and kinds["face_down"]
    pos = max(chart, key=lambda p: len(p.state.face_down))  # type: ignore[attr-defined]
    state = pos.state
    assert isinstance(state, PeriklesState)
    zones = state.unknown_zones()
    dealt_units = Counter()
    for seed in range(12):
        d = state.copy()
        determinise(d, random.Random(seed))
        assert isinstance(d, PeriklesState)
        assert d.unknown_zones() == {} and d.face_down == [] and d.away == {}
        tiles = [t for t in d.special.values()]
        assert "?" not in tiles and len(set(tiles)) == len(tiles)
        for f in state.face_down:
            there = [u for u in d.units_at(f["location"], f["side"]) if d.unit_holder[u] == f["holder"]
                     and (UNIT[u].power, UNIT[u].type) == (f["power"], f["type"])]
            assert there and all(d.unit_at[u] == BATTLE for u in there)
            dealt_units.update(there)
    assert len(dealt_units) > len(state.face_down)  # not always the same counters
    assert state.unknown_zones().keys() == zones.keys()  # untouched


BGA_PERIKLES = Path("/work/shared/bga-logs/perikles")


@pytest.mark.skipif(not BGA_PERIKLES.exists(), reason=f"the shared BGA logs are not at {BGA_PERIKLES}")
def test_a_perikles_bga_log_is_analysed_with_its_hidden_commitments_dealt() -> None:
    """A real seat-view log: the other players' face-down units, the secret special tiles and the display
    tiles never named are dealt in each rollout; the first round is analysed end to end."""
    from ingest.winchances import plan
    from replay.games.perikles.components import UNIT
    from replay.games.perikles.state import PeriklesState

    log = sorted(BGA_PERIKLES.glob("perikles_3p_*.log.json.gz"))[0]
    settings = Settings(rollouts=1, agent="random", explain=1, alternatives=2)
    records, errors, _ = plan([str(log)], settings)
    assert errors == [] and len(records) == 1
    rec = records[0]
    assert rec.options.get("seat_view") is True
    first_reveal = next(i for i, ev in enumerate(rec.events) if isinstance(ev, ChanceEvent) and "reveal" in ev.outcome)
    commits = _with(rec, list(rec.events[:first_reveal]))  # up to the first battle with face-down units
    chart, stop = positions(commits, settings.at, settings.hidden)
    assert stop is None and len(chart) > 20
    kinds = Counter(z.split(":")[0] for p in chart for z in p.state.unknown_zones())
    assert kinds["face_down"] and kinds["special"] and kinds["display"], kinds
    state = chart[-1].state
    assert isinstance(state, PeriklesState) and state.face_down
    for seed in range(5):  # each face-down unit is dealt from what its sender had left
        d = state.copy()
        determinise(d, random.Random(seed))
        assert isinstance(d, PeriklesState) and d.unknown_zones() == {} and not d.face_down and not d.away
        for f in state.face_down:
            assert any(d.unit_holder[u] == f["holder"] and (UNIT[u].power, UNIT[u].type) == (f["power"], f["type"])
                       for u in d.units_at(f["location"], f["side"]))
    last = chart[-3:]  # rollouts from round 1 are long: the last positions before the battle
    got = [estimate(p.state, rec.id, p.seq, Settings(rollouts=2, agent="random")) for p in last]
    assert all(sum(e.chance for e in g.values()) == pytest.approx(1.0) for g in got)
    assert estimate(last[-1].state, rec.id, last[-1].seq, Settings(rollouts=2, agent="random")) == got[-1]
    here = last[-1]
    move = rec.events[here.move_seq]  # type: ignore[index]
    assert isinstance(move, MoveEvent) and here.mover is not None
    mover_view = state_before(commits, here.move_seq, RESAMPLE, here.mover)  # type: ignore[arg-type]
    alts = alternatives(mover_view, here.mover, move.move, commits, here.move_seq, settings)  # type: ignore[arg-type]
    assert alts[0].played and len(alts) == 2


EVERY_PERIKLES = Path("/work/shared/bga-logs-every-action/perikles")


@pytest.mark.skipif(not EVERY_PERIKLES.exists(), reason=f"the every-action BGA logs are not at {EVERY_PERIKLES}")
def test_a_perikles_log_with_standing_permissions_is_analysed() -> None:
    """Leaders grant and revoke permissions at any time (``set_permission``, whoever is to move): the win
    chances go on past them, and such a move by a player not to move is no position of its own."""
    from ingest.winchances import plan

    log = EVERY_PERIKLES / "perikles_3p_seed1101.log.json.gz"
    settings = Settings(rollouts=1, agent="random", explain=1, alternatives=2)
    records, errors, _ = plan([str(log)], settings)
    assert errors == [] and len(records) == 1
    rec = records[0]
    first_reveal = next(i for i, ev in enumerate(rec.events) if isinstance(ev, ChanceEvent) and "reveal" in ev.outcome)
    commits = _with(rec, list(rec.events[:first_reveal]))
    standing = [i for i, ev in enumerate(commits.events) if isinstance(ev, MoveEvent) and ev.move.type == "set_permission"]
    assert standing
    chart, stop = positions(commits, "decisions", settings.hidden)
    assert stop is None
    for p in chart:
        ev = commits.events[p.move_seq] if p.move_seq is not None else None
        assert not isinstance(ev, MoveEvent) or ev.player == p.mover
    after = next(p for p in chart if p.seq > standing[0])
    got = estimate(after.state, rec.id, after.seq, Settings(rollouts=2, agent="random"))
    assert sum(e.chance for e in got.values()) == pytest.approx(1.0)


# ---- Pax Pamir --------------------------------------------------------------------------------------


def _pax(index: int) -> Record:
    return simulate_one(get_game("pax_pamir"), 2, 3, index, observe_every=0, agents=["random", "random"])


def _market_at(rec: Record, seq: int) -> list[list[int | None]]:
    state = _state_before(rec, seq)
    return [list(row) for row in state.market]  # type: ignore[attr-defined]


def test_pax_pamir_a_market_card_named_later_is_dealt_afresh_until_then() -> None:
    """An opening-market card the record names only later (a BGA log names it when it is bought, moved
    or given rupees): change the name, and the chances before it do not move; had it been named
    when drawn, they would."""
    from replay.games.pax_pamir.market import unseen_groups

    for index in range(6):
        rec = _pax(index)
        opening = [i for i, ev in enumerate(rec.events) if isinstance(ev, ChanceEvent)][:12]
        chart, _ = positions(rec, "turns", RESAMPLE)
        later = [p.seq for p in chart if p.seq > opening[-1] + 1][:6]
        if len(later) < 6:
            continue
        named_at = later[-1] + 1  # the card is named right before this event
        market = _market_at(rec, named_at)
        for j, k in enumerate(opening):
            card = rec.events[k].outcome["items"][0]  # type: ignore[union-attr]
            if j >= 5 + len(rec.players) or card not in market[0] + market[1]:
                continue  # a court card of the first pile, still in the market when it is named
            row = 0 if card in market[0] else 1
            col = market[row].index(card)
            state = _state_before(rec, named_at)
            other = next(c for c in unseen_groups(state)[0] if c != card)  # type: ignore[arg-type]

            def record(name: int, hidden: bool, k: int = k, named_at: int = named_at, cell: str = f"{row},{col}",
                       rec: Record = rec) -> Record:
                events = list(rec.events)
                if hidden:  # drawn unknown, named later
                    events[k] = ChanceEvent({"draw": "deck", "items": [None]})
                    events.insert(named_at, ChanceEvent({"reveal": f"market:{cell}", "items": [name]}))
                else:
                    events[k] = ChanceEvent({"draw": "deck", "items": [name]})
                return _with(rec, events[: named_at + 1])

            first = next(p.seq for p in chart if p.seq > k)
            hidden_a, hidden_b = record(card, True), record(other, True)
            assert _public_hashes(hidden_a, named_at + 1) == _public_hashes(hidden_b, named_at + 1)
            seqs = [s for s in _public_hashes(hidden_a, named_at) if s >= first]
            assert seqs and _chances(hidden_a, seqs, RESAMPLE) == _chances(hidden_b, seqs, RESAMPLE)
            assert list(_state_before(hidden_a, named_at).unknown_zones()) == [f"market:{row},{col}"]
            named_a, named_b = _chances(record(card, False), seqs, RESAMPLE), _chances(record(other, False), seqs, RESAMPLE)
            assert named_a.keys() == named_b.keys() == set(seqs)
            if named_a != named_b:
                return
    pytest.fail("no market card whose identity mattered: the test found nothing to check")


def test_pax_pamir_unknown_market_cards_follow_their_pile() -> None:
    """Unknown opening-market cards: the first pile's are court cards; the second pile's are court cards or
    events in the pile's proportions; none is dealt twice, none is a card already seen."""
    from replay.games.pax_pamir.state import MARKET_CELLS
    from replay.games.pax_pamir.unknowns import kind_of, unknown_cells

    rec = _pax(0)
    draws = [i for i, ev in enumerate(rec.events) if isinstance(ev, ChanceEvent)][:12]
    events = list(rec.events)
    for i in (draws[1], draws[9], draws[10], draws[11]):  # cells (1,0), then three of the second pile
        events[i] = ChanceEvent({"draw": "deck", "items": [None]})
    state = _state_before(_with(rec, events), draws[-1] + 2)  # the opening market dealt, the first chooser
    assert isinstance(state.turn(), str)
    cells = unknown_cells(state)  # type: ignore[arg-type]
    assert list(cells) == [MARKET_CELLS[1], *MARKET_CELLS[9:12]] and list(cells.values()) == [None, 1, 1, 1]
    events_dealt = Counter()
    for seed in range(300):
        d = state.copy()
        determinise(d, random.Random(seed))
        assert d.unknown_zones() == {} and sum(d.unknown_drawn) == 0  # type: ignore[attr-defined]
        cards = [d.market[r][c] for r, c in cells]  # type: ignore[attr-defined]
        assert len(set(cards)) == 4 and not set(cards) & state.seen  # type: ignore[attr-defined]
        assert kind_of(cards[0]) == 0
        events_dealt.update(kind_of(c) for c in cards[1:])
    courts, events_left, checks = state.piles[1]  # type: ignore[attr-defined]  # the unknown cards and the rest
    assert checks == 0 and events_left and courts
    expected = events_left / (courts + events_left)  # each unknown card is an event with this chance
    assert abs(events_dealt[1] / (3 * 300) - expected) < 0.06
    assert rollouts(state, ["x", "y"], "random")  # the rollouts play on with the cards dealt


def test_pax_pamir_a_future_draw_is_never_read() -> None:
    """Cut the record short: the chances before the cut are those of the whole record."""
    rec = _pax(1)
    chart, _ = positions(rec, "turns", RESAMPLE)
    cut = chart[5].seq + 1
    seqs = [p.seq for p in chart[1:5]]
    assert _chances(rec, seqs, RESAMPLE) == _chances(_with(rec, list(rec.events[:cut])), seqs, RESAMPLE)


# ---- Praga ------------------------------------------------------------------------------------------


def test_praga_hides_nothing_but_its_stacks_and_never_reads_a_future_draw() -> None:
    """Every tile a Praga player holds is public: no unknown zones, the public view is the record's own
    state; a later draw changed leaves the earlier chances alone."""
    rec = simulate_one(get_game("praga"), 2, 3, 0, observe_every=0, agents=["random", "random"])
    chart, stop = positions(rec, "turns", RESAMPLE)
    assert stop is None and can_deal(chart[0].state)
    assert all(p.state.unknown_zones() == {} for p in chart)
    known, _ = positions(rec, "turns", KNOWN)
    assert [p.state.state_hash() for p in chart] == [p.state.state_hash() for p in known]
    draws = [i for i, ev in enumerate(rec.events) if isinstance(ev, ChanceEvent) and ev.outcome.get("items")
             and i > chart[6].seq]
    k = draws[0]
    state = _state_before(rec, k)
    request = state.turn()
    items = list(rec.events[k].outcome["items"])  # type: ignore[union-attr]
    spare = next(t for t, _ in request.pool if t not in items)  # type: ignore[union-attr]
    events = list(rec.events)
    events[k] = ChanceEvent({**rec.events[k].outcome, "items": [spare, *items[1:]]})  # type: ignore[union-attr]
    seqs = [p.seq for p in chart if p.seq < k][-4:]
    assert _chances(rec, seqs, RESAMPLE) == _chances(_with(rec, events), seqs, RESAMPLE)


def _coal_baron_top_return(rec: Record) -> tuple[int, int] | None:
    """The first event where tunnel tiles go back on top of the deck (two or more, in some order), and
    the event that draws the first of them onto the board, if more than fifteen events lie between."""
    from replay.games.coal_baron.moves import ReturnTiles

    state = get_game(rec.game).initial_state(rec.player_ids, rec.options)
    since: int | None = None
    put = 0
    for i, ev in enumerate(rec.events):
        if isinstance(ev, MoveEvent):
            state.apply_move(ev.player, ev.move)
        elif isinstance(ev, ChanceEvent):
            state.apply_chance(ev.outcome)
        top = len(state.tiles.top)  # type: ignore[attr-defined]
        if since is not None and top < put:
            if i - since > 15:
                return since, i
            since = None
        if since is None and isinstance(ev, MoveEvent) and isinstance(ev.move, ReturnTiles) \
                and ev.move.to == "top" and len(set(ev.move.tiles)) > 1:
            since, put = i, top
    return None


def test_coal_baron_tiles_put_back_after_a_look_stay_unknown_until_drawn() -> None:
    """A draw-five shows five tunnel tiles to its player alone, who puts the others back on top of the
    deck in an order the others do not see: put back in another order, the chances before the first of
    them is drawn onto the board do not move (rollouts and the value model alike); known, they do."""
    from replay.games.coal_baron.moves import ReturnTiles

    found = None
    for index in range(10):
        rec = simulate_one(get_game("coal_baron"), 2, 3, index, observe_every=0, agents=["random", "random"])
        found = _coal_baron_top_return(rec)
        if found:
            break
    assert found is not None
    k, drawn = found
    back = rec.events[k]
    assert isinstance(back, MoveEvent) and isinstance(back.move, ReturnTiles)
    events = list(rec.events)
    events[k] = MoveEvent(back.player, ReturnTiles(to="top", tiles=tuple(reversed(back.move.tiles))))
    assert _unmoved_before(rec, _with(rec, events), k + 1, drawn)


def test_perikles_a_unit_waiting_for_permission_is_dealt_from_its_senders_group() -> None:
    """The public saw a unit sent to defend a location that needs permission, not which counter: the
    deal sets its strength to one its sender had left, and the rollout goes on from there."""
    from replay.games.perikles.components import UNIT
    from replay.games.perikles.state import PeriklesState

    for index in range(6):
        chart, _ = positions(_perikles(5, index), "turns", RESAMPLE)
        waiting = [p for p in chart if any(z.startswith("waiting:") for z in p.state.unknown_zones())]
        if not waiting:
            continue
        state = waiting[0].state
        assert isinstance(state, PeriklesState) and state.permission_request is not None
        req = dict(state.permission_request)
        assert req["strength"] is None
        for seed in range(8):
            d = state.copy()
            determinise(d, random.Random(seed))
            assert isinstance(d, PeriklesState) and d.permission_request is not None
            strength = d.permission_request["strength"]
            assert any((UNIT[u].power, UNIT[u].type, UNIT[u].strength) == (req["power"], req["unit_type"], strength)
                       for u in d.controlled_units(req["player"]))
        assert state.permission_request["strength"] is None  # the position is untouched
        assert rollouts(state, ["w1", "w2"], "random")
        return
    pytest.fail("no position with a unit waiting for permission")


def test_impossible_reveals_of_the_dealt_zones_are_refused_in_one_line() -> None:
    """The zones the rollouts deal are checked like any reveal a record carries."""
    from replay.engine import ImpossibleChance

    seat = simulate_one(get_game("perikles"), 3, 2, 0, observe_every=0, view="p1")
    chart, _ = positions(seat, "turns", RESAMPLE)
    state = next(p.state for p in chart if p.state.unknown_zones())
    zones = state.unknown_zones()
    special = next(z for z in zones if z.startswith("special:"))
    with pytest.raises(ImpossibleChance, match="names one special tile"):
        state.copy().apply_chance({"reveal": special, "items": ["nosuchtile"]})
    taken = state.copy()
    tile = next(t for t, _ in zones[special][1].possible())
    taken.apply_chance({"reveal": special, "items": [tile]})
    other = next(z for z in zones if z.startswith("special:") and z != special)
    with pytest.raises(ImpossibleChance, match="another player is known to hold it"):
        taken.apply_chance({"reveal": other, "items": [tile]})
    with pytest.raises(ImpossibleChance, match="no unit lies face down"):
        state.copy().apply_chance({"reveal": "face_down:nowhere:attacker:p2:athens:hoplite", "items": ["u1"]})

    rec = _pax(0)
    pax = _state_before(rec, 14)
    assert pax.unknown_zones() == {}
    with pytest.raises(ImpossibleChance, match="reveals a market card only"):
        pax.copy().apply_chance({"reveal": "market:2,9", "items": [1]})
    card = pax.market[0][0]  # type: ignore[attr-defined]
    with pytest.raises(ImpossibleChance, match=", not "):  # a card the record named at its draw
        pax.copy().apply_chance({"reveal": "market:0,0", "items": [card % 100 + 1]})
