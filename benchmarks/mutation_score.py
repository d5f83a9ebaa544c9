"""Mutation score of evoplay's plain-Python core: runs mutmut over the listed modules and prints killed/total per module.

Usage (from the repository root; takes tens of minutes on two cores, so it is not part of the test command):

    pip install mutmut==3.8.1
    python benchmarks/mutation_score.py            # mutate, test, print the table (docs/testing.md holds one)
    python benchmarks/mutation_score.py --report   # only print the table of the last run (mutants/ kept)
    python benchmarks/mutation_score.py "evoplay.gp.notation*"   # retest one module's mutants, then the table
    python benchmarks/mutation_score.py --survivors gp/notation     # list what survived in one module

Run it under ``nice`` on a shared machine; mutmut uses every core (``--max-children`` limits it).

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
    listed = {str(path.relative_to(ROOT)) for pattern in modules() for path in ROOT.glob(pattern)
              if path.suffix == ".py" and path.name != "__init__.py"}
    missing = sorted(listed - {str(m.relative_to(ROOT / "mutants")).removesuffix(".meta") for m in metas})
    if missing:
        print(f"not mutated yet (run without --report): {', '.join(missing)}\n")
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
    print("| module | mutants | killed | survived | no test reaches it | not checked | equivalent (excluded) | score |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    ok = True
    totals: dict[str, int] = defaultdict(int)
    for module in sorted(table):
        r = table[module]
        counted = r["killed"] + r["survived"] + r["no tests"] + r["suspicious"] + r["not checked"]
        score = r["killed"] / counted if counted else 1.0
        ok &= score >= TARGET and not r["not checked"]
        for k, v in r.items():
            totals[k] += v
        print(f"| {module} | {counted + r['equivalent']} | {r['killed']} | {r['survived'] + r['suspicious']} | "
              f"{r['no tests']} | {r['not checked']} | {r['equivalent']} | {100 * score:.1f} % |")
    counted = sum(totals[k] for k in ("killed", "survived", "no tests", "suspicious", "not checked"))
    print(f"| all | {counted + totals['equivalent']} | {totals['killed']} | "
          f"{totals['survived'] + totals['suspicious']} | {totals['no tests']} | {totals['not checked']} | "
          f"{totals['equivalent']} | {100 * totals['killed'] / max(counted, 1):.1f} % |")
    print(f"\ntarget: at least {100 * TARGET:.0f} % of mutants killed in every module: {'met' if ok else 'not met'}")
    return ok


def survivors(module: str) -> None:
    """Each surviving (or untested) mutant of ``module`` (e.g. gp/notation) with the lines it changes."""
    import ast
    import difflib

    path = ROOT / "mutants" / "src" / "evoplay" / f"{module}.py"
    source = path.read_text(encoding="utf-8")
    data = json.loads(path.with_name(path.name + ".meta").read_text(encoding="utf-8"))
    bodies = {node.name: (ast.get_source_segment(source, node) or "").splitlines()
              for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    skip = equivalent()
    for key, code in data["exit_code_by_key"].items():
        if key in skip or code not in SURVIVED | NO_TESTS:
            continue
        name = key.rsplit(".", 1)[-1]
        mutant, orig = bodies.get(name, []), bodies.get(name.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", [])
        lines = [line for line in difflib.unified_diff(orig, mutant, lineterm="", n=0)
                 if line[:1] in "+-" and not line.startswith(("+++", "---")) and "__mutmut_" not in line]
        print(f"{key} [{'survived' if code in SURVIVED else 'no test reaches it'}]")
        for line in lines:
            print("    " + line.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="mutant name patterns to (re)test, e.g. 'evoplay.gp.notation*'")
    parser.add_argument("--report", action="store_true", help="only print the table of the last run")
    parser.add_argument("--survivors", metavar="MODULE", help="list the survivors of one module, e.g. gp/notation")
    parser.add_argument("--max-children", type=int, help="parallel test processes (mutmut's default: every core)")
    args = parser.parse_args()
    if args.survivors:
        survivors(args.survivors)
        return 0
    if not args.report:
        extra = ["--max-children", str(args.max_children)] if args.max_children else []
        subprocess.run([sys.executable, "-m", "mutmut", "run", *extra, *args.names], cwd=ROOT, check=False)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    print(f"commit {commit.stdout.strip() or '?'}; equivalent mutants listed: {len(equivalent())} "
          f"({EQUIVALENT.relative_to(ROOT)})\n")
    return 0 if report() else 1


if __name__ == "__main__":
    sys.exit(main())
