"""BGA's departures from the rulebook: per title, each named rule, how often it changed a game, examples."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.queries import title_label
from dashboard import charts, data, ui

st.title("BGA departures")
ui.require_db()
st.caption("Each rule below is a point where BGA's implementation plays differently from the printed rules. "
           "Games replayed under BGA's ruleset record every event where such a point changed what happened "
           "(`gamerec departures PATH` lists them from the command line).")

titles = data.q("departure_titles")
if not titles:
    st.info("No game in this database was played under BGA's rules. Ingest saved BGA logs "
            "(`gamerec ingest LOGS...`) to see where BGA departs from the rulebook.")
    st.stop()
title = st.selectbox("Title", titles, key="dep_title", format_func=title_label)
rules = data.q("departure_rules", title=title)
bga_games = int(rules.get_column("bga_games")[0]) if rules.height else 0
if rules.is_empty():
    st.info(f"No departure from the rulebook is declared for {title_label(title)}.")
    st.stop()
st.caption(f"Based on {bga_games:,} {title_label(title)} game{'s' if bga_games != 1 else ''} under BGA's rules.")
left, right = st.columns([2, 3])
left.altair_chart(charts.departure_rules(rules), width="stretch")
right.dataframe(rules.drop("bga_games"), hide_index=True, width="stretch", column_config={
    "section": st.column_config.TextColumn("rules §"),
    "games": st.column_config.NumberColumn("games", help="games in which it changed what happened"),
    "times": st.column_config.NumberColumn("times", help="events at which it changed what happened"),
    "rulebook": st.column_config.TextColumn("the rulebook", width="large"),
    "bga": st.column_config.TextColumn("Board Game Arena", width="large")})

applied = rules.filter(pl.col("times") > 0).get_column("rule").to_list()
if not applied:
    st.success("None of these departures changed anything in the games here.")
    st.stop()
rule = st.selectbox("Examples of", applied, key="dep_rule", format_func=lambda r: r.replace("_", " "))
ex = data.q("departure_examples", title=title, rule=rule)
total = int(ex.get_column("total")[0]) if ex.height else 0
st.subheader(f"Where {rule.replace('_', ' ')} applied ({total:,} events)")
if total > ex.height:
    st.caption(f"The first {ex.height:,} by game and event.")
ui.dataframe(ex.with_columns(pl.format("review?game={}&seq={}", pl.col("game_id"), pl.col("seq")).alias("open"))
             .select("open", "game_id", "seq", "happened"), hide_index=True, width="stretch", column_config={
    "open": st.column_config.LinkColumn("review", display_text="open at event",
                                        help="Open Game review at this event"),
    "seq": st.column_config.NumberColumn("event"),
    "happened": st.column_config.TextColumn("what happened", width="large")})
