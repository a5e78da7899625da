"""The map and the pieces: placing and removing blocks and cylinders, rulership,
the overthrow rule and the component-limit rule.

Piece names (used by ``take_piece`` moves and the "placed this turn" marks):
``army:<region>``, ``road:<border>``, ``tribe:<region>``, ``spy:<card>``,
``gift:<value>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.engine import Move
from replay.games.pax_pamir.components import BORDER_IDS, BORDERS_OF, COURT, REGIONS, card_name
from replay.games.pax_pamir.moves import TakePiece
from replay.games.pax_pamir.tasks import Task

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState


# ---------------------------------------------------------------- rulership


def recheck_rulers(s: PaxState, regions: Iterable[str] = REGIONS) -> None:
    """Move the ruler tokens wherever the rulership test now gives another answer."""
    wanted = set(regions)
    for r in REGIONS:
        if r not in wanted:
            continue
        new = s.compute_ruler(r)
        old = s.rulers[r]
        if s.ruler_against_players_only:
            book = s.compute_ruler(r, against_armies=True)
            if book != new and (new != old or book != old):  # here one rule moves the token, the other not
                s.depart("ruler_against_players_only",
                         f"{r.title()}: BGA's rule of the time gives {new or 'nobody'} the rule, the rulebook's "
                         f"{book or 'nobody'} (a coalition has as many armies as the ruling pieces)")
        if new != old:
            s.rulers[r] = new
            s.add_milestone("rulership_change", region=r, old_ruler=old, new_ruler=new)


# ---------------------------------------------------------------- placed-this-turn marks


def _mark(s: PaxState, key: str) -> None:
    s.placed[key] = s.placed.get(key, 0) + 1


def unmark_moved(s: PaxState, key: str) -> None:
    """A piece that moved is not a piece placed this turn."""
    s.placed[key] -= 1
    if not s.placed[key]:
        del s.placed[key]


def _unmark(s: PaxState, key: str, left: int) -> None:
    """After a piece left a location: at most ``left`` pieces there can still be marked."""
    if s.placed.get(key, 0) > left:
        if left:
            s.placed[key] = left
        else:
            del s.placed[key]


# ---------------------------------------------------------------- low-level moves of pieces


def add_army(s: PaxState, coalition: str, region: str) -> None:
    s.block_supply[coalition] -= 1
    s.blocks_changed(coalition)
    s.armies[region][coalition] += 1
    _mark(s, f"army:{region}:{coalition}")


def add_road(s: PaxState, coalition: str, border: str) -> None:
    s.block_supply[coalition] -= 1
    s.blocks_changed(coalition)
    s.roads[border][coalition] += 1
    _mark(s, f"road:{border}:{coalition}")


def add_tribe(s: PaxState, player: str, region: str) -> None:
    s.cyl_supply[player] -= 1
    s.cylinders_changed(player)
    s.tribes[region][player] += 1
    _mark(s, f"tribe:{region}:{player}")


def add_spy(s: PaxState, player: str, card: int) -> None:
    s.cyl_supply[player] -= 1
    s.cylinders_changed(player)
    spies = s.spies.setdefault(card, {})
    spies[player] = spies.get(player, 0) + 1
    _mark(s, f"spy:{card}:{player}")


def add_gift(s: PaxState, player: str, value: int) -> None:
    s.cyl_supply[player] -= 1
    s.cylinders_changed(player)
    s.gifts[player].append(value)
    s.gifts[player].sort()
    s.influence_changed(player)
    _mark(s, f"gift:{value}:{player}")


def take_army(s: PaxState, coalition: str, region: str) -> None:
    s.armies[region][coalition] -= 1
    s.block_supply[coalition] += 1
    s.blocks_changed(coalition)
    _unmark(s, f"army:{region}:{coalition}", s.armies[region][coalition])


def take_road(s: PaxState, coalition: str, border: str) -> None:
    s.roads[border][coalition] -= 1
    s.block_supply[coalition] += 1
    s.blocks_changed(coalition)
    _unmark(s, f"road:{border}:{coalition}", s.roads[border][coalition])


def take_tribe(s: PaxState, player: str, region: str) -> None:
    s.tribes[region][player] -= 1
    s.cyl_supply[player] += 1
    s.cylinders_changed(player)
    _unmark(s, f"tribe:{region}:{player}", s.tribes[region][player])


def take_spy(s: PaxState, player: str, card: int) -> None:
    spies = s.spies[card]
    spies[player] -= 1
    s.cyl_supply[player] += 1
    s.cylinders_changed(player)
    _unmark(s, f"spy:{card}:{player}", spies[player])
    if not spies[player]:
        del spies[player]
        if not spies:
            del s.spies[card]


def take_gift(s: PaxState, player: str, value: int) -> None:
    s.gifts[player].remove(value)
    s.influence_changed(player)
    s.cyl_supply[player] += 1
    s.cylinders_changed(player)
    _unmark(s, f"gift:{value}:{player}", 0)


def return_all_spies(s: PaxState, card: int) -> None:
    """All spies on a card go back to their owners' boards."""
    for p, n in sorted(s.spies.pop(card, {}).items()):
        s.cyl_supply[p] += n
        s.cylinders_changed(p)
        _unmark(s, f"spy:{card}:{p}", 0)


# ---------------------------------------------------------------- removals with their consequences


def remove_army(s: PaxState, coalition: str, region: str) -> None:
    take_army(s, coalition, region)
    recheck_rulers(s, (region,))


def remove_tribe(s: PaxState, player: str, region: str) -> None:
    """A tribe leaves the map: ruler re-check, and the overthrow rule if it was the last one."""
    take_tribe(s, player, region)
    recheck_rulers(s, (region,))
    if s.tribes[region][player] == 0:
        overthrow_after_last_tribe(s, player, region)


def overthrown_cards(s: PaxState, player: str, region: str) -> list[int]:
    """The political cards of ``region`` in the player's court (left to right)."""
    return [c for c in s.courts[player] if COURT[c].suit == "political" and COURT[c].region == region]


def overthrow_after_last_tribe(s: PaxState, player: str, region: str) -> None:
    """Overthrow: a player who lost their last tribe in a region discards every political
    card of that region from their court, all at once; under ``bga`` one at a time when one of
    them is leveraged (:class:`~replay.games.pax_pamir.court.OverthrowDiscardTask`)."""
    from replay.games.pax_pamir.court import OverthrowDiscardTask, discard_from_court

    cards = overthrown_cards(s, player, region)
    if not cards:
        return
    task = OverthrowDiscardTask(player, region)
    if task.is_open(s):
        s.push(task)
        return
    for card in cards:
        if card in s.courts[player]:
            discard_from_court(s, player, card)


def defer_wakhan_overthrow(s: PaxState, player: str, region: str) -> bool:
    """``bga``: the Wakhan resolves all the impact icons of a card she plays before any Overthrow
    one of them caused (her last tribe of a region taken for another piece): the check waits
    under the card's icons (departure ``wakhan_overthrow_after_icons``).  False, nothing done,
    in any other case."""
    from replay.games.pax_pamir.court import IconsTask
    from replay.games.pax_pamir.wakhan import HandTask

    if player != s.wakhan or s.ruleset != "bga" or s.tribes[region][player]:
        return False
    stack = s.stack
    hand = next((i for i in range(len(stack) - 1, -1, -1) if type(stack[i]) is HandTask), None)
    if hand is not None:  # cards from Other Persuasive Methods: after all of them are played
        task = stack[hand]
        assert isinstance(task, HandTask)
        if task.from_person:  # BGA's person's swap drops the Overthrow (its action stack is rewritten)
            if overthrown_cards(s, player, region):
                s.depart("wakhan_overthrow_lost", f"the Wakhan's last tribe in {region.title()} left while she "
                                                  "played the cards a swap gave her: no Overthrow follows")
            return True
        stack.insert(hand, OverthrowCheckTask(player, region))
        return True
    at = next((i for i in range(len(stack) - 1, -1, -1)
               if type(stack[i]) is IconsTask and stack[i].player == player), None)
    if at is None:
        return False
    stack.insert(at, OverthrowCheckTask(player, region))
    return True


@dataclass(slots=True)
class OverthrowCheckTask(Task):
    """The Wakhan's Overthrow in ``region``, once the icons of her card are resolved
    (:func:`defer_wakhan_overthrow`): if she still has no tribe there."""

    region: str
    decision = False

    def run(self, s: PaxState) -> None:
        s.pop(self)
        cards = overthrown_cards(s, self.player, self.region)
        if s.tribes[self.region][self.player] or not cards:
            return
        s.depart("wakhan_overthrow_after_icons",
                 f"the Wakhan's Overthrow in {self.region.title()} waits until her card's icons are resolved")
        overthrow_after_last_tribe(s, self.player, self.region)


def overthrow_after_last_political(s: PaxState, player: str, region: str) -> None:
    """Overthrow: a player who lost their last political card of a region removes all their
    tribes from that region."""
    if any(COURT[c].suit == "political" and COURT[c].region == region for c in s.courts[player]):
        return
    while s.tribes[region][player]:
        take_tribe(s, player, region)
    recheck_rulers(s, (region,))


def remove_tribes_and_armies(s: PaxState, region: str) -> None:
    """Riots and Rebuke: every tribe and army in the region goes back to its supply."""
    for c in list(s.armies[region]):
        while s.armies[region][c]:
            take_army(s, c, region)
    losers = [p for p in s.players if s.tribes[region][p]]
    for p in losers:
        while s.tribes[region][p]:
            take_tribe(s, p, region)
    recheck_rulers(s, (region,))
    for p in losers:
        overthrow_after_last_tribe(s, p, region)


def remove_all_blocks(s: PaxState) -> None:
    """After a successful Dominance Check every army and road goes back to its supply."""
    for r in REGIONS:
        for c, n in s.armies[r].items():
            s.block_supply[c] += n
            s.blocks_changed(c)
            s.armies[r][c] = 0
    for b in BORDER_IDS:
        for c, n in s.roads[b].items():
            s.block_supply[c] += n
            s.blocks_changed(c)
            s.roads[b][c] = 0
    for key in [k for k in s.placed if k.startswith(("army:", "road:"))]:
        del s.placed[key]
    recheck_rulers(s)


# ---------------------------------------------------------------- placing, with the component-limit rule


def place(s: PaxState, player: str, kind: str, where: str, coalition: str | None = None) -> None:
    """Place one piece (``army``/``road`` of ``coalition``, or ``tribe``/``spy``/``gift`` of
    ``player``).  With the supply empty, the player takes a piece from the board instead."""
    is_block = kind in ("army", "road")
    if is_block:
        assert coalition is not None
        empty = s.block_supply[coalition] == 0
    else:
        empty = s.cyl_supply[player] == 0
    if empty:
        if eligible_pieces(s, player, is_block, coalition):
            s.push(TakePieceTask(player, kind, where, coalition))
        return
    put(s, player, kind, where, coalition)


def can_place(s: PaxState, player: str, kind: str, coalition: str | None = None) -> bool:
    """Whether a piece of this kind can be placed at all (from the supply or the board)."""
    if kind in ("army", "road"):
        assert coalition is not None
        return s.block_supply[coalition] > 0 or bool(eligible_pieces(s, player, True, coalition))
    return s.cyl_supply[player] > 0 or bool(eligible_pieces(s, player, False, None))


def put(s: PaxState, player: str, kind: str, where: str, coalition: str | None) -> None:
    if kind == "army":
        assert coalition is not None
        add_army(s, coalition, where)
        recheck_rulers(s, (where,))
    elif kind == "road":
        assert coalition is not None
        add_road(s, coalition, where)
    elif kind == "tribe":
        add_tribe(s, player, where)
        recheck_rulers(s, (where,))
    elif kind == "spy":
        add_spy(s, player, int(where))
    else:
        add_gift(s, player, int(where))


def eligible_pieces(s: PaxState, player: str, is_block: bool, coalition: str | None) -> list[str]:
    """Pieces the player may take under the component-limit rule: "from anywhere in play,
    excluding any pieces placed this turn" -- any block of the required coalition, or any of
    the player's own cylinders, wherever it is (the very place it is going to included)."""
    out: list[str] = []
    placed = s.placed
    if is_block:
        assert coalition is not None
        for r in REGIONS:
            if s.armies[r][coalition] > placed.get(f"army:{r}:{coalition}", 0):
                out.append(f"army:{r}")
        for b in BORDER_IDS:
            if s.roads[b][coalition] > placed.get(f"road:{b}:{coalition}", 0):
                out.append(f"road:{b}")
        return out
    for r in REGIONS:
        if s.tribes[r][player] > placed.get(f"tribe:{r}:{player}", 0):
            out.append(f"tribe:{r}")
    any_spy = player == s.wakhan and s.ruleset == "bga"  # (departure ``wakhan_takes_new_spy``)
    for card in sorted(s.spies):
        if s.spies[card].get(player, 0) > (0 if any_spy else placed.get(f"spy:{card}:{player}", 0)):
            out.append(f"spy:{card}")
    for v in s.gifts[player]:
        if not placed.get(f"gift:{v}:{player}", 0):
            out.append(f"gift:{v}")
    return out


def pieces_at(s: PaxState, kind: str, where: str, owner: str) -> int:
    """How many pieces of ``kind`` of ``owner`` (a coalition for blocks, a player for cylinders)
    are at ``where``."""
    if kind == "army":
        return s.armies[where][owner] if where in s.armies else 0
    if kind == "road":
        return s.roads[where][owner] if where in s.roads else 0
    if kind == "tribe":
        return s.tribes[where][owner] if where in s.tribes else 0
    if kind == "spy":
        return s.spies.get(int(where), {}).get(owner, 0) if where.isdigit() else 0
    if kind == "gift":
        return s.gifts[owner].count(int(where)) if where.isdigit() else 0
    return 0


def take_from_board(s: PaxState, player: str, piece: str, coalition: str | None) -> None:
    """Lift a piece off the board (with every consequence of losing it there)."""
    kind, _, where = piece.partition(":")
    if kind == "army":
        assert coalition is not None
        remove_army(s, coalition, where)
    elif kind == "road":
        assert coalition is not None
        take_road(s, coalition, where)
    elif kind == "tribe":
        remove_tribe(s, player, where)
    elif kind == "spy":
        take_spy(s, player, int(where))
    else:
        take_gift(s, player, int(where))


def describe_piece(kind: str, where: str, coalition: str | None = None) -> str:
    if kind in ("army", "tribe"):
        return f"{coalition + ' ' if coalition and kind == 'army' else ''}{kind} in {where.title()}"
    if kind == "road":
        a, _, b = where.partition("_")
        return f"{coalition + ' ' if coalition else ''}road on the {a.title()}-{b.title()} border"
    if kind == "spy":
        return f"spy on {card_name(int(where)) if where.isdigit() else where}"
    return f"gift on the {where}-rupee space"


@dataclass(slots=True)
class TakePieceTask(Task):
    """Component limit: the supply is empty, so the player picks a piece on the board to move."""

    kind: str
    where: str
    coalition: str | None
    accepts = (TakePiece,)
    awaiting = "choice of a piece to take from the board (the supply is empty)"

    def is_open(self, s: PaxState) -> bool:
        return bool(eligible_pieces(s, self.player, self.kind in ("army", "road"), self.coalition))

    def candidates(self, s: PaxState) -> Iterable[Move]:
        for piece in eligible_pieces(s, self.player, self.kind in ("army", "road"), self.coalition):
            yield TakePiece(piece=piece)

    def check(self, s: PaxState, player: str, move: Move) -> str | None:
        assert isinstance(move, TakePiece)
        kind, _, where = move.piece.partition(":")
        if self.kind in ("army", "road"):
            what = f"{self.coalition} blocks"
            ok_kinds: tuple[str, ...] = ("army", "road")
        else:
            what = f"{player}'s cylinders"
            ok_kinds = ("tribe", "spy", "gift")
        if kind not in ok_kinds:
            return (f"{player} cannot take {move.piece!r}: the {self.kind} must come from {what} "
                    f"on the board (pieces named {', '.join(k + ':...' for k in ok_kinds)})")
        if move.piece not in eligible_pieces(s, player, self.kind in ("army", "road"), self.coalition):
            piece = describe_piece(kind, where, self.coalition if kind in ("army", "road") else None)
            owner = self.coalition if kind in ("army", "road") else player
            assert owner is not None
            if not pieces_at(s, kind, where, owner):
                whose = f"no {self.coalition} block" if kind in ("army", "road") else f"no cylinder of {player}"
                return f"{player} cannot take the {piece}: there is {whose} there"
            return (f"{player} cannot take the {piece}: every one there was placed this turn, and pieces "
                    "placed this turn may not be taken (component-limit rule)")
        return None

    def apply(self, s: PaxState, player: str, move: Move) -> None:
        assert isinstance(move, TakePiece)
        s.pop(self)
        if move.piece == f"{self.kind}:{self.where}":
            # Taken from the very place it goes to: it never leaves, so nothing is lost there
            # (no overthrow, no ruler change); it is now a piece placed this turn.
            _mark(s, f"{self.kind}:{self.where}:{self.coalition if self.kind in ('army', 'road') else player}")
            return
        kind, _, where = move.piece.partition(":")
        if kind == "tribe":  # the cylinder reaches its new place before the loss of the tribe is felt
            take_tribe(s, player, where)  # (a spy it becomes on a card the overthrow discards goes home)
            recheck_rulers(s, (where,))  # the region it left first, then where it goes (as BGA)
            put(s, player, self.kind, self.where, self.coalition)
            if s.no_overthrow_for_taken_tribes and s.tribes[where][player] == 0:
                if overthrown_cards(s, player, where):
                    s.depart("no_overthrow_for_taken_tribes",
                             f"{player}'s last tribe in {where.title()} is taken for a piece placed elsewhere and "
                             f"{player} keeps its political cards (rulebook: Overthrow discards them)")
                return
            if not defer_wakhan_overthrow(s, player, where) and s.tribes[where][player] == 0:
                overthrow_after_last_tribe(s, player, where)
            return
        if kind == "spy" and s.spies[int(where)].get(player, 0) <= s.placed.get(f"{move.piece}:{player}", 0):
            s.depart("wakhan_takes_new_spy", f"the Wakhan takes her spy on {card_name(int(where))}, placed this "
                                             "turn, for another piece")
        take_from_board(s, player, move.piece, self.coalition)
        put(s, player, self.kind, self.where, self.coalition)

    def describe(self) -> str:
        return f"choice of a piece to take from the board for the {describe_piece(self.kind, self.where)}"


def roads_touching(region: str) -> tuple[str, ...]:
    return BORDERS_OF[region]
