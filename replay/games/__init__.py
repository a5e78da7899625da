"""The registry of game titles: game id -> :class:`replay.engine.Game`.

Each game lives in its own package ``replay/games/<id>/`` whose ``__init__``
exposes ``GAME``.  Packages are imported lazily, the first time a game is
asked for, so a broken or missing game never stops the others.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from replay.engine import Game

GAME_IDS: tuple[str, ...] = ("copenhagen", "coal_baron", "pax_pamir", "perikles", "praga")

_cache: dict[str, Game] = {}


class UnknownGame(KeyError):
    """A game id that gamerec has no engine for."""

    def __str__(self) -> str:
        return str(self.args[0])


def available() -> list[str]:
    """The ids of the games whose engines are installed, in registry order."""
    out = []
    for gid in GAME_IDS:
        try:
            get_game(gid)
        except UnknownGame:
            continue
        out.append(gid)
    return out


def register(game: Game) -> None:
    """Make ``game`` available under its id (tests use this for toy games)."""
    _cache[game.id] = game


def optional_module(name: str) -> ModuleType | None:
    """The module ``name``, or None if there is no such module (a title's optional piece: its
    features, its BGA importer, its analytics or dashboard module).  An import error inside the
    module itself is raised, not mistaken for a missing piece."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def get_game(game_id: str) -> Game:
    """The :class:`Game` for ``game_id``; raises :class:`UnknownGame`."""
    game = _cache.get(game_id)
    if game is not None:
        return game
    if game_id not in GAME_IDS:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(GAME_IDS)})")
    try:
        module = importlib.import_module(f"replay.games.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"replay.games.{game_id}"):
            raise UnknownGame(f"game {game_id!r} has no engine yet") from None
        raise
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise UnknownGame(f"game {game_id!r} has no engine yet")
    _cache[game_id] = game
    return game
