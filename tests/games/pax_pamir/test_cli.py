"""The command line on Pax Pamir records: replay --json carries the dominance-check rows."""

from __future__ import annotations

from pathlib import Path

import orjson
from click.testing import CliRunner
from pax_pamir_helpers import GAME

from gamerec_cli.main import main
from replay.record import write_records
from replay.simulate import simulate_one


def test_replay_json_lists_scores_and_dominance_checks(tmp_path: Path) -> None:
    rec = simulate_one(GAME, 4, 3, 0)
    path = tmp_path / "one.jsonl"
    write_records([rec], path)
    out = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    obj = orjson.loads(out.output.splitlines()[0])
    assert obj["status"] == "complete"
    assert set(obj["score"]["p1"]) == {"dominance_successful", "dominance_unsuccessful"}
    rows = [m for m in obj["milestones"] if m["type"] == "dominance_check"]
    assert rows and len(rows) % 4 == 0
    keys = {"type", "seq", "check_no", "is_final", "threshold", "successful", "dominant_coalition",
            "blocks_afghan", "blocks_british", "blocks_russian", "player_id", "loyalty", "influence",
            "cylinders", "points"}
    assert all(set(r) == keys for r in rows)
    for no in {r["check_no"] for r in rows}:
        assert sum(r["points"] for r in rows if r["check_no"] == no) > 0
    assert sum(r["points"] for r in rows if r["player_id"] == "p1") == obj["total"]["p1"]
    out = CliRunner().invoke(main, ["verify", str(path)])
    assert out.exit_code == 0 and "1 complete" in out.output
