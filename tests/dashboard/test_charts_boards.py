"""Chart functions (their Vega-Lite specs) and board views (their HTML) on real data."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import altair as alt
import polars as pl
import pytest

from analytics import queries as q
from analytics.queries import run
from analytics.review import Stepper, record_for_game
from dashboard import boards, charts
from replay.games import get_game
from replay.replayer import state_at
from replay.simulate import simulate_one

from .conftest import DIVERGED_ID, TITLES


def _rows(chart: alt.TopLevelMixin) -> int:
    """How many data rows a chart sends to the browser (all its datasets)."""
    spec = chart.to_dict()
    return sum(len(v) for v in spec.get("datasets", {}).values())


def _layers(spec: dict) -> list[dict]:
    out = [spec]
    for key in ("layer", "vconcat", "hconcat", "concat"):
        for sub in spec.get(key, []):
            out.extend(_layers(sub))
    if "spec" in spec:
        out.extend(_layers(spec["spec"]))
    return out


def test_overview_charts(sample_db: Path) -> None:
    for fn, query in ((charts.games_by_title_status, q.games_by_title_status),
                      (charts.score_histograms, q.score_distribution),
                      (charts.seat_win_rates, q.seat_win_rates)):
        df = run(sample_db, query)
        chart = fn(df)
        assert _rows(chart) == df.height > 0


def test_dense_timeline_fills_and_stacks() -> None:
    df = pl.DataFrame({"seq": [2, 5, 5, 9], "player_id": ["p1"] * 4, "category": ["a", "b", "a", "a"],
                       "points": [1, 3, 2, 2]})
    dense = charts.dense_timeline(df)
    a = dense.filter(pl.col("category") == "a").sort("seq").get_column("points").to_list()
    b = dense.filter(pl.col("category") == "b").sort("seq").get_column("points").to_list()
    assert a == [0, 1, 2, 2] and b == [0, 0, 3, 3]  # from zero at event 0


def test_score_timeline_marks_the_step_and_the_divergences(sample_db: Path) -> None:
    tl = run(sample_db, q.game_timeline, game_id=DIVERGED_ID)
    divs = run(sample_db, q.game_divergences, game_id=DIVERGED_ID).get_column("seq").to_list()
    players = run(sample_db, q.game_players, game_id=DIVERGED_ID).get_column("player_id").to_list()
    spec = charts.score_timeline(tl, 17, divs, {"p1": "Ana"}, departure_seqs=[5, 9]).to_dict()
    assert len(spec["vconcat"]) == len(players)
    assert spec["vconcat"][0]["title"] == "Ana (p1)"
    assert spec["datasets"][charts.STEP_DATA] == [{"seq": 17}]
    for panel, pid in zip(spec["vconcat"], players):
        final, area, div, dep, step, final_text = panel["layer"]
        assert final["mark"]["type"] == "rect" and final_text["mark"]["type"] == "text"
        assert area["mark"]["type"] == "area" and area["mark"]["interpolate"] == "step-after"
        assert f"datum.player_id == '{pid}'" in area["transform"][0]["filter"]
        assert div["mark"]["type"] == "rule" and div["mark"]["color"] == "#c0392b"
        assert dep["mark"]["type"] == "rule" and "'departure'" in dep["transform"][0]["filter"]
        assert step["mark"]["type"] == "rule" and step["data"] == {"name": charts.STEP_DATA}
    (rows,) = [v for k, v in spec["datasets"].items() if k != charts.STEP_DATA and any("layer" in r for r in v)]
    marked = sorted({r["seq"] for r in rows if r["layer"] == "divergence"})
    assert marked == sorted(set(divs)) and len(marked) >= 1
    assert sum(1 for r in rows if r["layer"] == "divergence") == len(players) * len(marked)
    assert sorted({r["seq"] for r in rows if r["layer"] == "departure"}) == [5, 9]
    assert len(rows) < 10_000
    moved = charts.with_step(spec, 40)
    assert moved["datasets"][charts.STEP_DATA] == [{"seq": 40}]
    assert spec["datasets"][charts.STEP_DATA] == [{"seq": 17}]
    # a step changes nothing but the step's own little dataset
    assert {k: v for k, v in moved.items() if k != "datasets"} == {k: v for k, v in spec.items() if k != "datasets"}
    assert charts._js_string("it's") == "'it\\'s'"


def test_title_charts(sample_db: Path) -> None:
    title = TITLES[0]
    assert _rows(charts.breakdown_by_rank(run(sample_db, q.breakdown_by_rank, title=title))) > 0
    assert _rows(charts.winners_vs_rest(run(sample_db, q.breakdown_winners_vs_rest, title=title))) > 0
    assert _rows(charts.category_edge(run(sample_db, q.category_edge, title=title))) > 0
    gid = run(sample_db, q.game_list, title=title).get_column("game_id")[0]
    assert _rows(charts.game_breakdown(run(sample_db, q.game_breakdown_named, game_id=gid))) > 0
    assert _rows(charts.divergence_kinds(run(sample_db, q.divergence_kinds))) == 1
    assert _rows(charts.copenhagen_lines(run(sample_db, q.copenhagen_lines))) == 4


@pytest.mark.skipif("coal_baron" not in TITLES, reason="no Coal Baron engine")
def test_coal_baron_charts(sample_db: Path) -> None:
    assert _rows(charts.shift_points(run(sample_db, q.shift_points))) > 0
    assert _rows(charts.shift_deciders(run(sample_db, q.shift_deciders))) > 0
    gid = run(sample_db, q.shift_games)[0]
    ranks = run(sample_db, q.shift_rankings_of_game, game_id=gid)
    spec = charts.game_shift_heatmap(ranks, {"p1": "Ana"}).to_dict()
    assert "Ana" in str(spec["datasets"])


def _encodings(spec: dict, channel: str) -> list[dict]:
    return [layer["encoding"][channel] for layer in _layers(spec) if channel in layer.get("encoding", {})]


def test_the_shift_heat_map_shows_names_and_categories_whole() -> None:
    """Issue 26: names were cut ("hloe" for Chloe) under a 220 px facet; labels get their room."""
    ranks = pl.DataFrame({"shift": [1] * 6, "seq": [40] * 6,
                          "category": ["light coal", "light coal", "light coal", "deliveries by train"] * 1 + ["x", "x"],
                          "player_id": ["p1", "p2", "p3", "p1", "p2", "p3"], "value": [3, 1, 0, 2, 2, 1],
                          "rank": [1, 2, None, 1, 1, 2], "points": [6, 2, 0, 6, 6, 2]})
    names = {"p1": "Chloe", "p2": "Maximilian-Alexander", "p3": "Bo"}
    spec = charts.game_shift_heatmap(ranks, names).to_dict()
    x_enc = _encodings(spec, "x")[0]
    assert x_enc["axis"]["labelLimit"] == 0 and x_enc["axis"]["labelAngle"] == 0
    assert all(e["axis"]["labelLimit"] == 0 for e in _encodings(spec, "y"))
    step = spec["spec"]["width"]["step"]
    assert step >= 7 * len("Maximilian-Alexander")  # the longest name fits its cell
    assert x_enc["sort"] == ["Chloe", "Maximilian-Alexander", "Bo"]  # seat order


def test_a_seat_that_never_won_is_visible() -> None:
    """Issue 26: a 0% bar has no height; every bar gets a cap, and 0% a label."""
    df = pl.DataFrame({"title": ["pax_pamir"] * 2, "player_count": [2, 2], "seat": [1, 2], "games": [5, 5],
                       "wins": [5, 0], "win_rate": [1.0, 0.0], "agents": [None, None]},
                      schema_overrides={"agents": pl.String})
    spec = charts.seat_win_rates(df).to_dict()
    marks = [(layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"])
             for layer in spec["spec"]["layer"]]
    assert marks == ["bar", "tick", "text"]
    zero = spec["spec"]["layer"][2]
    assert zero["transform"] == [{"filter": "datum.win_rate == 0"}] and zero["encoding"]["text"] == {"value": "0%"}
    assert spec["facet"]["header"]["labelLimit"] == 0  # "Pax Pamir (2nd edition)" whole


def test_the_final_score_gets_a_readable_step_of_its_own() -> None:
    """Issue 26: the end-of-game scoring was a one-event sliver at the right edge of the score chart."""
    tl = pl.DataFrame({"seq": [10, 239, 240], "player_id": ["p1"] * 3, "category": ["a", "end", "end"],
                       "points": [3, 20, 20]})  # final scoring at the last event (239), closing point at 240
    spec = charts.score_timeline(tl, 0, [], {"p1": "Ana"}).to_dict()
    width = charts.final_width(240)
    assert width >= 240 / 15  # at least a fifteenth of the axis, not one event
    final, area = spec["vconcat"][0]["layer"][:2]
    assert area["encoding"]["x"]["scale"]["domain"] == [0, 240 + width]
    (rows,) = [v for k, v in spec["datasets"].items() if k != charts.STEP_DATA and any("layer" in r for r in v)]
    assert {r["points"] for r in rows if r["seq"] == 240 + width and r["category"] == "end"} == {20}
    (band,) = [v for v in spec["datasets"].values() if v and "from" in v[0]]
    assert band == [{"from": 239, "to": 240 + width, "text": "final score"}]


@pytest.mark.skipif("pax_pamir" not in TITLES, reason="no Pax Pamir engine")
def test_pax_pamir_charts(sample_db: Path) -> None:
    success = run(sample_db, q.dominance_success_by_check)
    if success.is_empty():
        pytest.skip("no dominance check in the fixture games")
    assert _rows(charts.dominance_success(success)) == success.height
    gid = run(sample_db, q.dominance_games)[0]
    blocks = charts.dominance_blocks(run(sample_db, q.dominance_checks_of_game, game_id=gid))
    assert _rows(blocks) % 3 == 0 and _rows(blocks) > 0


# --------------------------------------------------------------------------
# boards
# --------------------------------------------------------------------------


def _mid_state(title: str, seed: int = 4):  # noqa: ANN202
    game = get_game(title)
    rec = simulate_one(game, game.min_players + 1, seed, 0)
    return rec, state_at(rec, int(len(rec.events) * 0.6))


@pytest.mark.parametrize("title", TITLES)
def test_every_board_draws_a_real_position(title: str) -> None:
    rec, state = _mid_state(title)
    names = {str(p["id"]): str(p["name"]) for p in rec.players}
    view = boards.render(title, state.snapshot(), names)
    assert view.error is None and view.html is not None
    assert len(view.resources) == len(names)
    for r, pid in zip(view.resources, names):
        assert pid in r["player"]
    table = boards.resources_table(view.resources, [1] * len(names))
    # players across, resources down: as wide as the players, however many resources (issue 26: Praga's overflowed)
    assert table.columns == ["resource", *(r["player"] for r in view.resources)]
    assert table.get_column("resource")[0] == "score" and table.height == len(set().union(*view.resources))
    for name in names.values():
        assert name in view.html


@pytest.mark.skipif("copenhagen" not in TITLES, reason="no Copenhagen engine")
def test_copenhagen_facade_cells_and_windows() -> None:
    from dashboard.titles.copenhagen import facade_html

    _, state = _mid_state("copenhagen")
    board = next(iter(state.snapshot()["players"].values()))["board"]
    html = facade_html(board)
    filled = [c for row in board for c in row if c]
    assert html.count("background:") - html.count("background:#dff3ff") == len(filled)
    assert html.count("background:#dff3ff") == sum(1 for c in filled if c["window"])
    # street level (row 1) is drawn last, at the bottom
    labels = re.findall(r'title="row \(1 = street level\)">(\d+)</th>', html)
    assert labels == [str(i) for i in range(len(board), 0, -1)]


@pytest.mark.skipif("coal_baron" not in TITLES, reason="no Coal Baron engine")
def test_coal_baron_orders_show_every_space() -> None:
    from dashboard.titles.coal_baron import _order_spaces

    _, state = _mid_state("coal_baron")
    snap = state.snapshot()
    html = boards.render("coal_baron", snap, {p: p for p in snap["players"]}).html or ""
    spaces = [sp for p in snap["players"].values() for o in p["outstanding"] for sp in _order_spaces(o)]
    assert spaces and html.count('title="needs ') == len(spaces)
    assert html.count("(filled)") == sum(1 for _, full in spaces if full)
    assert _order_spaces({"spaces": [{"needs": "grey", "coal": ["grey"]}]}) == [("grey", True)]
    assert _order_spaces({"needs": ["black", "brown"], "coal": [[], ["brown"]]}) == [("black", False), ("brown", True)]


@pytest.mark.skipif("coal_baron" not in TITLES, reason="no Coal Baron engine")
def test_coal_baron_face_down_tiles_show_as_face_down() -> None:
    from replay.games import get_game

    state = get_game("coal_baron").initial_state(["p1", "p2"], {"ruleset": "bga"})
    state.apply_chance({"draw": "tiles", "items": [None] * 6})
    snap = state.snapshot()
    html = boards.render("coal_baron", snap, {"p1": "p1", "p2": "p2"}).html or ""
    assert html.count("face down") == 6 and "Factory</b> empty" not in html


@pytest.mark.skipif("coal_baron" not in TITLES, reason="no Coal Baron engine")
def test_the_board_says_who_left_the_table_and_what_they_left_aside() -> None:
    """Coal Baron, after the first seat left at a tile draw-five (tests/ingest/bga_logs): the banner
    every title shows, and the five tiles aside until the next draw-five of the deck."""
    from ingest.bga import import_file
    from replay.decisions import LeaveTable
    from replay.record import MoveEvent
    from replay.replayer import replay as replay_record

    log = Path(__file__).resolve().parents[1] / "ingest" / "bga_logs" / "coal_baron" / "coalbaron_2p_seed22018.log.json.gz"
    rec = import_file(log).record
    at = next(i for i, e in enumerate(rec.events) if isinstance(e, MoveEvent) and isinstance(e.move, LeaveTable))
    state = replay_record(rec, until=at, keep_frames=False).state
    assert state is not None
    html = boards.render("coal_baron", state.snapshot(), {"84100181": "Ann", "84100182": "Bob"}).html or ""
    assert "Left the table: Ann (84100181); Board Game Arena plays their turns" in html
    assert "Left aside</b> at a draw-five: 5 tunnel tiles (?, ?, ?, ?, ?)" in html
    before = replay_record(rec, until=at - 1, keep_frames=False).state
    assert before is not None and "Left" not in (boards.render("coal_baron", before.snapshot(), {}).html or "")


@pytest.mark.skipif("pax_pamir" not in TITLES, reason="no Pax Pamir engine")
def test_pax_pamir_map_has_every_region_and_the_market() -> None:
    _, state = _mid_state("pax_pamir")
    snap = state.snapshot()
    html = boards.render("pax_pamir", snap, {p: p for p in snap["players"]}).html or ""
    styles: list[str] = []

    class Styles(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            styles.extend(v or "" for k, v in attrs if k == "style")

    Styles().feed(html)
    (grid,) = [st for st in styles if "grid-template-areas" in st]
    for region in snap["map"]["regions"]:
        assert region in grid  # the layout survived HTML parsing (no quote broke the attribute)
        assert f"grid-area:{region}" in styles or any(st.startswith(f"grid-area:{region};") for st in styles)
    assert "Market" in html and "cost 0" in html


@pytest.mark.skipif("pax_pamir" not in TITLES, reason="no Pax Pamir engine")
def test_pax_pamir_market_columns_count_from_one_with_their_costs() -> None:
    from dashboard.titles import pax_pamir

    _, state = _mid_state("pax_pamir")
    snap = state.snapshot()
    html = pax_pamir.board_html({**snap, "favored_suit": "political"}, {})
    heads = re.findall(r"<th class='gr-muted'>([^<]*)</th>", html)
    assert heads[:6] == [f"column {i} · cost {i - 1}" for i in range(1, 7)]  # as the rulebook counts them
    assert heads[6:8] == ["top", "bottom"] and "column 0" not in html
    military = pax_pamir.board_html({**snap, "favored_suit": "military"}, {})
    assert "column 6 · cost 10" in military  # twice the column's place while military is favored


def test_generic_board_for_titles_without_a_view() -> None:
    snap = {"pos": {"p1": 3, "p2": 5}, "banked": {"p1": 1, "p2": 0}, "current": 0, "rolled": None}
    view = boards.render("toy", snap, {"p1": "Ana", "p2": "Ben"})
    assert view.html is None
    assert view.resources == [{"player": "Ana (p1)", "pos": 3, "banked": 1},
                              {"player": "Ben (p2)", "pos": 5, "banked": 0}]


def test_generic_view_expands_a_per_player_record_under_any_name() -> None:
    snap = {"p": {"p1": {"gold": 2, "vp": {"crane": 3, "walls": 0}, "walls": ["a", "b"]},
                  "p2": {"gold": 0, "vp": {"crane": 1, "walls": 1}, "walls": []}}, "era": 1}
    rows = boards.generic_resources(snap, {"p1": "Ana", "p2": "Ben"})
    assert rows == [{"player": "Ana (p1)", "gold": 2, "vp": "crane 3", "walls": 2},
                    {"player": "Ben (p2)", "gold": 0, "vp": "crane 1, walls 1", "walls": 0}]


def test_a_broken_snapshot_falls_back_to_the_generic_view() -> None:
    view = boards.render("copenhagen", {"players": {"p1": {"board": 5}}}, {"p1": "Ana"})
    assert view.html is None and view.error


def test_board_of_a_stored_game(sample_db: Path) -> None:
    rec = run(sample_db, record_for_game, game_id=DIVERGED_ID)
    step = Stepper(rec).step(len(rec.events) - 1)
    view = boards.render(rec.game, step.snapshot, {str(p["id"]): str(p["name"]) for p in rec.players})
    assert view.html and view.error is None


@pytest.mark.parametrize("title", TITLES)
def test_at_the_end_nobody_is_shown_to_move(title: str) -> None:
    from replay.replayer import replay as replay_record

    game = get_game(title)
    rec = simulate_one(game, game.min_players, 3, 0)
    r = replay_record(rec)
    assert r.state is not None and r.state.is_over()
    names = {str(p["id"]): str(p["name"]) for p in rec.players}
    view = boards.render(title, r.state.snapshot(), names)
    assert view.html is not None
    for phrase in ("to move", "to act", "actions left"):
        assert phrase not in view.html, phrase
    assert "over" in view.html


@pytest.mark.skipif("perikles" not in TITLES, reason="no Perikles engine")
def test_perikles_locations_say_who_won_them_by_their_printed_names() -> None:
    from dashboard.titles import perikles

    snap = {"locations": {"slots": [{"slot": 1, "key": "megarabattle", "owner": "megara", "vp": 5, "resolved": True},
                                    {"slot": 2, "key": "delium", "owner": "thebes", "vp": 5, "resolved": True}],
                          "claimed": {"p2": ["megarabattle"]}},
            "specials": {"p1": {"tile": "thessalanianallies", "used": False}}}
    names = {"p1": "Ana", "p2": "Ben"}
    html = perikles.board_html(snap, names)
    assert "Megara (battle)" in html and "won by Ben" in html and "won by nobody" in html
    assert "megarabattle" not in html.lower().replace(" ", "")
    rows = perikles.resources(snap, names)
    assert rows[0]["special"] == "Thessalian Allies (unused)"


def test_copenhagen_facade_axes_count_from_one_as_the_words_and_messages_do() -> None:
    from dashboard.titles.copenhagen import facade_html

    html = facade_html([[None] * 5 for _ in range(3)])
    assert 'title="column">1</th>' in html and 'title="column">5</th>' in html
    assert 'title="row (1 = street level)">1</th>' in html and 'title="row (1 = street level)">3</th>' in html
    assert 'title="column">0</th>' not in html and ">0</th>" not in html


@pytest.mark.skipif("praga" not in TITLES, reason="no Praga engine")
def test_praga_board_names_crane_spaces_slots_and_grid_rows_as_a_player_counts_them() -> None:
    from dashboard.titles import praga

    _, state = _mid_state("praga")
    snap = state.snapshot()
    html = praga.board_html(snap, {})
    # the crane's spaces by zone, each counted from 1 (the first red space is where a used tile goes)
    spaces = re.findall(r">((?:red|green|blue) \d+)<", html)
    zones = [str(p["zone"]) for p in snap["crane_view"]]
    assert spaces[0] == "red 1" and spaces == [f"{z} {zones[:i + 1].count(z)}" for i, z in enumerate(zones)]
    assert "red 0" not in html and "<th>pos</th>" not in html
    # display slots 1-3 and the special 4th
    assert "1: " in html and "4 special: " in html and ">0: " not in html
    p1 = next(iter(snap["p"].values()))
    assert f"Hunger Wall row {p1['hunger_wall']['row'] + 1}, column {p1['hunger_wall']['col'] + 1}" in html


@pytest.mark.parametrize(("title", "before"), [("coal_baron", "Before the first shift"),
                                               ("pax_pamir", "Before the first turn")])
def test_the_counter_before_the_first_shift_or_turn_is_not_shown_as_0(title: str, before: str) -> None:
    if title not in TITLES:
        pytest.skip(f"no {title} engine")
    game = get_game(title)
    rec = simulate_one(game, game.min_players, 3, 0)
    snap = state_at(rec, 0).snapshot()
    html = boards.render(title, snap, {}).html or ""
    assert before in html and "Shift 0" not in html and "Turn 0" not in html


@pytest.mark.skipif("pax_pamir" not in TITLES, reason="no Pax Pamir engine")
def test_pax_pamir_board_shows_the_wakhans_ai_card_coalition_and_influence_everywhere() -> None:
    from dashboard.titles import pax_pamir
    from replay.games import get_game

    state = get_game("pax_pamir").initial_state(["p1", "1"], {"ruleset": "bga", "wakhan": "1"})
    for card in (9, 13, 29, 44, 48, 61, 62, 63, 65, 67, 96, 95):
        state.apply_chance({"draw": "deck", "items": [card]})
    state.apply_move("p1", get_game("pax_pamir").parse_move({"type": "choose_loyalty", "coalition": "russian"}))
    state.apply_chance({"draw": "wakhan_deck", "items": [1]})  # russian, afghan, british
    html = pax_pamir.board_html(state.snapshot(), {"1": "Wakhan"})
    assert "pragmatic: afghan" in html and "AI card 1" in html
    assert "influence afghan 1 / british 1 / russian 1" in html
