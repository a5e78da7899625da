"""What the dashboard shows of each title: one module per title, ``dashboard/titles/<id>.py``, named by
the id its game declares (:data:`replay.games.GAME_IDS`).

A title's module defines (``docs/writing-a-game.md``):

- ``board_html(snapshot, names) -> str`` and ``resources(snapshot, names) -> list[dict]`` — its board
  view in game review (:mod:`dashboard.boards`; required);
- ``strategy_figures()`` — the figures of its own on the Strategy page, drawn after the figures every
  title has (optional);
- ``PAGES`` — pages of its own, ``(script, title, icon, url)`` as in :data:`dashboard.app.COMMON_PAGES`
  (optional: Pax Pamir's dominance checks, Coal Baron's shift rankings);
- ``STAND_IN_NOTE``, ``TILES_NOTE`` — a warning shown on its pages, and on game review beside its tiles
  (optional: Praga, whose printed component contents are not public).

The pages find a title's pieces here by its id (:func:`title_piece`); a title without a module, or
without a piece, shows the generic view.  ``tests/core/test_title_pieces.py`` checks that every
registered title has the required pieces.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from replay.games import UnknownGame, available, get_game, optional_module

REQUIRED = ("board_html", "resources")
OPTIONAL = ("strategy_figures", "PAGES", "STAND_IN_NOTE", "TILES_NOTE")


def title_module(title: str) -> ModuleType | None:
    """``dashboard/titles/<title>.py``, or None for a title without one."""
    if not title.isidentifier():
        return None
    return optional_module(f"{__name__}.{title}")


def title_piece(title: str, piece: str) -> Any:
    """``piece`` of ``title``'s module, or None."""
    module = title_module(title)
    return getattr(module, piece, None) if module is not None else None


def title_pages() -> list[tuple[str, str, str, str]]:
    """Every registered title's own pages, in registry order."""
    return [page for title in available() for page in title_piece(title, "PAGES") or ()]


def round_name(title: str) -> str:
    """What the round number of a step of ``title`` counts, as its game declares it (``round`` for a
    title gamerec has no engine for)."""
    try:
        return get_game(title).round_name
    except UnknownGame:
        return "round"
