"""The gamerec dashboard: ``streamlit run dashboard/app.py`` (or ``gamerec dashboard``).

One entry script; the pages live in ``dashboard/views/`` and are wired here
with ``st.navigation`` (not ``pages/``: Streamlit would also serve a
``pages/`` directory as old-style pages, bypassing this script).  The database is ``$GAMEREC_DB`` (``gamerec
dashboard --db FILE`` sets it) or ``data/gamerec.duckdb``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.titles import title_pages

HERE = Path(__file__).parent

COMMON_PAGES = [
    ("views/overview.py", "Overview", ":material/dashboard:", "overview"),
    ("views/game_review.py", "Game review", ":material/replay:", "review"),
    ("views/score_breakdowns.py", "Score breakdowns", ":material/stacked_bar_chart:", "breakdowns"),
    ("views/strategy.py", "Strategy statistics", ":material/insights:", "strategy"),
    ("views/players.py", "Players", ":material/person:", "players"),
    ("views/components.py", "Components", ":material/style:", "components"),
    ("views/divergences.py", "Divergences", ":material/call_split:", "divergences"),
    ("views/departures.py", "BGA departures", ":material/rule:", "departures"),
]


def pages() -> list[tuple[str, str, str, str]]:
    """The common pages, with each title's own pages (its ``PAGES``) after the score breakdowns."""
    return COMMON_PAGES[:3] + title_pages() + COMMON_PAGES[3:]


def main() -> None:
    st.set_page_config(page_title="gamerec", page_icon=":game_die:", layout="wide")
    nav_pages = [
        st.Page(str(HERE / path), title=title, icon=icon, url_path=url, default=(i == 0))
        for i, (path, title, icon, url) in enumerate(pages())
    ]
    nav = st.navigation(nav_pages)
    nav.run()


main()
