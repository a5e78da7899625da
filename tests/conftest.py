"""Shared pytest setup: make the toy game importable and registered."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import handtoy  # noqa: E402,F401  (registers the "handtoy" game: hidden hands)
import toygame  # noqa: E402,F401  (registers the "toy" game)
