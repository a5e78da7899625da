"""Coal Baron shift rankings: per shift and category, values, ranks and points; categories that decide."""

from __future__ import annotations

import streamlit as st

from dashboard import charts, data, ui

st.title("Coal Baron shift rankings")
ui.require_db()
if data.title_missing("coal_baron"):
    st.stop()

points = data.q("shift_points")
if points.is_empty():
    st.info("The Coal Baron games in this database have no shift scoring yet.")
    st.stop()

deciders = data.q("shift_deciders")
n_games = int(deciders.get_column("total_games")[0]) if deciders.height else 0
st.altair_chart(charts.shift_deciders(deciders), width="stretch")
ui.games_caption(n_games, "finished Coal Baron games with shift scorings (hover a bar for each category's count)")
st.altair_chart(charts.shift_points(points))
with st.expander("The figures behind the chart"):
    ui.dataframe(charts.readable(points, "category"), hide_index=True, width="stretch")

st.subheader("One game's shift rankings")
games = data.q("shift_games")
game_id = st.selectbox("Game (most shift points first)", games, key="shift_game")
if game_id:
    roster = data.q("game_players", game_id=game_id)
    names = {r["player_id"]: r["name"] or r["player_id"] for r in roster.iter_rows(named=True)}
    ranks = data.q("shift_rankings_of_game", game_id=game_id)
    st.altair_chart(charts.game_shift_heatmap(ranks, names))
    for shift, seq in ranks.select("shift", "seq").unique(maintain_order=True).iter_rows():
        st.page_link("views/game_review.py", label=f"See the board at shift {shift} (event {seq})",
                     icon=":material/replay:", query_params={"game": game_id, "seq": str(seq)})
