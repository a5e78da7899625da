"""Copenhagen in the dashboard (:mod:`dashboard.titles`), its strategy figures and its board view:
each player's facade as a grid of coloured cells (street level at the bottom),
windows drawn as panes, plus the harbour, the hand and the scoring so far.

A record seen from one seat (a BGA log) does not know the other players' cards: the snapshot
counts them under ``"?"`` in a hand, and writes ``"?"`` for a harbour card it does not name.
They are drawn as face-down cards with their count, never as a guessed colour.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import charts, data, ui
from dashboard.boards import chip, esc, player_label

COLOURS = {
    "red": "#c0392b", "yellow": "#f1c40f", "green": "#27ae60", "blue": "#2e86c1", "purple": "#8e44ad",
    "white": "#f4f1e8",
}
CELL = 26
UNKNOWN = "?"
BACK = "#4a4a5a"  # the back of a facade card


def face_down(n: int, title: str) -> str:
    """``n`` cards whose colour the record does not show: a face-down card with the count."""
    return chip(f"▮ {n} face down" if n != 1 else "▮ face down", BACK, "#fff", title)


def hand_html(hand: dict[str, int]) -> str:
    chips = [chip(f"{n}", COLOURS.get(c, "#ccc"), "#000" if c in ("yellow", "white") else "#fff", f"{n} {c}")
             for c, n in hand.items() if n and c != UNKNOWN]
    if hand.get(UNKNOWN):
        n = hand[UNKNOWN]
        chips.append(face_down(n, f"{n} card{'s' if n != 1 else ''} of a colour this record does not show"))
    return " ".join(chips) or "<span class=gr-muted>empty</span>"


def hand_text(hand: dict[str, int]) -> str:
    parts = [f"{n} {c}" for c, n in hand.items() if n and c != UNKNOWN]
    if hand.get(UNKNOWN):
        parts.append(f"{hand[UNKNOWN]} face down")
    return ", ".join(parts) or "—"


def _slot(card: str | None) -> str:
    if card == UNKNOWN:
        return face_down(1, "a face-up card this record does not name")
    if not card:
        return chip("empty", "#fff", "#999", "an empty slot")
    return chip(card, COLOURS.get(str(card), "#ccc"), "#000" if card in ("yellow", "white") else "#fff")


def _cell(cell: dict[str, Any] | None) -> str:
    if not cell:
        return f'<td style="width:{CELL}px;height:{CELL}px;border:1px dashed #ddd"></td>'
    colour = COLOURS.get(str(cell.get("color")), "#bbb")
    window = ""
    if cell.get("window"):
        window = ('<div style="width:12px;height:12px;margin:auto;background:#dff3ff;'
                  'border:2px solid #333;box-sizing:border-box"></div>')
    tip = f"{cell.get('color')}{' with a window' if cell.get('window') else ''}"
    return (f'<td title="{esc(tip)}" style="width:{CELL}px;height:{CELL}px;background:{colour};'
            f'border:1px solid #555;vertical-align:middle">{window}</td>')


def facade_html(board: list[list[dict[str, Any] | None]]) -> str:
    """One facade, ``board[row][column]`` with row 0 at street level (drawn at the bottom).

    The axes count as a player does and as the event in words and every rules message quote:
    columns from 1 at the left, rows from 1 at street level ("builds ... at column 3, row 1" is
    the record's ``x`` 2, ``y`` 0).
    """
    rows = []
    for y in range(len(board) - 1, -1, -1):
        cells = "".join(_cell(c) for c in board[y])
        rows.append(f'<tr><th class="gr-muted" style="font-size:10px" title="row (1 = street level)">{y + 1}</th>{cells}</tr>')
    width = len(board[0]) if board else 0
    foot = "".join(f'<th class="gr-muted" style="font-size:10px;text-align:center" title="column">{x + 1}</th>'
                   for x in range(width))
    return (f'<table style="border-spacing:1px;border-collapse:separate">{"".join(rows)}'
            f'<tr><th class="gr-muted" style="font-size:9px" title="row / column">r\\c</th>{foot}</tr></table>')


def board_html(snapshot: dict[str, Any], names: dict[str, str]) -> str:
    players = snapshot.get("players", {})
    turn = snapshot.get("turn") or {}
    over = turn.get("step") == "over"
    to_move = None if over else turn.get("player")  # at the end nobody is to move
    boxes = []
    for pid, p in players.items():
        marker = " ◀ to move" if pid == to_move else ""
        hand = hand_html(p.get("hand") or {})
        boxes.append(
            f'<div class="gr-box"><h4>{esc(player_label(pid, names))} — {esc(p.get("total", 0))} pts'
            f'<span class="gr-muted">{esc(marker)}</span></h4>'
            f'{facade_html(p.get("board") or [])}'
            f'<div style="margin-top:4px">hand: {hand}</div></div>'
        )
    harbour = " ".join(_slot(c) for c in snapshot.get("harbour") or [])
    mermaid = snapshot.get("mermaid")
    info = (f'<div class="gr-box"><b>Harbour</b> (slots 1–{len(snapshot.get("harbour") or [])}): {harbour}'
            f'<br><span class="gr-muted">deck {esc(snapshot.get("deck_size", "?"))} cards'
            + (f" · mermaid {esc(mermaid)}" if mermaid else "")
            + (" · the game is over" if over else "")
            + "</span></div>")
    return info + f'<div class="gr-row" style="margin-top:8px">{"".join(boxes)}</div>'


def resources(snapshot: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for pid, p in (snapshot.get("players") or {}).items():
        hand = p.get("hand") or {}
        board = p.get("board") or []
        cells = [c for row in board for c in row if c]
        out.append({
            "player": player_label(pid, names),
            "cards in hand": sum(hand.values()),
            "hand": hand_text(hand),
            "cells filled": len(cells),
            "windows": sum(1 for c in cells if c.get("window")),
            "abilities": ", ".join(f"{k.replace('_', ' ')} ({v})" for k, v in (p.get("abilities") or {}).items())
            or "—",
        })
    return out


def strategy_figures() -> None:
    """On the Strategy page, after the figures every title has: facade rows against columns: how many each player completes and what they score."""
    lines = data.q("copenhagen_lines")
    if lines.height:
        st.subheader("Rows against columns")
        st.altair_chart(charts.copenhagen_lines(lines), width="stretch")
        ui.dataframe(ui.as_percent(lines, "all_windows_share"), hide_index=True, column_config={
            "per_player": st.column_config.NumberColumn("completed per player", format="%.2f"),
            "points_per_player": st.column_config.NumberColumn("their points per player", format="%.2f"),
            "all_windows_share": ui.percent_column("with all windows"),
            "games": st.column_config.NumberColumn("games behind it")})
