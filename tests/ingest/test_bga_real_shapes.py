"""What real 2026 archive logs show that the harness's do not, read the same.

A public analysis of 114 real BGA archive logs (2026, Ark Nova) reports, besides every player's
private channel (``test_bga_all_views.py``):

- notifications carrying ``h``, ``lock_uuid`` and ``synchro`` beside ``uid``, ``type``, ``log``
  and ``args``;
- packets with a ``null`` ``move_id`` (a player waking the others: ``wakeupPlayers``), between
  the moves;
- within one move, the private packets before the table's;
- an empty ``players`` list (a conceded game);
- a state's private arguments (``_private``) sent to a player in a copy of its ``gameStateChange``
  on their own channel (29% of the state changes carry ``_notified_privately``).

Every pinned log, edited each of these ways, gives the same record (with the private packets
moved, the same events: a move BGA tells both publicly and privately may then be credited to
the other of its two notifications, in ``src``).
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from bgatest import import_edited

from ingest.bga import import_log, read_log
from replay.record import dumps

PINNED = sorted((Path(__file__).resolve().parent / "bga_logs").glob("*/*.log.json.gz"))


def with_lock_fields(raw: dict[str, Any], viewer: str) -> None:
    for packet in raw["data"]["logs"]:
        for k, n in enumerate(packet["data"]):
            n.update(h=f"{k:08x}", lock_uuid=f"00000000-0000-4000-8000-{k:012x}", synchro=k % 2)


def with_wakeups(raw: dict[str, Any], viewer: str) -> None:
    """A framework packet with no move id after every seventh packet, from the fourth."""
    logs = raw["data"]["logs"]
    top = max(int(p["packet_id"]) for p in logs)
    table = next(p for p in logs if p["channel"].startswith("/table/"))
    out: list[dict[str, Any]] = []
    for k, p in enumerate(logs):
        if k % 7 == 3:
            top += 1
            out.append({**{key: v for key, v in table.items() if key != "data"}, "packet_id": str(top), "move_id": None,
                        "time": p["time"], "data": [{"uid": f"w{top}", "type": "wakeupPlayers", "log": "", "args": []}]})
        out.append(p)
    raw["data"]["logs"] = out


def private_first(raw: dict[str, Any], viewer: str) -> None:
    """Within each run of packets of one move, the private ones first (each side in its order)."""
    logs, out, i = raw["data"]["logs"], [], 0
    while i < len(logs):
        j = i
        while j < len(logs) and logs[j]["move_id"] == logs[i]["move_id"]:
            j += 1
        run = logs[i:j]
        out += [p for p in run if p["channel"].startswith("/player/")]
        out += [p for p in run if not p["channel"].startswith("/player/")]
        i = j
    raw["data"]["logs"] = out


def without_players(raw: dict[str, Any], viewer: str) -> None:
    raw["data"]["players"] = []


def private_state_copies(raw: dict[str, Any], viewer: str) -> None:
    """Before each table packet with state changes, a packet on ``viewer``'s private channel with a
    copy of each, holding private arguments; every copy says ``_notified_privately``."""
    logs = raw["data"]["logs"]
    channel = f"/player/p{viewer}"
    top = max(int(p["packet_id"]) for p in logs)
    out: list[dict[str, Any]] = []
    for p in logs:
        states = [n for n in p["data"] if n["type"] == "gameStateChange" and isinstance(n["args"], dict)]
        if states and p["channel"].startswith("/table/"):
            top += 1
            for n in states:  # which copy says it is not known: the table's too
                n["args"]["_notified_privately"] = True
            copies = copy.deepcopy(states)
            for n in copies:
                n["uid"] = f"{n['uid']}-private"
                n["args"]["_notified_privately"] = True
                inner = n["args"].get("args")
                n["args"]["args"] = {**(inner if isinstance(inner, dict) else {}), "_private": {"tiles": {"1": {}}}}
            out.append({**{key: v for key, v in p.items() if key != "data"}, "channel": channel,
                        "packet_id": str(top), "data": copies})
        out.append(p)
    raw["data"]["logs"] = out


EDITS: dict[str, Callable[[dict[str, Any], str], None]] = {  # (the log, its viewer)
    "lock fields": with_lock_fields, "wake-ups with no move id": with_wakeups,
    "private packets first": private_first, "no players list": without_players,
    "private copies of state changes": private_state_copies}


def _events_without_src(rec: Any) -> list[dict[str, Any]]:
    events = orjson.loads(dumps(rec))["events"]
    for e in events:
        e.pop("src", None)
    return events  # type: ignore[no-any-return]


@pytest.mark.parametrize("edit", list(EDITS))
@pytest.mark.parametrize("path", PINNED, ids=[p.name.split(".")[0] for p in PINNED])
def test_a_log_in_a_real_logs_shape_gives_the_same_record(path: Path, edit: str) -> None:
    raw = json.loads(gzip.decompress(path.read_bytes()))
    changed = copy.deepcopy(raw)
    log = read_log(path)
    own_channel = any(p.private for p in log.packets)
    if edit == "private copies of state changes" and log.views:
        pytest.skip("a log of every view: copies on one channel would change whose view is the default")
    EDITS[edit](changed, log.viewer or str(raw["data"]["players"][0]["id"]))
    got, want = import_edited(changed, path).record, import_log(log).record
    if edit == "private packets first":
        assert _events_without_src(got) == _events_without_src(want)
        got.events, want.events = [], []
    if edit == "private copies of state changes" and not own_channel:
        got.id, got.source = want.id, want.source  # the copies' channel is the one that names a viewer
    assert dumps(got) == dumps(want)
