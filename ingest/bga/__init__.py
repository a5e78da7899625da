"""Importing Board Game Arena logs (see ``docs/bga-import.md``).

``log`` reads every envelope a saved log comes in; ``base`` is what each
game's importer plugs into; ``registry`` recognises the title; ``convert``
turns a log into a ``gamerec/1`` record and lets ingest/verify/replay take
logs mixed with records.  One module per game (``pax_pamir`` ...).
"""

from ingest.bga.base import FRAMEWORK_TYPES, GameImporter, Mismatch
from ingest.bga.convert import Imported, bga_items, import_file, import_log, log_files
from ingest.bga.errors import BgaImportError
from ingest.bga.log import BgaLog, Notif, Packet, TableInfo, parse_log, read_log
from ingest.bga.registry import detect, importers

__all__ = [
    "FRAMEWORK_TYPES", "BgaImportError", "BgaLog", "GameImporter", "Imported", "Mismatch", "Notif", "Packet",
    "TableInfo", "bga_items", "detect", "import_file", "import_log", "importers", "log_files", "parse_log",
    "read_log",
]
