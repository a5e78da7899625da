"""Game review: pick a game, step through its events, see the board, the move in words and the score.

Links from other pages open it at a game and step with ``?game=<id>&seq=<n>``.
"""

from __future__ import annotations

from typing import Any

import orjson
import polars as pl
import streamlit as st

from analytics.queries import title_label
from analytics.review import ReviewError, Stepper, bga_table, decisive_events, in_words, jump_targets
from dashboard import boards, charts, data, ui, winchances
from dashboard.titles import round_name

GAME = "review_game"
SEQ = "review_seq"
APPLIED = "_review_applied_params"
LINKED = "_review_linked_game"
ALL = "(all)"

st.title("Game review")
ui.require_db()

def _jump_from_query_params() -> None:
    """Apply ``?game=...&seq=...`` once per distinct link (later widget changes win)."""
    game = st.query_params.get("game")
    seq = st.query_params.get("seq")
    if game and st.session_state.get(APPLIED) != (game, seq):
        st.session_state[APPLIED] = (game, seq)
        st.session_state[GAME] = game
        st.session_state[LINKED] = game
        try:
            st.session_state[SEQ] = max(0, int(seq)) if seq is not None else 0
        except ValueError:
            st.session_state[SEQ] = 0
        for key in ("review_title", "review_players", "review_status"):
            st.session_state[key] = ALL


def _move(delta: int, last: int) -> None:
    st.session_state[SEQ] = min(max(0, st.session_state.get(SEQ, 0) + delta), last)


def _goto(seq: int) -> None:
    st.session_state[SEQ] = seq


def _goto_from_jump() -> None:
    choice = st.session_state.get("review_jump")
    if choice is not None:
        st.session_state[SEQ] = choice
    st.session_state["review_jump"] = None


def _filters_changed() -> None:
    st.session_state.pop(LINKED, None)
    st.session_state["review_page"] = 1


def _new_game() -> None:
    st.session_state[SEQ] = 0
    st.session_state.pop(LINKED, None)


_jump_from_query_params()

opts = data.q("filter_options")
with st.container(border=True):
    c1, c2, c3, c4, c5 = st.columns([2, 1, 1, 2, 2])
    title = c1.selectbox("Title", [ALL, *opts["title"]], key="review_title", on_change=_filters_changed,
                         format_func=lambda t: t if t == ALL else title_label(t))
    players = c2.selectbox("Players", [ALL, *opts["player_count"]], key="review_players", on_change=_filters_changed)
    status = c3.selectbox("Status", [ALL, *opts["status"]], key="review_status", on_change=_filters_changed)
    search = c4.text_input("Game id contains", key="review_search", on_change=_filters_changed)
    order = c5.radio("Order", ["top_score", "newest", "game_id"], horizontal=True, key="review_order", on_change=_filters_changed,
                     format_func={"top_score": "best score", "newest": "newest", "game_id": "id"}.get)

PAGE = 500
page = int(st.session_state.get("review_page", 1))
games = data.q(
    "game_list",
    title=None if title == ALL else title,
    player_count=None if players == ALL else int(players),
    status=None if status == ALL else status,
    search=search.strip() or None,
    order=order,
    limit=PAGE,
    offset=(page - 1) * PAGE,
)
if games.is_empty() and page > 1:  # fewer games than before (other filters, a new database): back to page 1
    st.session_state["review_page"] = 1
    st.rerun()
matching = int(games.get_column("total")[0]) if games.height else 0
pages = max(1, -(-matching // PAGE))
if pages > 1:
    st.number_input(f"Page of the game list ({matching:,} games match, {PAGE} a page)", 1, pages,
                    key="review_page")
labels = {
    r["game_id"]: (f"{r['game_id']} — {title_label(r['title'])}, {r['player_count']} players, {r['status']}"
                   + (f", top score {r['top_score']}" if r["top_score"] is not None else ""))
    for r in games.iter_rows(named=True)
}
current = st.session_state.get(GAME)
if current and current not in labels and current == st.session_state.get(LINKED):
    header_row = data.q("game_header", game_id=current)
    if header_row is not None:
        labels = {current: f"{current} — {title_label(header_row['title'])} (opened by link)", **labels}
    else:
        st.warning(f"There is no game {current!r} in this database.")
        st.session_state.pop(GAME)
if not labels:
    st.info("No game matches these filters.")
    st.stop()
if st.session_state.get(GAME) not in labels:
    st.session_state[GAME] = next(iter(labels))
    st.session_state[SEQ] = 0
shown = (f"{matching:,} games, {(page - 1) * PAGE + 1:,}–{(page - 1) * PAGE + len(games):,} shown"
         if pages > 1 else f"{matching:,} games")
game_id: str = st.selectbox(f"Game ({shown})",
                            list(labels), format_func=lambda g: labels[g], key=GAME, on_change=_new_game)

header = data.q("game_header", game_id=game_id)
roster = data.q("game_players", game_id=game_id)
names = {r["player_id"]: (r["name"] or r["player_id"]) for r in roster.iter_rows(named=True)}
try:
    stepper = data.stepper(game_id)
except ReviewError as exc:
    st.error(f"This game cannot be replayed here: {exc}")
    st.stop()
if stepper is None or len(stepper) == 0:
    st.info("This game has no events to step through.")
    st.stop()

n = len(stepper)
last = n - 1
st.session_state[SEQ] = min(max(0, int(st.session_state.get(SEQ, 0))), last)

divs = data.q("game_divergences", game_id=game_id)
deps = data.q("game_departures", game_id=game_id)

# the event that ended the game (records close with observations): its end-of-game scoring is
# left out when looking for the biggest gain during play
end_seq = next((i for i in range(last, -1, -1) if stepper.record.events[i].kind != "observe"), last)
decisive = decisive_events(data.q("game_timeline", game_id=game_id), names, last_seq=end_seq)
turning = winchances.turning_jumps(game_id) + winchances.costly_jumps(game_id, names)

# ---- header ---------------------------------------------------------------
# the title as a heading, not a metric: a metric's value is cut to its column ("Pax Pamir (2…")
st.subheader(title_label(header["title"]) if header else "?")
h2, h3, h4 = st.columns([1, 1, 2])
h2.metric("Status", header["status"] if header else "?")
h3.metric("Events", n, help=f"numbered 0 to {n - 1}, as in every record and table")
winner = (header or {}).get("winner")
h4.metric("Winner", ", ".join(names.get(w, w) for w in winner.split(",")) if winner else "—")
bga = bga_table(stepper.record)
if bga is not None:
    table = f"[{bga['table_id']}]({bga['url']})" if bga["url"] else "unknown"
    seen = (f"{bga['viewer_name'] or bga['viewer']}" if bga["viewer"] else "an unknown player")
    st.markdown(f":material/public: Board Game Arena table {table} · as seen by **{seen}**"
                + (f" · implementation {str(bga['version'])[:12]}" if bga["version"] else ""))
    for note in bga["notes"]:
        st.info(f"Settled on import, where the log does not tell: {note}", icon=":material/info:")
if decisive:
    st.caption("Where it was decided: " + " · ".join(f"event {s}: {t}" for s, t in decisive)
               + " (use Jump to).")
if stepper.stopped_at is not None:
    st.warning(f"The rules stop this game at event {stepper.stopped_at}: {stepper.stop_reason}")
ui.stand_in_note(header["title"] if header else stepper.record.game, tiles=True)

# ---- stepping: a fragment, so a step reruns (and redraws) only this part of the page ----------


@st.fragment
def _stepping(game_id: str, stepper: Stepper, names: dict[str, str], header: dict[str, Any] | None,
              divs: pl.DataFrame, deps: pl.DataFrame, decisive: list[tuple[int, str]]) -> None:
    last = len(stepper) - 1
    div_seqs = [int(s) for s in divs.get_column("seq").to_list()]
    departed = [(int(r["seq"]), f"BGA departs from the rulebook ({r['rule'].replace('_', ' ')})")
                for r in deps.iter_rows(named=True)]
    jumps = jump_targets(div_seqs, divs.get_column("kind").to_list(), stepper.milestones, last,
                         decisive + turning + departed)

    b1, b2, b3, b4 = st.columns([1.3, 1.1, 5, 4])
    b1.button("◀ Previous", on_click=_move, args=(-1, last), disabled=st.session_state[SEQ] <= 0, key="review_prev")
    b2.button("Next ▶", on_click=_move, args=(1, last), disabled=st.session_state[SEQ] >= last, key="review_next")
    b4.selectbox("Jump to", list(jumps), format_func=lambda j: jumps[j], key="review_jump",
                 on_change=_goto_from_jump, label_visibility="collapsed")
    seq = b3.slider("Event", 0, max(last, 1), key=SEQ, disabled=last == 0,
                    label_visibility="collapsed")
    st.query_params["game"] = game_id
    st.query_params["seq"] = str(seq)
    st.session_state[APPLIED] = (game_id, str(seq))

    step = stepper.step(min(seq, last))

    # ---- this step ----------------------------------------------------------------
    kind_icon = {"move": ":material/play_arrow:", "chance": ":material/casino:", "observe": ":material/visibility:"}.get(
        step.kind, "")
    view = boards.render(header["title"] if header else stepper.record.game, step.snapshot, names)
    left, right = st.columns([2, 3])
    with left:
        unit = round_name(header["title"] if header else stepper.record.game)
        st.markdown(f"**Event {step.seq} of 0–{last}** · {step.kind} · {unit} "
                    f"{step.round if step.round is not None else '—'} · {(step.phase or '—').replace('_', ' ')}")
        st.info(step.words, icon=kind_icon or None)
        st.caption(f"After it: {step.turn}")
        here = divs.filter(pl.col("seq") == step.seq)
        for r in here.iter_rows(named=True):
            st.error(f"Divergence here ({in_words(r['kind'])}): {r['message']}"
                     + (f" — recorded {r['recorded']}, replayed {r['replayed']}" if r["key"] else ""))
        for r in deps.filter(pl.col("seq") == step.seq).iter_rows(named=True):
            st.warning(f"BGA departs from the rulebook here ({r['rule'].replace('_', ' ')}): {r['happened']}",
                       icon=":material/rule:")
        if step.stopped_at is not None:
            st.error(f"The replay stopped at event {step.stopped_at} ({step.stop_reason}); the board shows the "
                     "state before that event.")
        # one box per kind of milestone: a shift end has one ranking per category and player
        kinds: dict[str, list[dict[str, Any]]] = {}
        for m in step.milestones:
            kinds.setdefault(str(m["type"]), []).append(m)
        for kind, ms in kinds.items():
            label = kind.replace("_", " ") + (f" ×{len(ms)}" if len(ms) > 1 else "")
            with st.expander(f"Milestone at this event: {label}"):
                if len(ms) == 1:
                    st.json(ms[0])
                else:
                    rows = [{k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v))
                             for k, v in m.items() if k not in ("type", "seq")} for m in ms]
                    ui.dataframe(pl.DataFrame(rows, infer_schema_length=None), hide_index=True)
    with right:
        totals = {p: sum(c.values()) for p, c in step.score.items()}
        # small static tables: cheaper for the browser to redraw at every step than data grids
        if view.resources:
            st.table(boards.resources_table(view.resources, [totals.get(p, 0) for p in names]).to_pandas()
                     .set_index("resource"))
        # categories down, players across: as wide as the number of players, never cut off
        cats = list(dict.fromkeys(c for per in step.score.values() for c in per))
        st.table(pl.DataFrame({"category": [c.replace("_", " ") for c in cats],
                               **{boards.player_label(p, names): [per.get(c, 0) for c in cats]
                                  for p, per in step.score.items()}}).to_pandas().set_index("category"))
        st.caption("Above: each player's score and resources; below it, the score by category at this step "
                   "(players across, so neither table runs off the page).")

    st.subheader("Board")
    if view.error:
        st.caption(f"The board drawing failed ({view.error}); the whole state is shown instead.")
    if view.html is not None:
        st.html(view.html)
    else:
        st.json(step.snapshot, expanded=1)

    # ---- score timeline ---------------------------------------------------------------
    st.subheader("Score by category over the game")
    st.vega_lite_chart(spec=charts.with_step(data.timeline_spec(game_id, names), step.seq), width="stretch")
    st.caption("Black line: this step. Red dashed lines: divergences. Orange dotted lines: where BGA's rules "
               "depart from the rulebook.")
    winchances.section(game_id, step.seq, int((header or {}).get("n_events") or last + 1), names, _goto)

    if divs.height:
        st.subheader(f"Divergences ({divs.height})")
        ui.dataframe(divs, hide_index=True, width="stretch",
                     column_config={"message": st.column_config.TextColumn("message", width="large")})
        first = int(divs.get_column("seq")[0])
        st.button(f"Go to the first divergence (event {first})", on_click=_goto, args=(first,), key="review_first_div")

    with st.expander("This event as recorded"):
        st.code(orjson.dumps(stepper.record.events[step.seq].to_dict(), option=orjson.OPT_INDENT_2).decode(),
                language="json")


_stepping(game_id, stepper, names, header, divs, deps, decisive)
