"""Shift end (rules 7, 8) and game end (rules 9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..components import FACTORY_GROUPS, MAJORITIES, SETUP, SPACES, Majority
from ..pit import Pit
from ..scoring import (
    Placing,
    coal_points,
    francs_points,
    pit_balance_points,
    rank_category,
    unfulfilled_points,
)
from ..tasks import Task
from . import turns

if TYPE_CHECKING:
    from ..state import CoalBaronState


@dataclass(slots=True)
class ShiftScoringTask(Task):
    """Shift scoring (rules 7), then the next shift's preparation, or after shift 3 final
    scoring."""

    decision = False

    def run(self, s: CoalBaronState) -> None:
        s.pop(self)
        score_shift(s)
        s.invalidate_score()
        s.push(NextShiftTask("") if s.shift < 3 else FinalScoringTask(""))


@dataclass(slots=True)
class NextShiftTask(Task):
    """Preparing the next shift (rules 8): a new start player, every worker back."""

    decision = False

    def run(self, s: CoalBaronState) -> None:
        s.pop(self)
        s.start_player = next_start_player(s)
        workers_back(s)
        s.push(turns.StartShiftTask(""))


@dataclass(slots=True)
class FinalScoringTask(Task):
    """The end of the game (rules 9): final scoring."""

    decision = False

    def run(self, s: CoalBaronState) -> None:
        s.pop(self)
        final_scoring(s)
        s.over = True


def category_value(pit: Pit, m: Majority) -> int:
    """Coal spaces of a colour / of a transport type on delivered orders, or empty carts on a level."""
    if m.kind == "coal":
        return pit.delivered_colour[m.key]
    if m.kind == "transport":
        return pit.delivered_transport[m.key]
    return pit.empty_carts(m.key)


def score_shift(st: CoalBaronState) -> None:
    """Majorities: 4 categories after shift 1, 8 after shift 2, 12 after shift 3; one milestone
    per category and player."""
    for m in MAJORITIES:
        if m.from_shift > st.shift:
            continue
        values = {p: category_value(st.pits[p], m) for p in st.players}
        placing = rank_category(values, m.first, m.second, st.ruleset, st.two_way_tie_second)
        if st.ruleset == "bga":
            note_second_place_after_tie(st, m, values, placing)
        for p in st.players:
            rank, points = placing[p]
            st.pits[p].shift_points[st.shift - 1] += points
            st.add_milestone("shift_ranking", shift=st.shift, category=m.category, player_id=p,
                             value=values[p], rank=rank, points=points)


def note_second_place_after_tie(st: CoalBaronState, m: Majority, values: dict[str, int],
                                placing: dict[str, Placing]) -> None:
    """Under ``bga``: a tie for first left second place unawarded where the rulebook awards it."""
    official = rank_category(values, m.first, m.second, "official")
    missed = [p for p in st.players if official[p] != placing[p]]
    if missed:
        firsts = [p for p in st.players if placing[p][0] == 1]
        st.depart("second_place_after_tie",
                  f"shift {st.shift}, {m.category}: {' and '.join(firsts)} tie for first; BGA awards no "
                  f"second place, the rulebook gives {m.second} to {' and '.join(missed)}")


def factory_workers(st: CoalBaronState, player: str) -> int:
    return sum(o.get(player, 0) for s, o in st.occupants.items() if SPACES[s].group in FACTORY_GROUPS)


def next_start_player(st: CoalBaronState) -> int:
    """Most workers standing on the mine cart factory; a tie goes to the tied player closest
    clockwise after the current start player (who cannot keep it through a tie); nobody there:
    the next player clockwise."""
    n = len(st.players)
    counts = [factory_workers(st, p) for p in st.players]
    best = max(counts)
    cur = st.start_player
    tied = [i for i in range(n) if counts[i] == best]
    if best == 0:
        return (cur + 1) % n
    if len(tied) == 1:
        return tied[0]
    return next((cur + k) % n for k in range(1, n) if (cur + k) % n in tied)


def workers_back(st: CoalBaronState) -> None:
    """Every worker (on the board and in the canteen) returns to its owner."""
    st.occupants.clear()
    for pit in st.pits.values():
        pit.workers = SETUP[len(st.players)].workers
        pit.canteen = 0


def final_scoring(st: CoalBaronState) -> None:
    """Francs, coal owned, unfulfilled orders, pit balance."""
    for player, pit in st.pits.items():
        pit.end_points = [francs_points(pit), coal_points(pit), unfulfilled_points(pit),
                          pit_balance_points(pit, st.ruleset)]
        if st.ruleset == "bga" and (official := pit_balance_points(pit, "official")) != pit.end_points[3]:
            st.depart("pit_balance", f"{player}'s pit balance: {pit.end_points[3]} VP over the whole pit "
                                     f"(BGA), {official} VP level by level (the rulebook)")
    st.invalidate_score()
