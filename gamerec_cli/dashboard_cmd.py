"""``gamerec dashboard``: start the Streamlit dashboard on localhost against a database."""

from __future__ import annotations

import os
import socket
import sys
import time
import webbrowser
from pathlib import Path

import click

from ingest import DEFAULT_DB

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
DEFAULT_PORT = 8501


def streamlit_argv(port: int) -> list[str]:
    """The command line that serves the dashboard: headless, bound to 127.0.0.1, no file watcher.

    Always headless: Streamlit run otherwise asks for an e-mail address on its
    first start, waits on standard input and writes ``~/.streamlit/credentials.toml``.
    ``--open`` opens the browser itself (:func:`open_when_ready`).
    """
    return [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.headless", "true",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--browser.gatherUsageStats", "false",
        "--browser.serverAddress", "127.0.0.1",
        "--global.developmentMode", "false",
        "--client.toolbarMode", "viewer",
    ]


def port_in_use(port: int) -> str | None:
    """Why Streamlit could not listen on ``port`` of 127.0.0.1 (``None``: it can), checked before the
    banner names the address."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Tornado binds it
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def open_when_ready(url: str, port: int, timeout: float = 60.0) -> bool:
    """Wait until something listens on ``port`` of 127.0.0.1, then open ``url`` in a browser."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return webbrowser.open(url)
        except OSError:
            time.sleep(0.3)
    return False


@click.command()
@click.option("--db", "db", default=str(DEFAULT_DB), show_default=True, type=click.Path(dir_okay=False),
              envvar="GAMEREC_DB", show_envvar=True,
              help="The DuckDB file written by `gamerec ingest` (read-only here).")
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Also open the dashboard in a browser.")
def dashboard(db: str, port: int, open_browser: bool) -> None:
    """Serve the dashboard on http://127.0.0.1:PORT (read-only; works while an ingest runs)."""
    db_path = Path(db).resolve()
    snapshot = db_path.with_name(f"{db_path.stem}.snapshot{db_path.suffix or '.duckdb'}")
    if not db_path.exists() and not snapshot.exists():
        click.echo(f"note: no database at {db} yet; the dashboard will say so until "
                   f"`gamerec ingest PATH --db {db}` has run", err=True)
    busy = port_in_use(port)
    if busy is not None:
        click.echo(f"error: port {port} on 127.0.0.1 is not available ({busy}); another dashboard may be running "
                   f"there: choose another with --port", err=True)
        sys.exit(2)
    click.echo(f"gamerec dashboard: http://127.0.0.1:{port}  (database {db}; Ctrl+C to stop)", err=True)
    env = dict(os.environ, GAMEREC_DB=str(db_path), STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    argv = streamlit_argv(port)
    sys.stdout.flush()
    sys.stderr.flush()
    if open_browser and os.fork() == 0:  # a helper that opens the tab once the server answers
        try:
            open_when_ready(f"http://127.0.0.1:{port}", port)
        finally:
            os._exit(0)
    os.execve(sys.executable, argv, env)


COMMANDS = [dashboard]
