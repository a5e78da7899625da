"""The dashboard benchmark's database builder and step figures; the ``gamerec dashboard`` command line."""

from __future__ import annotations

from pathlib import Path

import duckdb
from click.testing import CliRunner

from analytics import queries as q
from analytics.queries import run
from benchmarks import dashboard_queries as bench
from gamerec_cli.dashboard_cmd import dashboard, streamlit_argv
from gamerec_cli.main import main


def test_bench_database_has_exactly_the_games_asked_for(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    built = bench.build_database(db, n_games=23, base_games=8, titles=["copenhagen"], pool=2, workers=0)
    assert built["games"] == 23 and built["base"] == 8
    con = duckdb.connect(str(db), read_only=True)
    try:
        ids = [r[0] for r in con.execute("SELECT game_id FROM games").fetchall()]
        assert len(set(ids)) == 23
        # every copied game has its players, events (the Components page scans the moves), scores and record
        for table in ("players", "events", "score_breakdown", "records"):
            n = con.execute(f"SELECT count(DISTINCT game_id) FROM {table}").fetchone()[0]
            assert n == 23, table
        assert con.execute("SELECT count(*) FROM events").fetchone() == \
            con.execute("SELECT sum(n_events) FROM games").fetchone()
    finally:
        con.close()
    assert run(db, q.summary)["games"] == 23
    rows = bench._steps(db, per_title=2)
    assert rows and all(r["unit"] == "ms" and r["value"] > 0 for r in rows)
    assert {r["metric"] for r in rows} == {f"review step {t}" for t in run(db, q.titles)}


def test_streamlit_is_bound_to_localhost_and_headless() -> None:
    argv = streamlit_argv(8600)
    assert argv[argv.index("--server.address") + 1] == "127.0.0.1"
    assert argv[argv.index("--server.port") + 1] == "8600"
    assert argv[argv.index("--server.headless") + 1] == "true"
    assert argv[3] == "run" and argv[4].endswith("dashboard/app.py") and Path(argv[4]).exists()



def test_dashboard_honours_gamerec_db_and_never_asks_anything(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import os

    seen: dict[str, object] = {}

    def fake_execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        seen.update(argv=argv, env=env)

    monkeypatch.setattr(os, "execve", fake_execve)
    monkeypatch.setattr(os, "fork", lambda: 1)  # the parent's side: no browser helper here
    monkeypatch.setattr("gamerec_cli.dashboard_cmd.port_in_use", lambda port: None)  # whatever else runs here
    db = tmp_path / "mine.duckdb"
    out = CliRunner().invoke(main, ["dashboard", "--open"], env={"GAMEREC_DB": str(db)})
    assert out.exit_code == 0, out.output
    assert seen["env"]["GAMEREC_DB"] == str(db.resolve())  # type: ignore[index]
    argv = seen["argv"]
    assert argv[argv.index("--server.headless") + 1] == "true"  # type: ignore[union-attr]
    assert "GAMEREC_DB" in CliRunner().invoke(main, ["dashboard", "--help"]).output


def test_dashboard_command_is_registered() -> None:
    assert main.get_command(None, "dashboard") is dashboard  # type: ignore[arg-type]
    out = CliRunner().invoke(main, ["dashboard", "--help"])
    assert out.exit_code == 0 and "--db" in out.output and "--port" in out.output
    bad = CliRunner().invoke(main, ["dashboard", "--port", "0"])
    assert bad.exit_code != 0


def test_bench_of_an_unknown_game_is_a_usage_error() -> None:
    out = CliRunner().invoke(main, ["bench", "--game", "nosuch", "--skip-ingest", "--skip-dashboard"])
    assert out.exit_code == 2 and "no engine for 'nosuch'" in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_page_times_leave_out_apptests_own_component_scan(sample_db: Path, monkeypatch) -> None:
    """A new AppTest scans the installed packages for components on its first run (a server does it
    once at start): no page's time may include it, the Overview (timed as a session's first run) too."""
    import pytest

    manager = pytest.importorskip("streamlit.components.v2.component_manager")
    marks: list[str] = []
    scan = manager.BidiComponentManager.discover_and_register_components

    def counted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        marks.append("scan")
        return scan(self, *args, **kwargs)

    def clock() -> float:
        marks.append("clock")
        return 0.0

    monkeypatch.setattr(manager.BidiComponentManager, "discover_and_register_components", counted)
    monkeypatch.setenv("GAMEREC_DB", str(sample_db))
    bench._quiet_streamlit()
    for page in (None, "views/divergences.py", None):
        del marks[:]
        _, _, at = bench._page_run(page, clock)
        assert not at.exception
        timed = marks[marks.index("clock"):]
        assert timed == ["clock", "clock"], (page, marks)


def test_bench_times_the_players_and_components_pages(sample_db: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    names = [name for name, _, _ in bench.PAGES]
    assert {"players (the rating ladder)", "players (p1's profile)", "components"} <= set(names)
    monkeypatch.setenv("GAMEREC_DB", str(sample_db))
    bench._quiet_streamlit()
    for name, page, params in bench.PAGES:
        if name.startswith(("players", "components")):
            _, _, at = bench._page_run(page, params=params)
            assert not at.exception, name
            if params:
                assert at.header[0].value.endswith("(p1)"), name


def test_dashboard_on_a_busy_port_says_so_before_any_banner(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import os
    import socket

    monkeypatch.setattr(os, "execve", lambda *a: (_ for _ in ()).throw(AssertionError("must not start")))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = CliRunner().invoke(main, ["dashboard", "--port", str(port)])
    assert out.exit_code == 2
    assert f"port {port} on 127.0.0.1 is not available" in out.output
    assert "http://" not in out.output  # no banner naming an address nothing will serve
