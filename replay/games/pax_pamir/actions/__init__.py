"""The card-based actions: tax, gift, build, move, betray and battle (one module each), and
the rules common to all of them: the card must show the action and be unused this turn, an
action must remain unless the card acts favored (a bonus action), a hostage card needs a bribe."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir.actions.battle import BattleTask, battle_strength
from replay.games.pax_pamir.actions.betray import BETRAY_COST, betray
from replay.games.pax_pamir.actions.build import build, build_cost
from replay.games.pax_pamir.actions.gift import gift
from replay.games.pax_pamir.actions.move import MoveTask
from replay.games.pax_pamir.actions.tax import TaxTask
from replay.games.pax_pamir.components import COURT
from replay.games.pax_pamir.moves import Battle, Betray, Build, Gift, MoveAction, Tax

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

CardAction = Tax | Gift | Build | MoveAction | Betray | Battle


# ---------------------------------------------------------------- common rules of card actions


def action_cost(s: PaxState, player: str, move: Move) -> int:
    """What the action itself costs (a bribe may not eat into it)."""
    if type(move) is Gift:
        return move.value
    if type(move) is Build:
        return build_cost(s, player, move.blocks)
    if type(move) is Betray:
        return BETRAY_COST
    return 0


def check_card_action(s: PaxState, player: str, card: int, action: str) -> str | None:
    """The card is in the player's court, shows the action, is unused this turn, and either an
    action remains or the card acts favored (a bonus action)."""
    if card not in s.courts[player]:
        return f"{player} cannot {action} with card {card}: it is not in {player}'s court"
    c = COURT[card]
    if action not in c.actions:
        shows = ", ".join(c.actions) or "no action"
        return f"{player} cannot {action} with {c.name}: the card shows {shows}"
    if card in s.used:
        return (f"{player} cannot {action} with {c.name}: it was already used this turn "
                "(each court card gives one action per turn)")
    if s.actions_left <= 0 and not s.acts_favored(card):
        return (f"{player} cannot {action} with {c.name}: {player} has no actions left and {c.suit} is not "
                f"favored ({s.favored} is), so it is not a bonus action")
    return None


def hostage_bribe(s: PaxState, player: str, card: int) -> tuple[str, int] | None:
    """(holder, bribe) when the card is held hostage and the bribe is not waived."""
    holder = s.hostage_holder(card)
    if holder is None or holder == player:
        return None
    if s.has(player, "civil_service_reforms") or s.bribes_waived():
        return None
    return holder, s.spies[card][holder]


MAX_REFUSALS = 3
"""``bga``: after three refused bribe offers in a turn, only full bribes may be offered."""


def refusals_exhausted(s: PaxState) -> bool:
    """Board Game Arena's limit of three refused bribe offers per turn (not the rulebook's)."""
    return s.ruleset == "bga" and s.declines >= MAX_REFUSALS


def check_bribe_possible(s: PaxState, player: str, what: str, due: tuple[str, int] | None, cost: int) -> str | None:
    """``bga`` only: once three offers were refused this turn, an action needing a bribe is
    possible only when the full bribe can be paid (or Courtly Manners lets it go unpaid)."""
    if due is None or not refusals_exhausted(s) or s.may_refuse_bribes(player):
        return None
    ruler, amount = due
    if amount > s.rupees[player] - cost:
        return (f"{player} cannot {what}: {player} has had {MAX_REFUSALS} bribe offers refused this turn "
                f"(BGA's limit) and cannot pay {ruler}'s full bribe of {amount} (has {s.rupees[player]}, "
                f"needs {cost} for the action)")
    return None


def uses_an_action(s: PaxState, card: int) -> bool:
    return not s.acts_favored(card)


def start_card_action(s: PaxState, player: str, move: CardAction) -> None:
    """The action happens (after any hostage bribe): mark the card used, spend an action unless
    it is a bonus action, then do it."""
    if uses_an_action(s, move.card):
        s.actions_left -= 1
    s.used.add(move.card)
    rank = COURT[move.card].rank
    if type(move) is Tax:
        s.push(TaxTask(player, move.card, rank))
    elif type(move) is Gift:
        gift(s, player, move.value)
    elif type(move) is Build:
        build(s, player, move.blocks)
    elif type(move) is MoveAction:
        s.push(MoveTask(player, move.card, rank))
    elif type(move) is Betray:
        betray(s, player, move.target)
    else:
        assert type(move) is Battle
        if move.region is not None:
            left = min(rank, battle_strength(s, player, move.region))
            s.push(BattleTask(player, move.card, move.region, None, left))
        else:
            assert move.court_card is not None
            left = min(rank, s.spies.get(move.court_card, {}).get(player, 0))
            s.push(BattleTask(player, move.card, None, move.court_card, left))
