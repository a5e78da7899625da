"""Where Board Game Arena's implementation departs from the printed rules, as data.

Each title names the points where BGA's engine plays differently from the
rulebook in ``data/departures.json``: an id, the rulebook section, what the
rulebook says and what BGA does.  The engines follow the rulebook by default
and BGA under ``ruleset: bga``; replaying under ``bga``, an engine calls
:meth:`replay.engine.State.depart` at each step where such a point changes
what happens - where the rulebook's branch would have given something else -
and goes on, so one replay finds every departure of a game.  A step where both
branches agree records nothing; a record under the official rules departs
nowhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Departure:
    """One named point where BGA departs from the rulebook."""

    id: str
    section: str
    """The rulebook section (of ``../shared/rules/<title>.md``) the point belongs to."""
    rulebook: str
    """What the printed rules say."""
    bga: str
    """What Board Game Arena's implementation does instead."""

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.id, "section": self.section, "rulebook": self.rulebook, "bga": self.bga}


class UnknownDeparture(KeyError):
    """An engine named a departure its title does not declare."""


def older_code_flag(options: Mapping[str, Any], name: str, ruleset: str, until: str) -> bool:
    """A boolean record option that says the game was played by a rule of BGA's code before ``until``
    (a date): ``false`` by default, ``true`` only under the ``bga`` ruleset; anything else is an
    illegal setup (:class:`replay.engine.IllegalMove`)."""
    on = options.get(name, False)
    if on is False or (on is True and ruleset == "bga"):
        return bool(on)
    from replay.engine import IllegalMove

    raise IllegalMove(f"{name} must be true or false, and true only under the bga ruleset "
                      f"(BGA's code before {until}), not {on!r}")


def load_departures(package: str) -> dict[str, Departure]:
    """The departures a game package declares in its ``data/departures.json`` (in file order)."""
    text = resources.files(package).joinpath("data", "departures.json").read_text(encoding="utf-8")
    rows: list[dict[str, Any]] = json.loads(text)
    out: dict[str, Departure] = {}
    for row in rows:
        d = Departure(str(row["id"]), str(row["section"]), str(row["rulebook"]), str(row["bga"]))
        if d.id in out:
            raise ValueError(f"{package}: departure {d.id!r} is declared twice")
        out[d.id] = d
    return out


def departure_rows(record_id: str, rules: Mapping[str, Departure],
                   departures: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per departure of a replay: ``id`` (the record), ``seq``, ``rule``, ``section``,
    ``rulebook``, ``happened`` (and ``bga``, what BGA does in general)."""
    out = []
    for d in departures:
        rule = rules[d["rule"]]
        out.append({"id": record_id, "seq": d["seq"], "rule": rule.id, "section": rule.section,
                    "rulebook": rule.rulebook, "bga": rule.bga, "happened": d["happened"]})
    return out


DOC_BEGIN = "<!-- departures: generated from data/departures.json by `gamerec departures --rules --game {game}` -->"
DOC_END = "<!-- end of departures -->"


def markdown_table(game: str, rules: Mapping[str, Departure]) -> str:
    """The title's departures as the Markdown table its ``docs/games/<title>.md`` carries, between
    the two marker comments (a test keeps the doc in step with the data file)."""
    lines = [DOC_BEGIN.format(game=game), "",
             "| rule | rulebook section | the rulebook | Board Game Arena |", "| --- | --- | --- | --- |"]
    lines += [f"| `{d.id}` | {d.section} | {d.rulebook} | {d.bga} |" for d in rules.values()]
    lines += ["", DOC_END]
    return "\n".join(lines)
