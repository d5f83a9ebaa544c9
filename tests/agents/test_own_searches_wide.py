"""Kalah's and m,n,k's own searches pinned wide: root values, chosen moves and node counts over hundreds of seeded
positions, every leaf kind, with and without ties searched exactly, node-budget cuts and the iterative deepening
with its transposition table. Each case is pinned as a digest of its results (``pinned/own_searches_wide.json``),
recorded before the games' own searches were moved onto the one alpha-beta; a port that changes one value, move or
node count anywhere fails here. Regenerate only for a change of behaviour meant as such, in its own commit:
``python tests/agents/test_own_searches_wide.py``.
"""
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay import load_game
from evoplay.games.kalah import deepening
from evoplay.games.kalah import search as search_kalah
from evoplay.games.mnk import search as search_mnk
from evoplay.gp.notation import parse_notation

HERE = Path(__file__).resolve().parent
PINNED = HERE / "pinned" / "own_searches_wide.json"
WEIGHTS = np.array([3, 1, -2, 4, 2], np.int64)


def boards(game, count: int, seed: int, longest: int):
    """``count`` seeded positions (board, player) of random play from the start, 0..longest moves in."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(int(rng.integers(0, longest + 1))):
            child = state.clone()
            legal = child.legal_actions()
            child.apply_action(legal[int(rng.integers(len(legal)))])
            if child.is_terminal():
                break
            state = child
        out.append((state.board().copy(), state.current_player()))
    return out


def kalah_case(name):
    spec, leaf = name.split(" ")
    game = load_game(spec)
    p, ec = game.pits, game.empty_capture
    out = []
    for i, (board, player) in enumerate(boards(game, 300, 38, 40)):
        if leaf == "material":
            for depth, ties in ((1, False), (4, False), (4, True), (7, False)):
                values, best, nodes = search_kalah.search(board, player, depth, p, ec, ties, None)
                out.append([values.tolist(), best, nodes])
        elif leaf == "weights":
            for depth, ties in ((1, False), (3, True), (5, False), (5, True)):
                values, best, nodes = search_kalah.search(board, player, depth, p, ec, ties, WEIGHTS)
                out.append([values.tolist(), best, nodes])
        elif leaf == "cut":
            for budget in (50, 300, 2000):
                cut = np.array([0, budget], np.int64)
                values, best, nodes = search_kalah.search(board, player, 8, p, ec, False, None, nodes=cut)
                out.append([int(cut[0]), nodes] + ([values.tolist(), best] if cut[0] <= cut[1] else []))
        elif leaf == "program":
            program = parse_notation(f"((f{p}) - (f{2 * p + 1})) + ((value at [(f0)]) - (f{2 * p + 2}))")
            for depth in (1, 3, 5):
                rows = np.empty((depth + 1, 2 * p + 2), np.int8)
                pit = search_kalah.program_search(program.opcodes, program.args, program.consts, 0, program.size,
                                                  board, player, p, ec, depth, rows, np.empty(2 * p + 4),
                                                  np.empty(program.size))
                out.append(int(pit))
            if i % 10 == 0:  # the reference's values and nodes (plain Python: a few positions)
                ref = search_kalah.reference_root_values(board, player, 3, p, ec, True, program=program)
                out.append([[float(v) for v in ref[0]], ref[1], ref[2]])
        elif leaf == "deepening":
            for budget in (300, 3000, 20000):
                out.append(list(deepening.search(board, player, p, ec, WEIGHTS, budget)))
    return out


def mnk_case(name):
    m, n, k, kind = name.split(",")
    m, n, k = int(m), int(n), int(k)
    game = load_game(f"mnk(m={m},n={n},k={k})")
    windows = search_mnk.line_windows(m, n, k)
    if kind == "lines":
        params, code = search_mnk.default_line_weights(k), search_mnk.EVAL_LINES
    else:
        rng = np.random.default_rng(38)
        record = {field.name: int(rng.integers(0, 256)) for field in search_mnk.mnk_schema(m, n, k).fields}
        params, code = search_mnk.mnk_search_params(record, m, n, k, kind), search_mnk.EVAL_SEED001
    out = []
    for board, player in boards(game, 150, 38, m * n - 2):
        for depth in (1, 3):
            for ties in (False, True):
                values, best, nodes = search_mnk.search(board, player, depth, m, n, k, code, params, windows, ties)
                out.append([values.tolist(), best, nodes])
        cut = np.array([0, 200], np.int64)
        values, best, nodes = search_mnk.search(board, player, 5, m, n, k, code, params, windows, False, nodes=cut)
        out.append([int(cut[0]), nodes] + ([values.tolist(), best] if cut[0] <= cut[1] else []))
    return out


CASES = ([("kalah", f"{spec} {leaf}") for spec in ("kalah", "kalah(pits=4,seeds=5,empty_capture=false)")
          for leaf in ("material", "weights", "cut", "program", "deepening")]
         + [("mnk", name) for name in ("3,3,3,lines", "4,4,3,lines", "4,4,4,all", "5,5,4,live")])
MAKERS = {"kalah": kalah_case, "mnk": mnk_case}


def digest(kind: str, name: str) -> str:
    text = json.dumps(MAKERS[kind](name), default=int, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


@pytest.mark.parametrize("kind, name", CASES, ids=[f"{k} {n}" for k, n in CASES])
def test_the_own_searches_return_the_pinned_values_moves_and_nodes(kind, name):
    assert digest(kind, name) == json.loads(PINNED.read_text())[f"{kind} {name}"]


if __name__ == "__main__":
    PINNED.write_text(json.dumps({f"{k} {n}": digest(k, n) for k, n in CASES}, indent=1) + "\n")
    print(f"wrote {len(CASES)} cases to {PINNED}", file=sys.stderr)
