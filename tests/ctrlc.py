"""Ctrl-C as a terminal sends it, to a real command: the whole process group, then wait for the end."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path


def start(cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``cmd`` in a session of its own (so that Ctrl-C can go to it and every process it starts)."""
    return subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env,
                            start_new_session=True)


def press(proc: subprocess.Popen[str], ready: Callable[[], bool], *, within: float = 120,
          timeout: float = 60) -> tuple[str, str]:
    """Once ``ready()`` (polled, at most ``within`` seconds, while ``proc`` runs), press Ctrl-C; the
    command's stdout and stderr once it has ended (killed, and the test failed, after ``timeout``)."""
    deadline = time.monotonic() + within
    try:
        while not ready():
            assert proc.poll() is None, f"the command ended first ({proc.returncode})"
            assert time.monotonic() < deadline, "the command never got there"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        return proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def has_files(folder: Path, pattern: str) -> Callable[[], bool]:
    return lambda: any(folder.glob(pattern))
