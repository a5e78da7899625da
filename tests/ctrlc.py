"""Real commands as a terminal and the system treat them: Ctrl-C to the whole process group, a worker killed."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


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



def build_batch_or_die(job: Any) -> Any:
    """``ingest.rows.build_batch``, but a worker given a record of a file named ``*-die.jsonl`` dies at once
    (SIGKILL, as the out-of-memory killer does), before it sends anything back."""
    from ingest.rows import build_batch

    if any(source.endswith("-die.jsonl") for _, source, _, _ in job.items):
        os.kill(os.getpid(), signal.SIGKILL)
    return build_batch(job)
