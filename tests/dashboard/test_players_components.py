"""The Players and Components pages under AppTest, and Game review's win-chance loss per decision."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import polars as pl
import pytest
import streamlit as st

from analytics import queries as q
from analytics.queries import run
from replay.analysis import Settings
from replay.games import get_game
from replay.simulate import simulate_one

from .conftest import TITLES
from .test_pages import open_page, texts
from .test_win_chances import analysed_db, ingested_and_analysed  # noqa: F401  (the fixture)


def _sql(db: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def test_players_page_without_a_player_shows_the_ladder(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "players", monkeypatch)
    assert at.title[0].value == "Players"
    assert "Rating ladder (all titles)" in [s.value for s in at.subheader]
    ladder = at.dataframe[0].value
    rated = _sql(sample_db, "SELECT DISTINCT player_id FROM players WHERE rank IS NOT NULL ORDER BY 1")
    assert sorted(ladder["player_id"]) == [r[0] for r in rated]
    assert list(ladder["place"]) == list(range(1, len(rated) + 1))
    assert f"{len(rated)} rated players" in texts(at)


def test_players_page_profile(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "players", monkeypatch, player="p2")
    assert not at.exception
    (games, wins), = _sql(sample_db, "SELECT count(*), count(*) FILTER (WHERE won) FROM players "
                                     "WHERE player_id = 'p2' AND won IS NOT NULL")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Finished games"] == f"{games:,}" and metrics["Wins"] == f"{wins:,}"
    assert metrics["Rating (all titles)"].count("±") == 1
    assert f"Based on {games:,} finished games." in texts(at)
    assert {"Record", "Opponents", "Decision quality"} <= {s.value for s in at.subheader}
    links = at.dataframe[-1].value["review"]
    assert len(links) == _sql(sample_db, "SELECT count(*) FROM players WHERE player_id = 'p2'")[0][0]
    assert all(link.startswith("/review?game=") for link in links)
    # one title: its own ladder
    at.selectbox(key="players_title").select("copenhagen").run()
    assert not at.exception
    (cg,), = _sql(sample_db, "SELECT count(*) FROM players JOIN games USING (game_id) WHERE player_id = 'p2' "
                             "AND won IS NOT NULL AND title = 'copenhagen'")
    assert {m.label: m.value for m in at.metric}["Finished games"] == f"{cg:,}"
    assert any(m.label == "Rating (Copenhagen)" for m in at.metric)


def test_players_page_finds_by_name(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "players", monkeypatch)
    at.text_input(key="players_search").input("ben").run()
    assert not at.exception
    assert at.selectbox(key="players_player").value == "p2"  # simulated seat 2 is Ben
    at.text_input(key="players_search").input("nobody at all").run()
    assert "No player's id or name contains 'nobody at all'" in texts(at)


@pytest.mark.parametrize("title", TITLES)
def test_components_page(sample_db: Path, title: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "components", monkeypatch)
    at.selectbox(key="components_title").select(title).run()
    assert not at.exception, [e.value for e in at.exception]
    res = run(sample_db, q.component_stats, title=title)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Finished games"] == f"{res.games:,}"
    assert metrics["Player-games"] == f"{res.player_games:,}"
    table = at.dataframe[0].value
    assert len(table) == res.rows.height and list(table["players"]) == res.rows.get_column("players").to_list()
    assert f"Based on {res.games:,} finished games" in texts(at)
    counts = run(sample_db, q.component_filters, title=title)["player_count"]
    at.selectbox(key="components_players").select(counts[0]).run()
    assert not at.exception
    only = run(sample_db, q.component_stats, title=title, player_count=counts[0])
    assert {m.label: m.value for m in at.metric}["Finished games"] == f"{only.games:,}"


def test_components_kinds_filter(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "components", monkeypatch)
    at.selectbox(key="components_title").select("copenhagen").run()
    at.multiselect(key="components_kinds_copenhagen").set_value(["facade tile"]).run()
    assert set(at.dataframe[0].value["kind"]) == {"facade tile"}


@pytest.mark.parametrize("page", ["players", "components"])
def test_missing_database_is_explained(tmp_path: Path, page: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(tmp_path / "none.duckdb", page, monkeypatch)
    assert "No database at" in texts(at)


def test_review_shows_each_decisions_win_chance_loss(analysed_db: tuple[Path, str, str],  # noqa: F811
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db, analysed, _ = analysed_db
    dec = run(db, q.game_decisions, game_id=analysed)
    assert dec.height
    r = dec.row(3, named=True)
    at = open_page(db, "game_review", monkeypatch, game=analysed, seq=str(r["move_seq"]))
    page = texts(at)
    assert f"The decision at event {r['move_seq']}" in page
    assert f"{abs(r['lost']):.2%} of win chance" in page
    exp = [e for e in at.expander if e.label.startswith("Every decision's win-chance loss")]
    assert exp and f"({dec.height} analysed decisions)" in exp[0].label
    table = next(d.value for d in at.dataframe if "lost" in d.value.columns)
    assert list(table["event"] if "event" in table.columns else table["move_seq"]) == dec["move_seq"].to_list()
    assert table["lost"].tolist() == pytest.approx((dec["lost"] * 100).to_list())
    # the same decisions on the mover's player page
    pid = r["player_id"]
    at = open_page(db, "players", monkeypatch, player=pid)
    n = dec.filter(pl.col("player_id") == pid).height
    assert {m.label: m.value for m in at.metric}["Analysed decisions"] == f"{n:,}"


@pytest.fixture(scope="module")
def value_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Two Coal Baron games, the value agent against a random one, analysed by the value model."""
    recs = [simulate_one(get_game("coal_baron"), 2, 5, i, agents=["value", "random"]) for i in range(2)]
    db = ingested_and_analysed(tmp_path_factory.mktemp("choices"), recs, Settings(method="value", explain=2, choices=True), 2)
    return db, recs[0].id


def test_review_and_player_page_show_what_each_choice_gave_away(value_db: tuple[Path, str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    db, game_id = value_db
    dec = run(db, q.game_decisions, game_id=game_id)
    worst = dec.filter(pl.col("moves") >= 2).sort("given_away", descending=True).row(0, named=True)
    assert worst["given_away"] > 0
    at = open_page(db, "game_review", monkeypatch, game=game_id, seq=str(worst["move_seq"]))
    assert not at.exception
    page = texts(at)
    assert (f"It gave away {worst['given_away']:.2%} of win chance against the best of the {worst['moves']} moves"
            in page) and worst["best_words"] in page
    # Coal Baron's readings of one move against another were not borne out when played on: the page says so
    import dataclasses

    from dashboard.winchances import UNCONFIRMED
    from replay import evaluator

    assert UNCONFIRMED in page
    assert run(db, q.game_analysis, game_id=game_id)["moves_confirmed"] is False
    alts = run(db, q.game_alternatives, game_id=game_id)
    at = open_page(db, "game_review", monkeypatch, game=game_id, seq=str(int(alts["seq"][0])))
    table = at.table[-1].value  # the alternatives: a model's readings, with no sampling interval
    assert list(table.columns) == ["win chance", ""] and "played" in table[""].tolist()
    assert texts(at).count(UNCONFIRMED) >= 1
    features = evaluator.feature_set("coal_baron")
    monkeypatch.setattr(evaluator, "feature_set", lambda game_id: dataclasses.replace(features, choices=True))
    assert run(db, q.game_analysis, game_id=game_id)["moves_confirmed"] is True
    st.cache_data.clear()  # the page's queries are cached
    assert UNCONFIRMED not in texts(open_page(db, "game_review", monkeypatch, game=game_id,
                                              seq=str(worst["move_seq"])))
    monkeypatch.undo()
    best = dec.filter((pl.col("moves") >= 2) & (pl.col("given_away") <= 0)).row(0, named=True)
    at = open_page(db, "game_review", monkeypatch, game=game_id, seq=str(best["move_seq"]))
    assert f"It was the best of the {best['moves']} moves the player had" in texts(at)
    table = next(d.value for d in at.dataframe if "given_away" in d.value.columns)
    assert table["given_away"].tolist() == pytest.approx((dec["given_away"] * 100).to_list(), nan_ok=True)
    # Jump to lists the three costliest choices of 10 points or more
    costly = dec.filter((pl.col("moves") >= 2) & (pl.col("given_away") >= 0.10)).sort(
        "given_away", descending=True).head(3)
    assert costly.height == 3
    options = at.selectbox(key="review_jump").options
    for r in costly.iter_rows(named=True):
        assert any(o.startswith(f"event {r['move_seq']}: ") and f"(gave away {r['given_away']:.0%})" in o
                   for o in options), options
    assert sum("costly choice" in o for o in options) == 3
    pid = worst["player_id"]
    at = open_page(db, "players", monkeypatch, player=pid)
    assert not at.exception
    prof = run(db, q.player_profile, player_id=pid)
    both = prof["decisions"]  # the player's choices in both games
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Win chance given away per choice"] == f"{both['avg_given_away']:.2%}"
    assert metrics["Best move chosen"] == f"{both['best_share']:.0%}"
    shown = next(d.value for d in at.dataframe if "best_words" in d.value.columns)
    assert shown["best_words"].tolist() == both["worst_choices"]["best_words"].to_list()
    specs = [json.loads(el.proto.spec) for el in at.main if el.type.endswith("vega_lite_chart")]
    chart = next(sp for sp in specs if "given away per choice, game by game" in json.dumps(sp.get("title")))
    assert prof["choices_by_game"].height == 2 and chart["encoding"]["y"]["field"] == "avg_given_away"


@pytest.mark.parametrize(("title", "kinds"), [
    ("pax_pamir", {"event card"}), ("perikles", {"influence tile"}),
    ("praga", {"upgrade tile", "wall tile", "building tile"}),
])
def test_components_page_counts_what_positional_moves_took(sample_db: Path, title: str, kinds: set[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "components", monkeypatch, game=title)  # a link: /components?game=<title>
    assert at.selectbox(key="components_title").value == title
    res = run(sample_db, q.component_stats, title=title)
    assert res.uncounted == ()
    table = at.dataframe[0].value
    shown = table[table["kind"].isin(list(kinds))]
    want = res.rows.filter(pl.col("kind").is_in(list(kinds)))
    assert set(shown["kind"]) == kinds
    assert list(shown["label"]) == want.get_column("label").to_list()
    assert list(shown["players"]) == want.get_column("players").to_list()
    for kind in kinds:
        assert shown[shown["kind"] == kind]["players"].sum() > 0, kind
    assert "the replay knows" in texts(at)
