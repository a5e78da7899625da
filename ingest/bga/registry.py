"""Which game importers exist, and which one a log belongs to.

Each game's importer lives in ``ingest/bga/<game_id>.py`` and exposes
``IMPORTER`` (its :class:`~ingest.bga.base.GameImporter` subclass); the
registry looks there for every registered title (:data:`replay.games.GAME_IDS`),
and BGA's name of a title is what its ``Game`` declares (``bga_name``).

A log's title is recognised from its notifications: each importer declares
``signature``, notification types that only its title sends; the importer
whose signature the log's notification types meet most wins.  ``--game``
forces a title.  A log of no supported title, or of none at all, is refused
in one line.
"""

from __future__ import annotations

from functools import cache

from ingest.bga.base import FRAMEWORK_TYPES, GameImporter
from ingest.bga.errors import BgaImportError
from ingest.bga.log import BgaLog
from replay.games import available, get_game, optional_module


@cache
def bga_names() -> dict[str, str]:
    """BGA's names of our titles (a table file's ``game``) -> our ids, whether or not their importer
    exists yet."""
    return {get_game(gid).bga_name: gid for gid in available() if get_game(gid).bga_name}


_registered: dict[str, type[GameImporter]] = {}


def register(cls: type[GameImporter]) -> None:
    """Make an importer available without listing its module (tests' toy importer)."""
    _registered[cls.game_id] = cls


def importers() -> dict[str, type[GameImporter]]:
    """Game id -> importer class, for every importer module present (and every registered one)."""
    return {**_modules(), **_registered}


@cache
def _modules() -> dict[str, type[GameImporter]]:
    out: dict[str, type[GameImporter]] = {}
    for name in (f"ingest.bga.{gid}" for gid in available()):
        module = optional_module(name)
        if module is None:
            continue
        cls: type[GameImporter] = module.IMPORTER
        out[cls.game_id] = cls
    return out


def supported() -> str:
    return ", ".join(f"{gid} ({cls.bga_name})" for gid, cls in sorted(importers().items())) or "none"


def detect(log: BgaLog, forced: str | None = None) -> type[GameImporter]:
    """The importer for ``log`` (``forced``: a game id given by the user); raises :class:`BgaImportError`."""
    table_game = log.table.game if log.table is not None else None
    avail = importers()
    if forced is not None:
        if forced not in avail:
            raise BgaImportError(f"no BGA importer for {forced!r} (importers: {supported()})", file=log.source)
        return avail[forced]
    types = log.types() - FRAMEWORK_TYPES
    if not types:
        raise BgaImportError("this log holds no game notifications at all (only BGA's framework ones), "
                             "so its title cannot be told", file=log.source)
    hits = sorted(((len(types & cls.signature), gid) for gid, cls in avail.items()), reverse=True)
    best = hits[0][0] if hits else 0
    if best == 0:
        ours = bga_names().get(table_game or "")
        if ours is not None:
            raise BgaImportError(f"a log of {table_game!r} ({ours}): gamerec has no BGA importer for it yet "
                                 f"(importers: {supported()})", file=log.source)
        named = f"of the BGA game {table_game!r}, " if table_game else ""
        sample = ", ".join(sorted(types)[:4]) + (", ..." if len(types) > 4 else "")
        raise BgaImportError(f"a log {named}of a title gamerec does not import (importers: {supported()}): "
                             f"its notifications ({sample}) identify none of them", file=log.source)
    tied = [gid for n, gid in hits if n == best]
    if len(tied) > 1:
        raise BgaImportError(f"the notifications fit several titles ({', '.join(sorted(tied))}); "
                             "say which with --game", file=log.source)
    cls = avail[tied[0]]
    if table_game is not None and table_game != cls.bga_name:
        raise BgaImportError(f"the table file says {table_game!r}, the notifications are {cls.bga_name!r}'s",
                             file=log.source)
    return cls
