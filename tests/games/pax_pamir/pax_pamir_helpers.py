"""Build Pax Pamir positions for tests: a known opening market and loyalties, then direct
edits of the state (cards in hands and courts, pieces on the map)."""

from __future__ import annotations

import pytest

from replay.engine import IllegalMove, Move
from replay.games import get_game
from replay.games.pax_pamir import board
from replay.games.pax_pamir.components import COURT
from replay.games.pax_pamir.state import PaxState

GAME = get_game("pax_pamir")
PIDS = ("p1", "p2", "p3", "p4", "p5")
#: twelve court cards used by no unit test's own hands: dealt (0,0), (1,0), (0,1), (1,1), ...
MARKET = [9, 13, 29, 44, 48, 61, 62, 63, 65, 67, 96, 95]


def setup(n: int = 2, ruleset: str = "official", loyalties: tuple[str, ...] = ("afghan", "british", "russian",
          "afghan", "british"), market: list[int] | None = None, **options: object) -> PaxState:
    """A game whose opening market is ``market`` and where p1 chose loyalty last (so p1 starts);
    ``options``: more record options."""
    s = GAME.initial_state(list(PIDS[:n]), {"ruleset": ruleset, **options})
    assert isinstance(s, PaxState)
    for card in market or MARKET:
        s.apply_chance({"draw": "deck", "items": [card]})
    if ruleset != "bga":
        s.apply_chance({"choose": "first_chooser", "value": PIDS[1]})
    order = [PIDS[(1 + k) % n] for k in range(n)] if ruleset != "bga" else list(PIDS[:n])
    for p in order:
        s.apply_move(p, GAME.parse_move({"type": "choose_loyalty", "coalition": loyalties[PIDS.index(p)]}))
    return s


def play(s: PaxState, move: Move, player: str | None = None) -> None:
    who = player or s.turn()
    assert isinstance(who, str), f"expected a player's turn, got {s.turn()!r}"
    s.apply_move(who, move)


def illegal(s: PaxState, move: Move, *words: str, player: str | None = None) -> str:
    """The move is refused with a message containing every one of ``words``; the state is untouched."""
    before = s.state_hash()
    with pytest.raises(IllegalMove) as exc:
        play(s, move, player)
    msg = str(exc.value)
    for w in words:
        assert w in msg, msg
    assert s.state_hash() == before
    return msg


def legal(s: PaxState) -> list[Move]:
    return list(s.legal_moves())


def to_court(s: PaxState, player: str, *cards: int) -> None:
    for c in cards:
        s.courts[player].append(c)
        s.court_changed(player)
        s.owner[c] = player
        s.seen.add(c)


def to_hand(s: PaxState, player: str, *cards: int) -> None:
    for c in cards:
        s.hands[player].append(c)
        s.seen.add(c)


def armies(s: PaxState, region: str, coalition: str, n: int = 1) -> None:
    for _ in range(n):
        s.block_supply[coalition] -= 1
        s.armies[region][coalition] += 1
    board.recheck_rulers(s)


def roads(s: PaxState, border: str, coalition: str, n: int = 1) -> None:
    for _ in range(n):
        s.block_supply[coalition] -= 1
        s.roads[border][coalition] += 1


def tribes(s: PaxState, region: str, player: str, n: int = 1) -> None:
    for _ in range(n):
        s.cyl_supply[player] -= 1
        s.tribes[region][player] += 1
    board.recheck_rulers(s)


def spies(s: PaxState, card: int, player: str, n: int = 1) -> None:
    for _ in range(n):
        s.cyl_supply[player] -= 1
        s.spies.setdefault(card, {})
        s.spies[card][player] = s.spies[card].get(player, 0) + 1


def stars(card: int) -> int:
    return COURT[card].rank
