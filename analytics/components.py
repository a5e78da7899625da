"""Components: every card, tile or action kind of a title, how often taken and how its takers fared.

For each component, over the finished distinct games of a title (the filters: player count,
source, ruleset; a BGA table downloaded by two players counts once, see
:mod:`analytics.distinct`):

- ``players`` — the player-games in which the player took it at least once (bought, built,
  played, chose: whatever the component's *kind* says), ``pick_rate`` their share of all
  player-games;
- ``win_rate`` — the share of those player-games that were won (rank 1, ties included), with
  its 95% Wilson score interval (``scipy.stats.binomtest(...).proportion_ci``), and ``lift``,
  its difference from the ``baseline`` (the win rate of every player-game of the same games);
- when it is taken: the median round (each title's own counter: Coal Baron's shift, Pax
  Pamir's turn, a round elsewhere) and the median progress (event index over the game's
  length) of the player's first take.

Every component of the catalogue is listed, taken or not.  What is taken is read from one of two
places, as each title's catalogue (``catalogue()`` in ``analytics/titles/<id>.py``) says per kind:

- the moves themselves (``events``: a :class:`Take`), where the move names its component (a court
  card played by id, a facade tile built by colour and size);
- ``components_taken`` (a :class:`Noted`), where the move names only a position (Pax Pamir's
  ``buy`` of a market column, Perikles' ``take_tile`` of a display slot, Praga's ``pick_tile``):
  the replay's rules noted what lay there when it was taken (``replay.engine.State.take``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import duckdb
import polars as pl

from analytics.distinct import statistics_games_sql
from analytics.players import _tables
from analytics.titles import title_piece
from ingest.duck import first_row
from replay.games import available


@dataclass(frozen=True)
class Take:
    """One way a move takes a component: moves of ``move_types`` (optionally narrowed by the SQL condition
    ``where`` over the event's ``payload``) take the component whose catalogue key is the SQL ``key``."""

    kind: str
    move_types: tuple[str, ...]
    key: str
    where: str = "true"


@dataclass(frozen=True)
class Noted:
    """Components the replay noted as taken (``components_taken`` rows of kind ``noted``), listed under the
    catalogue's ``kind``; the catalogue key is the SQL ``key`` over the row's ``component`` (its id in the
    title's data)."""

    kind: str
    noted: str
    key: str = "component"


@dataclass(frozen=True)
class Catalogue:
    takes: tuple[Take | Noted, ...]
    entries: tuple[tuple[str, str, str], ...]
    """(kind, key, label) of every component, in display order."""
    note: str = ""
    """How a component is counted where the move names only a position (shown under the table)."""


def component_data(title: str, name: str) -> Any:
    return json.loads((resources.files(f"replay.games.{title}") / "data" / name).read_text())


def move_field(field: str) -> str:
    return f"json_extract_string(payload, '$.move.{field}')"


def grouped(members: dict[str, str]) -> str:
    """SQL mapping a noted ``component`` id to its catalogue key (several copies, one component)."""
    return "CASE component " + " ".join(f"WHEN {sql_literal(c)} THEN {sql_literal(k)}" for c, k in members.items()) + \
        " ELSE component END"


def catalogued_titles() -> list[str]:
    """The registered titles with a component catalogue."""
    return [t for t in available() if title_piece(t, "catalogue") is not None]


@cache
def catalogue(title: str) -> Catalogue:
    """The component catalogue of ``title`` (its ``analytics/titles/<id>.py``; raises ``KeyError``
    for a title without one)."""
    build = title_piece(title, "catalogue")
    if build is None:
        raise KeyError(title)
    cat: Catalogue = build()
    return cat


@dataclass
class Components:
    games: int
    """Finished distinct games behind the figures."""
    player_games: int
    baseline: float | None
    """The win rate of every player-game of those games."""
    rows: pl.DataFrame
    uncounted: tuple[str, ...] = ()
    """Kinds read from ``components_taken`` when the database has no such table yet (made before it
    existed, and not ingested into since): listed, but not counted."""
    note: str = ""
    """The catalogue's :attr:`Catalogue.note`."""


ROW_SCHEMA = {"kind": pl.String, "key": pl.String, "label": pl.String, "players": pl.Int64, "wins": pl.Int64,
              "pick_rate": pl.Float64, "win_rate": pl.Float64, "win_rate_low": pl.Float64,
              "win_rate_high": pl.Float64, "win_rate_ci": pl.List(pl.Float64), "lift": pl.Float64,
              "median_round": pl.Float64, "median_progress": pl.Float64, "avg_times": pl.Float64}


def sql_literal(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def takes_sql(title: str) -> str:
    """SQL over ``ev`` (the title's move events) and ``tk`` (its ``components_taken`` rows, with the
    event's round) giving one row per take: game_id, seq, player_id, round, kind, key."""
    parts = []
    for t in catalogue(title).takes:
        if isinstance(t, Noted):
            parts.append(f"SELECT game_id, seq, player_id, round, {sql_literal(t.kind)} AS kind, "
                         f"({t.key})::VARCHAR AS key FROM tk WHERE kind = {sql_literal(t.noted)}")
            continue
        types = ", ".join(sql_literal(m) for m in t.move_types)
        parts.append(f"SELECT game_id, seq, player_id, round, {sql_literal(t.kind)} AS kind, ({t.key})::VARCHAR AS key "
                     f"FROM ev WHERE move_type IN ({types}) AND ({t.where})")
    return " UNION ALL ".join(parts)


def wilson(wins: int, n: int) -> tuple[float, float] | tuple[None, None]:
    """The 95% Wilson score interval of ``wins`` out of ``n`` (scipy), or ``(None, None)`` for ``n`` = 0."""
    from scipy.stats import binomtest

    if n == 0:
        return None, None
    ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def components(con: duckdb.DuckDBPyConnection, title: str, *, player_count: int | None = None,
               source: str | None = None, ruleset: str | None = None) -> Components:
    """Every component of ``title`` with how often it was taken and its takers' win rate (module doc)."""
    cat = catalogue(title)
    move_types = sorted({m for t in cat.takes if isinstance(t, Take) for m in t.move_types})
    noted = [t for t in cat.takes if isinstance(t, Noted)]
    have_taken = "components_taken" in _tables(con)
    params = {"title": title, "pc": player_count, "src": source, "rs": ruleset}
    games_sql = f"""
        SELECT game_id, n_events FROM ({statistics_games_sql(con)}) g
        WHERE title = $title AND ($pc::INTEGER IS NULL OR player_count = $pc)
          AND ($src::VARCHAR IS NULL OR source_kind = $src)
          AND ($rs::VARCHAR IS NULL OR coalesce(ruleset, 'official') = $rs)
          AND game_id IN (SELECT game_id FROM players WHERE won IS NOT NULL)
    """
    head = first_row(con.execute(f"""
        WITH g AS ({games_sql})
        SELECT count(DISTINCT p.game_id)::BIGINT, count(*)::BIGINT, count(*) FILTER (WHERE p.won)::BIGINT
        FROM players p JOIN g USING (game_id)
    """, params))
    assert head is not None
    n_games, n_pg, n_wins = (int(v) for v in head)
    types = ", ".join(sql_literal(m) for m in move_types)
    agg = con.sql(f"""
        WITH g AS ({games_sql}),
        ev AS (
            SELECT e.game_id, e.seq, e.player_id, e.round, e.move_type, e.payload
            FROM events e JOIN g USING (game_id)
            WHERE e.kind = 'move' AND e.move_type IN ({types})
        ),
        tk AS ({_noted_sql(have_taken and bool(noted))}),
        takes AS ({takes_sql(title)}),
        first AS (
            SELECT game_id, player_id, kind, key, min(seq) AS seq, arg_min(round, seq) AS round,
                   count(*) AS times
            FROM takes GROUP BY ALL
        )
        SELECT f.kind, f.key, count(*)::BIGINT AS players, count(*) FILTER (WHERE p.won)::BIGINT AS wins,
               median(f.round)::DOUBLE AS median_round,
               median(f.seq::DOUBLE / greatest(g.n_events, 1))::DOUBLE AS median_progress,
               avg(f.times)::DOUBLE AS avg_times
        FROM first f JOIN players p USING (game_id, player_id) JOIN g USING (game_id)
        GROUP BY f.kind, f.key
    """, params=params).pl()
    entries = pl.DataFrame([{"kind": k, "key": key, "label": label, "order": i}
                            for i, (k, key, label) in enumerate(cat.entries)],
                           schema={"kind": pl.String, "key": pl.String, "label": pl.String, "order": pl.Int64})
    rows = entries.join(agg, on=["kind", "key"], how="full", coalesce=True)
    rows = rows.with_columns(
        pl.col("label").fill_null(pl.col("key")),
        pl.col("order").fill_null(len(cat.entries)),
        pl.col("players").fill_null(0), pl.col("wins").fill_null(0),
    )
    lows, highs = [], []
    for w, n in zip(rows.get_column("wins").to_list(), rows.get_column("players").to_list()):
        lo, hi = wilson(int(w), int(n))
        lows.append(lo)
        highs.append(hi)
    baseline = n_wins / n_pg if n_pg else None
    rows = rows.with_columns(
        pl.Series("win_rate_low", lows, dtype=pl.Float64), pl.Series("win_rate_high", highs, dtype=pl.Float64),
        (pl.col("players") / n_pg if n_pg else pl.lit(None, dtype=pl.Float64)).alias("pick_rate"),
        pl.when(pl.col("players") > 0).then(pl.col("wins") / pl.col("players")).alias("win_rate"),
    ).with_columns(
        pl.when(pl.col("players") > 0).then(pl.concat_list("win_rate_low", "win_rate_high")).alias("win_rate_ci"),
        (pl.col("win_rate") - baseline if baseline is not None else pl.lit(None, dtype=pl.Float64)).alias("lift"),
    ).sort(["order", "key"]).select(list(ROW_SCHEMA))
    uncounted = () if have_taken else tuple(dict.fromkeys(t.kind for t in noted))
    return Components(n_games, n_pg, baseline, rows.cast(ROW_SCHEMA), uncounted,  # type: ignore[arg-type]
                      cat.note)


def _noted_sql(present: bool) -> str:
    """The ``components_taken`` rows of the games ``g``, each with the round of its event (none without
    the table)."""
    if not present:
        return ("SELECT NULL::VARCHAR AS game_id, NULL::INTEGER AS seq, NULL::VARCHAR AS player_id, "
                "NULL::INTEGER AS round, NULL::VARCHAR AS kind, NULL::VARCHAR AS component WHERE false")
    return """
        SELECT t.game_id, t.seq, t.player_id, e.round, t.kind, t.component
        FROM components_taken t JOIN g USING (game_id)
        LEFT JOIN events e ON e.game_id = t.game_id AND e.seq = t.seq
    """
