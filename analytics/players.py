"""People across games: who a player is, their record, rating, opponents and decision quality.

A person is their id in the records (``players.player_id``: BGA's player id for imported
games, ``p1``.. for simulated ones); their name is the one of their latest game (names
change).  A game is *finished* when the rules reached its end (``players.won`` is not
null); a player-game is *won* when its rank is 1, ties included.

Two players' downloads of one BGA table are two records of one game (``bga-<table>-<viewer>``):
every figure here counts such a table once (:mod:`analytics.distinct`), keeping its complete
record if it has one.

The rating is OpenSkill's Plackett-Luce model (``openskill``): every finished game, in the
order it was played (``played_at``, then ``game_id``), updates each player's ``mu`` (the
skill estimate) and ``sigma`` (its uncertainty) from the final ranks, ties as ties.  One
ladder per title, and one over every title together.  Shown: ``mu``, ``sigma`` and the
conservative ``mu - 3 sigma`` that leaderboards sort by.

Every function takes a DuckDB connection (readers: :func:`analytics.db.connect_readonly`)
and returns a polars DataFrame (or a dict of them) in a deterministic order; user input only
reaches SQL as bound parameters.
"""

from __future__ import annotations

from typing import Any, cast

import duckdb
import polars as pl

from analytics.distinct import distinct_games_sql
from ingest.duck import first_row, polars

MU = 25.0
SIGMA = MU / 3


class UnknownPlayer(LookupError):
    """No player with that id or name (or several with that name): the message says which."""


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    rows = con.execute("SELECT table_name FROM information_schema.tables "
                       "WHERE table_schema = 'main' AND table_catalog = current_database()").fetchall()
    return {r[0] for r in rows}


def _player_games_sql(con: duckdb.DuckDBPyConnection) -> str:
    """Every player seat of every distinct game, with the game's facts."""
    return f"""
        SELECT p.game_id, g.title, g.played_at, g.player_count::BIGINT AS player_count,
               p.seat::BIGINT AS seat, p.player_id, p.name, p.final_score::BIGINT AS final_score,
               p.rank::BIGINT AS rank, p.won, g.source_kind, g.ruleset, g.status
        FROM players p JOIN ({distinct_games_sql(con)}) g USING (game_id)
    """


# --------------------------------------------------------------------------
# Finding a player
# --------------------------------------------------------------------------


def search(con: duckdb.DuckDBPyConnection, text: str, limit: int = 50) -> pl.DataFrame:
    """Players whose id is ``text`` or any of whose names contains it (case-insensitive), with their
    latest name and how many games they played; exact id or name matches first, then most games."""
    if not {"games", "players"} <= _tables(con):
        return pl.DataFrame(schema={"player_id": pl.String, "name": pl.String, "games": pl.Int64,
                                    "exact": pl.Boolean})
    return polars(con.sql(f"""
        WITH pg AS ({_player_games_sql(con)}),
        hit AS (
            SELECT DISTINCT player_id FROM pg
            WHERE player_id = $t OR name ILIKE '%' || replace(replace($t, '%', '\\%'), '_', '\\_') || '%' ESCAPE '\\'
        )
        SELECT pg.player_id, arg_max(pg.name, (pg.played_at, pg.game_id)) AS name, count(*)::BIGINT AS games,
               bool_or(pg.player_id = $t OR lower(pg.name) = lower($t)) AS exact
        FROM pg JOIN hit USING (player_id)
        GROUP BY pg.player_id
        ORDER BY exact DESC, games DESC, pg.player_id
        LIMIT $limit
    """, params={"t": text, "limit": limit}))


def resolve(con: duckdb.DuckDBPyConnection, text: str) -> dict[str, Any]:
    """The one player ``text`` names: an id, else a name (any they played under, case-insensitive).

    Raises :class:`UnknownPlayer` with a one-line reason when there is none, or when a name
    belongs to several ids (the message lists them: ask by id).
    """
    if not {"games", "players"} <= _tables(con):
        raise UnknownPlayer("the database holds no games yet")
    row = first_row(con.execute(f"""
        WITH pg AS ({_player_games_sql(con)})
        SELECT player_id, arg_max(name, (played_at, game_id)) AS name, count(*)::BIGINT AS games
        FROM pg WHERE player_id = ? GROUP BY player_id
    """, [text]))
    if row is not None:
        return {"player_id": row[0], "name": row[1], "games": int(row[2])}
    rows = con.execute(f"""
        WITH pg AS ({_player_games_sql(con)}),
        ids AS (SELECT DISTINCT player_id FROM pg WHERE lower(name) = lower(?))
        SELECT pg.player_id, arg_max(pg.name, (pg.played_at, pg.game_id)) AS name, count(*)::BIGINT AS games
        FROM pg JOIN ids USING (player_id) GROUP BY pg.player_id ORDER BY games DESC, pg.player_id
    """, [text]).fetchall()
    if not rows:
        raise UnknownPlayer(f"no player with id or name {text!r} in the database")
    if len(rows) > 1:
        listed = ", ".join(f"{pid} ({name}, {n} games)" for pid, name, n in rows[:10])
        more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
        raise UnknownPlayer(f"{len(rows)} players have played as {text!r}: {listed}{more}; ask for one by id")
    pid, name, n = rows[0]
    return {"player_id": pid, "name": name, "games": int(n)}


# --------------------------------------------------------------------------
# Record
# --------------------------------------------------------------------------


def games(con: duckdb.DuckDBPyConnection, player_id: str, title: str | None = None) -> pl.DataFrame:
    """Every distinct game the player played, newest first: title, when, seats, their seat, score,
    rank, won (null if unfinished), the winners' names, status."""
    return polars(con.sql(f"""
        WITH pg AS ({_player_games_sql(con)}),
        mine AS (SELECT * FROM pg WHERE player_id = $p AND ($t::VARCHAR IS NULL OR title = $t)),
        winners AS (
            SELECT game_id, string_agg(name, ', ' ORDER BY seat) AS winners
            FROM pg WHERE won AND game_id IN (SELECT game_id FROM mine) GROUP BY game_id
        )
        SELECT m.game_id, m.title, CAST(m.played_at AS VARCHAR) AS played_at, m.player_count, m.seat,
               m.final_score, m.rank, m.won, w.winners, m.status, m.source_kind
        FROM mine m LEFT JOIN winners w USING (game_id)
        ORDER BY m.played_at DESC NULLS LAST, m.game_id DESC
    """, params={"p": player_id, "t": title}))


def record(con: duckdb.DuckDBPyConnection, player_id: str, title: str | None = None) -> dict[str, pl.DataFrame]:
    """The player's record over finished distinct games: overall, by title, by title and player count,
    by title, player count and seat (``games``, ``wins``, ``win_rate``, ``avg_score``), with ``played``
    counting unfinished games too."""
    base = f"""
        WITH pg AS ({_player_games_sql(con)})
        SELECT {{keys}} count(*)::BIGINT AS played,
               count(*) FILTER (WHERE won IS NOT NULL)::BIGINT AS games,
               count(*) FILTER (WHERE won)::BIGINT AS wins,
               count(*) FILTER (WHERE won)::DOUBLE / nullif(count(*) FILTER (WHERE won IS NOT NULL), 0) AS win_rate,
               avg(final_score) FILTER (WHERE won IS NOT NULL) AS avg_score
        FROM pg WHERE player_id = $p AND ($t::VARCHAR IS NULL OR title = $t)
        {{group}}
    """
    out: dict[str, pl.DataFrame] = {}
    for name, keys in (("overall", ()), ("by_title", ("title",)),
                       ("by_player_count", ("title", "player_count")),
                       ("by_seat", ("title", "player_count", "seat"))):
        sql = base.format(keys="".join(f"{k}, " for k in keys),
                          group=f"GROUP BY {', '.join(keys)} ORDER BY {', '.join(keys)}" if keys else "")
        out[name] = con.sql(sql, params={"p": player_id, "t": title}).pl()
    return out


def categories(con: duckdb.DuckDBPyConnection, player_id: str, title: str | None = None) -> pl.DataFrame:
    """Average final points per title and score category: the player's against their opponents' in the
    same finished games, with the games behind each figure."""
    return polars(con.sql(f"""
        WITH pg AS ({_player_games_sql(con)}),
        mine AS (SELECT game_id, title FROM pg
                 WHERE player_id = $p AND won IS NOT NULL AND ($t::VARCHAR IS NULL OR title = $t)),
        pts AS (
            SELECT m.title, s.category, s.game_id, s.player_id = $p AS is_me, s.points
            FROM score_breakdown s JOIN mine m USING (game_id)
        )
        SELECT title, category,
               avg(points) FILTER (WHERE is_me) AS player,
               avg(points) FILTER (WHERE NOT is_me) AS opponents,
               coalesce(avg(points) FILTER (WHERE is_me), 0) - coalesce(avg(points) FILTER (WHERE NOT is_me), 0)
                   AS difference,
               (SELECT count(*) FROM mine m2 WHERE m2.title = pts.title)::BIGINT AS games
        FROM pts GROUP BY title, category ORDER BY title, difference DESC, category
    """, params={"p": player_id, "t": title}))


def opponents(con: duckdb.DuckDBPyConnection, player_id: str, title: str | None = None,
              limit: int | None = 20) -> pl.DataFrame:
    """The people the player met most often, with the record against each over finished games: games
    together, the player's wins and the opponent's, and who finished ahead of whom (``ahead``,
    ``behind``, ``level``: rank against rank)."""
    return polars(con.sql(f"""
        WITH pg AS ({_player_games_sql(con)}),
        mine AS (SELECT * FROM pg WHERE player_id = $p AND ($t::VARCHAR IS NULL OR title = $t)),
        o AS (
            SELECT o.player_id, o.name, o.played_at, o.game_id, o.won AS o_won, o.rank AS o_rank,
                   m.won AS m_won, m.rank AS m_rank
            FROM mine m JOIN pg o ON o.game_id = m.game_id AND o.player_id <> m.player_id
        )
        SELECT player_id, arg_max(name, (played_at, game_id)) AS name, count(*)::BIGINT AS played,
               count(*) FILTER (WHERE m_won IS NOT NULL)::BIGINT AS games,
               count(*) FILTER (WHERE m_won)::BIGINT AS wins,
               count(*) FILTER (WHERE o_won)::BIGINT AS their_wins,
               count(*) FILTER (WHERE m_rank < o_rank)::BIGINT AS ahead,
               count(*) FILTER (WHERE m_rank > o_rank)::BIGINT AS behind,
               count(*) FILTER (WHERE m_rank = o_rank)::BIGINT AS level
        FROM o GROUP BY player_id
        ORDER BY played DESC, player_id
        LIMIT $limit
    """, params={"p": player_id, "t": title, "limit": limit}))


# --------------------------------------------------------------------------
# Rating (OpenSkill)
# --------------------------------------------------------------------------


_HISTORY_SCHEMA = {"game_no": pl.Int64, "game_id": pl.String, "title": pl.String, "played_at": pl.String,
                   "player_id": pl.String, "rank": pl.Int64, "mu": pl.Float64, "sigma": pl.Float64,
                   "rated": pl.Int64}


def _rated_games(con: duckdb.DuckDBPyConnection, title: str | None) -> list[tuple[Any, ...]]:
    """Every finished distinct game with two or more distinct players, in playing order:
    (game_id, title, played_at, player ids in seat order, their ranks)."""
    return con.execute(f"""
        WITH pg AS ({_player_games_sql(con)}),
        fin AS (SELECT game_id FROM pg GROUP BY game_id
                HAVING bool_and(rank IS NOT NULL) AND count(DISTINCT player_id) = count(*) AND count(*) >= 2)
        SELECT game_id, any_value(title), CAST(any_value(played_at) AS VARCHAR),
               list(player_id ORDER BY seat), list(rank ORDER BY seat)
        FROM pg WHERE game_id IN (SELECT game_id FROM fin) AND ($t::VARCHAR IS NULL OR title = $t)
        GROUP BY game_id
        ORDER BY any_value(played_at) NULLS LAST, game_id
    """, {"t": title}).fetchall()


class _Ladder:
    """One OpenSkill ladder being played through, its history kept as rows."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.current: dict[str, Any] = {}
        self.counts: dict[str, int] = {}
        self.games = 0
        self.rows: list[tuple[Any, ...]] = []

    def play(self, gid: str, title: str, at: str | None, pids: list[str], ranks: list[int]) -> None:
        self.games += 1
        current, counts = self.current, self.counts
        teams = [[current[p] if p in current else self.model.rating()] for p in pids]
        rated = self.model.rate(teams, ranks=[float(r) for r in ranks])
        for p, r, (new,) in zip(pids, ranks, rated):
            current[p] = new
            n = counts[p] = counts.get(p, 0) + 1
            self.rows.append((self.games, gid, title, at, p, r, new.mu, new.sigma, n))

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.rows, schema=_HISTORY_SCHEMA, orient="row")


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def rating_history(con: duckdb.DuckDBPyConnection, title: str | None = None) -> pl.DataFrame:
    """Every rated player's rating after every finished distinct game, in playing order: one ladder for
    ``title``, or one over every title when ``None``.

    Columns: ``game_no`` (the game's place in the ladder, from 1), ``game_id``, ``title``,
    ``played_at``, ``player_id``, ``rank``, ``mu``, ``sigma``, ``rated`` (the player's games in the
    ladder so far).
    """
    if not {"games", "players"} <= _tables(con):
        return pl.DataFrame(schema=_HISTORY_SCHEMA)
    ladder = _Ladder(_model())
    for row in _rated_games(con, title):
        ladder.play(*row)
    return ladder.frame()


def rating_histories(con: duckdb.DuckDBPyConnection) -> dict[str | None, pl.DataFrame]:
    """:func:`rating_history` of every title (keyed by title) and of all of them together (key ``None``),
    played through in one pass over the games."""
    if not {"games", "players"} <= _tables(con):
        return {None: pl.DataFrame(schema=_HISTORY_SCHEMA)}
    model = _model()
    overall = _Ladder(model)
    per_title: dict[str, _Ladder] = {}
    for row in _rated_games(con, None):
        overall.play(*row)
        per_title.setdefault(row[1], _Ladder(model)).play(*row)
    out: dict[str | None, pl.DataFrame] = {None: overall.frame()}
    out.update({t: lad.frame() for t, lad in sorted(per_title.items())})
    return out


def ladder(history: pl.DataFrame) -> pl.DataFrame:
    """Each player's current rating from a :func:`rating_history`, best first by ``mu - 3 sigma``,
    with their place (``place``, from 1) and the number of rated players (``of``)."""
    cur = (history.group_by("player_id").agg(pl.all().sort_by("game_no").last())
           .select("player_id", "mu", "sigma", pl.col("rated").alias("games"))
           .with_columns((pl.col("mu") - 3 * pl.col("sigma")).alias("conservative"))
           .sort(["conservative", "player_id"], descending=[True, False]))
    return cur.with_columns(pl.int_range(1, cur.height + 1).alias("place"), pl.lit(cur.height).alias("of"))


def rating(history: pl.DataFrame, player_id: str) -> dict[str, Any] | None:
    """The player's current rating in a ladder: ``mu``, ``sigma``, ``conservative``, ``games``, ``place``,
    ``of``; ``None`` if they have no finished game in it."""
    lad = ladder(history).filter(pl.col("player_id") == player_id)
    return lad.row(0, named=True) if lad.height else None


# --------------------------------------------------------------------------
# Decision quality (win chances from `gamerec analyse`)
# --------------------------------------------------------------------------


def _decisions_sql(where: str) -> str:
    """Every analysed decision: the mover's chance at the position and at the next analysed position of
    the same game, over analyses made from the record now in the database."""
    return f"""
        WITH cur AS (
            SELECT a.game_id FROM analyses a JOIN games g USING (game_id)
            WHERE a.record_sha256 = g.record_sha256 AND {where}
        ), wc AS (
            SELECT w.* FROM win_chances w WHERE w.game_id IN (SELECT game_id FROM cur)
        ), pos AS (
            SELECT game_id, seq, any_value(mover) AS mover, any_value(move_seq) AS move_seq,
                   any_value(rollouts) AS rollouts
            FROM wc GROUP BY game_id, seq
        ), nxt AS (
            SELECT *, lead(seq) OVER (PARTITION BY game_id ORDER BY seq) AS next_seq FROM pos
        )
        SELECT n.game_id, n.seq, n.move_seq, n.mover AS player_id, n.next_seq,
               b.chance AS chance_before, a.chance AS chance_after, b.chance - a.chance AS lost,
               n.rollouts
        FROM nxt n
        JOIN wc b ON b.game_id = n.game_id AND b.seq = n.seq AND b.player_id = n.mover
        JOIN wc a ON a.game_id = n.game_id AND a.seq = n.next_seq AND a.player_id = n.mover
        WHERE n.mover IS NOT NULL
    """


def _has_analyses(con: duckdb.DuckDBPyConnection) -> bool:
    return {"analyses", "win_chances", "games"} <= _tables(con)


_DECISION_SCHEMA = {"game_id": pl.String, "seq": pl.Int64, "move_seq": pl.Int64, "player_id": pl.String,
                    "next_seq": pl.Int64, "chance_before": pl.Float64, "chance_after": pl.Float64,
                    "lost": pl.Float64, "rollouts": pl.Int64, "move_type": pl.String, "move": pl.String,
                    "moves": pl.Int64, "given_away": pl.Float64, "best_words": pl.String,
                    "played_words": pl.String}


def _with_moves(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any]) -> pl.DataFrame:
    # a database analysed before ``choices`` existed, opened read-only, has no such table: no choice judged
    judged = ("LEFT JOIN choices c ON c.game_id = d.game_id AND c.move_seq = d.move_seq"
              if "choices" in _tables(con) else
              "LEFT JOIN (SELECT NULL::INTEGER AS moves, NULL::DOUBLE AS given_away, "
              "NULL::VARCHAR AS best_words, NULL::VARCHAR AS played_words) c ON false")
    return polars(con.sql(f"""
        WITH d AS ({sql})
        SELECT d.game_id, d.seq::BIGINT AS seq, d.move_seq::BIGINT AS move_seq, d.player_id,
               d.next_seq::BIGINT AS next_seq, d.chance_before, d.chance_after, d.lost,
               d.rollouts::BIGINT AS rollouts, e.move_type,
               CAST(json_extract(e.payload, '$.move') AS VARCHAR) AS move,
               c.moves::BIGINT AS moves, c.given_away, c.best_words, c.played_words
        FROM d LEFT JOIN events e ON e.game_id = d.game_id AND e.seq = d.move_seq
        {judged}
        ORDER BY d.game_id, d.seq
    """, params=params))


def game_decisions(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Each analysed decision of one game: who decided, the move (``move_seq``), the mover's chance
    before it and at the next analysed position, and the chance lost (negative: gained); where the
    value method judged the choice (table ``choices``), how many moves the player had (``moves``),
    the chance the move played gave away against the best of them (``given_away``), and both moves
    in words (``played_words``, ``best_words``)."""
    if not _has_analyses(con):
        return pl.DataFrame(schema=_DECISION_SCHEMA)
    return _with_moves(con, _decisions_sql("a.game_id = $g"), {"g": game_id})


def decisions(con: duckdb.DuckDBPyConnection, player_id: str, title: str | None = None) -> pl.DataFrame:
    """Every analysed decision the player took (see :func:`game_decisions`), over their distinct games."""
    if not _has_analyses(con):
        return pl.DataFrame(schema=_DECISION_SCHEMA)
    where = (f"a.game_id IN (SELECT game_id FROM ({_player_games_sql(con)}) "
             "WHERE player_id = $p AND ($t::VARCHAR IS NULL OR title = $t))")
    return _with_moves(con, _decisions_sql(where), {"p": player_id, "t": title}).filter(
        pl.col("player_id") == player_id)


JUDGED = pl.col("moves") >= 2
"""A decision whose choice was judged with at least two moves to choose from (one with a single move
gives nothing away and is left out of the choice figures)."""
CHOICE_FIGURES = (pl.len().alias("choices"), pl.col("given_away").mean().alias("avg_given_away"),
                  (pl.col("given_away") <= 0).mean().alias("best_share"))
"""Over such choices: how many, the mean chance given away, the share of best moves."""


def decision_quality(dec: pl.DataFrame, worst: int = 10) -> dict[str, Any]:
    """From :func:`decisions`: how many decisions and games, the average win chance lost per decision
    (a gain counts as nothing lost), the average change (gains and losses), and the ``worst`` ones;
    and, over the decisions whose choice was judged with at least two moves to choose from
    (``choices``), the average chance the choice gave away (``avg_given_away``), the share of
    choices of the best move (``best_share``) and the ``worst`` choices (``worst_choices``)."""
    judged = dec.filter(JUDGED)
    out: dict[str, Any] = {**judged.select(*CHOICE_FIGURES).row(0, named=True),
                           "worst_choices": judged.sort(["given_away", "game_id", "seq"],
                                                        descending=[True, False, False]).head(worst)}
    if dec.is_empty():
        return {"decisions": 0, "games": 0, "avg_lost": None, "avg_change": None, "worst": dec, **out}
    return {
        "decisions": dec.height,
        "games": dec.get_column("game_id").n_unique(),
        "avg_lost": float(cast(float, dec.get_column("lost").clip(lower_bound=0).mean())),
        "avg_change": -float(cast(float, dec.get_column("lost").mean())),
        "worst": dec.sort(["lost", "game_id", "seq"], descending=[True, False, False]).head(worst),
        **out,
    }


def choices_by_game(dec: pl.DataFrame, played: pl.DataFrame) -> pl.DataFrame:
    """From :func:`decisions` and :func:`games`: per game whose choices were judged, oldest first, its
    title, when, the player's rank and whether they won, how many choices of two moves or more, the
    mean chance they gave away and the share of best moves; ``game_no`` numbers those games."""
    per = dec.filter(JUDGED).group_by("game_id").agg(*CHOICE_FIGURES)
    out = per.join(played.select("game_id", "title", "played_at", "rank", "won"), on="game_id", how="left")
    return out.sort(["played_at", "game_id"], nulls_last=True).with_row_index("game_no", offset=1).select(
        pl.col("game_no").cast(pl.Int64), "game_id", "title", "played_at", "rank", "won", "choices",
        "avg_given_away", "best_share")


# --------------------------------------------------------------------------
# Everything about one player
# --------------------------------------------------------------------------


def profile(con: duckdb.DuckDBPyConnection, player_id: str, title: str | None = None,
            history: pl.DataFrame | None = None, title_histories: dict[str, pl.DataFrame] | None = None,
            opponents_limit: int | None = 20) -> dict[str, Any]:
    """Everything :func:`gamerec stats --player` shows, over one connection.

    ``history`` is the ladder to rate in (:func:`rating_history` of ``title``, computed if not given);
    ``title_histories`` the per-title ladders (computed for the player's titles if not given).
    """
    rec = record(con, player_id, title)
    played = games(con, player_id, title)
    titles = sorted(set(played.get_column("title").to_list()))
    if history is None and title is None and title_histories is None:
        every = rating_histories(con)  # one pass for the overall ladder and every title's
        history, title_histories = every[None], {t: h for t, h in every.items() if t is not None}
    if history is None:
        history = rating_history(con, title)
    per_title = {}
    for t in titles:
        h = title_histories.get(t) if title_histories is not None else None
        if h is None:
            h = history if title == t else rating_history(con, t)
        per_title[t] = rating(h, player_id)
    dec = decisions(con, player_id, title)
    mine = history.filter(pl.col("player_id") == player_id).select("game_no", "game_id", "title", "played_at",
                                                                    "rank", "mu", "sigma", "rated")
    return {
        "record": rec,
        "games": played,
        "categories": categories(con, player_id, title),
        "opponents": opponents(con, player_id, title, opponents_limit),
        "rating": rating(history, player_id),
        "ratings_by_title": per_title,
        "rating_history": mine,
        "decisions": decision_quality(dec),
        "choices_by_game": choices_by_game(dec, played),
    }
