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
- :mod:`ingest.bench` — ingest throughput and peak memory for ``gamerec bench``.

See ``docs/database.md``.
"""
