"""Components: every card, tile or action kind of a title, how often taken and how its takers fared.

For each component, over the finished distinct games of a title (the filters: player count,
source, ruleset; a BGA table downloaded by two players counts once, see
:mod:`analytics.distinct`):

- ``players`` — the player-games in which the player took it at least once (bought, built,
  played, chose: whatever the component's *kind* says), ``pick_rate`` their share of all
  player-games;
- ``win_rate`` — the share of those player-games that were won (rank 1, ties included), with
  its 95% Wilson score interval (``scipy.stats.binomtest(...).proportion_ci``), and ``lift``,
  its difference from the ``baseline`` (the win rate of every player-game of the same games);
- when it is taken: the median round (each title's own counter: Coal Baron's shift, Pax
  Pamir's turn, a round elsewhere) and the median progress (event index over the game's
  length) of the player's first take.

Every component of the catalogue is listed, taken or not.  What is taken is read from one of two
places, as each title's catalogue (:data:`CATALOGUES`) says per kind:

- the moves themselves (``events``: a :class:`Take`), where the move names its component (a court
  card played by id, a facade tile built by colour and size);
- ``components_taken`` (a :class:`Noted`), where the move names only a position (Pax Pamir's
  ``buy`` of a market column, Perikles' ``take_tile`` of a display slot, Praga's ``pick_tile``):
  the replay's rules noted what lay there when it was taken (``replay.engine.State.take``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import duckdb
import polars as pl

from analytics.distinct import distinct_games_sql
from analytics.players import _tables
from ingest.duck import first_row


@dataclass(frozen=True)
class Take:
    """One way a move takes a component: moves of ``move_types`` (optionally narrowed by the SQL condition
    ``where`` over the event's ``payload``) take the component whose catalogue key is the SQL ``key``."""

    kind: str
    move_types: tuple[str, ...]
    key: str
    where: str = "true"


@dataclass(frozen=True)
class Noted:
    """Components the replay noted as taken (``components_taken`` rows of kind ``noted``), listed under the
    catalogue's ``kind``; the catalogue key is the SQL ``key`` over the row's ``component`` (its id in the
    title's data)."""

    kind: str
    noted: str
    key: str = "component"


@dataclass(frozen=True)
class Catalogue:
    takes: tuple[Take | Noted, ...]
    entries: tuple[tuple[str, str, str], ...]
    """(kind, key, label) of every component, in display order."""


def _data(title: str, name: str) -> Any:
    return json.loads((resources.files(f"replay.games.{title}") / "data" / name).read_text())


def _move(field: str) -> str:
    return f"json_extract_string(payload, '$.move.{field}')"


def _copenhagen() -> Catalogue:
    tiles = _data("copenhagen", "tiles.json")
    sizes = sorted({int(s) for per in tiles["copies_per_color"].values() for s in per})
    game = _data("copenhagen", "game.json")
    entries = [("facade tile", f"{size}|{color}", f"{size}-cell {color} tile")
               for color in tiles["colors"] for size in sizes]
    entries += [("coat of arms", f"take:{a['id']}", f"take the {a['name']} ability")
                for a in game["abilities"] if not a["starts_owned"]]
    entries += [("coat of arms", "place_white", "place a white tile"),
                ("coat of arms", "refresh", "refresh the used abilities")]
    names = {a["id"]: a["name"] for a in game["abilities"]}
    entries += [("ability used", "construction_discount", f"{names['construction_discount']} (used)"),
                ("ability used", "change_of_colors", f"{names['change_of_colors']} (used)"),
                ("ability used", "both_actions", f"{names['both_actions']} (used)")]
    return Catalogue((
        Take("facade tile", ("build",), f"{_move('size')} || '|' || {_move('color')}"),
        Take("coat of arms", ("take_ability",), f"'take:' || {_move('ability')}"),
        Take("coat of arms", ("place_white",), "'place_white'"),
        Take("coat of arms", ("refresh_abilities",), "'refresh'"),
        Take("ability used", ("build",), "'construction_discount'",
             f"coalesce({_move('construction_discount')} = 'true', false)"),
        Take("ability used", ("build",), "'change_of_colors'", f"{_move('change_from')} IS NOT NULL"),
        Take("ability used", ("both_actions",), "'both_actions'"),
    ), tuple(entries))


def _coal_baron() -> Catalogue:
    orders = _data("coal_baron", "orders.json")["orders"]
    tiles = _data("coal_baron", "tiles.json")["kinds"]
    spaces = _data("coal_baron", "spaces.json")["spaces"]
    entries = []
    for o in orders:
        coal = ", ".join(f"{o['coal'].count(c)} {c}" for c in dict.fromkeys(o["coal"]))
        entries.append(("order card", o["id"], f"{o['id']}: {o['transport']}, {coal}, {o['vp']} VP"))
    # the copies of a tunnel tile are one component: the key is the tile's kind
    for k in tiles:
        entries.append(("tunnel tile", f"kind {k['kind']}", f"{k['carts']}-cart {k['colour']} tunnel ({k['side']} side)"))
    tile_kind = " ".join(f"WHEN {_literal(t)} THEN 'kind {k['kind']}'" for k in tiles for t in k["ids"])
    groups: dict[str, str] = {}
    for sp in spaces:
        groups.setdefault(sp["group"], re.sub(r"\s*\d+$", "", sp["name"]))
    entries += [("work space", s["id"], groups[s["group"]]) for s in spaces]
    return Catalogue((
        Take("order card", ("draft_order", "keep_order"), _move("card"), f"{_move('card')} IS NOT NULL"),
        Take("tunnel tile", ("keep_tile",), f"CASE {_move('tile')} {tile_kind} ELSE {_move('tile')} END",
             f"{_move('tile')} IS NOT NULL"),
        Take("work space", ("place_workers",), _move("space")),
    ), tuple(entries))


def _grouped(members: dict[str, str]) -> str:
    """SQL mapping a noted ``component`` id to its catalogue key (several copies, one component)."""
    return "CASE component " + " ".join(f"WHEN {_literal(c)} THEN {_literal(k)}" for c, k in members.items()) + \
        " ELSE component END"


def _pax_pamir() -> Catalogue:
    court = _data("pax_pamir", "court_cards.json")
    entries = [("court card", str(c["id"]), c["name"]) for c in court]
    # an event card is taken when bought (Public Withdrawal never can be); the four Dominance Check
    # cards are one component
    events = [e for e in _data("pax_pamir", "events.json") if e["purchased"] != "public_withdrawal"]
    event_key = {str(e["id"]): (e["purchased"] if e["purchased"] == "dominance_check" else str(e["id"]))
                 for e in events}
    entries += list(dict.fromkeys(("event card", event_key[str(e["id"])], e["name"]) for e in events))
    actions = ("tax", "gift", "build", "move", "betray", "battle")
    entries += [("card action", a, f"{a} action") for a in actions]
    return Catalogue((
        Take("court card", ("play",), _move("card")),
        Noted("event card", "event card", _grouped(event_key)),
        Take("card action", actions, "move_type"),
    ), tuple(entries))


def _perikles() -> Catalogue:
    from replay.games.perikles.components import CITY

    special = _data("perikles", "special_tiles.json")["tiles"]
    # the move types name the tiles as play_<name words>: play_thessalian_allies is the tile "thessalanianallies"
    entries = [("special tile", "play_" + re.sub(r"\W+", "_", t["name"].lower()), t["name"]) for t in special]
    # the copies of an influence tile (same city, cubes and symbol) are one component
    tiles = _data("perikles", "influence_tiles.json")["tiles"]
    tile_key = {t["id"]: f"{t['city']}|{t['shards']}|{t['symbol']}" for t in tiles}
    for t in tiles:
        city = "Any-city" if t["city"] == "any" else CITY[t["city"]].name
        what = f"{t['shards']}-cube" if t["symbol"] == "none" else t["symbol"]
        entries.append(("influence tile", tile_key[t["id"]], f"{city} {what} tile"))
    entries = list(dict.fromkeys(entries))
    entries += [("influence action", "nominate", "nominate a candidate"),
                ("influence action", "assassinate", "assassinate a cube")]
    return Catalogue((
        Take("special tile", tuple(k for _, k, _ in entries if k.startswith("play_")), "move_type"),
        Noted("influence tile", "influence tile", _grouped(tile_key)),
        Take("influence action", ("nominate", "assassinate"), "move_type"),
    ), tuple(entries))


def _gain_words(gains: list[dict[str, Any]]) -> str:
    """A Praga tile's reward in words: ``2 VP, a silver window``."""
    out = []
    for g in gains:
        for what, n in g.items():
            if what == "choice":
                out.append(" or ".join(_gain_words(option) for option in n))
            elif what == "window":
                out.append(f"a {n} window")
            else:
                out.append(f"{n} {'VP' if what == 'vp' else what}")
    return ", ".join(out)


def _praga_tile(t: dict[str, Any]) -> str:
    """A Praga hex tile in words: ``BI-03: era I building, 1 gold 2 stone, gives 2 VP``, ``UI-01: era I
    upgrade of manage quarries (bonus 1 stone)``."""
    from replay.games.praga.components import ACTION_NAMES

    era = "I" * int(t["era"])
    words = f"{t['id']}: era {era} {'special ' if t['special'] else ''}{t['type']}"
    if t["upgrades"]:
        words += f" of {ACTION_NAMES[t['upgrades']]} (bonus {_gain_words(t['upgrade_bonus'])})"
    cost = " ".join(f"{n} {what}" for what, n in t["cost"].items() if n)
    if cost:
        words += f", {cost}"
    gives = _gain_words(t["reward"])
    return words + (f", gives {gives}" if gives else "")


def _praga() -> Catalogue:
    from replay.games.praga.components import ACTION_NAMES, ROWS

    supplies = _data("praga", "supplies.json")

    entries = [("action", a, n) for a, n in ACTION_NAMES.items()]
    tiles = _data("praga", "hex_tiles.json")["tiles"]
    entries += [(f"{row} tile", t["id"], _praga_tile(t)) for row in ROWS for t in tiles if t["type"] == row]
    entries += [("technology", t["id"], f"{t['id']}: {t['text']}") for t in supplies["technologies"]]
    entries += [("seal", s["id"], s["id"].replace("_", " ")) for s in supplies["seals"]]
    entries += [("production token", t["id"], t["id"]) for t in supplies["production_tokens"]]
    return Catalogue((
        Take("action", ("choose_action",), _move("action")),
        *(Noted(f"{row} tile", f"{row} tile") for row in ROWS),
        Take("technology", ("keep_technology",), _move("tech")),
        Take("seal", ("claim_seal",), _move("seal")),
        Take("production token", ("take_production_token",), _move("token")),
    ), tuple(entries))


_BUILDERS = {"copenhagen": _copenhagen, "coal_baron": _coal_baron, "pax_pamir": _pax_pamir,
             "perikles": _perikles, "praga": _praga}
CATALOGUES = tuple(_BUILDERS)
"""The titles with a component catalogue."""


@cache
def catalogue(title: str) -> Catalogue:
    """The component catalogue of ``title`` (raises ``KeyError`` for a title without one)."""
    return _BUILDERS[title]()


@dataclass
class Components:
    games: int
    """Finished distinct games behind the figures."""
    player_games: int
    baseline: float | None
    """The win rate of every player-game of those games."""
    rows: pl.DataFrame
    uncounted: tuple[str, ...] = ()
    """Kinds read from ``components_taken`` when the database has no such table yet (made before it
    existed, and not ingested into since): listed, but not counted."""


ROW_SCHEMA = {"kind": pl.String, "key": pl.String, "label": pl.String, "players": pl.Int64, "wins": pl.Int64,
              "pick_rate": pl.Float64, "win_rate": pl.Float64, "win_rate_low": pl.Float64,
              "win_rate_high": pl.Float64, "win_rate_ci": pl.List(pl.Float64), "lift": pl.Float64,
              "median_round": pl.Float64, "median_progress": pl.Float64, "avg_times": pl.Float64}


def _literal(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def takes_sql(title: str) -> str:
    """SQL over ``ev`` (the title's move events) and ``tk`` (its ``components_taken`` rows, with the
    event's round) giving one row per take: game_id, seq, player_id, round, kind, key."""
    parts = []
    for t in catalogue(title).takes:
        if isinstance(t, Noted):
            parts.append(f"SELECT game_id, seq, player_id, round, {_literal(t.kind)} AS kind, "
                         f"({t.key})::VARCHAR AS key FROM tk WHERE kind = {_literal(t.noted)}")
            continue
        types = ", ".join(_literal(m) for m in t.move_types)
        parts.append(f"SELECT game_id, seq, player_id, round, {_literal(t.kind)} AS kind, ({t.key})::VARCHAR AS key "
                     f"FROM ev WHERE move_type IN ({types}) AND ({t.where})")
    return " UNION ALL ".join(parts)


def wilson(wins: int, n: int) -> tuple[float, float] | tuple[None, None]:
    """The 95% Wilson score interval of ``wins`` out of ``n`` (scipy), or ``(None, None)`` for ``n`` = 0."""
    from scipy.stats import binomtest

    if n == 0:
        return None, None
    ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def components(con: duckdb.DuckDBPyConnection, title: str, *, player_count: int | None = None,
               source: str | None = None, ruleset: str | None = None) -> Components:
    """Every component of ``title`` with how often it was taken and its takers' win rate (module doc)."""
    cat = catalogue(title)
    move_types = sorted({m for t in cat.takes if isinstance(t, Take) for m in t.move_types})
    noted = [t for t in cat.takes if isinstance(t, Noted)]
    have_taken = "components_taken" in _tables(con)
    params = {"title": title, "pc": player_count, "src": source, "rs": ruleset}
    games_sql = f"""
        SELECT game_id, n_events FROM ({distinct_games_sql(con)}) g
        WHERE title = $title AND ($pc::INTEGER IS NULL OR player_count = $pc)
          AND ($src::VARCHAR IS NULL OR source_kind = $src)
          AND ($rs::VARCHAR IS NULL OR coalesce(ruleset, 'official') = $rs)
          AND game_id IN (SELECT game_id FROM players WHERE won IS NOT NULL)
    """
    head = first_row(con.execute(f"""
        WITH g AS ({games_sql})
        SELECT count(DISTINCT p.game_id)::BIGINT, count(*)::BIGINT, count(*) FILTER (WHERE p.won)::BIGINT
        FROM players p JOIN g USING (game_id)
    """, params))
    assert head is not None
    n_games, n_pg, n_wins = (int(v) for v in head)
    types = ", ".join(_literal(m) for m in move_types)
    agg = con.sql(f"""
        WITH g AS ({games_sql}),
        ev AS (
            SELECT e.game_id, e.seq, e.player_id, e.round, e.move_type, e.payload
            FROM events e JOIN g USING (game_id)
            WHERE e.kind = 'move' AND e.move_type IN ({types})
        ),
        tk AS ({_noted_sql(have_taken and bool(noted))}),
        takes AS ({takes_sql(title)}),
        first AS (
            SELECT game_id, player_id, kind, key, min(seq) AS seq, arg_min(round, seq) AS round,
                   count(*) AS times
            FROM takes GROUP BY ALL
        )
        SELECT f.kind, f.key, count(*)::BIGINT AS players, count(*) FILTER (WHERE p.won)::BIGINT AS wins,
               median(f.round)::DOUBLE AS median_round,
               median(f.seq::DOUBLE / greatest(g.n_events, 1))::DOUBLE AS median_progress,
               avg(f.times)::DOUBLE AS avg_times
        FROM first f JOIN players p USING (game_id, player_id) JOIN g USING (game_id)
        GROUP BY f.kind, f.key
    """, params=params).pl()
    entries = pl.DataFrame([{"kind": k, "key": key, "label": label, "order": i}
                            for i, (k, key, label) in enumerate(cat.entries)],
                           schema={"kind": pl.String, "key": pl.String, "label": pl.String, "order": pl.Int64})
    rows = entries.join(agg, on=["kind", "key"], how="full", coalesce=True)
    rows = rows.with_columns(
        pl.col("label").fill_null(pl.col("key")),
        pl.col("order").fill_null(len(cat.entries)),
        pl.col("players").fill_null(0), pl.col("wins").fill_null(0),
    )
    lows, highs = [], []
    for w, n in zip(rows.get_column("wins").to_list(), rows.get_column("players").to_list()):
        lo, hi = wilson(int(w), int(n))
        lows.append(lo)
        highs.append(hi)
    baseline = n_wins / n_pg if n_pg else None
    rows = rows.with_columns(
        pl.Series("win_rate_low", lows, dtype=pl.Float64), pl.Series("win_rate_high", highs, dtype=pl.Float64),
        (pl.col("players") / n_pg if n_pg else pl.lit(None, dtype=pl.Float64)).alias("pick_rate"),
        pl.when(pl.col("players") > 0).then(pl.col("wins") / pl.col("players")).alias("win_rate"),
    ).with_columns(
        pl.when(pl.col("players") > 0).then(pl.concat_list("win_rate_low", "win_rate_high")).alias("win_rate_ci"),
        (pl.col("win_rate") - baseline if baseline is not None else pl.lit(None, dtype=pl.Float64)).alias("lift"),
    ).sort(["order", "key"]).select(list(ROW_SCHEMA))
    uncounted = () if have_taken else tuple(dict.fromkeys(t.kind for t in noted))
    return Components(n_games, n_pg, baseline, rows.cast(ROW_SCHEMA), uncounted)  # type: ignore[arg-type]


def _noted_sql(present: bool) -> str:
    """The ``components_taken`` rows of the games ``g``, each with the round of its event (none without
    the table)."""
    if not present:
        return ("SELECT NULL::VARCHAR AS game_id, NULL::INTEGER AS seq, NULL::VARCHAR AS player_id, "
                "NULL::INTEGER AS round, NULL::VARCHAR AS kind, NULL::VARCHAR AS component WHERE false")
    return """
        SELECT t.game_id, t.seq, t.player_id, e.round, t.kind, t.component
        FROM components_taken t JOIN g USING (game_id)
        LEFT JOIN events e ON e.game_id = t.game_id AND e.seq = t.seq
    """
