"""The recipes: the seed systems wired from evoplay's parts, each a module with its default TOML config.

A recipe module provides ``make(config, **options) -> evolution`` (see evoplay.evolve.loop),
``report(folder) -> str`` and ``export(folder, lang) -> Path``. Its default config is
``src/evoplay/recipes/<name>.toml``; variants are ``<name>_<variant>.toml``.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from evoplay.errors import SpecError
from evoplay.spec import suggest

# name -> module implementing it
RECIPES: dict[str, str] = {}
RECIPES["mnk"] = "evoplay.recipes.mnk"
RECIPES["sevens"] = "evoplay.recipes.sevens"
RECIPES["mancala"] = "evoplay.recipes.mancala"
RECIPES["gp"] = "evoplay.recipes.gp"  # a GP player for any game with features
RECIPES["ga"] = "evoplay.recipes.ga"  # evolved feature weights for any game

#: recipe -> what it evolves, for which game (evoplay evolve --help)
SUMMARIES = {
    "mancala": "Genetic programs for Kalah: the leaves of a 4-ply search, trained against a pool; the Mancala GP "
               "paper's programs that pick pits against an 8-ply minimax with --config run2",
    "mnk": "A GA of alpha-beta evaluation weights in round-robin tournaments: the 5,5,4 m,n,k-game (the MIT "
           "report), or Kalah with --config kalah / kalah_champion",
    "sevens": "Two-tree genetic programs for the card game Sevens, with difficulty levels (the Sevens blog post)",
    "gp": "A genetic program over the features of any game (--game SPEC)",
    "ga": "A GA of feature weights for any game (--game SPEC)",
}


def load_recipe(name: str) -> ModuleType:
    if name not in RECIPES:
        known = ", ".join(sorted(RECIPES)) or "(none installed)"
        raise SpecError(f"unknown recipe '{name}'{suggest(name, RECIPES)}; known: {known}")
    return importlib.import_module(RECIPES[name])


def find_key(config: dict, name: str) -> str:
    """The dotted path of ``name`` in ``config``: itself at the top level, else the one nested key so named."""
    if name in config or "." in name:
        return name
    found = []

    def walk(table, prefix):
        for k, v in table.items():
            if isinstance(v, dict):
                walk(v, f"{prefix}{k}.")
            elif k == name:
                found.append(f"{prefix}{k}")

    walk(config, "")
    if len(found) == 1:
        return found[0]
    if not found:
        return name  # load_config then reports the unknown key with the valid ones
    raise SpecError(f"'{name}' is ambiguous in this config: {', '.join(found)}; give the full dotted key")
