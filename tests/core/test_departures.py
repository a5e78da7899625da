"""BGA's departures from the rulebook, as data: declarations, the engines' calls, the docs, the
command, the table.  The per-rule tests (a step where a rule applies and one where it does not)
live with each title's rule tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from gamerec_cli.main import main
from replay.departures import UnknownDeparture, markdown_table
from replay.games import GAME_IDS, get_game

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
if not SHARED.is_dir():
    SHARED = Path("/work/shared")
COAL_LOG = SHARED / "bga-logs" / "coal_baron" / "coalbaron_4p_seed306.log.json.gz"
needs_log = pytest.mark.skipif(not COAL_LOG.is_file(), reason=f"the shared BGA log {COAL_LOG} is not here")
DECLARING = [g for g in GAME_IDS if get_game(g).departure_rules]


def _package_source(game: str) -> str:
    return "\n".join(p.read_text() for p in sorted((ROOT / "replay" / "games" / game).rglob("*.py")))


def test_every_title_with_a_bga_ruleset_declares_its_departures() -> None:
    assert set(DECLARING) == {"coal_baron", "copenhagen", "pax_pamir", "perikles", "praga"}


@pytest.mark.parametrize("game", DECLARING)
def test_every_declared_departure_is_recorded_somewhere_and_every_recorded_one_declared(game: str) -> None:
    rules = get_game(game).departure_rules
    called = set(re.findall(r"\.depart\(\s*\"([a-z0-9_]+)\"", _package_source(game)))
    assert called == set(rules), f"declared but never recorded: {set(rules) - called}; " \
                                 f"recorded but not declared: {called - set(rules)}"
    for d in rules.values():
        assert re.fullmatch(r"\d+(\.\d+)*", d.section) and d.rulebook and d.bga and d.rulebook != d.bga


@pytest.mark.parametrize("game", DECLARING)
def test_the_docs_carry_the_declared_table(game: str) -> None:
    doc = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    assert markdown_table(game, get_game(game).departure_rules) in doc, \
        f"docs/games/{game}.md is out of step: paste `gamerec departures --rules --game {game}` over its table"


def test_an_undeclared_departure_is_an_error_not_a_silent_row() -> None:
    st = get_game("coal_baron").initial_state(["a", "b"], {"ruleset": "bga"})
    with pytest.raises(UnknownDeparture, match="no departure called 'second_place'"):
        st.depart("second_place", "x")


@needs_log
def test_a_bga_game_records_its_departures_and_the_same_game_under_the_rulebook_none() -> None:
    out = CliRunner().invoke(main, ["replay", "--json", str(COAL_LOG)])
    obj = json.loads(out.output)
    assert obj["status"] == "complete"
    assert [(d["seq"], d["rule"]) for d in obj["departures"]][:3] == [(358, "coal_supply"), (368, "coal_supply"),
                                                                     (395, "coal_supply")]
    out = CliRunner().invoke(main, ["replay", "--json", "--ruleset", "official", str(COAL_LOG)])
    obj = json.loads(out.output)
    assert obj["departures"] == [] and obj["status"] == "diverged"
    # the rulebook's supply runs short where BGA's first departs: the next event cannot follow
    assert obj["divergences"][0]["seq"] == 359


@needs_log
def test_the_departures_command_lists_rows_and_a_summary_per_rule(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["departures", "--json", str(COAL_LOG)])
    assert out.exit_code == 0, out.output
    obj = json.loads(out.output)
    rows = obj["departures"]
    assert {k for k in rows[0]} >= {"id", "seq", "rule", "section", "rulebook", "happened"}
    assert rows[0]["id"] == "bga-900000306-84103063" and rows[0]["section"] == "6.1"
    by_rule = {s["rule"]: (s["games"], s["times"]) for s in obj["summary"]}
    assert by_rule == {"coal_supply": (1, 3), "second_place_after_tie": (1, 1), "pit_balance": (1, 3)}
    assert sum(t for _, t in by_rule.values()) == len(rows)
    text = CliRunner().invoke(main, ["departures", str(COAL_LOG)]).output
    assert "event 358: coal_supply (rules 6.1)" in text and "7 departures from the rulebook" in text
    # records under the official rules depart nowhere
    sim = CliRunner().invoke(main, ["simulate", "--game", "coal_baron", "--games", "2", "--seed", "3",
                                    "--out", str(tmp_path / "sim")])
    assert sim.exit_code == 0, sim.output
    none = CliRunner().invoke(main, ["departures", "--json", str(tmp_path / "sim")])
    assert json.loads(none.output)["departures"] == []


def test_the_departures_command_without_records_fails_in_one_line(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["departures", str(tmp_path)])
    assert out.exit_code == 2 and "no records found" in out.output


def test_the_rules_listing_covers_every_declaring_title() -> None:
    out = CliRunner().invoke(main, ["departures", "--rules", "--json"])
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert {r["game"] for r in rows} == set(DECLARING)
    assert sum(1 for r in rows if r["game"] == "copenhagen") == len(get_game("copenhagen").departure_rules)


@needs_log
def test_ingest_stores_each_departure(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    out = CliRunner().invoke(main, ["ingest", "--db", str(db), str(COAL_LOG)])
    assert out.exit_code == 0, out.output
    con = duckdb.connect(str(db), read_only=True)
    rows = con.sql("SELECT seq, title, rule FROM departures ORDER BY departure_no").fetchall()
    assert rows[:3] == [(358, "coal_baron", "coal_supply"),
                        (368, "coal_baron", "coal_supply"),
                        (395, "coal_baron", "coal_supply")]
    assert len(rows) == 7
