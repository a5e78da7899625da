"""Every page under Streamlit's AppTest: renders without exception, shows its elements, reacts."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from analytics import queries as q
from analytics.queries import run

from .conftest import DIVERGED_ID, TITLES

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")


def open_page(db: Path, page: str | None, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("GAMEREC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    if page is not None:
        at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [m.value for m in at.info] + [m.value for m in at.caption]
    parts += [m.value for m in at.warning] + [m.value for m in at.error] + [m.value for m in at.success]
    return "\n".join(str(p) for p in parts)


def test_overview(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, None, monkeypatch)
    assert at.title[0].value == "Overview"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Games"] == str(3 * len(TITLES))
    assert metrics["Diverged games"] == "1" and metrics["Quarantined records"] == "1"
    # highest scores: one title at a time (points of different games are not comparable)
    first = run(sample_db, q.titles)[0]
    assert at.selectbox(key="overview_top_title").value == first
    assert at.selectbox(key="overview_top_title").options == [q.title_label(t) for t in run(sample_db, q.titles)]
    top = at.dataframe[0].value
    expected = run(sample_db, q.top_scores, limit=10, title=first)
    assert list(top["final_score"]) == expected.get_column("final_score").to_list()
    assert list(top["final_score"]) == sorted(top["final_score"], reverse=True)
    assert "Based on" in texts(at)
    at.selectbox(key="overview_top_title").select("copenhagen").run()
    ids = {g.split("game=")[1] for g in at.dataframe[0].value["review"]}
    assert ids and all(g.startswith("sim-copenhagen-") for g in ids)


def test_overview_first_load_opens_few_connections(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each query opens its own connection (a fresh DuckDB attaching the snapshot, as costly as a query
    on 100,000 games): the Overview's first load reads its figures over one, not one per chart."""
    import streamlit as st

    opened: list[str] = []
    connect = q.connect

    def counted(db: object) -> object:
        opened.append(str(db))
        return connect(db)  # type: ignore[arg-type]

    monkeypatch.setattr(q, "connect", counted)
    st.cache_data.clear()
    at = open_page(sample_db, None, monkeypatch)
    assert at.metric[0].value == str(3 * len(TITLES))
    # the database check, the titles (both shared by every page), the page's figures, one title's top scores
    assert len(opened) == 4, opened


def test_game_review_steps_with_buttons_slider_and_jumps(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "game_review", monkeypatch)
    assert at.title[0].value == "Game review"
    best = run(sample_db, q.game_list).get_column("game_id")[0]
    assert at.selectbox(key="review_game").value == best
    assert at.slider(key="review_seq").value == 0
    assert "Event 0 of" in texts(at)
    # the title is a heading, never a metric whose value a narrow column cuts ("Pax Pamir (2…", issue 26)
    title = q.title_label(run(sample_db, q.game_header, game_id=best)["title"])
    assert title in [h.value for h in at.subheader] and "Title" not in [m.label for m in at.metric]
    at.button(key="review_next").click().run()
    assert at.slider(key="review_seq").value == 1 and "Event 1 of" in texts(at)
    at.button(key="review_prev").click().run()
    assert at.slider(key="review_seq").value == 0
    at.slider(key="review_seq").set_value(40).run()
    assert "Event 40 of" in texts(at)
    assert at.query_params["seq"] == ["40"] or at.query_params["seq"] == "40"
    assert not at.exception
    # the players table has one row per player, the timeline chart is there
    n_players = run(sample_db, q.game_players, game_id=best).height
    resources, scores = at.table[0].value, at.table[1].value
    assert len(resources.columns) == n_players and "score" in resources.index  # players across
    assert len(scores.columns) == n_players  # categories down, players across
    assert any(el.type == "arrow_vega_lite_chart" or "vega" in el.type for el in at.main)
    # jump to the end through the "Jump to" box
    last = run(sample_db, q.game_header, game_id=best)["n_events"] - 1
    jump = at.selectbox(key="review_jump")
    assert jump.options[-1] == f"event {last}: the end"
    jump.select(last).run()
    assert at.slider(key="review_seq").value == last
    assert at.selectbox(key="review_jump").value is None


def test_game_review_filters(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "game_review", monkeypatch)
    at.selectbox(key="review_status").select("diverged").run()
    assert at.selectbox(key="review_game").value == DIVERGED_ID
    assert len(at.selectbox(key="review_game").options) == 1
    at.selectbox(key="review_title").select("copenhagen").run()
    at.selectbox(key="review_status").select("(all)").run()
    assert at.selectbox(key="review_game").value.startswith("sim-copenhagen")
    at.text_input(key="review_search").input("no-such-game").run()
    assert "No game matches" in texts(at)


def test_game_review_opens_at_a_link(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run(sample_db, q.game_divergences, game_id=DIVERGED_ID).get_column("seq")[0]
    at = open_page(sample_db, None, monkeypatch, game=DIVERGED_ID, seq=str(first))
    at.switch_page("views/game_review.py").run()
    assert not at.exception
    assert at.selectbox(key="review_game").value == DIVERGED_ID
    assert at.slider(key="review_seq").value == first
    body = texts(at)
    assert "Where it was decided" in body
    assert "Divergence here (observation mismatch)" in body  # in words (issue 26)
    assert "recorded" in body and "replayed" in body


def test_game_review_unknown_game_link(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, None, monkeypatch, game="nope")
    at.switch_page("views/game_review.py").run()
    assert not at.exception
    assert "no game 'nope'" in texts(at)


def test_score_breakdowns(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "score_breakdowns", monkeypatch)
    assert at.title[0].value == "Score breakdowns"
    assert at.selectbox(key="breakdown_title").options
    for title in TITLES:
        at.selectbox(key="breakdown_title").select(title).run()
        assert not at.exception
        sizes = run(sample_db, q.title_player_counts, title=title)
        # one player count at a time (ranks of games of other sizes never mix)
        radio = at.radio(key="breakdown_players")
        assert radio.options == [f"{n} ({g} games)" for n, g in sizes]
        n = sizes[-1][0]
        radio.set_value(n).run()
        assert f"finished {n}-player games" in texts(at)
        ranks = run(sample_db, q.breakdown_by_rank, title=title, player_count=n).get_column("rank")
        assert ranks.max() <= n
        assert at.selectbox(key="breakdown_game").value.startswith(f"sim-{title}")
        assert ("stand-in values" in texts(at)) == (title == "praga")


@pytest.mark.skipif("praga" not in TITLES, reason="no Praga engine")
def test_praga_review_says_why_tiles_go_by_their_ids(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboard.titles.praga import TILES_NOTE as TILE_IDS_NOTE

    game = run(sample_db, q.game_list, title="praga").get_column("game_id")[0]
    page = texts(open_page(sample_db, "game_review", monkeypatch, game=game, seq="40"))
    assert TILE_IDS_NOTE in page and "no public source prints their contents" in page
    other = run(sample_db, q.game_list, title="copenhagen").get_column("game_id")[0]
    assert TILE_IDS_NOTE not in texts(open_page(sample_db, "game_review", monkeypatch, game=other))


def test_pax_pamir_page(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "pax_pamir", monkeypatch)
    assert at.title[0].value == "Pax Pamir dominance checks"
    if "pax_pamir" not in TITLES:
        assert "no Pax Pamir" in texts(at)
        return
    checks = run(sample_db, q.dominance_success_by_check)
    if checks.is_empty():
        assert "no dominance checks yet" in texts(at)
        return
    assert {m.label for m in at.metric} >= {"Dominance checks", "Successful"}
    games = run(sample_db, q.dominance_games)
    if len(games) > 1:
        at.selectbox(key="dominance_game").select(games[1]).run()
        assert not at.exception
    assert "blocks afghan" in texts(at)
    # checks are numbered one way on the whole page; players by name, not by id
    outcome = run(sample_db, q.dominance_points_by_outcome)
    assert set(outcome["check"]) <= set(checks["check"])
    game = at.selectbox(key="dominance_game").value
    names = set(run(sample_db, q.game_players, game_id=game)["name"])
    shown = [df.value for df in at.dataframe if "player" in df.value.columns]
    assert shown and all(set(df["player"]) <= names for df in shown)
    # an unsuccessful check ranks players by cylinders in play (rules §15), never by influence
    assert "scored by influence" not in texts(at)
    shown = run(sample_db, q.dominance_checks_of_game, game_id=at.selectbox(key="dominance_game").value)
    if not shown.get_column("successful").all():
        assert "not successful — scored by cylinders in play" in texts(at)


def test_coal_baron_page(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "coal_baron", monkeypatch)
    assert at.title[0].value == "Coal Baron shift rankings"
    assert "Based on 3 finished Coal Baron games" in texts(at)
    games = run(sample_db, q.shift_games)
    at.selectbox(key="shift_game").select(games[-1]).run()
    assert not at.exception and at.selectbox(key="shift_game").value == games[-1]


def test_strategy_page(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "strategy", monkeypatch)
    assert at.title[0].value == "Strategy statistics"
    for title in TITLES:
        at.selectbox(key="strategy_title").select(title).run()
        assert not at.exception
        edge = at.dataframe[0].value
        assert "games" in edge.columns and (edge["games"] <= 3).all()
        assert "games," in texts(at)
        # seat win rates say which agent played the seat, and agents have their own table
        assert "Agent" in [h.value for h in at.subheader]
        assert "agents" in at.dataframe[-2].value.columns and set(at.dataframe[-1].value["agent"]) <= {
            "greedy", "random"}
        # categories in words, rates as percentages (0-100, shown with two decimals)
        assert not any("_" in c for c in edge["category"])
        assert at.dataframe[-1].value["win_rate"].max() > 1


def test_divergences_page(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(sample_db, "divergences", monkeypatch)
    assert at.title[0].value == "Divergences"
    keys = at.dataframe[0].value
    assert list(keys["what"]) == ["score"] and list(keys["games"]) == [1]
    assert list(keys["kind"]) == ["observation mismatch"]  # in words (issue 26)
    table = at.dataframe[1].value
    assert list(table["game_id"]) == [DIVERGED_ID]
    assert table["open"][0].startswith(f"review?game={DIVERGED_ID}&seq=")
    assert int(table["recorded"][0]) == int(table["replayed"][0]) + 1
    assert "first diverges at event" in texts(at)
    assert "observation_mismatch" not in texts(at) and list(table["kind"]) == ["observation mismatch"]  # words
    at.selectbox(key="div_kind").select("observation_mismatch").run()
    assert list(at.dataframe[1].value["game_id"]) == [DIVERGED_ID]
    assert len(at.dataframe) == 3  # and the quarantine below it
    assert "Unreadable records (1)" in [s.value for s in at.subheader]


@pytest.mark.parametrize("page", ["pax_pamir", "coal_baron"])
def test_absent_titles_say_so(copenhagen_db: Path, page: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(copenhagen_db, page, monkeypatch)
    assert "There are no" in texts(at) and "games in this database yet" in texts(at)


def test_no_divergences(copenhagen_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(copenhagen_db, "divergences", monkeypatch)
    assert "No divergences" in texts(at)


@pytest.mark.parametrize("page", [None, "game_review", "score_breakdowns", "pax_pamir", "coal_baron",
                                  "strategy", "divergences", "departures"])
def test_missing_database_is_explained(tmp_path: Path, page: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_page(tmp_path / "none.duckdb", page, monkeypatch)
    assert "No database at" in texts(at) and "gamerec ingest" in texts(at)


@pytest.mark.skipif("coal_baron" not in TITLES, reason="no Coal Baron engine")
def test_a_shift_end_shows_one_box_of_rankings(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = run(sample_db, q.shift_games)[0]
    ranks = run(sample_db, q.shift_rankings_of_game, game_id=gid)
    seq = int(ranks.get_column("seq")[0])
    n = ranks.filter(pl.col("seq") == seq).height
    at = open_page(sample_db, "game_review", monkeypatch, game=gid, seq=str(seq))
    labels = [e.label for e in at.expander if e.label.startswith("Milestone at this event")]
    assert labels.count(f"Milestone at this event: shift ranking ×{n}") == 1
    assert not any(label == "Milestone at this event: shift ranking" for label in labels)
    # the score by category: categories down, players across (never wider than the players)
    score = at.table[-1].value
    assert score.index.name == "category" and len(score.columns) == ranks.get_column("player_id").n_unique()
    assert not any("_" in c for c in score.index)


def test_biggest_gain_is_looked_for_before_the_end_of_game_scoring(sample_db: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from analytics.review import record_for_game

    at = open_page(sample_db, "game_review", monkeypatch)
    gid = at.selectbox(key="review_game").value
    record = run(sample_db, record_for_game, game_id=gid)
    end = max(i for i, e in enumerate(record.events) if e.kind != "observe")
    found = re.search(r"event (\d+): biggest gain during play", texts(at))
    if found:
        assert int(found.group(1)) < end


def test_a_lake_moved_after_its_catalog_was_written_is_explained_on_every_page(
        sample_lake: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog's views name the Parquet files by full path: a moved lake leaves them pointing
    nowhere. Every page says so in a sentence (and how to rebuild it) instead of DuckDB's traceback."""
    import shutil

    from ingest.lake import build_catalog

    first, moved = tmp_path / "first", tmp_path / "moved"
    shutil.copytree(sample_lake.parent, first)
    build_catalog(str(first))  # views over the files under first/
    shutil.copytree(first, moved)
    shutil.rmtree(first)
    for page in (None, "game_review", "divergences", "strategy"):
        at = open_page(moved / "gamerec.duckdb", page, monkeypatch)  # no exception shown
        errors = [e.value for e in at.error]
        assert errors and "cannot be read" in errors[0] and "--lake DIR` again" in errors[0], (page, errors)


@pytest.mark.parametrize(("page", "params"), [("coal_baron", {}), ("strategy", {}), ("players", {}),
                                              ("players", {"player": "p1"}), ("divergences", {})])
def test_tables_head_their_columns_in_words(sample_db: Path, monkeypatch: pytest.MonkeyPatch, page: str,
                                            params: dict[str, str]) -> None:
    """Issue 26: raw ids (avg_points, player_id, played_at...) where the docs promise words."""
    import json
    import re

    at = open_page(sample_db, page, monkeypatch, **params)
    assert at.dataframe
    for df in at.dataframe:
        config = json.loads(df.proto.columns or "{}")
        shown = [config.get(c, {}).get("label", c) for c in df.value.columns if not config.get(c, {}).get("hidden")]
        assert not [c for c in shown if "_" in str(c)], shown
    assert not re.search(r"\b(fill|move|check|avg)_[a-z]+", texts(at))
