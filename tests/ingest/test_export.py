"""`gamerec export --parquet`: every table, partitioned by title where it helps, read back identical."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import orjson
import pytest
from click.testing import CliRunner

from gamerec_cli.main import main
from ingest.export import read_table
from ingest.pipeline import ingest
from ingest.schema import tables
from replay.record import write_records
from replay.simulate import simulate


def test_parquet_round_trip(tmp_path: Path) -> None:
    recs = list(simulate("toy", 40, 31))
    write_records(recs, tmp_path / "in" / "r.jsonl")
    bad = tmp_path / "in" / "bad.jsonl"
    bad.write_text('{"format": "gamerec/1"}\n')
    db = tmp_path / "g.duckdb"
    ingest([str(tmp_path / "in")], db, workers=0, publish_every=-1)

    out = tmp_path / "pq"
    res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert f"exported {len(tables())} tables" in res.output

    manifest = orjson.loads((out / "manifest.json").read_bytes())
    assert set(manifest) == {t.name for t in tables()}
    assert (out / "events" / "title=toy").is_dir()
    assert manifest["events"]["partitioned_by"] == ["title"]
    assert (out / "quarantine" / "data.parquet").is_file()

    con = duckdb.connect(str(db), read_only=True)
    mem = duckdb.connect()
    for t in tables():
        cols = ", ".join(f'"{c}"' for c in t.column_names)
        order = ", ".join(f'"{c}"' for c in t.order_by)
        original = con.execute(f"SELECT {cols} FROM {t.name} ORDER BY {order}").fetchall()
        back_rel = read_table(mem, out, t.name)
        back = mem.execute(f"SELECT * FROM back_rel ORDER BY {order}").fetchall()
        assert back == original, t.name
        assert manifest[t.name]["rows"] == len(original)
        # same column types (JSON stays JSON, timestamps stay timestamps)
        assert [str(x) for x in back_rel.types] == [str(x) for x in con.sql(f"SELECT {cols} FROM {t.name}").types]
    assert len(con.execute("SELECT * FROM events").fetchall()) == sum(len(r.events) for r in recs)
    con.close()

    # other readers get JSON columns as text, not bytes
    import polars as pl

    events = pl.read_parquet(out / "events" / "**" / "*.parquet", hive_partitioning=True)
    assert events.schema["payload"] == pl.String
    assert orjson.loads(events.get_column("payload")[0])
    assert pl.read_parquet(out / "divergences" / "**" / "*.parquet").schema["recorded"] == pl.String

    # exporting again replaces the folders, never appends
    res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert res.exit_code == 0
    assert mem.execute(f"SELECT count(*) FROM read_parquet('{out}/games/**/*.parquet')").fetchone() == (40,)
    assert not list(out.glob(".*.tmp"))


def test_export_without_a_database_is_a_clear_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["export", "--parquet", str(tmp_path / "pq"), "--db", str(tmp_path / "x.duckdb")])
    assert res.exit_code == 2 and "no gamerec database" in res.output


def _small_db(tmp_path: Path) -> Path:
    write_records(list(simulate("toy", 3, 5)), tmp_path / "in" / "r.jsonl")
    db = tmp_path / "g.duckdb"
    ingest([str(tmp_path / "in")], db, workers=0, publish_every=-1)
    return db


def test_export_never_replaces_files_it_did_not_write(tmp_path: Path) -> None:
    db = _small_db(tmp_path)
    out = tmp_path / "F"
    (out / "games").mkdir(parents=True)
    (out / "games" / "mine.txt").write_text("mine\n")
    (out / "notes.txt").write_text("also mine\n")

    res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert res.exit_code != 0
    assert "games" in res.output and "not written by gamerec export" in res.output
    assert "Traceback" not in res.output
    assert (out / "games" / "mine.txt").read_text() == "mine\n"
    assert sorted(p.name for p in out.iterdir()) == ["games", "notes.txt"]  # nothing written

    # a user's own manifest.json is refused the same way
    (out / "games" / "mine.txt").rename(tmp_path / "mine.txt")
    (out / "games").rmdir()
    (out / "manifest.json").write_text("{}")
    res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert res.exit_code != 0 and "manifest.json" in res.output
    assert (out / "manifest.json").read_text() == "{}"

    # other files beside the export are left alone; an export replaces its own export
    (out / "manifest.json").unlink()
    for _ in range(2):
        res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
        assert res.exit_code == 0, res.output
    assert (out / "notes.txt").read_text() == "also mine\n"
    assert not [p for p in out.iterdir() if p.name.startswith(".gamerec-export-tmp")]

    # a file the user put inside an earlier export's table folder stops the next export
    mine = out / "games" / "title=toy" / "mine.txt"
    mine.write_text("mine\n")
    res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert res.exit_code != 0 and str(mine) in res.output
    assert mine.read_text() == "mine\n"
    assert list((out / "games" / "title=toy").glob("*.parquet"))


def test_ctrl_c_stops_an_export_between_two_tables_and_a_rerun_finishes(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal
    import threading

    import ingest.export as export

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    write_records(simulate("toy", 20, 32), tmp_path / "in" / "r.jsonl")
    db = tmp_path / "g.duckdb"
    ingest([str(tmp_path / "in")], db, workers=0, publish_every=-1)
    out = tmp_path / "pq"
    assert CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)]).exit_code == 0
    first = {p.name for p in out.iterdir()}
    real = export._export_table
    done: list[str] = []

    def table_then_ctrl_c(con: object, out_: Path, t: Any, *rest: Any) -> None:
        real(con, out_, t, *rest)  # type: ignore[arg-type]
        done.append(t.name)
        if len(done) == 2:
            os.kill(os.getpid(), signal.SIGINT)  # in the middle of the third table's statements: noted

    monkeypatch.setattr(export, "_export_table", table_then_ctrl_c)
    res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert res.exit_code == 130 and "interrupted; every table in" in res.output, res.output
    assert len(done) == 2
    # every table is whole (the two new ones, the others from the first export); no manifest says it is whole
    assert {p.name for p in out.iterdir()} == first - {"manifest.json"}
    monkeypatch.setattr(export, "_export_table", real)
    res = CliRunner().invoke(main, ["export", "--parquet", str(out), "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert {p.name for p in out.iterdir()} == first
