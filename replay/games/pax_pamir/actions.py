"""The card-based actions: tax, gift, build, move, betray and battle, with their limits,
costs and ranks; the one-use-per-card and bonus-action rules; hostage bribes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import (
    ADJACENT,
    BORDER_BETWEEN,
    BORDERS_OF,
    COALITIONS,
    COURT,
    GIFT_VALUES,
    REGIONS,
    card_name,
)
from replay.games.pax_pamir.court import discard_from_court
from replay.games.pax_pamir.market import pay_to_market
from replay.games.pax_pamir.moves import (
    AcceptPrize,
    Battle,
    Betray,
    Build,
    DeclinePrize,
    EndAction,
    Gift,
    MoveAction,
    MoveArmy,
    MoveSpy,
    MoveTribe,
    PlaceArmy,
    PlaceRoad,
    RemoveArmy,
    RemoveRoad,
    RemoveSpy,
    RemoveTribe,
    SafeHouse,
    Skip,
    Tax,
    TaxMarket,
    TaxPlayer,
)
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState

BETRAY_COST = 2
BLOCK_COST = 2
NATIONALISM = 110
NATION_BUILDING = 112

CardAction = Tax | Gift | Build | MoveAction | Betray | Battle


# ---------------------------------------------------------------- common rules of card actions


def action_cost(s: PaxState, player: str, move: Move) -> int:
    """What the action itself costs (a bribe may not eat into it)."""
    if isinstance(move, Gift):
        return move.value
    if isinstance(move, Build):
        return build_cost(s, player, move.blocks)
    if isinstance(move, Betray):
        return BETRAY_COST
    return 0


def build_cost(s: PaxState, player: str, blocks: int) -> int:
    """2 rupees per block; with Nation Building 2 rupees per pair of blocks (rounded up)."""
    if s.holds(player, NATION_BUILDING):
        return BLOCK_COST * ((blocks + 1) // 2)
    return BLOCK_COST * blocks


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
    if s.has(player, "civil_service_reforms") or s.bribes_waived(player):
        return None
    return holder, s.spies[card][holder]


def check_bribe_possible(s: PaxState, player: str, what: str, due: tuple[str, int] | None, cost: int) -> str | None:
    if due is None or s.declines < 3:
        return None
    ruler, amount = due
    if amount > s.rupees[player] - cost:
        return (f"{player} cannot {what}: {player} has had 3 bribe offers refused this turn and cannot pay "
                f"{ruler}'s full bribe of {amount} (has {s.rupees[player]}, needs {cost} for the action)")
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
    if isinstance(move, Tax):
        s.push(TaxTask(player, move.card, rank))
    elif isinstance(move, Gift):
        gift(s, player, move.value)
    elif isinstance(move, Build):
        pay_to_market(s, player, build_cost(s, player, move.blocks))
        s.push(BuildTask(player, move.blocks, ruled_regions(s, player), False))
    elif isinstance(move, MoveAction):
        s.push(MoveTask(player, move.card, rank))
    elif isinstance(move, Betray):
        betray(s, player, move.target)
    else:
        if move.region is not None:
            left = min(rank, battle_strength(s, player, move.region))
            s.push(BattleTask(player, move.card, move.region, None, left))
        else:
            assert move.court_card is not None
            left = min(rank, s.spies.get(move.court_card, {}).get(player, 0))
            s.push(BattleTask(player, move.card, None, move.court_card, left))


# ---------------------------------------------------------------- tax


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


@dataclass(slots=True)
class TaxTask(Task):
    """Tax: take up to ``rank`` rupees, one at a time, from market cards or taxable players."""

    card: int
    left: int
    accepts = (TaxMarket, TaxPlayer, EndAction)
    awaiting = "next rupee to take by Tax (or end_action)"

    def is_open(self, s: PaxState) -> bool:
        return self.left > 0 and (any(s.market_rupees[r][c] for r in range(2) for c in range(6))
                                  or bool(taxable_players(s, self.player)))

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [TaxMarket(row=r, col=c) for r, c in s.market_cells() if s.market_rupees[r][c]]
        out.extend(TaxPlayer(player=q) for q in taxable_players(s, self.player))
        out.append(EndAction())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        if isinstance(move, TaxMarket):
            if not (0 <= move.row <= 1 and 0 <= move.col <= 5) or not s.market_rupees[move.row][move.col]:
                return f"{player} cannot tax market row {move.row}, column {move.col}: there are no rupees there"
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
            s.market_rupees[move.row][move.col] -= 1
        else:
            assert isinstance(move, TaxPlayer)
            s.rupees[move.player] -= 1
        s.rupees[player] += 1

    def describe(self) -> str:
        return f"next rupee to take by Tax ({self.left} left) or end_action"


# ---------------------------------------------------------------- gift


def check_gift(s: PaxState, player: str, move: Gift) -> str | None:
    if move.value not in GIFT_VALUES:
        return f"{player} cannot buy a gift of {move.value}: the gift spaces cost 2, 4 and 6 rupees"
    if move.value in s.gifts[player]:
        return f"{player} cannot buy the {move.value}-rupee gift: that space already holds {player}'s gift"
    if s.rupees[player] < move.value:
        return f"{player} cannot buy the {move.value}-rupee gift: {player} has {s.rupees[player]} rupees"
    return None


def gift(s: PaxState, player: str, value: int) -> None:
    """Gift: pay the space's price to the market, place a cylinder on it."""
    pay_to_market(s, player, value)
    board.place(s, player, "gift", str(value))


# ---------------------------------------------------------------- build


def ruled_regions(s: PaxState, player: str) -> tuple[str, ...]:
    return tuple(r for r in REGIONS if s.rulers[r] == player)


def check_build(s: PaxState, player: str, move: Build) -> str | None:
    if not ruled_regions(s, player):
        return f"{player} cannot build: Build needs a region {player} rules, and {player} rules none"
    most = 6 if s.holds(player, NATION_BUILDING) else 3
    if not 1 <= move.blocks <= most:
        return f"{player} cannot build {move.blocks} blocks: a Build places 1 to {most}"
    cost = build_cost(s, player, move.blocks)
    if cost > s.rupees[player]:
        return f"{player} cannot build {move.blocks} blocks: that costs {cost} rupees, {player} has {s.rupees[player]}"
    return None


@dataclass(slots=True)
class BuildTask(Task):
    """Build (already paid): place armies in ruled regions and roads on their borders.  With
    ``optional`` it is Infrastructure's one free extra block, which may be skipped."""

    left: int
    ruled: tuple[str, ...]
    optional: bool
    accepts = (PlaceArmy, PlaceRoad, Skip)
    awaiting = "placement of a built block"

    def is_open(self, s: PaxState) -> bool:
        return self.left > 0

    def close(self, s: PaxState) -> None:
        if not self.optional and s.has(self.player, "infrastructure"):
            ruled = ruled_regions(s, self.player)
            if ruled:
                s.push(BuildTask(self.player, 1, ruled, True))

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [PlaceArmy(region=r) for r in self.ruled]
        out.extend(PlaceRoad(border=b) for b in sorted({b for r in self.ruled for b in BORDERS_OF[r]}))
        if self.optional:
            out.append(Skip())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        ruled = ", ".join(self.ruled)
        if isinstance(move, Skip):
            return None if self.optional else f"{player} cannot skip: the blocks of this Build are paid for"
        if isinstance(move, PlaceArmy) and move.region not in self.ruled:
            return f"{player} cannot build an army in {move.region}: {player} rules only {ruled}"
        if isinstance(move, PlaceRoad) and not any(b == move.border for r in self.ruled for b in BORDERS_OF[r]):
            return f"{player} cannot build a road on {move.border}: it touches no region {player} rules ({ruled})"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        self.left -= 1
        if isinstance(move, PlaceArmy):
            board.place(s, player, "army", move.region, s.loyalty[player])
        elif isinstance(move, PlaceRoad):
            board.place(s, player, "road", move.border, s.loyalty[player])
        else:
            self.left = 0

    def describe(self) -> str:
        what = "Infrastructure's free block (or skip)" if self.optional else f"placement of {self.left} built block(s)"
        return what


# ---------------------------------------------------------------- move


def army_can_cross(s: PaxState, player: str, frm: str, to: str) -> bool:
    loyal = s.loyalty[player]
    assert loyal is not None
    return s.has(player, "indian_supplies") or s.roads[BORDER_BETWEEN[(frm, to)]][loyal] > 0


def spy_track(s: PaxState) -> list[int]:
    """All court cards in one circle: each court left to right, courts in seat order."""
    return [c for p in s.players for c in s.courts[p]]


def spy_destinations(s: PaxState, player: str, card: int) -> list[int]:
    """Cards a spy on ``card`` can reach in one step (Strange Bedfellows adds cards of the same
    region; Well-Connected allows two hops)."""
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
    if s.has(player, "well_connected"):
        for c in list(reach):
            reach |= hop(c)
    reach.discard(card)
    return [c for c in track if c in reach]


@dataclass(slots=True)
class MoveTask(Task):
    """Move: ``left`` steps shared among the coalition's armies and the player's spies (and,
    with Nationalism, the player's tribes).  Rulers and overthrow are settled at the end."""

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

    def candidates(self, s: PaxState) -> Iterable[Move]:
        p = self.player
        loyal = s.loyalty[p]
        assert loyal is not None
        out: list[Move] = []
        for r in REGIONS:
            if s.armies[r][loyal]:
                out.extend(MoveArmy(region=r, to=t) for t in ADJACENT[r] if army_can_cross(s, p, r, t))
        if s.holds(p, NATIONALISM):
            for r in REGIONS:
                if s.tribes[r][p]:
                    out.extend(MoveTribe(region=r, to=t) for t in ADJACENT[r] if army_can_cross(s, p, r, t))
        for c in spy_track(s):
            if s.spies.get(c, {}).get(p):
                out.extend(MoveSpy(card=c, to=t) for t in spy_destinations(s, p, c))
        out.append(EndAction())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        loyal = s.loyalty[player]
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
        if isinstance(move, MoveArmy):
            loyal = s.loyalty[player]
            assert loyal is not None
            board.take_army(s, loyal, move.region)
            board.add_army(s, loyal, move.to)
            _unplace(s, f"army:{move.to}:{loyal}")
            self._touch(move.region, move.to)
        elif isinstance(move, MoveTribe):
            board.take_tribe(s, player, move.region)
            board.add_tribe(s, player, move.to)
            _unplace(s, f"tribe:{move.to}:{player}")
            self._touch(move.region, move.to)
            if move.region not in self.tribes_left:
                self.tribes_left.append(move.region)
        else:
            assert isinstance(move, MoveSpy)
            board.take_spy(s, player, move.card)
            board.add_spy(s, player, move.to)
            _unplace(s, f"spy:{move.to}:{player}")

    def _touch(self, *regions: str) -> None:
        for r in regions:
            if r not in self.touched:
                self.touched.append(r)

    def describe(self) -> str:
        return f"next step of the Move action ({self.left} left) or end_action"


def _unplace(s: PaxState, key: str) -> None:
    """A moved piece is not a piece placed this turn."""
    s.placed[key] -= 1
    if not s.placed[key]:
        del s.placed[key]


# ---------------------------------------------------------------- betray


def check_betray(s: PaxState, player: str, move: Betray) -> str | None:
    target = move.target
    if target not in s.owner:
        return f"{player} cannot betray card {target}: it is in no court"
    name = card_name(target)
    if not s.spies.get(target, {}).get(player):
        return f"{player} cannot betray {name}: {player} has no spy on it"
    owner = s.owner[target]
    if COURT[target].suit == "political" and s.has(owner, "bodyguards"):
        return f"{player} cannot betray {name}: {owner}'s Bodyguards protect {owner}'s political cards"
    if s.rupees[player] < BETRAY_COST:
        return f"{player} cannot betray {name}: it costs {BETRAY_COST} rupees, {player} has {s.rupees[player]}"
    return None


def betray(s: PaxState, player: str, target: int) -> None:
    """Betray: pay 2 to the market, discard the card; its prize may be taken."""
    pay_to_market(s, player, BETRAY_COST)
    owner = s.owner[target]
    has_prize = COURT[target].prize is not None
    if has_prize:
        s.push(PrizeTask(player, target))
    discard_from_court(s, owner, target, to_pile=not has_prize)


@dataclass(slots=True)
class PrizeTask(Task):
    """The betrayer may take the betrayed card as a prize (changing loyalty if needed)."""

    card: int
    accepts = (AcceptPrize, DeclinePrize)
    awaiting = "decision on the prize (accept_prize or decline_prize)"

    def candidates(self, s: PaxState) -> Iterable[Move]:
        return [AcceptPrize(), DeclinePrize()]

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        from replay.games.pax_pamir.court import change_loyalty

        s.pop(self)
        if isinstance(move, DeclinePrize):
            s.discard_pile.append(self.card)
            return
        prize = COURT[self.card].prize
        assert prize is not None
        if prize != s.loyalty[player]:
            change_loyalty(s, player, prize)
        s.prizes[player].append(self.card)

    def describe(self) -> str:
        return f"decision on {card_name(self.card)} as a prize (accept_prize or decline_prize)"


# ---------------------------------------------------------------- battle


def battle_strength(s: PaxState, player: str, region: str) -> int:
    loyal = s.loyalty[player]
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
            return (f"{player} cannot battle in {move.region.title()}: {player} has no {s.loyalty[player]} army "
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
    """Battle: remove up to ``left`` enemy pieces, one at a time, at one site."""

    card: int
    region: str | None
    court_card: int | None
    left: int
    losers: list[str] = field(default_factory=list)
    accepts = (RemoveArmy, RemoveRoad, RemoveTribe, RemoveSpy, EndAction)
    awaiting = "next piece to remove in the battle (or end_action)"

    def is_open(self, s: PaxState) -> bool:
        return self.left > 0 and any(not isinstance(m, EndAction) for m in self.candidates(s))

    def close(self, s: PaxState) -> None:
        if self.region is None:
            return
        board.recheck_rulers(s, (self.region,))
        for q in self.losers:
            if s.tribes[self.region][q] == 0:
                board.overthrow_after_last_tribe(s, q, self.region)

    def candidates(self, s: PaxState) -> Iterable[Move]:
        p = self.player
        loyal = s.loyalty[p]
        out: list[Move] = []
        if self.region is not None:
            r = self.region
            out.extend(RemoveArmy(coalition=c) for c in COALITIONS if c != loyal and s.armies[r][c])
            out.extend(RemoveRoad(border=b, coalition=c) for b in BORDERS_OF[r] for c in COALITIONS
                       if c != loyal and s.roads[b][c])
            out.extend(RemoveTribe(player=q) for q in s.players
                       if s.loyalty[q] != loyal and s.tribes[r][q] and not protected_tribes(s, q, r))
        else:
            assert self.court_card is not None
            spies = s.spies.get(self.court_card, {})
            out.extend(RemoveSpy(player=q) for q in s.players
                       if q != p and spies.get(q) and not s.has(q, "indispensable_advisors"))
        out.append(EndAction())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        loyal = s.loyalty[player]
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
            board.take_army(s, move.coalition, self.region)
        elif isinstance(move, RemoveRoad):
            board.take_road(s, move.coalition, move.border)
        elif isinstance(move, RemoveTribe):
            assert self.region is not None
            board.take_tribe(s, move.player, self.region)
            if move.player not in self.losers:
                self.losers.append(move.player)
        else:
            assert isinstance(move, RemoveSpy) and self.court_card is not None
            board.take_spy(s, move.player, self.court_card)
            houses = safe_houses(s, move.player, self.court_card)
            if houses:
                s.push(SafeHouseTask(move.player, self.court_card))

    def describe(self) -> str:
        site = self.region.title() if self.region else card_name(self.court_card or 0)
        return f"next piece to remove in the battle at {site} ({self.left} left) or end_action"


def safe_houses(s: PaxState, player: str, site: int) -> list[int]:
    return [c for c in s.courts[player] if COURT[c].ability == "safe_house" and c != site]


@dataclass(slots=True)
class SafeHouseTask(Task):
    """Safe House: the owner of a spy removed in battle may put it on their Safe House card."""

    site: int
    accepts = (SafeHouse, Skip)
    awaiting = "Safe House decision (safe_house on a Safe House card, or skip)"

    def is_open(self, s: PaxState) -> bool:
        return bool(safe_houses(s, self.player, self.site)) and s.cyl_supply[self.player] > 0

    def candidates(self, s: PaxState) -> Iterable[Move]:
        out: list[Move] = [SafeHouse(card=c) for c in safe_houses(s, self.player, self.site)]
        out.append(Skip())
        return out

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        if isinstance(move, SafeHouse) and move.card not in safe_houses(s, player, self.site):
            return f"{player} cannot shelter the spy on card {move.card}: it is not a Safe House card in {player}'s court"
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        s.pop(self)
        if isinstance(move, SafeHouse):
            board.add_spy(s, player, move.card)
            _unplace(s, f"spy:{move.card}:{player}")

