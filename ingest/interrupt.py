"""Ctrl-C, taken where a run can stop cleanly.

Python raises ``KeyboardInterrupt`` wherever the main thread is when the
signal arrives: between a lock's acquisition and the code that releases it,
inside a queue's bookkeeping, in a DuckDB statement (which then fails with an
error of its own), or in the clean-up of the run itself.  A run that must
leave its database whole cannot stop at an arbitrary instruction: a lock left
held hangs the clean-up, a statement cut short turns into a traceback.

:class:`Interrupt` notes the signal instead, and the run stops at the next
point made for it (:meth:`Interrupt.check`): between two tasks, while it waits
for a worker or for the writer; where the work holds nothing and may wait for
ever (reading a pipe), :meth:`Interrupt.raising` lets it raise at once, as
Python would.  The clean-up then runs to the end.  A second
Ctrl-C stops the process at once, as ``kill -9`` would: what was committed
stays whole (DuckDB's write-ahead log sees to it), and a rerun finishes the job.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any


class Interrupt:
    """While installed (``with Interrupt() as stop:``), Ctrl-C only sets :attr:`requested`.

    Outside the main thread, where Python delivers no signal, it is inert:
    :meth:`check` never raises.
    """

    def __init__(self) -> None:
        self.requested = False
        """Ctrl-C (``SIGINT``) arrived while installed."""
        self._raised = False
        self._previous: Any = None
        self._installed = False
        self._immediate = False

    def install(self) -> None:
        """Take Ctrl-C from now on (in the main thread; elsewhere nothing changes)."""
        if _main_thread():
            self._previous = signal.signal(signal.SIGINT, self._note)
            self._installed = True

    def restore(self) -> None:
        """Give Ctrl-C back to whoever had it before :meth:`install`."""
        if self._installed:
            # None: the handler was not set from Python; the default one is the closest
            signal.signal(signal.SIGINT, signal.SIG_DFL if self._previous is None else self._previous)
            self._installed = False

    def __enter__(self) -> Interrupt:
        self.install()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.restore()

    @contextmanager
    def raising(self) -> Iterator[None]:
        """Within: Ctrl-C raises ``KeyboardInterrupt`` at once, as Python's own handler does.

        For work that holds nothing a clean-up needs and may block for ever, such as reading
        input from a pipe that never ends (a noted Ctrl-C would wait for the next line).
        """
        self.check()
        self._immediate = True
        try:
            yield
        finally:
            self._immediate = False

    def _note(self, signum: int, frame: FrameType | None) -> None:
        if self._immediate and not self._raised:
            self.requested = self._raised = True
            raise KeyboardInterrupt
        if self.requested:  # pressed again: whoever presses twice wants it to stop now
            os.write(2, b"error: interrupted again: stopped at once; what was committed is whole, "
                        b"rerun to finish\n")
            os._exit(130)
        self.requested = True

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` here if Ctrl-C was pressed; only once, so the clean-up is not stopped."""
        if self.requested and not self._raised:
            self._raised = True
            raise KeyboardInterrupt


def ignore_in_worker() -> None:
    """A pool worker's initializer: Ctrl-C reaches the whole process group, and is the parent's business.

    A worker that died of it would take its task with it, and a parent
    waiting for that task's result would wait for ever.  The worker also
    leaves when its parent is gone (:func:`exit_with_parent`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()


PARENT_POLL = 0.5
"""How often (seconds) a pool worker looks whether its parent is still there."""


def exit_with_parent() -> None:
    """Make this process exit once its parent is gone: a parent killed outright (``kill -9``, or the
    system's out-of-memory killer) never sends its workers another task nor tells them to stop, and
    they would wait for ever.  A daemon thread watches for the process being handed to another
    parent."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="gamerec-parent-watch", daemon=True).start()


@contextmanager
def ignored_by_children() -> Iterator[None]:
    """Within (in the main thread): Ctrl-C is ignored, and so it stays in the programs started meanwhile.

    For worker processes started by a library (Dask's local cluster) that
    offers no initializer: an ignored signal stays ignored across ``exec``.
    A Ctrl-C pressed within is lost.
    """
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _main_thread() -> bool:
    """Python runs signal handlers, and lets them be set, in the main thread only."""
    return threading.current_thread() is threading.main_thread()


__all__ = ["Interrupt", "exit_with_parent", "ignore_in_worker", "ignored_by_children"]
