"""Make the Coal Baron test helpers importable (``import coal_baron_helpers``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
