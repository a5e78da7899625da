"""DuckDB's API as gamerec uses it, the same on DuckDB 1.x and 2.x.

DuckDB 2 refuses a statement while the connection still holds an unfinished
result (one not fetched until a fetch returns nothing), and drops the
connection-level ``.arrow()`` / ``.pl()``.  So every result is consumed whole
(:func:`first_row` instead of ``fetchone()``), and Arrow or polars output goes
through a relation: ``con.sql(query, params=...).to_arrow_table()`` / ``.pl()``.
"""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl


def first_row(result: duckdb.DuckDBPyConnection) -> tuple[Any, ...] | None:
    """The first row of an executed statement (``None`` if it has none), the result consumed whole."""
    rows = result.fetchall()
    return rows[0] if rows else None


def scalar(result: duckdb.DuckDBPyConnection) -> Any:
    """The first column of the first row of an executed statement that returns one (``count(*)``)."""
    row = first_row(result)
    if row is None:
        raise ValueError("the statement returned no row")
    return row[0]


def polars(relation: duckdb.DuckDBPyRelation) -> pl.DataFrame:
    """A relation's rows as a polars frame (``relation.pl()``, typed as a frame on DuckDB 1.x and 2.x alike:
    2.x declares it ``Any``)."""
    frame: pl.DataFrame = relation.pl()
    return frame
