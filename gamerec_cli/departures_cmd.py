"""``gamerec departures``: every step where a game followed a BGA departure from the rulebook."""

from __future__ import annotations

import sys
from typing import Any

import click

from gamerec_cli.options import VIEWER_OPTION
from replay.departures import departure_rows, markdown_table
from replay.games import GAME_IDS, get_game
from replay.replayer import INVALID


@click.command("departures")
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"departures": [row...], "summary": [rule...], "records": {status: n}}.')
@click.option("--rules", "list_rules", is_flag=True,
              help="List the departures each title declares (no PATH needed); with --json, as JSON.")
@click.option("--game", "game_id", type=click.Choice(GAME_IDS), default=None, help="With --rules: one title.")
@VIEWER_OPTION
def departures(paths: tuple[str, ...], as_json: bool, list_rules: bool, game_id: str | None,
               viewer: str | None) -> None:
    """List every place where records (or saved BGA logs) played by Board Game Arena's rules where
    they depart from the rulebook, and how often each rule applied.

    A game is replayed under its own ruleset: an imported BGA log under ``bga``; a record under the
    official rules departs nowhere. A record that diverges is listed up to its divergence and
    counted as such. Exit 1 if any input could not be read.
    """
    from gamerec_cli.main import _dumps, _fail, _replays

    if list_rules:
        _print_rules(game_id, as_json)
        return
    rows: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    summary: dict[tuple[str, str], dict[str, Any]] = {}
    for r in _replays(paths, keep_frames=False, viewer=viewer):
        counts[r.status] = counts.get(r.status, 0) + 1
        if r.record is None:
            if not as_json:
                click.echo(f"invalid: {r.error}")
            continue
        rules = get_game(r.record.game).departure_rules
        mine = departure_rows(r.record.id, rules, r.departures)
        for row in mine:
            row["game"] = r.record.game
            s = summary.setdefault((r.record.game, row["rule"]), {
                "game": r.record.game, "rule": row["rule"], "section": row["section"],
                "rulebook": row["rulebook"], "bga": row["bga"], "games": 0, "times": 0})
            s["times"] += 1
        for rule in {row["rule"] for row in mine}:
            summary[(r.record.game, rule)]["games"] += 1
        rows.extend(mine)
        if not as_json:
            for row in mine:
                click.echo(f"{row['id']}: event {row['seq']}: {row['rule']} (rules {row['section']}): "
                           f"{row['happened']}")
    total = sum(counts.values())
    if total == 0:
        _fail("no records found in " + ", ".join(paths or ("-",)))
    ordered = [summary[k] for k in sorted(summary)]
    if as_json:
        click.echo(_dumps({"departures": rows, "summary": ordered, "records": dict(sorted(counts.items()))}))
    else:
        status = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        click.echo(f"{total} records ({status}): {len(rows)} departures from the rulebook")
        for s in ordered:
            times = f"{s['times']} time{'s' if s['times'] != 1 else ''}"
            games = f"{s['games']} game{'s' if s['games'] != 1 else ''}"
            click.echo(f"  {s['game']} {s['rule']} (rules {s['section']}): {times} in {games}")
    sys.exit(1 if counts.get(INVALID) else 0)


def _print_rules(game_id: str | None, as_json: bool) -> None:
    from gamerec_cli.main import _dumps

    for gid in [game_id] if game_id else GAME_IDS:
        rules = get_game(gid).departure_rules
        if as_json:
            for d in rules.values():
                click.echo(_dumps({"game": gid, **d.to_dict()}))
        elif rules:
            click.echo(markdown_table(gid, rules) + "\n")


COMMANDS = [departures]
