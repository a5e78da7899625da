"""gamerec's analytics layer: named queries over the ingested database.

- :mod:`analytics.db` — :func:`analytics.db.connect_readonly`, the one way
  readers (stats, dashboard, export) open the database; it works while an
  ingest is writing;
- :mod:`analytics.stats` — the summary statistics behind ``gamerec stats``.

Every query takes a DuckDB connection and returns a polars DataFrame; user
input reaches SQL only as bound parameters.
"""
