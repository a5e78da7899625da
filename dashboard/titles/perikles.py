"""Perikles in the dashboard (:mod:`dashboard.titles`), its strategy figures and its board view: the six city-states (each player's influence cubes, the candidates, the leader, the
statues, the defeats), their armies, the locations at stake this round, and each player's hand."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analytics.titles.perikles import card_labels
from dashboard import data, ui
from dashboard.boards import chip, esc, player_label


def label(key: Any) -> str:
    """A location or special tile by its printed name (``megarabattle`` -> ``Megara (battle)``)."""
    return str(card_labels().get(str(key), {}).get("name") or str(key).title())

CITY_COLOURS = {"athens": "#2e86c1", "sparta": "#c0392b", "argos": "#8e44ad", "corinth": "#d4a017",
                "thebes": "#27ae60", "megara": "#e67e22", "persia": "#5d6d7e"}
PLAYER_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]


def _units_by_power(units: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per power: hoplites and triremes (by strength) still available, deployed and dead."""
    out: dict[str, dict[str, int]] = {}
    for u in units.values():
        power = str(u.get("power"))
        where = str(u.get("at"))
        key = "dead" if where == "dead" else ("available" if where == "stack" else "deployed")
        d = out.setdefault(power, {"available": 0, "deployed": 0, "dead": 0, "strength": 0})
        d[key] += 1
        if key != "dead":
            d["strength"] += int(u.get("strength") or 0)
    return out


def board_html(snapshot: dict[str, Any], names: dict[str, str]) -> str:
    cities = snapshot.get("cities") or {}
    players = list(names)
    colours = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(players)}
    armies = _units_by_power(snapshot.get("units") or {})
    to_move = snapshot.get("to_move")
    head = (f'<div class="gr-box">Round {esc(snapshot.get("round", "?"))} · {esc(snapshot.get("phase", ""))}'
            + (f" · {esc(player_label(str(to_move), names))} to move" if to_move else "")
            + (" · the game is over" if snapshot.get("over") else "") + "</div>")
    boxes = []
    for city, c in cities.items():
        cubes = c.get("cubes") or {}
        most = max(cubes.values()) if cubes else 0
        bars = []
        for p in players:
            n = int(cubes.get(p, 0))
            width = 0 if most == 0 else int(100 * n / most)
            bars.append(
                f'<tr><td>{esc(names.get(p, p))}</td><td style="width:110px"><div style="background:{colours[p]};'
                f'height:10px;width:{width}%"></div></td><td>{n}</td>'
                f'<td>{"★" * int((c.get("statues") or {}).get(p, 0))}</td></tr>')
        roles = []
        for role in ("alpha", "beta", "leader"):
            who = c.get(role)
            if who:
                roles.append(f"{role} {esc(names.get(who, who))}")
        army = armies.get(city, {})
        boxes.append(
            f'<div class="gr-box" style="border-top:6px solid {CITY_COLOURS.get(city, "#999")};min-width:230px">'
            f'<h4>{esc(city.title())}</h4>'
            f'<div class="gr-muted">{" · ".join(roles) or "no candidates"} · defeats {esc(c.get("defeats", 0))}'
            f' · statue worth {esc(c.get("statue_value", "?"))}</div>'
            f'<table>{"".join(bars)}</table>'
            f'<div class="gr-muted">army: {army.get("available", 0)} ready, {army.get("deployed", 0)} deployed, '
            f'{army.get("dead", 0)} lost</div></div>'
        )
    slots = (snapshot.get("locations") or {}).get("slots") or []
    claimed = (snapshot.get("locations") or {}).get("claimed") or {}
    won_by = {str(loc): pid for pid, locs in claimed.items() for loc in (locs or [])}

    def outcome(slot: dict[str, Any]) -> str:
        who = won_by.get(str(slot.get("key")))
        if who is not None:
            return f"won by {esc(player_label(who, names))}"
        return "resolved, won by nobody" if slot.get("resolved") else ""

    loc_rows = "".join(
        f'<tr><td>{esc(s.get("slot"))}</td><td>{esc(label(s.get("key")))}</td>'
        f'<td>{chip(s.get("owner"), CITY_COLOURS.get(str(s.get("owner")), "#999"), "#fff")}</td>'
        f'<td>{esc(s.get("vp"))} VP</td><td>{outcome(s)}</td></tr>'
        for s in slots)
    locations = (f'<div class="gr-box"><b>Locations at stake</b><table>{loc_rows or "<tr><td>none</td></tr>"}'
                 f'</table></div>')
    persia = (snapshot.get("persia") or {}).get("leaders") or []
    extra = f'<div class="gr-box"><b>Persia</b> led by {esc(", ".join(map(str, persia)))}</div>' if persia else ""
    return head + f'<div class="gr-row" style="margin-top:6px">{"".join(boxes)}{locations}{extra}</div>'


def resources(snapshot: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    cities = snapshot.get("cities") or {}
    hands = (snapshot.get("influence") or {}).get("hands") or {}
    claimed = (snapshot.get("locations") or {}).get("claimed") or {}
    specials = snapshot.get("specials") or {}
    face_down = (snapshot.get("military") or {}).get("face_down") or []
    out = []
    for pid in names:
        led = [c for c, d in cities.items() if d.get("leader") == pid]
        special = specials.get(pid) or {}
        out.append({
            "player": player_label(pid, names),
            "cubes": sum(int((d.get("cubes") or {}).get(pid, 0)) for d in cities.values()),
            "statues": sum(int((d.get("statues") or {}).get(pid, 0)) for d in cities.values()),
            "leads": ", ".join(led) or "—",
            "influence tiles": len(hands.get(pid) or []),
            "locations won": len(claimed.get(pid) or []),
            "special": (f"{'secret' if special.get('tile') == '?' else label(special.get('tile'))} "
                        f"({'used' if special.get('used') else 'unused'})" if special else "—"),
            "units face down": sum(1 for f in face_down if f.get("holder") == pid),
        })
    return out


def strategy_figures() -> None:
    """On the Strategy page, after the figures every title has: the elections won, by city."""
    elections = data.q("perikles_elections_summary")
    if elections.height:
        st.subheader("Elections won")
        ui.dataframe(elections, hide_index=True)
