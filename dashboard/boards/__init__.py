"""Board views: a game's ``State.snapshot()`` drawn the way a player would recognise it.

Each title's module ``dashboard/titles/<game_id>.py`` (:mod:`dashboard.titles`) has two plain
functions, drawn with the helpers here:

* ``board_html(snapshot, names) -> str`` — the board as self-contained HTML;
* ``resources(snapshot, names) -> list[dict]`` — one row per player (what they
  hold: money, cubes, cards in hand...), in seat order.

:func:`render` picks the module and falls back to a generic view (every
per-player value found in the snapshot) for titles without one.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import polars as pl

from dashboard.titles import title_module

STYLE = """
<style>
.gr-board { font-family: system-ui, sans-serif; font-size: 13px; color: #222; }
.gr-board h4 { margin: 6px 0 4px 0; font-size: 14px; }
.gr-board .gr-row { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
.gr-board .gr-box { border: 1px solid #ccc; border-radius: 6px; padding: 6px 8px; background: #fafafa; }
.gr-board .gr-muted { color: #777; }
.gr-board table { border-collapse: collapse; }
.gr-board td, .gr-board th { padding: 2px 6px; text-align: left; }
.gr-chip { display: inline-block; padding: 1px 6px; margin: 1px; border-radius: 9px; font-size: 12px;
           border: 1px solid rgba(0,0,0,.2); }
</style>
"""


@dataclass
class BoardView:
    html: str | None
    """The board as HTML (None: no drawing for this title)."""
    resources: list[dict[str, Any]]
    """One row per player."""
    error: str | None = None
    """Why the drawing failed, if it did (the generic view is shown instead)."""


def esc(value: Any) -> str:
    """HTML-escaped text of any value."""
    return html.escape(str(value))


def chip(text: Any, colour: str = "#eee", fg: str = "#111", title: str | None = None) -> str:
    tip = f' title="{esc(title)}"' if title else ""
    return f'<span class="gr-chip" style="background:{colour};color:{fg}"{tip}>{esc(text)}</span>'


def player_label(pid: str, names: dict[str, str]) -> str:
    name = names.get(pid)
    return f"{name} ({pid})" if name and name != pid else pid


def render(game_id: str, snapshot: dict[str, Any], names: dict[str, str]) -> BoardView:
    """The board view of ``snapshot`` for ``game_id`` (generic if the title has none)."""
    module = title_module(game_id)
    if module is None or not hasattr(module, "board_html"):
        return BoardView(None, generic_resources(snapshot, names))
    try:
        body = module.board_html(snapshot, names)
        res = module.resources(snapshot, names)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return BoardView(None, generic_resources(snapshot, names), f"{type(exc).__name__}: {exc}")
    return BoardView(STYLE + f'<div class="gr-board">{left_banner(snapshot, names)}{body}</div>', res)


def left_banner(snapshot: dict[str, Any], names: dict[str, str]) -> str:
    """Who has left the table by this position (snapshot ``left``: BGA's zombies), every title alike."""
    left = snapshot.get("left") or []
    if not left:
        return ""
    who = ", ".join(player_label(str(p), names) for p in left)
    return (f'<div class="gr-box" style="margin-bottom:6px">Left the table: {esc(who)}; '
            "Board Game Arena plays their turns from then on</div>")


def _scalar(v: Any) -> Any:
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return len(v)
    if isinstance(v, dict):
        if _numeric_map(v):
            return ", ".join(f"{k} {x}" for k, x in v.items() if x) or "—"
        return len(v)
    return str(v)


def generic_resources(snapshot: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """Every per-player value of a snapshot: ``players`` entries, and top-level maps keyed by player."""
    pids = list(names)
    rows: dict[str, dict[str, Any]] = {p: {"player": player_label(p, names)} for p in pids}
    players = snapshot.get("players")
    if isinstance(players, dict):
        for pid, d in players.items():
            if pid in rows and isinstance(d, dict):
                for k, v in d.items():
                    rows[pid][k] = _scalar(v)
    elif isinstance(players, list):
        for i, d in enumerate(players):
            if not isinstance(d, dict):
                continue
            pid = str(d.get("id", d.get("player_id", pids[i] if i < len(pids) else i)))
            if pid in rows:
                for k, v in d.items():
                    if k not in ("id", "player_id"):
                        rows[pid][k] = _scalar(v)
    for key, value in snapshot.items():
        if key == "players" or not isinstance(value, dict) or not value:
            continue
        if set(value) <= set(pids):
            for pid, v in value.items():
                if isinstance(v, dict) and not _numeric_map(v):
                    # a per-player record under another name: its fields, one column each
                    for k, x in v.items():
                        rows[pid].setdefault(k, _scalar(x))
                else:
                    rows[pid][key] = _scalar(v)
    return [rows[p] for p in pids]


def _numeric_map(v: dict[str, Any]) -> bool:
    return all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v.values())


def resources_table(rows: list[dict[str, Any]], scores: list[int] | None = None) -> pl.DataFrame:
    """The players' resources as one table, resources down and players across (a column per player,
    headed by the row's ``player``): as wide as the number of players, so a title with many resources
    (Praga) never runs off the page.  Values are shown as text where a resource's values mix types."""
    if not rows:
        return pl.DataFrame()
    keys: list[str] = []
    for r in rows:
        for k in r:
            if k != "player" and k not in keys:
                keys.append(k)
    if scores is not None:
        keys.insert(0, "score")
        rows = [{**r, "score": s} for r, s in zip(rows, scores)]
    data: dict[str, list[Any]] = {"resource": [k.replace("_", " ") for k in keys]}
    for i, r in enumerate(rows):
        data[str(r.get("player", i + 1))] = [None if r.get(k) is None else str(r.get(k)) for k in keys]
    return pl.DataFrame(data, schema={c: pl.String for c in data})
