"""``evoplay export RUN --check``: a run's exported player beside the agent it was exported from, in each language.

Each recipe's written file is played side by side with its agent on the positions of seeded games
(evoplay.agents.export_check) and the share of equal moves is reported:

- gp, ga: best.py is the player ``gp(best.json)`` / ``weights(best.json)`` is. A champion that plays within a time
  budget is compared under a node budget instead (``--nodes``, the agent with ``nodes=N, ms=0`` and the file with
  ``Player(nodes=N, ms=0)``, counted alike), since a clock cannot give the same move twice; one within nodes, or at
  a fixed depth, is compared as it ships. Ties are drawn by both with generators seeded alike. best.lua and best.js
  are the whole player of every level, run in lupa and node on their own host game (evoplay.recipes.host_check).
- mancala: best.py / best.lua's ``choose_pit`` (a board seen from the mover) against ``gp(best.json)``.
- mnk: best.py / best.lua's ``choose_move`` against ``weights(best.json)`` (m,n,k or Kalah).
- sevens: computer.py / computer.lua (every level) or best.py / best.lua, each level against its ``specimen``
  agent, their ``random`` terminals fed the same stream (seeded alike each game).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from evoplay.agents.export_check import Follower, ModulePlayer, Result, side_by_side
from evoplay.errors import SpecError

DEFAULT_POSITIONS = 1000
DEFAULT_NODES = 1000


def languages(folder) -> tuple[str, ...]:
    """The languages a run's player is checked in: a gp or ga champion in Python, and in Lua and JavaScript where
    evoplay has its game's host interface in that language (evoplay.agents.host_export.host_file) and no level
    ships as uct (which those players do not have)."""
    if folder.recipe in ("gp", "ga"):
        from evoplay.agents.host_export import HOST_LANGUAGES, host_file, level_documents
        from evoplay.games import load_game

        docs = level_documents(folder)
        if any(isinstance(d.get("play"), dict) and d["play"].get("search") == "uct" for d in docs.values()):
            return ("python",)
        game = load_game(folder.read_json("best.json")["game"])
        return ("python",) + tuple(lang for lang in HOST_LANGUAGES if host_file(game, lang) is not None)
    return ("python", "lua")


def check_export(folder, langs, positions: int = DEFAULT_POSITIONS, nodes: int = DEFAULT_NODES, seed: int = 0,
                 say=print) -> list[Result]:
    """Write the run's export in each of ``langs`` and check it against its agent on ``positions`` positions of
    seeded games (``say`` prints what is compared, then each result line)."""
    from evoplay.recipes import load_recipe

    if positions < 1:
        raise SpecError(f"--positions {positions}: give the number of positions to compare, >= 1 (e.g. 1000)")
    if nodes < 1:
        raise SpecError(f"--nodes {nodes}: give the node budget a move that replaces a time budget, >= 1")
    from evoplay.recipes.host_check import runtime_ready

    for lang in langs:
        runtime_ready(lang)  # lupa and node are there before anything is written
    check = _CHECKS.get(folder.recipe)
    if check is None:
        raise SpecError(f"--check knows the recipes {', '.join(sorted(_CHECKS))}, not {folder.recipe!r}")
    module = load_recipe(folder.recipe)
    results = []
    for lang in langs:
        path = module.export(folder, lang)
        for result in check(folder, lang, path, positions, nodes, seed, say):
            say(result.line())
            results.append(result)
    return results


def _module(path: Path):
    """An exported Python file, imported by its path under a name of its own (as a user would import it)."""
    spec = importlib.util.spec_from_file_location(f"evoplay_export_check_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lua_runtime():
    from evoplay.recipes.host_check import lua_runtime as runtime

    return runtime()


# --------------------------------------------------------------------------------------------------------------
# The generic recipes.
# --------------------------------------------------------------------------------------------------------------


def _generic(folder, lang, path, positions, nodes, seed, say):
    from evoplay.agents.host_export import level_documents
    from evoplay.agents.feature_player import agent_from_program_document, agent_from_weights_document
    from evoplay.agents.feature_player import document_agent, plays_uct, shipped_agent
    from evoplay.games import load_game

    if lang != "python":
        from evoplay.recipes.host_check import check_host

        return check_host(folder, lang, path, positions, nodes, seed, say)
    levels = folder.file("levels.json").is_file()
    docs = level_documents(folder) if levels else {"best": folder.read_json("best.json")}
    module = _module(path)
    results = []
    for level, doc in docs.items():
        game = load_game(doc["game"])
        named = f"{path.name}, level {level}" if levels else path.name
        shipped = document_agent(game, doc, "the shipped agent")
        make = agent_from_program_document if "program" in doc else agent_from_weights_document
        if plays_uct(doc):  # a tree search: simulations instead of its time, the same tree in both
            say(f"{named}: the champion plays {shipped.describe()}, which no two runs spend alike; the agent and "
                f"the export both search {nodes} simulations a move instead (random numbers seeded alike)")
            agent = shipped_agent(game, doc, "the agent", "the agent", nodes=nodes)
            exported = ModulePlayer(module, 0, nodes, level if levels else None)
            results.append(side_by_side(game, agent, exported, f"python, {named}", positions, seed))
            continue
        if shipped.budget and shipped.budget.timed:
            ms, limit = 0, nodes
            say(f"{named}: the champion plays within {1000 * shipped.budget.seconds:g} ms a move, which no two runs "
                f"spend alike; the agent and the export both search within {nodes} nodes a move instead (ties "
                f"drawn by both from generators seeded alike)")
        else:
            ms, limit = -1, -1
            say(f"{named}: the agent and the export play as shipped, {shipped.describe()} (ties drawn by both from "
                f"generators seeded alike)")
        agent = make(game, doc, "the agent", "the agent", ms=ms, nodes=limit)
        exported = ModulePlayer(module, ms, limit, level if levels else None)
        results.append(side_by_side(game, agent, exported, f"python, {named}", positions, seed))
    return results


# --------------------------------------------------------------------------------------------------------------
# The seed recipes' players.
# --------------------------------------------------------------------------------------------------------------


def _board_player(lang, path, entry: str, board, first: int):
    """``entry`` of an exported board player (Python or Lua) as a function of evoplay's state: ``board(state)``
    the arguments it takes, ``first`` the number of its first move (Lua's pits count from 1)."""
    text = path.read_text(encoding="utf-8")
    if lang == "python":
        namespace: dict = {}
        exec(compile(text, str(path), "exec"), namespace)
        fn, table = namespace[entry], list
    else:
        lua = lua_runtime()
        fn, table = lua.execute(text)[entry], lua.table_from

    def choose(state):
        args = board(state)
        return int(fn(table(args[0]), *args[1:])) - first
    return choose


def _mancala(folder, lang, path, positions, nodes, seed, say):
    from evoplay.agents.program_file import load_program, make_gp_agent
    from evoplay.games import load_game

    _, _, doc = load_program(folder.file("best.json"))
    game = load_game(doc["game"])
    agent = make_gp_agent(game, "the agent", str(folder.file("best.json")))
    rule = ("the pit rule, no ties" if doc["policy"] == "kalah_pit" else "ties to the lowest pit in both")
    say(f"{path.name}: choose_pit against gp(best.json), policy {doc['policy']} ({rule})")
    choose = _board_player(lang, path, "choose_pit", lambda s: (s.board_from_mover().tolist(),),
                           1 if lang == "lua" else 0)
    return [side_by_side(game, agent, Follower(choose), f"{lang}, {path.name}", positions, seed)]


def _mnk(folder, lang, path, positions, nodes, seed, say):
    from evoplay.agents.weights import from_file
    from evoplay.games import load_game

    doc = folder.read_json("best.json")
    game = load_game(doc["game"])
    agent = from_file(game, str(folder.file("best.json")))
    say(f"{path.name}: choose_move against weights(best.json) on {game.spec} (ties to the lowest move in both)")
    choose = _board_player(lang, path, "choose_move", lambda s: (s.board().tolist(), s.current_player()), 0)
    return [side_by_side(game, agent, Follower(choose), f"{lang}, {path.name}", positions, seed)]


def _sevens(folder, lang, path, positions, nodes, seed, say):
    import json

    from evoplay.games import load_game
    from evoplay.games.sevens.agents import SevensSpecimenAgent, Specimen
    from evoplay.games.sevens.export import level_specimens
    from evoplay.games.sevens.rules import FEATURES

    levels_path = folder.file("levels.json")
    if levels_path.is_file():
        specimens = level_specimens(json.loads(levels_path.read_text("utf-8")))
    else:
        specimens = {"best": Specimen.load(folder.file("best.json"))}
    game = load_game(f"sevens(players={folder.config['game']['players']})")
    if lang == "python":
        computer = _module(path)
        envs = lambda rows: [dict(zip(FEATURES, map(float, r))) for r in rows]  # noqa: E731
        first = 0
    else:
        lua = lua_runtime()
        computer = lua.execute(path.read_text(encoding="utf-8"))
        envs = lambda rows: lua.table_from([lua.table_from(dict(zip(FEATURES, map(float, r)))) for r in rows])  # noqa
        first = 1
    say(f"{path.name}: each level against its specimen agent on {game.spec}, their random terminals fed one stream "
        f"seeded alike each game (ties to the first card in both)")

    def seeded(seed_, seat):
        computer.set_random(np.random.RandomState(int(seed_) & 0xFFFFFFFF).random_sample)  # as the agent seeds Numba

    results = []
    for level, specimen in specimens.items():
        def choose(state, level=level):
            legal = state.legal_actions()
            return legal[int(computer.choose(level, state.phase(), envs(state.card_features(legal)))) - first]

        agent = SevensSpecimenAgent(game, specimen)
        results.append(side_by_side(game, agent, Follower(choose, seeded), f"{lang}, {path.name}, level {level}",
                                    positions, seed))
    return results


_CHECKS = {"gp": _generic, "ga": _generic, "mancala": _mancala, "mnk": _mnk, "sevens": _sevens}
