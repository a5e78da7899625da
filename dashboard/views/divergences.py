"""Divergences: every game that diverged, its first divergence, recorded against replayed, a link to it."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.queries import title_label
from analytics.review import in_words
from dashboard import charts, data, ui

ALL = "(all)"

st.title("Divergences")
ui.require_db()

kinds = data.q("divergence_kinds")
if kinds.is_empty():
    st.success("No divergences: every game in the database replays exactly as recorded.")
else:
    st.altair_chart(charts.divergence_kinds(kinds), width="stretch")
    # the whole page's width: in a side column its columns were cut off
    ui.dataframe(data.q("divergence_keys").with_columns(
        pl.col("title").map_elements(title_label, return_dtype=pl.String),
        pl.col("kind").str.replace_all("_", " ")), hide_index=True, width="stretch",
        column_config={"what": st.column_config.TextColumn("what disagreed"),
                       "games": st.column_config.NumberColumn("games touched")})

    c1, c2 = st.columns(2)
    titles = [ALL, *kinds.get_column("title").unique().sort().to_list()]
    title = c1.selectbox("Title", titles, key="div_title", format_func=lambda t: t if t == ALL else title_label(t))
    kind_opts = [ALL, *kinds.get_column("kind").unique().sort().to_list()]
    kind = c2.selectbox("Kind of the first divergence", kind_opts, key="div_kind",
                        format_func=lambda k: k if k == ALL else in_words(k))
    games = data.q("diverged_games", title=None if title == ALL else title, kind=None if kind == ALL else kind)
    total = int(games.get_column("total")[0]) if games.height else 0
    st.subheader(f"Diverged games ({total:,})")
    if total > games.height:
        st.caption(f"The first {games.height:,} by title and id are listed; narrow them with the filters above.")
    table = games.with_columns(
        pl.format("review?game={}&seq={}", pl.col("game_id"), pl.col("seq")).alias("open"),
        pl.col("title").map_elements(title_label, return_dtype=pl.String),
        pl.col("kind").str.replace_all("_", " "),
    ).select("open", "game_id", "title", "divergences", "seq", "kind", "key", "recorded", "replayed", "message")
    ui.dataframe(table, hide_index=True, width="stretch", column_config={
        "message": st.column_config.TextColumn("message", width="large"),
        "open": st.column_config.LinkColumn("review", display_text="open at event",
                                            help="Open Game review at the first divergence"),
        "seq": st.column_config.NumberColumn("first at event"),
        "divergences": st.column_config.NumberColumn("count")})
    if games.height:
        pick = st.selectbox("Open one in Game review", games.get_column("game_id").to_list(), key="div_pick")
        row = games.filter(pl.col("game_id") == pick).row(0, named=True)
        st.markdown(f"**{pick}** first diverges at event {row['seq']} ({in_words(row['kind'])}): {row['message']}")
        if row["key"]:
            st.markdown(f"`{row['key']}`: recorded **{row['recorded']}**, replayed **{row['replayed']}**")
        st.page_link("views/game_review.py", label=f"Review {pick} at event {row['seq']}",
                     icon=":material/replay:", query_params={"game": pick, "seq": str(row["seq"])})

bad = data.q("quarantined")
if bad.height:
    total = int(bad.get_column("total")[0])
    st.subheader(f"Unreadable records ({total:,})")
    if total > bad.height:
        st.caption(f"The first {bad.height:,} by file and line; `gamerec stats` or SQL on the `quarantine` "
                   "table shows them all.")
    ui.dataframe(bad.drop("total"), hide_index=True, width="stretch",
                 column_config={"error": st.column_config.TextColumn("error", width="large")})
