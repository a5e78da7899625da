"""A log saved from a BGA account in another language imports to the same record.

BGA's archive log (``logs.html?...&translated=true``) can give the messages (``log``) and the
arguments a message lists in ``i18n`` in the saving account's language.  The importers read the
game from the arguments BGA writes the same in every language; a fact that is only in a message
(Coal Baron's end of the deck a draw-five's rest goes to) is read from the English and refused,
with the reason, in any other language.

Here every pinned and shared log is "translated" the way such a save would be (each word of a message or of
an ``i18n`` argument spelt backwards: the placeholders ``${...}`` stay), then imported.
"""

from __future__ import annotations

import copy
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from bgatest import import_edited

from ingest.bga import BgaImportError, import_log, read_log
from replay.record import dumps

PINNED = Path(__file__).resolve().parent / "bga_logs"
SHARED = [Path(__file__).resolve().parents[3] / "shared" / name for name in ("bga-logs", "bga-logs-every-action")]
LOGS = sorted(PINNED.glob("*/*.log.json.gz")) + [p for d in SHARED if d.is_dir() for p in sorted(d.glob("*/*.log.json.gz"))]

_WORD = re.compile(r"\$\{[^}]*\}|[^\W\d_]+")


def _foreign(text: str) -> str:
    """``text`` in a made-up language: each word backwards and in the other case, placeholders kept."""
    return _WORD.sub(lambda m: m[0] if m[0].startswith("${") else m[0][::-1].swapcase(), text)


def _translate(notif: dict[str, Any]) -> None:
    if isinstance(notif.get("log"), str):
        notif["log"] = _foreign(notif["log"])
    args = notif.get("args")
    if isinstance(args, dict):
        for key in args.get("i18n") or ():
            if isinstance(key, str) and isinstance(args.get(key), str):
                args[key] = _foreign(args[key])


def translated(raw: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(raw)
    for packet in out["data"]["logs"]:
        for notif in packet["data"]:
            _translate(notif)
    return out


def _returns_in_english(raw: dict[str, Any]) -> bool:
    return any(n["type"] in ("returnTiles", "returnCards") and int(n["args"].get("n") or 0)
               for p in raw["data"]["logs"] for n in p["data"])


def test_the_made_up_language_changes_every_word_and_keeps_the_placeholders() -> None:
    assert _foreign("${player_name} returns ${n} tiles to the top of the deck") == \
        "${player_name} SNRUTER ${n} SELIT OT EHT POT FO EHT KCED"
    assert _foreign("Défenseur") == "RUESNEFÉd"


@pytest.mark.parametrize("path", LOGS, ids=[f"{p.parent.parent.name}/{p.name.split('.')[0]}" for p in LOGS])
def test_a_log_in_another_language_gives_the_same_record(path: Path) -> None:
    raw = json.loads(gzip.decompress(path.read_bytes()))
    if _returns_in_english(raw):
        with pytest.raises(BgaImportError, match="only BGA's message says whether the (tiles|orders) went to the top or "
                                                 "the bottom of the deck, and this one does not say it in English"):
            import_edited(translated(raw), path)
        return
    assert dumps(import_edited(translated(raw), path).record) == dumps(import_log(read_log(path)).record)
