"""Headless Chromium against a real ``gamerec dashboard``: what the browser tests share.

:func:`serve` starts the dashboard as a user would (``gamerec dashboard --db DB --port P``, in its own
process group) and stops it again; :func:`wait_title` waits until a page has shown its title and its
script run has finished.  The ``dashboard_server`` and ``chromium`` fixtures in ``conftest.py`` wrap
them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
NO_CHROMIUM = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Wait until Streamlit answers its health check (fail with the server's output if it exits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise AssertionError(f"gamerec dashboard exited with {proc.returncode}:\n{out}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the dashboard did not answer on port {port} within {timeout}s")


@contextmanager
def serve(db: Path) -> Iterator[str]:
    """``gamerec dashboard --db DB`` on a free port; yields its URL, stops it on leaving."""
    port = free_port()
    gamerec = Path(sys.executable).with_name("gamerec")
    cmd = [str(gamerec)] if gamerec.exists() else [sys.executable, "-m", "gamerec_cli.main"]
    proc = subprocess.Popen([*cmd, "dashboard", "--db", str(db), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_healthy(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def settle(page: Any) -> None:
    """Wait until the script run behind the page has finished."""
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=60_000)
    page.wait_for_selector("h1", timeout=30_000)


def wait_title(page: Any, title: str) -> None:
    """Wait until the page showing is ``title`` and its script run has finished."""
    page.wait_for_function("t => document.querySelector('h1')?.innerText.trim() === t", arg=title,
                           timeout=60_000)
    settle(page)


def exceptions(page: Any) -> list[str]:
    """The exceptions the page shows (Streamlit draws them as ``stException`` elements)."""
    return [str(t) for t in page.locator('[data-testid="stException"]').all_inner_texts()]
