"""One BGA table is one game whichever way it was saved (issue 26): a log saved without its table
file maps to the same record id, and never replaces the richer record ingested with it."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from ingest.bga.convert import import_file
from ingest.pipeline import ingest

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs")
needs_logs = pytest.mark.skipif(not LOGS.is_dir(), reason="../shared/bga-logs is not here")

NAMES = ["coal_baron/coalbaron_2p_seed301", "pax_pamir/paxpamir_2p_seed401"]


def _copy(folder: Path, with_table: bool) -> Path:
    folder.mkdir(parents=True)
    for name in NAMES:
        log = LOGS / f"{name}.log.json.gz"
        shutil.copy(log, folder / log.name)
        if with_table:
            table = LOGS / f"{name}.table.json"
            shutil.copy(table, folder / table.name)
    return folder


def _games(db: Path) -> list[tuple[str, str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT game_id, record_sha256 FROM games ORDER BY game_id").fetchall()
    finally:
        con.close()


@needs_logs
@pytest.mark.parametrize("name", NAMES)
def test_the_same_download_gets_the_same_id_with_or_without_its_table_file(name: str, tmp_path: Path) -> None:
    log = LOGS / f"{name}.log.json.gz"
    with_table = import_file(log).record  # the table file beside it is read
    assert with_table.source["version"] is not None  # the table file adds what it knows
    shutil.copy(log, tmp_path / log.name)
    alone = import_file(tmp_path / log.name).record
    assert alone.id == with_table.id


@needs_logs
def test_logs_saved_without_their_table_files_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    s = ingest([str(_copy(tmp_path / "with", True))], db, workers=0, publish_every=-1)
    assert s.counts.new == 2
    before = _games(db)
    s = ingest([str(_copy(tmp_path / "alone", False))], db, workers=0, publish_every=-1)
    assert s.counts.new == 0 and s.counts.replaced == 0 and s.counts.skipped == 2 and s.counts.richer_kept == 2
    assert _games(db) == before


@needs_logs
def test_a_table_file_saved_later_adds_to_the_same_game(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    ingest([str(_copy(tmp_path / "alone", False))], db, workers=0, publish_every=-1)
    ids = [g for g, _ in _games(db)]
    s = ingest([str(_copy(tmp_path / "with", True))], db, workers=0, publish_every=-1)
    assert s.counts.new == 0 and s.counts.replaced == 2
    assert [g for g, _ in _games(db)] == ids
    con = duckdb.connect(str(db), read_only=True)
    versions = con.execute("SELECT raw->>'$.source.version' FROM records").fetchall()
    con.close()
    assert all(v[0] for v in versions)


@needs_logs
def test_a_table_file_whose_final_score_disagrees_with_its_log_is_a_result_mismatch(tmp_path: Path) -> None:
    import orjson
    from click.testing import CliRunner

    from gamerec_cli.main import main

    name = NAMES[0]
    log = LOGS / f"{name}.log.json.gz"
    shutil.copy(log, tmp_path / log.name)
    table = orjson.loads((LOGS / f"{name}.table.json").read_bytes())
    table["players"][0]["score"] = int(table["players"][0]["score"]) + 5
    (tmp_path / log.name.replace(".log.json.gz", ".table.json")).write_bytes(orjson.dumps(table))

    res = CliRunner().invoke(main, ["verify", str(tmp_path), "--json"])
    assert res.exit_code == 1, res.output
    out = orjson.loads(res.output.splitlines()[0])
    assert out["status"] == "diverged"
    assert [d["kind"] for d in out["divergences"]] == ["result_mismatch"]
    res = CliRunner().invoke(main, ["replay", str(tmp_path), "--json"])
    assert orjson.loads(res.output.splitlines()[0])["status"] == "diverged"
    s = ingest([str(tmp_path)], tmp_path / "g.duckdb", workers=0, publish_every=-1)
    assert s.counts.diverged == 1


@needs_logs
def test_a_game_stored_under_an_older_id_of_its_table_is_not_ingested_twice(tmp_path: Path) -> None:
    from replay.record import dumps

    name = NAMES[1]  # Pax Pamir: no private channel, the id names no viewer
    log = LOGS / f"{name}.log.json.gz"
    rec = import_file(log).record
    viewer = rec.source["viewer"]
    rec.id = f"{rec.id}-{viewer}"  # as gamerec gave it before the id came from the log alone
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "r.json").write_bytes(dumps(rec))
    db = tmp_path / "g.duckdb"
    ingest([str(tmp_path / "old")], db, workers=0, publish_every=-1)
    s = ingest([str(_copy(tmp_path / "logs", True))], db, workers=0, publish_every=-1)
    assert s.counts.same_table == 1 and s.counts.new == 1  # the Coal Baron log is new, the Pax Pamir one is not
    assert [g for g, _ in _games(db) if g.startswith("bga-900000401")] == [rec.id]
