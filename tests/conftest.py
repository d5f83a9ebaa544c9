"""Shared pytest settings: hypothesis profiles sized for a 2-core CI machine; progress through a slow collection;
a quiet exit after Ray."""
import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_unconfigure(config):
    """Ray's CLI logger calls ``colorama.init()`` when imported, wrapping the stdout pytest captures; at exit
    colorama would write its reset code to that closed stream and print a traceback. Nothing is left to reset."""
    import atexit
    import sys

    initialise = sys.modules.get("colorama.initialise")
    if initialise is not None:
        atexit.unregister(initialise.reset_all)


# Collecting imports every test module, and a first run compiles evoplay's Numba kernels as they are imported
# (a minute and more from a cold cache); pytest -q prints nothing meanwhile. Every 10 s a line says how far it is.
_COLLECT = {"start": None, "said": 0.0, "files": 0}
COLLECT_EVERY = 10.0


def pytest_collectstart(collector):
    if _COLLECT["start"] is None:
        _COLLECT["start"] = _COLLECT["said"] = time.monotonic()


def pytest_collectreport(report):
    if not report.nodeid.endswith(".py"):
        return
    _COLLECT["files"] += 1
    now = time.monotonic()
    if now - _COLLECT["said"] >= COLLECT_EVERY:
        _COLLECT["said"] = now
        reporter = _terminal()
        if reporter is not None:
            reporter.write_line(f"collecting: {_COLLECT['files']} test files in {now - _COLLECT['start']:.0f} s, "
                                f"last {report.nodeid} (a first run compiles evoplay's Numba kernels)")


_CONFIG = {}


def pytest_configure(config):
    _CONFIG["config"] = config


# Kernels compiled as their module is imported (recursive searches, with explicit signatures): every xdist worker
# imports every test module while collecting, so from a cold Numba cache each worker would compile all of them at
# once, the same work twice or three times (a minute and a half of CPU each). Before the workers start, the
# controller compiles them into the disk cache once and the workers load them: each chain in a process of its own,
# its modules in order (Kalah's deepening imports Kalah's search: side by side, both processes would compile it).
EAGER_KERNELS = (("evoplay.games.kalah.search", "evoplay.games.kalah.deepening"), ("evoplay.games.mnk.threats",))


def pytest_sessionstart(session):
    config = session.config
    if not getattr(config.option, "numprocesses", None) or "PYTEST_XDIST_WORKER" in os.environ \
            or config.option.collectonly:
        return
    started = time.monotonic()
    compiling = [subprocess.Popen([sys.executable, "-c", f"import {', '.join(chain)}"]) for chain in EAGER_KERNELS]
    failed = [m for chain, p in zip(EAGER_KERNELS, compiling) if p.wait() != 0 for m in chain]
    reporter = _terminal()
    if reporter is not None and time.monotonic() - started > COLLECT_EVERY:
        reporter.write_line(f"compiled evoplay's import-time Numba kernels in {time.monotonic() - started:.0f} s "
                            "(once, for every worker)")
    if failed and reporter is not None:  # the workers' collection fails on the same import and says why
        reporter.write_line(f"could not import {', '.join(failed)}")


# Test files that compile the same searches for the same games, run one after the other on one worker (xdist's
# loadfile shares out whole files): that worker compiles each (search, game) once and reuses it in memory, where two
# workers starting both files at once would each compile it (rs and rhea on tron: half a minute of CPU each).
SHARED_KERNELS = {
    "tests/agents/test_controllers.py": "rs, rhea, mcts and lookahead on tron, kalah and m,n,k",
    "tests/agents/test_generic_controllers.py": "rs, rhea, mcts and lookahead on tron, kalah and m,n,k",
    "tests/agents/test_uct.py": "uct on kalah, m,n,k and connect four",
    "tests/agents/test_kernel_uct.py": "uct on kalah, m,n,k and connect four",
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedKernelsScheduling(LoadFileScheduling):
        """loadfile, with the files of one entry of SHARED_KERNELS as one unit of work."""

        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return SHARED_KERNELS.get(path, path)

    return SharedKernelsScheduling(config, log)


def _terminal():
    config = _CONFIG.get("config")
    return config.pluginmanager.get_plugin("terminalreporter") if config is not None else None
