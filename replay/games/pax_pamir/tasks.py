"""Pax Pamir's tasks: every point where its rules wait, on the core's task stack.

Each task class of the title (loyalty, the action phase, a bribe, a battle's
removals, the refill...) derives from :class:`Task`, the core's
:class:`replay.decisions.Task` typed with :class:`PaxState`: it lists its
candidate moves, checks one and applies it (a decision), awaits a card (a
chance step) or simply runs.  The core (:class:`replay.decisions.TaskState`)
drives them: legal moves are exactly the candidates that pass the check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay import decisions

if TYPE_CHECKING:
    from replay.games.pax_pamir.state import PaxState  # noqa: F401 (the base class names it in a string)


@dataclass(slots=True)
class Task(decisions.Task["PaxState"]):
    """One pending step of Pax Pamir's rules."""
