"""A Perikles position as numbers for the value model (``replay/evaluator.py``), as the public sees it.

Only what every player can see is read: cubes, candidates, leaders, statues, defeats, claimed
locations, the influence tiles in front of each player (taken face up), whether a special tile is
still unused (never which one it is), and the units under each leader's command *as a group*: the
strength of everything a leader took at the election and has not lost, whether still in hand or
sent face down (the public knows the group, not which counter went where), and, per location, how
many units of each side are there, never their strengths; and the odds of the battles still to
fight, an unseen counter counted at its group's mean strength (:mod:`.odds`).  The deck order and
the dice are never read.  A record seen from one seat (``?`` for an unknown tile, units sent face down counted in
``Board.away``) gives the same numbers as the full game.

Per-player features are absolute; the core adds the opponents' maximum and mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import BATTLE, HELD, POOL
from .components import (
    ATTACKER,
    CITY,
    CITY_KEYS,
    CUBE_LIMIT,
    DEFENDER,
    INFLUENCE,
    LOCATION,
    PERSIA,
    UNITS,
    tiles_per_player,
)
from .odds import expected_claims

if TYPE_CHECKING:
    from replay.engine import State

    from .board import Board

NAMES: tuple[str, ...] = (
    "score",                # the total now: location VP + statues at their value + cubes
    "location_vp",          # VP of the location tiles claimed
    "statue_points",        # statues at their city's current value
    "cubes",                # cubes on the board (1 VP each at the end)
    "cubes_left",           # cubes still in supply (the 30-cube limit)
    "statues",              # statues raised, all cities
    "locations_claimed",    # location tiles claimed
    "leads",                # cities led this round
    "leads_athens",
    "leads_sparta",
    "persian_leader",       # leads no city after the elections: commands the Persians
    "alpha",                # alpha candidacies
    "beta",                 # beta candidacies
    "projected_leads",      # cities this player leads or would lead if the elections were held now
    "projected_statues",    # VP of the statues those leaderships raise at the end of the round
    "projected_score",      # score + projected statues - the cubes an election win costs
    "cities_first",         # cities where this player has the most cubes (a tie counts 1/2)
    "cube_margin",          # sum over cities of own cubes - the best other's, each capped at +-4
    "hand_tiles",           # influence tiles in front of the player
    "hand_shards",          # their shards: commit turns to come
    "hand_two_shard",       # two-shard tiles (the first commit rounds)
    "special_unused",       # a special tile still to play
    "hoplite_strength",     # own city hoplites (in hand or sent face down), summed strengths
    "trireme_strength",
    "hoplites",
    "triremes",
    "uncommitted",          # units still to send (own, plus the Persians if a Persian leader)
    "persian_strength",     # the Persian forces a Persian leader shares
    "stake",                # VP of the locations still to fight where this player is a main side
    "stake_edge",           # those VP, weighted by (own side's units - the other's) / (all + 1)
    "allied_units",         # units this player sent as an ally (not main) to locations still to fight
    "battle_vp",            # expected VP from claiming the locations still to fight (odds.py)
    "expected_location_vp", # location VP claimed + battle_vp
    "expected_statues",     # statues, and those the projected leaderships raise, at each city's expected value
    "expected_score",       # expected_location_vp + expected_statues + cubes
    "projected_military",   # printed strength of the armies of the cities led, or projected to be led
)

GLOBAL_NAMES: tuple[str, ...] = (
    "round",
    "phase",                # 0 setup/deal, 1 influence, 2 nominations, 3 elections/military, 4 battles, 5 end
    "progress",             # within the phase: tiles taken, commit tiles spent, locations fought (0..1)
    "athens_defeats",
    "sparta_defeats",
    "locations_left",       # locations of this round still to fight
    "persian_leaders",
    "over",
)

_ARMY_STRENGTH = {c: float(sum(u.strength for u in UNITS if u.power == c)) for c in CITY_KEYS}
"""Each city's army: the printed strengths of all its counters."""
_PHASE_INDEX = {"deal": 0.0, "setup": 0.0, "influence": 1.0, "nominations": 2.0, "elections": 3.0,
                "military": 3.0, "battles": 4.0, "end of round": 5.0, "game end": 5.0}
_EDGE_CAP = 4
_BATTLE_STAGES = frozenset({"location", "reveal", "combat", "window", "battle_special", "roll", "casualty"})
_FOUGHT_STAGES = frozenset({"end_round", "over"})


def features_of_all(state: State) -> list[list[float]]:
    """Every player's :func:`features`, in seat order, with the battle odds reckoned once."""
    claims = _claims(state)  # type: ignore[arg-type]
    return [features(state, p, claims) for p in state.players]


def _claims(s: Board) -> tuple[dict[str, float], dict[str, float]]:
    """:func:`.odds.expected_claims` over the locations still to fight."""
    return expected_claims(s, [loc for loc in s.main_player if _still_to_fight(s, loc)])


def features(state: State, player: str,
             claims: tuple[dict[str, float], dict[str, float]] | None = None) -> list[float]:
    """``player``'s position as the public sees it (len == len(NAMES)); ``claims``: :func:`_claims`
    of ``state``, if already reckoned."""
    s: Board = state  # type: ignore[assignment]
    players = s.players
    cubes, alpha, beta, leader = s.cubes, s.alpha, s.beta, s.leader
    score = s.score()[player]
    on_board = score["cubes"]
    total = score["locations"] + score["statues"] + on_board

    n_alpha = n_beta = leads = projected = 0
    projected_statues = election_cost = 0
    first = margin = military = 0.0
    elections_ahead = s.stage in _BEFORE_ELECTIONS
    statues_ahead = s.stage not in _FOUGHT_STAGES
    battle_vp, statue_value = claims if claims is not None else _claims(s)
    expected_statues = sum(s.statues[c][player] * statue_value[c] for c in CITY_KEYS)
    for c in CITY_KEYS:
        here = cubes[c]
        own = here[player]
        best_other = max(here[q] for q in players if q != player)
        if own > best_other:
            first += 1.0
        elif own == best_other and own > 0:
            first += 0.5
        margin += max(-_EDGE_CAP, min(_EDGE_CAP, own - best_other))
        a, b = alpha[c], beta[c]
        if a == player:
            n_alpha += 1
        elif b == player:
            n_beta += 1
        if leader[c] == player:
            leads += 1
        if elections_ahead:
            winner, cost = _election(here, a, b)
        else:
            winner, cost = leader[c], 0
        if winner == player:
            projected += 1
            election_cost += cost
            military += _ARMY_STRENGTH[c]
            if statues_ahead:
                projected_statues += CITY[c].statue_value(s.defeats[c])
                expected_statues += statue_value[c]

    tiles = [INFLUENCE[t] for t in s.hands[player] if t in INFLUENCE]
    shards = sum(t.shards for t in tiles)
    two = sum(1 for t in tiles if t.shards == 2)

    persian = player in s.persian_leaders
    hop_str = tri_str = hops = tris = uncommitted = persian_str = 0
    at, holder = s.unit_at, s.unit_holder
    for u in UNITS:
        where = at[u.id]
        if u.power == PERSIA:
            if persian and where in (POOL, BATTLE):
                persian_str += u.strength
                if where == POOL:
                    uncommitted += 1
            continue
        if holder[u.id] != player or where not in (HELD, BATTLE):
            continue
        if u.type == "hoplite":
            hop_str += u.strength
            hops += 1
        else:
            tri_str += u.strength
            tris += 1
        if where == HELD:
            uncommitted += 1
    if s.away:
        uncommitted -= sum(n for g, n in s.away.items()
                           if g.startswith(player + "|") or (persian and g.startswith("pool|")))

    stake = edge = 0.0
    allied = 0
    for loc, sides in s.main_player.items():
        if not _still_to_fight(s, loc):
            continue
        counts = _side_counts(s, loc)
        for side, other in ((ATTACKER, DEFENDER), (DEFENDER, ATTACKER)):
            if sides.get(side) == player:
                vp = LOCATION[loc].vp
                stake += vp
                edge += vp * (counts[side] - counts[other]) / (counts[side] + counts[other] + 1)
        allied += _allied_units(s, loc, player)

    return [
        float(total), float(score["locations"]), float(score["statues"]), float(on_board),
        float(CUBE_LIMIT - on_board), float(s.statue_count(player)), float(len(s.claimed[player])),
        float(leads), float(leader["athens"] == player), float(leader["sparta"] == player), float(persian),
        float(n_alpha), float(n_beta), float(projected), float(projected_statues),
        float(total + projected_statues - election_cost), first, margin,
        float(len(tiles)), float(shards), float(two), float(not s.special_used[player]),
        float(hop_str), float(tri_str), float(hops), float(tris), float(uncommitted), float(persian_str),
        stake, edge, float(allied),
        battle_vp[player], score["locations"] + battle_vp[player], expected_statues,
        score["locations"] + battle_vp[player] + expected_statues + on_board, military,
    ]


def global_features(state: State) -> list[float]:
    """The game-wide features (len == len(GLOBAL_NAMES))."""
    s: Board = state  # type: ignore[assignment]
    phase = s.phase()[1]
    return [
        float(s.round), _PHASE_INDEX.get(phase, 0.0), _progress(s, phase),
        float(s.defeats["athens"]), float(s.defeats["sparta"]),
        float(sum(1 for loc in s.locations if _still_to_fight(s, loc))),
        float(len(s.persian_leaders)), float(s.over),
    ]


_BEFORE_ELECTIONS = frozenset({"deal_influence", "deal_locations", "deal_specials", "first_player", "placement",
                               "influence", "refill", "nomination_start", "nomination", "elections"})


def _election(here: dict[str, int], a: str | None, b: str | None) -> tuple[str | None, int]:
    """Who wins a city's election if it were held now, and the cubes the win costs him."""
    if a is None:
        return None, 0
    if b is None:
        return a, 0
    if here[a] >= here[b]:
        return a, here[b]
    return b, here[a]


def _still_to_fight(s: Board, loc: str) -> bool:
    """Whether the location of this round has not been fought yet (the one being fought counts)."""
    if s.stage in _FOUGHT_STAGES or loc not in s.locations:
        return False
    if s.stage in _BATTLE_STAGES:
        return s.locations.index(loc) >= s.battle_slot
    return True


def _side_counts(s: Board, loc: str) -> dict[str, int]:
    """Units on each side at ``loc``, those sent face down included (their counters are not read)."""
    counts = {ATTACKER: 0, DEFENDER: 0}
    for uid in s.units_at(loc):
        counts[s.unit_side[uid] or ATTACKER] += 1
    for f in s.face_down:
        if f["location"] == loc:
            counts[f["side"]] += 1
    return counts


def _allied_units(s: Board, loc: str, player: str) -> int:
    n = sum(1 for uid in s.units_at(loc) if s.unit_holder[uid] == player and not s.unit_main[uid])
    return n + sum(1 for f in s.face_down if f["location"] == loc and f["holder"] == player and not f["main"])


def _progress(s: Board, phase: str) -> float:
    if phase == "influence":
        return s.takes / (tiles_per_player(len(s.players)) * len(s.players))
    if phase == "military":
        left = sum(len(h) for h in s.hands.values())
        return 1.0 - left / (tiles_per_player(len(s.players)) * len(s.players))
    if phase == "battles" and s.locations:
        return s.battle_slot / len(s.locations)
    return 0.0


__all__ = ["GLOBAL_NAMES", "NAMES", "features", "features_of_all", "global_features"]
