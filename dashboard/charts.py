"""Every chart of the dashboard, as plain functions from small DataFrames to Altair charts.

The functions do no I/O and no aggregation beyond reshaping a few hundred
rows, so tests can call them and inspect the chart specification.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import altair as alt
import polars as pl

from analytics.queries import title_label
from analytics.review import dense_timeline

COALITION_COLOURS = {"afghan": "#4c8c4a", "british": "#c0392b", "russian": "#d4a017", "none": "#999999"}
GROUP_COLOURS = alt.Scale(domain=["winners", "others"], range=["#d4a017", "#7f8c8d"])


def readable(df: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """Ids shown as words: ``end_pit_balance`` -> ``end pit balance`` in the given columns."""
    cols = [c for c in columns if c in df.columns and df.schema[c] == pl.String]
    return df.with_columns([pl.col(c).str.replace_all("_", " ") for c in cols]) if cols else df


def category_colour(df: pl.DataFrame, **legend: object) -> alt.Color:
    """The colour of score categories: 20 distinct colours when there are more than 10 categories
    (Praga has about 20), and a legend that wraps rather than clips."""
    n = df.get_column("category").n_unique() if "category" in df.columns and df.height else 0
    return alt.Color("category:N", title="category",
                     scale=alt.Scale(scheme="category20" if n > 10 else "tableau10"),
                     legend=alt.Legend(orient="bottom", columns=4, labelLimit=200, **legend))  # type: ignore[arg-type]


def _with_label(df: pl.DataFrame) -> pl.DataFrame:
    if "title" in df.columns:
        return df.with_columns(pl.col("title").map_elements(title_label, return_dtype=pl.String).alias("game"))
    return df


# --------------------------------------------------------------------------
# Overview
# --------------------------------------------------------------------------


def games_by_title_status(df: pl.DataFrame) -> alt.Chart:
    """Horizontal bars: games per title, stacked by status."""
    return (
        alt.Chart(_with_label(df), title="Games per title and status")
        .mark_bar()
        .encode(
            y=alt.Y("game:N", title=None, sort="-x"),
            x=alt.X("sum(games):Q", title="games"),
            color=alt.Color("status:N", scale=alt.Scale(
                domain=["complete", "incomplete", "diverged", "invalid"],
                range=["#2e86c1", "#aab7b8", "#e67e22", "#922b21"])),
            tooltip=["game:N", "status:N", "games:Q"],
        )
        .properties(height=alt.Step(36))
    )


def score_histograms(df: pl.DataFrame) -> alt.FacetChart:
    """Final-score histograms, one panel per title (own x scale), winners and others stacked."""
    base = alt.Chart(_with_label(df)).mark_bar(binSpacing=0).encode(
        x=alt.X("bin_start:Q", bin="binned", title="final score"),
        x2="bin_end:Q",
        y=alt.Y("players:Q", stack=True, title="players"),
        color=alt.Color("group:N", scale=GROUP_COLOURS, title="players who",
                        legend=alt.Legend(orient="top", labelExpr="datum.label == 'winners' ? 'won' : 'did not win'")),
        tooltip=[alt.Tooltip("bin_start:Q", format=".0f", title="from"),
                 alt.Tooltip("bin_end:Q", format=".0f", title="to"), "group:N", "players:Q"],
    ).properties(width=260, height=160)
    return base.facet(facet=alt.Facet("game:N", title=None), columns=3).resolve_scale(
        x="independent", y="independent"
    ).properties(title="Final scores")


def seat_win_rates(df: pl.DataFrame) -> alt.FacetChart:
    """Win rate by seat, per player count, one row per title; the games behind each bar in the tooltip.

    Every bar has a cap (a tick at its top), so a seat that never won shows as a line on the axis
    with "0%" above it rather than as nothing."""
    base = alt.Chart().encode(
        x=alt.X("seat:O", title="seat (1 = first player)", axis=alt.Axis(labelAngle=0)),
        color=alt.Color("player_count:O", title="players in the game", legend=alt.Legend(orient="top")),
        xOffset="player_count:O",
        tooltip=["game:N", "player_count:O", "seat:O", alt.Tooltip("win_rate:Q", format=".2%"),
                 "wins:Q", "games:Q", alt.Tooltip("agents:N", title="played by (games)")],
    )
    y = alt.Y("win_rate:Q", title="win rate", axis=alt.Axis(format="%"))
    bars = base.mark_bar().encode(y=y)
    caps = base.mark_tick(thickness=3, orient="horizontal").encode(y=y)
    zero = base.transform_filter("datum.win_rate == 0").mark_text(dy=-7, fontSize=10).encode(
        y=y, text=alt.value("0%"))
    return alt.layer(bars, caps, zero, data=_with_label(df)).properties(width=260, height=160).facet(
        facet=alt.Facet("game:N", title=None, header=alt.Header(labelLimit=0)), columns=3).properties(
        title="Win rate by seat and player count (finished games)"
    )


# --------------------------------------------------------------------------
# Game review
# --------------------------------------------------------------------------


STEP_DATA = "current_step"


def final_width(x_max: int) -> int:
    """How many events' width the final score gets after the last event on the game review's x axis
    (a twelfth of the game, at least 3): end-of-game scoring happens at the last event, and would
    otherwise be a one-event sliver at the right edge."""
    return max(3, round(x_max / 12))


def _x_end(x_max: int) -> int:
    return max(x_max, 1) + final_width(x_max)


def score_timeline(
    df: pl.DataFrame,
    current_seq: int | None = None,
    divergence_seqs: Sequence[int] = (),
    names: dict[str, str] | None = None,
    departure_seqs: Sequence[int] = (),
) -> alt.VConcatChart | alt.Chart:
    """Each player's score by category over the events (stacked, stepwise; one panel per player),
    a black rule at the current step, a red dashed rule at every divergence and an orange dotted
    rule at every event where BGA's departure from the rulebook changed what happened.  After the
    last event the final score has a step of its own (:func:`final_width`), shaded and labelled.

    The current step lives in its own small dataset named ``current_step``: the page converts the
    chart once per game and swaps that dataset with :func:`with_step`, so a step neither rebuilds
    the chart nor changes its specification (the browser updates the rule in place).
    """
    names = names or {}
    dense = readable(dense_timeline(df), "category")
    if dense.is_empty():
        return alt.Chart(pl.DataFrame({"text": ["no score changes in this game"]})).mark_text().encode(
            text="text:N")
    scoring = dense.get_column("player_id").unique(maintain_order=True).to_list()
    # every player of the roster gets a panel, in seat order, even one who never scored
    players = [p for p in names if p] + [p for p in scoring if p not in names]
    labels = {p: f"{names[p]} ({p})" if names.get(p) and names[p] != p else p for p in players}
    marks = [{"player_id": p, "seq": s, "layer": "divergence"} for p in players for s in sorted(set(divergence_seqs))]
    marks += [{"player_id": p, "seq": s, "layer": "departure"} for p in players for s in sorted(set(departure_seqs))]
    data = pl.concat([
        dense.with_columns(pl.lit("score").alias("layer")),
        pl.DataFrame(marks, schema={"player_id": pl.String, "seq": pl.Int64, "layer": pl.String}),
    ], how="diagonal_relaxed")
    x_max = int(dense.get_column("seq").max() or 0)  # type: ignore[arg-type]
    x_end = _x_end(x_max)
    final = dense.filter(pl.col("seq") == x_max).with_columns(pl.lit(x_end, dtype=pl.Int64).alias("seq"))
    data = pl.concat([data, final.with_columns(pl.lit("score").alias("layer"))], how="diagonal_relaxed")
    colour = category_colour(dense)
    x = alt.X("seq:Q", title="event", scale=alt.Scale(domain=[0, x_end], nice=False))
    base = alt.Chart(data)
    shade = alt.Chart(pl.DataFrame({"from": [max(x_max - 1, 0)], "to": [x_end], "text": ["final score"]}))
    final_band = shade.mark_rect(color="#eeeeee").encode(
        x=alt.X("from:Q", title="event", scale=alt.Scale(domain=[0, x_end], nice=False)), x2="to:Q",
        tooltip=[alt.Tooltip("text:N", title="after the last event")])
    final_text = shade.mark_text(align="right", baseline="top", dx=-2, dy=2, color="#555", fontSize=10).encode(
        x=alt.X("to:Q", title="event"), y=alt.value(0), text="text:N")
    step_rows = [] if current_seq is None else [{"seq": int(current_seq)}]
    step = alt.Chart(alt.NamedData(STEP_DATA)).mark_rule(color="black", size=2).encode(
        x=alt.X("seq:Q"), tooltip=[alt.Tooltip("seq:Q", title="this step")])
    panels = []
    for p in players:
        if p not in scoring:
            note = alt.Chart(pl.DataFrame({"text": ["no points in any category at any event of this game"]}))
            panels.append(note.mark_text(align="left", x=5, color="#555").encode(text="text:N").properties(
                title=labels[p], height=30, width=700))
            continue
        mine = f"datum.player_id == {_js_string(p)}"
        area = base.transform_filter(f"{mine} && datum.layer == 'score'").mark_area(
            interpolate="step-after", opacity=0.85).encode(
            x=x, y=alt.Y("points:Q", stack=True, title="points"), color=colour,
            tooltip=["seq:Q", "category:N", "points:Q"])
        div = base.transform_filter(f"{mine} && datum.layer == 'divergence'").mark_rule(
            color="#c0392b", strokeDash=[4, 3], size=2).encode(
            x=x, tooltip=[alt.Tooltip("seq:Q", title="divergence at")])
        dep = base.transform_filter(f"{mine} && datum.layer == 'departure'").mark_rule(
            color="#e67e22", strokeDash=[1, 2], size=2).encode(
            x=x, tooltip=[alt.Tooltip("seq:Q", title="BGA departs from the rulebook at")])
        panels.append(alt.layer(final_band, area, div, dep, step, final_text).properties(
            title=labels[p], height=110, width=700))
    # one y scale for every panel, so players compare at a glance
    chart = alt.vconcat(*panels).resolve_scale(color="shared", y="shared").configure_legend(
        orient="bottom", columns=4)
    chart.datasets = {STEP_DATA: step_rows}  # type: ignore[attr-defined]
    return chart


def win_chances(
    df: pl.DataFrame,
    turning: pl.DataFrame,
    x_max: int,
    current_seq: int | None = None,
    names: dict[str, str] | None = None,
) -> alt.LayerChart:
    """Each player's estimated win chance over the events (a step line from each analysed position, its
    95% interval as a band), the turning points marked (▼ a fall, ▲ a rise, at the move), and the same
    current-step rule as :func:`score_timeline` (swap it with :func:`with_step`), on the same axis
    (its final step included).  The plot is 220 px tall whatever the legend takes (``autosize``
    fits the width only) and nothing is drawn outside 0–100%."""
    names = names or {}
    label = {p: f"{names[p]} ({p})" if names.get(p) and names[p] != p else p
             for p in df.get_column("player_id").unique(maintain_order=True).to_list()}
    # a position before any event (seq -1) is drawn at 0; every line closes at the end of the axis
    data = df.with_columns(pl.col("seq").clip(lower_bound=0))
    x_end = _x_end(x_max)
    closing = data.sort("seq").group_by("player_id", maintain_order=True).last().with_columns(
        pl.lit(x_end, dtype=pl.Int64).alias("seq"))
    data = pl.concat([data, closing.select(data.columns)]).with_columns(
        pl.col("player_id").replace_strict(label, default=pl.col("player_id")).alias("player"))
    x = alt.X("seq:Q", title="event", scale=alt.Scale(domain=[0, x_end], nice=False))
    y_scale = alt.Scale(domain=[0, 1], clamp=True)
    colour = alt.Color("player:N", title="player", sort=list(label.values()),
                       scale=alt.Scale(scheme="category10"), legend=alt.Legend(symbolOpacity=1))
    base = alt.Chart(data)
    band = base.mark_area(interpolate="step-after", opacity=0.15, clip=True).encode(
        x=x, y=alt.Y("ci_low:Q", scale=y_scale), y2="ci_high:Q", color=colour)
    line = base.mark_line(interpolate="step-after", strokeWidth=2, clip=True).encode(
        x=x, y=alt.Y("chance:Q", title="win chance", axis=alt.Axis(format="%"), scale=y_scale),
        color=colour,
        tooltip=["player:N", alt.Tooltip("seq:Q", title="after event"), alt.Tooltip("chance:Q", format=".0%"),
                 alt.Tooltip("ci_low:Q", format=".0%", title="95% from"),
                 alt.Tooltip("ci_high:Q", format=".0%", title="95% to")])
    marks = turning.with_columns(
        pl.col("player_id").replace_strict(label, default=pl.col("player_id")).alias("player"),
        pl.when(pl.col("direction") == "fall").then(pl.lit("triangle-down")).otherwise(pl.lit("triangle-up"))
        .alias("shape"))
    points = alt.Chart(marks).mark_point(size=140, filled=True, stroke="black", strokeWidth=1, clip=True).encode(
        x=alt.X("seq:Q"), y=alt.Y("chance_after:Q", scale=y_scale), color=colour,
        shape=alt.Shape("shape:N", scale=None), tooltip=[alt.Tooltip("seq:Q", title="turning point at event"),
                                                         "verdict:N"])
    step_rows = [] if current_seq is None else [{"seq": int(current_seq)}]
    step = alt.Chart(alt.NamedData(STEP_DATA)).mark_rule(color="black", size=2).encode(
        x=alt.X("seq:Q"), tooltip=[alt.Tooltip("seq:Q", title="this step")])
    chart = alt.layer(band, line, points, step).properties(
        height=220, width=700, autosize=alt.AutoSizeParams(type="fit-x", contains="padding")).configure_legend(
        orient="bottom")
    chart.datasets = {STEP_DATA: step_rows}  # type: ignore[attr-defined]
    return chart


def _js_string(text: str) -> str:
    """A Vega expression string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def with_step(spec: dict[str, Any], seq: int) -> dict[str, Any]:
    """A copy of a converted :func:`score_timeline` spec with its current-step rule at ``seq``
    (only the ``current_step`` dataset differs)."""
    out = dict(spec)
    out["datasets"] = {**spec.get("datasets", {}), STEP_DATA: [{"seq": int(seq)}]}
    return out


# --------------------------------------------------------------------------
# Score breakdowns
# --------------------------------------------------------------------------


def breakdown_by_rank(df: pl.DataFrame) -> alt.Chart:
    """Average final points per category for each final rank, stacked."""
    df = readable(df, "category")
    return alt.Chart(df, title="Average final score by rank, by category").mark_bar().encode(
        x=alt.X("rank:O", title="final rank (1 = winner)"),
        y=alt.Y("avg_points:Q", stack=True, title="average points"),
        color=category_colour(df),
        tooltip=["rank:O", "category:N", alt.Tooltip("avg_points:Q", format=".2f"), "games:Q"],
    )


def winners_vs_rest(df: pl.DataFrame, value: str = "avg_points", title: str = "Winners against the rest") -> alt.Chart:
    """Per category, winners' and the other players' averages side by side."""
    df = readable(df, "category")
    return alt.Chart(df, title=title).mark_bar().encode(
        x=alt.X("category:N", title=None),
        y=alt.Y(f"{value}:Q", title="average points"),
        color=alt.Color("group:N", scale=GROUP_COLOURS, title=None),
        xOffset="group:N",
        tooltip=["category:N", "group:N", alt.Tooltip(f"{value}:Q", format=".2f"), "games:Q"],
    )


def game_breakdown(df: pl.DataFrame) -> alt.Chart:
    """One game's final score, one bar per player stacked by category."""
    df = readable(df, "category")
    return alt.Chart(df, title="Final score by category").mark_bar().encode(
        y=alt.Y("player:N", title=None, sort=alt.EncodingSortField("rank", order="ascending"),
                axis=alt.Axis(labelLimit=260)),
        x=alt.X("points:Q", stack=True, title="points"),
        color=category_colour(df),
        tooltip=["player:N", "category:N", "points:Q", "rank:Q"],
    )


# --------------------------------------------------------------------------
# Pax Pamir
# --------------------------------------------------------------------------


def dominance_success(df: pl.DataFrame) -> alt.LayerChart:
    """Share of dominance checks that succeed, by check number, every final check in one bar."""
    order = df["check"].to_list()
    bars = alt.Chart(df, title="How often dominance checks succeed").mark_bar().encode(
        x=alt.X("check:N", sort=order, title=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("success_rate:Q", title="successful", stack=None, axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        tooltip=["check:N", "checks:Q", "successful:Q", alt.Tooltip("success_rate:Q", format=".2%")],
    )
    text = bars.mark_text(dy=-6).encode(text=alt.Text("checks:Q", format=",d"))
    return cast(alt.LayerChart, alt.layer(bars, text))


def dominance_coalitions(df: pl.DataFrame) -> alt.Chart:
    """Successful checks by the coalition that was dominant."""
    return alt.Chart(df, title="Successful checks: the dominant coalition").mark_bar().encode(
        x=alt.X("check_no:O", title="check number"),
        y=alt.Y("checks:Q", stack=True),
        color=alt.Color("dominant_coalition:N", title="coalition", scale=alt.Scale(
            domain=list(COALITION_COLOURS), range=list(COALITION_COLOURS.values()))),
        tooltip=["check_no:O", "dominant_coalition:N", "checks:Q"],
    )


def dominance_blocks(df: pl.DataFrame) -> alt.Chart:
    """One game's checks: the blocks each coalition had on the map, per check."""
    per_check = df.unique(subset=["seq"], keep="first", maintain_order=True).select(
        "seq", "check_no", "blocks_afghan", "blocks_british", "blocks_russian", "successful")
    long = per_check.unpivot(index=["seq", "check_no", "successful"],
                             on=["blocks_afghan", "blocks_british", "blocks_russian"],
                             variable_name="coalition", value_name="blocks").with_columns(
        pl.col("coalition").str.replace("blocks_", ""))
    return alt.Chart(long, title="Coalition blocks at each check").mark_bar().encode(
        x=alt.X("check_no:O", title="check"),
        xOffset="coalition:N",
        y=alt.Y("blocks:Q"),
        color=alt.Color("coalition:N", scale=alt.Scale(domain=["afghan", "british", "russian"],
                                                       range=[COALITION_COLOURS[c] for c in
                                                              ("afghan", "british", "russian")])),
        tooltip=["check_no:O", "coalition:N", "blocks:Q", "successful:N"],
    )


# --------------------------------------------------------------------------
# Coal Baron
# --------------------------------------------------------------------------


def shift_points(df: pl.DataFrame) -> alt.Chart:
    """What it took to rank 1st and 2nd: the average count of the player so ranked, per shift and category.

    (The points of a rank are fixed by the scoring table; the counts behind them are what the games tell.)
    """
    df = readable(df, "category")
    return alt.Chart(df, title="Shift scoring: what it took to rank 1st and 2nd (average count)").mark_bar(
    ).encode(
        x=alt.X("category:N", title=None),
        xOffset="rank:O",
        y=alt.Y("avg_value:Q", title="average count (coal cubes or delivered orders)"),
        color=alt.Color("rank:O", title="rank", legend=alt.Legend(orient="top")),
        column=alt.Column("shift:O", title="shift"),
        tooltip=["shift:O", "category:N", "rank:O", alt.Tooltip("avg_value:Q", format=".2f"),
                 alt.Tooltip("avg_points:Q", format=".2f"), "rows:Q"],
    ).properties(width=200)


def shift_deciders(df: pl.DataFrame) -> alt.Chart:
    """Per category: how many more shift points winners take than the others."""
    df = readable(df, "category")
    return alt.Chart(df, title="Which categories decide games (winners' minus others' shift points)").mark_bar(
    ).encode(
        y=alt.Y("category:N", sort="-x", title=None, axis=alt.Axis(labelLimit=260)),
        x=alt.X("gap:Q", title="points per game, winners minus others"),
        color=alt.condition("datum.gap > 0", alt.value("#d4a017"), alt.value("#7f8c8d")),
        tooltip=["category:N", alt.Tooltip("winner_points:Q", format=".2f"),
                 alt.Tooltip("other_points:Q", format=".2f"),
                 alt.Tooltip("winner_first_rate:Q", format=".1%", title="winner ranked 1st"), "games:Q"],
    )


def game_shift_heatmap(df: pl.DataFrame, names: dict[str, str] | None = None) -> alt.FacetChart:
    """One game's shift rankings: per shift, category x player, coloured by points, labelled value/rank."""
    names = names or {}
    data = readable(df, "category").with_columns(
        pl.col("player_id").replace_strict(names, default=pl.col("player_id")).alias("player"),
        pl.when(pl.col("rank").is_null()).then(pl.lit("—")).otherwise(
            pl.format("{} (#{}) → {}", pl.col("value"), pl.col("rank"), pl.col("points"))).alias("label"),
    )
    base = alt.Chart(data).encode(
        x=alt.X("player:N", title=None, sort=list(dict.fromkeys(data.get_column("player").to_list())),
                axis=alt.Axis(labelAngle=0, labelLimit=0, orient="top")),
        y=alt.Y("category:N", title=None, axis=alt.Axis(labelLimit=0)))
    cells = base.mark_rect().encode(
        color=alt.Color("points:Q", scale=alt.Scale(scheme="goldorange")),
        tooltip=["shift:O", "category:N", "player:N", "value:Q", "rank:Q", "points:Q"])
    text = base.mark_text(fontSize=11).encode(text="label:N")
    # a cell as wide as its longest name or label (about 7 px a character at 11 px), so nothing is cut
    longest = max([len(str(v)) for v in data.get_column("player").to_list() + data.get_column("label").to_list()]
                  or [8])
    return alt.layer(cells, text).properties(width=alt.Step(max(90, 7 * longest + 12))).facet(
        column=alt.Column("shift:O", title="shift")).properties(title="Shift rankings: value (#rank) → points")


# --------------------------------------------------------------------------
# Strategy, divergences
# --------------------------------------------------------------------------


def category_edge(df: pl.DataFrame, title: str = "What separates winners: points per category") -> alt.Chart:
    """Per category, the winners' average minus the others' (the games behind it in the tooltip)."""
    df = readable(df, "category")
    return alt.Chart(df, title=title).mark_bar().encode(
        y=alt.Y("category:N", sort="-x", title=None, axis=alt.Axis(labelLimit=260)),
        x=alt.X("edge:Q", title="winners' average minus others' average"),
        color=alt.condition("datum.edge > 0", alt.value("#d4a017"), alt.value("#7f8c8d")),
        tooltip=["category:N", alt.Tooltip("winners:Q", format=".2f"), alt.Tooltip("others:Q", format=".2f"),
                 alt.Tooltip("edge:Q", format="+.2f"), "games:Q"],
    )


def loyalty_shares(df: pl.DataFrame) -> alt.Chart:
    """Pax Pamir: loyalty at the last check, winners against the rest."""
    return alt.Chart(df, title="Loyalty at the last dominance check").mark_bar().encode(
        x=alt.X("group:N", title=None),
        y=alt.Y("share:Q", stack="normalize", axis=alt.Axis(format="%"), title="share of players"),
        color=alt.Color("loyalty:N", scale=alt.Scale(domain=list(COALITION_COLOURS),
                                                     range=list(COALITION_COLOURS.values()))),
        tooltip=["group:N", "loyalty:N", "players:Q", alt.Tooltip("share:Q", format=".1%"),
                 alt.Tooltip("avg_influence:Q", format=".2f"), "games:Q"],
    )


def copenhagen_lines(df: pl.DataFrame) -> alt.Chart:
    """Copenhagen: rows against columns completed per player, winners against the rest."""
    return alt.Chart(df, title="Completed rows and columns per player").mark_bar().encode(
        x=alt.X("line:N", title=None),
        xOffset="group:N",
        y=alt.Y("per_player:Q", title="completed per player"),
        color=alt.Color("group:N", scale=GROUP_COLOURS, title=None),
        tooltip=["line:N", "group:N", alt.Tooltip("per_player:Q", format=".2f"),
                 alt.Tooltip("points_per_player:Q", format=".2f"),
                 alt.Tooltip("all_windows_share:Q", format=".1%", title="with all windows"), "games:Q"],
    )


def divergence_kinds(df: pl.DataFrame) -> alt.Chart:
    """Divergences by kind and title."""
    return alt.Chart(_with_label(df), title="Divergences by kind").mark_bar().encode(
        y=alt.Y("kind:N", sort="-x", title=None, axis=alt.Axis(labelLimit=260)),
        x=alt.X("sum(divergences):Q", title="divergences", axis=alt.Axis(tickMinStep=1, format="d")),
        color=alt.Color("game:N", title="title"),
        tooltip=["game:N", "kind:N", "divergences:Q", "games:Q"],
    )


def departure_rules(df: pl.DataFrame) -> alt.Chart:
    """One title's departures from the rulebook: in how many of its BGA games each applied."""
    data = df.with_columns((pl.col("games") / pl.max_horizontal(pl.col("bga_games"), pl.lit(1))).alias("share"))
    return alt.Chart(data, title="Games in which each departure changed what happened").mark_bar(
        color="#e67e22").encode(
        y=alt.Y("rule:N", sort="-x", title=None, axis=alt.Axis(labelLimit=260)),
        x=alt.X("games:Q", title="games", axis=alt.Axis(tickMinStep=1, format="d")),
        tooltip=["rule:N", alt.Tooltip("section:N", title="rulebook section"), "games:Q",
                 alt.Tooltip("share:Q", format=".0%", title="of the BGA games"), "times:Q"],
    )


# --------------------------------------------------------------------------
# Players and components
# --------------------------------------------------------------------------


def rating_history(df: pl.DataFrame, title: str = "Rating after each game") -> alt.LayerChart:
    """One player's OpenSkill rating (``mu``) after each of their rated games, with a band of ± one
    ``sigma`` and the conservative ``mu - 3 sigma`` dashed; x is the player's game number."""
    d = df.with_columns(
        (pl.col("mu") - pl.col("sigma")).alias("low"), (pl.col("mu") + pl.col("sigma")).alias("high"),
        (pl.col("mu") - 3 * pl.col("sigma")).alias("conservative"),
        pl.col("title").map_elements(title_label, return_dtype=pl.String).alias("game title"),
    )
    x = alt.X("rated:Q", title="the player's game number", axis=alt.Axis(tickMinStep=1))
    base = alt.Chart(d, title=title)
    band = base.mark_area(opacity=0.25, color="#2e86c1").encode(x=x, y=alt.Y("low:Q", title="rating"), y2="high:Q")
    line = base.mark_line(color="#2e86c1", point=True).encode(
        x=x, y="mu:Q",
        tooltip=[alt.Tooltip("rated:Q", title="game number"), alt.Tooltip("game_id:N", title="game"),
                 alt.Tooltip("game title:N"), alt.Tooltip("played_at:N", title="played"),
                 alt.Tooltip("rank:Q", title="final rank"), alt.Tooltip("mu:Q", title="rating", format=".2f"),
                 alt.Tooltip("sigma:Q", title="uncertainty (sigma)", format=".2f")])
    cons = base.mark_line(color="#7f8c8d", strokeDash=[4, 3]).encode(x=x, y="conservative:Q")
    return cast(alt.LayerChart, alt.layer(band, line, cons))


def choices_by_game(df: pl.DataFrame, title: str = "Win chance given away per choice, game by game") -> alt.Chart:
    """One player's :func:`analytics.players.choices_by_game`: the mean chance their choices gave away in
    each analysed game, in the order played (lower is better)."""
    d = df.with_columns(pl.col("title").map_elements(title_label, return_dtype=pl.String).alias("game title"))
    return alt.Chart(d, title=title).mark_line(color="#c0392b", point=True).encode(
        x=alt.X("game_no:Q", title="the player's analysed game number", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("avg_given_away:Q", title="given away per choice", axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("game_id:N", title="game"), alt.Tooltip("game title:N"),
                 alt.Tooltip("played_at:N", title="played"), alt.Tooltip("rank:Q", title="final rank"),
                 alt.Tooltip("choices:Q", title="choices"),
                 alt.Tooltip("avg_given_away:Q", title="given away per choice", format=".2%"),
                 alt.Tooltip("best_share:Q", title="best move chosen", format=".0%")])


def components(df: pl.DataFrame, baseline: float | None,
               title: str = "Win rate against how often taken") -> alt.LayerChart:
    """Each component taken at least once: how often (share of player-games) against its takers' win rate,
    with its 95% interval as a vertical rule; the baseline win rate as a horizontal rule."""
    d = df.filter(pl.col("players") > 0).select(
        "kind", "label", "players", "wins",
        (pl.col("pick_rate") * 100).alias("taken"), (pl.col("win_rate") * 100).alias("win rate"),
        (pl.col("win_rate_low") * 100).alias("low"), (pl.col("win_rate_high") * 100).alias("high"))
    x = alt.X("taken:Q", title="taken in % of player-games")
    base = alt.Chart(d, title=title)
    tip = [alt.Tooltip("label:N", title="component"), alt.Tooltip("kind:N"),
           alt.Tooltip("players:Q", title="player-games that took it"), alt.Tooltip("wins:Q", title="of them won"),
           alt.Tooltip("win rate:Q", format=".2f"), alt.Tooltip("low:Q", title="95% interval from", format=".2f"),
           alt.Tooltip("high:Q", title="95% interval to", format=".2f"), alt.Tooltip("taken:Q", format=".2f")]
    rules = base.mark_rule(opacity=0.35).encode(x=x, y=alt.Y("low:Q", title="win rate (%)"), y2="high:Q",
                                                color=alt.Color("kind:N"))
    points = base.mark_circle(size=60).encode(x=x, y="win rate:Q", color=alt.Color("kind:N"), tooltip=tip)
    layers: list[Any] = [rules, points]
    if baseline is not None:
        layers.append(alt.Chart(pl.DataFrame({"baseline": [baseline * 100]})).mark_rule(
            color="black", strokeDash=[6, 4]).encode(y="baseline:Q", tooltip=[alt.Tooltip("baseline:Q", format=".2f")]))
    return cast(alt.LayerChart, alt.layer(*layers))
