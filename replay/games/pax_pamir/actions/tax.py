"""Tax: take up to the card's rank in rupees from market cards and from players with a
court card of a region the taxer rules, above their tax shelter."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir.components import (
    COURT,
)
from replay.games.pax_pamir.market import cell_name
from replay.games.pax_pamir.moves import (
    EndAction,
    TaxMarket,
    TaxPlayer,
)
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState



def taxable_players(s: PaxState, player: str) -> list[str]:
    """Other players with a court card of a region the taxer rules and rupees above their shelter."""
    out = []
    claim = s.has(player, "claim_of_ancient_lineage")
    for q in s.players:
        if q == player or s.rupees[q] <= s.stars(q, "economic"):
            continue
        if claim and (s.ruleset == "bga" or s.courts[q]):
            out.append(q)
        elif any(s.rulers[COURT[c].region] == player for c in s.courts[q]):
            out.append(q)
    return out


def taxable_cell(s: PaxState, row: int, col: int) -> bool:
    """Rupees lying on a market card (not on an empty cell) can be taxed; under ``bga`` any rupee
    in the market, on an empty cell too (BGA offers every rupee of the market)."""
    return s.market_rupees[row][col] > 0 and (s.market[row][col] is not None or s.ruleset == "bga")


@dataclass(slots=True)
class TaxTask(Task):
    """Tax: take up to ``rank`` rupees, one at a time, from market cards or taxable players."""

    card: int
    left: int
    accepts = (TaxMarket, TaxPlayer, EndAction)
    awaiting = "next rupee to take by Tax (or end_action)"

    def is_open(self, s: PaxState) -> bool:
        return self.left > 0 and (any(taxable_cell(s, r, c) for r, c in s.market_cells())
                                  or bool(taxable_players(s, self.player)))

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [TaxMarket(row=r, col=c) for r, c in s.market_cells() if taxable_cell(s, r, c)]
        out.extend(TaxPlayer(player=q) for q in taxable_players(s, self.player))
        out.append(EndAction())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        if isinstance(move, TaxMarket):
            if not (0 <= move.row <= 1 and 0 <= move.col <= 5) or not taxable_cell(s, move.row, move.col):
                return (f"{player} cannot tax {cell_name(move.row, move.col)} of the market: there is no "
                        + ("rupee there" if s.ruleset == "bga" else "market card with rupees there"))
        elif isinstance(move, TaxPlayer):
            q = move.player
            if q not in s.players or q == player:
                return f"{player} cannot tax {q!r}: Tax takes from another player"
            shelter = s.stars(q, "economic")
            if s.rupees[q] <= shelter:
                return (f"{player} cannot tax {q}: {q} has {s.rupees[q]} rupees and a tax shelter of {shelter} "
                        "(economic stars)")
            if q not in taxable_players(s, player):
                return (f"{player} cannot tax {q}: {q} has no court card of a region {player} rules")
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        if isinstance(move, EndAction):
            self.left = 0
            return
        self.left -= 1
        if isinstance(move, TaxMarket):
            if s.market[move.row][move.col] is None:
                s.depart("tax_empty_cell",
                         f"{player} taxes a rupee lying on {cell_name(move.row, move.col)} of the market, a cell with "
                         "no card (BGA); the rulebook's Tax takes rupees from market cards")
            s.market_rupees[move.row][move.col] -= 1
        else:
            assert isinstance(move, TaxPlayer)
            if not s.courts[move.player]:
                s.depart("ancient_lineage_empty_court",
                         f"{player} taxes {move.player}, whose court is empty (Claim of Ancient Lineage on BGA); "
                         "the rulebook's Tax cannot reach a player without court cards")
            s.rupees[move.player] -= 1
        s.rupees[player] += 1

    def describe(self) -> str:
        return f"next rupee to take by Tax ({self.left} left) or end_action"
