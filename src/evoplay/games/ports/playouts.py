"""Uniformly random playouts over a port's kernels, compiled once per port (``evoplay.games.kernels.specialise``).

Each move is drawn uniformly from the mover's legal actions (``base.draw``'s generator, seeded from the seed), by the
port's ``random_move`` kernel where it gives one, else from the list its ``moves`` kernel writes, else from the mask
of its ``legal`` kernel (``PortKernels``), and played by its ``apply``; at a chance node the outcome is drawn with its
probability from the port's ``chance`` kernel (``base.chance_drawn`` of one ``base.uniform`` number of the same
generator); a game ends when ``mover`` says TERMINAL, or when a player to move has no legal action (OpenSpiel's game
stops there too).

The loop hands the game's kernels ``uncounted`` views of its arrays: Numba counts references to a kernel's array
arguments on entry and exit (atomic operations) unless it can prove them needless, which it cannot across every
shape of code (a loop left by ``break``, a helper inlined inside an ``if``), and in the smaller games a few such
counts a move cost more than the move itself.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.base import CHANCE, TERMINAL
from evoplay.games.kernels import uncounted
from evoplay.games.ports.base import chance_drawn, draw, seeded, uniform

# The game's kernels: bound per port by evoplay.games.kernels.specialise (PortKernels.bindings).
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = game_moves = game_random_move = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = HAS_MOVES = HAS_RANDOM_MOVE = RANDOM_MOVE_TAKES_RNG = False


@njit(cache=True, inline="always")
def listed(params, state, found, mask):
    """The mover's legal actions into ``found``; how many."""
    if HAS_MOVES:
        return game_moves(params, state, found)
    n = game_legal(params, state, game_mover(params, state), mask)
    k = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            found[k] = a
            k += 1
    return n


@njit(cache=True, inline="always")
def random_move(params, state, found, mask, rng):
    """A uniformly random legal action of the mover (drawn by ``draw(rng, n)``), -1 when it has none."""
    if HAS_RANDOM_MOVE:
        if RANDOM_MOVE_TAKES_RNG:
            return game_random_move(params, state, found, rng)
        return game_random_move(params, state, found)
    n = listed(params, state, found, mask)
    return found[draw(rng, n)] if n > 0 else -1


@njit(cache=True)
def random_playouts(params, root, count, seed, found, mask, totals):
    """Play ``count`` uniformly random games from ``root``; add each player's returns to ``totals``."""
    np.random.seed(seed)  # a random_move of three arguments draws from Numba's generator
    play(params, root, count, seeded(seed), np.empty_like(root), found, mask, np.zeros(found.shape[0]),
         np.zeros(totals.shape[0]), totals)


@njit(cache=True)
def play(params, root, count, rng, work, found, mask, probs, scores, totals):
    """``random_playouts``' games, through ``uncounted`` views of the arrays (all arguments of this call: they outlive
    it). ``work`` is the game played, ``probs`` a chance node's probabilities, ``scores`` its returns."""
    p, r, w, f, m, q, s = uncounted(params), uncounted(rng), uncounted(work), uncounted(found), uncounted(mask), \
        uncounted(probs), uncounted(scores)
    for _ in range(count):
        for i in range(root.shape[0]):
            w[i] = root[i]
        while True:
            mover = game_mover(p, w)
            if mover == TERMINAL:
                break
            if HAS_CHANCE and mover == CHANCE:
                game_chance(p, w, q)
                action = chance_drawn(q, uniform(r))
            else:
                action = random_move(p, w, f, m, r)
            if action < 0:
                break
            game_apply(p, w, action)
        game_returns(p, w, s)
        for player in range(totals.shape[0]):
            totals[player] += s[player]


@njit(cache=True)
def draws(params, state, count, seed, found, mask, counts):
    """``count`` draws of ``random_move`` at ``state``, counted by action in ``counts`` (a test of uniformity)."""
    rng = seeded(seed)
    np.random.seed(seed)
    for _ in range(count):
        a = random_move(params, state, found, mask, rng)
        if a >= 0:
            counts[a] += 1


# --- the same playouts in plain Python (the reference the tests hold the loop and the kernels to) -------------------
MASK64 = (1 << 64) - 1


class Draws:
    """``seeded(seed)``, ``draw(rng, n)`` and ``uniform(rng)`` in plain Python: the same numbers in the same order."""

    def __init__(self, seed: int):
        z = (seed + 0x9E3779B97F4A7C15) & MASK64  # base.mix, splitmix64's finaliser
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        self.x = (z ^ (z >> 31)) | 1

    def uniform(self) -> float:
        """A uniformly random number in [0, 1): one step of xorshift64*."""
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self.x = x
        return float(((x * 0x2545F4914F6CDD1D) & MASK64) >> 11) * (1.0 / 9007199254740992.0)

    def __call__(self, n: int) -> int:
        """A uniformly random integer in [0, n)."""
        return int(self.uniform() * n)


def python_chance_drawn(outcomes, u: float) -> int:
    """``base.chance_drawn`` in plain Python, over (outcome, probability) pairs in outcome order."""
    total = 0.0
    for _, p in outcomes:
        if p > 0:
            total += p
    u *= total
    last = -1
    for a, p in outcomes:
        if p > 0:
            if u < p:
                return a
            u -= p
            last = a
    return last


def python_random_playouts(game, count: int, seed: int = 0, random_move=None):
    """``random_playouts`` through the game's Python rules: each player's summed returns over ``count`` games from
    the start and the last game's final State. Each move is ``random_move(state, draw)`` where the port draws its own
    (the Python reference of its ``random_move`` kernel), else the ``draw(n)``-th of the legal actions; a chance
    outcome is ``python_chance_drawn`` of the state's chance outcomes and one ``draw.uniform()``."""
    draw = Draws(seed)
    totals = [0.0] * game.num_players
    state = None
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(python_chance_drawn(state.chance_outcomes(), draw.uniform()))
                continue
            legal = state.legal_actions()
            if not legal:
                break
            state.apply_action(random_move(state, draw) if random_move else legal[draw(len(legal))])
        totals = [t + r for t, r in zip(totals, state.returns())]
    return totals, state

