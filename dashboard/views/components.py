"""Components: every card, tile or action kind of a title — how often taken, how its takers fared
(win rate with its 95% interval against the baseline), and when in the game it is taken."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, data, ui
from dashboard.titles import round_name

ALL = "(all)"
st.title("Components")
ui.require_db()

titles = data.present_titles()
if st.query_params.get("game") in titles and "components_title" not in st.session_state:
    st.session_state["components_title"] = st.query_params["game"]  # a link: /components?game=praga
title = ui.title_picker("components_title", titles)
if title is None:
    st.stop()
ui.stand_in_note(title)
opts = data.q("component_filters", title=title)
c1, c2, c3 = st.columns(3)
pc = c1.selectbox("Players", [ALL, *opts["player_count"]], key="components_players")
src = c2.selectbox("Source", [ALL, *opts["source"]], key="components_source")
rs = c3.selectbox("Ruleset", [ALL, *opts["ruleset"]], key="components_ruleset")
res = data.q("component_stats", title=title, player_count=None if pc == ALL else int(pc),
             source=None if src == ALL else src, ruleset=None if rs == ALL else rs)

m1, m2, m3 = st.columns(3)
m1.metric("Finished games", f"{res.games:,}")
m2.metric("Player-games", f"{res.player_games:,}")
m3.metric("Baseline win rate", f"{res.baseline:.2%}" if res.baseline is not None else "—",
          help="the share of every player-game of these games that was won (rank 1, ties included)")
if not res.games:
    st.info("No finished game matches these filters.")
    st.stop()

kinds = list(dict.fromkeys(res.rows.get_column("kind").to_list()))
chosen = st.multiselect("Kinds", kinds, default=kinds, key=f"components_kinds_{title}")
rows = res.rows.filter(pl.col("kind").is_in(chosen))
taken = rows.filter(pl.col("players") > 0)
if taken.height:
    st.altair_chart(charts.components(taken, res.baseline), width="stretch")
    st.caption(f"Based on {res.games:,} finished games ({res.player_games:,} player-games). Each point is a "
               "component taken in at least one player-game; its vertical rule is the 95% interval of its "
               "takers' win rate (Wilson); the dashed line is the baseline. A component taken by few players "
               "has a wide interval: read it with its sample size.")

table = rows.select(
    "kind", "label", "players", (pl.col("pick_rate") * 100).alias("pick_rate"),
    (pl.col("win_rate") * 100).alias("win_rate"), (pl.col("win_rate_low") * 100).alias("low"),
    (pl.col("win_rate_high") * 100).alias("high"), (pl.col("lift") * 100).alias("lift"), "median_round",
    (pl.col("median_progress") * 100).alias("progress"))
ui.dataframe(table, hide_index=True, width="stretch", column_config={
    "label": st.column_config.TextColumn("component", width="large"),
    "players": st.column_config.NumberColumn("taken in (player-games)"),
    "pick_rate": ui.percent_column("taken in % of player-games"),
    "win_rate": ui.percent_column("win rate"),
    "low": ui.percent_column("95% interval from"),
    "high": ui.percent_column("95% interval to"),
    "lift": st.column_config.NumberColumn("vs baseline (points)", format="%+.2f"),
    "median_round": st.column_config.NumberColumn(f"first taken: median {round_name(title)}", format="%.1f"),
    "progress": ui.percent_column("first taken: median point of the game"),
})
st.caption(f"{rows.height:,} components ({taken.height:,} taken at least once); click a column to sort. "
           "Taken: the player took it at least once in the game (bought, built, played or chose it: the kind "
           "says which). The point of the game is the event of the first take over the game's length. Same "
           "command: `gamerec stats --components --game " + title + "`.")
if res.note:
    st.caption(res.note)
if res.uncounted:
    st.warning(f"Not counted: {', '.join(res.uncounted)}. This database was made before gamerec noted what a "
               "move naming a market or display position took; the next `gamerec ingest` into it fills that in "
               "once, by replaying its stored records.")
