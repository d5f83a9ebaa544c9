"""The layers of docs/architecture.md, held by the imports themselves: every ``import`` in src/evoplay (those inside
functions too) and every module a string names for a later import (the registries' 'module:attribute' names, a
search's kernel modules) is read with ``ast``; the graph of modules they make must keep the layers' rules, the
imports hold no circle; and the layers above games/ name no game (their strings and names, read with ``ast`` too;
the web app's scripts, pages and stylesheets, read as text)."""
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


def string_import(text: str) -> str | None:
    """The module a string names the way a registry or a kernel binding imports it later
    (``'evoplay.games.ports.hex:Hex'``, ``'evoplay.search.rollout'``: a whole module of src/evoplay), else
    None (a prefix such as ``'evoplay.games.file_'``, a module that does not exist)."""
    import re

    match = re.fullmatch(r"(evoplay(?:\.\w+)+)(:\w+(?:\.\w+)*)?", text)
    return match.group(1) if match is not None and match.group(1) in MODULES else None


def string_imports_of(module: str) -> set[str]:
    """The evoplay modules ``module`` names in strings for a later import: edges its ``import`` statements do not
    show. A package folder read as data (``resources.files("evoplay.recipes")``: its TOML files) is no import."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    data = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "files" for arg in node.args}
    found = {string_import(node.value) for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in data}
    return found - {None, module}


#: the import statements' graph: what runs when a module is imported (circles are looked for here)
GRAPH = {m: imports_of(m) for m in MODULES}
#: and the modules named by string, imported later: a layer may no more reach up by a name than by an import
REACHES = {m: GRAPH[m] | string_imports_of(m) for m in MODULES}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else ""


def in_game_package(module: str) -> bool:
    """Is ``module`` in a built-in game's package (``evoplay.games.kalah.search``), not the game API?"""
    parts = module.split(".")
    return len(parts) > 3 and parts[1] == "games" and parts[2] in GAME_PACKAGES


def _edges(source_layer: str, target_layers: tuple[str, ...]) -> list[str]:
    """The imports from ``source_layer`` into ``target_layers``, but a game's own searches and players handing the
    search layer their hooks: a game's package (games/<name>/) may import search/, the game API may not."""
    return sorted(f"{m} imports {t}" for m, targets in REACHES.items() if layer(m) == source_layer
                  for t in targets if layer(t) in target_layers and not (layer(t) == "search" and in_game_package(m)))


#: the layers from the bottom: the game API (games/), the searches written once for any game (search/), the players
#: (agents/), games between them (arena/), evolution and its recipes, and on top the benchmarks, web app and command
@pytest.mark.parametrize("source,forbidden", [
    ("games", ("search", "agents", "arena", "evolve", "recipes", "bench", "serve", "cli")),
    ("search", ("agents", "arena", "evolve", "recipes", "bench", "serve", "cli")),
    ("ga", ("evolve", "agents", "arena", "recipes", "games", "search")),
    ("gp", ("evolve", "agents", "arena", "recipes", "games", "search")),
    ("agents", ("arena", "evolve", "recipes", "bench", "serve", "cli")),
    ("arena", ("evolve", "recipes", "bench", "serve", "cli")),
])
def test_a_layer_imports_nothing_above_it(source, forbidden):
    assert _edges(source, forbidden) == []


#: games/'s three rooms: the game API at its top level (what users' own games import), the tools around games in
#: games/tools/, and one package per game (games/<name>/, and OpenSpiel's games ported in games/ports/)
GAME_API = ("agent", "base", "forward", "kernels", "naming", "playout", "standalone")
GAME_TOOLS = ("champions", "check", "check_kernels", "guard", "openspiel", "seat_view", "sources")


def game_room(module: str) -> str:
    """Which room of games/ ``module`` is in: 'api', 'tools', 'game' (a game's package or the ports), else ''."""
    parts = module.split(".")
    if parts[:2] != ["evoplay", "games"]:
        return ""
    if len(parts) == 2 or (len(parts) == 3 and parts[2] in GAME_API):
        return "api"
    if parts[2] == "tools":
        return "tools"
    return "game" if parts[2] in GAME_PACKAGES + ("ports",) else ""


def test_games_has_three_rooms():
    """Every module of games/ is in one room: the API users' games import (``from evoplay.games import Game, State,
    TERMINAL``, ``evoplay.games.kernels``) at the top level, the tools around games (sources, OpenSpiel's adapter,
    the guard, the checker, champions) in games/tools/, each game in its package; games/tools/__init__.py imports
    nothing, so the registry (games/__init__.py) loads ``sources`` from it with no circle."""
    games = sorted(m for m in MODULES if m == "evoplay.games" or m.startswith("evoplay.games."))
    assert [m for m in games if not game_room(m)] == []
    assert sorted(m.rpartition(".")[2] for m in games if game_room(m) == "tools" and m != "evoplay.games.tools") \
        == sorted(GAME_TOOLS)
    assert all(f"evoplay.games.{name}" in MODULES for name in GAME_API)
    assert GRAPH["evoplay.games.tools"] == set()
    assert game_room("evoplay.games.tools.sources") == "tools" and game_room("evoplay.games.kernels") == "api"
    assert game_room("evoplay.games.kalah.search") == "game" and game_room("evoplay.search.uct") == ""


def test_search_sits_between_the_game_api_and_the_players():
    """The one alpha-beta lives in search/: the players import it, a game's package hands it its kernels and own
    leaf, and the game API (games/*.py, its kernels included) never imports it; a game's package that did import it
    from the API's side would be an arrow back up."""
    assert "evoplay.search.minimax_kernel" in REACHES["evoplay.agents.alphabeta"]
    assert "evoplay.search.minimax_game" in REACHES["evoplay.games.kalah.search"]
    assert "evoplay.games.kernels" in REACHES["evoplay.search.minimax_kernel"]
    assert in_game_package("evoplay.games.kalah.search") and not in_game_package("evoplay.games.kernels")
    saved = dict(REACHES)
    try:  # the game API reaching up into search/ is caught
        REACHES["evoplay.games.kernels"] = REACHES["evoplay.games.kernels"] | {"evoplay.search.minimax_kernel"}
        assert _edges("games", ("search",)) == ["evoplay.games.kernels imports evoplay.search.minimax_kernel"]
    finally:
        REACHES.clear()
        REACHES.update(saved)


def compiled_per_game(source: str) -> bool:
    """Is a module (its ``source``) a search text compiled per game (evoplay.games.kernels.specialise): does it bind
    the kernel protocol's names (``game_legal = ... = None``) or borrow another such module's kernels (``USES``)?"""
    names = {target.id for node in ast.parse(source).body if isinstance(node, ast.Assign)
             for target in node.targets if isinstance(target, ast.Name)}
    return "USES" in names or any(name.startswith("game_") for name in names)


def test_the_searches_are_written_once_in_search_and_the_players_hand_them_over():
    """The rollout controllers' searches, their rollouts, uct, the alpha-beta for any game and the evolved players'
    leaf it and uct call live in search/, each a reference beside its Numba kernels; agents/ holds the players (their
    parameters and budgets) and compiles no search of its own: a kernel of rollouts, of uct or of alpha-beta written
    again in agents/ fails here."""
    compiled = {m for m, path in MODULES.items() if compiled_per_game(path.read_text(encoding="utf-8"))}
    assert sorted(m for m in compiled if layer(m) == "agents") == []
    searches = {f"evoplay.search.{name}" for name in ("rollout", "rs", "rhea", "mcts", "lookahead")}
    assert searches <= compiled and searches <= REACHES["evoplay.agents.controller"]
    assert "evoplay.search.uct_kernel" in compiled and "evoplay.search.uct_kernel" in REACHES["evoplay.agents.uct"]
    assert "evoplay.search.uct" not in compiled  # the reference compiles nothing: its kernels are uct_kernel's
    for kernels, player in (("minimax_kernel", "alphabeta"), ("leaf_kernel", "uct")):
        name = f"evoplay.search.{kernels}"
        assert name in compiled and name in REACHES[f"evoplay.agents.{player}"]
    assert "evoplay.search.minimax" not in compiled
    assert compiled_per_game("game_legal = game_apply = None\n") and compiled_per_game("USES = ('evoplay.x',)\n")
    assert not compiled_per_game("def f(game_legal):\n    game_state = 1\n")


def test_the_players_and_searches_for_any_game_name_no_game():
    """search/, agents/, arena/ and evolve/ import no built-in game's package: a game's own players come from its
    package through ``Game.players``, and its own searches hand search/ their hooks from there."""
    named = sorted(f"{m} imports {t}" for m, targets in REACHES.items()
                   if layer(m) in ("search", "agents", "arena", "evolve")
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


def test_the_checker_reads_the_modules_strings_name():
    """A registry's 'module:attribute' and a kernel binding's module name are edges; a prefix, a package read as
    data and a string that names no module are not."""
    assert "evoplay.games.ports.hex" in REACHES["evoplay.games.ports"]  # PORTS: 'evoplay.games.ports.hex:Hex'
    assert "evoplay.recipes.gp" in REACHES["evoplay.recipes"]  # RECIPES["gp"] = "evoplay.recipes.gp"
    assert "evoplay.search.rollout" in REACHES["evoplay.search.rhea"]  # USES
    assert "evoplay.recipes" not in REACHES["evoplay.evolve.config"]  # resources.files("evoplay.recipes"): data
    assert string_import("evoplay.games.file_") is None and string_import("evoplay.nowhere:X") is None
    assert string_import("evoplay.games.kalah.game:KalahGame.players") == "evoplay.games.kalah.game"
    saved = dict(REACHES)
    try:  # an upward reach by name fails the layer rule as an import would
        REACHES["evoplay.agents.controller"] = REACHES["evoplay.agents.controller"] | {"evoplay.evolve.loop"}
        assert _edges("agents", ("evolve",)) == ["evoplay.agents.controller imports evoplay.evolve.loop"]
    finally:
        REACHES.clear()
        REACHES.update(saved)


# --------------------------------------------------------------------------------------------------------------
# No game names above games/: what the web app, the terminal and the players ask of a game are hooks of Game and
# State (default_opponent, suggested_opponents, levels, why_illegal, view, view_file, view_fields, ...), filled by
# each game; a game's own drawing (view.js, view.css) lives in its package.
# --------------------------------------------------------------------------------------------------------------

#: the layers that must name no game
GAMELESS = ("serve", "cli", "agents", "arena", "evolve", "search")
#: the word lists the scan also looks for, beside the registered built-in games (evoplay.games.BUILTINS): the
#: family Kalah belongs to and the OpenSpiel games evoplay ports (evoplay.games.ports.PORTS), except the ports' names
#: that are also ordinary words in code (``hex``: ``uuid4().hex``). ``target`` (the target-number puzzle) is not
#: scanned either: it is no game of the game API (no ``load_game("target")``) but a page and a command of its own.
ALSO_SCANNED = ("mancala",)
ORDINARY_WORDS = ("hex",)
#: the one string above games/ that may name a game, with why: the command of the Sevens recipe's ladder (recipes,
#: above games/, are per game; the command's name is what users type)
ALLOWED = {("evoplay.cli.tools", "sevens-ladder"), ("evoplay.cli.tools", "sevens_ladder"),
           ("evoplay.cli.tools", "evoplay.recipes.sevens_ladder")}


def _game_words() -> dict[str, tuple[str, ...]]:
    """Each scanned game's name as its words (``connect_four`` -> ("connect", "four"))."""
    from evoplay.games import BUILTINS
    from evoplay.games.ports import PORTS

    names = set(BUILTINS) | set(ALSO_SCANNED) | (set(PORTS) - set(ORDINARY_WORDS))
    return {name: tuple(name.split("_")) for name in sorted(names)}


def _help_and_docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings or help text: a module's, class's or function's docstring, any
    ``help=`` (click's options and commands, ``Param``), and the help a ``Param(name, type, default, help)`` or a
    ``register...(name, factory, params, help)`` call gives by position."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        elif isinstance(node, ast.keyword) and node.arg in ("help", "short_help", "epilog"):
            skip.update(id(n) for n in ast.walk(node.value))
        elif isinstance(node, ast.Call) and len(node.args) > 3:
            func = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if func == "Param" or func.startswith("register"):
                skip.update(id(n) for n in ast.walk(node.args[3]))
    return skip


def _texts(node: ast.AST) -> list[str]:
    """The strings and names ``node`` writes: a string constant, a name, an attribute, an import's module and
    names, a function's, class's, argument's or keyword's name."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg or ""]
    return []


def game_names_in(module: str, source: str, games: dict[str, tuple[str, ...]]) -> list[str]:
    """Where ``source`` names one of ``games`` outside docstrings and help text: 'module:line: game in text'. A name
    counts as a run of whole words of a text (``sevens_levels``, ``DEFAULT_KALAH_AGENTS``, ``'mnk(m=3,n=3,k=3)'``,
    ``evoplay.games.tron``), in any case."""
    tree = ast.parse(source)
    skip = _help_and_docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        for text in _texts(node):
            if (module, text) in ALLOWED:
                continue
            found += [f"{module}:{getattr(node, 'lineno', '?')}: {game} in {text[:60]!r}"
                      for game in _games_named(text, games)]
    return found


def _games_named(text: str, games: dict[str, tuple[str, ...]]) -> list[str]:
    """The games of ``games`` that ``text`` names as a run of its whole words, in any case."""
    import re

    words = re.split(r"[^a-z0-9]+", text.lower())
    return [game for game, parts in games.items()
            if any(tuple(words[i:i + len(parts)]) == parts for i in range(len(words)))]


#: the web app's own files (serve/static: its pages' scripts, markup and styles), read as plain text
STATIC = PACKAGE / "serve" / "static"
STATIC_SUFFIXES = (".js", ".html", ".css")


def game_names_in_text(name: str, text: str, games: dict[str, tuple[str, ...]]) -> list[str]:
    """Where a script, page or stylesheet names one of ``games``: 'file:line: game in line'. The whole text is
    read, comments too (these files have no docstrings or help text to set apart), as whole words in any case
    (``.kalah .pit``, ``name === "sevens"``, ``views/mnk.js``)."""
    return [f"{name}:{number}: {game} in {line.strip()[:60]!r}"
            for number, line in enumerate(text.splitlines(), 1) for game in _games_named(line, games)]


def test_the_web_apps_own_files_name_no_game():
    """serve/static's scripts, pages and stylesheets name no built-in game: a game's own drawing (its script and
    stylesheet) lives in its package and the server hands it out by the game's ``Game.view``; what the pages ask
    per game (the seats, a real-time game's tick, the default game) comes from the server."""
    games = _game_words()
    files = sorted(p for p in STATIC.rglob("*") if p.suffix in STATIC_SUFFIXES)
    assert {p.suffix for p in files} == set(STATIC_SUFFIXES)
    found = [hit for p in files
             for hit in game_names_in_text(str(p.relative_to(STATIC)), p.read_text(encoding="utf-8"), games)]
    assert found == []


def test_the_text_scan_sees_whole_words_only():
    games = {"kalah": ("kalah",), "connect_four": ("connect", "four"), "mnk": ("mnk",)}
    text = ('import * as k from "/static/views/kalah.js";\n.Kalah .pit { }\n// four in a row, m,n,k\n'
            'const n = name === "connect_four" ? 4 : 2;\nkalahs mnkgame\n')
    assert game_names_in_text("f.js", text, games) == [
        "f.js:1: kalah in 'import * as k from \"/static/views/kalah.js\";'", "f.js:2: kalah in '.Kalah .pit { }'",
        "f.js:4: connect_four in 'const n = name === \"connect_four\" ? 4 : 2;'"]


def test_no_game_is_named_above_games():
    """serve/, cli/, agents/, arena/, evolve/ and search/ name no built-in game (outside docstrings and help text):
    what they ask per game are hooks of Game and State that each game's package fills."""
    games = _game_words()
    found = [hit for m, path in sorted(MODULES.items()) if layer(m) in GAMELESS
             for hit in game_names_in(m, path.read_text(encoding="utf-8"), games)]
    assert found == []


def test_the_game_name_scan_sees_names_and_skips_help():
    """The scan finds a game in a string, a name, an attribute and an import, and skips docstrings and help."""
    games = {"kalah": ("kalah",), "connect_four": ("connect", "four")}
    source = '''"""Kalah and connect_four in a docstring."""
import click
from evoplay.games.kalah import game
DEFAULT_KALAH_AGENTS = ("random",)
def f(g):
    """kalah"""
    if g.name == "Connect_Four":
        return g.kalah_pits
    return click.option("--x", help="kalah only"), Param("a", int, 0, "kalah pits"), "four in a row"
'''
    hits = game_names_in("m", source, games)
    assert sorted(h.split(": ", 1)[1] for h in hits) == sorted([
        "kalah in 'evoplay.games.kalah'", "kalah in 'DEFAULT_KALAH_AGENTS'", "connect_four in 'Connect_Four'",
        "kalah in 'kalah_pits'"])
