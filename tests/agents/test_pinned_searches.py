"""Pinned results of the five alpha-beta searches: chosen moves, values and node counts on seeded positions.

The searches are evoplay.search.minimax (the State path), minimax_kernel (the same inside Numba over a game's kernels),
Kalah's own search (material, weights and program leaves), Kalah's iterative deepening under a node budget, and the
m,n,k search (line counts and seed 001's evaluation). They were recorded before the five became one alpha-beta with
the leaf and the move ordering as hooks; a change that alters a move, a value or a node count fails here.
Regenerate only for a change of behaviour meant as such, in its own commit whose message says why:
``python tests/agents/test_pinned_searches.py``.
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay import load_game
from evoplay.search import minimax
from evoplay.agents.alphabeta import score_difference
from evoplay.search.minimax_kernel import FEATURE, LINEAR, SCORE, KernelSearch, make_leaf, new_table
from evoplay.games.kalah import deepening
from evoplay.games.kalah import search as search_kalah
from evoplay.games.mnk import search as search_mnk
from evoplay.gp.notation import parse_notation

HERE = Path(__file__).resolve().parent
PINNED = HERE / "pinned" / "searches.json"
SEEDS = (1, 2, 3)
KALAH_WEIGHTS = np.array([3, 1, -2, 4, 2], np.int64)


def positions(game, seeds=SEEDS, plies=(3, 7, 11)):
    """One seeded position a seed: ``plies`` random moves (and chance outcomes) from the start, stopped before the
    game ends."""
    out = []
    for seed, count in zip(seeds, plies):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        for _ in range(count):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            child = state.clone()
            if child.is_simultaneous_node():
                joint = [child.legal_actions(q) for q in range(child.game.num_players)]
                child.apply_actions([legal[int(rng.integers(len(legal)))] for legal in joint])
            else:
                legal = child.legal_actions()
                child.apply_action(legal[int(rng.integers(len(legal)))])
            if child.is_terminal():
                break
            state = child
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        out.append(state)
    return out


def plain(values) -> list:
    return [float(v) for v in values]


# --- minimax through the State ----------------------------------------------------------------------------------
def batched_score(states, player):
    return np.array([score_difference(s, player) for s in states])


batched_score = minimax.batched(batched_score)

GENERIC = {  # name: (game spec, depth, evaluate, budget nodes or 0)
    "take_away": (f"{HERE / 'take_away.py'}:TakeAway(stones=11)", 6, score_difference, 0),
    "take_away budget": (f"{HERE / 'take_away.py'}:TakeAway(stones=11)", 12, score_difference, 200),
    "kalah(pits=4,seeds=3)": ("kalah(pits=4,seeds=3)", 5, score_difference, 0),
    "kalah(pits=4,seeds=3) batched": ("kalah(pits=4,seeds=3)", 4, batched_score, 0),
    "dice_race": (f"{HERE / 'dice_race.py'}:DiceRace(players=3,goal=9)", 3, score_difference, 0),
    "dice_race budget": (f"{HERE / 'dice_race.py'}:DiceRace(players=3,goal=9)", 8, score_difference, 400),
    "connect_four budget": ("openspiel:connect_four", 8, score_difference, 1500),
    "goofspiel": ("openspiel:goofspiel(num_cards=4,engine=openspiel)", 2, score_difference, 0),
}


def generic_case(name):
    spec, depth, evaluate, nodes = GENERIC[name]
    game = load_game(spec)
    out = []
    for i, state in enumerate(positions(game)):
        player = state.current_player() if not state.is_simultaneous_node() else 0
        stats = {}
        budget = minimax.Budget(nodes=nodes) if nodes else None
        actions, values = minimax.search(state, player, depth, evaluate, np.random.default_rng(i),
                                                stats=stats, budget=budget, table={} if nodes else None)
        out.append([list(map(int, actions)), plain(values), stats["nodes"], stats["depth"]])
    return out


# --- minimax_kernel over a game's kernels -------------------------------------------------------------------------
KERNEL = {  # name: (game spec, depth, leaf kind, budget nodes or 0)
    "kalah(pits=4,seeds=3) score": ("kalah(pits=4,seeds=3)", 5, SCORE, 0),
    "kalah(pits=4,seeds=3) feature": ("kalah(pits=4,seeds=3)", 4, FEATURE, 0),
    "kalah(pits=4,seeds=3) linear batched": ("kalah(pits=4,seeds=3)", 4, LINEAR, 0),
    "kalah(pits=4,seeds=3) budget": ("kalah(pits=4,seeds=3)", 12, SCORE, 3000),
    "mnk(m=4,n=4,k=3) score": ("mnk(m=4,n=4,k=3)", 4, SCORE, 0),
    "mnk(m=4,n=4,k=3) budget": ("mnk(m=4,n=4,k=3)", 9, SCORE, 3000),
    "dice_race score": (f"{HERE / 'dice_race.py'}:DiceRace(players=3,goal=9)", 3, SCORE, 0),
    "connect_four budget": ("openspiel:connect_four", 8, SCORE, 1500),
}


def kernel_case(name):
    spec, depth, kind, nodes = KERNEL[name]
    game = load_game(spec)
    search = KernelSearch(game)
    if kind == LINEAR:
        weights = np.linspace(-1.0, 1.0, search.kernels.n_features)
        leaf = make_leaf(LINEAR, batched=True, weights=weights)
    else:
        leaf = make_leaf(kind, index=1 if kind == FEATURE else 0)
    out = []
    for state in positions(game):
        stats = {}
        budget = minimax.Budget(nodes=nodes) if nodes else None
        actions, values = search.search(state, state.current_player(), depth, leaf, budget=budget,
                                        table=new_table() if nodes else None, stats=stats)
        out.append([actions, plain(values), stats["nodes"], stats["depth"]])
    return out


# --- Kalah's own search and its iterative deepening ----------------------------------------------------------------
KALAH = ("kalah", "kalah(empty_capture=false)", "kalah(pits=4,seeds=5)")


def kalah_case(spec):
    game = load_game(spec)
    p = game.pits  # the row: the board from the root's side, 1 if the root moves, the plies from the root
    program = parse_notation(f"((f{p}) - (f{2 * p + 1})) + ((value at [(f0)]) - (f{2 * p + 2}))")
    out = []
    for state in positions(game, plies=(2, 6, 12)):
        board, player = state.board(), state.current_player()
        row = []
        for depth, ties, weights in ((6, False, None), (6, True, None), (5, False, KALAH_WEIGHTS),
                                     (5, True, KALAH_WEIGHTS)):
            values, best, nodes = search_kalah.search(board, player, depth, game.pits, game.empty_capture, ties,
                                                      weights)
            row.append([values.tolist(), best, nodes])
        cut = np.array([0, 400], np.int64)
        values, best, nodes = search_kalah.search(board, player, 7, game.pits, game.empty_capture, False, None,
                                                  nodes=cut)
        row.append(["cut", int(cut[0]), nodes])
        boards = np.empty((6, 2 * game.pits + 2), np.int8)
        pit = search_kalah.program_search(program.opcodes, program.args, program.consts, 0, program.size, board,
                                          player, game.pits, game.empty_capture, 4, boards,
                                          np.empty(2 * game.pits + 4), np.empty(program.size))
        ref = search_kalah.reference_root_values(board, player, 3, game.pits, game.empty_capture, True,
                                                 program=program)
        row.append(["program", int(pit), plain(ref[0]), ref[1], ref[2]])
        for budget in (500, 5000, 40000):
            row.append(["deepening", budget] + list(deepening.search(board, player, game.pits, game.empty_capture,
                                                                     KALAH_WEIGHTS, budget)))
        out.append(row)
    return out


# --- the m,n,k search ----------------------------------------------------------------------------------------------
MNK = {  # name: (m, n, k, depths, evaluation)
    "3,3,3 lines": (3, 3, 3, (4, 9), search_mnk.EVAL_LINES),
    "4,4,3 lines": (4, 4, 3, (3, 4), search_mnk.EVAL_LINES),
    "4,4,4 seed001 all": (4, 4, 4, (3,), search_mnk.EVAL_SEED001),
    "5,5,4 seed001 live": (5, 5, 4, (2, 3), search_mnk.EVAL_SEED001),
}


def mnk_case(name):
    m, n, k, depths, kind = MNK[name]
    game = load_game(f"mnk(m={m},n={n},k={k})")
    windows = search_mnk.line_windows(m, n, k)
    if kind == search_mnk.EVAL_LINES:
        params = search_mnk.default_line_weights(k)
    else:
        rng = np.random.default_rng(11)
        record = {field.name: int(rng.integers(0, 256)) for field in search_mnk.mnk_schema(m, n, k).fields}
        params = search_mnk.mnk_search_params(record, m, n, k, "live" if name.endswith("live") else "all")
    out = []
    for state in positions(game, plies=(1, 4, 6)):
        board, player = state.board(), state.current_player()
        for depth in depths:
            for ties in (False, True):
                values, best, nodes = search_mnk.search(board, player, depth, m, n, k, kind, params, windows, ties)
                out.append([values.tolist(), best, nodes])
        cut = np.array([0, 300], np.int64)
        search_mnk.search(board, player, max(depths), m, n, k, kind, params, windows, False, nodes=cut)
        out.append(["cut", int(cut[0])])
    return out


CASES = ([("generic", name) for name in GENERIC] + [("kernel", name) for name in KERNEL]
         + [("kalah", spec) for spec in KALAH] + [("mnk", name) for name in MNK])
MAKERS = {"generic": generic_case, "kernel": kernel_case, "kalah": kalah_case, "mnk": mnk_case}


def key(kind: str, name: str) -> str:
    return f"{kind} {name}"


def result(kind: str, name: str):
    return json.loads(json.dumps(MAKERS[kind](name), default=int))


@pytest.mark.parametrize("kind, name", CASES, ids=[key(*c) for c in CASES])
def test_a_search_returns_the_pinned_moves_values_and_nodes(kind, name):
    pinned = json.loads(PINNED.read_text())
    assert result(kind, name) == pinned[key(kind, name)]


if __name__ == "__main__":
    lines = [f"{json.dumps(key(*c))}: {json.dumps(result(*c), separators=(',', ':'))}" for c in CASES]
    PINNED.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # a case a line
    print(f"wrote {len(CASES)} cases to {PINNED}", file=sys.stderr)
