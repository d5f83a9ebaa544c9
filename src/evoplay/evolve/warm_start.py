"""A warm start for real-valued genomes: a linear evaluation fitted to the outcomes of seeded games.

Evolution from zero weights spends its first minutes finding out which features matter at all. A least-squares
fit finds that in seconds, for any game: play games, and for every position a player was to move in, regress
each player's final return on what that player saw (the feature view's row). The fit estimates the value of a
position under the play that produced the games -- uniformly random play in the first round, the value that
random rollouts give a Monte Carlo tree search; each later round plays greedily by the last fit (a move scorer,
with ``explore`` of its moves random) and fits again on its own games and the round before, as in Monte Carlo
policy iteration. CMA-ES then starts from the fitted weights (``[genome] start = "outcomes"`` of the ga recipe)
and evolves them against the fitness's opponents.

Everything is drawn from the seed, so the fit, and the run after it, reproduce.
"""
from __future__ import annotations

import numpy as np

from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, sample_chance

#: positions a round collects at most (each gives one row per player)
MAX_POSITIONS = 40_000


def _greedy(state, player: int, weights: np.ndarray, view, rng: np.random.Generator) -> int:
    """The legal action whose after-state ``weights`` score highest for ``player`` (a win first, ties at random)."""
    legal = state.legal_actions()
    children = []
    for a in legal:
        child = state.clone()
        child.apply_action(int(a))
        children.append(child)
    values = view.rows(children, player) @ weights
    for i, child in enumerate(children):
        if child.is_terminal():
            values[i] = 1e9 * float(child.returns()[player])
    best = np.flatnonzero(values == values.max())
    return int(legal[int(best[int(rng.integers(len(best)))]) if len(best) > 1 else best[0]])


def play_round(game, view, weights, games: int, explore: float, rng: np.random.Generator,
               max_moves: int = 10_000) -> tuple[np.ndarray, np.ndarray]:
    """(rows, returns) of ``games`` games: uniformly random when ``weights`` is None, else greedy by them with
    ``explore`` of the moves random; a row per player per position a player was to move in."""
    rows, targets = [], []
    positions = 0
    for _ in range(games):
        state = game.new_initial_state(int(rng.integers(1 << 31)))
        seen = []
        for _ in range(max_moves):
            mover = state.current_player()
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            if mover == SIMULTANEOUS:
                joint = [int(rng.choice(state.legal_actions(p))) if state.legal_actions(p) else 0
                         for p in range(game.num_players)]
                seen.append(state.clone())
                state.apply_actions(joint)
                continue
            seen.append(state.clone())
            legal = state.legal_actions()
            if weights is None or rng.random() < explore:
                state.apply_action(int(legal[int(rng.integers(len(legal)))]))
            else:
                state.apply_action(_greedy(state, mover, weights, view, rng))
        if not state.is_terminal():
            continue  # a game cut off by max_moves has no outcome to learn from
        returns = state.returns()
        for position in seen:
            for p in range(game.num_players):
                rows.append(view.row(position, p))
                targets.append(float(returns[p]))
        positions += len(seen)
        if positions >= MAX_POSITIONS:
            break
    width = len(view)
    return (np.array(rows, dtype=np.float64).reshape(-1, width), np.array(targets, dtype=np.float64))


def ridge(rows: np.ndarray, targets: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """The weights minimising ||rows @ w - targets||^2 + strength * ||w||^2."""
    width = rows.shape[1]
    return np.linalg.solve(rows.T @ rows + strength * np.eye(width), rows.T @ targets)


def fit_outcomes(game, view, seed: int, games: int = 1000, rounds: int = 2, explore: float = 0.1) -> np.ndarray:
    """Linear weights over ``view`` fitted to the outcomes of ``rounds`` rounds of ``games`` games (see the module
    docstring), scaled to a root mean square of 1 (a linear evaluation ranks positions the same at any scale);
    zeros when the games taught nothing (every return the same)."""
    rng = np.random.default_rng(seed)
    weights = None
    data: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(max(1, rounds)):
        data.append(play_round(game, view, weights, games, explore, rng))
        rows = np.concatenate([r for r, _ in data[-2:]])
        targets = np.concatenate([t for _, t in data[-2:]])
        if len(targets) == 0 or np.ptp(targets) == 0:
            return np.zeros(len(view))
        weights = ridge(rows, targets)
    rms = float(np.sqrt(np.mean(weights ** 2)))
    return weights / rms if rms > 0 else weights
