"""The safety net in the suite: a subset of the committed digests, recomputed, must not change.

Every bundled record, every BGA log kept in the repository and in ``../shared``
(when it is there, as for the importer tests), and the first
:data:`SIMULATED` simulated records of each title are replayed and ingested
again and compared with ``tests/safety/digests.tsv.gz``.  A failure names each
record and what changed.  After a deliberate change of the rules, the importer
or the rows, regenerate the file (``python tests/safety/digest.py --sim 10000
--workers 2 --out tests/safety/digests.tsv.gz``, see ``docs/safety-net.md``)
and say why in the commit.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import digest  # noqa: E402

SIMULATED = 200
"""Simulated records per title recomputed here (the committed file may hold more)."""
TITLES = ("coal_baron", "copenhagen", "pax_pamir", "perikles", "praga")


@cache
def expected() -> dict[tuple[str, str], digest.Digest]:
    return {d.key: d for d in digest.read(digest.DIGESTS)}


def check(got: list[digest.Digest], keys: set[tuple[str, str]]) -> None:
    """``got`` must be exactly the recorded digests of ``keys``."""
    assert got, "nothing was recomputed"
    want = [expected()[k] for k in sorted(keys)]
    problems = digest.compare(want, got)
    assert not problems, f"{len(problems)} records differ:\n" + "\n".join(problems[:20])


def folders() -> list[tuple[str, str]]:
    """``(corpus, folder)`` for every title folder of every file corpus that is here."""
    return [(c, sub.name) for c, root in digest.file_corpora().items()
            for sub in sorted(root.iterdir()) if sub.is_dir()]


@pytest.mark.parametrize(("corpus", "folder"), folders())
def test_every_record_and_log_replays_and_ingests_as_recorded(corpus: str, folder: str) -> None:
    root = digest.file_corpora()[corpus]
    got = [d for task in digest.file_tasks(corpus, root, folder) for d in digest.digest_items(*task)]
    check(got, {k for k in expected() if k[0] == corpus and k[1].startswith(folder + "/")})


@pytest.mark.parametrize("start", range(0, SIMULATED, digest.CHUNK))
@pytest.mark.parametrize("title", TITLES)
def test_simulated_records_replay_and_ingest_as_recorded(title: str, start: int) -> None:
    stop = start + digest.CHUNK
    check(digest.digest_sim(title, start, stop), {("sim", f"{title}:{i}") for i in range(start, stop)})


def test_the_digests_cover_every_corpus_and_title() -> None:
    """The committed file holds the bundled records, the kept and shared logs, and at least the
    simulated records recomputed here, as many of every title."""
    keys = expected()
    assert {"bundled", "bga-fixtures", "bga-logs", "bga-logs-every-action", "sim"} <= {k[0] for k in keys}
    simulated = {title: sum(1 for k in keys if k[0] == "sim" and k[1].startswith(title + ":")) for title in TITLES}
    assert min(simulated.values()) >= SIMULATED, simulated
    for title, n in simulated.items():  # a prefix of the simulated corpus: games 0 to n - 1
        assert {("sim", f"{title}:{i}") for i in range(n)} <= keys.keys(), title
    for title in TITLES:
        assert any(k[0] == "bundled" and k[1].startswith(title + "/") for k in keys), title
