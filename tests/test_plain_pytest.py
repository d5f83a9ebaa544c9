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


def test_ci_runs_the_readmes_test_command_as_written():
    """.ci/run runs the command the README's second set-up line gives (``pytest``), not a variant of it such as
    ``python -m pytest``, which also puts the checkout on sys.path and lets a test pass in CI that fails for a
    newcomer."""
    import re
    import shlex

    setup = (ROOT / "README.md").read_text(encoding="utf-8").split("```bash\n", 1)[1].split("```", 1)[0]
    tests_line = [line for line in setup.splitlines() if "[test]" in line]
    assert len(tests_line) == 1, setup
    readme_command = tests_line[0].split("#", 1)[0].split("&&")[-1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = [line.strip() for line in ci.splitlines()
            if re.search(r"\bpytest\b", line) and not line.strip().startswith("#") and "echo" not in line]
    assert len(runs) == 1, runs
    words = [w for w in shlex.split(runs[0]) if not re.match(r"^[A-Z_]+=", w)]  # environment assignments aside
    assert words == shlex.split(readme_command), (runs[0], readme_command)
