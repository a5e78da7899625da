"""Move: the card's rank in steps for the coalition's armies along roads, the player's
spies around the courts (and tribes, with Nationalism)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import (
    ADJACENT,
    BORDER_BETWEEN,
    COURT,
    NATIONALISM,
    REGIONS,
    card_name,
)
from replay.games.pax_pamir.moves import (
    EndAction,
    MoveArmy,
    MoveSpy,
    MoveTribe,
)
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState




def army_can_cross(s: PaxState, player: str, frm: str, to: str) -> bool:
    """A road of the player's coalition on the border, or Indian Supplies; under ``bga`` the Wakhan
    crosses any border (departure ``wakhan_moves_off_road``, noted when the move is made)."""
    loyal = s.loyalty[player] or s.coalition_of(player)  # (the Wakhan's: her pragmatic loyalty)
    assert loyal is not None
    return (s.has(player, "indian_supplies") or s.roads[BORDER_BETWEEN[(frm, to)]][loyal] > 0
            or (player == s.wakhan and s.ruleset == "bga"))


def _note_off_road(s: PaxState, player: str, frm: str, to: str) -> None:
    """The Wakhan's step across a border without a road of her coalition (``bga`` only allows it)."""
    loyal = s.coalition_of(player)
    if loyal is not None and not s.roads[BORDER_BETWEEN[(frm, to)]][loyal] and not s.has(player, "indian_supplies"):
        s.depart("wakhan_moves_off_road", f"the Wakhan moves from {frm.title()} to {to.title()} with no {loyal} "
                                          "road on the border")


def spy_track(s: PaxState) -> list[int]:
    """All court cards in one circle: each court left to right, courts in seat order."""
    return [c for p in s.players for c in s.courts[p]]


def spy_destinations(s: PaxState, player: str, card: int) -> list[int]:
    """Cards a spy on ``card`` can reach in one step (Strange Bedfellows adds cards of the same
    region; Well-Connected allows two hops).  A step goes somewhere else, except under ``bga``,
    where Well-Connected's two hops may go out and back to ``card`` itself (BGA's reading)."""
    track = spy_track(s)
    if card not in track:
        return []
    bedfellows = s.has(player, "strange_bedfellows")

    def hop(c: int) -> set[int]:
        i = track.index(c)
        out = {track[(i - 1) % len(track)], track[(i + 1) % len(track)]}
        if bedfellows:
            out.update(x for x in track if COURT[x].region == COURT[c].region)
        return out

    reach = hop(card)
    reach.discard(card)
    if s.has(player, "well_connected"):
        for c in list(reach):
            reach |= hop(c)
        if s.ruleset != "bga":
            reach.discard(card)
    return [c for c in track if c in reach]


@dataclass(slots=True)
class MoveTask(Task):
    """Move: ``left`` steps shared among the coalition's armies and the player's spies (and,
    with Nationalism, the player's tribes).

    Official rules: the ruler tokens move and the Overthrow rule strikes immediately, after
    each step ("they immediately discard..."), so a last tribe that leaves a region and comes
    back within the action has already cost the region's political cards.  ``bga``: Board
    Game Arena settles rulers and overthrow once, when the whole Move is over.
    """

    card: int
    left: int
    touched: list[str] = field(default_factory=list)
    tribes_left: list[str] = field(default_factory=list)
    accepts = (MoveArmy, MoveTribe, MoveSpy, EndAction)
    awaiting = "next step of the Move action (or end_action)"

    def is_open(self, s: PaxState) -> bool:
        return self.left > 0 and any(not isinstance(m, EndAction) for m in self.candidates(s))

    def close(self, s: PaxState) -> None:
        board.recheck_rulers(s, self.touched)
        for r in self.tribes_left:
            if s.tribes[r][self.player] == 0:
                board.overthrow_after_last_tribe(s, self.player, r)
            elif cards := board.overthrown_cards(s, self.player, r):
                s.depart("overthrow_after_the_move",
                         f"{self.player}'s last tribe in {r.title()} left and came back within the Move: BGA "
                         f"keeps {', '.join(card_name(c) for c in cards)}; the rulebook's Overthrow discards "
                         "them when the tribe leaves")

    def candidates(self, s: PaxState) -> Iterator[Move]:
        p = self.player
        loyal = s.coalition_of(p)
        assert loyal is not None
        for r in REGIONS:
            if s.armies[r][loyal]:
                yield from (MoveArmy(region=r, to=t) for t in ADJACENT[r] if army_can_cross(s, p, r, t))
        if s.holds(p, NATIONALISM):
            for r in REGIONS:
                if s.tribes[r][p]:
                    yield from (MoveTribe(region=r, to=t) for t in ADJACENT[r] if army_can_cross(s, p, r, t))
        for c in spy_track(s):
            if s.spies.get(c, {}).get(p):
                yield from (MoveSpy(card=c, to=t) for t in spy_destinations(s, p, c))
        yield EndAction()

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        loyal = s.coalition_of(player)
        assert loyal is not None
        if isinstance(move, (MoveArmy, MoveTribe)):
            what = "army" if isinstance(move, MoveArmy) else "tribe"
            if move.region not in REGIONS or move.to not in REGIONS:
                return f"{player} cannot move an {what} from {move.region!r} to {move.to!r}: unknown region"
            if isinstance(move, MoveTribe) and not s.holds(player, NATIONALISM):
                return f"{player} cannot move a tribe: only Nationalism lets tribes move like armies"
            have = s.armies[move.region][loyal] if what == "army" else s.tribes[move.region][player]
            if not have:
                whose = f"{loyal} army" if what == "army" else f"tribe of {player}"
                return f"{player} cannot move an {what} from {move.region.title()}: there is no {whose} there"
            if move.to not in ADJACENT[move.region]:
                return f"{player} cannot move from {move.region.title()} to {move.to.title()}: they do not share a border"
            if not army_can_cross(s, player, move.region, move.to):
                return (f"{player} cannot move from {move.region.title()} to {move.to.title()}: the border has no "
                        f"{loyal} road")
        elif isinstance(move, MoveSpy):
            if not s.spies.get(move.card, {}).get(player):
                return f"{player} cannot move a spy from card {move.card}: {player} has no spy there"
            if move.to not in spy_destinations(s, player, move.card):
                return (f"{player} cannot move a spy from {card_name(move.card)} to card {move.to}: it is not one "
                        "step away along the courts")
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        if isinstance(move, EndAction):
            self.left = 0
            return
        self.left -= 1
        if player == s.wakhan and isinstance(move, (MoveArmy, MoveTribe)):
            _note_off_road(s, player, move.region, move.to)
        if isinstance(move, MoveArmy):
            loyal = s.coalition_of(player)
            assert loyal is not None
            board.take_army(s, loyal, move.region)
            board.add_army(s, loyal, move.to)
            board.unmark_moved(s, f"army:{move.to}:{loyal}")
            self._settle(s, player, move.region, move.to, tribe=False)
        elif isinstance(move, MoveTribe):
            board.take_tribe(s, player, move.region)
            board.add_tribe(s, player, move.to)
            board.unmark_moved(s, f"tribe:{move.to}:{player}")
            self._settle(s, player, move.region, move.to, tribe=True)
        else:
            assert isinstance(move, MoveSpy)
            if move.to == move.card:
                s.depart("well_connected_out_and_back",
                         f"{player}'s spy on {card_name(move.card)} goes out and back (Well-Connected on BGA); "
                         "the rulebook's step must end on another card")
            board.take_spy(s, player, move.card)
            board.add_spy(s, player, move.to)
            board.unmark_moved(s, f"spy:{move.to}:{player}")

    def _settle(self, s: PaxState, player: str, frm: str, to: str, *, tribe: bool) -> None:
        """After one step: rulers and Overthrow now (official), or noted for the end (bga)."""
        if s.ruleset != "bga":
            board.recheck_rulers(s, (frm, to))
            if tribe and s.tribes[frm][player] == 0:
                board.overthrow_after_last_tribe(s, player, frm)
            return
        for r in (frm, to):
            if r not in self.touched:
                self.touched.append(r)
        if tribe and frm not in self.tribes_left:
            self.tribes_left.append(frm)

    def describe(self) -> str:
        return f"next step of the Move action ({self.left} left) or end_action"
