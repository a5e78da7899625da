"""Perikles's tasks: every point where its rules wait, on the core's task stack.

Each step of the rulebook's round (``/work/shared/rules/perikles.md`` §3-§5.7) is one task
class: a **decision** a player makes (its candidate moves, the check of one, its effect), a
**chance** step (the deal, a refill, the dice, the Slave Revolt pick, the counters turned up)
or an **automatic** step (the elections, the order of commit turns, a combat without dice...).
The core (:class:`replay.decisions.TaskState`) drives them.  A decision is declared
(:class:`Decision`): its ``choices`` name, per move type, the options, check and rule
functions of ``phases/`` and what follows (a ``then`` function that pushes the next step); a
chance or automatic step calls the functions of ``phases/`` itself and pops itself.  So the
rules read in rulebook order here:

* setup and the deal (§3, §5.1): :class:`DealInfluenceTiles`, :class:`DealLocationTiles`,
  :class:`DealSpecialTiles`, :class:`FirstPlayer`, :class:`InitialPlacement`;
* the influence phase (§5.2), one task per step of a turn: :class:`TakeATile` (steps 1-2),
  :class:`PlaceTheAnyCube` (3), :class:`CandidateSymbol` and :class:`AssassinSymbol` (4),
  :class:`SpecialTileAfterTheTile` (5), :class:`AlkibiadesMoves`, :class:`EndOfInfluenceTurn`
  and :class:`Refill` (6);
* nominations (§5.3): :class:`NominationsBegin`, :class:`Nomination`; elections (§5.4):
  :class:`Elections`;
* the military phase (§5.5): :class:`MilitaryPhase`, :class:`DeadPoolRecovery`,
  :class:`RecoverAUnit`, :class:`SpartanChoice`, :class:`FirstCommitterChoice`,
  :class:`CommitTurns`, :class:`CommitTurn`, :class:`PermissionToDefend`, :class:`SlaveRevoltPick`;
* the battles (§5.6): :class:`Locations`, :class:`RevealCounters`, :class:`Combat`,
  :class:`PreCombatWindow`, :class:`PreCombatSpecialTile`, :class:`Dice`, :class:`Casualty`;
* the end of a round (§5.7): :class:`EndOfRound`.

Every task names the **stage** the snapshot shows for it (and an influence-turn task its
**step**), and the **phase** of frames (:meth:`Task.view`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from replay import decisions
from replay.decisions import Choice, choice, only
from replay.engine import ChanceRequest, ImpossibleChance, Move, Outcome

from . import moves as mv
from . import unknowns
from .board import UNKNOWN
from .components import (
    ANY,
    DISPLAY_SLOTS,
    INFLUENCE,
    INFLUENCE_TILES,
    LOCATION_SLOTS,
    LOCATIONS,
    SPECIAL_TILES,
)
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

if TYPE_CHECKING:
    from .state import PeriklesState  # noqa: F401 (the base class names it in a string)


@dataclass(slots=True)
class Task(decisions.Task["PeriklesState"]):
    """One pending step of Perikles's rules.

    ``stage`` is the name the snapshot gives the step, ``phase`` the phase label of frames
    (:meth:`PeriklesState.phase`); ``awaiting`` says what the player must do, in the words of a
    refused move's message."""

    player: str = ""
    stage: ClassVar[str] = ""
    phase: ClassVar[str] = ""

    def view(self, s: PeriklesState) -> tuple[str, str]:
        """``(stage, step)`` as the snapshot shows them.  Outside an influence turn the step is the
        last influence turn's: ``done``, or nothing before the first one."""
        return self.stage, "done"

    def refuse(self, s: PeriklesState, player: str, move: Move) -> str:
        return (f"{player} cannot {move.type.replace('_', ' ')} now: in the {self.phase} phase "
                f"{player} must {self.awaiting}")


@dataclass(slots=True)
class Chance(Task, ABC):
    """A chance step.  Its request is made when the rules reach it and kept while it waits
    (:meth:`ask` makes it; a step that waits again after an outcome forgets it)."""

    decision = False
    _request: ChanceRequest | None = None

    def request(self, s: PeriklesState) -> ChanceRequest | None:
        req = self._request
        if req is None:
            req = self._request = self.ask(s)
        return req

    @abstractmethod
    def ask(self, s: PeriklesState) -> ChanceRequest:
        """The randomness this step waits for, as the rules have reached it."""


@dataclass(slots=True)
class Automatic(Task):
    """An automatic step: the rules do it at once."""

    decision = False


@dataclass(slots=True)
class Decision(Task, decisions.DeclaredDecision["PeriklesState"]):
    """A player's decision, declared: its ``choices``, each a move type with the options, check and
    rule of ``phases/`` that make it, then what follows (:class:`~replay.decisions.Choice`)."""


def draws(outcome: Outcome) -> list[str]:
    """The items of a draw (an item the record does not name is :data:`~.board.UNKNOWN`)."""
    return [UNKNOWN if x is None else str(x) for x in outcome["items"]]


# ---- setup and the deal (§3, §5.1) ---------------------------------------------------------


@dataclass(slots=True)
class Deal(Chance):
    """A deal of the setup or of a later round: in round 1 no influence turn has been played yet."""

    def view(self, s: PeriklesState) -> tuple[str, str]:
        return self.stage, "" if s.round == 1 else "done"


@dataclass(slots=True)
class DealInfluenceTiles(Deal):
    """Ten influence tiles face up into the display."""

    stage = "deal_influence"
    phase = "deal"

    def ask(self, s: PeriklesState) -> ChanceRequest:
        return ChanceRequest("draw", "influence", count=DISPLAY_SLOTS, pool=tuple((t.id, 1) for t in INFLUENCE_TILES),
                             reason=f"round {s.round}: the influence display")

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        s.display = list(draws(outcome))
        s.pop(self)
        s.push(DealLocationTiles())


@dataclass(slots=True)
class DealLocationTiles(Deal):
    """Seven new location tiles into the battle slots; in round 1 the setup goes on, later the
    influence phase begins."""

    stage = "deal_locations"
    phase = "deal"

    def ask(self, s: PeriklesState) -> ChanceRequest:
        pool = tuple((t.key, 1) for t in LOCATIONS if t.key not in s.dealt_locations)
        return ChanceRequest("draw", "locations", count=LOCATION_SLOTS, pool=pool,
                             reason=f"round {s.round}: the location tiles")

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        items = draws(outcome)
        if UNKNOWN in items:
            raise ImpossibleChance(f"a {req.name} draw cannot leave items unknown: location tiles are dealt face up")
        s.shown = {}  # a late reveal of the last round's locations can no longer come
        s.locations = list(items)
        s.dealt_locations += items
        s.pop(self)
        if s.round == 1:
            s.push(DealSpecialTiles())
        else:
            influence_phase(s)


@dataclass(slots=True)
class DealSpecialTiles(Deal):
    """One secret special tile per player, in seat order (seat view: the record names none)."""

    stage = "deal_specials"
    phase = "setup"

    def ask(self, s: PeriklesState) -> ChanceRequest:
        return ChanceRequest("draw", "special", count=len(s.players), pool=tuple((t.key, 1) for t in SPECIAL_TILES),
                             reason="one secret special tile per player, in seat order",
                             visible_to=() if s.seat_view else None)

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        items = draws(outcome)
        if UNKNOWN in items and not s.seat_view:
            raise ImpossibleChance(f"a {req.name} draw cannot leave items unknown: special tiles dealt face down "
                                   "need options.seat_view, under which the order of play does not depend on "
                                   "which tile a player holds")
        for p, tile in zip(s.players, items):
            s.special[p] = tile
        s.pop(self)
        s.push(FirstPlayer())


@dataclass(slots=True)
class FirstPlayer(Chance):
    """The first player, at random; the initial placement begins with him."""

    stage = "first_player"
    phase = "setup"

    def view(self, s: PeriklesState) -> tuple[str, str]:
        return self.stage, ""

    def ask(self, s: PeriklesState) -> ChanceRequest:
        return ChanceRequest("choose", "first_player", options=tuple(s.players))

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        value = str(outcome["value"])
        s.first_player = s.start_player = value
        s.placements_left = 2 * len(s.players)
        s.cur = value
        s.pop(self)
        s.push(InitialPlacement(value))


def next_placement(task: Task, s: PeriklesState, player: str, _: None) -> None:
    """The next player places, until every player has placed two cubes; then the influence phase."""
    if s.placements_left:
        assert s.cur is not None
        s.push(InitialPlacement(s.cur))
    else:
        influence_phase(s)


@dataclass(slots=True)
class InitialPlacement(Decision):
    """One cube into any city: two laps clockwise from the first player."""

    stage = "placement"
    phase = "setup"
    awaiting = "place a starting cube"
    choices = (choice(mv.PlaceCube, influence.place_cube_options, influence.place_cube_check, influence.place_cube,
                      then=next_placement),)

    def view(self, s: PeriklesState) -> tuple[str, str]:
        return self.stage, ""


# ---- the influence phase (§5.2) -------------------------------------------------------------


def influence_phase(s: PeriklesState) -> None:
    """Turns clockwise from the round's start player."""
    influence.start_influence(s)
    assert s.start_player is not None
    influence_turn(s, s.start_player)


def influence_turn(s: PeriklesState, player: str) -> None:
    influence.begin_turn(s, player)
    s.push(TakeATile(player))


@dataclass(slots=True)
class InfluenceStep(Task):
    """A step of an influence turn (the snapshot shows it as the ``influence`` stage's step)."""

    stage = "influence"
    phase = "influence"
    step: ClassVar[str] = ""

    def view(self, s: PeriklesState) -> tuple[str, str]:
        return self.stage, self.step


Then = Callable[[Task, "PeriklesState", str, None], None]
"""What follows a special tile's play (:attr:`Choice.then <replay.decisions.Choice.then>`)."""


def influence_special_tiles(ends: bool, then: Then | None, then_alkibiades: Then) -> tuple[Choice, ...]:
    """Perikles, Plague, Alkibiades: the influence special tiles, played before the tile (step 1) or
    after it (step 5); whether the step ends with the tile, and what follows, is the step's."""
    return (choice(mv.PlayPerikles, influence_specials.play_perikles_options, influence_specials.play_perikles_check,
                   influence_specials.play_perikles, ends=ends, then=then),
            choice(mv.PlayPlague, influence_specials.play_plague_options, influence_specials.play_plague_check,
                   influence_specials.play_plague, ends=ends, then=then),
            choice(mv.PlayAlkibiades, influence_specials.play_alkibiades_options,
                   influence_specials.play_alkibiades_check, influence_specials.play_alkibiades, ends=ends,
                   then=then_alkibiades))


def alkibiades_moves(s: PeriklesState, player: str, resume_step: str) -> None:
    """Alkibiades's two moves come next (:class:`AlkibiadesMoves`); the turn then goes on at ``resume_step``."""
    s.resume_step = resume_step
    s.push(AlkibiadesMoves(player))


def alkibiades_before_the_tile(task: Task, s: PeriklesState, player: str, _: None) -> None:
    alkibiades_moves(s, player, TakeATile.step)


def cubes_and_symbol(task: Task, s: PeriklesState, player: str, tile_id: str) -> None:
    """Step 3: the tile's cubes into its city (an Any tile's into a city of the player's choice); step 4,
    its symbol."""
    tile = INFLUENCE[tile_id]
    if tile.city == ANY:
        s.push(PlaceTheAnyCube(player))
        return
    s.add_cubes(player, tile.city, tile.shards)
    symbol(s, player, tile.symbol)


@dataclass(slots=True)
class TakeATile(InfluenceStep, Decision):
    """Steps 1-2: an influence special tile may come first; then a tile from the display, whose
    cubes and symbol follow."""

    step = "before"
    awaiting = "take an influence tile"
    choices = (choice(mv.TakeTile, influence.take_tile_options, influence.take_tile_check, influence.take_tile,
                      then=cubes_and_symbol),
               *influence_special_tiles(ends=False, then=None, then_alkibiades=alkibiades_before_the_tile))


def symbol(s: PeriklesState, player: str, name: str) -> None:
    """Step 4: Candidate, one nomination anywhere (no effect if none is possible); Assassin, one cube
    removed."""
    if name == "candidate" and nominations.can_nominate(s, player):
        s.push(CandidateSymbol(player))
    elif name == "assassin" and any(True for _ in influence.assassinate_options(s, player)):
        s.push(AssassinSymbol(player))
    else:
        after_the_tile(s, player)


def after_the_tile(s: PeriklesState, player: str) -> None:
    """Step 5: a last chance for an influence special tile, else the turn ends."""
    if influence.can_play_influence_special(s, player):
        s.push(SpecialTileAfterTheTile(player))
    else:
        s.push(EndOfInfluenceTurn(player))


def then_step_5(task: Task, s: PeriklesState, player: str, _: None) -> None:
    """The tile's cubes and symbol are done: step 5 follows (:func:`after_the_tile`)."""
    after_the_tile(s, player)


@dataclass(slots=True)
class PlaceTheAnyCube(InfluenceStep, Decision):
    """Step 3 for an Any tile: its cube into a city of the player's choice."""

    step = "any_city"
    awaiting = "choose the city for the Any tile's cube"
    choices = (choice(mv.PlaceAnyCube, influence.place_any_cube_options, influence.place_any_cube_check,
                      influence.place_any_cube, then=then_step_5),)


@dataclass(slots=True)
class CandidateSymbol(InfluenceStep, Decision):
    """Step 4, Candidate: one nomination in any city (§5.3's rules)."""

    step = "candidate"
    awaiting = "make the Candidate symbol's nomination"
    choices = (choice(mv.Nominate, nominations.nominate_options, nominations.nominate_check, nominations.nominate,
                      then=then_step_5),)


@dataclass(slots=True)
class AssassinSymbol(InfluenceStep, Decision):
    """Step 4, Assassin: one cube of any colour removed from any city or candidate space."""

    step = "assassin"
    awaiting = "remove a cube with the Assassin symbol"
    choices = (choice(mv.Assassinate, influence.assassinate_options, influence.assassinate_check,
                      influence.assassinate, then=then_step_5),)


def the_turn_ends(task: Task, s: PeriklesState, player: str, _: None) -> None:
    s.push(EndOfInfluenceTurn(player))


def alkibiades_after_the_tile(task: Task, s: PeriklesState, player: str, _: None) -> None:
    """Alkibiades's moves come before the end of the turn."""
    s.push(EndOfInfluenceTurn(player))
    alkibiades_moves(s, player, EndOfInfluenceTurn.step)


@dataclass(slots=True)
class SpecialTileAfterTheTile(InfluenceStep, Decision):
    """Step 5: an influence special tile not played at step 1, or the end of the turn."""

    step = "after"
    awaiting = "finish the influence turn"
    choices = (choice(mv.FinishTurn, only(mv.FinishTurn()), then=the_turn_ends),
               *influence_special_tiles(ends=True, then=the_turn_ends, then_alkibiades=alkibiades_after_the_tile))


def another_alkibiades_move(task: Task, s: PeriklesState, player: str, another: bool) -> None:
    """Alkibiades's second move, unless both are made or no cube can move."""
    if not another:
        s.pop(task)


@dataclass(slots=True)
class AlkibiadesMoves(InfluenceStep, Decision):
    """Alkibiades: two cubes move city to city, one at a time; then the turn goes on where the tile
    was played."""

    step = "alkibiades"
    awaiting = "move a cube with Alkibiades"
    choices = (choice(mv.AlkibiadesMove, influence_specials.alkibiades_move_options,
                      influence_specials.alkibiades_move_check, influence_specials.alkibiades_move, ends=False,
                      then=another_alkibiades_move),)


@dataclass(slots=True)
class EndOfInfluenceTurn(InfluenceStep):
    """The turn is over: the display is refilled, unless that was the phase's last tile."""

    decision = False
    step = "done"

    def run(self, s: PeriklesState) -> None:
        s.pop(self)
        if influence.end_of_turn(s):
            s.push(NominationsBegin())
        else:
            s.push(Refill())


@dataclass(slots=True)
class Refill(Chance):
    """Step 6: the empty display slot is refilled from the deck; the next player's turn begins."""

    stage = "refill"
    phase = "influence"

    def ask(self, s: PeriklesState) -> ChanceRequest:
        return ChanceRequest("draw", "influence", count=1, pool=influence.deck_pool(s),
                             reason=f"refill of display slot {s.refill_slot}")

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        s.display[s.refill_slot - 1] = draws(outcome)[0]
        s.pop(self)
        assert s.cur is not None
        influence_turn(s, s.next_player(s.cur))


# ---- nominations and elections (§5.3, §5.4) --------------------------------------------------


@dataclass(slots=True)
class NominationsBegin(Automatic):
    """From the start player, the first player able to nominate (``bga``: found as after every
    nomination, from the player before the start player, who took the last tile)."""

    stage = "nomination_start"
    phase = "nominations"

    def run(self, s: PeriklesState) -> None:
        assert s.start_player is not None
        s.cur = nominations.next_nominator(s, s.in_order_from(s.start_player)[-1])
        s.pop(self)
        s.push(Elections() if s.cur is None else Nomination(s.cur))


def next_nomination(task: Task, s: PeriklesState, player: str, _: None) -> None:
    """The next player able to nominate; the elections when nobody can."""
    s.cur = nominations.next_nominator(s, player)
    s.push(Elections() if s.cur is None else Nomination(s.cur))


@dataclass(slots=True)
class Nomination(Decision):
    """A nomination turn; players who cannot nominate are passed over, and the phase ends when
    nobody can."""

    stage = "nomination"
    phase = "nominations"
    awaiting = "nominate a candidate"
    choices = (choice(mv.Nominate, nominations.nominate_options, nominations.nominate_check, nominations.nominate,
                      then=next_nomination),)


@dataclass(slots=True)
class Elections(Automatic):
    """Every city elects its leader; players leading none become Persian leaders."""

    stage = "elections"
    phase = "elections"

    def run(self, s: PeriklesState) -> None:
        elections.hold_elections(s)
        s.pop(self)
        s.push(MilitaryPhase())


# ---- the military phase (§5.5) ------------------------------------------------------------------


@dataclass(slots=True)
class MilitaryPhase(Automatic):
    """Official: dead-pool recovery from the leader of Sparta, then his choice of the first
    committer.  ``bga``: the choice first (Q7)."""

    stage = "military"
    phase = "military"

    def run(self, s: PeriklesState) -> None:
        military.start_military(s)
        s.pop(self)
        s.push(Spartanchoice() if s.ruleset == "bga" else DeadPoolRecovery())


@dataclass(slots=True)
class DeadPoolRecovery(Automatic):
    """Each leader takes back one unit of each city he leads from the dead pool: by himself when
    one type lies there, by his choice (:class:`RecoverAUnit`) when both do."""

    stage = "recover"
    phase = "military"

    def run(self, s: PeriklesState) -> None:
        if military.run_recoveries(s):
            assert s.cur is not None
            s.push(RecoverAUnit(s.cur))
            return
        s.pop(self)
        s.push(CommitTurns() if s.ruleset == "bga" else Spartanchoice())


@dataclass(slots=True)
class RecoverAUnit(Decision):
    """Both unit types of a city lie in the dead pool: its leader chooses which comes back (the
    recovery then goes on)."""

    stage = "recover"
    phase = "military"
    awaiting = "choose which unit comes back from the dead pool"
    choices = (choice(mv.RecoverUnit, military.recover_unit_options, military.recover_unit_check,
                      military.recover_unit),)


@dataclass(slots=True)
class Spartanchoice(Automatic):
    """The leader of Sparta names the first committer; without one, the start player commits first."""

    stage = "choose_first"
    phase = "military"

    def run(self, s: PeriklesState) -> None:
        s.pop(self)
        spartan = s.leader["sparta"]
        if spartan is None:
            military.no_spartan_choice(s)
            after_the_spartan_choice(s)
            return
        s.cur = spartan
        s.push(FirstCommitterchoice(spartan))


def after_the_spartan_choice(s: PeriklesState) -> None:
    """Official: the recovery came first, the commit turns follow.  ``bga``: the recovery follows,
    from the chosen player."""
    military.after_spartan_choice(s)
    s.push(DeadPoolRecovery() if s.ruleset == "bga" else CommitTurns())


def the_first_committer_named(task: Task, s: PeriklesState, player: str, _: None) -> None:
    after_the_spartan_choice(s)


@dataclass(slots=True)
class FirstCommitterchoice(Decision):
    """The leader of Sparta chooses any player, himself included, to commit first."""

    stage = "choose_first"
    phase = "military"
    awaiting = "name the first player to commit (as leader of Sparta)"
    choices = (choice(mv.ChooseFirstCommitter, military.choose_first_committer_options,
                      military.choose_first_committer_check, military.choose_first_committer,
                      then=the_first_committer_named),)


@dataclass(slots=True)
class CommitTurns(Automatic):
    """Commit turns in order, each spending an influence tile (§5.5.2); a turn that could only end
    is spent at once.  When every tile is used, the battles begin."""

    stage = "next_commit"
    phase = "military"

    def run(self, s: PeriklesState) -> None:
        p = military.next_commit_turn(s)
        if p is None:
            s.battle_slot = 0
            s.pop(self)
            s.push(Locations())
            return
        military.begin_commit_turn(s, p)
        turn = (CommitTurnAskingFirst if s.seat_view else CommitTurn)(p)
        s.push(turn)
        if not turn.can_do_more_than_end(s):
            military.finish_commit_turn(s, p)
            s.pop(turn)


def permission_asked(task: Task, s: PeriklesState, player: str, leader: str | None) -> None:
    """A unit sent to defend a location of a city whose leader has not allowed it (or a request asked
    first, seat view): that leader answers; the commit turn then goes on."""
    if leader is not None:
        s.push(PermissionToDefend(leader))


def the_slaves_revolt(task: Task, s: PeriklesState, player: str, _: None) -> None:
    s.push(SlaveRevoltPick())


@dataclass(slots=True)
class CommitTurn(Decision):
    """One commit turn (§5.5.3): up to two units (four after a spent cube), Slave Revolt, the end of
    the turn.  Unit lookups are kept while the moves are listed or one is checked (nothing moves
    meanwhile)."""

    stage = "commit"
    phase = "military"
    awaiting = "commit units"
    choices: ClassVar[tuple[Choice, ...]] = (choice(mv.SendUnit, commitment.send_unit_options, commitment.send_unit_check, commitment.send_unit,
                      ends=False, then=permission_asked),
               choice(mv.ResendUnit, commitment.resend_unit_options, commitment.resend_unit_check,
                      commitment.resend_unit, ends=False),
               choice(mv.SpendCube, commitment.spend_cube_options, commitment.spend_cube_check,
                      commitment.spend_cube, ends=False),
               choice(mv.EndCommit, only(mv.EndCommit()), commitment.end_commit_check, commitment.end_commit),
               choice(mv.PlaySlaveRevolt, slave_revolt.play_slave_revolt_options,
                      slave_revolt.play_slave_revolt_check, slave_revolt.play_slave_revolt, ends=False,
                      then=the_slaves_revolt))

    def candidates(self, s: PeriklesState) -> Iterator[Move]:
        outer = s._memo is None
        if outer:
            s._memo = {}
        try:
            yield from Decision.candidates(self, s)
        finally:
            if outer:
                s._memo = None

    def check(self, s: PeriklesState, player: str, move: Move) -> str | None:
        if s._memo is not None:
            return Decision.check(self, s, player, move)
        s._memo = {}  # a move checked by itself
        try:
            return Decision.check(self, s, player, move)
        finally:
            s._memo = None

    def can_do_more_than_end(self, s: PeriklesState) -> bool:
        """Whether the turn offers anything but ending it (else the tile is spent for nothing).

        Seat view: a player with an unused special tile is asked whenever Slave Revolt has a
        target, since whether his tile is Slave Revolt may be secret."""
        p = self.player
        if s.seat_view and not s.special_used[p] and slave_revolt.any_target(s):
            return True
        moves = self.candidates(s)
        try:
            return any(not isinstance(m, mv.EndCommit) and self.check(s, p, m) is None for m in moves)
        finally:
            moves.close()  # type: ignore[attr-defined]


@dataclass(slots=True)
class CommitTurnAskingFirst(CommitTurn):
    """A commit turn of a record seen from one seat: permission to defend is asked before the units
    are chosen (``ask_permission``), as on BGA."""

    choices = (*CommitTurn.choices,
               choice(mv.AskPermission, commitment.ask_permission_options, commitment.ask_permission_check,
                      commitment.ask_permission, ends=False, then=permission_asked))


@dataclass(slots=True)
class PermissionToDefend(Decision):
    """The leader of the city owning a location grants or refuses a request to defend it; the
    commit turn then goes on."""

    stage = "permission"
    phase = "military"
    awaiting = "answer a request to defend his location"
    choices = (choice(mv.AnswerPermission, commitment.answer_permission_options,
                      rule=commitment.answer_permission),)


@dataclass(slots=True)
class SlaveRevoltPick(Chance):
    """Slave Revolt: a Spartan hoplite at the target, picked at random, goes home for the round."""

    stage = "slave_revolt"
    phase = "military"

    def ask(self, s: PeriklesState) -> ChanceRequest:
        assert s.revolt_target is not None
        return ChanceRequest("choose", "slave_revolt",
                             options=tuple(slave_revolt.revolt_candidates(s, s.revolt_target)),
                             reason="Slave Revolt: which Spartan hoplite rises")

    def outcome_at_once(self, s: PeriklesState, outcome: Outcome) -> ChanceRequest | None:
        """The pick may name a counter the state holds under another id of the same kind (the
        record's ``send_unit`` names units by kind, the engine moved the lowest-numbered one): the
        two ids are swapped first, as a reveal does, so that the state's ids follow the record's.
        The pick itself always goes the checked way."""
        if "choose" in outcome:
            req = self.request(s)
            assert req is not None
            if unknowns.follow_twin(s, req.options, outcome.get("value")):
                self._request = None  # the request names the counters there now
        return None

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        slave_revolt.slave_revolt_strikes(s, str(outcome["value"]))
        s.pop(self)


# ---- the battles (§5.6) ---------------------------------------------------------------------------


@dataclass(slots=True)
class Locations(Automatic):
    """The locations in slot order: each is revealed, then settled without a fight or fought."""

    stage = "location"
    phase = "battles"

    def run(self, s: PeriklesState) -> None:
        if s.battle_slot >= len(s.locations):
            s.pop(self)
            s.push(EndOfRound())
        elif s.face_down and unknowns.face_down_at(s, s.current_location().key):
            s.push(RevealCounters())  # the counters sent face down must be turned up first
        elif battles.start_location(s):
            s.push(Combat())


@dataclass(slots=True)
class RevealCounters(Chance):
    """The counters sent face down to the location are turned up (a ``reveal`` event, which
    :meth:`PeriklesState._reveal_zone` applies)."""

    stage = "reveal"
    phase = "battles"

    def ask(self, s: PeriklesState) -> ChanceRequest:
        loc = s.current_location()
        return ChanceRequest("reveal", unknowns.zone_name(loc.key),
                             reason=f"the units sent face down to {loc.name} are turned up")

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        raise ImpossibleChance(f"the rules await the counters at {req.name[len('location:'):]} "
                               f"turned up ({{\"reveal\": \"{req.name}\", ...}}), not {outcome}")


@dataclass(slots=True)
class Combat(Automatic):
    """One combat of the location: decided without dice when a side is absent, else the pre-combat
    window and the dice."""

    stage = "combat"
    phase = "battles"

    def run(self, s: PeriklesState) -> None:
        s.pop(self)
        dice, winner = battles.start_combat(s)
        if dice:
            s.push(PreCombatWindow())
        else:
            combat_won(s, winner)


def combat_won(s: PeriklesState, winner: str | None) -> None:
    """The combat is over: the location's next combat follows, or the location is won."""
    if battles.end_combat(s, winner):
        s.push(Combat())


@dataclass(slots=True)
class PreCombatWindow(Automatic):
    """Every player whose special tile is eligible is offered it, from the start player; then the
    dice decide."""

    stage = "window"
    phase = "battles"

    def run(self, s: PeriklesState) -> None:
        p = battle_specials.next_in_window(s)
        if p is not None:
            s.cur = p
            s.push(PreCombatSpecialTile(p))
            return
        battles.begin_rolling(s)
        s.pop(self)
        s.push(Dice())


@dataclass(slots=True)
class PreCombatSpecialTile(Decision):
    """Brasidas, Phormio, Thessalian Allies or Persian Fleet now, or the tile is kept."""

    stage = "battle_special"
    phase = "battles"
    awaiting = "play or keep his special tile before the combat"
    choices = (choice(mv.PlayBrasidas, battle_specials.play_brasidas_options, battle_specials.play_brasidas_check,
                      battle_specials.play_brasidas),
               choice(mv.PlayPhormio, battle_specials.play_phormio_options, battle_specials.play_phormio_check,
                      battle_specials.play_phormio),
               choice(mv.PlayThessalianAllies, battle_specials.play_thessalian_allies_options,
                      battle_specials.play_thessalian_allies_check, battle_specials.play_thessalian_allies),
               choice(mv.PlayPersianFleet, battle_specials.play_persian_fleet_options,
                      battle_specials.play_persian_fleet_check, battle_specials.play_persian_fleet),
               choice(mv.DeclineSpecial, only(mv.DeclineSpecial()), rule=battle_specials.decline_special))


ROLL_2D6 = ChanceRequest("roll", "2d6", count=2, sides=6)
"""The request a roll taken at once stands for (:meth:`Dice.outcome_at_once`)."""


@dataclass(slots=True)
class Dice(Chance):
    """Both sides roll 2d6, the attacker first, until a side holds two battle tokens (or wins the
    roll-off); the loser gives up a unit."""

    stage = "roll"
    phase = "battles"

    def awaits(self, s: PeriklesState) -> bool:
        return True  # (the request, the same whenever it is made, is made when asked for)

    def ask(self, s: PeriklesState) -> ChanceRequest:
        side = "attacker" if s.pending_roll is None else "defender"
        return ChanceRequest("roll", side, count=2, sides=6,
                             reason=f"{s.current_location().name}, {battles.combat_type(s)} combat: the {side}'s 2d6")

    def outcome_at_once(self, s: PeriklesState, outcome: Outcome) -> ChanceRequest | None:
        """Two dice of six sides are rolled at once, the request (which only names the side and
        the battle) never made."""
        dice = outcome.get("roll")
        if type(dice) is list and len(dice) == 2:
            a, b = dice
            if type(a) is int and type(b) is int and 1 <= a <= 6 and 1 <= b <= 6:
                return ROLL_2D6
        return None

    def reveal(self, s: PeriklesState, req: ChanceRequest, outcome: Outcome) -> None:
        self._request = None
        total = sum(outcome["roll"])
        if s.pending_roll is None:
            s.pending_roll = total
            return
        attacker_total, s.pending_roll = s.pending_roll, None
        winner = battles.roll(s, attacker_total, total)
        if winner is None:
            return
        s.pop(self)
        if battles.take_casualty(s, battles.other(winner)):
            assert s.cur is not None
            s.push(Casualty(s.cur))
        else:
            combat_won(s, winner)


def the_casualty_lost(task: Task, s: PeriklesState, player: str, winner: str | None) -> None:
    combat_won(s, winner)


@dataclass(slots=True)
class Casualty(Decision):
    """The weakest units of the losing side belong to several powers: its main player chooses
    whose is lost."""

    stage = "casualty"
    phase = "battles"
    awaiting = "choose whose unit is the casualty"
    choices = (choice(mv.ChooseCasualty, battles.choose_casualty_options, battles.choose_casualty_check,
                      battles.choose_casualty, then=the_casualty_lost),)


# ---- the end of a round (§5.7) -----------------------------------------------------------------


@dataclass(slots=True)
class EndOfRound(Automatic):
    """Leaders become statues, the round's state is cleared; the game ends or the next round is
    dealt."""

    stage = "end_round"
    phase = "end of round"

    def run(self, s: PeriklesState) -> None:
        end_of_round.end_round(s)
        s.pop(self)
        if not s.over:
            s.push(DealInfluenceTiles())
