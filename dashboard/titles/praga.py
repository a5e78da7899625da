"""Praga Caput Regni in the dashboard (:mod:`dashboard.titles`), its board view: the crane's wheel (which action tile hangs at which position and what it
costs), the tile display, the city and the bridge, and each player's mines, quarries, resources,
the Hunger Wall and Cathedral markers, technologies and points by category."""

from __future__ import annotations

from typing import Any

from dashboard.boards import chip, esc, player_label

SPECIAL_SLOT = 3  # the rightmost display slot holds the special tile
ZONES = {"red": "#c0392b", "green": "#27ae60", "blue": "#2e86c1"}
PLAYER_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"]
RESOURCES = (("gold", "gold"), ("stone", "stone"), ("silver", "silver"), ("eggs", "eggs"),
             ("mines", "mines"), ("quarries", "quarries"), ("tech", "technology track"),
             ("uni", "university"), ("cubes", "cubes"), ("road", "King's Road"))


def _crane(snapshot: dict[str, Any]) -> str:
    rows = []
    nth: dict[str, int] = {}
    for pos in snapshot.get("crane_view") or []:
        zone = str(pos.get("zone"))
        nth[zone] = nth.get(zone, 0) + 1  # spaces as a player names them: red 1-4, green 1-3, blue 1-3
        actions = " + ".join(str(a).replace("_", " ") for a in pos.get("actions") or [])
        rows.append(
            f'<tr><td>{chip(f"{zone} {nth[zone]}", ZONES.get(zone, "#999"), "#fff")}</td>'
            f'<td>{esc(pos.get("notch"))}</td>'
            f'<td>{esc(pos.get("tile") or "—")}</td><td>{esc(actions)}</td>'
            f'<td>{"5 VP" if pos.get("five_points") else ""}</td></tr>')
    head = "<tr><th>space</th><th>notch</th><th>tile</th><th>actions</th><th></th></tr>"
    return f'<div class="gr-box"><b>Crane</b><table>{head}{"".join(rows)}</table></div>'


def _display(snapshot: dict[str, Any]) -> str:
    def slot(i: int, tile: str | None) -> str:
        label = f"{i + 1}{' special' if i == SPECIAL_SLOT else ''}: {tile or 'empty'}"
        return chip(label, "#eee")

    rows = "".join(
        f"<tr><td>{esc(row)}</td><td>{' '.join(slot(i, t) for i, t in enumerate(slots))}</td></tr>"
        for row, slots in (snapshot.get("display") or {}).items())
    return f'<div class="gr-box"><b>Tile display</b> (slots 1–3, the 4th special)<table>{rows}</table></div>'


def _city(snapshot: dict[str, Any], names: dict[str, str], colours: dict[str, str]) -> str:
    city = snapshot.get("city") or {}
    built = city.get("built") or {}
    by_owner: dict[str, int] = {}
    for b in built.values():
        owner = b.get("owner") or "—"
        by_owner[owner] = by_owner.get(owner, 0) + 1
    owners = " ".join(chip(f"{names.get(o, o) if o != '—' else 'unowned'} {n}", colours.get(o, "#bbb"), "#fff")
                      for o, n in sorted(by_owner.items()))
    planks = (snapshot.get("bridge") or {}).get("planks") or {}
    laid = sum(1 for v in planks.values() if v)
    completed = city.get("completed") or []
    return (f'<div class="gr-box"><b>City</b> {len(built)} buildings: {owners or "none"}'
            f'<br>plazas completed: {len(completed)} · bridge planks laid: {laid} of {len(planks)}</div>')


def _grid_place(marker: dict[str, Any]) -> str:
    """A Hunger Wall or Cathedral marker: its row (1 at the bottom, as the scoring table counts them)
    and its column counted from 1 at the left."""
    row, col = marker.get("row"), marker.get("col")
    if not isinstance(row, int) or not isinstance(col, int):
        return "?"
    return f"row {row + 1}, column {col + 1}"


def board_html(snapshot: dict[str, Any], names: dict[str, str]) -> str:
    players = snapshot.get("p") or {}
    colours = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(players)}
    to_move = snapshot.get("to_move")
    head = (f'<div class="gr-box">Era {esc(snapshot.get("era", "?"))} · round {esc(snapshot.get("round", "?"))}'
            f' · {esc(snapshot.get("turns", "?"))} turns played'
            + (f" · {esc(player_label(str(to_move), names))} to move" if to_move else "")
            + (" · the game is over" if snapshot.get("over") else "") + "</div>")
    boxes = []
    for pid, p in players.items():
        vp = p.get("vp") or {}
        total = sum(v for v in vp.values() if isinstance(v, (int, float)))
        res = " · ".join(f"{esc(label)} {esc(p.get(key, 0))}" for key, label in RESOURCES)
        hunger = p.get("hunger_wall") or {}
        cathedral = p.get("cathedral") or {}
        upgrades = sum(len(v) for v in (p.get("upgrades") or {}).values())
        points = " ".join(chip(f"{k.replace('_', ' ')} {v}", "#f4f1e8", "#111")
                          for k, v in vp.items() if v)
        techs = ", ".join(sorted(p.get("techs") or {})) or "none"
        boxes.append(
            f'<div class="gr-box" style="border-left:6px solid {colours[pid]};max-width:420px">'
            f'<h4>{esc(player_label(pid, names))} — {esc(total)} pts'
            f'<span class="gr-muted">{" ◀ to move" if pid == to_move else ""}</span></h4>'
            f'<div>{res}</div>'
            f'<div>Hunger Wall {_grid_place(hunger)} · Cathedral {_grid_place(cathedral)}</div>'
            f'<div>{upgrades} upgrade tiles · {len(p.get("walls") or {})} wall tiles · technologies: {esc(techs)}</div>'
            f'<div>points: {points or "<span class=gr-muted>none yet</span>"}</div></div>'
        )
    return (head + f'<div class="gr-row" style="margin-top:6px">{_crane(snapshot)}{_display(snapshot)}'
            f'{_city(snapshot, names, colours)}</div>'
            f'<div class="gr-row" style="margin-top:6px">{"".join(boxes)}</div>')


def resources(snapshot: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    players = snapshot.get("p") or {}
    out = []
    for pid in names:
        p = players.get(pid) or {}
        row: dict[str, Any] = {"player": player_label(pid, names)}
        for key, label in RESOURCES:
            row[label] = p.get(key, 0)
        row["technologies"] = len(p.get("techs") or {})
        row["walls"] = len(p.get("walls") or {})
        out.append(row)
    return out


STAND_IN_NOTE = (":material/warning: Praga Caput Regni's printed component contents (action-tile pairs, "
                 "hex tiles, city map, grids, bridge) are not public: the engine uses documented stand-in "
                 "values, so Praga scores here do not match real games (docs/games/praga.md).")
TILES_NOTE = ("Praga's hex tiles are named by catalogue id (UI-10: upgrade tile, Era I, no. 10; W wall, "
              "B building; UII/WII/BII Era II): no public source prints their contents, so there is no "
              "printed name to show.")
