"""One table, one game: the games every statistic counts.

Two players' downloads of one Board Game Arena table are two records of one game
(``bga-<table>-<viewer1>``, ``bga-<table>-<viewer2>``), linked by ``source.table_id``.  Every
figure that counts games (the Overview, seat win rates, score breakdowns, milestone statistics,
strategy tables, players, components, divergence and departure counts) reads its games through
this module, so each table counts once:

- :func:`keyed_games_sql`: every ``games`` row with its ``table_key`` (``bga:<title>:<table id>``
  for a BGA record that names its table, its own ``game_id`` otherwise) — for counting the games
  a set of rows touches (``count(DISTINCT table_key)``);
- :func:`distinct_games_sql`: one ``games`` row per ``table_key``, the *counted* view of each
  table: its complete record if it has one, else the smallest id;
- :func:`statistics_games_sql`: those, less the games a player left or conceded
  (:data:`PLAYED_OUT`): what win rates, scores and strategy figures count.

Lists of records (the game picker, a game's own review) keep every record: each view is a
download a person can open.  Only BGA records read ``records.raw`` (for the table id), so a
database of simulated games pays nothing for this.
"""

from __future__ import annotations

import duckdb

from ingest.duck import first_row

_KEYED_BGA = """
    SELECT g.*, coalesce('bga:' || g.title || ':' || json_extract_string(r.raw, '$.source.table_id'), g.game_id)
               AS table_key
    FROM games g LEFT JOIN records r USING (game_id)
    WHERE g.source_kind = 'bga'
"""

KEYED_GAMES = f"""
    SELECT g.*, g.game_id AS table_key FROM games g WHERE g.source_kind IS DISTINCT FROM 'bga'
    UNION ALL BY NAME
    {_KEYED_BGA}
"""
"""SQL: every ``games`` row with its ``table_key`` (module doc)."""

DISTINCT_GAMES = f"""
    SELECT g.* FROM games g WHERE g.source_kind IS DISTINCT FROM 'bga'
    UNION ALL BY NAME
    SELECT * EXCLUDE (table_key) FROM ({_KEYED_BGA})
    QUALIFY row_number() OVER (PARTITION BY table_key ORDER BY (status = 'complete') DESC, game_id) = 1
"""
"""SQL: the ``games`` rows with every BGA table counted once (its complete record first, then the
smallest id)."""

_NO_RECORDS_KEYED = "SELECT g.*, g.game_id AS table_key FROM games g"
_NO_RECORDS = "SELECT * FROM games"


def _has_records(con: duckdb.DuckDBPyConnection) -> bool:
    row = first_row(con.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main' "
                                "AND table_catalog = current_database() AND table_name = 'records'"))
    return bool(row and row[0])


def distinct_games_sql(con: duckdb.DuckDBPyConnection) -> str:
    """:data:`DISTINCT_GAMES`, or every game where the database keeps no records to tell tables apart."""
    return DISTINCT_GAMES if _has_records(con) else _NO_RECORDS


def keyed_games_sql(con: duckdb.DuckDBPyConnection) -> str:
    """:data:`KEYED_GAMES`, or every game keyed by its id where the database keeps no records."""
    return KEYED_GAMES if _has_records(con) else _NO_RECORDS_KEYED


def counted_ids_sql(con: duckdb.DuckDBPyConnection) -> str:
    """SQL: the ``game_id`` of every counted game (for ``game_id IN (...)`` over per-game tables)."""
    return f"SELECT game_id FROM ({distinct_games_sql(con)})"


PLAYED_OUT = "coalesce(result_end, '') NOT IN ('zombie', 'concede')"
"""SQL condition on a ``games`` row: the game was played out, nobody left the table (BGA made no
player a zombie) or conceded.  A game a player left ends against BGA's automated stand-in, so BGA
does not count its result in its statistics, and a conceded game stops before its end: neither
says what wins.  Win rates, scores and strategy figures read :func:`statistics_games_sql`.  Counts
of games, divergences, departures and a person's own record and rating keep every game (a
concession is a loss there, as BGA ranks it)."""


def statistics_games_sql(con: duckdb.DuckDBPyConnection) -> str:
    """:func:`distinct_games_sql` without the games a player left or conceded (:data:`PLAYED_OUT`)."""
    return f"SELECT * FROM ({distinct_games_sql(con)}) WHERE {PLAYED_OUT}"


def statistics_ids_sql(con: duckdb.DuckDBPyConnection) -> str:
    """SQL: the ``game_id`` of every game the statistics count (:func:`statistics_games_sql`)."""
    return f"SELECT game_id FROM ({statistics_games_sql(con)})"
