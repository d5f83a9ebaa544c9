"""Nothing evoplay reads from a file a user can hand over (run folders, checkpoints, best.json, uploads) is
unpickled: unpickling runs whatever the bytes say. The only ``pickle.loads`` calls are on bytes this process tree
pickled itself a moment before, each listed here with why; a new one fails this test until it is looked at."""
from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "evoplay"

#: (file, the function holding the call) -> why its pickle.loads reads only bytes of our own
OWN_BYTES = {
    ("arena/executors.py", "_call_pickled"): "a Ray task's payload, pickled by RayExecutor.map for its own workers",
    ("games/tools/check.py", "check_spec"): "a round trip of pickle.dumps(game) in the same line: can a worker get it",
}
#: calls that read a file or a stream as pickles: never
NEVER = {("pickle", "load"), ("pickle", "Unpickler"), ("marshal", "loads"), ("marshal", "load"),
         ("shelve", "open"), ("dill", "load"), ("dill", "loads"), ("cloudpickle", "loads"), ("joblib", "load")}


class _Calls(ast.NodeVisitor):
    """Every ``module.function(...)`` call of a file with the innermost function that holds it."""

    def __init__(self):
        self.stack, self.found = ["<module>"], []

    def visit_FunctionDef(self, node):
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node):
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            self.found.append((self.stack[-1], (node.func.value.id, node.func.attr), node))
        self.generic_visit(node)


def test_nothing_unpickles_a_file_and_every_loads_is_of_our_own_bytes():
    loads, refused = set(), []
    for path in sorted(SRC.rglob("*.py")):
        calls = _Calls()
        calls.visit(ast.parse(path.read_text(encoding="utf-8")))
        file = path.relative_to(SRC).as_posix()
        for function, call, node in calls.found:
            where = f"{file}:{node.lineno} {'.'.join(call)}"
            if call in NEVER:
                refused.append(where)
            elif call == ("pickle", "loads"):
                loads.add((file, function))
            elif call in (("np", "load"), ("numpy", "load")):
                allowed = {k.arg: k.value for k in node.keywords}.get("allow_pickle")
                if not (isinstance(allowed, ast.Constant) and allowed.value is False):
                    refused.append(where + " without allow_pickle=False")
    assert not refused, refused
    assert loads == set(OWN_BYTES), sorted(loads)
