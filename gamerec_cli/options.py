"""Options several commands share."""

from __future__ import annotations

import click

VIEWER_OPTION = click.option(
    "--viewer", "viewer", default=None, metavar="ID|NAME", envvar="GAMEREC_VIEWER", show_envvar=True,
    help="A BGA log holding every player's private notifications (a finished game's archive) is read "
         "as this player's view (default: the first player in turn order with private notifications).")
