"""Battle: remove enemy pieces at a region or a court card, limited by rank and by one's
own armies (or spies) there; citadels, Indispensable Advisors and Safe Houses."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import (
    BORDERS_OF,
    COALITIONS,
    COURT,
    NATIONALISM,
    REGIONS,
    card_name,
)
from replay.games.pax_pamir.moves import (
    Battle,
    EndAction,
    RemoveArmy,
    RemoveRoad,
    RemoveSpy,
    RemoveTribe,
    SafeHouse,
    Skip,
)
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState


def battle_strength(s: PaxState, player: str, region: str) -> int:
    loyal = s.loyalty[player] or s.coalition_of(player)  # (the Wakhan's: her pragmatic loyalty)
    assert loyal is not None
    n = s.armies[region][loyal]
    if s.holds(player, NATIONALISM):
        n += s.tribes[region][player]
    return n


def check_battle(s: PaxState, player: str, move: Battle) -> str | None:
    if (move.region is None) == (move.court_card is None):
        return f"{player} cannot battle: name exactly one battle site, a region or a court card"
    if move.region is not None:
        if move.region not in REGIONS:
            return f"{player} cannot battle in {move.region!r}: the regions are {', '.join(REGIONS)}"
        if not battle_strength(s, player, move.region):
            return (f"{player} cannot battle in {move.region.title()}: {player} has no {s.coalition_of(player)} army "
                    "there")
        return None
    assert move.court_card is not None
    if move.court_card not in s.owner:
        return f"{player} cannot battle on card {move.court_card}: it is in no court"
    if not s.spies.get(move.court_card, {}).get(player):
        return f"{player} cannot battle on {card_name(move.court_card)}: {player} has no spy on it"
    return None


def protected_tribes(s: PaxState, owner: str, region: str) -> bool:
    return (region == "kabul" and s.has(owner, "citadel_kabul")) or (
        region == "transcaspia" and s.has(owner, "citadel_transcaspia"))


@dataclass(slots=True)
class BattleTask(Task):
    """Battle: remove up to ``left`` enemy pieces, one at a time, at one site.

    Official rules: each removal re-checks the region's ruler and a player's last tribe
    removed overthrows at once.  ``bga``: both are settled when the battle is over.
    """

    card: int
    region: str | None
    court_card: int | None
    left: int
    losers: list[str] = field(default_factory=list)
    sheltering: list[str] = field(default_factory=list)
    accepts = (RemoveArmy, RemoveRoad, RemoveTribe, RemoveSpy, EndAction)
    awaiting = "next piece to remove in the battle (or end_action)"

    def is_open(self, s: PaxState) -> bool:
        return self.left > 0 and any(not isinstance(m, EndAction) for m in self.candidates(s))

    def close(self, s: PaxState) -> None:
        if self.region is None:
            # Safe House: each removed spy's owner decides, in the order the spies were removed.
            for owner in reversed(self.sheltering):
                s.push(SafeHouseTask(owner))
            return
        if s.ruleset != "bga":
            return
        board.recheck_rulers(s, (self.region,))
        for q in self.losers:
            if s.tribes[self.region][q] == 0:
                board.overthrow_after_last_tribe(s, q, self.region)

    def candidates(self, s: PaxState) -> Iterator[Move]:
        p = self.player
        loyal = s.coalition_of(p)
        if self.region is not None:
            r = self.region
            yield from (RemoveArmy(coalition=c) for c in COALITIONS if c != loyal and s.armies[r][c])
            yield from (RemoveRoad(border=b, coalition=c) for b in BORDERS_OF[r] for c in COALITIONS
                        if c != loyal and s.roads[b][c])
            yield from (RemoveTribe(player=q) for q in s.players
                        if s.loyalty[q] != loyal and s.tribes[r][q] and not protected_tribes(s, q, r))
        else:
            assert self.court_card is not None
            spies = s.spies.get(self.court_card, {})
            yield from (RemoveSpy(player=q) for q in s.players
                        if q != p and spies.get(q) and not s.has(q, "indispensable_advisors"))
        yield EndAction()

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        loyal = s.coalition_of(player)
        if isinstance(move, EndAction):
            return None
        if isinstance(move, RemoveSpy):
            if self.court_card is None:
                return f"{player} cannot remove a spy: this battle is in {self.region}, not on a court card"
            q = move.player
            if q == player:
                return f"{player} cannot remove their own spy"
            if not s.spies.get(self.court_card, {}).get(q):
                return f"{player} cannot remove a spy of {q}: {q} has no spy on {card_name(self.court_card)}"
            if s.has(q, "indispensable_advisors"):
                return f"{player} cannot remove {q}'s spy: {q}'s Indispensable Advisors protect it"
            return None
        if self.region is None:
            return f"{player} cannot remove map pieces: this battle is on a court card"
        r = self.region
        if isinstance(move, RemoveArmy):
            if move.coalition == loyal:
                return f"{player} cannot remove a {loyal} army: it belongs to {player}'s own coalition"
            if move.coalition not in COALITIONS or not s.armies[r][move.coalition]:
                return f"{player} cannot remove a {move.coalition} army: there is none in {r.title()}"
        elif isinstance(move, RemoveRoad):
            if move.border not in BORDERS_OF[r]:
                return f"{player} cannot remove a road on {move.border}: it does not touch {r.title()}"
            if move.coalition == loyal:
                return f"{player} cannot remove a {loyal} road: it belongs to {player}'s own coalition"
            if move.coalition not in COALITIONS or not s.roads[move.border][move.coalition]:
                return f"{player} cannot remove a {move.coalition} road on {move.border}: there is none"
        elif isinstance(move, RemoveTribe):
            q = move.player
            if q not in s.players or not s.tribes[r][q]:
                return f"{player} cannot remove a tribe of {q}: {q} has no tribe in {r.title()}"
            if s.loyalty[q] == loyal:
                return f"{player} cannot remove {q}'s tribe: {q} is also loyal to the {loyal}"
            if protected_tribes(s, q, r):
                return f"{player} cannot remove {q}'s tribe in {r.title()}: {q}'s citadel protects it"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        if isinstance(move, EndAction):
            self.left = 0
            return
        self.left -= 1
        if isinstance(move, RemoveArmy):
            assert self.region is not None
            if s.ruleset == "bga":
                board.take_army(s, move.coalition, self.region)
            else:
                board.remove_army(s, move.coalition, self.region)
        elif isinstance(move, RemoveRoad):
            board.take_road(s, move.coalition, move.border)
        elif isinstance(move, RemoveTribe):
            assert self.region is not None
            if s.ruleset == "bga":
                board.take_tribe(s, move.player, self.region)
                if move.player not in self.losers:
                    self.losers.append(move.player)
            else:
                board.remove_tribe(s, move.player, self.region)
        else:
            assert isinstance(move, RemoveSpy) and self.court_card is not None
            board.take_spy(s, move.player, self.court_card)
            if safe_houses(s, move.player):
                self.sheltering.append(move.player)

    def describe(self) -> str:
        site = self.region.title() if self.region else card_name(self.court_card or 0)
        return f"next piece to remove in the battle at {site} ({self.left} left) or end_action"


def safe_houses(s: PaxState, player: str) -> list[int]:
    """The player's Safe House cards in court (the battle's own site included)."""
    return [c for c in s.courts[player] if COURT[c].ability == "safe_house"]


@dataclass(slots=True)
class SafeHouseTask(Task):
    """Safe House: "when another player removes your spy in battle, you may place it on this
    card instead" -- any Safe House card of the owner, the card the battle was fought on
    included.  The owners decide when the battle is over (as BGA and the other implementation
    do), so a sheltered spy is never removed twice in one battle."""

    accepts = (SafeHouse, Skip)
    awaiting = "Safe House decision (safe_house on a Safe House card, or skip)"

    def is_open(self, s: PaxState) -> bool:
        return bool(safe_houses(s, self.player)) and s.cyl_supply[self.player] > 0

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [SafeHouse(card=c) for c in safe_houses(s, self.player)]
        out.append(Skip())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        if isinstance(move, SafeHouse) and move.card not in safe_houses(s, player):
            return f"{player} cannot shelter the spy on card {move.card}: it is not a Safe House card in {player}'s court"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        s.pop(self)
        if isinstance(move, SafeHouse):
            board.add_spy(s, player, move.card)
            board.unmark_moved(s, f"spy:{move.card}:{player}")
