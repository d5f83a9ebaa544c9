"""The README's test command as a user types it: plain ``pytest`` (not ``python -m pytest``) from another folder
still imports the tests' shared helpers."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What the `pytest` console script runs; `python -c` puts only the current folder on sys.path, not the repository.
PLAIN_PYTEST = "import sys, pytest; sys.exit(pytest.console_main())"


def test_plain_pytest_from_another_folder_collects_the_tests_that_share_helpers(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_PYTEST, "--collect-only", "-p", "no:cacheprovider",
         str(ROOT / "tests" / "reliability" / "test_serve.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "test_a_census_sample_of_hostile_requests" in done.stdout
