"""Kalah players as standalone Python or Lua source: ``templates/player.<ext>.tmpl`` filled in.

A template holds the rules (sowing), the alpha-beta search and, after its ``#@ name`` (Lua: ``--@ name``) lines,
the parts that vary: the leaf evaluation (``program_leaf``: an evolved GP program; ``weighted_features``: seed
001's weights) and the entry point (``choose_move`` for a board seen from the first player; ``choose_pit_by_*``
for a board seen from the mover, one per policy of ``evoplay.games.kalah.program_player``). Each exported player picks the same
move as the agent it was exported from (the export tests hold them equal).
"""
from __future__ import annotations

import re
import textwrap
from importlib import resources
from string import Template

LANGUAGES = ("python", "lua")
_EXTENSION = {"python": "py", "lua": "lua"}
_MARK = {"python": "#@ ", "lua": "--@ "}
# policy of evoplay.games.kalah.program_player -> the template's entry point
_ENTRY = {"kalah_pit": "choose_pit_by_value", "kalah_move": "choose_pit_by_move",
          "kalah_search": "choose_pit_by_search"}


def policy_rule(policy: str, search_depth: int = 1) -> str:
    """How a program of ``policy`` (``evoplay.games.kalah.program_player``) picks its pit, in words."""
    return {"kalah_pit": "pit = floor(value) mod pits; if empty, the next non-empty pit counter-clockwise",
            "kalah_move": "the legal pit whose resulting position the program values most",
            "kalah_search": f"alpha-beta {search_depth} plies deep with the program at the leaves"}[policy]


def template(lang: str, package: str = "evoplay.games.kalah") -> tuple[str, dict[str, str]]:
    """A game's player template for ``lang``: its body and its named parts."""
    text = resources.files(package).joinpath(f"templates/player.{_EXTENSION[lang]}.tmpl").read_text(encoding="utf-8")
    pieces = re.split(rf"^{re.escape(_MARK[lang])}(\w+)\n", text, flags=re.M)
    return pieces[0], dict(zip(pieces[1::2], pieces[2::2]))


def fill(lang: str, evaluation: str, entry: str, about: str, **values) -> str:
    """The template with the named evaluation and entry parts, then ``about`` (wrapped) and every ``${name}`` of
    ``values`` filled."""
    body, parts = template(lang)
    text = Template(body).safe_substitute(evaluation=parts[evaluation].strip("\n"), choose=parts[entry].strip("\n"))
    about = textwrap.fill(about, 116, subsequent_indent="-- " if lang == "lua" else "")
    return Template(text).substitute(values, about=about).rstrip() + "\n"


def _common(lang: str, pits: int, empty_capture: bool, depth: int, seeds: int = 4) -> dict:
    """The template's numbers, and for Python the command line's helpers (evoplay.games.standalone)."""
    from evoplay.games.standalone import command_source

    capture = ("true" if empty_capture else "false") if lang == "lua" else repr(bool(empty_capture))
    return dict(pits=pits, size=2 * pits + 2, empty_capture=capture, depth=int(depth), seeds=int(seeds),
                cli=command_source().rstrip())


def program_player(program, pset, pits: int, lang: str, policy: str = "kalah_pit", empty_capture: bool = True,
                   search_depth: int = 1, seeds: int = 4) -> str:
    """An evolved GP program (seed 003's Mancala recipe) as a player: ``choose_pit(board)`` applies the policy's
    rule to a board seen from the mover (its pits, its store, the opponent's pits in sowing order, their store)
    and returns the pit from the mover's left, 0..pits-1 in Python, 1..pits in Lua (``seeds``: a pit's at the start,
    for the Python file's command line, which plays games from the start)."""
    from evoplay import gp

    doc = "An evolved Mancala (Kalah) player from evoplay's seed-003 recipe."
    if lang == "python":
        code = gp.to_python(program, pset, doc=doc).split("\n", 1)[1]  # the template writes the docstring
    else:
        code = gp.to_lua(program, pset, doc=doc).split("\n", 1)[1].rsplit("return program", 1)[0]
    last = f"0..{pits - 1}" if lang == "python" else f"1..{pits}"
    about = (f"choose_pit(board): the pit ({last} from the mover's left) for a board of {2 * pits + 2} numbers "
             "seen from the mover: its pits, its store, the opponent's pits (in sowing order), their store.")
    code = code.strip("\n") + ("\n\n\n" if lang == "python" else "\n")
    return fill(lang, "program_leaf", _ENTRY[policy], about, title=doc, made="", program=code,
                **_common(lang, pits, empty_capture, search_depth, seeds))


def document_player(program, pset, doc: dict, lang: str) -> str:
    """``program_player`` for a program file's program (a GP run's best.json, read by ``load_program``)."""
    from evoplay.games import load_game

    game = load_game(doc["game"])
    return program_player(program, pset, game.pits, lang, doc["policy"], game.empty_capture,
                          int(doc.get("search_depth", 1)), game.seeds)


def python_player(program, pset, pits: int, policy: str = "kalah_pit", empty_capture: bool = True,
                  search_depth: int = 1) -> str:
    """``program_player`` in Python."""
    return program_player(program, pset, pits, "python", policy, empty_capture, search_depth)


def lua_player(program, pset, pits: int, policy: str = "kalah_pit", empty_capture: bool = True,
               search_depth: int = 1) -> str:
    """``program_player`` in Lua: the chunk returns {program, choose_pit}."""
    return program_player(program, pset, pits, "lua", policy, empty_capture, search_depth)


def weights_player(game, doc: dict, lang: str) -> str:
    """Seed 001's GA genome for Kalah (a weights document) as a player with its alpha-beta:
    ``choose_move(board, player)`` returns the pit (0..pits-1 from the mover's left) for a board seen from
    the first player (its pits, its store, the second player's pits, their store)."""
    from evoplay.games.kalah.search_weights import feature_weights

    params = doc["params"]
    weights = feature_weights(params).tolist()
    depth = max(1, int(params.get("search_depth", doc.get("depth", 4))))
    about = (f"choose_move(board, player): the pit (0..{game.pits - 1} from the mover's left) that player (0: the "
             f"first) sows, for a board of {2 * game.pits + 2} numbers: the first player's pits, their store, the "
             "second player's pits, their store.")
    return fill(lang, "weighted_features", "choose_move", about,
                title="An evolved Kalah player exported by evoplay (seed 001's GA over feature weights) with its "
                      "alpha-beta.",
                made=f" from a genome of round {doc.get('round', '?')} (fitness {doc.get('fitness', '?')})",
                program="", weights=repr(tuple(weights)) if lang == "python" else ", ".join(map(str, weights)),
                **_common(lang, game.pits, game.empty_capture, depth, game.seeds))


def standalone(game) -> str:
    """Kalah as standalone Python for an exported player (evoplay.games.standalone): the reference sowing (the
    rules the kernels are held to), ``KalahState`` as evoplay runs it on that sowing, the parts of ``KalahGame`` a
    player uses, and ``GAME``, the game of ``game``'s parameters."""
    from evoplay.games.kalah import game as kalah
    from evoplay.games.standalone import carried, carried_class

    return "\n\n".join([
        carried(kalah.store_index), carried(kalah.pit_index), carried(kalah.reference_sow),
        "sow = reference_sow  # the sowing KalahState plays: evoplay's kernel of it is held equal to this reference\n",
        carried_class(kalah.KalahGame, ("__init__", "num_distinct_actions", "initial_board", "new_initial_state",
                                        "feature_names", "state_from_board"), base="Game",
                      attributes={"name": kalah.KalahGame.name, "num_players": kalah.KalahGame.num_players}),
        carried(kalah.KalahState), carried(kalah._render),
        f"GAME = KalahGame({game.spec!r}, {dict(game.params)!r})\n",
    ])
