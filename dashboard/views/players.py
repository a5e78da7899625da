"""Players: a person across games — find by name or id; their record, rating and its history,
opponents, decision quality and games (each linking to its review).

Links open a player with ``?player=<id>``; without one the page shows the rating ladder.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.queries import title_label
from dashboard import charts, data, ui

ALL = "(all titles)"
PLAYER = "players_player"

st.title("Players")
ui.require_db()

linked = st.query_params.get("player")
if linked and st.session_state.get("_players_linked") != linked:
    st.session_state["_players_linked"] = linked
    st.session_state[PLAYER] = linked
    st.session_state["players_search"] = linked

titles = data.present_titles()
c1, c2 = st.columns([3, 2])
text = c1.text_input("Find a player (name or id)", key="players_search",
                     placeholder="a BGA player id, or a name they played under")
title_choice = c2.selectbox("Title", [ALL, *titles], key="players_title",
                            format_func=lambda t: t if t == ALL else title_label(t))
title = None if title_choice == ALL else title_choice
ladder_name = title_label(title) if title else "all titles"


def _ladder() -> None:
    lad = data.rating_ladder(title)
    st.subheader(f"Rating ladder ({ladder_name})")
    if lad.is_empty():
        st.info("No finished game yet: nobody is rated.")
        return
    shown = lad.head(100).with_columns(pl.format("/players?player={}", "player_id").alias("profile"))
    ui.dataframe(shown.select("place", "name", "player_id", "mu", "sigma", "conservative", "games", "profile"),
                 hide_index=True, column_config={
                     "mu": st.column_config.NumberColumn("rating", format="%.2f"),
                     "sigma": st.column_config.NumberColumn("uncertainty (σ)", format="%.2f"),
                     "conservative": st.column_config.NumberColumn("rating − 3σ", format="%.2f"),
                     "games": st.column_config.NumberColumn("rated games"),
                     "profile": st.column_config.LinkColumn("profile", display_text="open")})
    st.caption(f"{lad.height:,} rated players, sorted by rating − 3σ (a player with few games has a wide σ); "
               f"the first {min(100, lad.height)} listed. OpenSkill's Plackett-Luce model over every finished game "
               "in the order played; a BGA table downloaded by two players counts once.")


if not text.strip():
    _ladder()
    st.stop()

found = data.q("player_search", text=text.strip())
if found.is_empty():
    st.info(f"No player's id or name contains {text.strip()!r}.")
    _ladder()
    st.stop()
options = found.get_column("player_id").to_list()
labels = {r["player_id"]: f"{r['name']} ({r['player_id']}), {r['games']:,} games" for r in found.iter_rows(named=True)}
if st.session_state.get(PLAYER) not in labels:
    st.session_state[PLAYER] = options[0]
pid: str = st.selectbox(f"Player ({len(options)} found" + (", the first 50" if len(options) == 50 else "") + ")",
                        options, format_func=lambda p: labels[p], key=PLAYER)
st.query_params["player"] = pid
st.session_state["_players_linked"] = pid

prof = data.q("player_profile", player_id=pid, title=title)
overall = prof["record"]["overall"].row(0, named=True)
history = data.q("rating_history", title=title)
mine = history.filter(pl.col("player_id") == pid)
ladder = data.rating_ladder(title)
me = ladder.filter(pl.col("player_id") == pid)

st.header(labels[pid].rsplit(",", 1)[0])
m1, m2, m3, m4 = st.columns(4)
m1.metric("Finished games", f"{overall['games']:,}", help=f"{overall['played']:,} played, unfinished ones included")
m2.metric("Wins", f"{overall['wins']:,}", help="rank 1, ties included")
m3.metric("Win rate", f"{overall['win_rate']:.2%}" if overall["win_rate"] is not None else "—")
if me.height:
    r = me.row(0, named=True)
    m4.metric(f"Rating ({ladder_name})", f"{r['mu']:.2f} ± {r['sigma']:.2f}",
              help=f"OpenSkill Plackett-Luce: mu ± sigma; rating − 3σ {r['conservative']:.2f}, place {r['place']:,} "
                   f"of {r['of']:,}; {r['games']:,} rated games")
else:
    m4.metric(f"Rating ({ladder_name})", "—", help="no finished game yet")
ui.games_caption(overall["games"], "finished games" + (f" of {title_label(title)}" if title else ""))

if mine.height:
    st.altair_chart(charts.rating_history(mine, f"Rating after each game ({ladder_name})"), width="stretch")
    st.caption(f"Based on {mine.height:,} rated games. Line: the rating (mu); band: ± one sigma; dashed: "
               "rating − 3σ. " + ("Every title shares one ladder here; pick a title for its own."
                                  if title is None else ""))

rec = prof["record"]
pct = {"win_rate": ui.percent_column("win rate"),
       "avg_score": st.column_config.NumberColumn("average score", format="%.2f"),
       "games": st.column_config.NumberColumn("finished games"),
       "played": st.column_config.NumberColumn("played")}
if rec["by_title"].height:
    st.subheader("Record")
    tabs = st.tabs(["by title", "by player count", "by seat"])
    for tab, key in zip(tabs, ("by_title", "by_player_count", "by_seat")):
        with tab:
            df = rec[key].with_columns(pl.col("title").map_elements(title_label, return_dtype=pl.String))
            ui.dataframe(ui.as_percent(df, "win_rate"), hide_index=True, column_config=pct)
    st.caption("A win is rank 1, ties included; win rates and scores over finished games. Seat 1 is the first "
               "player.")

cats = prof["categories"]
if cats.height:
    st.subheader("Points by category, against their opponents")
    ui.dataframe(charts.readable(cats.with_columns(pl.col("title").map_elements(title_label, return_dtype=pl.String)),
                                 "category"), hide_index=True, column_config={
        "player": st.column_config.NumberColumn("their average", format="%.2f"),
        "opponents": st.column_config.NumberColumn("opponents' average", format="%.2f"),
        "difference": st.column_config.NumberColumn("difference", format="%+.2f"),
        "games": st.column_config.NumberColumn("games behind it")})

opp = prof["opponents"]
if opp.height:
    st.subheader("Opponents")
    shown = opp.with_columns(pl.format("/players?player={}", "player_id").alias("profile"))
    ui.dataframe(shown, hide_index=True, column_config={
        "played": st.column_config.NumberColumn("games together"),
        "games": st.column_config.NumberColumn("finished together"),
        "wins": st.column_config.NumberColumn("this player's wins"),
        "their_wins": st.column_config.NumberColumn("the opponent's wins"),
        "ahead": st.column_config.NumberColumn("finished ahead"),
        "behind": st.column_config.NumberColumn("finished behind"),
        "level": st.column_config.NumberColumn("level"),
        "profile": st.column_config.LinkColumn("profile", display_text="open")})
    st.caption(f"{opp.height:,} opponents, most frequent first; ahead / behind / level: this player's final rank "
               "against the opponent's, over finished games together.")

dq = prof["decisions"]
st.subheader("Decision quality")
if dq["decisions"]:
    d1, d2, d3 = st.columns(3)
    d1.metric("Analysed decisions", f"{dq['decisions']:,}", help=f"in {dq['games']:,} analysed games")
    d2.metric("Win chance lost per decision", f"{dq['avg_lost']:.2%}",
              help="the mover's chance at the position minus at the next analysed position; a gain counts as 0")
    d3.metric("Average change", f"{dq['avg_change']:+.2%}", help="gains and losses alike")
    worst = dq["worst"].with_columns(pl.format("/review?game={}&seq={}", "game_id", "move_seq").alias("review"))
    ui.dataframe(ui.as_percent(worst.select("game_id", "move_seq", "move_type", "move", "chance_before",
                                            "chance_after", "lost", "review"),
                               "chance_before", "chance_after", "lost"), hide_index=True, column_config={
        "move_seq": st.column_config.NumberColumn("event"),
        "chance_before": ui.percent_column("chance before"),
        "chance_after": ui.percent_column("chance after"),
        "lost": ui.percent_column("lost"),
        "review": st.column_config.LinkColumn("review", display_text="open at the move")})
    if dq["choices"]:
        c1, c2 = st.columns(2)
        c1.metric("Win chance given away per choice", f"{dq['avg_given_away']:.2%}",
                  help=f"over {dq['choices']:,} choices of at least two moves, judged by the title's value model: "
                       "the chance after the best move minus after the move played (the draws and the other "
                       "players' moves that follow do not count)")
        c2.metric("Best move chosen", f"{dq['best_share']:.0%}", help="the share of those choices of the best move")
        wc = dq["worst_choices"].with_columns(pl.format("/review?game={}&seq={}", "game_id", "move_seq").alias("review"))
        ui.dataframe(ui.as_percent(wc.select("game_id", "move_seq", "moves", "played_words", "given_away",
                                             "best_words", "review"), "given_away"), hide_index=True, column_config={
            "move_seq": st.column_config.NumberColumn("event"),
            "moves": st.column_config.NumberColumn("moves to choose from"),
            "played_words": st.column_config.TextColumn("the move played"),
            "given_away": ui.percent_column("given away"),
            "best_words": st.column_config.TextColumn("the best move"),
            "review": st.column_config.LinkColumn("review", display_text="open at the move")})
        by_game = prof["choices_by_game"]
        if by_game.height >= 2:
            st.altair_chart(charts.choices_by_game(by_game), width="stretch")
    ui.games_caption(dq["games"], "analysed games")
else:
    st.caption("None of this player's games has been analysed: `gamerec analyse PATH --id GAME --db "
               f"{data.db_path()}` computes win chances (docs/analysis.md).")

games = prof["games"]
st.subheader(f"Games ({games.height:,})")
shown = games.head(500).with_columns(
    pl.format("/review?game={}", "game_id").alias("review"),
    pl.col("title").map_elements(title_label, return_dtype=pl.String))
ui.dataframe(shown.select("review", "title", "played_at", "player_count", "seat", "final_score", "rank", "won",
                          "winners", "status"), hide_index=True, column_config={
    "review": st.column_config.LinkColumn("game", display_text=r"game=(.*)"),
    "final_score": st.column_config.NumberColumn("score")})
if games.height > 500:
    st.caption(f"The latest 500 of {games.height:,} games are listed.")
