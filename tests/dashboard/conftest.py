"""Fixture databases for the dashboard tests: a few simulated games per title, ingested for real.

``sample_db`` holds 3 games of every title with an engine, one of them made to
diverge (an observed score off by one) and one unreadable record (quarantined).
``copenhagen_db`` holds Copenhagen games only, for the pages of absent titles.
``sample_lake`` holds the same records as ``sample_db`` in a Parquet lake (``gamerec ingest --lake``,
on a one-worker local Dask cluster); its catalog ``gamerec.duckdb`` is what readers open.

The browser tests share ``dashboard_server`` (``gamerec dashboard`` started as a user would) and
``chromium`` (one headless Chromium per test module, see ``browser.py``).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import orjson
import pytest

from ingest.pipeline import ingest
from replay.games import available, get_game
from replay.record import dumps
from replay.simulate import simulate_one, simulated_id

from .browser import CHROMIUM, CHROMIUM_ARGS, NO_CHROMIUM, serve

TITLES = available()
_DIVERGED_TITLE = "coal_baron" if "coal_baron" in TITLES else "copenhagen"
DIVERGED_ID = simulated_id(_DIVERGED_TITLE, 11, get_game(_DIVERGED_TITLE).min_players + 1, 1)


def _records(title: str, n: int, seed: int = 11) -> list[bytes]:
    game = get_game(title)
    counts = list(range(game.min_players, min(game.max_players, 4) + 1))
    return [dumps(simulate_one(game, counts[i % len(counts)], seed, i)) for i in range(n)]


def _corrupt(raw: bytes) -> bytes:
    """Add one to the first observed score of the first player: an observation mismatch."""
    obj = orjson.loads(raw)
    for ev in obj["events"]:
        score = ev.get("observe", {}).get("score")
        if score:
            pid = next(iter(score))
            score[pid] += 1
            break
    return orjson.dumps(obj)


def _write(path: Path, lines: list[bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wb") as fh:
        for line in lines:
            fh.write(line + b"\n")
    return path


@pytest.fixture(scope="session")
def sample_records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("records")
    for title in TITLES:
        lines = _records(title, 3)
        if title in DIVERGED_ID:
            lines[1] = _corrupt(lines[1])
            lines.append(b'{"format": "gamerec/1", "game": "' + title.encode() + b'", "id": "broken"')
        _write(root / f"{title}.jsonl.gz", lines)
    return root


@pytest.fixture(scope="session")
def sample_db(sample_records: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("db") / "sample.duckdb"
    ingest([str(sample_records)], db, workers=0, publish_every=0)
    return db


@pytest.fixture(scope="session")
def copenhagen_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cph")
    _write(root / "copenhagen.jsonl.gz", _records("copenhagen", 2, seed=3))
    db = root / "cph.duckdb"
    ingest([str(root / "copenhagen.jsonl.gz")], db, workers=0, publish_every=0)
    return db


@pytest.fixture(scope="session")
def sample_lake(sample_records: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalog of a lake holding ``sample_records`` (the records of ``sample_db``)."""
    pytest.importorskip("distributed", reason="the lake needs dask[distributed] (pip install 'gamerec[lake]')")
    from ingest.lake import ingest_lake

    lake = tmp_path_factory.mktemp("lake") / "lake"
    ingest_lake([str(sample_records)], str(lake), workers=1)
    return lake / "gamerec.duckdb"


@pytest.fixture
def dashboard_server() -> Iterator[Callable[[Path], str]]:
    """Start ``gamerec dashboard --db DB`` on a free port: ``url = dashboard_server(db)``; stopped after the test."""
    with ExitStack() as stack:
        yield lambda db: stack.enter_context(serve(db))


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium (Playwright) for the tests of a module; skipped without Chromium or Playwright."""
    if not Path(CHROMIUM).exists():
        pytest.skip(NO_CHROMIUM)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
