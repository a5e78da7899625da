"""Components a move takes by position (a market column, a display slot): what the replay notes
(``State.take``), what ingest stores (``components_taken``, and its one-time fill of an older
database) and what ``analytics.components`` makes of it, each checked against figures worked out
here by looking at the state just before each move."""

from __future__ import annotations

import gzip
import math
import shutil
from pathlib import Path
from typing import Any

import duckdb
import orjson
import polars as pl
import pytest
from click.testing import CliRunner

from analytics import components
from analytics.db import connect_readonly
from gamerec_cli.main import main
from ingest.pipeline import ingest
from ingest.writer import Database, snapshot_path
from replay.engine import Move, State
from replay.games import get_game
from replay.games.perikles.components import INFLUENCE
from replay.record import MoveEvent, ObserveEvent, Record, loads
from replay.replayer import replay

from .people import people_records

COUNTS = {"pax_pamir": 10, "perikles": 6, "praga": 8}
POSITIONAL = {"pax_pamir": ("event card",), "perikles": ("influence tile",),
              "praga": ("upgrade tile", "wall tile", "building tile")}
"""The kinds taken by a move that names a position, per title: every one must be counted."""


def _lay_there(state: State, title: str, move: Move) -> tuple[str, str] | None:
    """What the move is about to take, read from the state before it: (kind, component id)."""
    if title == "pax_pamir" and move.type == "buy":
        card = state.market[move.row][move.col]  # type: ignore[attr-defined]
        return ("event card", str(card)) if card >= 101 else None  # court cards are 1-100
    if title == "perikles" and move.type == "take_tile":
        return "influence tile", state.display[move.slot - 1]  # type: ignore[attr-defined]
    if title == "praga" and move.type == "pick_tile":
        row = state.decision()["row"]  # type: ignore[attr-defined]
        return f"{row} tile", state.d["display"][row][move.slot]  # type: ignore[attr-defined]
    return None


def took_by_position(rec: Record) -> list[tuple[int, str, str, str]]:
    """(seq, player, kind, component) of every positional take of the record, by stepping a fresh state
    through it and looking before each move."""
    state = get_game(rec.game).initial_state(rec.player_ids, rec.options)
    out = []
    for seq, ev in enumerate(rec.events):
        state.seq = seq
        if isinstance(ev, MoveEvent):
            got = _lay_there(state, rec.game, ev.move)
            if got is not None:
                out.append((seq, ev.player, *got))
            state.apply_move(ev.player, ev.move)
        elif not isinstance(ev, ObserveEvent):
            state.apply_chance(ev.outcome)  # type: ignore[union-attr]
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("taken")
    raws = [raw for title, n in COUNTS.items() for raw in people_records(title, n, seed=7)]
    with gzip.open(folder / "taken.jsonl.gz", "wb") as fh:
        for raw in raws:
            fh.write(raw + b"\n")
    db = folder / "taken.duckdb"
    ingest([str(folder / "taken.jsonl.gz")], db, workers=0, publish_every=0)
    records = [loads(r) for r in raws]
    replays = {r.id: replay(r) for r in records}
    assert all(rep.status == "complete" for rep in replays.values())
    return {"db": db, "file": folder / "taken.jsonl.gz", "records": records, "replays": replays,
            "takes": {r.id: took_by_position(r) for r in records}}


def test_the_replay_notes_what_lay_at_the_position(corpus: dict[str, Any]) -> None:
    seen = set()
    for rec in corpus["records"]:
        noted = [tuple(t) for t in corpus["replays"][rec.id].taken]
        assert noted == corpus["takes"][rec.id], rec.id
        seen |= {(rec.game, t[2]) for t in noted}
    assert seen == {(title, kind) for title, kinds in POSITIONAL.items() for kind in kinds}


def test_ingest_stores_them(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    got = con.execute("SELECT game_id, seq, player_id, kind, component FROM components_taken "
                      "ORDER BY game_id, take_no").fetchall()
    con.close()
    want = sorted((gid, *t) for gid, takes in corpus["takes"].items() for t in takes)
    assert got == want


def _wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _expected(corpus: dict[str, Any], title: str, key_of: Any, player_count: int | None
              ) -> dict[tuple[str, str], tuple[int, int]]:
    """(kind, catalogue key) -> (player-games that took it, of them won), from the takes worked out here."""
    out: dict[tuple[str, str], list[int]] = {}
    for rec in corpus["records"]:
        if rec.game != title or (player_count and len(rec.players) != player_count):
            continue
        ranking = corpus["replays"][rec.id].ranking
        took = {(p, kind, key_of(kind, c)) for _, p, kind, c in corpus["takes"][rec.id]}
        for p, kind, key in took:
            n = out.setdefault((kind, key), [0, 0])
            n[0] += 1
            n[1] += ranking[p] == 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def _pax_key(kind: str, card: str) -> str:
    return "dominance_check" if card in ("101", "102", "103", "104") else card


def _perikles_key(kind: str, tile: str) -> str:
    t = INFLUENCE[tile]
    return f"{t.city}|{t.shards}|{t.symbol}"


KEYS = {"pax_pamir": _pax_key, "perikles": _perikles_key, "praga": lambda kind, tile: tile}


@pytest.mark.parametrize("title", list(COUNTS))
@pytest.mark.parametrize("player_count", [None, 3])
def test_win_rates_of_components_taken_by_position(corpus: dict[str, Any], title: str,
                                                   player_count: int | None) -> None:
    con = connect_readonly(corpus["db"])
    res = components.components(con, title, player_count=player_count)
    con.close()
    assert res.uncounted == ()
    want = _expected(corpus, title, KEYS[title], player_count)
    rows = res.rows.filter(pl.col("kind").is_in(POSITIONAL[title]))
    # every catalogued component of these kinds is listed, and nothing beyond the catalogue
    catalogued = {(k, key) for k, key, _ in components.catalogue(title).entries if k in POSITIONAL[title]}
    assert set(zip(rows["kind"], rows["key"])) == catalogued
    assert set(want) <= catalogued
    for kind in POSITIONAL[title]:  # each kind is counted, not only listed
        assert rows.filter((pl.col("kind") == kind) & (pl.col("players") > 0)).height > 0, kind
    for r in rows.iter_rows(named=True):
        took, won = want.get((r["kind"], r["key"]), (0, 0))
        assert (r["players"], r["wins"]) == (took, won), r["label"]
        if took:
            assert r["win_rate"] == pytest.approx(won / took)
            assert r["win_rate_ci"] == pytest.approx(list(_wilson(won, took)))


def test_labels_in_words(corpus: dict[str, Any]) -> None:
    con = connect_readonly(corpus["db"])
    labels = {t: dict(zip(zip(r.rows["kind"], r.rows["key"]), r.rows["label"]))
              for t in COUNTS for r in [components.components(con, t)]}
    con.close()
    assert labels["pax_pamir"][("event card", "dominance_check")] == "Dominance Check"
    assert labels["pax_pamir"][("event card", "116")] == "Rebuke / Political Suit"
    assert ("event card", "111") not in labels["pax_pamir"]  # Public Withdrawal can never be bought
    assert labels["perikles"][("influence tile", "athens|1|candidate")] == "Athens candidate tile"
    assert labels["perikles"][("influence tile", "megara|2|none")] == "Megara 2-cube tile"
    assert labels["perikles"][("influence tile", "any|1|none")] == "Any-city 1-cube tile"
    assert len([k for k in labels["perikles"] if k[0] == "influence tile"]) == 19
    assert labels["praga"][("upgrade tile", "UI-01")] == "UI-01: era I upgrade of manage quarries (bonus 1 stone)"
    assert labels["praga"][("wall tile", "WI-02")] == "WI-02: era I wall, 2 stone, gives a silver window"
    assert {k for k, _ in labels["praga"]} >= {"upgrade tile", "wall tile", "building tile", "technology"}


def test_stats_components_json_lists_them(corpus: dict[str, Any]) -> None:
    res = CliRunner().invoke(main, ["stats", "--db", str(corpus["db"]), "--components", "--game", "perikles",
                                    "--json"])
    assert res.exit_code == 0, res.output
    out = orjson.loads(res.output)
    assert out["uncounted_kinds"] == []
    tiles = [r for r in out["rows"] if r["kind"] == "influence tile"]
    assert len(tiles) == 19 and sum(r["players"] for r in tiles) > 0


def test_an_older_database_is_filled_once_and_read_meanwhile(corpus: dict[str, Any], tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    shutil.copy(corpus["db"], db)
    shutil.copy(snapshot_path(corpus["db"]), snapshot_path(db))
    for path in (db, snapshot_path(db)):  # as a database (and its snapshot) made before the table existed
        con = duckdb.connect(str(path))
        con.execute("DROP TABLE components_taken")
        con.close()
    # read before any ingest: the positional kinds are listed, not counted, and said to be
    con = connect_readonly(db)
    res = components.components(con, "praga")
    con.close()
    assert res.uncounted == POSITIONAL["praga"]
    assert res.rows.filter(pl.col("kind").is_in(POSITIONAL["praga"]))["players"].sum() == 0
    assert res.rows.filter(pl.col("kind") == "technology")["players"].sum() > 0
    # the next ingest fills it from the stored records, though it skips every record, and publishes it
    summary = ingest([str(corpus["file"])], db, workers=0, publish_every=0)
    assert summary.counts.skipped == len(corpus["records"])
    con = connect_readonly(db)
    got = con.execute("SELECT game_id, seq, player_id, kind, component, take_no FROM components_taken "
                      "ORDER BY game_id, take_no").fetchall()
    assert components.components(con, "praga").uncounted == ()
    con.close()
    con = connect_readonly(corpus["db"])
    want = con.execute("SELECT game_id, seq, player_id, kind, component, take_no FROM components_taken "
                       "ORDER BY game_id, take_no").fetchall()
    con.close()
    assert got == want and got
    # and only once: a database that has the table is not filled again
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM components_taken WHERE kind = 'wall tile'")
    con.close()
    Database(db).close()
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM components_taken WHERE kind = 'wall tile'").fetchone() == (0,)
    con.close()


def test_praga_win_rate_by_buildings_and_tile_type(corpus: dict[str, Any]) -> None:
    from analytics import deeper

    built: dict[str, list[int]] = {}
    most: dict[str, list[int]] = {}
    for rec in corpus["records"]:
        if rec.game != "praga":
            continue
        ranking = corpus["replays"][rec.id].ranking
        for p in rec.player_ids:
            kinds = [kind for _, who, kind, _ in corpus["takes"][rec.id] if who == p]
            per = {k: kinds.count(k) for k in ("upgrade tile", "wall tile", "building tile") if k in kinds}
            top = [k for k, n in per.items() if n == max(per.values())]
            b = kinds.count("building tile")
            for table, grp in ((built, "6+" if b >= 6 else str(b)),
                               (most, "none" if not top else "mixed" if len(top) > 1 else top[0].replace(" tile", "s"))):
                n = table.setdefault(grp, [0, 0])
                n[0] += 1
                n[1] += ranking[p] == 1
    con = connect_readonly(corpus["db"])
    got = {t.name: {r["group"]: [r["player_games"], r["wins"]] for r in t.rows.iter_rows(named=True)}
           for t in deeper.tables(con, "praga")}
    con.close()
    assert got["buildings_built"] == built
    assert got["tile_type_most_taken"] == most
    assert len(most) > 1


def test_replay_json_lists_them(corpus: dict[str, Any], tmp_path: Path) -> None:
    rec = next(r for r in corpus["records"] if r.game == "perikles")
    path = tmp_path / "one.json"
    path.write_bytes(next(raw for raw in people_records("perikles", 1, seed=7)))
    res = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert res.exit_code == 0, res.output
    got = [(t["seq"], t["player"], t["kind"], t["component"]) for t in orjson.loads(res.output)["taken"]]
    assert got == corpus["takes"][rec.id] and got
