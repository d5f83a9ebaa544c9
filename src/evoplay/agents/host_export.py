"""The feature players' exports for a host game's language: a gp or ga champion (every level of a run) as one Lua or
JavaScript file that is the whole player, over an interface the host game implements.

The file plays as ``gp(best.json)`` / ``weights(best.json)`` plays (``document_agent``) on a turn-based game of
perfect information: the shipped policy and depth, the budget a move (nodes, ms), evoplay's alpha-beta by iterative
deepening (evoplay.search.minimax: the root window, the move ordering by the transposition table's best move
and the history heuristic, the table kept from move to move and emptied by ``restart``), the feature view (the
game's features, the free features, the board's pair or line counts, the scales), the evaluation (the program as one
expression, or the weights) and the terminal values. Ties between equally valued moves are drawn with a generator
both languages and Python compute alike (:class:`TieDraw`, Park and Miller's minimal standard generator), seeded by
``restart(seed, seat)``; ``evoplay export RUN --check`` gives the agent the same draws.

The engine is written once per language (``templates/player.js``, ``templates/player.lua``); what varies is the
levels' data and evaluations, and the host game: a game whose Python file has a ``.js`` / ``.lua`` file of the same
name beside it (the built-ins, the examples, or yours) has that file written into the export, so the export runs as
it is; otherwise the host game passes its own (docs/your-game.md, "A player for your host game").
"""
from __future__ import annotations

import inspect
import json
from pathlib import Path

from evoplay.agents.feature_view import FeatureView
from evoplay.errors import SpecError

HOST_LANGUAGES = ("lua", "js")
EXTENSIONS = {"lua": ".lua", "js": ".js"}
TEMPLATES = Path(__file__).resolve().parent / "templates"
#: the level a run without levels.json exports its champion as
SINGLE_LEVEL = "best"
M = 2147483647  # minstd's modulus, 2**31 - 1


class TieDraw:
    """The tie draws of the Lua and JavaScript players: Park and Miller's minimal standard generator (multiplier
    48271, modulus 2**31 - 1), exact in the doubles of either language. It stands in for a FeatureAgent's NumPy
    generator (``choose_best`` calls ``integers(n)``), so the agent draws what the written file draws."""

    def __init__(self, seed: int):
        self.state = int(seed) % (M - 1) + 1

    def integers(self, n: int) -> int:
        self.state = self.state * 48271 % M
        return (self.state * int(n)) // M  # floor(state * n / M): exact integers in Python, doubles elsewhere


def host_file(game, lang: str) -> Path | None:
    """The host interface of ``game`` in ``lang``: the ``.js`` / ``.lua`` file beside the Python file of its class
    (or of a class it derives from), or None."""
    for cls in type(game).__mro__:
        try:
            source = Path(inspect.getfile(cls))
        except (TypeError, OSError):
            continue
        candidate = source.with_suffix(EXTENSIONS[lang])
        if source.suffix == ".py" and candidate.is_file():
            return candidate
    return None


def uses_table(agent) -> bool:
    """Does ``agent`` (a FeatureAgent) keep a transposition table under a budget: its game's kernels hash
    positions, or its states give ``transposition_key()``."""
    if agent.kernel is not None:
        return agent.kernel.search_kernels.kernels.state_hash is not None
    return getattr(agent.game.new_initial_state(), "transposition_key", None) is not None


def refuse_unshippable(game, doc: dict, where: str) -> None:
    """SpecError unless the Lua and JavaScript players can play ``doc`` on ``game`` as evoplay does."""
    if not game.perfect_information:
        raise SpecError(f"{where}: {game.spec} hides information, and the Lua and JavaScript players search "
                        f"games of perfect information only; export it with --lang python")
    if isinstance(doc.get("play"), dict) and doc["play"].get("search") == "uct":
        raise SpecError(f"{where} ships as uct (Monte Carlo tree search), which the Lua and JavaScript players do "
                        f"not have; export it with --lang python")


def level_documents(folder) -> dict[str, dict]:
    """The players a run exports, easiest first: each level of ``levels.json`` (its ``player`` file, relative to
    the run folder; a file game named relative to that file's folder, as gp(FILE) reads it) or, without levels,
    ``best.json`` as the one level ``best``."""
    from evoplay.games.tools.sources import located_document

    path = folder.file("levels.json")
    if not path.is_file():
        return {SINGLE_LEVEL: folder.read_json("best.json")}
    try:
        levels = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise SpecError(f"{path} is not JSON ({err}); write the levels again with evoplay report --rewrite") from None
    if not isinstance(levels, dict) or not levels:
        raise SpecError(f"{path} must be an object of levels, {{name: {{\"player\": FILE, ...}}}}, easiest first")
    docs = {}
    for name, entry in levels.items():
        player = entry.get("player") if isinstance(entry, dict) else None
        if not isinstance(player, str):
            raise SpecError(f"{path}: level {name!r} names no player file (\"player\": \"levels/{name}.json\")")
        file = folder.file(player)
        if not file.is_file():
            raise SpecError(f"{path}: level {name!r}'s player {player} is not in {folder.path}")
        docs[str(name)] = located_document(json.loads(file.read_text(encoding="utf-8")), file.parent)
    return docs


# --------------------------------------------------------------------------------------------------------------
# One level: what the engine reads of it.
# --------------------------------------------------------------------------------------------------------------


def level_settings(game, doc: dict, where: str) -> dict:
    """The level's settings (policy, depth, budget, view) and evaluation, as evoplay's agent of ``doc`` plays."""
    from evoplay.agents.feature_player import agent_from_program_document, agent_from_weights_document, document_agent
    from evoplay.gp.primitives import PrimitiveSet
    from evoplay.gp.program import Program

    refuse_unshippable(game, doc, where)
    shipped = document_agent(game, doc, where)
    make = agent_from_program_document if "program" in doc else agent_from_weights_document
    trained = make(game, doc, where, where, ms=0, nodes=0)  # the policy's depth without a budget
    view, budget = shipped.view, shipped.budget
    board = None
    if view.board is not None:
        planes, rows, columns = view.board
        board = {"planes": planes, "rows": rows, "columns": columns, "lines": view.lines, "codes": view.codes}
    settings = {
        "policy": shipped.policy, "depth": trained.depth,
        "nodes": int(budget.nodes) if budget else 0, "ms": 1000 * float(budget.seconds) if budget else 0.0,
        "own": view.own, "free": view.free, "board": board,
        "scales": None if view.scales is None else [float(x) for x in view.scales],
        "table": uses_table(shipped), "describe": shipped.describe(),
    }
    if "program" in doc:
        settings["program"] = (Program.from_dict(doc["program"]), PrimitiveSet.from_dict(doc["primitive_set"]))
        base = doc.get("base_weights")
        settings["base"] = None if base is None else [float(w) for w in base]
    else:
        settings["weights"] = [float(w) for w in shipped.scorer.weights]
    return settings


# --------------------------------------------------------------------------------------------------------------
# The languages: an evaluation as source, a level as a literal.
# --------------------------------------------------------------------------------------------------------------


def _expression(program, pset, lang: str) -> str:
    from evoplay.gp.export import _number
    from evoplay.gp.primitives import ABS, ADD, DIV, IF_LT, MAX, MIN, MUL, NEG, SUB, VALUE_AT
    from evoplay.gp.program import render

    n = pset.n_features
    if lang == "js":
        ops = {ADD: "({0} + {1})", SUB: "({0} - {1})", MUL: "({0} * {1})", DIV: "div({0}, {1})",
               MIN: "min2({0}, {1})", MAX: "max2({0}, {1})", NEG: "(-{0})", ABS: "Math.abs({0})",
               IF_LT: "ifLt({0}, {1}, {2}, {3})", VALUE_AT: f"f[wrap({{0}}, {n})]"}
        first, random_call = 0, "Math.random()"
    else:
        ops = {ADD: "({0} + {1})", SUB: "({0} - {1})", MUL: "({0} * {1})", DIV: "div({0}, {1})",
               MIN: "min2({0}, {1})", MAX: "max2({0}, {1})", NEG: "(-{0})", ABS: "math.abs({0})",
               IF_LT: "if_lt({0}, {1}, {2}, {3})", VALUE_AT: f"f[wrap({{0}}, {n}) + 1]"}
        first, random_call = 1, "math.random()"

    def call(op, kids):
        if op not in ops:
            raise SpecError(f"the program uses opcode {op}, which the {lang} export cannot write")
        return ops[op].format(*kids)

    return render(program, _number, lambda i: f"f[{i + first}]", random_call, call)


def _numbers(values, lang: str, names=None, indent: str = "      ") -> str:
    """A list of numbers as a literal, one a line with its feature's name when ``names`` are given."""
    comment = "//" if lang == "js" else "--"
    if names is None:
        body = ", ".join(repr(float(v)) for v in values)
        return f"[{body}]" if lang == "js" else f"{{{body}}}"
    lines = [f"{indent}{float(v)!r}, {comment} {n}" for v, n in zip(values, names)]
    return ("[\n" if lang == "js" else "{\n") + "\n".join(lines) + "\n" + indent[:-2] + ("]" if lang == "js" else "}")


def _evaluation(settings: dict, names: list[str], lang: str) -> str:
    """The level's ``evaluate(f)``: the clipped value of a row ``f`` (0-based in JS, 1-based in Lua)."""
    if "weights" in settings:
        return f"linear({_numbers(settings['weights'], lang, names)})"
    expression = _expression(*settings["program"], lang)
    if lang == "js":
        program = f"function (f) {{ return {expression}; }}"
        if settings["base"] is None:
            return f"function (f) {{ return clip({expression}); }}"
        return f"withBase({_numbers(settings['base'], lang, names)}, {program})"
    program = f"function(f) return {expression} end"
    if settings["base"] is None:
        return f"function(f) return clip({expression}) end"
    return f"with_base({_numbers(settings['base'], lang, names)}, {program})"


def _level_literal(name: str, settings: dict, names: list[str], lang: str) -> str:
    """One level's table: a JavaScript object or a Lua table of the same fields."""
    js = lang == "js"
    board, scales = settings["board"], settings["scales"]
    none = "null" if js else "nil"
    if board is None:
        board_text = none
    else:
        board_text = json.dumps(board) if js else "{" + ", ".join(f"{k} = {v}" for k, v in board.items()) + "}"
    fields = [("name", json.dumps(name)), ("policy", json.dumps(settings["policy"])), ("depth", settings["depth"]),
              ("nodes", settings["nodes"]), ("ms", repr(settings["ms"])), ("own", settings["own"]),
              ("free", "true" if settings["free"] else "false"), ("board", board_text),
              ("scales", none if scales is None else _numbers(scales, lang, names)),
              ("evaluate", _evaluation(settings, names, lang))]
    body = ",\n      ".join(f"{key}{': ' if js else ' = '}{value}" for key, value in fields)
    return f"    {{ {'//' if js else '--'} {settings['describe']}\n      {body}\n    }}"


def _host_section(game, lang: str) -> tuple[str, str]:
    """(the source that defines ``makeGame`` / ``make_game`` and ``GAME``, a phrase saying where it came from)."""
    path = host_file(game, lang)
    params = {k: v for k, v in getattr(game, "params", {}).items()}
    if lang == "js":
        if path is None:
            return ("  var makeGame = null; // no host game of evoplay's: pass yours to createPlayer\n"
                    "  var GAME = null;\n", "")
        source = path.read_text(encoding="utf-8").rstrip()
        return (f"{_indent(source, '  ')}\n  var GAME_PARAMETERS = {json.dumps(params)};\n"
                f"  var GAME = makeGame(GAME_PARAMETERS);\n", path.name)
    if path is None:
        return ("local make_game = nil -- no host game of evoplay's: pass yours to new_player\n"
                "local GAME = nil\n", "")
    source = path.read_text(encoding="utf-8").rstrip()
    if source.endswith("return make_game"):  # what loads the file alone; inside the player the chunk goes on
        source = source[:-len("return make_game")].rstrip()
    table = "{" + ", ".join(f"{k} = {_lua_value(v)}" for k, v in params.items()) + "}"
    return f"{source}\nlocal GAME_PARAMETERS = {table}\nlocal GAME = make_game(GAME_PARAMETERS)\n", path.name


def _lua_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return json.dumps(str(v))


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line.strip() else line for line in text.splitlines())


def player_source(docs: dict[str, dict], game, lang: str) -> str:
    """The whole player in ``lang`` ("js" or "lua") of the levels ``docs`` ({name: best.json document}, easiest
    first; the last is the default) for ``game``."""
    if lang not in HOST_LANGUAGES:
        raise SpecError(f"unknown host language {lang!r}; known: {', '.join(HOST_LANGUAGES)}")
    if not docs:
        raise SpecError("no levels to export")
    settings = {name: level_settings(game, doc, f"level {name}") for name, doc in docs.items()}
    own_names = list(game.feature_names())
    for name, doc in docs.items():
        if FeatureView.from_document(game, doc).names()[:len(own_names)] != own_names:
            raise SpecError(f"level {name} reads other features than {game.spec} gives; export levels of one game")
    default = list(docs)[-1]
    table = any(s["table"] for s in settings.values())
    host, host_name = _host_section(game, lang)
    template = (TEMPLATES / f"player.{lang}").read_text(encoding="utf-8")
    level_text = {}
    for name, s in settings.items():
        level_names = FeatureView.from_document(game, docs[name]).names()
        level_text[name] = _level_literal(name, s, level_names, lang)
    head = _head(game, settings, lang, host_name)
    if lang == "js":
        levels = ("  var FEATURES = " + json.dumps(own_names) + ";\n"
                  f"  var USES_TABLE = {'true' if table else 'false'};\n"
                  "  var LEVELS = [\n" + ",\n".join(level_text.values()) + "\n  ];\n"
                  f"  var DEFAULT_LEVEL = {json.dumps(default)};\n")
    else:
        levels = ("local FEATURES = {" + ", ".join(json.dumps(n) for n in own_names) + "}\n"
                  f"local USES_TABLE = {'true' if table else 'false'}\n"
                  "local LEVELS = {\n" + ",\n".join(level_text.values()) + "\n}\n"
                  f"local DEFAULT_LEVEL = {json.dumps(default)}\n")
    return template.replace("/*@HEAD@*/" if lang == "js" else "--@HEAD@", head).replace(
        "/*@LEVELS@*/" if lang == "js" else "--@LEVELS@", levels).replace(
        "/*@HOST@*/" if lang == "js" else "--@HOST@", host)


def _head(game, settings: dict, lang: str, host_name: str) -> str:
    levels = ", ".join(settings)
    lines = [f"An evolved evoplay player of {game.spec}, written by evoplay export: levels {levels} "
             f"(the last is the default).",
             *[f"  {name}: {s['describe']}" for name, s in settings.items()],
             ("The host game's interface is included (from evoplay's " + host_name + "), so the file runs as it is."
              if host_name else "The host game passes its own interface (docs/your-game.md)."),
             "Ties between equally valued moves are drawn with Park and Miller's generator (minstd), seeded by "
             "restart(seed, seat).",
             ]
    if lang == "js":
        usage = ["Node: const ai = require('./best.js');",
                 "  const player = ai.createPlayer(ai.GAME, {level: 'hard', seed: 1}); player.restart(seed, seat);",
                 "  const move = player.choose(state);  // or ai.chooseMove(state, 'hard')",
                 "Browser: <script src=\"best.js\"></script> defines EvoplayPlayer with the same members."]
        return "/*\n" + "\n".join(" * " + line for line in lines + usage) + "\n */"
    usage = ["Lua 5.1 to 5.5 and LuaJIT: local ai = dofile('best.lua')  (or require)",
             "  local player = ai.new_player(ai.GAME, {level = 'hard', seed = 1}); player.restart(seed, seat)",
             "  local move = player.choose(state)  -- or ai.choose_move(state, 'hard')"]
    return "\n".join("-- " + line for line in lines + usage)


def export_host(folder, lang: str) -> Path:
    """Write the run's player in ``lang`` ("lua" or "js") into its folder, every level of ``levels.json`` (else
    best.json's champion): best.lua or best.js."""
    from evoplay.games import load_game

    docs = level_documents(folder)
    game = load_game(list(docs.values())[-1]["game"])
    return folder.write_text(f"best{EXTENSIONS[lang]}", player_source(docs, game, lang))
