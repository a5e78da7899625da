"""Shared pytest setup: make the toy game importable and registered; Ctrl-C as in a terminal."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import handtoy  # noqa: E402,F401  (registers the "handtoy" game: hidden hands)
import toygame  # noqa: E402,F401  (registers the "toy" game)

# A shell starts a background job (`cmd &` without job control, as under nohup) with Ctrl-C
# ignored, and Python then leaves it so.  The Ctrl-C tests send SIGINT to this process and to the
# commands it starts; give it Python's own handler, which the commands then start with too.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
