"""Helpers shared by the per-game BGA importer tests.

``send`` hands one notification to an importer's handler, as the base would;
``events`` lists what the importer emitted in a form a test can compare;
``table_of`` and ``raw_log`` read one of the shared logs and its table file.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from ingest.bga.base import GameImporter
from ingest.bga.convert import Imported, import_log
from ingest.bga.log import Notif, Packet, attach_table, companion_table, parse_log, read_table_file
from replay.record import ChanceEvent, MoveEvent, ObserveEvent


def send(imp: GameImporter, type_: str, log: str = "", **args: Any) -> None:
    """Run the importer's handler for one ``type_`` notification with ``args``."""
    p = Packet("/table/t1", 42, 42, 0)
    n = Notif(type_, args, log, f"u-{type_}", p, 0)
    p.notifs.append(n)
    imp.current = n
    imp.handlers[type_](imp, n)


def events(imp: GameImporter) -> list[Any]:
    """Moves as ``(player, move)``, chance outcomes as they are, BGA observations as ``("observe", facts)``."""
    out: list[Any] = []
    for ev in imp.events:
        if isinstance(ev, MoveEvent):
            out.append((ev.player, ev.move.to_dict()))
        elif isinstance(ev, ChanceEvent):
            out.append(ev.outcome)
        else:
            assert isinstance(ev, ObserveEvent) and ev.origin == "bga"
            out.append(("observe", ev.facts))
    return out


def table_of(path: Path) -> dict[str, Any]:
    """The table file beside a shared ``<name>.log.json.gz``."""
    out: dict[str, Any] = json.loads(path.with_name(path.name.replace(".log.json.gz", ".table.json")).read_text())
    return out


def raw_log(path: Path) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
    return out


def import_edited(raw: dict[str, Any], path: Path) -> Imported:
    """``raw`` (the decoded log of ``path``, edited by a test) imported with ``path``'s table file."""
    log = parse_log(raw, str(path))
    table = companion_table(path)
    if table is not None:
        attach_table(log, read_table_file(table))
    return import_log(log)
