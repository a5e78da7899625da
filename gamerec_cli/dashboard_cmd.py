"""``gamerec dashboard``: start the Streamlit dashboard on localhost against a database."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
DEFAULT_DB = str(Path("data") / "gamerec.duckdb")
DEFAULT_PORT = 8501


def streamlit_argv(port: int, *, open_browser: bool = False) -> list[str]:
    """The command line that serves the dashboard: headless, bound to 127.0.0.1, no file watcher."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.headless", "false" if open_browser else "true",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--browser.gatherUsageStats", "false",
        "--browser.serverAddress", "127.0.0.1",
        "--global.developmentMode", "false",
        "--client.toolbarMode", "viewer",
    ]


@click.command()
@click.option("--db", "db", default=DEFAULT_DB, show_default=True, type=click.Path(dir_okay=False),
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
    click.echo(f"gamerec dashboard: http://127.0.0.1:{port}  (database {db}; Ctrl+C to stop)", err=True)
    env = dict(os.environ, GAMEREC_DB=str(db_path), STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    argv = streamlit_argv(port, open_browser=open_browser)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, argv, env)


COMMANDS = [dashboard]
