"""m,n,k players as standalone Python or Lua source: ``templates/player.<ext>.tmpl`` filled with a genome's tables.

The template holds seed 001's evaluation (positional weights per cell and streak weights per run length and
direction), the win test and the alpha-beta with the seed's depth schedule; a genome (a weights document of
the mnk recipe) fills in the numbers. ``choose_move`` picks the same move as ``weights(best.json)`` (ties to
the lowest cell; the export tests hold them equal).
"""
from __future__ import annotations

from importlib import resources
from string import Template

LANGUAGES = ("python", "lua")


def tables(game, doc: dict) -> dict:
    """The genome's numbers as the template uses them: cells (weight x scale) per owner, streak weights
    [owner][row/column or diagonal][run length] (entry 0 unused), the genome's depth and the depth schedule."""
    from evoplay.games.mnk.search import SEED001_SCHEDULE, mnk_search_params, schedule_name

    scheduled = schedule_name(doc.get("schedule", "empty_cells"), "weights file") == "empty_cells"

    m, n, k = game.m, game.n, game.k
    size = m * n
    packed = mnk_search_params(doc["params"], m, n, k, doc.get("streaks", "all")).tolist()
    base = 4 + 2 * size
    return {
        "m": m, "n": n, "k": k, "live": bool(packed[3]),
        "cells_x": packed[4:4 + size], "cells_o": packed[4 + size:base],
        "streak": [[packed[base + (o * 2 + d) * k: base + (o * 2 + d + 1) * k] for d in range(2)] for o in range(2)],
        "depth": int(doc["params"]["search_depth"]),
        "schedule": [list(x) for x in SEED001_SCHEDULE] if scheduled else [],
    }


def _lua_list(values) -> str:
    return "{ " + ", ".join(_lua_list(v) if isinstance(v, (list, tuple)) else str(v) for v in values) + " }"


def weights_player(game, doc: dict, lang: str) -> str:
    """The player of a seed-001 genome for an m,n,k game: ``choose_move(board, player)`` returns the cell
    (row * m + column, 0-based) for a row-major board of 0 (empty), 1 (X) and 2 (O)."""
    from evoplay.games.standalone import command_source

    t = tables(game, doc)
    values = dict(t, size=game.m * game.n, round=doc.get("round", "?"), fitness=doc.get("fitness", "?"),
                  cli=command_source().rstrip())
    if lang == "python":
        values.update(cells_x=repr(t["cells_x"]), cells_o=repr(t["cells_o"]), streak=repr(t["streak"]),
                      live=repr(t["live"]), schedule=repr([tuple(x) for x in t["schedule"]]))
    else:
        values.update(cells_x=", ".join(map(str, t["cells_x"])), cells_o=", ".join(map(str, t["cells_o"])),
                      streak=_lua_list(t["streak"]), live="true" if t["live"] else "false",
                      schedule=_lua_list(t["schedule"]) if t["schedule"] else "{}")
    ext = "py" if lang == "python" else "lua"
    text = resources.files("evoplay.games.mnk").joinpath(f"templates/player.{ext}.tmpl").read_text(encoding="utf-8")
    return Template(text).substitute(values)


def standalone(game) -> str:
    """The m,n,k-game as standalone Python for an exported player (evoplay.games.standalone): the reference rules
    (those the kernels are held to), ``MnkState`` as evoplay runs it on them, the parts of ``MnkGame`` a player
    uses, and ``GAME``, the game of ``game``'s parameters."""
    from evoplay.games.mnk import game as mnk
    from evoplay.games.standalone import carried, carried_class

    views = ", ".join(f"np.array({v.tolist()!r})" for v in mnk._VIEW)
    return "\n\n".join([
        f"DIRECTIONS = {mnk.DIRECTIONS!r}\n_MARKS = {mnk._MARKS!r}\n_VIEW = ({views})  # cell code -> feature value, "
        "per player\n",
        carried(mnk.reference_wins), carried(mnk.reference_play),
        "def play(board, player, cell, m, n, k, empties):\n    \"\"\"The move MnkState plays: evoplay's kernel of "
        "it is held equal to the reference.\"\"\"\n    return reference_play(board, player, cell, m, n, k)\n",
        carried_class(mnk.MnkGame, ("__init__", "num_distinct_actions", "new_initial_state", "state_from_board",
                                    "feature_names", "cell_name"), base="Game",
                      attributes={"name": mnk.MnkGame.name, "num_players": mnk.MnkGame.num_players}),
        carried(mnk.MnkState),
        f"GAME = MnkGame({game.spec!r}, {dict(game.params)!r})\n",
    ])
