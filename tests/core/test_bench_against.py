"""``gamerec bench --against REV``: a previous version exported from git replays the same records
in a process of its own, in turn with this version; records the two end differently are left
out of the timing, and a revision that is not a commit is one line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks.replay_speed import Comparison, export_version, source_root
from gamerec_cli.main import main
from replay.record import dumps, loads
from replay.simulate import simulate


def _in_git() -> bool:
    probe = subprocess.run(["git", "-C", str(source_root()), "rev-parse", "HEAD"], capture_output=True,
                           check=False)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _in_git(), reason="gamerec is not running from a git checkout")


def test_export_writes_the_revisions_replay_package(tmp_path: Path) -> None:
    sha = export_version("HEAD", tmp_path)
    assert len(sha) == 40
    assert (tmp_path / "replay" / "replayer.py").is_file()


def test_head_against_itself_times_the_records_both_end_alike(tmp_path: Path) -> None:
    blobs = [dumps(r) for r in simulate("copenhagen", 3, 5, observe_every=0)]
    broken = loads(blobs[0])
    broken.events = broken.events[: len(broken.events) // 2]  # stops half-way: not complete
    blobs.append(dumps(broken))
    with Comparison("HEAD", tmp_path) as c:
        out = c.measure("copenhagen tiny", blobs, 2)
    assert (out.records, out.kept) == (4, 3)
    assert len(out.dropped) == 1 and out.dropped[0].startswith("record 3: ")
    assert out.seconds > 0 and out.before_seconds > 0
    assert out.speedup is not None and 0.2 < out.speedup < 5  # the same code on both sides


def test_a_revision_that_is_no_commit_is_one_line() -> None:
    res = CliRunner().invoke(main, ["bench", "--quick", "--skip-ingest", "--skip-dashboard", "--skip-import",
                                   "--skip-analysis", "--against", "no-such-rev-xyz"])
    assert res.exit_code == 2
    assert "'no-such-rev-xyz' is not a commit of the git checkout" in res.output
    assert "Traceback" not in res.output


def test_the_bench_shows_the_speed_up_against_a_revision(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamerec_cli import bench_cmd

    monkeypatch.setattr(bench_cmd, "QUICK", (2, 1))
    res = CliRunner().invoke(main, ["bench", "--quick", "--game", "copenhagen", "--corpus", "sim", "--skip-ingest",
                                    "--skip-dashboard", "--skip-import", "--skip-analysis", "--against", "HEAD"])
    assert res.exit_code == 0, res.output
    assert "vs HEAD" in res.output
    assert "only records both versions replay to the same end" in res.output and "all of them" in res.output


class _FakeVersion:
    """Stands in for a worker process: every record replays alike; a timed slice costs its
    length, plus one second the first time each slice is timed (a spell of load)."""

    def __init__(self, log: list[tuple[str, tuple[int, int]]], label: str) -> None:
        self.log, self.label, self.seen = log, label, set()

    def ask(self, **cmd: object) -> dict[str, object]:
        if cmd["cmd"] == "load":
            return {"ends": ['["complete"]'] * 7}
        if cmd["cmd"] == "keep":
            return {"kept": 7}
        part = tuple(cmd["slice"])  # type: ignore[arg-type]
        self.log.append((self.label, part))  # type: ignore[arg-type]
        slow = part not in self.seen
        self.seen.add(part)
        return {"seconds": part[1] - part[0] + (1.0 if slow else 0.0)}  # type: ignore[index]


def test_the_versions_take_turns_slice_by_slice_and_keep_each_slices_best(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven records in slices of three: each slice is timed by both versions one after the other,
    the first version alternating, and a version's time sums each slice's best."""
    monkeypatch.setattr(Comparison, "SLICE", 3)
    log: list[tuple[str, tuple[int, int]]] = []
    c = Comparison.__new__(Comparison)
    c.workdir = tmp_path
    c.now, c.before = _FakeVersion(log, "now"), _FakeVersion(log, "before")  # type: ignore[assignment]
    out = c.measure("fake", [b"x"] * 7, 2)
    slices = [(0, 3), (3, 6), (6, 7)]
    assert [part for _, part in log[::2]] == slices * 2
    assert all(log[i][1] == log[i + 1][1] and log[i][0] != log[i + 1][0] for i in range(0, len(log), 2))
    assert [who for who, _ in log[::2]] == ["now", "before", "now", "before", "now", "before"]
    assert (out.seconds, out.before_seconds) == (7.0, 7.0)  # the slow first timings are dropped
