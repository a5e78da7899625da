"""The lake's scaling run (``python -m benchmarks.lake_scaling``) on a corpus of one title."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the scaling run needs dask[distributed]")

from benchmarks.lake_scaling import main  # noqa: E402


def test_a_scaling_run_of_one_title_ingests_every_game_of_that_title(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    main(["24", "--lake", str(tmp_path / "lake"), "--workers", "1", "--titles", "copenhagen"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    head, run = lines
    assert head == {"corpus_files": 1, "games": 24, "titles": ["copenhagen"]}
    assert run["workers"] == 1 and run["records"] == 24
    assert run["statuses"] == {"complete": 24}
    mark = json.loads((tmp_path / "lake" / "corpus" / "corpus.json").read_text())
    assert mark["titles"] == ["copenhagen"]
    corpus = (tmp_path / "lake" / "corpus").glob("*.jsonl.gz")
    ids = [json.loads(line)["id"] for f in corpus for line in gzip.open(f)]
    assert len(ids) == 24 and all(i.startswith("bench-copenhagen-") for i in ids)
