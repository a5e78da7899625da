"""BGA's departures from the rulebook, recorded where they change what happens (``ruleset: bga``).

For every rule: a step where it applies (the departure is recorded, at that step's event), a step where
BGA's branch gives what the rulebook's would (nothing recorded), and the official rules (nothing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from perikles_helpers import (
    MILITARY_LOCATIONS,
    at_battle,
    commit,
    fight,
    give_units,
    goto,
    military_phase,
    placed,
    play,
    roll,
)

from gamerec_cli.main import main
from replay.engine import IllegalMove
from replay.games.perikles import tasks
from replay.games.perikles.components import CITY_KEYS
from replay.games.perikles.moves import (
    AnswerPermission,
    AskPermission,
    ChooseFirstCommitter,
    EndCommit,
    Nominate,
    PlayBrasidas,
    ResendUnit,
    SendUnit,
    SpendCube,
    TakeTile,
)
from replay.games.perikles.state import PeriklesState

LOG = Path(__file__).resolve().parents[2] / "ingest" / "bga_logs" / "perikles" / "perikles_3p_seed8036.log.json.gz"
LOCS = MILITARY_LOCATIONS


def departed(st: PeriklesState, rule: str) -> list[int]:
    """The events at which ``rule`` was recorded."""
    assert all(d["rule"] in st.departure_rules for d in st.departures)
    return [d["seq"] for d in st.departures if d["rule"] == rule]


def _send(power: str, unit_type: str, strength: int, location: str, side: str) -> SendUnit:
    return SendUnit(power=power, unit_type=unit_type, strength=strength, location=location, side=side)


# ---- battles ------------------------------------------------------------------------------------


def _pylos(ruleset: str) -> PeriklesState:
    """Pylos' hoplite combat: Athens' 3-hoplite attacks Sparta's 1-hoplite (3:1, targets 5 and 10)."""
    st = at_battle(ruleset=ruleset, locations=LOCS)
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    commit(st, "p2", "athens", "hoplite", 3, "pylos", "attacker")
    commit(st, "p1", "sparta", "hoplite", 1, "pylos", "defender")
    fight(st, "pylos")
    return st


@pytest.mark.parametrize("ruleset, attacker, departs", [
    ("bga", (2, 3), True),        # 5 against a target of 5: a token on BGA, none by the rulebook
    ("bga", (3, 3), False),       # 6 hits under both rules
    ("official", (2, 3), False),
])
def test_a_hit_on_an_equal_total(ruleset: str, attacker: tuple[int, int], departs: bool) -> None:
    st = _pylos(ruleset)
    st.seq = 40
    roll(st, attacker, (1, 1))
    assert departed(st, "hit_on_equal_total") == ([40] if departs else [])
    if departs:
        assert "the attacker's 5, equal to its target, hits: tokens 1-0" in st.departures[0]["happened"]


def test_in_a_roll_off_equal_totals_on_both_sides_change_nothing() -> None:
    st = _pylos("bga")
    roll(st, (3, 3), (6, 6))
    roll(st, (3, 3), (6, 6))  # both reach two tokens: a roll-off
    assert st.combat is not None and st.combat["rolloff"]
    st.seq = 50
    roll(st, (2, 3), (5, 5))  # both equal: both hit on BGA, neither by the rulebook; nobody wins either way
    st.seq = 51
    roll(st, (2, 3), (1, 1))  # the attacker's equal total wins the roll-off on BGA only
    assert departed(st, "hit_on_equal_total") == [51]
    assert "in the roll-off the attacker wins; by the rulebook nobody wins yet" in st.departures[-1]["happened"]


def _cephallenia_with_brasidas(ruleset: str, trireme_power: str) -> PeriklesState:
    """Brasidas doubles Sparta's hoplites in Cephallenia's hoplite combat; the trireme combat follows,
    its attacker a ``trireme_power`` 2-trireme."""
    st = at_battle(ruleset=ruleset, locations=LOCS, specials=["perikles", "plague", "brasidas"])
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    give_units(st, "p2", "corinth")
    commit(st, "p2", "athens", "hoplite", 2, "cephallenia", "attacker")
    commit(st, "p2", trireme_power, "trireme", 2, "cephallenia", "attacker")
    commit(st, "p1", "sparta", "hoplite", 2, "cephallenia", "defender")
    commit(st, "p1", "sparta", "trireme", 1, "cephallenia", "defender")
    fight(st, "cephallenia")
    play(st, PlayBrasidas())
    roll(st, (6, 6), (1, 1))
    st.seq = 70
    roll(st, (6, 6), (1, 1))  # the hoplite combat is over, the trireme combat's strengths are set
    return st


@pytest.mark.parametrize("ruleset, trireme_power, departs", [
    ("bga", "athens", True),      # BGA doubles the Athenian trireme: 4 against 1, by the rulebook 2 against 1
    ("bga", "corinth", False),    # no Athenian trireme: nothing to double
    ("official", "athens", False),
])
def test_doubling_after_the_combat_it_was_played_for(ruleset: str, trireme_power: str, departs: bool) -> None:
    st = _cephallenia_with_brasidas(ruleset, trireme_power)
    assert st.combat is not None and st.combat["combat_type"] == "trireme"
    assert departed(st, "doubling_lasts_the_location") == ([70] if departs else [])
    if departs:
        [d] = st.departures
        assert "attack 4 against defence 1 (3:1)" in d["happened"] and "2 against 1 (2:1)" in d["happened"]


@pytest.mark.parametrize("ruleset, attacked, departs", [
    ("bga", False, True),       # no attack: 2 cubes for the emptied defence on BGA, by the rulebook nobody came
    ("bga", True, False),       # an attack: BGA fights it out against nobody, the rulebook has it unopposed;
                                # Athens takes the tile either way
    ("official", False, False),
])
def test_a_defence_slave_revolt_emptied(ruleset: str, attacked: bool, departs: bool) -> None:
    st = at_battle(ruleset=ruleset, locations=LOCS)
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    uid = commit(st, "p1", "sparta", "hoplite", 1, "pylos", "defender")
    if attacked:
        commit(st, "p2", "athens", "hoplite", 1, "pylos", "attacker")
    st.send_home(uid)  # Slave Revolt's pick
    st.seq = 90
    fight(st, "pylos")
    assert departed(st, "revolted_side_still_came") == ([90] if departs else [])
    assert st.claimed["p2"] == (["pylos"] if attacked else [])


def test_an_attack_slave_revolt_emptied_leaves_the_defender_the_tile_on_bga() -> None:
    st = at_battle(ruleset="bga", locations=LOCS)
    give_units(st, "p1", "athens")
    give_units(st, "p2", "sparta")
    uid = commit(st, "p2", "sparta", "hoplite", 1, "plataea", "attacker")
    commit(st, "p1", "athens", "hoplite", 1, "plataea", "defender")
    st.send_home(uid)
    st.seq = 91
    fight(st, "plataea")
    assert departed(st, "revolted_side_still_came") == [91]
    assert st.departures[-1]["happened"].endswith(
        "the combats are fought: p1 claims it; by the rulebook only the defence came: p1 places 2 cubes in "
        "Athens and the tile stays unclaimed")


# ---- influence and nominations ----------------------------------------------------------------------

DISPLAY = ["athens-2a", "athens-candidate-a", "athens-assassin", "sparta-2a", "any-a",
           "argos-2a", "corinth-2a", "thebes-2a", "megara-2a", "sparta-candidate-a"]


@pytest.mark.parametrize("ruleset, on_board, departs", [
    ("bga", 29, True),       # BGA places both (31 on the board), the rulebook one
    ("bga", 28, False),      # both place two
    ("bga", 30, False),      # both place none
    ("official", 29, False),
])
def test_the_cube_limit(ruleset: str, on_board: int, departs: bool) -> None:
    st = placed(3, display=DISPLAY, ruleset=ruleset)
    st.cubes["megara"]["p1"] += on_board - st.cubes_on_board("p1")
    st.seq = 12
    play(st, TakeTile(slot=1))  # athens-2a: two cubes
    assert departed(st, "cube_limit_checked_before_adding") == ([12] if departs else [])


@pytest.mark.parametrize("ruleset, p3_can, departs", [
    ("bga", True, True),       # p2 cannot: BGA passes over p3 too and p4 nominates; by the rulebook p3
    ("bga", False, False),     # p2 and p3 cannot: p4 nominates under both rules
    ("official", True, False),
])
def test_nomination_skipping(ruleset: str, p3_can: bool, departs: bool) -> None:
    st = placed(4, ruleset=ruleset)
    goto(st, tasks.NominationsBegin())
    for c in CITY_KEYS:
        st.cubes[c] = {p: 0 for p in st.players}
    for c in ("athens", "sparta", "argos", "corinth"):
        for p in ("p1", "p3", "p4") if p3_can else ("p1", "p4"):
            st.cubes[c][p] = 1
    st.seq = 60
    play(st, Nominate(city="athens", nominee="p1"))
    assert st.turn() == ("p3" if p3_can and ruleset == "official" else "p4")
    assert departed(st, "nomination_skips_two") == ([60] if departs else [])


def _nominators(st: PeriklesState, able: tuple[str, ...]) -> None:
    """Only the players in ``able`` have cubes, one in each of four cities."""
    for c in CITY_KEYS:
        st.cubes[c] = {p: 0 for p in st.players}
    for c in ("athens", "sparta", "argos", "corinth"):
        for p in able:
            st.cubes[c][p] = 1


@pytest.mark.parametrize("ruleset, expected", [
    # p2 cannot: BGA passes over p3 too; then p4 cannot: it passes over p5 too, and p1 nominates again
    ("bga", "p1"),
    ("official", "p3"),
])
def test_bga_passes_over_two_players_each_time_one_cannot_nominate(ruleset: str, expected: str) -> None:
    """perikles_5p_seed9805, packet 417: after the first pair passed over, BGA does not take the next able
    player but looks at the next player and passes over two again."""
    st = placed(5, ruleset=ruleset)
    goto(st, tasks.NominationsBegin())
    _nominators(st, ("p1", "p3", "p5"))
    st.seq = 61
    play(st, Nominate(city="athens", nominee="p1"))
    assert st.turn() == expected
    assert departed(st, "nomination_skips_two") == ([61] if ruleset == "bga" else [])
    if ruleset == "bga":
        assert st.departures[-1]["happened"] == (
            "p2 cannot nominate, so BGA passes over p3 too; then p4 cannot nominate, so BGA passes over p5 too: "
            "p1 nominates next; by the rulebook p3 would")


@pytest.mark.parametrize("ruleset, expected", [
    ("bga", "p3"),       # the start player p1 cannot: BGA passes over p2 too
    ("official", "p2"),
])
def test_bga_passes_over_two_players_when_the_start_player_cannot_nominate(ruleset: str, expected: str) -> None:
    st = placed(5, ruleset=ruleset)
    _nominators(st, ("p2", "p3"))
    goto(st, tasks.NominationsBegin())
    assert st.turn() == expected
    assert len(departed(st, "nomination_skips_two")) == (1 if ruleset == "bga" else 0)


def test_bga_search_that_never_ends_takes_the_rulebooks_nominator() -> None:
    """Four players: after p1, BGA only ever looks at p2 and p4; neither can, so its search would go round for
    ever (the table hangs). The rulebook's nominator, p3, nominates, and nothing departs."""
    st = placed(4, ruleset="bga")
    goto(st, tasks.NominationsBegin())
    _nominators(st, ("p1", "p3"))
    play(st, Nominate(city="athens", nominee="p1"))
    assert st.turn() == "p3"
    assert departed(st, "nomination_skips_two") == []


# ---- commit turns -------------------------------------------------------------------------------------


def _military(ruleset: str, hands: dict[str, list[str]] | None = None, seat_view: bool = False) -> PeriklesState:
    """The military phase (``perikles_helpers.military_phase``); p2 commits first.  ``seat_view``: permission
    is asked before units are chosen, as on BGA."""
    st = military_phase(ruleset, hands or {"p1": ["athens-2a"], "p2": ["sparta-2a", "argos-2a"], "p3": ["corinth-2a"]})
    st.seat_view = seat_view
    play(st, ChooseFirstCommitter(player="p2"))
    assert st.turn() == "p2" and st.stage == "commit"
    return st


@pytest.mark.parametrize("ruleset, grant, departs", [
    ("bga", True, True),        # p3 commits next with no tile spent; by the rulebook he spends one
    ("bga", False, False),      # no grant: the turns go on alike
    ("official", True, False),
])
def test_the_turn_after_a_granted_permission(ruleset: str, grant: bool, departs: bool) -> None:
    st = _military(ruleset)
    play(st, _send("argos", "hoplite", 1, "sicily", "defender"))
    play(st, AnswerPermission(grant=grant))
    st.seq = 80
    play(st, EndCommit())
    assert departed(st, "free_commit_turn_after_grant") == ([80] if departs else [])
    if departs:
        assert st.departures[-1]["happened"] == (
            "p2 was granted a permission this turn: p3 commits next without spending a tile; by the rulebook "
            "p3 would commit next, spending a 2-shard tile")
        assert st.turn() == "p3" and st.hands["p3"] == ["corinth-2a"]


@pytest.mark.parametrize("ruleset, second, departs", [
    ("bga", _send("athens", "hoplite", 1, "cephallenia", "attacker"), True),   # Athens and Argos not allied
    ("bga", _send("argos", "hoplite", 2, "cephallenia", "attacker"), False),   # Argos twice: nothing to relate
    ("official", _send("athens", "hoplite", 1, "cephallenia", "attacker"), False),
])
def test_a_commit_sets_no_relationship_within_itself(ruleset: str, second: SendUnit, departs: bool) -> None:
    st = _military(ruleset)
    play(st, _send("argos", "hoplite", 1, "cephallenia", "attacker"))
    st.seq = 101
    play(st, second)
    assert departed(st, "commit_checked_as_a_whole") == ([101] if departs else [])
    assert st.relation("athens", "argos") == (0 if departs else 1 if ruleset == "official" else 0)
    if departs:
        assert "Argos and Athens stay neutral (by the rulebook allied)" in st.departures[-1]["happened"]


@pytest.mark.parametrize("ruleset", ["bga", "official"])
def test_a_commit_on_both_sides_of_a_location(ruleset: str) -> None:
    """p2's Argos attacks Cephallenia; in the same turn his Athens asks to defend it: BGA checks the
    defender against earlier turns' units only, the rulebook refuses it (he leads Argos, an attacker)."""
    st = _military(ruleset)
    play(st, _send("argos", "hoplite", 1, "cephallenia", "attacker"))
    defend = _send("athens", "hoplite", 1, "cephallenia", "defender")
    if ruleset == "official":
        with pytest.raises(IllegalMove, match="he leads Argos, which attacks it"):
            st.apply_move("p2", defend)
        assert st.departures == []
        return
    st.seq = 110
    play(st, defend)  # waits for Sparta's leader: nothing is placed yet
    assert departed(st, "commit_checked_as_a_whole") == []
    st.seq = 111
    play(st, AnswerPermission(grant=True))
    assert departed(st, "commit_checked_as_a_whole") == [111]
    assert "by the rulebook the units sent this turn forbid it" in st.departures[0]["happened"]


@pytest.mark.parametrize("ruleset, third, departs", [
    ("bga", _send("argos", "hoplite", 3, "cephallenia", "attacker"), True),
    ("bga", _send("athens", "hoplite", 1, "pylos", "attacker"), False),    # the cube's own city
    ("official", _send("athens", "hoplite", 1, "pylos", "attacker"), False),
])
def test_an_extra_unit_of_another_power_than_the_cubes(ruleset: str, third: SendUnit, departs: bool) -> None:
    st = _military(ruleset)
    play(st, _send("argos", "hoplite", 1, "cephallenia", "attacker"))
    play(st, _send("argos", "hoplite", 2, "cephallenia", "attacker"))
    st.seq = 120
    play(st, SpendCube(city="athens"))
    assert departed(st, "extra_units_of_any_power") == []  # the cube itself departs from nothing
    st.seq = 121
    if ruleset == "official":
        with pytest.raises(IllegalMove, match="allows only Athens units"):
            st.apply_move("p2", _send("argos", "hoplite", 3, "cephallenia", "attacker"))
    play(st, third)
    assert departed(st, "extra_units_of_any_power") == ([121] if departs else [])


@pytest.mark.parametrize("ruleset, again, departs", [
    ("bga", "cephallenia", True),    # the same location and power again, after the refusal
    ("bga", "pylos", False),         # another location: asked for the first time
    ("official", "pylos", False),
])
def test_asking_again_after_a_refusal(ruleset: str, again: str, departs: bool) -> None:
    st = _military(ruleset, seat_view=True)
    play(st, AskPermission(power="argos", location="cephallenia"))
    play(st, AnswerPermission(grant=False))
    if ruleset == "official":
        with pytest.raises(IllegalMove, match="cannot ask again"):
            st.apply_move("p2", AskPermission(power="argos", location="cephallenia"))
    st.seq = 130
    play(st, AskPermission(power="argos", location=again))
    assert departed(st, "asking_again_after_refusal") == ([130] if departs else [])


def _resend(unit_type: str, strength: int | None, location: str) -> ResendUnit:
    return ResendUnit(power="argos", unit_type=unit_type, strength=strength, location=location, side="attacker")


@pytest.mark.parametrize("strength", [1, None])  # the zombie's own log names it; the others' see it face down
def test_a_zombies_counter_picked_twice_moves_on_and_the_first_pick_keeps_its_role(strength: int | None) -> None:
    """BGA's zombie picks p2's Argos hoplite for Cephallenia, then again for Pylos: the counter ends at
    Pylos, p2 stays Cephallenia's main attacker with no unit there, and the turn has sent one unit."""
    st = _military("bga")
    play(st, SendUnit(power="argos", unit_type="hoplite", strength=strength, location="cephallenia", side="attacker"))
    assert _resend("hoplite", strength, "pylos") not in list(st.legal_moves())  # never offered to anyone
    st.seq = 140
    play(st, _resend("hoplite", strength, "pylos"))
    assert departed(st, "zombie_picks_one_counter_twice") == [140]
    assert st.departures[-1]["happened"] == (
        "p2, who left the table: BGA picked his Argos hoplite sent to Cephallenia a second time, for Pylos: it "
        "moves there, and what the first pick did at Cephallenia stays; by the rulebook a unit is sent once")
    assert st.main_player["cephallenia"]["attacker"] == "p2" and st.main_player["pylos"]["attacker"] == "p2"
    assert st.commit_sent == 1
    if strength is None:
        assert [(f["location"], f["main"]) for f in st.face_down] == [("pylos", True)]
    else:
        assert st.units_at("cephallenia", "attacker") == []
        assert [st.unit_location[u] for u in st.units_at("pylos", "attacker")] == ["pylos"]


@pytest.mark.parametrize("ruleset, first, error", [
    ("official", "hoplite", "cannot send a unit twice in one turn"),
    ("bga", "trireme", "sent no Argos hoplite of strength 1 this turn to send again"),
])
def test_a_counter_sent_twice_is_refused_by_the_rulebook_and_without_its_first_send(
        ruleset: str, first: str, error: str) -> None:
    st = _military(ruleset)
    play(st, _send("argos", first, 1, "cephallenia", "attacker"))
    before = st.state_hash()
    with pytest.raises(IllegalMove, match=error):
        st.apply_move("p2", _resend("hoplite", 1, "pylos"))
    assert st.state_hash() == before


# ---- a whole BGA game ------------------------------------------------------------------------------


def test_a_bga_log_departs_and_the_rulebook_stops_where_it_first_does() -> None:
    """A fresh BGA log (kept with the importer's tests): replayed under ``bga`` it departs at its first
    asking again, its free commit turns, an equal-total hit, the cube limit and extra units of another
    power; replayed under the rulebook it departs nowhere and stops at the first of those events."""
    out = CliRunner().invoke(main, ["departures", "--json", str(LOG)])
    assert out.exit_code == 0, out.output
    obj = json.loads(out.output)
    assert {s["rule"] for s in obj["summary"]} >= {"asking_again_after_refusal", "free_commit_turn_after_grant",
                                                   "hit_on_equal_total", "cube_limit_checked_before_adding",
                                                   "extra_units_of_any_power"}
    first = obj["departures"][0]["seq"]
    out = CliRunner().invoke(main, ["replay", "--json", "--ruleset", "official", str(LOG)])
    official = json.loads(out.output.splitlines()[0])
    assert official["departures"] == [] and official["status"] == "diverged"
    assert official["divergences"][0]["seq"] == first
