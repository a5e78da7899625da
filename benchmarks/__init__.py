"""Every benchmark of gamerec, run by ``gamerec bench`` (``gamerec_cli/bench_cmd.py``) or on its own.

- :mod:`benchmarks.replay_speed` — replay events/s per game against python-chess, the three
  corpora (sim, pass-heavy, observed), ``--baseline`` and ``--against REV``;
- :mod:`benchmarks.replay_worker` — one version replaying the corpora in a process of its own
  (``--against``);
- :mod:`benchmarks.ingest_speed` — ingest records/s, rows/s and peak memory (also into a lake);
- :mod:`benchmarks.bga_import` — importing and replaying saved BGA logs;
- :mod:`benchmarks.dashboard_queries` — the dashboard's query latencies;
- :mod:`benchmarks.win_chances` — the rollouts of ``gamerec analyse``;
- :mod:`benchmarks.lake_scaling` — the lake's scaling run (``python -m benchmarks.lake_scaling``).

Benchmarks import every layer; no layer imports them.
"""
