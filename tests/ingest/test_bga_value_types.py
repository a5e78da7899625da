"""A number BGA writes as text, or text it writes as a number, reads the same.

Real logs mix both: a value read from BGA's database is text (``"player_id": "84104011"``), one
the game computes a number, and which is which depends on the code path and on the PHP and
database drivers of the day (the public Tokaido and Innovation samples show both, for the same
kind of value).  The harness gives one mix; here every pinned log is read with its game
notifications' numbers turned into text, its digit texts turned into numbers, and its state ids
written as text, and must give the same record.
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bgatest import import_edited

from ingest.bga import import_log, read_log
from ingest.bga.base import FRAMEWORK_TYPES
from ingest.bga.errors import BgaImportError
from replay.record import dumps

PINNED = sorted((Path(__file__).resolve().parent / "bga_logs").glob("*/*.log.json.gz"))


def leaves(v: Any, change: Callable[[Any], Any]) -> Any:
    """``v`` with every value that is not a list or an object changed by ``change``."""
    if isinstance(v, list):
        return [leaves(x, change) for x in v]
    if isinstance(v, dict):
        return {k: leaves(x, change) for k, x in v.items()}
    return change(v)


def as_text(v: Any) -> Any:
    return str(v) if type(v) is int else v


def as_number(v: Any) -> Any:
    return int(v) if isinstance(v, str) and v[v[:1] == "-":].isdigit() and len(v) < 12 else v


def _game_args(change: Callable[[Any], Any]) -> Callable[[dict[str, Any]], None]:
    def edit(n: dict[str, Any]) -> None:
        if n["type"] not in FRAMEWORK_TYPES and isinstance(n.get("args"), dict):
            n["args"] = change(n["args"])
    return edit


def _state_ids_as_text(n: dict[str, Any]) -> None:
    if n["type"] == "gameStateChange" and isinstance(n.get("args"), dict) and isinstance(n["args"].get("id"), int):
        n["args"]["id"] = str(n["args"]["id"])


EDITS = {"numbers as text": _game_args(lambda a: leaves(a, as_text)),
         "digits as numbers": _game_args(lambda a: leaves(a, as_number)),
         "state ids as text": _state_ids_as_text}


@pytest.mark.parametrize("edit", list(EDITS))
@pytest.mark.parametrize("path", PINNED, ids=[p.name.split(".")[0] for p in PINNED])
def test_a_log_with_numbers_written_otherwise_gives_the_same_record(path: Path, edit: str) -> None:
    raw = json.loads(gzip.decompress(path.read_bytes()))
    changed = copy.deepcopy(raw)
    for packet in changed["data"]["logs"]:
        for n in packet["data"]:
            EDITS[edit](n)
    assert dumps(import_edited(changed, path).record) == dumps(import_log(read_log(path)).record)


@pytest.mark.parametrize("value", [[], {}, "x", 2.5, True])
def test_a_final_score_that_is_no_number_is_refused_at_the_end_of_game(value: Any) -> None:
    """The end-of-game packet's score of a player must be a whole number (as text or a number): anything
    else refuses the log there, instead of leaving that player's score out of the record."""
    path = next(p for p in PINNED if p.parent.name == "copenhagen")
    raw = json.loads(gzip.decompress(path.read_bytes()))
    ends = [n for p in raw["data"]["logs"] for n in p["data"]
            if n["type"] == "gameStateChange" and isinstance(n["args"], dict) and n["args"].get("id") == 99]
    assert ends
    ends[-1]["args"]["args"]["result"][0]["score"] = value
    with pytest.raises(BgaImportError, match=r"packet \d+ \(gameStateChange\): BGA's final score of player \d+ is "):
        import_edited(raw, path)
