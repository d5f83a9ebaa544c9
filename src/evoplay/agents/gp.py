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

Policy ``kalah_search`` uses the program as the evaluation of an alpha-beta search ``search_depth`` plies deep
(every sowing is a ply): a leaf is seen from the searching player -- the board in its view, then 1 when it is
to move (else 0), then the plies from the root -- and a finished game is worth 10**6 x the final store margin.
Ties go to the lowest pit.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import boolean, float64, int8, int32, int64, njit

from evoplay.agents.base import Agent
from evoplay.errors import SpecError
from evoplay.gp.interpreter import evaluate_with_stack, reference_evaluate, reference_wrap_index, wrap_index
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import Program
from evoplay.games.base import TERMINAL
from evoplay.games.kalah.game import sow

FORMAT = "evoplay-gp-program/1"
POLICIES = ("kalah_pit", "kalah_move", "kalah_search")
PIT_VALUE, MOVE_SCORES, SEARCH = 0, 1, 2  # the policy codes the kernels take
POLICY_CODES = {"kalah_pit": PIT_VALUE, "kalah_move": MOVE_SCORES, "kalah_search": SEARCH}
WIN_SCALE = 1e6  # a finished game's store margin x this, so a known result outweighs any leaf evaluation
INF = np.inf


def policy_features(policy: str, pits: int) -> int:
    """How many numbers a program of ``policy`` reads (``kalah_move`` and ``kalah_search``: the board and two)."""
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
    from evoplay.games.kalah.game import reference_sow

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


def reference_search(program: Program, board, player: int, pits: int, empty_capture: bool, depth: int) -> int:
    """The pit policy ``kalah_search`` plays: alpha-beta ``depth`` plies deep with the program at the leaves."""
    from evoplay.games.base import TERMINAL
    from evoplay.games.kalah.game import reference_sow

    root = player

    def leaf(b, to_move, ply):
        if to_move == TERMINAL:
            own, opp = (pits, 2 * pits + 1) if root == 0 else (2 * pits + 1, pits)
            return WIN_SCALE * (b[own] - b[opp])
        row = [float(x) for x in mover_view(b, root, pits)] + [1.0 if to_move == root else 0.0, float(ply)]
        return reference_evaluate(program, row)

    def value(b, to_move, d, ply, alpha, beta):
        maximizing = to_move == root
        best = -INF if maximizing else INF
        base = 0 if to_move == 0 else pits + 1
        for pit in range(pits):
            if b[base + pit] == 0:
                continue
            child = list(b)
            nxt = reference_sow(child, to_move, pit, pits, empty_capture)
            v = leaf(child, nxt, ply + 1) if nxt == TERMINAL or d == 1 else value(child, nxt, d - 1, ply + 1,
                                                                                    alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    best_pit, best_value = -1, -INF
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        child = [int(x) for x in board]
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        v = leaf(child, nxt, 1) if nxt == TERMINAL or depth == 1 else value(child, nxt, depth - 1, 1, best_value, INF)
        if best_pit < 0 or v > best_value:
            best_pit, best_value = pit, v
    return best_pit


@njit(cache=True)
def _leaf_value(opcodes, args, consts, start, end, board, to_move, root, ply, pits, row, stack):
    size = 2 * pits + 2
    if to_move == TERMINAL:
        own = pits if root == 0 else 2 * pits + 1
        opp = 2 * pits + 1 if root == 0 else pits
        return WIN_SCALE * (np.float64(board[own]) - np.float64(board[opp]))
    shift = 0 if root == 0 else pits + 1
    for i in range(size):
        j = i + shift
        if j >= size:
            j -= size
        row[i] = board[j]
    row[size] = 1.0 if to_move == root else 0.0
    row[size + 1] = ply
    return evaluate_with_stack(opcodes, args, consts, start, end, row, stack)


@njit(
    float64(int32[::1], int32[::1], float64[::1], int64, int64, int8[:, ::1], int64, int64, int64, int64, float64,
            float64, int64, boolean, float64[::1], float64[::1]),
    cache=True,
)
def search_value(opcodes, args, consts, start, end, boards, ply, player, root, depth, alpha, beta, pits,
                 empty_capture, row, stack):
    """Kernel of ``reference_search``'s inner search: the value of ``boards[ply]`` with ``player`` to move;
    deeper rows of ``boards`` are scratch; ``row`` is float64[::1] of exactly 2*pits+4."""
    board = boards[ply]
    child = boards[ply + 1]
    size = 2 * pits + 2
    maximizing = player == root
    best = -INF if maximizing else INF
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        for i in range(size):
            child[i] = board[i]
        nxt = sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            v = _leaf_value(opcodes, args, consts, start, end, child, nxt, root, ply + 1, pits, row, stack)
        else:
            v = search_value(opcodes, args, consts, start, end, boards, ply + 1, nxt, root, depth - 1, alpha, beta,
                             pits, empty_capture, row, stack)
        if maximizing:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


@njit(cache=True)
def program_search(opcodes, args, consts, start, end, board, player, pits, empty_capture, depth, boards, row, stack):
    """Kernel of ``reference_search``: ``boards`` int8[:, ::1] of at least depth + 1 rows of 2*pits+2 scratch,
    ``row`` float64[::1] of exactly 2*pits+4."""
    size = 2 * pits + 2
    for i in range(size):
        boards[0, i] = board[i]
    child = boards[1]
    best_pit = -1
    best_value = -INF
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        for i in range(size):
            child[i] = board[i]
        nxt = sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            v = _leaf_value(opcodes, args, consts, start, end, child, nxt, player, 1, pits, row, stack)
        else:
            v = search_value(opcodes, args, consts, start, end, boards, 1, nxt, player, depth - 1, best_value, INF,
                             pits, empty_capture, row, stack)
        if best_pit < 0 or v > best_value:
            best_pit = pit
            best_value = v
    return best_pit


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
    from evoplay.agents.program import POLICIES as FEATURE_POLICIES

    if doc.get("policy") not in POLICIES + FEATURE_POLICIES:
        raise SpecError(f"gp: {p} has policy {doc.get('policy')!r}; this agent plays: "
                        f"{', '.join(POLICIES + FEATURE_POLICIES)}")
    pset = PrimitiveSet.from_dict(doc["primitive_set"])
    program = Program.from_dict(doc["program"])
    return program, pset, doc


class GPAgent(Agent):
    """Plays the pit its program picks (see the module docstring for the pit rule). Deterministic."""

    def __init__(self, game, program: Program, pset: PrimitiveSet, spec: str = "gp", policy: str = "kalah_pit",
                 search_depth: int = 1):
        super().__init__(game)
        from evoplay.games.kalah.game import KalahGame

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


def make_gp_agent(game, spec: str, file: str, depth: int = 0):
    """The player of a program file: a Kalah policy (the seed's kernels) or a feature program of any game
    (``evoplay.agents.program``: policies move and search). ``depth`` > 0 searches that many plies instead of
    the file's (search policies only)."""
    from evoplay.agents import program as feature_program

    program, pset, doc = load_program(file)
    if doc["policy"] in feature_program.POLICIES:
        return feature_program.agent_from_program_document(game, doc, f"gp: {file}", spec, depth)
    note = ""
    if doc.get("game"):
        from evoplay.games import load_game
        from evoplay.games.kalah.game import KalahGame

        want = load_game(doc["game"])
        if want.spec != game.spec:
            if not (isinstance(want, KalahGame) and isinstance(game, KalahGame) and want.pits == game.pits):
                raise SpecError(f"gp: {file} was evolved for {want.spec}, not {game.spec}")
            # Same board, other rules (seeds per pit, the capture rule): the program reads the same numbers.
            note = f"gp: {file} was evolved under {want.spec}; playing {game.spec}, whose rules differ"
            feature_program.warn(note)
    if depth and doc["policy"] != "kalah_search":
        raise SpecError(f"gp: {file} plays policy {doc['policy']!r}, which does not search; leave depth out")
    if depth < 0:
        raise SpecError(f"gp: depth={depth}; give the plies to search (0: the file's own)")
    agent = GPAgent(game, program, pset, spec=spec, policy=doc["policy"],
                    search_depth=depth or int(doc.get("search_depth", 1)))
    agent.note = note
    return agent
