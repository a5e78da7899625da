"""Fixture databases for the dashboard tests: a few simulated games per title, ingested for real.

``sample_db`` holds 3 games of every title with an engine, one of them made to
diverge (an observed score off by one) and one unreadable record (quarantined).
``copenhagen_db`` holds Copenhagen games only, for the pages of absent titles.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from ingest.pipeline import ingest
from replay.games import available, get_game
from replay.record import dumps
from replay.simulate import simulate_one, simulated_id

TITLES = [g for g in ("copenhagen", "coal_baron", "pax_pamir", "perikles", "praga") if g in available()]
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
