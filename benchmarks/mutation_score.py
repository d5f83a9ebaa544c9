"""Mutation score of evoplay's plain-Python core: runs mutmut over the listed modules and prints killed/total per module.

Usage (from the repository root; takes tens of minutes on two cores, so it is not part of the test command):

    pip install mutmut==3.8.1
    python benchmarks/mutation_score.py            # mutate, test, print the table (docs/testing.md holds one)
    python benchmarks/mutation_score.py --report   # only print the table of the last run (mutants/ kept)

mutmut copies the sources to ``mutants/``, plants every mutant behind a switch, and runs only the tests that
reach the mutated function. A mutant is killed when a test fails (or times out); it survives when every test
passes; mutants no test reaches count as survivors. Mutants listed in ``benchmarks/mutation_equivalent.txt``
(one mutmut key per line, with the reason after a '#') change nothing observable and are left out of the
score. Numba kernels are decorated functions, which mutmut leaves alone: their Python references are mutated,
and the property tests that hold kernel and reference equal are what kill those mutants.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).with_name("mutation_equivalent.txt")
TARGET = 0.85

# mutmut's exit codes per mutant (mutmut.stats.status_by_exit_code).
KILLED = {1, 3, 36, 24, -24, 152, 255, 37}  # a failing test, pytest's internal error, a timeout, a type error
SURVIVED = {0}
NO_TESTS = {5, 33}
SKIPPED = {34}


def modules() -> list[str]:
    """The files mutmut mutates, from pyproject's [tool.mutmut] only_mutate."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    return config["only_mutate"]


def equivalent() -> dict[str, str]:
    out = {}
    if EQUIVALENT.is_file():
        for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
            key, _, why = line.partition("#")
            if key.strip():
                out[key.strip()] = why.strip()
    return out


def tally() -> dict[str, dict[str, int]]:
    """Counts per module from the .meta files mutmut leaves beside each mutated file."""
    skip = equivalent()
    table: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    metas = sorted((ROOT / "mutants").rglob("*.py.meta"))
    if not metas:
        sys.exit("no mutmut results under mutants/; run without --report first")
    for meta in metas:
        data = json.loads(meta.read_text(encoding="utf-8"))
        module = str(meta.relative_to(ROOT / "mutants")).removesuffix(".meta")
        for key, code in data["exit_code_by_key"].items():
            row = table[module]
            if key in skip:
                row["equivalent"] += 1
            elif code in KILLED:
                row["killed"] += 1
            elif code in SURVIVED:
                row["survived"] += 1
            elif code in NO_TESTS:
                row["no tests"] += 1
            elif code in SKIPPED:
                row["skipped"] += 1
            elif code is None:
                row["not checked"] += 1
            else:
                row["suspicious"] += 1
    return table


def report() -> bool:
    table = tally()
    print("| module | mutants | killed | survived | no test reaches it | equivalent (excluded) | score |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ok = True
    for module in sorted(table):
        r = table[module]
        counted = r["killed"] + r["survived"] + r["no tests"] + r["suspicious"] + r["not checked"]
        score = r["killed"] / counted if counted else 1.0
        ok &= score >= TARGET
        print(f"| {module} | {counted + r['equivalent']} | {r['killed']} | {r['survived'] + r['suspicious']} | "
              f"{r['no tests']} | {r['equivalent']} | {100 * score:.1f} % |")
    print(f"\ntarget: at least {100 * TARGET:.0f} % of mutants killed in every module: {'met' if ok else 'not met'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="only print the table of the last run")
    args = parser.parse_args()
    if not args.report:
        subprocess.run([sys.executable, "-m", "mutmut", "run"], cwd=ROOT, check=False)
    return 0 if report() else 1


if __name__ == "__main__":
    sys.exit(main())
