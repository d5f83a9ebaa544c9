"""A real Ray cluster on this machine: a head and two worker nodes started with ``ray start`` (127.0.0.1 only,
token authentication), a Mancala run sent to it with ``evoplay evolve --backend ray --address``, one worker node
killed mid-run. The run must finish with the log and best program of a serial run."""
from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the cluster test needs Ray: pip install 'evoplay[ray]'")

pytestmark = pytest.mark.cluster

ARGS = ["--config", "run2", "--set", "population=96", "--generations", "5", "--set", "fitness.minimax_depth=6",
        "--set", "report.random_programs=5", "--set", "report.heldout_depths=[2]", "--seed", "5"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pids_with(text: str) -> set[int]:
    """Processes whose command line holds ``text`` (this cluster's own temp dir: nothing else has it)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if text.encode() in f.read():
                        found.add(int(entry))
            except OSError:
                pass
    return found


class LocalCluster:
    """A head (no CPUs: it only schedules) and ``workers`` one-CPU worker nodes, each a ``ray start``."""

    def __init__(self, workers: int = 2):
        self.root = Path(tempfile.mkdtemp(prefix="evr-", dir="/tmp"))  # short: Ray's socket paths are limited
        token = self.root / "token"
        token.write_text(secrets.token_hex(32))
        token.chmod(0o600)
        self.env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token",
                        RAY_AUTH_TOKEN_PATH=str(token), RAY_health_check_period_ms="500",
                        RAY_health_check_failure_threshold="4")
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[set[int]] = []
        self._start("head", ["--head", f"--port={self.port}", "--num-cpus=0", "--include-dashboard=false",
                             f"--dashboard-port={_free_port()}", "--disable-usage-stats"])
        for i in range(workers):
            self._start(f"w{i}", [f"--address={self.address}", "--num-cpus=1"])

    def _start(self, name: str, args: list[str]) -> None:
        before = _pids_with(str(self.root))
        subprocess.run(["ray", "start", "--node-ip-address=127.0.0.1", f"--temp-dir={self.root / name}", *args],
                       env=self.env, check=True, capture_output=True, timeout=120)
        self.nodes.append(_pids_with(str(self.root / name)) - before)

    def kill_node(self, i: int) -> None:
        """Kill worker node ``i`` as a lost machine would go: every process of it, at once."""
        for pid in self.nodes[i + 1] | _pids_with(str(self.root / f"w{i}")):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def stop(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in _pids_with(str(self.root)):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            time.sleep(0.5)


@pytest.fixture
def cluster():
    c = LocalCluster(2)
    try:
        yield c
    finally:
        c.stop()


def _strip(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "eval_seconds")}
            for line in path.read_text().splitlines()]


def test_a_run_survives_a_lost_worker_node_with_the_serial_result(cluster, tmp_path):
    evoplay = [sys.executable, "-m", "evoplay.cli", "evolve", "mancala", *ARGS]
    subprocess.run([*evoplay, "--backend", "serial", "--out", str(tmp_path / "serial")], check=True,
                   capture_output=True, timeout=300)
    run = subprocess.Popen([*evoplay, "--backend", "ray", "--address", cluster.address, "--out",
                            str(tmp_path / "ray")], env=cluster.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    log = tmp_path / "ray" / "log.jsonl"
    deadline = time.time() + 240
    while run.poll() is None and time.time() < deadline and (not log.exists() or log.read_text().count("\n") < 1):
        time.sleep(0.01)
    assert run.poll() is None, "the run ended before a worker node could be killed"
    cluster.kill_node(1)
    logged_at_kill = log.read_text().count("\n")
    time.sleep(0.2)
    assert not _pids_with(str(cluster.root / "w1")), "the worker node is still running"
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err.decode()[-2000:]
    assert _strip(log) == _strip(tmp_path / "serial" / "log.jsonl")
    best = [json.loads((tmp_path / d / "best.json").read_text()) for d in ("serial", "ray")]
    assert best[0]["program"] == best[1]["program"]
    assert logged_at_kill < 5  # the node went down mid-run, with generations still to play


def test_the_cluster_leaves_no_process_behind(tmp_path):
    c = LocalCluster(1)
    assert _pids_with(str(c.root))
    c.stop()
    assert not _pids_with(str(c.root))
