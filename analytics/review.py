"""Game review: rebuild a record from the database and step through it.

The database stores every event's JSON (``events.payload``) and the players
in seat order, so a record can be rebuilt exactly (:func:`record_from_rows`)
and replayed by the rules to any step.  States are not stored: a
:class:`Stepper` replays the record once, keeping a copy of the state every
:data:`CHECKPOINT_EVERY` events, so a step replays at most that many events
from the nearest checkpoint.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

import duckdb
import orjson
import polars as pl

from analytics import queries
from replay.engine import State, with_names
from replay.games import UnknownGame, get_game
from replay.loop import Loop, Observer
from replay.record import (
    FORMAT,
    ChanceEvent,
    Event,
    MoveEvent,
    ObserveEvent,
    Record,
    RecordError,
    loads,
    parse_record,
)

CHECKPOINT_EVERY = 32


class _Checkpoints(Observer):
    """A copy of the state before the first event and after every :data:`CHECKPOINT_EVERY`-th,
    with the seq of the last event applied to it (-1: none)."""

    __slots__ = ("marks", "states")

    def __init__(self, marks: list[int], states: list[State]) -> None:
        self.marks, self.states = marks, states

    def started(self, state: State) -> None:
        self.marks[:] = [-1]
        self.states[:] = [state.copy()]

    def applied(self, seq: int, event: MoveEvent | ChanceEvent, state: State) -> None:
        if (seq + 1) % CHECKPOINT_EVERY == 0:
            self.marks.append(seq)
            self.states.append(state.copy())

    def observed(self, seq: int, event: ObserveEvent, state: State) -> None:
        if (seq + 1) % CHECKPOINT_EVERY == 0:
            self.marks.append(seq)
            self.states.append(state.copy())


class ReviewError(RuntimeError):
    """The game cannot be reviewed (no engine for its title, unreadable stored events)."""


def record_from_rows(header: dict[str, Any], players: pl.DataFrame, events: pl.DataFrame) -> Record:
    """The record of one game, rebuilt from its ``games`` row, ``players`` rows and ``events`` rows."""
    options: dict[str, Any] = {}
    raw_options = header.get("options")
    if isinstance(raw_options, str) and raw_options:
        options = orjson.loads(raw_options)
    elif isinstance(raw_options, dict):
        options = dict(raw_options)
    elif header.get("ruleset"):
        options = {"ruleset": header["ruleset"]}
    try:
        payloads = [orjson.loads(p) for p in events.get_column("payload").to_list()]
    except orjson.JSONDecodeError as exc:
        raise ReviewError(f"game {header.get('game_id')}: a stored event is not valid JSON ({exc})") from None
    obj = {
        "format": FORMAT,
        "game": header["title"],
        "id": header["game_id"],
        "players": [
            {"id": r["player_id"], "name": r["name"]} if r.get("name") else {"id": r["player_id"]}
            for r in players.iter_rows(named=True)
        ],
        "options": options,
        "events": payloads,
    }
    try:
        return parse_record(obj)
    except RecordError as exc:
        raise ReviewError(f"game {header.get('game_id')} cannot be rebuilt from the database: {exc}") from None


def record_for_game(con: duckdb.DuckDBPyConnection, game_id: str) -> Record | None:
    """The record of one game: the stored raw record if there is one, else rebuilt from its rows."""
    raw = queries.game_record_raw(con, game_id)
    if raw is not None:
        try:
            return loads(raw, source="records", line=None)
        except RecordError:
            pass  # an engine change made the stored text unreadable: rebuild from the rows
    header = queries.game_header(con, game_id)
    if header is None:
        return None
    return record_from_rows(header, queries.game_players(con, game_id), queries.game_events(con, game_id))


def dense_timeline(df: pl.DataFrame) -> pl.DataFrame:
    """Score-by-category series made dense: each category's value at every change of any category
    of the same player, from zero at event 0 (so that the series stack correctly)."""
    if df.is_empty():
        return df
    out = []
    for (player,), part in df.group_by(["player_id"], maintain_order=True):
        wide = part.pivot(on="category", index="seq", values="points", aggregate_function="last").sort("seq")
        cats = [c for c in wide.columns if c != "seq"]
        wide = wide.with_columns([pl.col(c).forward_fill().fill_null(0) for c in cats])
        if wide.height and wide.get_column("seq")[0] > 0:
            zero = pl.DataFrame({"seq": [0], **{c: [0] for c in cats}}, schema=wide.schema)
            wide = pl.concat([zero, wide])
        long = wide.unpivot(index="seq", on=cats, variable_name="category", value_name="points")
        out.append(long.with_columns(pl.lit(player).alias("player_id")))
    return pl.concat(out).select("player_id", "seq", "category", "points").sort("player_id", "category", "seq")


def decisive_events(timeline: pl.DataFrame, names: dict[str, str] | None = None,
                    last_seq: int | None = None) -> list[tuple[int, str]]:
    """Where a game was decided, from its score timeline: the event after which the final leader
    led alone to the end, and the biggest single-event gain (with the categories it came from).

    ``names`` is the whole roster (player id -> name): a player without any
    score row is on 0 throughout, and ties with the others until one scores.
    With ``last_seq`` (the game's last event) the biggest gain is looked for
    during play, before the end-of-game scoring at that event, which would
    otherwise nearly always be it.
    """
    names = names or {}
    dense = dense_timeline(timeline)
    if dense.is_empty():
        return []
    totals = dense.group_by("seq", "player_id").agg(pl.col("points").sum()).sort("seq", "player_id")
    wide = totals.pivot(on="player_id", index="seq", values="points").sort("seq").fill_null(strategy="forward")
    # a player with no score rows has 0 all game long: they still count when looking for a leader
    missing = [p for p in names if p not in wide.columns]
    wide = wide.with_columns([pl.lit(0, pl.Int64).alias(p) for p in missing])
    players = [c for c in wide.columns if c != "seq"]
    seqs = wide.get_column("seq").to_list()
    rows = wide.select(players).rows()
    out: list[tuple[int, str]] = []

    def leader(row: tuple[Any, ...]) -> str | None:
        best = max(v or 0 for v in row)
        top = [p for p, v in zip(players, row) if (v or 0) == best]
        return top[0] if len(top) == 1 else None

    final = leader(rows[-1])
    if final is not None:
        since = len(rows) - 1
        while since > 0 and leader(rows[since - 1]) == final:
            since -= 1
        who = names.get(final, final)
        out.append((int(seqs[since]), f"{who} leads alone from here to the end"))
    best_gain, best_at, best_player = 0, None, None
    for i in range(1, len(rows)):
        if last_seq is not None and seqs[i] >= last_seq:
            break
        for j, p in enumerate(players):
            gain = (rows[i][j] or 0) - (rows[i - 1][j] or 0)
            if gain > best_gain:
                best_gain, best_at, best_player = gain, i, p
    if best_at is not None and best_player is not None:
        seq = int(seqs[best_at])
        changed = timeline.filter((pl.col("seq") == seq) & (pl.col("player_id") == best_player))
        cats = ", ".join(sorted(set(changed.get_column("category").to_list())))
        who = names.get(best_player, best_player)
        label = "biggest gain during play" if last_seq is not None else "biggest gain"
        out.append((seq, f"{label}: {who} +{best_gain}" + (f" ({cats})" if cats else "")))
    return out


def in_words(key: str) -> str:
    """An id a player reads (a divergence kind, a milestone type) in words: ``impossible_chance`` ->
    "impossible chance"."""
    return key.replace("_", " ")


def jump_targets(div_seqs: list[int], div_kinds: list[str], milestones: list[dict[str, object]],
                 last: int, decisive: list[tuple[int, str]]) -> dict[int | None, str]:
    """The "Jump to" choices of Game review, ``{seq: label}`` in event order (``None``: the prompt):
    where the game was decided, every divergence, every event with milestones, the end."""
    found: dict[int, list[str]] = {}
    for s, text in decisive:
        found.setdefault(s, []).append(text)
    for s, k in zip(div_seqs, div_kinds):
        found.setdefault(s, []).append(f"divergence ({in_words(k)})")
    counts: dict[tuple[int, str], int] = {}
    for m in milestones:
        key = (int(str(m["seq"])), in_words(str(m["type"])))
        counts[key] = counts.get(key, 0) + 1
    for (s, kind), n in counts.items():
        found.setdefault(s, []).append(kind + (f" ×{n}" if n > 1 else ""))
    found.setdefault(last, []).append("the end")
    out: dict[int | None, str] = {None: "Jump to…"}
    for s in sorted(found):
        out[s] = f"event {s}: " + "; ".join(found[s])
    return out


OBSERVED_WORDS = {"legal_count": "legal moves", "state_hash": "state hash"}
"""The record-wide observation keys in words (a title's own keys read with spaces for underscores)."""


def describe_event(state: State, event: Event, names: dict[str, str] | None = None) -> str:
    """One event in words; ``state`` is the state just before it."""
    names = names or {}
    if isinstance(event, MoveEvent):
        try:
            text = state.describe_move(event.player, event.move)
        except Exception:  # a describer bug must not hide the step
            text = _plain_move_text(event)
        text = with_names(text, names)
        who = names.get(event.player)
        return f"{who} — {text}" if who and who not in text else text
    if isinstance(event, ChanceEvent):
        o = event.outcome
        if "draw" in o:
            items = ", ".join(map(str, o.get("items") or [])) or "nothing"
            deck = str(o["draw"]).replace("_", " ")
            return f"Chance: drawn from the {deck if deck.endswith('deck') else deck + ' deck'}: {items}"
        if "roll" in o:
            return "Chance: dice rolled " + ", ".join(map(str, o["roll"]))
        if "choose" in o:
            return f"Chance: random {str(o['choose']).replace('_', ' ')}: {o.get('value')}"
        return "Chance: " + orjson.dumps(o).decode()
    assert isinstance(event, ObserveEvent)
    parts = []
    for k, v in event.facts.items():
        what = OBSERVED_WORDS.get(k, k.replace("_", " "))
        if isinstance(v, dict):
            parts.append(f"{what} " + ", ".join(f"{names.get(p, p)} {x}" for p, x in v.items()))
        else:
            parts.append(f"{what} {v}")
    origin = f" ({event.origin})" if event.origin else ""
    return f"The record notes{origin}: " + "; ".join(parts)


def _plain_move_text(event: MoveEvent) -> str:
    d = event.move.to_dict()
    fields = ", ".join(f"{k}={v}" for k, v in d.items() if k != "type")
    return f"{event.player}: {d.get('type')}" + (f" ({fields})" if fields else "")


@dataclass
class Step:
    """What the viewer shows at one step."""

    seq: int
    kind: str
    actor: str | None
    words: str
    snapshot: dict[str, Any]
    score: dict[str, dict[str, int]]
    round: int | None
    phase: str
    turn: str
    stopped_at: int | None = None
    stop_reason: str | None = None
    milestones: list[dict[str, Any]] = field(default_factory=list)


class Stepper:
    """Replays one record to any step, fast, by keeping periodic state copies."""

    def __init__(self, record: Record) -> None:
        try:
            self.game = get_game(record.game)
        except UnknownGame as exc:
            raise ReviewError(f"no rules engine for {record.game!r}: {exc}") from None
        self.record = record
        self.names = {str(p["id"]): str(p.get("name") or p["id"]) for p in record.players}
        self.stopped_at: int | None = None
        self.stop_reason: str | None = None
        self._marks: list[int] = []  # seq of the last event applied in each checkpoint (-1: initial)
        self._states: list[State] = []
        self._build()

    def __len__(self) -> int:
        return len(self.record.events)

    def _initial(self) -> State:
        return self.game.initial_state(self.record.player_ids, self.record.options)

    def _build(self) -> None:
        loop = Loop(self._initial(), (_Checkpoints(self._marks, self._states),))
        refused = loop.run(self.record.events)
        if refused is not None:
            self.stopped_at, self.stop_reason = loop.seq, f"{refused.kind}: {refused}"
        self.milestones: list[dict[str, Any]] = list(loop.state.milestones)
        """Every milestone of the game (up to where the rules stopped), in order."""

    def state_before(self, seq: int) -> State:
        """A fresh state with every event before ``seq`` applied (up to where the rules stopped)."""
        target = seq - 1
        if self.stopped_at is not None:
            target = min(target, self.stopped_at - 1)
        i = bisect.bisect_right(self._marks, target) - 1
        state = self._states[i].copy()
        start = self._marks[i] + 1
        Loop(state, seq=start).run(self.record.events[start:target + 1])  # none refused before stopped_at
        return state

    def step(self, seq: int) -> Step:
        """The board, scores and the event in words right after event ``seq``."""
        n = len(self.record.events)
        if not 0 <= seq < n:
            raise IndexError(f"step {seq} is outside 0..{n - 1}")
        state = self.state_before(seq)
        event = self.record.events[seq]
        words = describe_event(state, event, self.names)
        stopped = self.stopped_at is not None and seq >= self.stopped_at
        if not stopped:
            Loop(state, seq=seq).run((event,))
        rnd, phase = state.phase()
        turn = state.turn()
        if stopped:
            # the board stays as it was before the refused event: nobody moves on from it
            turn_text = f"nothing: the rules stopped the replay at event {self.stopped_at}"
        elif isinstance(turn, str):
            turn_text = f"{self.names.get(turn, turn)} ({turn}) to move"
        elif state.is_over():
            turn_text = "game over"
        else:
            turn_text = "awaiting " + turn.describe()  # type: ignore[union-attr]
        return Step(
            seq=seq,
            kind=event.kind,
            actor=event.player if isinstance(event, MoveEvent) else None,
            words=words,
            snapshot=state.snapshot(),
            score=state.score(),
            round=rnd,
            phase=phase,
            turn=turn_text,
            stopped_at=self.stopped_at if stopped else None,
            stop_reason=self.stop_reason if stopped else None,
            milestones=[m for m in state.milestones if m.get("seq") == seq],
        )


def bga_table(record: Record) -> dict[str, Any] | None:
    """Where an imported Board Game Arena game comes from: table id, its link, the viewer, the version.

    ``None`` unless the record's ``source.kind`` is ``bga``.  ``viewer_name`` is the
    viewer's BGA name (from the source, else from the players), ``None`` when unknown.  ``notes``:
    what the log left open and the import settled, in words (``source.notes``; usually none).
    """
    src = record.source if isinstance(record.source, dict) else {}
    if src.get("kind") != "bga":
        return None
    table_id = src.get("table_id")
    viewer = src.get("viewer")
    name = src.get("viewer_name")
    if name is None and viewer is not None:
        name = next((p.get("name") for p in record.players if str(p.get("id")) == str(viewer)), None)
    url = src.get("url") or (f"https://boardgamearena.com/table?table={table_id}" if table_id is not None else None)
    notes = src.get("notes")
    return {"table_id": table_id, "url": url, "viewer": viewer, "viewer_name": name, "version": src.get("version"),
            "notes": [str(n) for n in notes] if isinstance(notes, list) else []}
