"""Game review's win-chance section: the chart under the score chart, the turning points, the alternatives.

The numbers come from ``gamerec analyse`` (tables ``win_chances``,
``turning_points``, ``turning_point_alternatives``); how they are made and
what they are worth is in ``docs/analysis.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl
import streamlit as st

from analytics import players
from dashboard import charts, data, ui


def turning_jumps(game_id: str) -> list[tuple[int, str]]:
    """``(seq, label)`` of the game's turning points, for the Jump to list."""
    tps = data.q("game_turning_points", game_id=game_id)
    return [(int(r["seq"]), f"turning point ({'fall' if r['delta'] < 0 else 'rise'} {r['delta']:+.0%})")
            for r in tps.iter_rows(named=True)]


COSTLY = 0.10
"""A choice that gave away at least this much win chance is listed in Jump to (as much as a value turning
point's change, ``replay.analysis.VALUE_TURN``)."""


UNCONFIRMED = ("In this title the moves the value model prefers proved better, when played on, by much less than "
               "it says (docs/analysis.md, Choices): read the differences between moves as the model's opinion.")
"""Said beside a title's alternatives and choices when its model's readings of one move against another were
not borne out by play-outs (the title does not judge choices by default)."""


def costly_jumps(game_id: str, names: dict[str, str], limit: int = 3) -> list[tuple[int, str]]:
    """``(seq, label)`` of the game's ``limit`` costliest choices (those that gave away at least
    :data:`COSTLY` against the best move), for the Jump to list."""
    dec = data.q("game_decisions", game_id=game_id)
    worst = dec.filter(players.JUDGED & (pl.col("given_away") >= COSTLY)).sort(
        ["given_away", "move_seq"], descending=[True, False]).head(limit)
    return [(int(r["move_seq"]), f"costly choice by {names.get(r['player_id'], r['player_id'])} "
             f"(gave away {r['given_away']:.0%})") for r in worst.iter_rows(named=True)]


def section(game_id: str, seq: int, x_max: int, names: dict[str, str], goto: Callable[[int], None]) -> None:
    """The win chances of one game at step ``seq`` (the state after event ``seq``)."""
    st.subheader("Win chances")
    info = data.q("game_analysis", game_id=game_id)
    if info is None:
        st.info("This game has no win chances yet. Compute them from its record with "
                f"`gamerec analyse PATH --id {game_id} --db {data.db_path()}` (PATH: the file or folder holding "
                "its record; a minute or more per game on one core, see docs/analysis.md), then reload this page.")
        return
    if not info.get("current"):
        st.warning("These win chances were computed from an earlier version of this game's record; "
                   "run `gamerec analyse` on it again.")
    spec = data.win_chance_spec(game_id, x_max, names)
    if spec is not None:
        st.vega_lite_chart(spec=charts.with_step(spec, seq), width="stretch")
    by_value = info.get("method") == "value"
    when = f"at the start of each {'turn' if info['at'] == 'turns' else 'decision'}"
    if by_value:
        st.caption(f"Read {when} by the title's value model (learned from self-play) from what the public saw; "
                   "▼▲ turning points (a change of 10 points or more). How well it is calibrated and how "
                   "strong its agent plays: docs/analysis.md.")
    else:
        st.caption(f"Estimated {when} by {info['rollouts']} rollouts played out by the {info['agent']} agent "
                   "from what the public saw, deck order and dice drawn afresh each time; band: 95% interval; "
                   "▼▲ turning points. Only as good as the agent; what each title resamples and how well it is "
                   "calibrated: docs/analysis.md.")
    chances = data.q("game_win_chances", game_id=game_id)
    here = chances.filter(pl.col("seq") <= seq)
    if not here.height and chances.height:
        st.caption(f"No estimate before event {int(chances['seq'].min()) + 1}: the first is made at the start "
                   "of the first turn.")
    if here.height:
        at = int(here.get_column("seq").max())  # type: ignore[arg-type]
        now = here.filter(pl.col("seq") == at)
        cols = st.columns(max(now.height, 1))
        for c, r in zip(cols, now.iter_rows(named=True)):
            c.metric(f"{names.get(r['player_id'], r['player_id'])}", f"{r['chance']:.0%}",
                     help=f"the value model's chance after event {at}" if by_value else
                     f"95% interval {r['ci_low']:.0%}–{r['ci_high']:.0%}, {r['rollouts']} rollouts, "
                     f"estimated after event {at}")
    _decisions(game_id, seq, names, by_value and bool(info.get("moves_confirmed")))
    tps = data.q("game_turning_points", game_id=game_id)
    alts = data.q("game_alternatives", game_id=game_id)
    if tps.is_empty():
        st.caption("No turning points: no turn moved its player's chance by 10 points or more." if by_value else
                   "No turning points: no turn moved its player's chance by more than the sampling error.")
        return
    st.markdown("**Turning points**")
    for i, r in enumerate(tps.iter_rows(named=True)):
        c1, c2 = st.columns([1, 6])
        c1.button(f"Event {r['seq']}", key=f"review_tp_{i}", on_click=goto, args=(int(r["seq"]),),
                  type="primary" if int(r["seq"]) == seq else "secondary")
        c2.markdown(("▼ " if r["delta"] < 0 else "▲ ") + str(r["verdict"]))
    mine = alts.filter(pl.col("seq") == seq)
    if mine.height:
        st.markdown(f"**The alternatives at event {seq}** (each move applied from the player's own view and "
                    "read by the value model)" if by_value else
                    f"**The alternatives at event {seq}** (each rolled out {int(mine['rollouts'][0])} times "
                    "with the same draws; the agent plays on after the move)")
        if by_value and not info.get("moves_confirmed"):
            st.caption(UNCONFIRMED)
        interval = [] if by_value else [  # a model's reading has no sampling interval
            pl.format("{}–{}", (pl.col("ci_low") * 100).round(0).cast(pl.Int64),
                      (pl.col("ci_high") * 100).round(0).cast(pl.Int64)).alias("95% interval (%)")]
        table = mine.select(
            pl.col("words").alias("move"),
            pl.col("chance").map_elements(lambda v: f"{v:.0%}", return_dtype=pl.String).alias("win chance"),
            *interval,
            pl.when(pl.col("played")).then(pl.lit("played")).otherwise(pl.lit("")).alias(""),
        )
        st.table(table.to_pandas().set_index("move"))
    elif not alts.is_empty():
        st.caption("Alternatives were rolled out at the worst falls: go to one with its button above.")


def _decisions(game_id: str, seq: int, names: dict[str, str], confirmed: bool) -> None:
    """Each analysed decision's win-chance loss: the one at this step said in words (with
    :data:`UNCONFIRMED` after its choice unless the title's readings of moves are ``confirmed``), all of
    them in a table."""
    dec = data.q("game_decisions", game_id=game_id)
    if dec.is_empty():
        return
    who = dec.get_column("player_id").replace_strict(names, default=dec.get_column("player_id"))
    at = dec.filter((pl.col("move_seq") <= seq) & (pl.col("next_seq") >= seq))
    if at.height:
        r = at.row(0, named=True)
        verb = "lost" if r["lost"] > 0 else "gained"
        st.markdown(f"**The decision at event {r['move_seq']}**: {names.get(r['player_id'], r['player_id'])} "
                    f"{verb} {abs(r['lost']):.2%} of win chance ({r['chance_before']:.2%} → {r['chance_after']:.2%}, "
                    f"the next estimate after event {r['next_seq']}).")
        if r["moves"] is not None:
            st.markdown(_choice_words(r))
            if r["moves"] > 1 and not confirmed:
                st.caption(UNCONFIRMED)
    with st.expander(f"Every decision's win-chance loss ({dec.height} analysed decisions)"):
        table = dec.with_columns(who.alias("player"),
                                 pl.format("/review?game={}&seq={}", "game_id", "move_seq").alias("open")).select(
            "move_seq", "player", "move_type", (pl.col("chance_before") * 100).alias("before"),
            (pl.col("chance_after") * 100).alias("after"), (pl.col("lost") * 100).alias("lost"), "moves",
            (pl.col("given_away") * 100).alias("given_away"), "best_words", "open")
        ui.dataframe(table, hide_index=True, width="stretch", column_config={
            "move_seq": st.column_config.NumberColumn("event"),
            "before": st.column_config.NumberColumn("chance before", format="%.2f%%"),
            "after": st.column_config.NumberColumn("at the next estimate", format="%.2f%%"),
            "lost": st.column_config.NumberColumn("lost (points)", format="%+.2f"),
            "moves": st.column_config.NumberColumn("moves to choose from"),
            "given_away": st.column_config.NumberColumn("given away (points)", format="%.2f"),
            "best_words": st.column_config.TextColumn("the best move"),
            "open": st.column_config.LinkColumn("", display_text="go to"),
        })
        st.caption("Lost: the mover's chance at the position before the move minus at the next analysed "
                   "position (chance events in between included: a loss is not always a mistake). Negative: "
                   "gained. Given away: the value model's chance after the best move the player had minus after "
                   "the move played (the choice alone). Averaged per player on the Players page.")


def _choice_words(r: dict[str, Any]) -> str:
    """The choice at a decision in words (a row of ``game_decisions`` with its choice judged)."""
    if r["moves"] < 2:
        return "It was the only move the player had."
    if r["given_away"] <= 0:
        return f"It was the best of the {r['moves']} moves the player had, by the value model."
    return (f"It gave away {r['given_away']:.2%} of win chance against the best of the {r['moves']} moves the "
            f"player had, by the value model: {r['best_words']}.")
