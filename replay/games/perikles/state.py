"""The Perikles state on the engine protocol: whose turn, legal moves, chance, score, snapshot."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from replay.engine import OVER, ChanceRequest, IllegalMove, Move, Outcome, Turn

from . import moves as mv
from .board import Board
from .components import (
    CITY,
    CITY_KEYS,
    DISPLAY_SLOTS,
    INFLUENCE_TILES,
    LOCATION,
    LOCATION_SLOTS,
    LOCATIONS,
    SPECIAL_TILES,
    UNITS,
)
from .describe import describe
from .phases import (
    battle_specials,
    battles,
    commitment,
    elections,
    end_of_round,
    influence,
    influence_specials,
    military,
    nominations,
    slave_revolt,
)
from .scoring import ranking, score_breakdown

Options = Callable[[Any, str], Any]
Check = Callable[[Any, str, Any], "str | None"]
Apply = Callable[[Any, str, Any], None]


def _nominate(s: Board, player: str, move: mv.Nominate) -> None:
    """A nomination: in the influence phase it is the Candidate symbol; in the nomination phase, a turn."""
    nominations.nominate(s, player, move)
    if s.stage == "influence":
        influence.after_tile(s, player)
    else:
        nxt = nominations.next_nominator(s, player)
        s.cur = nxt
        if nxt is None:
            s.stage = "elections"


def _choose_first(s: Board, player: str, move: mv.ChooseFirstCommitter) -> None:
    military.choose_first_committer(s, player, move)
    _after_spartan_choice(s)


def _after_spartan_choice(s: Board) -> None:
    """Official: recovery came first, commits follow. ``bga``: recovery follows, from the chosen player."""
    if s.ruleset == "bga":
        assert s.first_committer is not None
        s.recovery_queue = military.recovery_queue(s, s.first_committer)
        s.stage = "recover"
    else:
        s.stage = "next_commit"


RULES: dict[type[Move], tuple[Options, Check, Apply]] = {
    mv.PlaceCube: (influence.place_cube_options, influence.place_cube_check, influence.place_cube),
    mv.TakeTile: (influence.take_tile_options, influence.take_tile_check, influence.take_tile),
    mv.PlaceAnyCube: (influence.place_any_cube_options, influence.place_any_cube_check, influence.place_any_cube),
    mv.Nominate: (nominations.nominate_options, nominations.nominate_check, _nominate),
    mv.Assassinate: (influence.assassinate_options, influence.assassinate_check, influence.assassinate),
    mv.FinishTurn: (influence.finish_turn_options, influence.finish_turn_check, influence.finish_turn),
    mv.PlayPerikles: (influence_specials.play_perikles_options, influence_specials.play_perikles_check, influence_specials.play_perikles),
    mv.PlayPlague: (influence_specials.play_plague_options, influence_specials.play_plague_check, influence_specials.play_plague),
    mv.PlayAlkibiades: (influence_specials.play_alkibiades_options, influence_specials.play_alkibiades_check,
                        influence_specials.play_alkibiades),
    mv.AlkibiadesMove: (influence_specials.alkibiades_move_options, influence_specials.alkibiades_move_check,
                        influence_specials.alkibiades_move),
    mv.RecoverUnit: (military.recover_unit_options, military.recover_unit_check, military.recover_unit),
    mv.ChooseFirstCommitter: (military.choose_first_committer_options, military.choose_first_committer_check,
                              _choose_first),
    mv.SendUnit: (commitment.send_unit_options, commitment.send_unit_check, commitment.send_unit),
    mv.SpendCube: (commitment.spend_cube_options, commitment.spend_cube_check, commitment.spend_cube),
    mv.EndCommit: (military.end_commit_options, military.end_commit_check, military.end_commit),
    mv.AnswerPermission: (commitment.answer_permission_options, commitment.answer_permission_check,
                          commitment.answer_permission),
    mv.PlaySlaveRevolt: (slave_revolt.play_slave_revolt_options, slave_revolt.play_slave_revolt_check,
                         slave_revolt.play_slave_revolt),
    mv.PlayBrasidas: (battle_specials.play_brasidas_options, battle_specials.play_brasidas_check, battle_specials.play_brasidas),
    mv.PlayPhormio: (battle_specials.play_phormio_options, battle_specials.play_phormio_check, battle_specials.play_phormio),
    mv.PlayThessalianAllies: (battle_specials.play_thessalian_allies_options, battle_specials.play_thessalian_allies_check,
                              battle_specials.play_thessalian_allies),
    mv.PlayPersianFleet: (battle_specials.play_persian_fleet_options, battle_specials.play_persian_fleet_check,
                          battle_specials.play_persian_fleet),
    mv.DeclineSpecial: (battle_specials.decline_special_options, battle_specials.decline_special_check, battle_specials.decline_special),
    mv.ChooseCasualty: (battles.choose_casualty_options, battles.choose_casualty_check, battles.choose_casualty),
}

INFLUENCE_SPECIALS: tuple[type[Move], ...] = (mv.PlayPerikles, mv.PlayPlague, mv.PlayAlkibiades)

EXPECTED: dict[str, tuple[tuple[type[Move], ...], str]] = {
    "placement": ((mv.PlaceCube,), "place a starting cube"),
    "influence/before": ((mv.TakeTile,) + INFLUENCE_SPECIALS, "take an influence tile"),
    "influence/any_city": ((mv.PlaceAnyCube,), "choose the city for the Any tile's cube"),
    "influence/candidate": ((mv.Nominate,), "make the Candidate symbol's nomination"),
    "influence/assassin": ((mv.Assassinate,), "remove a cube with the Assassin symbol"),
    "influence/after": ((mv.FinishTurn,) + INFLUENCE_SPECIALS, "finish the influence turn"),
    "influence/alkibiades": ((mv.AlkibiadesMove,), "move a cube with Alkibiades"),
    "nomination": ((mv.Nominate,), "nominate a candidate"),
    "recover": ((mv.RecoverUnit,), "choose which unit comes back from the dead pool"),
    "choose_first": ((mv.ChooseFirstCommitter,), "name the first player to commit (as leader of Sparta)"),
    "commit": ((mv.SendUnit, mv.SpendCube, mv.EndCommit, mv.PlaySlaveRevolt), "commit units"),
    "permission": ((mv.AnswerPermission,), "answer a request to defend his location"),
    "battle_special": ((mv.PlayBrasidas, mv.PlayPhormio, mv.PlayThessalianAllies, mv.PlayPersianFleet,
                        mv.DeclineSpecial), "play or keep his special tile before the combat"),
    "casualty": ((mv.ChooseCasualty,), "choose whose unit is the casualty"),
}

PHASES: dict[str, str] = {
    "deal_influence": "deal", "deal_locations": "deal", "deal_specials": "setup", "first_player": "setup",
    "placement": "setup", "influence": "influence", "refill": "influence", "nomination_start": "nominations",
    "nomination": "nominations", "elections": "elections", "military": "military", "recover": "military",
    "choose_first": "military", "next_commit": "military", "commit": "military", "permission": "military",
    "slave_revolt": "military", "location": "battles", "combat": "battles", "window": "battles",
    "battle_special": "battles", "roll": "battles", "casualty": "battles", "end_round": "end of round",
    "over": "game end",
}


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


class PeriklesState(Board):
    """A game of Perikles in progress."""

    game_id = "perikles"

    def __init__(self, players: list[str], options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self._advance()

    # ---- protocol -----------------------------------------------------------

    def turn(self) -> Turn:
        return self._turn

    def _key(self) -> str:
        return f"influence/{self.step}" if self.stage == "influence" else self.stage

    def legal_moves(self) -> list[Move]:
        player = self._turn
        if not isinstance(player, str):
            return []
        return list(self._legal(player))

    def _legal(self, player: str) -> Generator[Move, None, None]:
        """Every move the checks accept, from each allowed type's candidates (unit lookups memoised)."""
        outer = self._memo is None
        if outer:
            self._memo = {}
        try:
            for cls in EXPECTED[self._key()][0]:
                options, check, _ = RULES[cls]
                for m in options(self, player):
                    if check(self, player, m) is None:
                        yield m
        finally:
            if outer:
                self._memo = None

    def _play(self, player: str, move: Move) -> None:
        allowed, what = EXPECTED[self._key()]
        if type(move) not in allowed:
            raise IllegalMove(f"{player} cannot {move.type.replace('_', ' ')} now: in the "
                              f"{self.phase()[1]} phase {player} must {what}")
        _, check, apply = RULES[type(move)]
        why = check(self, player, move)
        if why is not None:
            raise IllegalMove(why)
        self._score_cache = None
        apply(self, player, move)
        self._advance()

    def _reveal(self, request: ChanceRequest, outcome: Outcome) -> None:
        self._score_cache = None
        st = self.stage
        if request.kind == "draw":
            items = [str(x) for x in outcome["items"]]
            if st == "deal_influence":
                self.display = list(items)
                self.stage = "deal_locations"
            elif st == "deal_locations":
                self.locations = list(items)
                self.dealt_locations += items
                if self.round == 1:
                    self.stage = "deal_specials"
                else:
                    self._start_influence()
            elif st == "deal_specials":
                for p, tile in zip(self.players, items):
                    self.special[p] = tile
                self.stage = "first_player"
            else:  # refill
                self.display[self.refill_slot - 1] = items[0]
                self.stage = "influence"
                assert self.cur is not None
                influence.begin_turn(self, self.next_player(self.cur))
        elif request.kind == "choose":
            value = outcome["value"]
            if st == "first_player":
                self.first_player = self.start_player = str(value)
                self.placements_left = 2 * len(self.players)
                self.cur = self.first_player
                self.stage = "placement"
            else:
                slave_revolt.slave_revolt_strikes(self, str(value))
        else:
            total = sum(outcome["roll"])
            if self.pending_roll is None:
                self.pending_roll = total
            else:
                attacker_total, self.pending_roll = self.pending_roll, None
                battles.roll(self, attacker_total, total)
        self._advance()

    # ---- the flow between decisions ----------------------------------------------

    def _start_influence(self) -> None:
        self.stage = "influence"
        self.takes = 0
        assert self.start_player is not None
        influence.begin_turn(self, self.start_player)

    def _advance(self) -> None:
        """Run the automatic parts of the rules until a player or chance must act."""
        while True:
            st = self.stage
            if st == "deal_influence":
                self._turn = ChanceRequest("draw", "influence", count=DISPLAY_SLOTS,
                                           pool=tuple((t.id, 1) for t in INFLUENCE_TILES),
                                           reason=f"round {self.round}: the influence display")
                return
            if st == "deal_locations":
                pool = tuple((t.key, 1) for t in LOCATIONS if t.key not in self.dealt_locations)
                self._turn = ChanceRequest("draw", "locations", count=LOCATION_SLOTS, pool=pool,
                                           reason=f"round {self.round}: the location tiles")
                return
            if st == "deal_specials":
                self._turn = ChanceRequest("draw", "special", count=len(self.players),
                                           pool=tuple((t.key, 1) for t in SPECIAL_TILES),
                                           reason="one secret special tile per player, in seat order")
                return
            if st == "first_player":
                self._turn = ChanceRequest("choose", "first_player", options=tuple(self.players))
                return
            if st == "placement" and self.placements_left == 0:
                self._start_influence()
                continue
            if st == "influence" and self.step == "done":
                self.takes += 1
                if self.takes == influence.tiles_to_take(self):
                    self.stage = "nomination_start"
                else:
                    self.stage = "refill"
                continue
            if st == "refill":
                self._turn = ChanceRequest("draw", "influence", count=1, pool=self._deck_pool(),
                                           reason=f"refill of display slot {self.refill_slot}")
                return
            if st == "nomination_start":
                assert self.start_player is not None
                self.cur = nominations.first_nominator(self, self.start_player)
                self.stage = "nomination" if self.cur is not None else "elections"
                continue
            if st == "elections":
                elections.hold_elections(self)
                self.stage = "military"
                continue
            if st == "military":
                self._start_military()
                continue
            if st == "recover":
                if military.run_recoveries(self):
                    assert self.cur is not None
                    self._turn = self.cur
                    return
                self.stage = "next_commit" if self.ruleset == "bga" else "choose_first"
                continue
            if st == "choose_first":
                spartan = self.leader["sparta"]
                if spartan is None:
                    self.first_committer = self.commit_next = self.start_player
                    _after_spartan_choice(self)
                    continue
                self.cur = spartan
            if st == "next_commit":
                p = military.next_commit_turn(self)
                if p is None:
                    self.battle_slot = 0
                    self.stage = "location"
                    continue
                military.begin_commit_turn(self, p)
                if not self._can_do_more_than_end(p):
                    military.finish_commit_turn(self, p)
                    continue
                self._turn = p
                return
            if st == "slave_revolt":
                assert self.revolt_target is not None
                self._turn = ChanceRequest("choose", "slave_revolt",
                                           options=tuple(slave_revolt.revolt_candidates(self, self.revolt_target)),
                                           reason="Slave Revolt: which Spartan hoplite rises")
                return
            if st == "location":
                battles.start_location(self)
                continue
            if st == "combat":
                battles.start_combat(self)
                continue
            if st == "window":
                battle_specials.open_window(self)
                continue
            if st == "roll":
                tile = self.current_location()
                side = "attacker" if self.pending_roll is None else "defender"
                self._turn = ChanceRequest("roll", side, count=2, sides=6,
                                           reason=f"{tile.name}, {battles.combat_type(self)} combat: the {side}'s 2d6")
                return
            if st == "end_round":
                end_of_round.end_round(self)
                continue
            if st == "over":
                self._turn = OVER
                return
            assert self.cur is not None, f"no player to move in stage {st}"
            self._turn = self.cur
            return

    def _can_do_more_than_end(self, player: str) -> bool:
        """Whether a commit turn offers anything but ending it (else the tile is spent for nothing)."""
        moves = self._legal(player)
        try:
            return any(not isinstance(m, mv.EndCommit) for m in moves)
        finally:
            moves.close()

    def _start_military(self) -> None:
        """Official: recovery from the Sparta leader, then his choice. ``bga``: the choice first."""
        self.commit_shards = 2
        self.free_turn_for = None
        if self.ruleset == "bga":
            self.stage = "choose_first"
            return
        assert self.start_player is not None
        self.recovery_queue = military.recovery_queue(self, self.leader["sparta"] or self.start_player)
        self.stage = "recover"

    def _deck_pool(self) -> tuple[tuple[str, int], ...]:
        out_of_deck = set(self.spent)
        out_of_deck.update(t for t in self.display if t is not None)
        for hand in self.hands.values():
            out_of_deck.update(hand)
        return tuple((t.id, 1) for t in INFLUENCE_TILES if t.id not in out_of_deck)

    # ---- scores -------------------------------------------------------------------

    def score(self) -> dict[str, dict[str, int]]:
        if self._score_cache is None:
            self._score_cache = score_breakdown(self)
        return self._score_cache

    def ranking(self) -> dict[str, int]:
        return ranking(self)

    def evaluate(self, player: str) -> float:
        """Greedy heuristic: score lead, plus a little for leaderships and candidacies."""
        totals = self.totals()
        others = max(v for p, v in totals.items() if p != player)
        bonus = sum(2.0 for c in CITY_KEYS if self.leader[c] == player)
        bonus += sum(1.0 for c in CITY_KEYS if self.alpha[c] == player)
        bonus += sum(0.5 for c in CITY_KEYS if self.beta[c] == player)
        return totals[player] - others + bonus

    def phase(self) -> tuple[int | None, str]:
        return (self.round, PHASES.get(self.stage, self.stage))

    def describe_move(self, player: str, move: Move) -> str:
        return describe(self, player, move)

    def copy(self) -> PeriklesState:
        new = object.__new__(type(self))
        d = {k: (list(v) if k == "milestones" else _clone(v)) for k, v in self.__dict__.items()}
        new.__dict__.update(d)
        return new

    # ---- views --------------------------------------------------------------------------

    def observables(self) -> dict[str, Any]:
        return {
            "cubes": {p: self.cubes_on_board(p) for p in self.players},
            "location_points": dict(self.location_vp),
            "defeats": dict(self.defeats),
            "leaders": dict(self.leader),
            "round": self.round,
        }

    def snapshot(self) -> dict[str, Any]:
        t = self._turn
        to_move = t if isinstance(t, str) else None
        return {
            "round": self.round,
            "phase": self.phase()[1],
            "stage": self.stage,
            "step": self.step,
            "to_move": to_move,
            "first_player": self.first_player,
            "start_player": self.start_player,
            "over": self.over,
            "cities": {c: {
                "cubes": dict(self.cubes[c]),
                "alpha": self.alpha[c],
                "beta": self.beta[c],
                "leader": self.leader[c],
                "statues": dict(self.statues[c]),
                "defeats": self.defeats[c],
                "statue_value": CITY[c].statue_value(self.defeats[c]),
            } for c in CITY_KEYS},
            "persia": {"leaders": list(self.persian_leaders)},
            "units": {u.id: {
                "power": u.power, "type": u.type, "strength": u.strength,
                "at": self.unit_at[u.id], "holder": self.unit_holder[u.id],
                "location": self.unit_location[u.id], "side": self.unit_side[u.id], "main": self.unit_main[u.id],
            } for u in UNITS},
            "influence": {
                "display": list(self.display),
                "hands": {p: list(h) for p, h in self.hands.items()},
                "spent": list(self.spent),
            },
            "locations": {
                "slots": [{"slot": i + 1, "key": k, "owner": LOCATION[k].owner, "vp": LOCATION[k].vp,
                           "resolved": self.stage in PHASES and i < self.battle_slot
                           and PHASES[self.stage] in ("battles", "end of round")}
                          for i, k in enumerate(self.locations)],
                "claimed": {p: list(v) for p, v in self.claimed.items()},
                "unclaimed": list(self.unclaimed),
                "main_players": {k: dict(v) for k, v in sorted(self.main_player.items())},
                "permissions": {k: list(v) for k, v in sorted(self.permissions.items())},
            },
            "relations": dict(sorted(self.relations.items())),
            "specials": {p: {"tile": self.special[p], "used": self.special_used[p]} for p in self.players},
            "military": {
                "first_committer": self.first_committer, "shards": self.commit_shards,
                "sent": self.commit_sent, "cube_city": self.commit_cube_city,
                "permission_request": None if self.permission_request is None else dict(self.permission_request),
            },
            "battle": battles.battle_view(self),
            "location_points": dict(self.location_vp),
        }

