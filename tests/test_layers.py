"""The layers of docs/architecture.md, held by the imports themselves: every ``import`` in src/evoplay (those inside
functions too) is read with ``ast``, and the graph of modules it makes must keep the layers' rules and hold no
circle."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "evoplay"
#: the folders under evoplay that each built-in game's package has (games/<name>/)
GAME_PACKAGES = ("kalah", "mnk", "sevens", "target", "tron", "gems")


def module_names() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = module_names()


def _known(name: str) -> str:
    """The module ``name`` is, or is inside (``evoplay.games.base.Game`` -> ``evoplay.games.base``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> set[str]:
    """The evoplay modules ``module`` imports anywhere in its text (the parent packages Python imports on the way
    are not counted: importing ``evoplay.agents.uct`` runs ``evoplay/agents/__init__.py`` but is no edge to it)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_known(a.name) for a in node.names if a.name.startswith("evoplay"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            if base.startswith("evoplay"):
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in MODULES else _known(base))
    found.discard(module)
    found.discard("")
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else ""


def _edges(source_layer: str, target_layers: tuple[str, ...]) -> list[str]:
    return sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if layer(m) == source_layer
                  for t in targets if layer(t) in target_layers)


@pytest.mark.parametrize("source,forbidden", [
    ("games", ("agents", "arena", "evolve", "recipes", "bench", "serve", "cli")),
    ("ga", ("evolve", "agents", "arena", "recipes", "games")),
    ("gp", ("evolve", "agents", "arena", "recipes", "games")),
    ("agents", ("arena", "evolve", "recipes", "bench", "serve", "cli")),
    ("arena", ("evolve", "recipes", "bench", "serve", "cli")),
])
def test_a_layer_imports_nothing_above_it(source, forbidden):
    assert _edges(source, forbidden) == []


def test_the_players_and_searches_for_any_game_name_no_game():
    """agents/, arena/ and evolve/ import no built-in game's package: a game's own players come from its package
    through ``Game.players``."""
    named = sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if layer(m) in ("agents", "arena", "evolve")
                   for t in targets if t.split(".")[2:3] and t.split(".")[2] in GAME_PACKAGES and layer(t) == "games")
    assert named == []


def _circles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    counter = 0
    for root in GRAPH:
        if root in index:
            continue
        work = [(root, iter(sorted(GRAPH[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(GRAPH.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_no_import_circles():
    assert _circles() == []


def test_the_checker_sees_circles_and_imports_inside_functions():
    """The graph is read the way the rules need: an import inside a function counts, and a circle is found."""
    assert "evoplay.games.base" in GRAPH["evoplay.games.kernels"]
    saved = dict(GRAPH)
    try:
        GRAPH["evoplay.games.base"] = GRAPH["evoplay.games.base"] | {"evoplay.games.kernels"}
        assert ["evoplay.games.base", "evoplay.games.kernels"] in _circles()
    finally:
        GRAPH.clear()
        GRAPH.update(saved)
    function_level = [m for m, path in MODULES.items()
                      if any(isinstance(n, ast.FunctionDef) and any(isinstance(i, (ast.Import, ast.ImportFrom))
                                                                     for i in ast.walk(n))
                             for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))]
    assert "evoplay.agents" in function_level  # agents/__init__ imports its factories' modules lazily
    assert "evoplay.agents.uct" in GRAPH["evoplay.agents"]
