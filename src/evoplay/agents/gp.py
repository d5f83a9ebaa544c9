"""``gp(FILE)``: a player whose moves come from an evolved program stored as JSON (a run's best.json).

Kalah (seed 003): the program reads the board from the mover's side -- ``features[0..pits-1]`` the mover's pits
counted from the mover's left, ``features[pits]`` the mover's store, then the opponent's pits in the same sowing
order and the opponent's store last -- and its value picks the pit. **The pit rule:** pit = floor(value) mod pits
(never negative: -1 is the last pit); when that pit is empty, the next non-empty pit counter-clockwise (the
sowing direction: pit + 1, pit + 2, ... wrapping from the last pit back to the first). A legal move always
exists while the game runs, so every program is a legal player.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from evoplay.agents.base import Agent
from evoplay.errors import SpecError
from evoplay.gp.interpreter import evaluate_with_stack, reference_evaluate, reference_wrap_index, wrap_index
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import Program

FORMAT = "evoplay-gp-program/1"
POLICIES = ("kalah_pit",)


# --------------------------------------------------------------------------------------------------------------
# The pit rule: reference and kernel.
# --------------------------------------------------------------------------------------------------------------


def mover_view(board, player: int, pits: int) -> list[int]:
    """The board turned so the mover owns indices 0..pits-1 and the store at ``pits``."""
    b = [int(x) for x in board]
    return b if player == 0 else b[pits + 1:] + b[: pits + 1]


def reference_pit(program: Program, board, player: int, pits: int) -> int:
    """The pit (0..pits-1, from the mover's left) ``program`` plays for ``player`` on an absolute ``board``."""
    view = mover_view(board, player, pits)
    pit = reference_wrap_index(reference_evaluate(program, [float(x) for x in view]), pits)
    for _ in range(pits):
        if view[pit] > 0:
            return pit
        pit = (pit + 1) % pits
    raise ValueError("no legal pit: the mover's side is empty (the game is over)")


@njit(cache=True)
def program_pit(opcodes, args, consts, start, end, board, player, pits, row, stack):
    """Kernel of ``reference_pit``: ``board`` int8[::1] (absolute), ``row`` float64[::1] of 2*pits+2 scratch
    numbers for the mover's view, ``stack`` float64[::1] of at least ``end - start``. Returns the pit."""
    size = 2 * pits + 2
    shift = 0 if player == 0 else pits + 1
    for i in range(size):
        j = i + shift
        if j >= size:
            j -= size
        row[i] = board[j]
    value = evaluate_with_stack(opcodes, args, consts, start, end, row, stack)
    pit = wrap_index(value, pits)
    for _ in range(pits):
        if row[pit] > 0:
            return pit
        pit += 1
        if pit == pits:
            pit = 0
    return -1


# --------------------------------------------------------------------------------------------------------------
# Program files.
# --------------------------------------------------------------------------------------------------------------


def program_document(program: Program, pset: PrimitiveSet, game_spec: str, **extra) -> dict:
    """The JSON document ``gp(FILE)`` reads: the program, its primitive set, the game and how moves are chosen."""
    from evoplay.gp.notation import to_notation

    return {"format": FORMAT, "game": game_spec, "policy": "kalah_pit", "primitive_set": pset.to_dict(),
            "program": program.to_dict(), "size": program.size, "notation": to_notation(program, pset), **extra}


def load_program(path: str | Path) -> tuple[Program, PrimitiveSet, dict]:
    """Read a program file (a run's best.json); SpecError says what is wrong with it."""
    p = Path(path)
    if p.is_dir():
        p = p / "best.json"
    if not p.is_file():
        raise SpecError(f"gp: program file {str(p)!r} does not exist; give a run's best.json, e.g. gp(runs/x/best.json)")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SpecError(f"gp: {p} is not JSON ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SpecError(f"gp: {p} is not an evoplay program file (format {FORMAT!r} expected)")
    if doc.get("policy") not in POLICIES:
        raise SpecError(f"gp: {p} has policy {doc.get('policy')!r}; this agent plays: {', '.join(POLICIES)}")
    pset = PrimitiveSet.from_dict(doc["primitive_set"])
    program = Program.from_dict(doc["program"])
    return program, pset, doc


class GPAgent(Agent):
    """Plays the pit its program picks (see the module docstring for the pit rule). Deterministic."""

    def __init__(self, game, program: Program, pset: PrimitiveSet, spec: str = "gp"):
        super().__init__(game)
        from evoplay.games.kalah import KalahGame

        if not isinstance(game, KalahGame):
            raise SpecError(f"gp: program files hold Kalah players (policy kalah_pit); game '{game.name}' is not kalah")
        if pset.n_features != 2 * game.pits + 2:
            raise SpecError(f"gp: the program reads {pset.n_features} numbers but {game.spec} has "
                            f"{2 * game.pits + 2} (pits and stores); load the game it was evolved for")
        self.program = program
        self.pset = pset
        self.spec = spec
        self._row = np.empty(2 * game.pits + 2, np.float64)
        self._stack = np.empty(program.size, np.float64)

    def step(self, state) -> int:
        p = self.program
        pit = program_pit(p.opcodes, p.args, p.consts, 0, p.size, state._board, state.current_player(),
                          self.game.pits, self._row, self._stack)
        return int(pit)


def make_gp_agent(game, spec: str, file: str) -> GPAgent:
    program, pset, doc = load_program(file)
    if doc.get("game"):
        from evoplay.games import load_game

        want = load_game(doc["game"])
        if want.spec != game.spec:
            raise SpecError(f"gp: {file} was evolved for {want.spec}, not {game.spec}")
    return GPAgent(game, program, pset, spec=spec)
