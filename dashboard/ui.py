"""Small layout helpers shared by the pages (no queries here)."""

from __future__ import annotations

import streamlit as st

from analytics.queries import title_label
from dashboard import data


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
