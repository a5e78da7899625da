"""Coal Baron in the dashboard (:mod:`dashboard.titles`), its shift rankings page, strategy figures and
board view: each player's pit (levels from yellow at the top to black at the bottom, with
their tunnel tiles, carts and coal), the cage and its level, the storage and the outstanding
orders; the shared board's workers, factory tiles and order cards."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import charts, data, ui
from dashboard.boards import chip, esc, player_label

COAL = {"yellow": "#f1c40f", "brown": "#8d5524", "grey": "#95a5a6", "black": "#222222"}
CAGE = '<span class="gr-chip" style="background:#555;color:#fff" title="the cage is here">cage</span>'
FG = {"yellow": "#000", "brown": "#fff", "grey": "#000", "black": "#fff"}


def _coal(counts: dict[str, int] | None, empty: str = "—") -> str:
    parts = [chip(n, COAL.get(c, "#ccc"), FG.get(c, "#000"), f"{n} {c}") for c, n in (counts or {}).items() if n]
    return " ".join(parts) or f'<span class="gr-muted">{empty}</span>'


def _pit(p: dict[str, Any]) -> str:
    cage = p.get("cage") or {}
    level_of_cage = cage.get("level")
    rows = []
    for level, lv in sorted((p.get("pit") or {}).items(), key=lambda kv: int(kv[0])):
        colour = str(lv.get("colour"))
        carts = int(lv.get("carts") or 0)
        empty = int(lv.get("empty_carts") or 0)
        tiles = len(lv.get("light") or []) + len(lv.get("dark") or [])
        cage_here = CAGE if str(level_of_cage) == str(level) else ""
        rows.append(
            f'<tr><td style="border-left:6px solid {COAL.get(colour, "#ccc")}">{esc(level)} {esc(colour)}</td>'
            f'<td>{cage_here}</td><td>{tiles} tunnel{"s" if tiles != 1 else ""} · {carts} cart{"s" if carts != 1 else ""}'
            f' ({empty} empty)</td><td>{_coal(lv.get("coal"))}</td></tr>'
        )
    at_top = CAGE if level_of_cage in (0, "0", None) else ""
    head = (f'<tr><td class="gr-muted">surface</td><td>{at_top}</td><td>cage holds</td>'
            f'<td>{_coal(cage.get("coal"), "empty")}</td></tr>')
    return f'<table>{head}{"".join(rows)}</table>'


def _order_spaces(order: dict[str, Any]) -> list[tuple[str, bool]]:
    """``(coal colour needed, filled)`` per space of an order card (either snapshot shape:
    ``spaces: [{needs, coal}]`` or parallel ``needs`` / ``coal`` lists)."""
    if "spaces" in order:
        return [(str(sp.get("needs")), bool(sp.get("coal"))) for sp in order.get("spaces") or []]
    needs = order.get("needs") or []
    coal = order.get("coal") or [[] for _ in needs]
    return [(str(n), bool(c)) for n, c in zip(needs, coal)]


def _orders(p: dict[str, Any]) -> str:
    items = []
    for o in p.get("outstanding") or []:
        spaces = " ".join(
            chip("filled" if full else "needs", COAL.get(need, "#ccc"), FG.get(need, "#000"),
                 f"needs {need}" + (" (filled)" if full else ""))
            for need, full in _order_spaces(o))
        items.append(f'<div>{esc(o.get("card"))} · {esc(o.get("transport"))} · {esc(o.get("vp"))} VP {spaces}</div>')
    delivered = p.get("delivered") or []
    items.append(f'<div class="gr-muted">delivered: {len(delivered)}</div>')
    return "".join(items)


def _aside(aside: dict[str, list[str | None]]) -> str:
    """The items a player who left the table left aside at a draw-five (the next one of that deck
    shows them again); unknown ones as ``?``."""
    parts = [f"{len(items)} {what} ({', '.join('?' if i is None else i for i in items)})"
             for what, items in (("tunnel tiles", aside.get("tiles") or []), ("order cards", aside.get("orders") or []))
             if items]
    return f'<div><b>Left aside</b> at a draw-five: {esc("; ".join(parts))}</div>' if parts else ""


def board_html(snapshot: dict[str, Any], names: dict[str, str]) -> str:
    players = snapshot.get("players") or {}
    board = snapshot.get("board") or {}
    to_move = snapshot.get("turn")
    shift = snapshot.get("shift", "?")
    # shifts count from 1; the setup (drafting the first orders) comes before the first shift
    when = "Before the first shift" if shift == 0 else f"Shift {esc(shift)}"
    head = (f'<div class="gr-box">{when} · {esc(snapshot.get("phase", ""))}'
            f' · start player {esc(player_label(str(snapshot.get("start_player")), names))}'
            f' · supply {_coal(snapshot.get("supply"))}</div>')
    workers = []
    for space, who in sorted((board.get("workers") or {}).items()):
        crew = ", ".join(f"{player_label(p, names)} ×{n}" for p, n in who.items() if n)
        if crew:
            workers.append(f"<tr><td>{esc(space.replace('_', ' '))}</td><td>{esc(crew)}</td></tr>")
    face_down = set(board.get("face_down") or ())  # lying there, but unknown to the record
    factory = ", ".join(f"{esc(k.replace('factory_', ''))}: {esc('face down' if k in face_down else v)}"
                        for k, v in sorted((board.get("factory") or {}).items()) if v is not None or k in face_down)
    orders = ", ".join(f"{esc(k.replace('order_', ''))}: {esc('face down' if k in face_down else v)}"
                       for k, v in sorted((board.get("orders") or {}).items()) if v is not None or k in face_down)
    shared = (f'<div class="gr-box"><b>Workers on the board</b><table>{"".join(workers) or "<tr><td>none</td></tr>"}'
              f'</table><div><b>Factory</b> {factory or "empty"}</div><div><b>Orders</b> {orders or "none"}</div>'
              f'{_aside(snapshot.get("aside") or {})}</div>')
    boxes = []
    for pid, p in players.items():
        marker = " ◀ to move" if pid == to_move else ""
        total = sum((p.get("score") or {}).values())
        boxes.append(
            f'<div class="gr-box"><h4>{esc(player_label(pid, names))} — {total} pts'
            f'<span class="gr-muted">{esc(marker)}</span></h4>'
            f'<div>{esc(p.get("francs", 0))} francs · {esc(p.get("workers", 0))} workers · '
            f'canteen {esc(p.get("canteen", 0))}</div>'
            f'{_pit(p)}<div><b>storage</b> {_coal(p.get("storage"), "empty")}</div>'
            f'<div><b>orders</b>{_orders(p)}</div></div>'
        )
    return head + f'<div class="gr-row" style="margin-top:8px">{shared}{"".join(boxes)}</div>'


def resources(snapshot: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for pid, p in (snapshot.get("players") or {}).items():
        pit = p.get("pit") or {}
        mined: dict[str, int] = {}
        for lv in pit.values():
            for c, n in (lv.get("coal") or {}).items():
                mined[c] = mined.get(c, 0) + n
        out.append({
            "player": player_label(pid, names),
            "francs": p.get("francs", 0),
            "workers": p.get("workers", 0),
            "coal in pit": ", ".join(f"{n} {c}" for c, n in mined.items() if n) or "—",
            "storage": ", ".join(f"{n} {c}" for c, n in (p.get("storage") or {}).items() if n) or "—",
            "cage level": (p.get("cage") or {}).get("level", 0),
            "open orders": len(p.get("outstanding") or []),
            "delivered": len(p.get("delivered") or []),
        })
    return out


def strategy_figures() -> None:
    """On the Strategy page, after the figures every title has: shift scoring by category: what winners score in the shift rankings against the others."""
    deciders = data.q("shift_deciders")
    if deciders.height:
        st.subheader("Shift scoring by category")
        ui.dataframe(ui.as_percent(charts.readable(deciders.drop("total_games"), "category"), "winner_first_rate"),
                     hide_index=True, column_config={
            "winner_points": st.column_config.NumberColumn("winners' shift points", format="%.2f"),
            "other_points": st.column_config.NumberColumn("others' shift points", format="%.2f"),
            "gap": st.column_config.NumberColumn("difference", format="%+.2f"),
            "winner_first_rate": ui.percent_column("winner ranked 1st"),
            "games": st.column_config.NumberColumn("games behind it")})


PAGES = [("views/coal_baron.py", "Coal Baron shift rankings", ":material/landscape:", "shifts")]
