"""Observation tensors made relative to the seat: which planes are whose, and which turn of the board maps one
player's side onto the other's, inferred from seeded random games.

Many games (most of OpenSpiel's) give every player the same observation tensor: planes for the first player's
pieces, the second's, the empty cells, always in that order. A program or a weight vector reading that cannot
tell its own pieces from its opponent's. :func:`infer_layout` finds, from random games alone:

- **who owns a unit** (a plane of a tensor of two or more axes, an entry of a flat one): a unit is player q's
  when it gains (some entry rises) on q's moves and never on anyone else's -- a player's stones, its
  pieces, its score; units that gain on every player's moves, or never, are shared (the empty cells);
- **which turn of the board** (for two players and planes of rows x columns) maps the second player's side onto
  the first's: the one of the board's symmetries (flips, half turn; for square boards also quarter turns and
  transposes) under which the second player's mean occupancy looks most like the first player's (in
  Breakthrough the half turn: each side starts on its own edge; in Hex the transpose: each side joins its own
  pair of edges). When no turn beats leaving the board as it is, it stays.

The layout then gives, for each viewer, one index array: ``relative = absolute[index]`` puts the viewer's own
units where the first player's are, the next player's where the second's are, and so on, on the board turned to
the first player's side. Nothing is inferred when the tensors already differ by player, or when the owned units
do not pair up (the game keeps its own features).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, sample_chance

# The board's symmetries, as functions of a stack of planes (k, rows, columns); square ones need rows == columns.
TURNS = {
    "flip rows": lambda a: a[:, ::-1, :],
    "flip columns": lambda a: a[:, :, ::-1],
    "half turn": lambda a: a[:, ::-1, ::-1],
}
SQUARE_TURNS = {
    "transpose": lambda a: a.transpose(0, 2, 1),
    "anti-transpose": lambda a: a[:, ::-1, ::-1].transpose(0, 2, 1),
    "quarter turn": lambda a: np.rot90(a, 1, axes=(1, 2)),
    "three-quarter turn": lambda a: np.rot90(a, 3, axes=(1, 2)),
}
MIN_GAINS = 3  # a unit is owned only after at least this many gains
TURN_GAIN = 0.5  # a board turn is taken when it leaves at most this share of the sides' difference


@dataclass
class SeatLayout:
    """Per viewer, ``index[viewer]``: the flat indices that make the absolute tensor relative to that viewer."""

    index: list[np.ndarray]
    owned: list[list[int]]  # the units each player owns, in tensor order
    turn: str  # the board turn applied for the second player ("" none)

    def describe(self) -> str:
        groups = "; ".join(f"player {p}: {', '.join(map(str, units))}" for p, units in enumerate(self.owned))
        text = f"units owned by a seat ({groups}) exchanged so each player sees its own first"
        return text + (f", the board given a {self.turn} for player 1" if self.turn else "")


def _positions(game, absolute, seed: int, games: int, max_positions: int):
    """(tensor before, mover, tensor after) of the turn-based moves of seeded random games."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state(int(rng.integers(1 << 31)))
        before = absolute(state, 0)
        while len(out) < max_positions:
            mover = state.current_player()
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif mover == SIMULTANEOUS:
                return []  # no single mover to credit a gain to
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[int(rng.integers(len(legal)))]))
                after = absolute(state, 0)
                out.append((before, mover, after))
                before = after
                continue
            before = absolute(state, 0)
        if len(out) >= max_positions:
            break
    return out


def tensors_agree(game, features, seed: int = 0, games: int = 8) -> bool:
    """True when ``features(state, p)`` is the same for every player at every position of a few random games."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state(int(rng.integers(1 << 31)))
        for _ in range(400):
            mover = state.current_player()
            if mover == TERMINAL:
                break
            first = features(state, 0)
            if any(not np.array_equal(first, features(state, p)) for p in range(1, game.num_players)):
                return False
            if mover == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif mover == SIMULTANEOUS:
                joint = [int(rng.choice(state.legal_actions(p))) if state.legal_actions(p) else 0
                         for p in range(game.num_players)]
                state.apply_actions(joint)
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[int(rng.integers(len(legal)))]))
    return True


def _pair(owned: list[list[int]], mean, players: int, shape: tuple[int, ...]) -> tuple[str, list[list[int]]]:
    """The board turn and the pairing of the players' units: for two players, the turn (none, or one of the
    board's symmetries) and the one-to-one pairing of the first player's units with the second's that make their
    mean occupancies most alike (a turn only when it leaves at most ``TURN_GAIN`` of the difference, the plainest
    of those about as good as the best); otherwise units pair in tensor order. Units left unpaired are shared."""
    k = min(len(o) for o in owned)
    in_order = [o[:k] for o in owned]
    if players != 2 or mean is None:
        return "", in_order
    a, b = owned
    short, long_, flipped = (a, b, False) if len(a) <= len(b) else (b, a, True)
    if math.perm(len(long_), len(short)) > 5040:
        return "", in_order
    turns = {"": lambda x: x}
    if len(shape) == 3:
        turns.update(TURNS)
        if shape[1] == shape[2]:
            turns.update(SQUARE_TURNS)
    best: dict[str, tuple[float, tuple]] = {}
    for name, turn in turns.items():
        first = mean[a].reshape(len(a), *mean.shape[1:])
        second = mean[b].reshape(len(b), *mean.shape[1:])
        if name:
            second = turn(second)
        cost = np.abs(first[:, None] - second[None, :]).reshape(len(a), len(b), -1).sum(axis=2)
        if flipped:
            cost = cost.T
        scored = min((sum(cost[i, j] for i, j in enumerate(match)), match)
                     for match in itertools.permutations(range(len(long_)), len(short)))
        best[name] = scored
    floor = min(v[0] for v in best.values())
    turn = ""
    if floor < TURN_GAIN * best[""][0]:
        turn = next(n for n in turns if n and best[n][0] <= floor * 1.1 + 1e-12)
    match = best[turn][1]
    paired_short = list(short)
    paired_long = [long_[j] for j in match]
    pairs = (paired_long, paired_short) if flipped else (paired_short, paired_long)
    return turn, [list(pairs[0]), list(pairs[1])]


def infer_layout(game, shape: tuple[int, ...], features, seed: int = 0, games: int = 40,
                 max_positions: int = 4000) -> SeatLayout | None:
    """The seat layout of a game whose ``features(state, player)`` (flat, of ``shape``) is the same for every
    player, or None (see the module docstring)."""
    players = game.num_players
    if players < 2 or not shape or not tensors_agree(game, features, seed):
        return None
    units = shape[0] if len(shape) >= 2 else int(np.prod(shape))
    moves = _positions(game, features, seed, games, max_positions)
    if not moves:
        return None
    gains = np.zeros((players, units), dtype=np.int64)
    occupancy = np.zeros((players,) + tuple(shape), dtype=np.float64) if len(shape) >= 2 else None
    counts = np.zeros(players)
    for before, mover, after in moves:
        b, a = before.reshape(units, -1), after.reshape(units, -1)
        gains[mover] += (a > b + 1e-9).any(axis=1)
        if occupancy is not None:
            occupancy[mover] += after.reshape(shape)
            counts[mover] += 1
    owned = []
    for q in range(players):
        others = gains.sum(axis=0) - gains[q]
        owned.append([u for u in range(units) if gains[q, u] >= MIN_GAINS and others[u] == 0])
    if min(len(o) for o in owned) == 0:
        return None
    mean = occupancy.sum(axis=0) / max(1.0, counts.sum()) if occupancy is not None else None
    turn, owned = _pair(owned, mean, players, tuple(shape))
    unit_maps = []
    for viewer in range(players):
        m = np.arange(units)
        for q in range(players):
            for i in range(len(owned[0])):
                m[owned[q][i]] = owned[(q + viewer) % players][i]
        unit_maps.append(m)
    candidates = {**TURNS, **SQUARE_TURNS}
    flat = np.arange(int(np.prod(shape))).reshape(units, -1)
    index = []
    for viewer in range(players):
        idx = flat[unit_maps[viewer]]
        if turn and viewer == 1:
            idx = np.ascontiguousarray(candidates[turn](idx.reshape(shape)))
        index.append(np.ascontiguousarray(idx.reshape(-1)))
    return SeatLayout(index, owned, turn)
