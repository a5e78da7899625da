"""Score breakdowns: per title and category, stacked per rank and per player; winners against the rest."""

from __future__ import annotations

import streamlit as st

from dashboard import charts, data, ui

st.title("Score breakdowns")
ui.require_db()

title = ui.title_picker("breakdown_title", data.present_titles())
if title is None:
    st.stop()

ui.stand_in_note(title)
sizes = data.q("title_player_counts", title=title)
if sizes:
    # ranks mean something only among games of one size: rank 3 is last of three, middling of five
    n_players = st.radio("Players in the game", [n for n, _ in sizes], horizontal=True, key="breakdown_players",
                         format_func=lambda n: f"{n} ({dict(sizes)[n]:,} games)")
else:
    n_players = None
counts = data.q("title_game_counts", title=title, player_count=n_players)
by_rank = data.q("breakdown_by_rank", title=title, player_count=n_players)
if by_rank.is_empty():
    st.info("No game of this title has reached its end yet (under the rules), so there is no final "
            "breakdown to show.")
    st.stop()

left, right = st.columns(2)
with left:
    st.altair_chart(charts.breakdown_by_rank(by_rank), width="stretch")
with right:
    st.altair_chart(charts.winners_vs_rest(data.q("breakdown_winners_vs_rest", title=title,
                                                  player_count=n_players)), width="stretch")
ui.games_caption(counts["finished"], f"finished {n_players}-player games (of {counts['games']:,} in the database; "
                 f"{counts['complete']:,} without any divergence)")
ui.left_out_caption(counts["left"])

st.subheader("One game, stacked per player")
ids = data.q("game_list", title=title, order="top_score", limit=200)
if ids.height:
    game_id = st.selectbox(
        "Game (best scores first)", ids.get_column("game_id").to_list(), key="breakdown_game",
        format_func=lambda g: f"{g} — top score {ids.filter(ids['game_id'] == g)['top_score'][0]}",
    )
    st.altair_chart(charts.game_breakdown(data.q("game_breakdown_named", game_id=game_id)), width="stretch")
    st.page_link("views/game_review.py", label=f"Review {game_id}", icon=":material/replay:",
                 query_params={"game": game_id})
