"""The dashboard's access to the database: which file, cached queries, the stepper cache.

Pages call :func:`q` with the name of a function of :mod:`analytics.queries`
and its parameters.  Results are cached with ``st.cache_data`` under the
database file's fingerprint, so repeated page loads cost nothing and a
finished ingest shows up on the next rerun.  While an ingest holds the write
lock, the last result obtained for the same query is shown with a notice.
"""

from __future__ import annotations

import os
from typing import Any

import duckdb
import streamlit as st

from analytics import queries
from analytics.queries import DatabaseBusy, DatabaseMissing, db_version
from analytics.review import Stepper, record_for_game

ENV_DB = "GAMEREC_DB"

_last_good: dict[tuple[Any, ...], Any] = {}


def db_path() -> str:
    """The database the dashboard reads: ``$GAMEREC_DB`` (set by ``gamerec dashboard --db``) or the default."""
    return os.environ.get(ENV_DB) or str(queries.DEFAULT_DB)


@st.cache_data(show_spinner=False, max_entries=512)
def _cached(name: str, db: str, version: tuple[int, ...], params: tuple[tuple[str, Any], ...]) -> Any:
    fn = getattr(queries, name)
    return queries.run(db, fn, **dict(params))


def q(name: str, **params: Any) -> Any:
    """Run (or fetch from the cache) ``analytics.queries.<name>(con, **params)``."""
    if not hasattr(queries, name) or name.startswith("_"):
        raise AttributeError(f"analytics.queries has no query {name!r}")
    db = db_path()
    key = (name, db, tuple(sorted(params.items())))
    try:
        result = _cached(name, db, db_version(db), key[2])
    except DatabaseBusy:
        if key in _last_good:
            _busy_notice()
            return _last_good[key]
        raise
    except duckdb.IOException as exc:  # a view names a file that is not there: say so, stop the page
        st.error(unreadable(db, exc))
        st.stop()
    _last_good[key] = result
    return result


def unreadable(db: str, exc: Exception) -> str:
    """What to tell the user when the database names data it cannot read.

    It happens to a lake's catalog (``gamerec ingest --lake DIR`` writes ``DIR/gamerec.duckdb``, views
    over the lake's Parquet files by their full paths) once the lake was moved or some of its files
    were removed; rerunning the ingest into the lake where it is now rebuilds the catalog.
    """
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return (f"`{db}` names data that cannot be read: {reason}. If it is a lake's catalog, the lake was "
            "moved or files were removed from it since the catalog was written: run `gamerec ingest PATH "
            "--lake DIR` again on the lake where it is now (what is there is skipped) to rebuild the catalog.")


def _busy_notice() -> None:
    if not st.session_state.get("_busy_notice_shown_run"):
        st.session_state["_busy_notice_shown_run"] = True
        st.toast("An ingest is writing to the database: showing the data as of the last load.")


@st.cache_resource(show_spinner="Replaying the game…", max_entries=8)
def _stepper(db: str, version: tuple[int, ...], game_id: str) -> Stepper | None:
    record = queries.run(db, record_for_game, game_id=game_id)
    return None if record is None else Stepper(record)


def stepper(game_id: str) -> Stepper | None:
    """The (cached) stepper of one game, or None if the game is not in the database."""
    db = db_path()
    return _stepper(db, db_version(db), game_id)


@st.cache_data(show_spinner=False, max_entries=32)
def _timeline_spec(db: str, version: tuple[int, ...], game_id: str,
                   names: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    from dashboard import charts

    timeline = queries.run(db, queries.game_timeline, game_id=game_id)
    divs = queries.run(db, queries.game_divergences, game_id=game_id)
    deps = queries.run(db, queries.game_departures, game_id=game_id)
    chart = charts.score_timeline(timeline, 0, divs.get_column("seq").to_list(), dict(names),
                                  departure_seqs=deps.get_column("seq").to_list())
    spec: dict[str, Any] = chart.to_dict()
    return spec


def timeline_spec(game_id: str, names: dict[str, str]) -> dict[str, Any]:
    """One game's score timeline chart, converted once (move its step rule with ``charts.with_step``)."""
    db = db_path()
    return _timeline_spec(db, db_version(db), game_id, tuple(names.items()))  # seat order


def database_problem() -> str | None:
    """A sentence for the user if the database cannot be read at all, else None."""
    db = db_path()
    try:
        names = q("tables")
    except DatabaseMissing:
        return (f"No database at `{db}`. Load records first, e.g. `gamerec ingest data/ --db {db}`, "
                "then reload this page.")
    except DatabaseBusy as exc:
        return str(exc)
    if "games" not in names:
        return f"`{db}` has no `games` table yet: run `gamerec ingest` to load records into it."
    return None


def present_titles() -> list[str]:
    """Titles with at least one game in the database."""
    return list(q("titles"))


def title_missing(title: str) -> bool:
    """True (and say so plainly on the page) when no game of ``title`` is in the database."""
    if title in present_titles():
        return False
    st.info(
        f"There are no {queries.title_label(title)} games in this database yet. "
        f"Load some with `gamerec ingest <records>` (for example `gamerec simulate --game {title} "
        f"--games 50 --seed 1 --out data/{title}` first) and reload this page."
    )
    return True


@st.cache_data(show_spinner=False, max_entries=32)
def _win_chance_spec(db: str, version: tuple[int, ...], game_id: str, x_max: int,
                     names: tuple[tuple[str, str], ...]) -> dict[str, Any] | None:
    from dashboard import charts

    chances = queries.run(db, queries.game_win_chances, game_id=game_id)
    if chances.is_empty():
        return None
    turning = queries.run(db, queries.game_turning_points, game_id=game_id)
    spec: dict[str, Any] = charts.win_chances(chances, turning, x_max, 0, dict(names)).to_dict()
    return spec


def win_chance_spec(game_id: str, x_max: int, names: dict[str, str]) -> dict[str, Any] | None:
    """One game's win-chance chart, converted once (``None`` if the game was not analysed)."""
    db = db_path()
    return _win_chance_spec(db, db_version(db), game_id, x_max, tuple(sorted(names.items())))


@st.cache_data(show_spinner="Rating every player…", max_entries=16)
def _ladder(db: str, version: tuple[int, ...], title: str | None) -> Any:
    from analytics.players import ladder

    history = q("rating_history", title=title)
    names = q("player_names")
    lad = ladder(history)
    return lad.join(names, on="player_id", how="left").sort("place")


def rating_ladder(title: str | None) -> Any:
    """Every rated player's current rating (``title``'s ladder, or every title's), best first, with their
    latest name: from the cached :func:`analytics.queries.rating_history`, ranked once per database version."""
    db = db_path()
    return _ladder(db, db_version(db), title)
