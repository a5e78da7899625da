"""Players across games and components (``analytics.players``, ``analytics.components``, ``gamerec stats
--player`` / ``--components``), checked against figures computed here from the records themselves.

The fixture: the same six people meet across many simulated games of three titles (``people.py``);
one Copenhagen game is also present as two players' downloads of one BGA table (counted once);
one game is analysed (``gamerec analyse``'s code, random rollouts) for decision quality, and another by the
value model, which also judges every choice.
"""

from __future__ import annotations

import gzip
import math
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import duckdb
import orjson
import polars as pl
import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from analytics import components, players
from analytics.db import connect_readonly
from gamerec_cli.main import main
from ingest.pipeline import ingest
from ingest.winchances import run as analyse_run
from replay.analysis import Settings, analyse
from replay.record import Record, loads
from replay.replayer import replay

from .people import PEOPLE, RENAMED, as_bga_view, people_records

COUNTS = {"copenhagen": 24, "coal_baron": 6, "pax_pamir": 6}
BGA_TABLE = 777
ANALYSED = "sim-copenhagen-s5-2p-000000"
BY_VALUE = "sim-copenhagen-s5-2p-000003"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("people")
    raws: list[bytes] = []
    for title, n in COUNTS.items():
        raws += people_records(title, n)
    # one more Copenhagen game, as two viewers' downloads of one BGA table
    extra = people_records("copenhagen", COUNTS["copenhagen"] + 1)[-1]
    views = [as_bga_view(extra, BGA_TABLE, "u105"), as_bga_view(extra, BGA_TABLE, "u106")]
    with gzip.open(folder / "people.jsonl.gz", "wb") as fh:
        for raw in raws + views:
            fh.write(raw + b"\n")
    db = folder / "people.duckdb"
    ingest([str(folder)], db, workers=0, publish_every=0)
    records = [loads(r) for r in raws + views[:1]]  # the table once
    replays = {r.id: replay(r) for r in records}
    assert all(rep.status == "complete" for rep in replays.values())
    analysed = next(r for r in records if r.id == ANALYSED)
    summary = analyse_run([analysed], db, Settings(rollouts=2, agent="random", explain=0, method="rollouts"),
                          workers=0)
    assert not summary.errors
    by_value = next(r for r in records if r.id == BY_VALUE)
    assert not analyse_run([by_value], db, Settings(method="value", explain=0, choices=True), workers=0).errors
    return {"db": db, "records": records, "replays": replays, "by_value": by_value}


def _games_of(corpus: dict[str, Any], pid: str, title: str | None = None) -> list[tuple[Record, Any]]:
    return [(r, corpus["replays"][r.id]) for r in corpus["records"]
            if pid in r.player_ids and (title is None or r.game == title)]


def test_people_meet_across_many_games(corpus: dict[str, Any]) -> None:
    met = Counter(frozenset(r.player_ids) for r in corpus["records"])
    assert len(met) > 10 and all(len(_games_of(corpus, pid)) >= 10 for pid, _ in PEOPLE)


def test_resolve_by_id_or_any_name_shows_the_latest(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    assert players.resolve(con, "u101") == {"player_id": "u101", "name": RENAMED[1],
                                            "games": len(_games_of(corpus, "u101"))}
    assert players.resolve(con, "ana")["player_id"] == "u101"  # an earlier name, any case
    assert players.resolve(con, "Anya")["player_id"] == "u101"
    with pytest.raises(players.UnknownPlayer, match="no player with id or name 'zed'"):
        players.resolve(con, "zed")
    found = players.search(con, "A")
    assert set(found.get_column("player_id")) == {"u101", "u104", "u106"}  # Ana/Anya, Dara, Fay
    assert players.search(con, "u10%").is_empty()  # a wildcard is a character
    con.close()


@pytest.mark.parametrize("pid", [p for p, _ in PEOPLE])
def test_record_by_title_count_and_seat(corpus: dict[str, Any], pid: str) -> None:
    con = connect_readonly(corpus["db"])
    rec = players.record(con, pid)
    mine = _games_of(corpus, pid)
    wins = [rep.ranking[pid] == 1 for _, rep in mine]
    assert rec["overall"].row(0, named=True)["games"] == len(mine)
    assert rec["overall"].row(0, named=True)["wins"] == sum(wins)
    by_seat: dict[tuple[str, int, int], list[bool]] = defaultdict(list)
    for r, rep in mine:
        by_seat[(r.game, len(r.players), r.player_ids.index(pid) + 1)].append(rep.ranking[pid] == 1)
    got = {(t, n, s): (g, w) for t, n, s, _, g, w, *_ in rec["by_seat"].iter_rows()}
    assert got == {k: (len(v), sum(v)) for k, v in by_seat.items()}
    scores = [sum(rep.score[pid].values()) for r, rep in mine if r.game == "copenhagen"]
    row = rec["by_title"].filter(pl.col("title") == "copenhagen").row(0, named=True)
    assert row["avg_score"] == pytest.approx(sum(scores) / len(scores))
    con.close()


def test_categories_against_opponents(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    df = players.categories(con, "u103", "coal_baron")
    mine, theirs = defaultdict(list), defaultdict(list)
    for r, rep in _games_of(corpus, "u103", "coal_baron"):
        for p in r.player_ids:
            for cat, pts in rep.score[p].items():
                (mine if p == "u103" else theirs)[cat].append(pts)
    for row in df.iter_rows(named=True):
        cat = row["category"]
        assert row["player"] == pytest.approx(sum(mine[cat]) / len(mine[cat]))
        assert row["opponents"] == pytest.approx(sum(theirs[cat]) / len(theirs[cat]))
        assert row["games"] == len(_games_of(corpus, "u103", "coal_baron"))
    con.close()


def test_opponents_head_to_head(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    df = players.opponents(con, "u102", limit=None)
    want: dict[str, Counter[str]] = defaultdict(Counter)
    for r, rep in _games_of(corpus, "u102"):
        me = rep.ranking["u102"]
        for o in r.player_ids:
            if o == "u102":
                continue
            c = want[o]
            c["games"] += 1
            c["wins"] += me == 1
            c["their_wins"] += rep.ranking[o] == 1
            c["ahead"] += me < rep.ranking[o]
            c["behind"] += me > rep.ranking[o]
            c["level"] += me == rep.ranking[o]
    got = {row["player_id"]: {k: row[k] for k in ("games", "wins", "their_wins", "ahead", "behind", "level")}
           for row in df.iter_rows(named=True)}
    assert got == {o: {k: c[k] for k in ("games", "wins", "their_wins", "ahead", "behind", "level")}
                   for o, c in want.items()}
    assert df.get_column("played").to_list() == sorted(df.get_column("played").to_list(), reverse=True)
    con.close()


def _openskill(records: list[Record], replays: dict[str, Any], title: str | None) -> dict[str, Any]:
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games = sorted((r for r in records if title is None or r.game == title), key=lambda r: (r.played_at, r.id))
    for r in games:
        pids = r.player_ids
        out = model.rate([[ratings.get(p) or model.rating()] for p in pids],
                         ranks=[replays[r.id].ranking[p] for p in pids])
        ratings.update({p: new for p, (new,) in zip(pids, out)})
    return ratings


@pytest.mark.parametrize("title", [None, "copenhagen", "pax_pamir"])
def test_rating_is_openskill_over_the_games_in_order(corpus: dict[str, Any], title: str | None) -> None:
    con = connect_readonly(corpus["db"])
    hist = players.rating_history(con, title)
    want = _openskill(corpus["records"], corpus["replays"], title)
    lad = players.ladder(hist)
    assert lad.height == len(want)
    for row in lad.iter_rows(named=True):
        assert row["mu"] == pytest.approx(want[row["player_id"]].mu)
        assert row["sigma"] == pytest.approx(want[row["player_id"]].sigma)
    n_games = len([r for r in corpus["records"] if title is None or r.game == title])
    assert hist.get_column("game_no").max() == n_games  # the BGA table once
    best = max(want, key=lambda p: want[p].mu - 3 * want[p].sigma)
    assert lad.row(0, named=True)["player_id"] == best
    con.close()


def test_decision_quality_from_the_win_chances(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    wc = con.execute("SELECT seq, player_id, chance, mover, move_seq FROM win_chances WHERE game_id = ? "
                     "ORDER BY seq", [ANALYSED]).fetchall()
    chance = {(s, p): c for s, p, c, _, _ in wc}
    positions = sorted({(s, m, ms) for s, _, _, m, ms in wc})
    want = []
    for (s, mover, ms), (s2, _, _) in zip(positions, positions[1:]):
        if mover is not None:
            want.append((mover, ms, chance[(s, mover)] - chance[(s2, mover)]))
    assert want
    got = players.game_decisions(con, ANALYSED)
    assert [(r["player_id"], r["move_seq"], pytest.approx(r["lost"])) for r in got.iter_rows(named=True)] == want
    pid = want[0][0]
    dq = players.decision_quality(players.decisions(con, pid))
    lost = [x for p, _, x in want if p == pid]
    assert dq["decisions"] == len(lost) and dq["games"] == 1
    assert dq["avg_lost"] == pytest.approx(sum(max(x, 0) for x in lost) / len(lost))
    assert dq["worst"].row(0, named=True)["lost"] == pytest.approx(max(lost))
    con.close()


def test_choice_quality_from_the_value_models_judgement(corpus: dict[str, Any]) -> None:
    """Each decision of the game analysed by the value model carries its choice, as the analysis judged
    it; a player's choice figures are over their choices of at least two moves, and the game analysed
    by rollouts (no choice judged) adds decisions, not choices."""
    a = analyse(corpus["by_value"], Settings(method="value", explain=0, choices=True))
    con = connect_readonly(corpus["db"])
    got = players.game_decisions(con, BY_VALUE)
    assert [(r["move_seq"], r["player_id"], r["moves"], pytest.approx(r["given_away"]), r["best_words"],
             r["played_words"]) for r in got.iter_rows(named=True)] == \
        [(c.move_seq, c.player, c.moves, pytest.approx(c.given_away), c.best_words, c.played_words)
         for c in a.choices]
    assert players.game_decisions(con, ANALYSED).get_column("moves").null_count() == \
        players.game_decisions(con, ANALYSED).height  # rollouts judge no choice
    for pid in corpus["by_value"].player_ids:
        mine = [c.given_away for c in a.choices if c.player == pid and c.moves >= 2]
        dq = players.decision_quality(players.decisions(con, pid))
        assert dq["choices"] == len(mine) > 0
        assert dq["avg_given_away"] == pytest.approx(sum(mine) / len(mine))
        assert dq["best_share"] == pytest.approx(sum(x <= 0 for x in mine) / len(mine))
        assert dq["worst_choices"].get_column("given_away").to_list() == \
            pytest.approx(sorted(mine, reverse=True)[:10])
        by_game = players.choices_by_game(players.decisions(con, pid), players.games(con, pid))
        assert by_game.select("game_no", "game_id", "choices").rows() == [(1, BY_VALUE, len(mine))]
        assert by_game["avg_given_away"][0] == pytest.approx(dq["avg_given_away"])
        assert by_game["best_share"][0] == pytest.approx(dq["best_share"])
    con.close()


def test_a_database_analysed_before_choices_were_judged(corpus: dict[str, Any], tmp_path: Path) -> None:
    """A database whose analyses predate the ``choices`` table, opened read-only: no choice, no error."""
    old = tmp_path / "old.duckdb"
    con = duckdb.connect(str(old))
    con.execute(f"ATTACH '{corpus['db']}' AS now (READ_ONLY)")
    for (name,) in con.execute("SELECT table_name FROM information_schema.tables WHERE table_catalog = 'now' "
                               "AND table_schema = 'main' AND table_type = 'BASE TABLE'").fetchall():
        if name != "choices":
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM now.{name}")
    con.close()
    ro = connect_readonly(old)
    got = players.game_decisions(ro, BY_VALUE)
    assert got.height and got.get_column("moves").null_count() == got.height
    dq = players.decision_quality(players.decisions(ro, corpus["by_value"].player_ids[0]))
    assert dq["decisions"] > 0 and dq["choices"] == 0 and dq["avg_given_away"] is None
    ro.close()


def _wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _took(corpus: dict[str, Any], title: str, pred: Any, player_count: int | None = None
          ) -> tuple[int, int, int, int]:
    """(player-games that took it, of them won, all player-games, all won) over the title's games."""
    took = won = n = w = 0
    for r in corpus["records"]:
        if r.game != title or (player_count and len(r.players) != player_count):
            continue
        rep = corpus["replays"][r.id]
        for p in r.player_ids:
            n += 1
            w += rep.ranking[p] == 1
            if any(e.get("player") == p and "move" in e and pred(e["move"]) for e in _events(r)):
                took += 1
                won += rep.ranking[p] == 1
    return took, won, n, w


def _events(r: Record) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = r.to_dict()["events"]
    return events


CASES = [
    ("copenhagen", "facade tile", "3|blue", "3-cell blue tile",
     lambda m: m["type"] == "build" and m["size"] == 3 and m["color"] == "blue"),
    ("copenhagen", "coat of arms", "place_white", "place a white tile", lambda m: m["type"] == "place_white"),
    ("coal_baron", "tunnel tile", "kind 4", "2-cart brown tunnel (dark side)",
     lambda m: m["type"] == "keep_tile" and m["tile"] in ("t10", "t11", "t12")),
    ("coal_baron", "order card", "o12", None,
     lambda m: m["type"] in ("draft_order", "keep_order") and m["card"] == "o12"),
    ("pax_pamir", "court card", "1", "Mohan Lal", lambda m: m["type"] == "play" and m["card"] == 1),
    ("pax_pamir", "card action", "tax", "tax action", lambda m: m["type"] == "tax"),
]


@pytest.mark.parametrize(("title", "kind", "key", "label", "pred"), CASES, ids=[c[2] for c in CASES])
@pytest.mark.parametrize("player_count", [None, 3])
def test_component_win_rates(corpus: dict[str, Any], title: str, kind: str, key: str, label: str | None,
                             pred: Any, player_count: int | None) -> None:
    con = connect_readonly(corpus["db"])
    res = components.components(con, title, player_count=player_count)
    took, won, n, w = _took(corpus, title, pred, player_count)
    assert (res.player_games, res.baseline) == (n, pytest.approx(w / n))
    row = res.rows.filter((pl.col("kind") == kind) & (pl.col("key") == key)).row(0, named=True)
    if label:
        assert row["label"] == label
    assert (row["players"], row["wins"]) == (took, won)
    if took:
        assert row["win_rate"] == pytest.approx(won / took)
        assert row["win_rate_ci"] == pytest.approx(list(_wilson(won, took)))
        assert row["lift"] == pytest.approx(won / took - w / n)
    else:
        assert row["win_rate"] is None and row["win_rate_ci"] is None
    con.close()


def test_every_catalogued_component_is_listed(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    for title in components.catalogued_titles():
        res = components.components(con, title)
        assert res.rows.height >= len(components.catalogue(title).entries)
        assert res.rows.get_column("label").null_count() == 0
    pax = components.components(con, "pax_pamir").rows
    assert pax.filter(pl.col("kind") == "court card").height == 100
    assert components.components(con, "copenhagen", source="bga").games == 1
    assert components.components(con, "copenhagen", ruleset="bga").games == 0
    con.close()


# --------------------------------------------------------------------------
# the command
# --------------------------------------------------------------------------


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, ["stats", *args])


def test_stats_player_json(corpus: dict[str, Any]) -> None:
    res = _cli("--db", str(corpus["db"]), "--player", "Fay", "--json")
    assert res.exit_code == 0, res.output
    obj = orjson.loads(res.output)
    mine = _games_of(corpus, "u106")
    assert (obj["player_id"], obj["name"], obj["games"]) == ("u106", "Fay", len(mine))
    assert obj["wins"] == sum(rep.ranking["u106"] == 1 for _, rep in mine)
    want = _openskill(corpus["records"], corpus["replays"], None)["u106"]
    assert isinstance(obj["rating"], float) and obj["rating"] == pytest.approx(want.mu)
    assert obj["rating_sigma"] == pytest.approx(want.sigma)
    assert len(obj["rating_history"]) == len(mine)
    assert set(obj["ratings_by_title"]) == set(COUNTS)
    res2 = _cli("--db", str(corpus["db"]), "--player", "u106", "--game", "pax_pamir", "--json")
    obj2 = orjson.loads(res2.output)
    assert obj2["games"] == len(_games_of(corpus, "u106", "pax_pamir"))
    assert obj2["rating"] == pytest.approx(_openskill(corpus["records"], corpus["replays"], "pax_pamir")["u106"].mu)


def test_stats_player_text(corpus: dict[str, Any]) -> None:
    res = _cli("--db", str(corpus["db"]), "--player", "u101")
    assert res.exit_code == 0, res.output
    assert f"{RENAMED[1]} (u101)" in res.output and "OpenSkill" in res.output
    assert "frequent opponents" in res.output and "decision quality" in res.output
    pid = corpus["by_value"].player_ids[0]
    res = _cli("--db", str(corpus["db"]), "--player", pid)
    con = connect_readonly(corpus["db"])
    dq = players.decision_quality(players.decisions(con, pid))
    con.close()
    assert f"choices: {dq['choices']:,} judged" in res.output
    assert f"{dq['avg_given_away']:.2%} win chance given away per choice" in res.output
    assert "worst choices" in res.output
    obj = orjson.loads(_cli("--db", str(corpus["db"]), "--player", pid, "--json").output)["decision_quality"]
    assert obj["choices"] == dq["choices"] and obj["avg_given_away"] == pytest.approx(dq["avg_given_away"])
    assert obj["worst_choices"][0]["given_away"] == pytest.approx(dq["worst_choices"]["given_away"][0])
    assert [g["game_id"] for g in obj["choices_by_game"]] == [BY_VALUE]


def test_stats_components_json(corpus: dict[str, Any]) -> None:
    res = _cli("--db", str(corpus["db"]), "--components", "--game", "copenhagen", "--players", "3", "--json")
    assert res.exit_code == 0, res.output
    obj = orjson.loads(res.output)
    assert obj["filters"]["players"] == 3
    for row in obj["rows"]:
        assert {"label", "players", "win_rate", "win_rate_ci"} <= set(row)
    taken = [r for r in obj["rows"] if r["players"]]
    assert taken and all(len(r["win_rate_ci"]) == 2 and r["win_rate_ci"][0] <= r["win_rate"] <= r["win_rate_ci"][1]
                         for r in taken)
    text = _cli("--db", str(corpus["db"]), "--components", "--game", "coal_baron")
    assert text.exit_code == 0 and "win rate" in text.output and "baseline win rate" in text.output


@pytest.mark.parametrize(("args", "message"), [
    (["--player", "nobody"], "error: no player with id or name 'nobody' in the database"),
    (["--components"], "error: --components needs --game G"),
    (["--components", "--game", "chess"], "error: unknown game 'chess'"),
    (["--components", "--game", "perikles"], "error: no games of 'perikles'"),
    (["--player", "u101", "--components", "--game", "copenhagen"], "error: --player and --components"),
    (["--players", "3"], "error: --players, --source and --ruleset filter --components only"),
])
def test_stats_errors_are_one_line(corpus: dict[str, Any], args: list[str], message: str) -> None:
    res = _cli("--db", str(corpus["db"]), *args)
    assert res.exit_code == 2
    assert res.output.startswith(message) and res.output.count("\n") == 1 and "Traceback" not in res.output


def test_name_shared_by_two_people_asks_for_an_id(tmp_path: Path) -> None:
    raws = people_records("copenhagen", 2, counts=[2])
    objs = [orjson.loads(r) for r in raws]
    for o in objs:
        for p in o["players"]:
            p["name"] = "Sam"
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(o) for o in objs) + b"\n")
    ingest([str(path)], tmp_path / "d.duckdb", workers=0, publish_every=0)
    res = _cli("--db", str(tmp_path / "d.duckdb"), "--player", "sam")
    assert res.exit_code == 2 and "players have played as 'sam'" in res.output and "ask for one by id" in res.output


# --------------------------------------------------------------------------
# deeper per-title tables
# --------------------------------------------------------------------------


def _by_group(corpus: dict[str, Any], title: str, group: Any) -> dict[str, tuple[int, int]]:
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in corpus["records"]:
        if r.game != title:
            continue
        rep = corpus["replays"][r.id]
        for p in r.player_ids:
            g = out[group(r, rep, p)]
            g[0] += 1
            g[1] += rep.ranking[p] == 1
    return {k: (n, w) for k, (n, w) in out.items()}


def _deep(corpus: dict[str, Any], title: str, name: str) -> dict[str, tuple[int, int]]:
    from analytics import deeper

    con = connect_readonly(corpus["db"])
    try:
        table = next(t for t in deeper.tables(con, title) if t.name == name)
    finally:
        con.close()
    for row in table.rows.iter_rows(named=True):
        assert [row["win_rate_low"], row["win_rate_high"]] == pytest.approx(
            list(_wilson(row["wins"], row["player_games"])))
    return {row["group"]: (row["player_games"], row["wins"]) for row in table.rows.iter_rows(named=True)}


def test_pax_pamir_win_rate_by_final_loyalty(corpus: dict[str, Any]) -> None:
    def loyalty(r: Record, rep: Any, p: str) -> str:
        changes = [m for m in rep.milestones if m["type"] == "loyalty_change" and m["player_id"] == p]
        return str(changes[-1]["new"]) if changes else "none"

    assert _deep(corpus, "pax_pamir", "final_loyalty") == _by_group(corpus, "pax_pamir", loyalty)


def test_copenhagen_win_rate_by_rows_completed(corpus: dict[str, Any]) -> None:
    def rows(r: Record, rep: Any, p: str) -> str:
        n = sum(1 for m in rep.milestones if m["type"] == "facade_completion" and m["player_id"] == p
                and m["line"] == "row")
        return "5+" if n >= 5 else str(n)

    assert _deep(corpus, "copenhagen", "rows_completed") == _by_group(corpus, "copenhagen", rows)


def test_coal_baron_win_rate_by_orders_fulfilled(corpus: dict[str, Any]) -> None:
    import json
    from importlib import resources

    spaces = {o["id"]: len(o["coal"]) for o in json.loads(
        (resources.files("replay.games.coal_baron") / "data" / "orders.json").read_text())["orders"]}

    def fulfilled(r: Record, rep: Any, p: str) -> str:
        fills = Counter(e["move"]["card"] for e in _events(r)
                        if e.get("player") == p and e.get("move", {}).get("type") in ("fill_order", "substitute"))
        n = sum(1 for card, k in fills.items() if k >= spaces[card])
        return "8+" if n >= 8 else str(n)

    assert _deep(corpus, "coal_baron", "orders_fulfilled") == _by_group(corpus, "coal_baron", fulfilled)


def test_stats_game_prints_the_deeper_tables(corpus: dict[str, Any]) -> None:
    res = _cli("--db", str(corpus["db"]), "--game", "copenhagen", "--json")
    assert res.exit_code == 0, res.output
    obj = orjson.loads(res.output)
    assert {"rows_completed", "columns_completed", "coat_of_arms"} <= set(obj)
    text = _cli("--db", str(corpus["db"]), "--game", "copenhagen")
    assert "win rate by rows completed" in text.output


def test_every_ladder_in_one_pass_is_each_ladder_alone(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    every = players.rating_histories(con)
    assert set(every) == {None, *COUNTS}
    for title, hist in every.items():
        assert hist.equals(players.rating_history(con, title)), title
    con.close()
