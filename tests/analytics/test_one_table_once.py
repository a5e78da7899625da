"""One BGA table is one game in every statistic (issue 26): a second player's download of a table
already in the database changes no figure that counts games.

Two databases hold the same games; the second also holds, for one game of each title, a second
download of its table (``bga-<table>-<viewer2>`` beside ``bga-<table>-<viewer1>``: the same game,
linked by ``source.table_id``).  Every statistic must read the same in both.  The copies are
simulated games dressed as BGA downloads (:func:`tests.analytics.people.as_bga_view`; the
Copenhagen one diverges, so the divergence figures have something to count) and one real
imported log (Coal Baron, with a departure from the rulebook under ``ruleset: bga``).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import polars as pl
import pytest

from analytics import components, deeper, queries, stats
from analytics.db import connect_readonly
from ingest.bga.convert import import_file
from ingest.pipeline import ingest
from replay.record import dumps

from .people import as_bga_view, people_records

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs")
BGA_LOG = LOGS / "coal_baron" / "coalbaron_2p_seed301.log.json.gz"

COUNTS = {"copenhagen": 6, "coal_baron": 3, "pax_pamir": 4}


def _diverging(raw: bytes) -> bytes:
    """The record with its first score observation off by 7 (a divergence in every view)."""
    obj = orjson.loads(raw)
    obs = next(e["observe"] for e in obj["events"] if "score" in e.get("observe", {}))
    pid = next(iter(obs["score"]))
    obs["score"][pid] += 7
    return orjson.dumps(obj)


def _second_view(raw: bytes) -> bytes:
    """Another player's download of the same table: the same game under the other viewer's id."""
    obj = orjson.loads(raw)
    viewer = next(p["id"] for p in obj["players"] if p["id"] != obj["source"]["viewer"])
    obj["id"] = f"bga-{obj['source']['table_id']}-{viewer}"
    obj["source"] = dict(obj["source"], viewer=viewer)
    return orjson.dumps(obj)


@pytest.fixture(scope="module")
def dbs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    raws: list[bytes] = []
    firsts: list[bytes] = []
    for i, (title, n) in enumerate(COUNTS.items()):
        games = people_records(title, n + 1)
        raws += games[:n]
        first = as_bga_view(games[n], 7000 + i, _first_id(games[n]))
        firsts.append(_diverging(first) if title == "copenhagen" else first)
    if BGA_LOG.is_file():
        firsts.append(dumps(import_file(BGA_LOG).record))
    out = []
    for name, views in (("once", firsts), ("twice", firsts + [_second_view(v) for v in firsts])):
        folder = tmp_path_factory.mktemp(name)
        with gzip.open(folder / "records.jsonl.gz", "wb") as fh:
            for raw in raws + views:
                fh.write(raw + b"\n")
        db = folder / "g.duckdb"
        s = ingest([str(folder)], db, workers=0, publish_every=0)
        assert s.counts.new == len(raws) + len(views)
        out.append(db)
    return out[0], out[1]


def _first_id(raw: bytes) -> str:
    return str(orjson.loads(raw)["players"][0]["id"])


def _frame(value: Any) -> Any:
    """A result in a comparable form (frames as rows, dicts of frames recursively)."""
    if isinstance(value, pl.DataFrame):
        return value.rows()
    if isinstance(value, dict):
        return {k: _frame(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_frame(v) for v in value]
    return value


def _without(*columns: str) -> Callable[[pl.DataFrame], pl.DataFrame]:
    return lambda df: df.drop(*columns)


# (name, the statistic over a connection, what of it to compare)
STATISTICS: list[tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = [
    ("overview summary", queries.summary, _frame),
    ("games by title and status", queries.games_by_title_status, _frame),
    ("score distribution", queries.score_distribution, _frame),
    ("seat win rates", queries.seat_win_rates, _frame),
    # the table's counted download may be either (the smallest id): the same game, the same scores
    ("top scores", lambda c: queries.top_scores(c, limit=1000), lambda df: _frame(_without("game_id")(df))),
    ("breakdown by rank", lambda c: queries.breakdown_by_rank(c, "copenhagen"), _frame),
    ("winners against the rest", lambda c: queries.breakdown_winners_vs_rest(c, "coal_baron"), _frame),
    ("category edge", lambda c: queries.category_edge(c, "pax_pamir"), _frame),
    ("title player counts", lambda c: queries.title_player_counts(c, "copenhagen"), _frame),
    ("title game counts", lambda c: queries.title_game_counts(c, "coal_baron"), _frame),
    ("dominance success by check", queries.dominance_success_by_check, _frame),
    ("dominance summary", queries.dominance_summary, _frame),
    ("dominance coalitions", queries.dominance_coalitions, _frame),
    ("dominance points by outcome", queries.dominance_points_by_outcome, _frame),
    ("shift points", queries.shift_points, _frame),
    ("shift deciders", queries.shift_deciders, _frame),
    ("Pax Pamir final loyalty", queries.pax_final_loyalty, _frame),
    ("Copenhagen lines", queries.copenhagen_lines, _frame),
    # divergences are counted in every record (each download is checked on its own); the games they touch once
    ("divergence kinds (games)", queries.divergence_kinds, lambda df: _frame(_without("divergences")(df))),
    ("divergence keys (games)", queries.divergence_keys, lambda df: _frame(_without("divergences")(df))),
    ("departure rules", lambda c: queries.departure_rules(c, "coal_baron"), _frame),
    ("rating ladder", lambda c: queries.rating_ladder(c, "copenhagen"), _frame),
    ("components", lambda c: components.components(c, "coal_baron").rows, _frame),
    ("deeper tables", lambda c: [t.rows for t in deeper.tables(c, "pax_pamir")], _frame),
    ("stats overview", stats.overview, lambda df: _frame(_without("divergences", "last_ingest")(df))),
    ("stats games by title and status", stats.games_by_title_status, _frame),
    ("stats divergences by kind (games)", stats.divergences_by_kind,
     lambda df: _frame(_without("divergences", "first_in_game")(df))),
    ("stats win rate by seat", stats.win_rate_by_seat, _frame),
    ("stats mean score by category", stats.mean_score_by_category, _frame),
]


@pytest.mark.parametrize(("name", "statistic", "compare"), STATISTICS, ids=[s[0] for s in STATISTICS])
def test_a_second_download_of_a_table_changes_no_statistic(
        dbs: tuple[Path, Path], name: str, statistic: Callable[[Any], Any], compare: Callable[[Any], Any]) -> None:
    once, twice = connect_readonly(dbs[0]), connect_readonly(dbs[1])
    try:
        assert compare(statistic(twice)) == compare(statistic(once)), name
    finally:
        once.close()
        twice.close()


def test_every_download_stays_a_record_to_open(dbs: tuple[Path, Path]) -> None:
    """The game picker lists each download (a person may open either view); the statistics count one."""
    once, twice = connect_readonly(dbs[0]), connect_readonly(dbs[1])
    try:
        n_once = queries.game_list(once).height
        assert queries.game_list(twice).height == n_once + len(COUNTS) + int(BGA_LOG.is_file())
        assert queries.summary(twice)["games"] == queries.summary(once)["games"] == n_once
        kinds = queries.divergence_kinds(twice).filter(pl.col("title") == "copenhagen")
        assert kinds.get_column("games").to_list() == [1]  # one game diverged, seen in two downloads
        assert kinds.get_column("divergences").to_list() == [2]
    finally:
        once.close()
        twice.close()
