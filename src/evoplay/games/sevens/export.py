"""Sevens players written out as computer.py / computer.lua: the templates in ``templates/`` filled with their trees.

Each level becomes a ``play_<level>(env)`` and a ``send_<level>(env)`` function over an ``env`` table of the
candidate card's features (``ENV_DOC``); ``choose`` takes the card of highest value, the first on ties, as the
interpreter does. The ``random`` terminal calls a replaceable generator and each function draws its random
numbers first, in the interpreter's order, so an export fed the interpreter's numbers chooses exactly the
interpreter's cards (tests/recipes/test_sevens.py holds it over seeded games). The exports are written from the
levels data (``levels.json``, a run's levels) and never read back.
"""
from __future__ import annotations

import pprint
from importlib.resources import files
from string import Template

from evoplay.errors import SpecError

#: the file extension of each export language
LANGUAGES = {"python": "py", "lua": "lua"}
#: the GP functions the exports can write (a recipe may evolve with these only)
EXPORTABLE_FUNCTIONS = ("add", "sub", "mul", "div", "min", "max", "neg", "abs", "if_lt")

#: what each env field means (the docstring of computer.py / comment of computer.lua, and docs/sevens.md)
ENV_DOC = {
    "rounds": "completed laps of turns so far (completed turns // number of players)",
    "distance": "the card's rank distance from seven (0 for a seven, 6 for an ace or a king)",
    "unblocks": "my other cards of the card's suit beyond it, away from seven: the cards it holds back for me",
    "blocked": "my other cards that are not playable after this move",
    "hand": "cards in my hand before the move",
    "next_hand": "cards in the hand of the player I send to (send) or of the next player (play)",
    "row_end": "1 if the card is an ace or a king (it ends its row), else 0",
    "gap": "cards that must be played before this one can be (0: playable now)",
    "others_beyond": "cards beyond it held by the other players: the cards it keeps blocked for them",
    "playable": "my playable cards before the move",
    "min_hand": "the smallest hand among the other players still in the game",
}

#: the opening text of both exports (the docstring of computer.py, the first comment of computer.lua)
HEADER = Template("""\
Sevens players evolved by evoplay (seed 000's genetic programs): for each level, play_<level>(env) values
a card the player could play and send_<level>(env) a card it could send to a player who cannot play;
the player takes the card of highest value (the first candidate on ties; choose() does this).

env holds the candidate card's features, seen by the player to move:
$env_doc

The `random` terminal calls the generator set by set_random (default: the language's own); each
function draws its random numbers first, in the order evoplay's interpreter draws them.
Levels: $levels""")

# One level's function in each language: its first line, one line per random draw, its return.
_FUNCTION = {
    "python": ("def {kind}_{name}(env):", "    r{i} = _random()", "    return {body}", "\n\n\n"),
    "lua": ("function M.{kind}_{name}(env)", "  local r{i} = random()", "  return {body}\nend", "\n\n"),
}


def language_extension(lang: str) -> str:
    """``py`` or ``lua``; an unknown language is a SpecError that names the known ones."""
    if lang not in LANGUAGES:
        raise SpecError(f"unknown export language '{lang}'; known: {', '.join(LANGUAGES)}")
    return LANGUAGES[lang]


def expression(program, pset, lang: str) -> tuple[list[int], str]:
    """(the random nodes in the interpreter's draw order, the expression text) of one tree."""
    from evoplay.gp.program import deep_enough as _deep
    from evoplay.gp.primitives import ABS, ADD, CONST, DIV, FEATURE, IF_LT, MAX, MIN, MUL, NEG, RANDOM, SUB

    _deep(program.size)
    ops, args, consts = program.opcodes, program.args, program.consts
    draws = [i for i in range(program.size - 1, -1, -1) if ops[i] == RANDOM]
    py = lang == "python"
    infix = {ADD: "+", SUB: "-", MUL: "*"}
    helpers = {DIV: "_div", MIN: "_min", MAX: "_max"}

    def num(c: float) -> str:
        text = repr(float(c))
        if text in ("inf", "-inf", "nan"):
            raise SpecError(f"cannot export the constant {text}")
        return f"({text})" if text.startswith("-") else text

    def node(i: int) -> tuple[str, int]:
        op = int(ops[i])
        if op == CONST:
            return num(consts[i]), i + 1
        if op == FEATURE:
            name = pset.feature_name(int(args[i]))
            return (f'env["{name}"]' if py else f"env.{name}"), i + 1
        if op == RANDOM:
            return f"r{i}", i + 1
        a, j = node(i + 1)
        if op == NEG:
            return f"(-{a})", j
        if op == ABS:
            return (f"abs({a})" if py else f"math.abs({a})"), j
        b, j = node(j)
        if op in infix:
            return f"({a} {infix[op]} {b})", j
        if op in helpers:
            return f"{helpers[op]}({a}, {b})", j
        if op == IF_LT:
            c, j = node(j)
            d, j = node(j)
            return f"_if_lt({a}, {b}, {c}, {d})", j
        raise SpecError(f"cannot export opcode {op} to {lang}")

    return draws, node(0)[0]


def env_doc_lines(prefix: str) -> list[str]:
    """One line per feature, in feature order: its name and what it means."""
    from evoplay.games.sevens.rules import FEATURES

    width = max(len(k) for k in FEATURES)
    return [f"{prefix}{k.ljust(width)}  {ENV_DOC[k]}" for k in FEATURES]


def level_specimens(levels: dict) -> dict:
    """{level: Specimen} of a levels table ({level: specimen dict}, as in levels.json), lowest generation first."""
    from evoplay.games.sevens.agents import Specimen

    order = sorted(levels, key=lambda k: (levels[k]["info"].get("generation", 0), k))
    return {name: Specimen.from_dict(levels[name], f"level {name}") for name in order}


def computer_source(specimens: dict, lang: str) -> str:
    """``computer.py`` or ``computer.lua``: ``play_<level>(env)`` and ``send_<level>(env)`` per level."""
    from evoplay.gp.primitives import DIV_EPSILON

    ext = language_extension(lang)
    names = list(specimens)
    for name in names:
        if not name.isidentifier():
            raise SpecError(f"level name {name!r} must be an identifier")
    head, draw, tail, gap = _FUNCTION[lang]
    functions = []
    for name in names:
        sp = specimens[name]
        for kind, tree in (("play", sp.play), ("send", sp.send)):
            draws, body = expression(tree, sp.pset, lang)
            functions.append("\n".join([head.format(kind=kind, name=name), *(draw.format(i=i) for i in draws),
                                        tail.format(body=body)]))
    header = HEADER.substitute(env_doc="\n".join(env_doc_lines("  ")), levels=", ".join(
        f"{n} (generation {specimens[n].info.get('generation', '?')}, win ratio "
        f"{specimens[n].info.get('win_ratio', float('nan')):.3f})" for n in names))
    if lang == "python":
        table = ", ".join(f'"{n}": (play_{n}, send_{n})' for n in names)
        levels = pprint.pformat({n: {"specimen": specimens[n].to_dict()} for n in names}, width=116, sort_dicts=False)
    else:
        table = "\n".join(f"  {n} = {{play = M.play_{n}, send = M.send_{n}}}," for n in names)
        levels = ""
    template = Template((files(__package__) / "templates" / f"computer.{ext}.tmpl").read_text("utf-8"))
    from evoplay.games.sevens.rules import FEATURES
    from evoplay.games.standalone import command_source

    return template.substitute(header=header, div_epsilon=repr(DIV_EPSILON), functions=gap.join(functions),
                               function_table=table, levels=levels, cli=command_source().rstrip(),
                               fields=repr(list(FEATURES)))


def write_export(folder, stem: str, specimens: dict, lang: str):
    """Write ``<stem>.py`` or ``<stem>.lua`` of ``specimens`` into a run folder; returns its path."""
    return folder.write_text(f"{stem}.{language_extension(lang)}", computer_source(specimens, lang))
