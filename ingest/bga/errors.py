"""The one error the BGA importer raises: where in which log, and why."""

from __future__ import annotations

from replay.engine import GamerecError


class BgaImportError(GamerecError):
    """A log that cannot be imported (the importer fails closed: it never guesses).

    ``file`` is the log file, ``packet`` the BGA packet id, ``notif`` the
    notification type and ``uid`` its uid (each ``None`` when the problem is
    not tied to one), ``reason`` says why in words.  ``str()`` is the one
    line the command line prints::

        table.log.json.gz: packet 57 (purchaseCard): our rules refuse it: ...
    """

    def __init__(self, reason: str, *, file: str = "", packet: int | None = None, notif: str | None = None,
                 uid: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.file = file
        self.packet = packet
        self.notif = notif
        self.uid = uid

    def located_reason(self) -> str:
        """The line without the file: ``packet 57 (purchaseCard): reason``."""
        if self.packet is None and self.notif is None:
            return self.reason
        pid = "?" if self.packet is None else self.packet
        return f"packet {pid}" + (f" ({self.notif})" if self.notif else "") + f": {self.reason}"

    def __str__(self) -> str:
        return f"{self.file or '<log>'}: {self.located_reason()}"
