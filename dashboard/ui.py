"""Small layout helpers shared by the pages (no queries here)."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from analytics.queries import title_label
from dashboard import data
from dashboard.titles import title_piece


def require_db() -> None:
    """Stop the page with a plain explanation if the database cannot be read."""
    problem = data.database_problem()
    if problem:
        st.warning(problem)
        st.stop()


def title_picker(key: str, titles: list[str], label: str = "Game title") -> str | None:
    """A select box over the titles present in the database (None if there are none)."""
    if not titles:
        st.info("The database holds no games yet: run `gamerec ingest <records>` to load some.")
        return None
    return st.selectbox(label, titles, format_func=title_label, key=key)


def games_caption(n_games: int, what: str = "games") -> None:
    """The number of games behind the figures above."""
    st.caption(f"Based on {n_games:,} {what}.")


def left_out_caption(n_games: int) -> None:
    """Say how many games a player left or conceded: the figures above do not count them."""
    if n_games:
        st.caption(f"{n_games:,} game{'s' if n_games != 1 else ''} in which a player left the table or conceded "
                   f"{'are' if n_games != 1 else 'is'} not counted here: such a game is not played out (the rest of "
                   "it against Board Game Arena's stand-in, or none), and says nothing of what wins.")


def stand_in_note(title: str | None, tiles: bool = False) -> None:
    """The title's word of warning, where its component data is partly stand-in (its ``STAND_IN_NOTE``,
    :mod:`dashboard.titles`); with ``tiles``, also its ``TILES_NOTE`` (where tiles are shown: Game review)."""
    if title is None:
        return
    for note in (title_piece(title, "STAND_IN_NOTE"), title_piece(title, "TILES_NOTE") if tiles else None):
        if note:
            st.caption(note)


def as_percent(df: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """Shares (0–1) as percentages (0–100), for :func:`percent_column`."""
    return df.with_columns([pl.col(c) * 100 for c in columns if c in df.columns])


def percent_column(label: str) -> ColumnConfig:
    """A table column of percentages, written as everywhere else: two decimals (``49.25%``)."""
    return st.column_config.NumberColumn(label, format="%.2f%%")


def in_words(df: pl.DataFrame, column_config: dict[str, Any] | None = None) -> dict[str, Any]:
    """A table's column settings with every column not set there headed in words (``played_at`` ->
    "played at"): a page never shows a raw column id."""
    config = dict(column_config or {})
    for c in df.columns:
        if c not in config and "_" in c:
            config[c] = st.column_config.Column(c.replace("_", " "))
    return config


def dataframe(df: pl.DataFrame, *, column_config: dict[str, Any] | None = None, where: Any = st,
              **kwargs: Any) -> Any:
    """``st.dataframe`` (or ``where.dataframe``: a column) with every column headed in words (:func:`in_words`)."""
    return where.dataframe(df, column_config=in_words(df, column_config), **kwargs)
