"""Every registered title has every piece the other layers look up by its id (docs/writing-a-game.md):
forgetting one fails here, naming the piece and where it belongs."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics.components import Catalogue
from analytics.titles import PIECES as ANALYTICS_PIECES
from analytics.titles import title_module as analytics_module
from dashboard.titles import REQUIRED as DASHBOARD_PIECES
from dashboard.titles import title_module as dashboard_module
from ingest.milestones import ARROW_TYPES, MilestoneTable
from replay.engine import MILESTONE_COLUMN_TYPES, Game
from replay.games import GAME_IDS, UnknownGame, available, get_game, register

ROOT = Path(__file__).resolve().parents[2]


def missing_pieces(game_id: str) -> list[str]:
    """What ``game_id`` lacks, one line per piece (empty: nothing)."""
    try:
        game = get_game(game_id)
    except UnknownGame as exc:
        return [f"replay/games/{game_id}/__init__.py: GAME ({exc})"]
    out = []
    if game.id != game_id:
        out.append(f"replay/games/{game_id}: GAME.id is {game.id!r}")
    if not game.title.strip() or game.title == game_id:
        out.append(f"replay/games/{game_id}: GAME.title (its name as shown), not {game.title!r}")
    if not game.round_name.strip():
        out.append(f"replay/games/{game_id}: GAME.round_name (what its round number counts)")
    if not game.milestone_tables:
        out.append(f"replay/games/{game_id}: GAME.milestone_tables (the typed tables of its milestones)")
    source = "\n".join(p.read_text() for p in (ROOT / "replay" / "games" / game_id).rglob("*.py")
                       if p.name != "__init__.py") if (ROOT / "replay" / "games" / game_id).is_dir() else ""
    for t in game.milestone_tables:
        try:
            MilestoneTable(game=game_id, type=t.type, table=t.table, columns=t.columns)
        except ValueError as exc:
            out.append(f"replay/games/{game_id}: GAME.milestone_tables: {exc}")
        if not t.table.startswith(f"{game_id}_"):
            out.append(f"replay/games/{game_id}: milestone table {t.table!r} is not named {game_id}_...")
        if f'"{t.type}"' not in source:
            out.append(f"replay/games/{game_id}: milestone table {t.table!r} is for type {t.type!r}, "
                       "which its rules never note")
    module = analytics_module(game_id)
    for piece in ANALYTICS_PIECES:
        if not callable(getattr(module, piece, None)):
            out.append(f"analytics/titles/{game_id}.py: {piece}()")
    if module is not None and callable(getattr(module, "catalogue", None)):
        cat = module.catalogue()
        if not isinstance(cat, Catalogue) or not cat.entries:
            out.append(f"analytics/titles/{game_id}.py: catalogue() lists no component")
    module = dashboard_module(game_id)
    for piece in DASHBOARD_PIECES:
        if not callable(getattr(module, piece, None)):
            out.append(f"dashboard/titles/{game_id}.py: {piece}()")
    for script, *_ in getattr(module, "PAGES", ()):
        if not (ROOT / "dashboard" / script).is_file():
            out.append(f"dashboard/titles/{game_id}.py: PAGES names {script}, which is not there")
    if not (ROOT / "docs" / "games" / f"{game_id}.md").is_file():
        out.append(f"docs/games/{game_id}.md")
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_registered_title_has_every_piece(game_id: str) -> None:
    assert missing_pieces(game_id) == []


def test_a_title_without_its_pieces_is_told_each_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from replay import games
    from replay.games.copenhagen import GAME

    monkeypatch.setattr(games, "_cache", dict(games._cache))  # the toy title stays in this test
    register(Game(id="toy_title", title="toy_title", min_players=2, max_players=2, moves=GAME.moves,
                  state_class=GAME.state_class, round_name=""))
    missing = missing_pieces("toy_title")
    assert missing == [
        "replay/games/toy_title: GAME.title (its name as shown), not 'toy_title'",
        "replay/games/toy_title: GAME.round_name (what its round number counts)",
        "replay/games/toy_title: GAME.milestone_tables (the typed tables of its milestones)",
        "analytics/titles/toy_title.py: catalogue()",
        "analytics/titles/toy_title.py: deeper_tables()",
        "dashboard/titles/toy_title.py: board_html()",
        "dashboard/titles/toy_title.py: resources()",
        "docs/games/toy_title.md",
    ]
    assert missing_pieces("no_such_title")[0].startswith("replay/games/no_such_title/__init__.py: GAME")


def test_every_title_module_belongs_to_a_registered_title() -> None:
    """A module left behind by a title that is no longer registered would be found by nobody."""
    for layer in ("analytics", "dashboard"):
        ids = {p.stem for p in (ROOT / layer / "titles").glob("*.py") if p.stem != "__init__"}
        assert ids == set(GAME_IDS), layer
    assert set(available()) == set(GAME_IDS)


def test_milestone_column_types_are_the_ingests() -> None:
    assert tuple(ARROW_TYPES) == MILESTONE_COLUMN_TYPES
