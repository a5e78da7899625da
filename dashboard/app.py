"""The gamerec dashboard: ``streamlit run dashboard/app.py`` (or ``gamerec dashboard``).

One entry script; the pages live in ``dashboard/views/`` and are wired here
with ``st.navigation`` (not ``pages/``: Streamlit would also serve a
``pages/`` directory as old-style pages, bypassing this script).  The database is ``$GAMEREC_DB`` (``gamerec
dashboard --db FILE`` sets it) or ``data/gamerec.duckdb``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

HERE = Path(__file__).parent

PAGES = [
    ("views/overview.py", "Overview", ":material/dashboard:", "overview"),
    ("views/game_review.py", "Game review", ":material/replay:", "review"),
    ("views/score_breakdowns.py", "Score breakdowns", ":material/stacked_bar_chart:", "breakdowns"),
    ("views/pax_pamir.py", "Pax Pamir dominance checks", ":material/flag:", "dominance"),
    ("views/coal_baron.py", "Coal Baron shift rankings", ":material/landscape:", "shifts"),
    ("views/strategy.py", "Strategy statistics", ":material/insights:", "strategy"),
    ("views/players.py", "Players", ":material/person:", "players"),
    ("views/components.py", "Components", ":material/style:", "components"),
    ("views/divergences.py", "Divergences", ":material/call_split:", "divergences"),
    ("views/departures.py", "BGA departures", ":material/rule:", "departures"),
]


def main() -> None:
    st.set_page_config(page_title="gamerec", page_icon=":game_die:", layout="wide")
    pages = [
        st.Page(str(HERE / path), title=title, icon=icon, url_path=url, default=(i == 0))
        for i, (path, title, icon, url) in enumerate(PAGES)
    ]
    nav = st.navigation(pages)
    nav.run()


main()
