"""Strategy statistics: what separates winners from the rest, per title, with the games behind each figure."""

from __future__ import annotations

import streamlit as st

from analytics.queries import title_label
from dashboard import charts, data, ui
from dashboard.titles import title_piece

st.title("Strategy statistics")
ui.require_db()

title = ui.title_picker("strategy_title", data.present_titles())
if title is None:
    st.stop()
ui.stand_in_note(title)
counts = data.q("title_game_counts", title=title)
st.caption(f"{title_label(title)}: {counts['games']:,} games, {counts['finished']:,} finished under the rules "
           f"({counts['complete']:,} without any divergence). Every figure below comes from finished games; "
           "its game count is in the table or tooltip.")
ui.left_out_caption(counts["left"])

edge = data.q("category_edge", title=title)
if edge.height:
    st.altair_chart(charts.category_edge(edge), width="stretch")
    ui.dataframe(charts.readable(edge, "category"), hide_index=True, column_config={
        "winners": st.column_config.NumberColumn("winners' average", format="%.2f"),
        "others": st.column_config.NumberColumn("others' average", format="%.2f"),
        "edge": st.column_config.NumberColumn("difference", format="%+.2f"),
        "games": st.column_config.NumberColumn("games behind it")})
else:
    st.info("No game of this title has reached its end under the rules yet.")

figures = title_piece(title, "strategy_figures")
if figures is not None:
    figures()

for table in data.q("deeper_tables", title=title):
    if table.rows.is_empty():
        continue
    st.subheader(table.heading)
    ui.dataframe(ui.as_percent(table.rows, "win_rate", "win_rate_low", "win_rate_high"), hide_index=True,
                 column_config={
                     "group": st.column_config.TextColumn(""),
                     "player_games": st.column_config.NumberColumn("player-games behind it"),
                     "win_rate": ui.percent_column("win rate"),
                     "win_rate_low": ui.percent_column("95% interval from"),
                     "win_rate_high": ui.percent_column("95% interval to")})
    st.caption(f"{table.note} Based on {int(table.rows['player_games'].sum()):,} player-games of finished games; "
               "interval: Wilson score, 95%.")

rates = data.q("seat_win_rates").filter(title=title)
if rates.height:
    st.subheader("Seat and player count")
    ui.dataframe(ui.as_percent(rates.drop("title"), "win_rate"), hide_index=True, column_config={
        "win_rate": ui.percent_column("win rate"),
        "games": st.column_config.NumberColumn("games behind it"),
        "agents": st.column_config.TextColumn("played by (games)")})
agents = data.q("agent_win_rates", title=title)
if agents.height:
    st.subheader("Agent")
    st.caption("Simulated games name each seat's agent: compare the agents before reading a seat's win rate "
               "as an advantage of the seat.")
    ui.dataframe(ui.as_percent(agents, "win_rate"), hide_index=True, column_config={
        "win_rate": ui.percent_column("win rate"),
        "games": st.column_config.NumberColumn("seats behind it")})
