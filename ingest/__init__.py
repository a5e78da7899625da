"""gamerec's ingest layer: records -> replay -> Arrow tables -> DuckDB (+ Parquet).

- :mod:`ingest.pipeline` — :func:`ingest.pipeline.ingest`, the whole run
  (parallel replay, one transaction per batch, snapshots for readers);
- :mod:`ingest.schema` — every table and column, declared once;
- :mod:`ingest.milestones` — the registry of per-game milestone tables;
- :mod:`ingest.rows` — one task of raw records -> Arrow tables (runs in workers, and in lake tasks);
- :mod:`ingest.writer` — the single writer (skip / replace / quarantine, snapshots);
- :mod:`ingest.sources` — raw records from files, folders and standard input;
- :mod:`ingest.export` — every table as Parquet;
- :mod:`ingest.lake` — the same replay as Dask tasks into a Parquet lake with a DuckDB catalog;
- :mod:`ingest.winchances` — the win-chance results of ``gamerec analyse``, stored beside the games.

Its benchmarks are in :mod:`benchmarks.ingest_speed` and :mod:`benchmarks.lake_scaling`.
See ``docs/database.md``.
"""

from pathlib import Path

DEFAULT_DB = Path("data") / "gamerec.duckdb"
"""The database every command reads and writes unless told otherwise (``--db``, ``$GAMEREC_DB``)."""

