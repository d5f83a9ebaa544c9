"""``evoplay serve``: its options, the address it prints, and that it binds 127.0.0.1 unless told otherwise."""
from __future__ import annotations

from click.testing import CliRunner

from evoplay.cli import main


def test_serve_binds_localhost_and_prints_the_address(monkeypatch, tmp_path):
    import evoplay.serve

    seen = {}

    def fake_run(app, host, port):
        seen.update(app=app, host=host, port=port)

    monkeypatch.setattr(evoplay.serve, "run_until_stopped", fake_run)
    result = CliRunner().invoke(main, ["serve", "--runs", str(tmp_path / "runs"), "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123
    assert "open http://127.0.0.1:8123/" in result.output
    assert seen["app"].state.runs == (tmp_path / "runs").resolve()
    from starlette.testclient import TestClient

    with TestClient(seen["app"], base_url="http://evil.example") as c:  # bound to loopback: loopback names only
        assert c.get("/api/catalog").status_code == 400
    with TestClient(seen["app"], base_url="http://localhost:8123") as c:
        assert c.get("/api/catalog").status_code == 200


def test_serve_host_option_is_passed_on(monkeypatch, tmp_path):
    import evoplay.serve

    seen = {}
    monkeypatch.setattr(evoplay.serve, "run_until_stopped", lambda app, host, port: seen.update(host=host, app=app))
    result = CliRunner().invoke(main, ["serve", "--runs", str(tmp_path), "--host", "0.0.0.0", "--move-seconds", "0.5"])
    assert result.exit_code == 0 and seen["host"] == "0.0.0.0" and "http://0.0.0.0:8000/" in result.output
    assert seen["app"].state.agents.move_seconds == 0.5 and "at most 0.5 s a move" in result.output


def test_serve_refuses_a_move_time_out_of_range(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--runs", str(tmp_path), "--move-seconds", "0"])
    assert result.exit_code == 2 and "--move-seconds 0: give an agent's time" in result.output


def test_serve_refuses_a_bad_port():
    result = CliRunner().invoke(main, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "--port 70000: choose a port 1..65535" in result.output
