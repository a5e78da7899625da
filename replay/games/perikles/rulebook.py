"""What the rulebook's branch gives at a step played under ``ruleset: bga``.

Replaying under ``bga``, a rule that departs from the rulebook records a departure
(:meth:`replay.engine.State.depart`, the points in ``data/departures.json``) only where the
rulebook would have given something else at that step.  Most points compute the rulebook's
answer in place; :func:`by_the_rulebook` serves those whose answer comes from a check shared
with the rest of the rules (where a unit may go, for the whole commit turn).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board


@contextmanager
def by_the_rulebook(s: Board) -> Iterator[None]:
    """Within the block the position answers questions as under the official rules (and without
    the cached answers of the bga ones).  Only for questions: nothing may change meanwhile."""
    ruleset, memo = s.ruleset, s._memo
    s.ruleset, s._memo = "official", None
    try:
        yield
    finally:
        s.ruleset, s._memo = ruleset, memo
