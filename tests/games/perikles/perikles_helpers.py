"""Build Perikles positions by hand for the rule tests."""

from __future__ import annotations

from typing import Any

from replay.engine import ChanceRequest, Move
from replay.games.perikles import GAME, tasks
from replay.games.perikles.components import INFLUENCE_TILES, LOCATIONS
from replay.games.perikles.phases import commitment
from replay.games.perikles.state import PeriklesState

PLAYERS3 = ["p1", "p2", "p3"]


def goto(st: PeriklesState, task: tasks.Task) -> None:
    """The rules go on from ``task`` (a step of the round reached by hand), as far as they can."""
    st.stack = [task]
    st.advance()


def players(n: int) -> list[str]:
    return [f"p{i + 1}" for i in range(n)]


def fresh(n: int = 3, *, ruleset: str = "official", display: list[str] | None = None,
          locations: list[str] | None = None, specials: list[str] | None = None,
          first: str = "p1") -> PeriklesState:
    """A game right after the deals and the first-player pick (initial placement next).

    By default nobody holds an influence special tile (so no after-tile step).
    """
    st = GAME.initial_state(players(n), {"ruleset": ruleset})
    assert isinstance(st, PeriklesState)
    st.apply_chance({"draw": "influence", "items": display or [t.id for t in INFLUENCE_TILES[:10]]})
    st.apply_chance({"draw": "locations", "items": locations or [t.key for t in LOCATIONS[:7]]})
    combat_only = ["brasidas", "phormio", "slaverevolt", "thessalanianallies", "persianfleet"][:n]
    st.apply_chance({"draw": "special", "items": specials or combat_only})
    st.apply_chance({"choose": "first_player", "value": first})
    return st


def placed(n: int = 3, city: str = "megara", **kw: Any) -> PeriklesState:
    """After the initial placement (every player puts both extra cubes in ``city``)."""
    st = fresh(n, **kw)
    for _ in range(2 * n):
        t = st.turn()
        assert isinstance(t, str)
        st.apply_move(t, _place(city))
    return st


def _place(city: str) -> Move:
    from replay.games.perikles.moves import PlaceCube
    return PlaceCube(city=city)


def play(st: PeriklesState, move: Move) -> None:
    t = st.turn()
    assert isinstance(t, str), f"expected a player to move, the rules await {t}"
    st.apply_move(t, move)


def request(st: PeriklesState) -> ChanceRequest:
    t = st.turn()
    assert isinstance(t, ChanceRequest), f"expected chance, it is {t}'s turn"
    return t


def at_battle(n: int = 3, *, ruleset: str = "official", locations: list[str] | None = None,
              specials: list[str] | None = None) -> PeriklesState:
    """A hand-built position in the military phase, ready to commit units with :func:`commit`.

    By default nobody holds a combat special tile (so no pre-combat window opens).
    """
    quiet = ["perikles", "plague", "alkibiades", "slaverevolt", "brasidas"][:n]
    st = placed(n, ruleset=ruleset, locations=locations, specials=specials or quiet)
    assert st.cur is not None
    st.stack = [tasks.CommitTurn(st.cur)]
    for p in st.players:
        st.hands[p] = []
    return st


def give_units(st: PeriklesState, player: str, power: str) -> None:
    """``player`` leads ``power`` (a city, or Persia) and holds all its units."""
    from replay.games.perikles.board import HELD, POOL
    from replay.games.perikles.components import PERSIA, UNITS
    if power == PERSIA:
        if player not in st.persian_leaders:
            st.persian_leaders.append(player)
    else:
        st.leader[power] = player
    for u in UNITS:
        if u.power == power:
            st.unit_at[u.id] = POOL if power == PERSIA else HELD
            st.unit_holder[u.id] = None if power == PERSIA else player


MILITARY_LOCATIONS = ["pylos", "plataea", "amphipolis", "cephallenia", "mantinea", "lesbos", "sicily"]


def military_phase(ruleset: str, hands: dict[str, list[str]], specials: list[str] | None = None) -> PeriklesState:
    """p1 leads Sparta, p2 Athens and Argos, p3 is the Persian leader; the military phase starts."""
    st = placed(3, ruleset=ruleset, locations=MILITARY_LOCATIONS, specials=specials)
    st.hands = hands
    give_units(st, "p1", "sparta")
    give_units(st, "p2", "athens")
    give_units(st, "p2", "argos")
    give_units(st, "p3", "persia")
    goto(st, tasks.MilitaryPhase())
    return st


def commit(st: PeriklesState, player: str, power: str, unit_type: str, strength: int, location: str,
           side: str) -> str:
    uid = commitment.find_unit(st, player, power, unit_type, strength)
    assert uid is not None, f"{player} holds no {power} {unit_type} {strength}"
    commitment.commit(st, player, uid, location, side)
    return uid


def fight(st: PeriklesState, location: str) -> None:
    """Start resolving ``location`` (as if the battle phase had reached its slot)."""
    st.battle_slot = st.locations.index(location)
    st.cur = None
    goto(st, tasks.Locations())


def roll(st: PeriklesState, attacker: tuple[int, int], defender: tuple[int, int]) -> None:
    assert request(st).name == "attacker"
    st.apply_chance({"roll": list(attacker)})
    assert request(st).name == "defender"
    st.apply_chance({"roll": list(defender)})


def milestones(st: PeriklesState, kind: str) -> list[dict[str, Any]]:
    return [m for m in st.milestones if m["type"] == kind]
