"""``gp(FILE)``: the player of an evolved program file (a run's best.json), for any game.

A program file holds a program, its primitive set, the game it was evolved for and its policy: how the program
turns into moves. The feature policies (``move``, ``search``: ``evoplay.agents.feature_player``) play any game with
features; any other policy belongs to the game the file names, which builds its player through
``Game.program_agent`` (Kalah's pit rule: ``evoplay.games.kalah.program_player``).
"""
from __future__ import annotations

import json
from pathlib import Path

from evoplay.errors import SpecError
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import PROGRAM_FORMAT, Program

FORMAT = PROGRAM_FORMAT


def load_program(path: str | Path) -> tuple[Program, PrimitiveSet, dict]:
    """Read a program file (a run's best.json, or the run folder); SpecError says what is wrong with it. A file
    game the document names relative to its folder comes back with its absolute path."""
    from evoplay.games.tools.sources import located_document, resolve_file

    p = resolve_file(path, "gp: program file")  # confined to the served folder inside evoplay serve
    if p.is_dir():
        p = p / "best.json"
    if not p.is_file():
        raise SpecError(f"gp: program file {str(p)!r} does not exist; give a run's best.json, "
                        "e.g. gp(runs/x/best.json)")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SpecError(f"gp: {p} is not JSON ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SpecError(f"gp: {p} is not an evoplay program file (format {FORMAT!r} expected)")
    if not isinstance(doc.get("policy"), str):
        raise SpecError(f"gp: {p} names no policy (how its program chooses moves)")
    doc = located_document(doc, p.parent)
    pset = PrimitiveSet.from_dict(doc["primitive_set"])
    program = Program.from_dict(doc["program"])
    return program, pset, doc


def make_gp_agent(game, spec: str, file: str, depth: int = 0, ms: float = -1, nodes: int = -1, clock: str = ""):
    """The player of a program file: a feature program of any game (``evoplay.agents.feature_player``: policies move and
    search), or a policy of the game's own (``Game.program_agent``). ``depth`` > 0 searches that many plies
    instead of the file's (search policies only); ``ms``, ``nodes`` and ``clock`` a feature program's budget a
    move (``evoplay.agents.feature_player.play_budget``)."""
    from evoplay.agents import feature_player as feature_program

    program, pset, doc = load_program(file)
    if doc["policy"] in feature_program.POLICIES:
        return feature_program.shipped_agent(game, doc, f"gp: {file}", spec, depth, ms, nodes, clock)
    if ms != -1 or nodes != -1 or clock:
        raise SpecError(f"gp: {file} plays its game's own policy {doc['policy']!r}; ms=, nodes= and clock= are for "
                        f"the gp recipe's feature programs")
    agent = game.program_agent(program, pset, doc, file, spec, depth)
    if agent is None:
        made_for = f" (it was evolved for {doc['game']})" if doc.get("game") else ""
        raise SpecError(f"gp: {file} plays policy {doc['policy']!r}{made_for}, which {game.spec} does not know; "
                        f"a program of policy {' or '.join(feature_program.POLICIES)} plays any game with features")
    return agent
