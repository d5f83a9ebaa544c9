"""``gp(FILE)``: a player whose moves come from an evolved program stored as JSON (a run's best.json).

Kalah (seed 003): the program reads the board from the mover's side -- ``features[0..pits-1]`` the mover's pits
counted from the mover's left, ``features[pits]`` the mover's store, then the opponent's pits in the same sowing
order and the opponent's store last -- and its value picks the pit. **The pit rule:** pit = floor(value) mod pits
(never negative: -1 is the last pit); when that pit is empty, the next non-empty pit counter-clockwise (the
sowing direction: pit + 1, pit + 2, ... wrapping from the last pit back to the first). A legal move always
exists while the game runs, so every program is a legal player.

Beyond the seed, policy ``kalah_move`` scores every legal move instead: the program is evaluated (in one batch)
on the position after each legal pit, seen by the player who moved -- ``features[0..2*pits+1]`` the board after
the sowing in the mover's view, ``features[2*pits+2]`` 1 when the move earns another turn (else 0),
``features[2*pits+3]`` the pit number -- and the highest value wins (the lowest pit on ties).
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
from evoplay.games.kalah import sow

FORMAT = "evoplay-gp-program/1"
POLICIES = ("kalah_pit", "kalah_move")
PIT_VALUE, MOVE_SCORES = 0, 1  # the policy codes the kernels take


def policy_features(policy: str, pits: int) -> int:
    """How many numbers a program of ``policy`` reads."""
    return 2 * pits + 2 if policy == "kalah_pit" else 2 * pits + 4


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
    """Kernel of ``reference_pit``: ``board`` int8[::1] (absolute), ``row`` float64[::1] of at least 2*pits+2
    scratch numbers for the mover's view, ``stack`` float64[::1] of at least ``end - start``. Returns the pit."""
    size = 2 * pits + 2
    shift = 0 if player == 0 else pits + 1
    for i in range(size):
        j = i + shift
        if j >= size:
            j -= size
        row[i] = board[j]
    value = evaluate_with_stack(opcodes, args, consts, start, end, row[:size], stack)
    pit = wrap_index(value, pits)
    for _ in range(pits):
        if row[pit] > 0:
            return pit
        pit += 1
        if pit == pits:
            pit = 0
    return -1


def reference_move(program: Program, board, player: int, pits: int, empty_capture: bool) -> int:
    """The pit policy ``kalah_move`` plays: the legal pit whose resulting position the program values most."""
    from evoplay.games.kalah import reference_sow

    best, best_value = -1, None
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        child = [int(x) for x in board]
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        row = [float(x) for x in mover_view(child, player, pits)] + [1.0 if nxt == player else 0.0, float(pit)]
        v = reference_evaluate(program, row)
        if best_value is None or v > best_value:
            best, best_value = pit, v
    return best


@njit(cache=True)
def program_move(opcodes, args, consts, start, end, board, player, pits, empty_capture, row, stack, work):
    """Kernel of ``reference_move``; ``row`` float64[::1] of at least 2*pits+4, ``work`` int8[::1] of 2*pits+2."""
    size = 2 * pits + 2
    shift = 0 if player == 0 else pits + 1
    base = shift
    best = -1
    best_value = 0.0
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        for i in range(size):
            work[i] = board[i]
        nxt = sow(work, player, pit, pits, empty_capture)
        for i in range(size):
            j = i + shift
            if j >= size:
                j -= size
            row[i] = work[j]
        row[size] = 1.0 if nxt == player else 0.0
        row[size + 1] = pit
        v = evaluate_with_stack(opcodes, args, consts, start, end, row[: size + 2], stack)
        if best < 0 or v > best_value:
            best = pit
            best_value = v
    return best


@njit(cache=True)
def program_choice(policy, opcodes, args, consts, start, end, board, player, pits, empty_capture, row, stack, work):
    """The pit a program plays under ``policy`` (PIT_VALUE or MOVE_SCORES)."""
    if policy == PIT_VALUE:
        return program_pit(opcodes, args, consts, start, end, board, player, pits, row, stack)
    return program_move(opcodes, args, consts, start, end, board, player, pits, empty_capture, row, stack, work)


# --------------------------------------------------------------------------------------------------------------
# Program files.
# --------------------------------------------------------------------------------------------------------------


def program_document(program: Program, pset: PrimitiveSet, game_spec: str, policy: str = "kalah_pit",
                     **extra) -> dict:
    """The JSON document ``gp(FILE)`` reads: the program, its primitive set, the game and how moves are chosen."""
    from evoplay.gp.notation import to_notation

    if policy not in POLICIES:
        raise SpecError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    return {"format": FORMAT, "game": game_spec, "policy": policy, "primitive_set": pset.to_dict(),
            "program": program.to_dict(), "size": program.size, "notation": to_notation(program, pset), **extra}


def load_program(path: str | Path) -> tuple[Program, PrimitiveSet, dict]:
    """Read a program file (a run's best.json); SpecError says what is wrong with it."""
    p = Path(path)
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
    if doc.get("policy") not in POLICIES:
        raise SpecError(f"gp: {p} has policy {doc.get('policy')!r}; this agent plays: {', '.join(POLICIES)}")
    pset = PrimitiveSet.from_dict(doc["primitive_set"])
    program = Program.from_dict(doc["program"])
    return program, pset, doc


class GPAgent(Agent):
    """Plays the pit its program picks (see the module docstring for the pit rule). Deterministic."""

    def __init__(self, game, program: Program, pset: PrimitiveSet, spec: str = "gp", policy: str = "kalah_pit"):
        super().__init__(game)
        from evoplay.games.kalah import KalahGame

        if not isinstance(game, KalahGame):
            raise SpecError(f"gp: program files hold Kalah players ({', '.join(POLICIES)}); "
                            f"game '{game.name}' is not kalah")
        if policy not in POLICIES:
            raise SpecError(f"gp: unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        want = policy_features(policy, game.pits)
        if pset.n_features != want:
            raise SpecError(f"gp: the program reads {pset.n_features} numbers but policy {policy} on {game.spec} "
                            f"gives {want}; load the game it was evolved for")
        self.program = program
        self.pset = pset
        self.spec = spec
        self.policy = policy
        self._code = PIT_VALUE if policy == "kalah_pit" else MOVE_SCORES
        self._row = np.empty(2 * game.pits + 4, np.float64)
        self._stack = np.empty(program.size, np.float64)
        self._work = np.empty(2 * game.pits + 2, np.int8)

    def step(self, state) -> int:
        p = self.program
        g = self.game
        pit = program_choice(self._code, p.opcodes, p.args, p.consts, 0, p.size, state._board,
                             state.current_player(), g.pits, g.empty_capture, self._row, self._stack, self._work)
        return int(pit)


def make_gp_agent(game, spec: str, file: str) -> GPAgent:
    program, pset, doc = load_program(file)
    if doc.get("game"):
        from evoplay.games import load_game

        want = load_game(doc["game"])
        if want.spec != game.spec:
            raise SpecError(f"gp: {file} was evolved for {want.spec}, not {game.spec}")
    return GPAgent(game, program, pset, spec=spec, policy=doc["policy"])
