"""Kalah's evolved-program player: how a program of the Mancala GP recipe picks a pit (``gp(FILE)`` on Kalah).

The program reads the board from the mover's side -- ``features[0..pits-1]`` the mover's pits
counted from the mover's left, ``features[pits]`` the mover's store, then the opponent's pits in the same sowing
order and the opponent's store last -- and its value picks the pit. **The pit rule** (policy ``kalah_pit``, the
published Mancala GP's): pit = floor(value) mod pits (never negative: -1 is the last pit); when that pit is empty,
the next non-empty pit counter-clockwise (the sowing direction: pit + 1, pit + 2, ... wrapping from the last pit
back to the first). A legal move always exists while the game runs, so every program is a legal player.

Policy ``kalah_move`` scores every legal move instead: the program is evaluated (in one batch)
on the position after each legal pit, seen by the player who moved -- ``features[0..2*pits+1]`` the board after
the sowing in the mover's view, ``features[2*pits+2]`` 1 when the move earns another turn (else 0),
``features[2*pits+3]`` the pit number -- and the highest value wins (the lowest pit on ties).

Policy ``kalah_search`` uses the program as the evaluation of an alpha-beta search ``search_depth`` plies deep
(every sowing is a ply): a leaf is seen from the searching player -- the board in its view, then 1 when it is
to move (else 0), then the plies from the root -- and a finished game is worth 10**6 x the final store margin.
Ties go to the lowest pit. The search is ``evoplay.games.kalah.search``'s alpha-beta with its program leaf.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.agent import Agent
from evoplay.errors import SpecError, warn
from evoplay.games.kalah.game import KalahGame, reference_sow, sow
# mover_view and program_search are the search module's; this module is where the players' code imports them from.
from evoplay.games.kalah.search import mover_view, program_search, reference_root_values, view_row
from evoplay.gp.interpreter import evaluate_with_stack, reference_evaluate, reference_wrap_index, wrap_index
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import PROGRAM_FORMAT, Program

POLICIES = ("kalah_pit", "kalah_move", "kalah_search")
PIT_VALUE, MOVE_SCORES, SEARCH = 0, 1, 2  # the policy codes the kernels take
POLICY_CODES = {"kalah_pit": PIT_VALUE, "kalah_move": MOVE_SCORES, "kalah_search": SEARCH}


def policy_features(policy: str, pits: int) -> int:
    """How many numbers a program of ``policy`` reads (``kalah_move`` and ``kalah_search``: the board and two)."""
    return 2 * pits + 2 if policy == "kalah_pit" else 2 * pits + 4


# --------------------------------------------------------------------------------------------------------------
# The pit rule: reference and kernel.
# --------------------------------------------------------------------------------------------------------------


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
    view_row(board, player, pits, row)
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
    base = 0 if player == 0 else pits + 1
    best = -1
    best_value = 0.0
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        for i in range(size):
            work[i] = board[i]
        nxt = sow(work, player, pit, pits, empty_capture)
        view_row(work, player, pits, row)
        row[size] = 1.0 if nxt == player else 0.0
        row[size + 1] = pit
        v = evaluate_with_stack(opcodes, args, consts, start, end, row[: size + 2], stack)
        if best < 0 or v > best_value:
            best = pit
            best_value = v
    return best


def reference_search(program: Program, board, player: int, pits: int, empty_capture: bool, depth: int) -> int:
    """The pit policy ``kalah_search`` plays: alpha-beta ``depth`` plies deep with the program at the leaves
    (``evoplay.games.kalah.search`` with the program leaf)."""
    return reference_root_values(board, player, depth, pits, empty_capture, False, program=program)[1]


@njit(cache=True)
def program_choice(policy, opcodes, args, consts, start, end, board, player, pits, empty_capture, row, stack, work,
                   search_depth, boards):
    """The pit a program plays under ``policy`` (PIT_VALUE, MOVE_SCORES or SEARCH). Scratch: ``row`` float64 of
    exactly 2*pits+4, ``stack`` float64 of the program's size, ``work`` int8 of 2*pits+2, ``boards`` int8
    (search_depth + 1, 2*pits+2)."""
    if policy == PIT_VALUE:
        return program_pit(opcodes, args, consts, start, end, board, player, pits, row, stack)
    if policy == MOVE_SCORES:
        return program_move(opcodes, args, consts, start, end, board, player, pits, empty_capture, row, stack, work)
    return program_search(opcodes, args, consts, start, end, board, player, pits, empty_capture, search_depth,
                          boards, row, stack)


# --------------------------------------------------------------------------------------------------------------
# Program files.
# --------------------------------------------------------------------------------------------------------------


def program_document(program: Program, pset: PrimitiveSet, game_spec: str, policy: str = "kalah_pit",
                     **extra) -> dict:
    """The JSON document ``gp(FILE)`` reads: the program, its primitive set, the game and how moves are chosen."""
    from evoplay.gp.notation import to_notation

    if policy not in POLICIES:
        raise SpecError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    return {"format": PROGRAM_FORMAT, "game": game_spec, "policy": policy, "primitive_set": pset.to_dict(),
            "program": program.to_dict(), "size": program.size, "notation": to_notation(program, pset), **extra}


class KalahProgramAgent(Agent):
    """Plays the pit its program picks (see the module docstring for the pit rule). Deterministic."""

    def __init__(self, game, program: Program, pset: PrimitiveSet, spec: str = "gp", policy: str = "kalah_pit",
                 search_depth: int = 1):
        super().__init__(game)
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
        if not 1 <= search_depth <= 20:
            raise SpecError(f"gp: search_depth={search_depth} is out of range; use 1..20")
        self.search_depth = int(search_depth)
        self._code = POLICY_CODES[policy]
        self._boards = np.empty((self.search_depth + 1, 2 * game.pits + 2), np.int8)
        self._row = np.empty(2 * game.pits + 4, np.float64)
        self._stack = np.empty(program.size, np.float64)
        self._work = np.empty(2 * game.pits + 2, np.int8)

    def step(self, state) -> int:
        p = self.program
        g = self.game
        pit = program_choice(self._code, p.opcodes, p.args, p.consts, 0, p.size, state._board,
                             state.current_player(), g.pits, g.empty_capture, self._row, self._stack, self._work,
                             self.search_depth, self._boards)
        return int(pit)


def agent_from_document(game, program: Program, pset: PrimitiveSet, doc: dict, where: str, spec: str,
                        depth: int = 0):
    """The player of a Kalah program file (``KalahGame.program_agent``): None when ``doc``'s policy is not one of
    Kalah's. ``depth`` > 0 searches that many plies instead of the file's (``kalah_search`` only)."""
    if doc.get("policy") not in POLICIES:
        return None
    note = ""
    if doc.get("game"):
        from evoplay.games import load_game

        want = load_game(doc["game"])
        if want.spec != game.spec:
            if not (isinstance(want, KalahGame) and want.pits == game.pits):
                raise SpecError(f"gp: {where} was evolved for {want.spec}, not {game.spec}")
            # Same board, other rules (seeds per pit, the capture rule): the program reads the same numbers.
            note = f"gp: {where} was evolved under {want.spec}; playing {game.spec}, whose rules differ"
            warn(note)
    if depth and doc["policy"] != "kalah_search":
        raise SpecError(f"gp: {where} plays policy {doc['policy']!r}, which does not search; leave depth out")
    if depth < 0:
        raise SpecError(f"gp: depth={depth}; give the plies to search (0: the file's own)")
    agent = KalahProgramAgent(game, program, pset, spec=spec, policy=doc["policy"],
                              search_depth=depth or int(doc.get("search_depth", 1)))
    agent.note = note
    return agent

