"""What the analytics know of each title: one module per title, ``analytics/titles/<id>.py``, named by
the id its game declares (:data:`replay.games.GAME_IDS`).

A title's module defines the :data:`PIECES` (``docs/writing-a-game.md``):

- ``catalogue() -> Catalogue`` — every card, tile or action kind of the title and how a move takes it
  (:mod:`analytics.components`);
- ``deeper_tables(con) -> list[RateTable]`` — the win rate by what a player of the title looks at first
  (:mod:`analytics.deeper`).

The code that reads them finds them here by the title's id (:func:`title_piece`); a title without a
module, or without a piece, shows without it.  ``tests/core/test_title_pieces.py`` checks that every
registered title has every piece.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from replay.games import optional_module

PIECES = ("catalogue", "deeper_tables")


def title_module(title: str) -> ModuleType | None:
    """``analytics/titles/<title>.py``, or None for a title without one."""
    if not title.isidentifier():
        return None
    return optional_module(f"{__name__}.{title}")


def title_piece(title: str, piece: str) -> Callable[..., Any] | None:
    """The function ``piece`` of ``title``'s module, or None."""
    module = title_module(title)
    fn = getattr(module, piece, None) if module is not None else None
    return fn if callable(fn) else None
