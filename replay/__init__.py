"""gamerec's replay layer: the gamerec/1 record, the engine protocol, the
replayer, the simulator and one rules engine per game (``replay.games``).

Pure Python and deterministic; imports nothing from ingest, analytics or the
dashboard.
"""

__version__ = "0.1.0"
ENGINE_VERSION = f"gamerec {__version__}"
