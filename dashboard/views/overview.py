"""Overview: games per title and status, score distributions, seat win rates, top scores."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.queries import title_label
from dashboard import charts, data, ui

st.title("Overview")
ui.require_db()

page = data.q("overview")  # one connection for the page's figures
s = page["summary"]
cols = st.columns(5)
cols[0].metric("Games", f"{s['games']:,}")
cols[1].metric("Player seats", f"{s['player_seats']:,}")
cols[2].metric("Events", f"{s['events']:,}")
cols[3].metric("Diverged games", f"{s['diverged']:,}")
cols[4].metric("Quarantined records", f"{s['quarantined']:,}")

by_status = page["by_status"]
if by_status.is_empty():
    st.info("No games in the database yet.")
    st.stop()

left, right = st.columns([2, 3])
with left:
    st.altair_chart(charts.games_by_title_status(by_status), width="stretch")
with right:
    st.subheader("Highest scores")
    # one title at a time: points are not comparable across games
    pick = st.selectbox("Title", data.present_titles(), key="overview_top_title", format_func=title_label)
    top = data.q("top_scores", limit=10, title=pick)
    ui.dataframe(
        top.with_columns(
            top.get_column("title").map_elements(title_label, return_dtype=str).alias("title"),
            ("review?game=" + top.get_column("game_id")).alias("review"),
        ).select("review", "name", "final_score", "won", "player_count", "status"),
        hide_index=True, width="stretch",
        column_config={"review": st.column_config.LinkColumn(
            "game", display_text=r"review\?game=(.*)", help="Open this game in Game review"),
            "name": st.column_config.TextColumn("player"),
            "final_score": st.column_config.NumberColumn("final score"),
            "player_count": st.column_config.NumberColumn("players")},
    )
    if top.height:
        best = top.row(0, named=True)
        st.page_link("views/game_review.py", label=f"Review the highest-scoring game ({best['game_id']})",
                     icon=":material/replay:", query_params={"game": best["game_id"]})

dist = page["distribution"]
if dist.height:
    st.altair_chart(charts.score_histograms(dist))
rates = page["seat_rates"]
if rates.height:
    st.altair_chart(charts.seat_win_rates(rates))
    ui.games_caption(int(rates.filter(pl.col("seat") == 1).get_column("games").sum()),
                     "finished games (seat win rates; hover a bar for the games behind it)")
    ui.left_out_caption(page["summary"]["left"])
    if rates.get_column("agents").is_not_null().any():
        st.caption("Simulated games name the agent that played each seat (random or greedy): there a seat's "
                   "win rate also says which agent sat in it. Hover a bar to see who played it, or see "
                   "win rates by agent in Strategy statistics.")
