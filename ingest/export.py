"""Export every table as Parquet (``gamerec export --parquet DIR``).

Layout: one folder per table, ``DIR/<table>/``.  Per-game tables that span
titles (games, players, events, score tables, divergences, milestones,
records) are partitioned Hive-style by title, ``DIR/events/title=coal_baron/
data_0.parquet``, so a reader interested in one game reads one folder; the
per-game milestone tables, ``quarantine`` and ``ingest_runs`` are one file,
``DIR/<table>/data.parquet``.  ``DIR/manifest.json`` lists every table with
its row count, columns and partitioning.  Rows are written in key order, and
each table folder is written under a temporary name and then swapped in, so
an interrupted export never leaves a half-written table.

:func:`read_table` reads a table back with exactly its database columns (the
round trip the tests check).  JSON columns are written as UTF-8 strings
(Parquet ``STRING``), so every reader (Polars, pandas, DuckDB) gets text.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import orjson

from ingest import schema


class ExportError(Exception):
    """The export could not be written."""


def _partitioned(t: schema.Table) -> bool:
    return t.name in {c.name for c in schema.CORE_GAME_TABLES}


def _column(name: str, sql_type: str) -> str:
    # JSON columns are written as plain UTF-8 strings: Parquet's JSON annotation makes
    # some readers (Polars) load them as raw bytes
    return f't."{name}"::VARCHAR AS "{name}"' if sql_type == "JSON" else f't."{name}"'


def _select(t: schema.Table) -> str:
    cols = ", ".join(_column(c, typ) for c, typ in t.columns)
    order = ", ".join(f't."{c}"' for c in t.order_by)
    if _partitioned(t) and "title" not in t.column_names:
        return (f"SELECT {cols}, g.title AS title FROM {t.name} t JOIN games g USING (game_id) "
                f"ORDER BY g.title, {order}")
    if _partitioned(t):
        return f"SELECT {cols} FROM {t.name} t ORDER BY t.title, {order}"
    return f"SELECT {cols} FROM {t.name} t ORDER BY {order}"


def _lit(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def export_parquet(con: duckdb.DuckDBPyConnection, out_dir: str | Path) -> dict[str, int]:
    """Write every table of the database behind ``con`` under ``out_dir``; returns rows per table."""
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {out}: {exc.strerror}") from None
    present = {r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
    ).fetchall()}
    manifest: dict[str, dict[str, object]] = {}
    rows: dict[str, int] = {}
    for t in schema.tables():
        if t.name not in present:
            continue
        n = int(con.execute(f"SELECT count(*) FROM {t.name}").fetchone()[0])  # type: ignore[index]
        tmp = out / f".{t.name}.tmp"
        final = out / t.name
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        partition = _partitioned(t) and n > 0
        try:
            if partition:
                con.execute(f"COPY ({_select(t)}) TO {_lit(tmp)} "
                            "(FORMAT parquet, PARTITION_BY (title), COMPRESSION zstd)")
            else:
                con.execute(f"COPY ({_select(t)}) TO {_lit(tmp / 'data.parquet')} "
                            "(FORMAT parquet, COMPRESSION zstd)")
        except (duckdb.Error, OSError) as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise ExportError(f"cannot write {final}: {exc}") from None
        shutil.rmtree(final, ignore_errors=True)
        tmp.rename(final)
        rows[t.name] = n
        manifest[t.name] = {
            "rows": n,
            "columns": [{"name": c, "type": typ} for c, typ in t.columns],
            "partitioned_by": ["title"] if partition else [],
            "key": list(t.order_by),
        }
    (out / "manifest.json").write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2) + b"\n")
    return rows


def read_table(con: duckdb.DuckDBPyConnection, out_dir: str | Path, table: str) -> duckdb.DuckDBPyRelation:
    """An exported table read back, with its database columns in their order."""
    spec = {t.name: t for t in schema.tables()}.get(table)
    if spec is None:
        raise ExportError(f"unknown table {table!r}")
    folder = Path(out_dir) / table
    if not folder.is_dir():
        raise ExportError(f"{folder} does not exist; was the export made?")
    cols = ", ".join(f'"{c}"::JSON AS "{c}"' if typ == "JSON" else f'"{c}"' for c, typ in spec.columns)
    glob = _lit(folder / "**" / "*.parquet")
    return con.sql(f"SELECT {cols} FROM read_parquet({glob}, hive_partitioning = true)")
