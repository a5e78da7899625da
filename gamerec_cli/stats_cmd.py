"""``gamerec stats --player`` and ``gamerec stats --components``: printing what analytics computes."""

from __future__ import annotations

import sys
from typing import Any

import click
import duckdb
import polars as pl
from rich.text import Text

from gamerec_cli.ingest_cmds import _console, _fail, _frame_table, _json

RECENT_GAMES = 20


def _rows(df: pl.DataFrame) -> list[dict[str, Any]]:
    return df.to_dicts()


def _rating_obj(r: dict[str, Any] | None) -> dict[str, Any]:
    """A rating as JSON; a player without a finished game has OpenSkill's prior (and ``games`` 0)."""
    from analytics.players import MU, SIGMA

    if r is None:
        return {"mu": MU, "sigma": SIGMA, "conservative": MU - 3 * SIGMA, "games": 0, "place": None, "of": None}
    return {k: r[k] for k in ("mu", "sigma", "conservative", "games", "place", "of")}


def player_report(con: duckdb.DuckDBPyConnection, who: str, title: str | None, as_json: bool) -> None:
    from analytics import players

    try:
        me = players.resolve(con, who)
    except players.UnknownPlayer as exc:
        _fail(str(exc))
    pid = me["player_id"]
    prof = players.profile(con, pid, title)
    overall = prof["record"]["overall"].row(0, named=True)
    rating = _rating_obj(prof["rating"])
    dq = prof["decisions"]
    worst, worst_choices = (df.with_columns(pl.format("/review?game={}&seq={}", "game_id", "move_seq").alias("link"))
                            if df.height else df for df in (dq["worst"], dq["worst_choices"]))
    if as_json:
        obj = {
            "player_id": pid, "name": me["name"], "game": title,
            "played": overall["played"], "games": overall["games"], "wins": overall["wins"],
            "win_rate": overall["win_rate"], "avg_score": overall["avg_score"],
            "rating": rating["mu"], "rating_sigma": rating["sigma"], "rating_conservative": rating["conservative"],
            "rating_games": rating["games"], "rating_place": rating["place"], "rating_of": rating["of"],
            "rating_ladder": title or "all titles",
            "ratings_by_title": {t: _rating_obj(r) for t, r in prof["ratings_by_title"].items()},
            "rating_history": _rows(prof["rating_history"]),
            "by_title": _rows(prof["record"]["by_title"]),
            "by_player_count": _rows(prof["record"]["by_player_count"]),
            "by_seat": _rows(prof["record"]["by_seat"]),
            "categories": _rows(prof["categories"]),
            "opponents": _rows(prof["opponents"]),
            "decision_quality": {"decisions": dq["decisions"], "games": dq["games"], "avg_lost": dq["avg_lost"],
                                 "avg_change": dq["avg_change"], "worst": _rows(worst),
                                 "choices": dq["choices"], "avg_given_away": dq["avg_given_away"],
                                 "best_share": dq["best_share"], "worst_choices": _rows(worst_choices),
                                 "choices_by_game": _rows(prof["choices_by_game"])},
            "recent_games": _rows(prof["games"].head(RECENT_GAMES)),
        }
        click.echo(_json(obj))
        return
    out = _console()
    where = f" in {title}" if title else ""
    out.print(Text(f"{me['name']} ({pid}){where}", style="bold"))
    rate = f"{overall['win_rate']:.2%}" if overall["win_rate"] is not None else "-"
    out.print(f"{overall['played']:,} games played, {overall['games']:,} finished, {overall['wins']:,} won ({rate})")
    ladder = title or "all titles"
    if prof["rating"] is None:
        out.print(f"rating ({ladder}): none yet (no finished game); OpenSkill's prior is "
                  f"{rating['mu']:.2f} ± {rating['sigma']:.2f}")
    else:
        out.print(f"rating ({ladder}, OpenSkill Plackett-Luce): {rating['mu']:.2f} ± {rating['sigma']:.2f} "
                  f"(conservative {rating['conservative']:.2f}; place {rating['place']:,} of {rating['of']:,}; "
                  f"{rating['games']:,} games)")
    rt = pl.DataFrame([{"title": t, **_rating_obj(r)} for t, r in prof["ratings_by_title"].items()]) \
        if prof["ratings_by_title"] else pl.DataFrame()
    for name, df in (("rating by title (each title its own ladder)", rt),
                     ("by title (finished games)", prof["record"]["by_title"]),
                     ("by title and player count", prof["record"]["by_player_count"]),
                     ("by seat (1 = first player)", prof["record"]["by_seat"]),
                     ("points by category: the player against their opponents in the same games",
                      prof["categories"]),
                     ("frequent opponents (ahead / behind / level: final rank against theirs)", prof["opponents"])):
        if df.height:
            out.print(_frame_table(name, df))
    if dq["decisions"]:
        shown = [(f"decision quality: {dq['decisions']:,} analysed decisions in {dq['games']:,} games; "
                  f"{dq['avg_lost']:.2%} win chance lost per decision on average "
                  f"(average change {dq['avg_change']:+.2%})",
                  "worst decisions (chance lost; open the link in the dashboard)", worst,
                  ("game_id", "move_seq", "move_type", "chance_before", "chance_after", "lost", "link"))]
        if dq["choices"]:
            shown.append((f"choices: {dq['choices']:,} judged against the other moves the player had; "
                          f"{dq['avg_given_away']:.2%} win chance given away per choice on average, "
                          f"the best move {dq['best_share']:.0%} of the time",
                          "worst choices (chance given away against the best move)", worst_choices,
                          ("game_id", "move_seq", "moves", "played_words", "given_away", "best_words", "link")))
        for line, name, df, columns in shown:
            out.print(line)
            out.print(_frame_table(name, df.select(*columns)))
    else:
        out.print("decision quality: no analysed game (run `gamerec analyse` on some of this player's games)")
    recent = prof["games"].head(RECENT_GAMES)
    out.print(_frame_table(f"latest games ({recent.height} of {prof['games'].height})",
                           recent.select("game_id", "title", "played_at", "player_count", "seat", "final_score",
                                         "rank", "winners")))


def components_report(con: duckdb.DuckDBPyConnection, title: str, player_count: int | None, source: str | None,
                      ruleset: str | None, as_json: bool) -> None:
    from analytics import components

    res = components.components(con, title, player_count=player_count, source=source, ruleset=ruleset)
    if as_json:
        click.echo(_json({"game": title, "filters": {"players": player_count, "source": source, "ruleset": ruleset},
                          "games": res.games, "player_games": res.player_games,
                          "baseline_win_rate": res.baseline, "uncounted_kinds": list(res.uncounted),
                          "rows": _rows(res.rows)}))
        return
    out = _console()
    filters = ", ".join(f"{k} {v}" for k, v in (("players", player_count), ("source", source),
                                                   ("ruleset", ruleset)) if v is not None)
    out.print(Text(f"{title} components" + (f" ({filters})" if filters else ""), style="bold"))
    base = f"{res.baseline:.2%}" if res.baseline is not None else "-"
    out.print(f"{res.games:,} finished games, {res.player_games:,} player-games; baseline win rate {base}")
    if res.rows.is_empty():
        out.print("no components taken in these games")
        sys.exit(0)
    def pct(v: float | None) -> str:
        return "" if v is None else f"{v:.2%}"

    shown = pl.DataFrame([{
        "kind": r["kind"], "component": r["label"], "players": r["players"], "pick rate": pct(r["pick_rate"]),
        "win rate": pct(r["win_rate"]),
        "95% interval": "" if r["win_rate_low"] is None else f"{pct(r['win_rate_low'])}–{pct(r['win_rate_high'])}",
        "vs baseline": "" if r["lift"] is None else f"{r['lift'] * 100:+.2f} pts",
        "median round": "" if r["median_round"] is None else f"{r['median_round']:g}",
        "first taken at": pct(r["median_progress"]) + (" of the game" if r["median_progress"] is not None else ""),
    } for r in res.rows.iter_rows(named=True)])
    out.print(_frame_table("every component (players: player-games that took it at least once)", shown))
    if res.uncounted:
        out.print(f"not counted: {', '.join(res.uncounted)} (this database predates the components_taken table; "
                  "the next `gamerec ingest` into it fills it in once)")
