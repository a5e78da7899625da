"""Pax Pamir dominance checks: success by check number, dominant coalitions, one game's checks."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, data, ui

st.title("Pax Pamir dominance checks")
ui.require_db()
if data.title_missing("pax_pamir"):
    st.stop()

success = data.q("dominance_success_by_check")
if success.is_empty():
    st.info("The Pax Pamir games in this database have no dominance checks yet (none reached one).")
    st.stop()

summary = data.q("dominance_summary")
c1, c2, c3, c4 = st.columns(4)
c1.metric("Dominance checks", f"{summary['checks']:,}")
c2.metric("Successful", f"{summary['successful']:,}")
c3.metric("Success rate", f"{summary['successful'] / summary['checks']:.2%}" if summary["checks"] else "—")
c4.metric("Games with checks", f"{summary['games']:,}")

left, right = st.columns(2)
with left:
    st.altair_chart(charts.dominance_success(success), width="stretch")
    st.caption("The number above each bar is the number of checks behind it. The final check (the 4th "
               "Dominance Check card, scoring double) is one bar, whichever check it was.")
with right:
    coal = data.q("dominance_coalitions")
    if coal.height:
        st.altair_chart(charts.dominance_coalitions(coal), width="stretch")
    else:
        st.info("No dominance check has succeeded yet.")
ui.dataframe(data.q("dominance_points_by_outcome"), hide_index=True,
             column_config={"check": "Check", "successful": "Successful",
                            "avg_points": st.column_config.NumberColumn("Average points", format="%.2f"),
                            "players": st.column_config.NumberColumn("Player scorings")})

st.subheader("One game's checks")
games = data.q("dominance_games")
game_id = st.selectbox("Game (most successful checks first)", games, key="dominance_game")
if game_id:
    checks = data.q("dominance_checks_of_game", game_id=game_id)
    who = {r["player_id"]: r["name"] or r["player_id"] for r in data.q("game_players", game_id=game_id).iter_rows(named=True)}
    st.altair_chart(charts.dominance_blocks(checks), width="stretch")
    for _seq, part in checks.group_by("seq", maintain_order=True):
        first = part.row(0, named=True)
        verdict = (f"successful — {first['dominant_coalition']} dominant" if first["successful"]
                   else "not successful — scored by cylinders in play")
        label = "final check" if first["is_final"] else f"check {first['check_no']}"
        st.markdown(f"**{label}** at event {first['seq']}: {verdict} · blocks afghan {first['blocks_afghan']}, "
                    f"british {first['blocks_british']}, russian {first['blocks_russian']}")
        ui.dataframe(part.select(pl.col("player_id").replace_strict(who, default=pl.col("player_id"))
                                 .alias("player"), "loyalty", "influence", "cylinders", "points")
                     .sort(pl.col("points"), descending=True), hide_index=True,
                     column_config={"player": "Player", "loyalty": "Loyalty", "influence": "Influence",
                                    "cylinders": "Cylinders", "points": "Points"})
        st.page_link("views/game_review.py", label=f"See the board at event {first['seq']}",
                     icon=":material/replay:", query_params={"game": game_id, "seq": str(first["seq"])})
