"""The 5,5,4 champion's genome and player: seed 001's genome extended by open windows and forks, played by the
threat search of ``threats.py`` within a node budget; ``prove`` gives a position's outcome under best play."""
from __future__ import annotations

import numpy as np

from evoplay.games.mnk.threats import PROVEN, WIN, Geometry, search


def threat_fields(k: int) -> list[tuple[str, str]]:
    """The genome fields the threat player adds to seed 001's, with their help texts (8 bits each)."""
    out = [(f"open{j}m", f"open window with {j} stones of the player to move") for j in range(1, k - 1)]
    out += [(f"open{j}w", f"open window with {j} stones of the waiting player") for j in range(1, k - 1)]
    out += [("fork_w", "fork cell of the waiting player (subtracted)"),
            ("scale_open", "scale factor of the open windows and the forks")]
    return out


def pack_threat_params(record: dict, k: int) -> np.ndarray:
    """The open-window and fork weights of a decoded genome, scaled: [k, open_m[0..k-1], open_w[0..k-1], fork_w]
    (entries 0 and k-1 of each open block stay 0: an empty window scores nothing and a window of k-1 is a threat,
    which the search's rules settle)."""
    scale = int(record["scale_open"])
    out = np.zeros(2 + 2 * k, dtype=np.int64)
    out[0] = k
    for j in range(1, k - 1):
        out[1 + j] = scale * int(record[f"open{j}m"])
        out[1 + k + j] = scale * int(record[f"open{j}w"])
    out[1 + 2 * k] = scale * int(record["fork_w"])
    return out


DEFAULT_NODES = 10_000


def threat_schema(m: int, n: int, k: int):
    """Seed 001's genome for the board without its 3-bit ``search_depth`` (the node budget takes its place),
    followed by the 8-bit ``threat_fields``; on 5,5,4: 26 + 6 fields, 256 bits."""
    from evoplay.ga import DEPTH_FIELD, Field, Schema
    from evoplay.games.mnk.search import WEIGHT_BITS, mnk_schema

    seed = [f for f in mnk_schema(m, n, k).fields if f.name != DEPTH_FIELD]
    return Schema(seed + [Field(name, WEIGHT_BITS, help=text) for name, text in threat_fields(k)])


def is_threat_genome(record: dict, k: int) -> bool:
    """Does a decoded genome carry the threat fields (and so play by ``ThreatPlayer``)?"""
    return all(name in record for name, _ in threat_fields(k))


class ThreatPlayer:
    """The search of one genome on one board: ``choose(board, mover)`` -> (cell, depth, nodes, value). ``streaks`` says
    which runs the seed's streak weights count ("all" or "live"), ``nodes`` is the budget (0: ``DEFAULT_NODES``)."""

    def __init__(self, game, record: dict, nodes: int = 0, streaks: str = "live"):
        from evoplay.games.mnk.search import mnk_search_params

        self.geometry = Geometry(game.m, game.n, game.k)
        self.seed_params = mnk_search_params(record, game.m, game.n, game.k, streaks)
        self.threat_params = pack_threat_params(record, game.k)
        self.nodes = int(nodes) or DEFAULT_NODES

    def choose(self, board, mover: int) -> tuple[int, int, int, int]:
        return search(board, mover, self.geometry, self.seed_params, self.threat_params, self.nodes)


def prove(board, mover: int, player: ThreatPlayer, nodes: int) -> tuple[int, int]:
    """The outcome of a non-terminal position with best play, as far as a search of ``nodes`` nodes a move proves it:
    (+1 the mover wins, -1 the mover loses, 0 neither proven: a draw or beyond the budget; plies to the end when
    proven). A forced block is played
    and the position after it proved (the root plays it unsearched); the genome only orders the search."""
    board = np.array(board, dtype=np.int8)
    plies = 0
    while True:
        cell, depth, _, value = search(board, mover, player.geometry, player.seed_params, player.threat_params, nodes)
        if depth > 0 or value != 0:
            break
        board[cell] = mover + 1  # a forced block: the outcome is the other side's after it, one ply later
        mover, plies = 1 - mover, plies + 1
        if not (board == 0).any():
            return 0, 0
    if abs(value) < PROVEN:
        return 0, 0
    sign = 1 if value > 0 else -1
    if plies % 2:
        sign = -sign
    return sign, plies + int((board == 0).sum()) - (abs(value) - WIN)
