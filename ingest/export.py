"""Export every table as Parquet (``gamerec export --parquet DIR``).

Layout: one folder per table, ``DIR/<table>/``.  Per-game tables that span
titles (games, players, events, score tables, divergences, milestones,
records) are partitioned Hive-style by title, ``DIR/events/title=coal_baron/
data_0.parquet``, so a reader interested in one game reads one folder; the
per-game milestone tables, ``quarantine`` and ``ingest_runs`` are one file,
``DIR/<table>/data.parquet``.  ``DIR/manifest.json`` lists every table with
its row count, columns and partitioning; it is removed when an export starts
and written when it ends, so a folder with a manifest holds a whole export.
Rows are written in key order, and each table folder is written under a
temporary name and then swapped in, so an interrupted export never leaves a
half-written table: Ctrl-C stops it between two tables (:mod:`ingest.interrupt`).

An export replaces only what an earlier export wrote.  It marks the folder
with ``DIR/.gamerec-export.json``, listing every file it wrote; before
writing, it checks that each name it is about to replace (a table folder,
``manifest.json``) is absent or holds exactly files of that list, and
otherwise refuses without touching anything, naming the first file that is
not its own.  Other files in ``DIR`` are left alone.

:func:`read_table` reads a table back with exactly its database columns (the
round trip the tests check).  JSON columns are written as UTF-8 strings
(Parquet ``STRING``), so every reader (Polars, pandas, DuckDB) gets text.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import duckdb
import orjson

from ingest import schema
from ingest.duck import scalar
from ingest.interrupt import Interrupt


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


MARK = ".gamerec-export.json"
MARK_FORMAT = "gamerec-export/1"
_TMP_PREFIX = ".gamerec-export-tmp-"


def _files_under(folder: Path) -> list[str]:
    """Every entry under ``folder`` (files, links and empty folders), relative, sorted."""
    found: list[str] = []
    for p in sorted(folder.rglob("*")):
        if p.is_dir() and not p.is_symlink():
            if not any(p.iterdir()):
                found.append(p.relative_to(folder).as_posix() + "/")
            continue
        found.append(p.relative_to(folder).as_posix())
    return found


def _earlier_export(out: Path) -> dict[str, list[str]]:
    """Files an earlier export wrote in ``out``, per top-level name (``{}`` if none)."""
    mark = out / MARK
    if not mark.exists():
        return {}
    try:
        data = orjson.loads(mark.read_bytes())
        if not isinstance(data, dict) or data.get("format") != MARK_FORMAT:
            raise ValueError
        files = data["files"]
        if not isinstance(files, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(x, str) for x in v)
            for k, v in files.items()
        ):
            raise ValueError
    except (OSError, ValueError, KeyError, orjson.JSONDecodeError):
        raise ExportError(f"cannot export to {out}: {mark} is not a gamerec export mark; "
                          "choose another folder") from None
    return files


def _check_replaceable(out: Path, name: str, earlier: dict[str, list[str]]) -> None:
    """Refuse unless ``out/name`` is absent or exactly what an earlier export wrote there."""
    target = out / name
    if not target.exists() and not target.is_symlink():
        return
    ours = earlier.get(name)
    if ours is None:
        raise ExportError(f"cannot export to {out}: {target} exists and was not written by "
                          "gamerec export; move it away or choose another folder")
    if target.is_dir() and not target.is_symlink():
        unknown = sorted(set(_files_under(target)) - set(ours))
        if unknown:
            raise ExportError(f"cannot export to {out}: {target / unknown[0]} was not written by "
                              "gamerec export; move it away or choose another folder")
    elif ours != [""]:
        raise ExportError(f"cannot export to {out}: {target} was not written by gamerec export; "
                          "move it away or choose another folder")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def export_parquet(con: duckdb.DuckDBPyConnection, out_dir: str | Path) -> dict[str, int]:
    """Write every table of the database behind ``con`` under ``out_dir``; returns rows per table.

    Raises :class:`ExportError`, before writing anything, if the export would replace a file
    that an earlier export did not write.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {out}: {exc.strerror}") from None
    earlier = _earlier_export(out)
    present = {r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
    ).fetchall()}
    todo = [t for t in schema.tables() if t.name in present]
    # every name this export replaces: its tables, the manifest, and tables an earlier export
    # wrote that this database no longer has (they would be stale)
    stale = sorted(set(earlier) - {t.name for t in todo} - {"manifest.json"})
    for name in [t.name for t in todo] + ["manifest.json"] + stale:
        _check_replaceable(out, name, earlier)
    for left in out.glob(_TMP_PREFIX + "*"):  # left by an export that was killed
        _remove(left)

    written: dict[str, list[str]] = {k: v for k, v in earlier.items() if (out / k).exists()}

    def mark() -> None:
        data = {"format": MARK_FORMAT, "files": dict(sorted(written.items()))}
        tmp = out / (_TMP_PREFIX + MARK)
        tmp.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
        tmp.replace(out / MARK)

    # the manifest describes a whole export: none while one is under way (an interrupted one has none)
    if written.pop("manifest.json", None) is not None:
        mark()
    _remove(out / "manifest.json")
    manifest: dict[str, dict[str, object]] = {}
    rows: dict[str, int] = {}
    with Interrupt() as stop:  # Ctrl-C stops the export between two tables, never inside one
        for t in todo:
            stop.check()
            _export_table(con, out, t, written, mark, rows, manifest)
        for name in stale:
            _remove(out / name)
            written.pop(name, None)
        written["manifest.json"] = [""]
        mark()
        tmp_manifest = out / (_TMP_PREFIX + "manifest.json")
        tmp_manifest.write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2) + b"\n")
        tmp_manifest.replace(out / "manifest.json")
        mark()
    return rows


def _export_table(con: duckdb.DuckDBPyConnection, out: Path, t: schema.Table, written: dict[str, list[str]],
                  mark: Callable[[], None], rows: dict[str, int], manifest: dict[str, dict[str, object]]) -> None:
    """Write table ``t`` under a temporary name, then swap it in for the earlier export's."""
    n = int(scalar(con.execute(f"SELECT count(*) FROM {t.name}")))
    tmp = out / f"{_TMP_PREFIX}{t.name}"
    final = out / t.name
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
    # the mark lists the new files before they take the old ones' place
    written[t.name] = sorted(set(written.get(t.name, [])) | set(_files_under(tmp)))
    mark()
    old = out / f"{_TMP_PREFIX}{t.name}.old"
    if final.exists():
        final.rename(old)
    tmp.rename(final)
    _remove(old)
    written[t.name] = _files_under(final)
    rows[t.name] = n
    manifest[t.name] = {
        "rows": n,
        "columns": [{"name": c, "type": typ} for c, typ in t.columns],
        "partitioned_by": ["title"] if partition else [],
        "key": list(t.order_by),
    }


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
