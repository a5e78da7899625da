"""Corrupted BGA logs, drawn by hypothesis: a clear one-line refusal or a record, never a traceback.

Each example takes one of the shared logs (every title) and damages it the way a bad save or a
hand edit would: a packet deleted or swapped with the next one, a notification deleted or
repeated (under a new uid), the log cut short, or one argument replaced by a value of another
type.  Both ways a log comes in are held to it:

* the import (``gamerec import bga``): a record, or a :class:`BgaImportError` whose message is one
  line naming the file (and the packet when the import got that far);
* ``verify``/``ingest``'s worker (``replay_log``): a replay whose status is one of the four, and
  an ``invalid`` one carries the import's refusal, never the worker's catch-all for an exception
  nobody expected (``engine error while importing``).
"""

from __future__ import annotations

import copy
import gzip
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.bga.base import FRAMEWORK_TYPES
from ingest.bga.convert import import_log, log_files, replay_log
from ingest.bga.errors import BgaImportError
from ingest.bga.log import attach_table, companion_table, parse_bytes, read_table_file
from replay.replayer import COMPLETE, DIVERGED, INCOMPLETE, INVALID

LOGS = Path(__file__).resolve().parents[3] / "shared" / "bga-logs"
if not LOGS.is_dir():
    LOGS = Path("/work/shared/bga-logs")
needs_logs = pytest.mark.skipif(not LOGS.is_dir(), reason="../shared/bga-logs is not here")
ALL_LOGS = sorted(str(p) for p in log_files([str(LOGS)])) if LOGS.is_dir() else []
PAX_EVERY_ACTION = LOGS.parent / "bga-logs-every-action" / "pax_pamir"
"""Pax Pamir logs whose players take every action (bribe negotiations, Safe House, the Wakhan): damaged too."""
if PAX_EVERY_ACTION.is_dir():
    ALL_LOGS += sorted(str(p) for p in log_files([str(PAX_EVERY_ACTION)]))

ODD_VALUES = (None, -1, 0, 1, 999, "x", "card_999", "market_9_9", [], {}, True, 2.5)
"""What an argument is replaced by: other types, and ids of things no game has."""

PERIKLES_EVERY_ACTION = LOGS.parent / "bga-logs-every-action" / "perikles"
"""Perikles logs whose players take every action (standing permissions, withdrawn requests, the auto-pass
preference): damaged too."""
if PERIKLES_EVERY_ACTION.is_dir():
    ALL_LOGS += sorted(str(p) for p in log_files([str(PERIKLES_EVERY_ACTION)]))


@cache
def _saved(path: str) -> Any:
    """A shared log, decoded (a fresh copy is damaged for each example)."""
    raw = Path(path).read_bytes()
    return orjson.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


@st.composite
def damaged_logs(draw: st.DrawFn) -> tuple[str, bytes, str]:
    """(the log's name, its damaged JSON, what was done to it)."""
    path = draw(st.sampled_from(ALL_LOGS))
    doc = copy.deepcopy(_saved(path))
    packets = doc["data"]["logs"]
    k = draw(st.integers(0, len(packets) - 1))
    kind = draw(st.sampled_from(["drop packet", "swap packets", "cut short", "drop notification",
                                 "repeat notification", "odd argument", "odd argument", "odd argument"]))
    if kind == "drop packet":
        del packets[k]
    elif kind == "swap packets":
        j = min(k + 1, len(packets) - 1)
        packets[k], packets[j] = packets[j], packets[k]
    elif kind == "cut short":
        del packets[max(k, 1):]
    elif kind in ("drop notification", "repeat notification") and packets[k]["data"]:
        notifs = packets[k]["data"]
        i = draw(st.integers(0, len(notifs) - 1))
        if kind == "drop notification":
            del notifs[i]
        else:
            again = dict(notifs[i], uid=f"{notifs[i].get('uid')}again")
            notifs.insert(i, again)
    elif kind == "odd argument":  # one argument of a game's notification (not of BGA's clocks and state changes): a key
        # of its args, then maybe one of that value's own keys (``cardId``, ``move.to``: what the
        # importers read), each drawn uniformly so that the few keys of a small notification
        # are hit as often as the many of a card restated in full
        games = [(i, j) for i, p in enumerate(packets) for j, n in enumerate(p["data"])
                 if n["type"] not in FRAMEWORK_TYPES and isinstance(n.get("args"), dict) and n["args"]]
        k, j = draw(st.sampled_from(games))
        target, where = packets[k]["data"][j]["args"], [f"{packets[k]['data'][j]['type']}.args"]
        key = draw(st.sampled_from(sorted(target)))
        inner = target[key]
        if isinstance(inner, dict) and inner and draw(st.booleans()):
            target, where, key = inner, [*where, key], draw(st.sampled_from(sorted(inner)))
        target[key] = value = draw(st.sampled_from(ODD_VALUES))
        kind = f"{kind} ({'.'.join([*where, key])} = {value!r})"
    return path, orjson.dumps(doc), f"{kind} at packet #{k + 1}"


def _table(path: str) -> str:
    t = companion_table(Path(path))
    return str(t) if t is not None else ""


@needs_logs
@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_logs())
def test_a_damaged_log_is_refused_in_one_line_or_imported_never_a_traceback(case: tuple[str, bytes, str]) -> None:
    path, data, what = case
    name, table = f"damaged-{Path(path).name}", _table(path)
    try:
        log = parse_bytes(data, name)
        if table:
            attach_table(log, read_table_file(table))
        import_log(log)
    except BgaImportError as exc:
        line = str(exc)
        assert "\n" not in line and name in line, (what, line)
    got = replay_log(name, None, data, table)
    assert got is not None, what
    replayed = got[1]
    assert replayed.status in (COMPLETE, INCOMPLETE, DIVERGED, INVALID), what
    if replayed.status == INVALID:
        assert replayed.error is not None and "engine error" not in str(replayed.error), (what, str(replayed.error))


@needs_logs
def test_the_damage_is_drawn_from_every_title() -> None:
    titles = {Path(p).parent.name for p in ALL_LOGS}
    assert titles >= {"coal_baron", "copenhagen", "pax_pamir", "perikles"}
