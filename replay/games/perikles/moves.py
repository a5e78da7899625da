"""Perikles move types: one struct per decision a player makes."""

from __future__ import annotations

from replay.engine import Move

# --- setup -----------------------------------------------------------------


class PlaceCube(Move, tag="place_cube", frozen=True):
    """Initial placement: one cube into ``city``."""

    city: str


# --- influence phase -------------------------------------------------------


class TakeTile(Move, tag="take_tile", frozen=True):
    """Take the influence tile in display slot ``slot`` (1-10)."""

    slot: int


class PlaceAnyCube(Move, tag="place_any_cube", frozen=True):
    """After taking an "Any" tile: the city its cube goes to (``null``: the record does not say, which it
    may only when the 30-cube limit leaves the cube unplaced anyway)."""

    city: str | None


class Nominate(Move, tag="nominate", frozen=True):
    """Put one of ``nominee``'s cubes in ``city`` on its free candidate space."""

    city: str
    nominee: str


class Assassinate(Move, tag="assassinate", frozen=True):
    """Remove one of ``victim``'s cubes in ``city``: ``space`` is city, alpha or beta."""

    city: str
    victim: str
    space: str = "city"


class FinishTurn(Move, tag="finish_turn", frozen=True):
    """End an influence turn without playing a special tile after the tile."""


class PlayPerikles(Move, tag="play_perikles", frozen=True):
    """Special tile Perikles: two cubes into Athens."""


class PlayPlague(Move, tag="play_plague", frozen=True):
    """Special tile Plague: every player loses half his cubes in ``city``."""

    city: str


class PlayAlkibiades(Move, tag="play_alkibiades", frozen=True):
    """Special tile Alkibiades: two cube moves follow (``alkibiades_move``)."""


class AlkibiadesMove(Move, tag="alkibiades_move", frozen=True):
    """One Alkibiades move: one of ``owner``'s cubes from ``from_city`` to ``to_city``."""

    owner: str
    from_city: str
    to_city: str


# --- nominations ----------------------------------------------------------- (Nominate above)

# --- military phase --------------------------------------------------------


class RecoverUnit(Move, tag="recover_unit", frozen=True):
    """Dead-pool recovery when both unit types of ``city`` lie there: which type comes back."""

    city: str
    unit_type: str


class ChooseFirstCommitter(Move, tag="choose_first_committer", frozen=True):
    """The leader of Sparta names the player who commits first."""

    player: str


class SendUnit(Move, tag="send_unit", frozen=True):
    """Commit one unit (identified by power, type and printed strength) to a location's side.

    ``strength`` is ``null`` when the record's viewer did not see it: the unit went face down and
    becomes known when its location is revealed.
    """

    power: str
    unit_type: str
    strength: int | None
    location: str
    side: str


class ResendUnit(Move, tag="resend_unit", frozen=True):
    """``bga`` only, and never a legal move: BGA's zombie (a player who left the table) picked a unit
    it sent this turn a second time.  The counter moves on to ``location``'s ``side``; where it went
    first, the role it took stays (BGA's ``sendRandomUnits``).  The unit is named as by
    :class:`SendUnit`."""

    power: str
    unit_type: str
    strength: int | None
    location: str
    side: str


class SpendCube(Move, tag="spend_cube", frozen=True):
    """After two units: remove one cube from ``city`` to send one or two more."""

    city: str


class EndCommit(Move, tag="end_commit", frozen=True):
    """End the commit turn."""


class AskPermission(Move, tag="ask_permission", frozen=True):
    """Ask the leader of the city that owns ``location`` to let ``power``'s units defend it.

    Board Game Arena asks before any unit moves (the units wait unseen); a refusal sends the turn
    back to the asker.  ``answer_permission`` follows.
    """

    power: str
    location: str


class AnswerPermission(Move, tag="answer_permission", frozen=True):
    """The owning city's leader grants (or refuses) a request to defend his location."""

    grant: bool


class SetPermission(Move, tag="set_permission", frozen=True):
    """The leader of the city that owns ``location`` grants (``grant``) or revokes ``power``'s standing
    permission to defend it.  He may do so at any time while he leads that city, whoever is to move."""

    location: str
    power: str
    grant: bool


class PlaySlaveRevolt(Move, tag="play_slave_revolt", frozen=True):
    """Special tile Slave Revolt: ``target`` is a location key or ``sparta`` (the leader's pool)."""

    target: str


# --- battles ---------------------------------------------------------------


class PlayBrasidas(Move, tag="play_brasidas", frozen=True):
    """Special tile Brasidas: Spartan hoplites count double in this combat."""


class PlayPhormio(Move, tag="play_phormio", frozen=True):
    """Special tile Phormio: Athenian triremes count double in this combat."""


class PlayThessalianAllies(Move, tag="play_thessalian_allies", frozen=True):
    """Special tile Thessalian Allies: a battle token to ``side`` before a hoplite combat."""

    side: str


class PlayPersianFleet(Move, tag="play_persian_fleet", frozen=True):
    """Special tile Persian Fleet: a battle token to ``side`` before a trireme combat."""

    side: str


class DeclineSpecial(Move, tag="decline_special", frozen=True):
    """Keep one's special tile before this combat."""


class ChooseCasualty(Move, tag="choose_casualty", frozen=True):
    """The losing main player picks whose weakest unit is lost when several powers tie."""

    power: str


MOVES: tuple[type[Move], ...] = (
    PlaceCube, TakeTile, PlaceAnyCube, Nominate, Assassinate, FinishTurn,
    PlayPerikles, PlayPlague, PlayAlkibiades, AlkibiadesMove,
    RecoverUnit, ChooseFirstCommitter, SendUnit, ResendUnit, SpendCube, EndCommit, AnswerPermission, PlaySlaveRevolt,
    PlayBrasidas, PlayPhormio, PlayThessalianAllies, PlayPersianFleet, DeclineSpecial, ChooseCasualty,
    AskPermission, SetPermission,
)

ANY_TIME: tuple[type[Move], ...] = (SetPermission,)
"""Moves a player may make whoever is to move (they are never among the legal moves of the player to move)."""
