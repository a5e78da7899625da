"""The engine's work queue: tasks run in order until a player must decide or chance must speak.

The whole position is one plain-JSON dict ``s.d``.  ``d["tasks"]`` is the queue of rule steps
still to do this turn; a step either finishes, pushes further steps to the front, sets
``d["decision"]`` (a player must choose) or ``d["chance"]`` (a draw is awaited).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from replay.engine import ChanceRequest, ImpossibleChance

if TYPE_CHECKING:
    from .state import PragaState

Task = dict[str, Any]
HANDLERS: dict[str, Callable[[PragaState, Task], None]] = {}
RESOLVERS: dict[str, Callable[[PragaState, dict[str, Any], list[str]], None]] = {}


def handler(op: str) -> Callable[[Callable[[PragaState, Task], None]], Callable[[PragaState, Task], None]]:
    def wrap(fn: Callable[[PragaState, Task], None]) -> Callable[[PragaState, Task], None]:
        HANDLERS[op] = fn
        return fn
    return wrap


def resolver(purpose: str) -> Callable[[Callable[[PragaState, dict[str, Any], list[str]], None]],
                                       Callable[[PragaState, dict[str, Any], list[str]], None]]:
    def wrap(fn: Callable[[PragaState, dict[str, Any], list[str]], None]) -> Callable[
            [PragaState, dict[str, Any], list[str]], None]:
        RESOLVERS[purpose] = fn
        return fn
    return wrap


def push(s: PragaState, *tasks: Task) -> None:
    """Put ``tasks`` at the front of the queue, in the given order."""
    s.d["tasks"][0:0] = list(tasks)


def decide(s: PragaState, player: str, kind: str, **fields: Any) -> None:
    s.d["decision"] = {"kind": kind, "player": player, **fields}


def run(s: PragaState) -> None:
    """Run queued steps until a decision or a chance outcome is awaited, or the game is over."""
    d = s.d
    while d["decision"] is None and d["chance"] is None and not d["over"]:
        if d["tasks"]:
            task = d["tasks"].pop(0)
            HANDLERS[task["op"]](s, task)
        else:
            d["decision"] = {"kind": "turn", "player": s.current()}


# --- stacks: face-down piles whose bottom may be known ---------------------------
#
# Each stack is the core's partly-known deck (``s.stacks[deck]``, a
# :class:`replay.hidden.PartlyKnownDeck` of distinct tiles): a shuffled middle whose
# tiles come by chance, and the tiles put under it since, known and in order.


def draw(s: PragaState, deck: str, n: int, purpose: str, **extra: Any) -> None:
    """Draw ``n`` tiles from ``deck`` for ``purpose``.  Unseen tiles come from chance; tiles put
    under the stack earlier are known and come without chance, in order."""
    stack = s.stacks[deck]
    unseen = min(n, stack.hidden)
    known = min(n - unseen, len(stack.bottom))
    info = {"deck": deck, "purpose": purpose, "unseen": unseen, "known": known, **extra}
    if unseen:
        s.d["chance"] = info
    else:
        RESOLVERS[purpose](s, info, stack.take_bottom(known))


def put_under(s: PragaState, deck: str, items: list[str]) -> None:
    s.stacks[deck].put_back(sorted(items), "bottom")


def request(s: PragaState) -> ChanceRequest | None:
    ch = s.d["chance"]
    if ch is None:
        return None
    if ch["deck"] == "first_player":
        return ChanceRequest(kind="choose", name="first_player", options=tuple(s.players),
                             reason="the start player")
    return s.stacks[ch["deck"]].request(ch["unseen"], ch["purpose"].replace("_", " "))


def reveal(s: PragaState, outcome: dict[str, Any]) -> None:
    ch = s.d["chance"]
    assert ch is not None
    if ch["deck"] == "first_player":
        s.d["chance"] = None
        RESOLVERS[ch["purpose"]](s, ch, [str(outcome["value"])])
        return
    items = outcome["items"]
    if None in items:
        raise ImpossibleChance(f"the {ch['deck']} draw is seen by every player: its tiles cannot be unknown")
    if len(set(items)) != len(items):
        raise ImpossibleChance(f"the {ch['deck']} stack holds each tile once; the draw repeats one: {items}")
    stack = s.stacks[ch["deck"]]
    stack.draw_hidden(list(items), f"the {ch['deck']} stack")
    known = stack.take_bottom(ch["known"])
    s.d["chance"] = None
    RESOLVERS[ch["purpose"]](s, ch, [str(i) for i in items] + known)
