"""One BGA table is one game whichever way it was saved (issue 26): a log saved without its table
file maps to the same record id, and never replaces the richer record ingested with it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

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


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _games(db: Path) -> list[tuple[Any, ...]]:
    return _rows(db, "SELECT game_id, record_sha256 FROM games ORDER BY game_id")


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


def _one_run_folder(tmp_path: Path, alone_first: bool) -> Path:
    """One folder holding each log twice: once with its table file, once without (input order: the
    folder names, ``a-...`` first)."""
    root = tmp_path / "in"
    _copy(root / ("a-alone" if alone_first else "b-alone"), False)
    for name in NAMES:
        log = LOGS / f"{name}.log.json.gz"
        target = root / ("b-with" if alone_first else "a-with")
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(log, target / log.name)
        shutil.copy(LOGS / f"{name}.table.json", target / f"{name.split('/')[1]}.table.json")
    return root


def _versions(db: Path) -> list[tuple[Any, ...]]:
    return _rows(db, "SELECT game_id, raw->>'$.source.version' FROM records ORDER BY game_id")


@needs_logs
@pytest.mark.parametrize("alone_first", [True, False])
@pytest.mark.parametrize("batch_records", [1, 1000])
def test_a_log_with_and_without_its_table_file_in_one_run_is_one_game_kept_with_the_table_file(
        tmp_path: Path, alone_first: bool, batch_records: int) -> None:
    """Issue 26: the same download, given once with its table file and once without in one run, is one
    game (not a duplicate_id): the version with the table file is kept, the other is skipped, and a
    note names both; in one batch or across batches, whichever comes first."""
    root = _one_run_folder(tmp_path, alone_first)
    db = tmp_path / "g.duckdb"
    s = ingest([str(root)], db, workers=0, publish_every=-1, batch_records=batch_records)
    c = s.counts
    assert (c.records, c.new, c.replaced, c.skipped, c.quarantined, c.conflicts) == (4, 2, 0, 2, 0, 0)
    assert c.same_in_run == 2 and len(c.same_in_run_notes) == 2
    assert all("-with/" in n.split("kept ")[1] and "-alone/" in n for n in c.same_in_run_notes)
    versions = _versions(db)
    assert len(versions) == 2 and all(v for _, v in versions)  # the table file's version is in each record
    again = ingest([str(root)], db, workers=0, publish_every=-1, batch_records=batch_records)
    assert (again.counts.new, again.counts.replaced, again.counts.skipped, again.counts.quarantined) == (0, 0, 4, 0)
    assert _versions(db) == versions


@needs_logs
def test_ingest_notes_the_inputs_that_were_one_game(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from gamerec_cli.main import main

    root = _one_run_folder(tmp_path, True)
    res = CliRunner().invoke(main, ["ingest", str(root), "--db", str(tmp_path / "g.duckdb")])
    assert res.exit_code == 0, res.output
    notes = [line for line in res.output.splitlines() if line.startswith("note: ")]
    assert len(notes) == 2 and all("are the same game" in n and "saved two ways" in n for n in notes)
    assert "the same game as another input of this run" in res.output
    assert "duplicate_id" not in res.output and "reuse an id" not in res.output


@needs_logs
def test_the_lake_keeps_the_same_game_of_one_run_as_the_one_machine_ingest(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the lake needs dask[distributed]")
    from ingest.lake import ingest_lake

    root = _one_run_folder(tmp_path, True)
    db = tmp_path / "g.duckdb"
    ingest([str(root)], db, workers=0, publish_every=-1)
    lake = tmp_path / "lake"
    s = ingest_lake([str(root)], str(lake), workers=1)
    c = s.counts
    assert (c.records, c.new, c.skipped, c.quarantined, c.conflicts, c.same_in_run) == (4, 2, 2, 0, 0, 2)
    assert _versions(lake / "gamerec.duckdb") == _versions(db)
