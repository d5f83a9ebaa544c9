"""Seed 003's published programs against 40 readings of its minimax and pit rule (docs/mancala.md).

Plays the two Figure-5 programs, moving first and second, against an 8-ply alpha-beta in plain Python under each
combination of: evaluation (store difference or own store), tie-break (first or last best pit), the board the
program reads (from the mover's side or absolute), how the value picks the pit (from the left or right, and the
direction to step past an empty pit) and the capture rule. Takes a few minutes.
"""
import itertools

from evoplay.games.base import TERMINAL
from evoplay.games.kalah.game import reference_sow
from evoplay.gp.interpreter import reference_evaluate, reference_wrap_index
from evoplay.recipes.mancala import seed_programs

INF = 1 << 40


def evaluate(board, root, kind):
    own, opp = (6, 13) if root == 0 else (13, 6)
    return board[own] - board[opp] if kind == "diff" else board[own]


def value(board, player, root, depth, alpha, beta, kind, capture):
    maximizing = player == root
    best = -INF if maximizing else INF
    base = 0 if player == 0 else 7
    for pit in range(6):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = reference_sow(child, player, pit, 6, capture)
        if nxt == TERMINAL or depth == 1:
            v = evaluate(child, root, kind)
        else:
            v = value(child, nxt, root, depth - 1, alpha, beta, kind, capture)
        if maximizing:
            best, alpha = max(best, v), max(alpha, v)
        else:
            best, beta = min(best, v), min(beta, v)
        if alpha >= beta:
            break
    return best


def minimax_pit(board, player, depth, kind, ties, capture):
    base = 0 if player == 0 else 7
    best, best_pit = -INF, -1
    for pit in (range(6) if ties == "first" else range(5, -1, -1)):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = reference_sow(child, player, pit, 6, capture)
        v = (evaluate(child, player, kind) if nxt == TERMINAL or depth == 1
             else value(child, nxt, player, depth - 1, best, INF, kind, capture))
        if v > best:
            best, best_pit = v, pit
    return best_pit


def program_pit(program, board, player, view_kind, orient, step):
    view = board if player == 0 else board[7:] + board[:7]
    features = [float(x) for x in (view if view_kind == "mover" else board)]
    pit = reference_wrap_index(reference_evaluate(program, features), 6)
    if orient == "right":
        pit = 5 - pit
    for _ in range(6):
        if view[pit] > 0:
            return pit
        pit = (pit + step) % 6
    raise ValueError("no move")


def game(program, seat, reading):
    kind, ties, view_kind, (orient, step), capture = reading
    board = [4] * 6 + [0] + [4] * 6 + [0]
    player = 0
    while player != TERMINAL:
        pit = (program_pit(program, board, player, view_kind, orient, step) if player == seat
               else minimax_pit(board, player, 8, kind, ties, capture))
        player = reference_sow(board, player, pit, 6, capture)
    return board[6] if seat == 0 else board[13]


if __name__ == "__main__":
    programs = seed_programs()
    readings = list(itertools.product(["diff", "own"], ["first", "last"], ["mover", "absolute"],
                                      [("left", 1)], [True, False]))
    readings += list(itertools.product(["diff", "own"], ["first", "last"], ["mover", "absolute"],
                                       [("left", -1), ("right", 1), ("right", -1)], [True]))
    print(f"{len(readings)} readings; the seed reports run 1: 27 / 25, run 2: 41 / 25")
    for reading in readings:
        scores = {name: (game(p, 0, reading), game(p, 1, reading)) for name, p in programs.items()}
        print(reading, scores, flush=True)
