"""Pax Pamir in the dashboard (:mod:`dashboard.titles`), its dominance checks page, strategy figures and
board view: the map of Afghanistan (six regions with their armies, tribes and ruler; roads on the
borders), each player's court, hand and loyalty, and the two-row market."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analytics.titles.pax_pamir import card_labels
from dashboard import charts, data, ui
from dashboard.boards import chip, esc, player_label

COALITIONS = {"afghan": "#4c8c4a", "british": "#c0392b", "russian": "#d4a017"}
SUITS = {"economic": "#27ae60", "military": "#7b241c", "political": "#2e86c1", "intelligence": "#5d6d7e",
         "event": "#b9770e"}
PLAYER_COLOURS = ["#1f77b4", "#ff7f0e", "#9467bd", "#17becf", "#e377c2"]
MARKET_ROWS = ("top", "bottom")
LAYOUT = "'transcaspia transcaspia kabul punjab' 'persia herat kandahar punjab'"


def _card(card: Any, cards: dict[Any, dict[str, Any]]) -> str:
    info = cards.get(card) or cards.get(str(card)) or {}
    name = info.get("name") or f"card {card}"
    suit = info.get("suit")
    tip = ", ".join(str(x) for x in (info.get("suit"), f"rank {info['rank']}" if info.get("rank") else None,
                                     info.get("region")) if x)
    return chip(name, SUITS.get(str(suit), "#ddd"), "#fff" if suit in SUITS else "#000", tip or None)


def _region(name: str, r: dict[str, Any], colours: dict[str, str], names: dict[str, str]) -> str:
    armies = " ".join(chip(f"{n} {c}", COALITIONS.get(c, "#999"), "#fff", f"{n} {c} armies")
                      for c, n in (r.get("armies") or {}).items() if n)
    tribes = " ".join(chip(f"{n} {names.get(p, p)}", colours.get(p, "#777"), "#fff", f"{n} tribes of {p}")
                      for p, n in (r.get("tribes") or {}).items() if n)
    ruler = r.get("ruler")
    ruler_txt = f"ruled by {esc(player_label(ruler, names))}" if ruler else '<span class="gr-muted">no ruler</span>'
    return (f'<div class="gr-box" style="grid-area:{esc(name)};min-height:70px">'
            f'<b>{esc(name.title())}</b> · {ruler_txt}'
            f'<div>armies: {armies or "<span class=gr-muted>none</span>"}</div>'
            f'<div>tribes: {tribes or "<span class=gr-muted>none</span>"}</div></div>')


def board_html(snapshot: dict[str, Any], names: dict[str, str]) -> str:
    cards = card_labels()
    players = snapshot.get("players") or {}
    colours = {p: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, p in enumerate(players)}
    gmap = snapshot.get("map") or {}
    regions = gmap.get("regions") or {}
    grid = "".join(_region(n, r, colours, names) for n, r in regions.items())
    roads = []
    for border, by in sorted((gmap.get("borders") or {}).items()):
        if by:
            a, _, b = border.partition("_")
            roads.append(f"{esc(a.title())}–{esc(b.title())}: " + " ".join(
                chip(f"{n} {c}", COALITIONS.get(c, "#999"), "#fff", f"{n} {c} roads") for c, n in by.items()))
    dc = snapshot.get("dominance_checks") or {}
    over = bool(snapshot.get("over")) or snapshot.get("stage") == "over"
    acting = ("the game is over" if over else
              f'{esc(player_label(str(snapshot.get("current")), names))} to act '
              f'({esc(snapshot.get("actions_left", "?"))} actions left)')
    turn = snapshot.get("turn", "?")
    when = "Before the first turn" if turn == 0 else f"Turn {esc(turn)}"  # turns count from 1
    head = (f'<div class="gr-box">{when} · {acting} · favored suit '
            f'{chip(snapshot.get("favored_suit"), SUITS.get(str(snapshot.get("favored_suit")), "#ddd"), "#fff")}'
            f' · dominance checks resolved: {esc(dc.get("resolved", 0))}'
            f' · deck {esc((snapshot.get("deck") or {}).get("size", "?"))} cards</div>')
    the_map = (f'<div style="display:grid;grid-template-areas:{LAYOUT};grid-template-columns:repeat(4,1fr);'
               f'gap:6px;margin-top:6px">{grid}</div>'
               f'<div class="gr-box" style="margin-top:6px"><b>Roads</b> '
               f'{" · ".join(roads) or "<span class=gr-muted>none</span>"}</div>')
    courts = []
    wakhan = snapshot.get("wakhan") or {}
    for pid, p in players.items():
        loyal = p.get("loyalty")
        court = " ".join(_card(c, cards) for c in p.get("court") or []) or '<span class="gr-muted">empty</span>'
        badge = chip(loyal or "no loyalty", COALITIONS.get(str(loyal), "#bbb"), "#fff")
        influence = esc(p.get("influence", 0))
        if pid == wakhan.get("player"):  # the automated opponent: her AI card's coalition, every coalition's influence
            pragmatic = wakhan.get("pragmatic_loyalty")
            badge = (chip(f"pragmatic: {pragmatic or '—'}", COALITIONS.get(str(pragmatic), "#bbb"), "#fff")
                     + f' · AI card {esc(wakhan.get("ai_card") or "—")}')
            influence = " / ".join(f"{esc(c)} {esc(n)}" for c, n in (wakhan.get("influence") or {}).items())
        courts.append(
            f'<div class="gr-box" style="border-left:6px solid {colours[pid]}">'
            f'<h4>{esc(player_label(pid, names))} — {esc(p.get("score", 0))} pts · {badge}</h4>'
            f'<div>{esc(p.get("rupees", 0))} rupees · influence {influence} · '
            f'{len(p.get("hand") or [])} in hand · {esc(p.get("cylinders_supply", 0))} cylinders left</div>'
            f'<div>court: {court}</div></div>'
        )
    market_rows = []
    for r, row in enumerate(snapshot.get("market") or []):
        cells = [f"<th class='gr-muted'>{esc(MARKET_ROWS[r] if r < len(MARKET_ROWS) else r + 1)}</th>"]
        for slot in row:
            card = slot.get("card") if isinstance(slot, dict) else slot
            rupees = slot.get("rupees", 0) if isinstance(slot, dict) else 0
            if card is not None:
                body = _card(card, cards)
            elif isinstance(slot, dict) and slot.get("unknown"):
                body = '<span title="drawn at setup; the log never names it">🂠 unknown card</span>'
            else:
                body = '<span class="gr-muted">empty</span>'
            cells.append(f"<td>{body}{f' +{rupees}₨' if rupees else ''}</td>")
        market_rows.append(f"<tr>{''.join(cells)}</tr>")
    # columns as the rulebook counts them, from 1 at the left; a card costs its column's place from
    # the left (0 for the leftmost), twice that while military is favored
    step = 2 if snapshot.get("favored_suit") == "military" else 1
    width = len((snapshot.get("market") or [[]])[0])
    cost = "<th></th>" + "".join(f"<th class='gr-muted'>column {i + 1} · cost {i * step}</th>" for i in range(width))
    market = f'<div class="gr-box" style="margin-top:6px"><b>Market</b><table><tr>{cost}</tr>{"".join(market_rows)}</table></div>'
    return head + the_map + market + f'<div class="gr-row" style="margin-top:6px">{"".join(courts)}</div>'


def resources(snapshot: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for pid, p in (snapshot.get("players") or {}).items():
        out.append({
            "player": player_label(pid, names),
            "loyalty": p.get("loyalty") or "—",
            "rupees": p.get("rupees", 0),
            "influence": p.get("influence", 0),
            "court cards": len(p.get("court") or []),
            "hand": len(p.get("hand") or []),
            "prizes": len(p.get("prizes") or []),
            "gifts": len(p.get("gifts") or []),
            "cylinders left": p.get("cylinders_supply", 0),
        })
    return out


def strategy_figures() -> None:
    """On the Strategy page, after the figures every title has: loyalty at the end of the game, by coalition."""
    loyalty = data.q("pax_final_loyalty")
    if loyalty.height:
        st.subheader("Loyalty at the end")
        st.altair_chart(charts.loyalty_shares(loyalty), width="stretch")
        ui.games_caption(int(loyalty.get_column("total_games")[0]), "finished games with a dominance check")


PAGES = [("views/pax_pamir.py", "Pax Pamir dominance checks", ":material/flag:", "dominance")]
