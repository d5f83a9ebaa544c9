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

from evoplay.arena.match import move_limit, never_ended
from evoplay.errors import GameError
from evoplay.games.base import CHANCE, TERMINAL, sample_chance
from evoplay.games.tools.guard import in_game
from evoplay.games.kernels import play_state
from evoplay.games.playout import playout, random_joint, uniform_move

#: positions a round collects at most (each gives one row per player)
MAX_POSITIONS = 40_000
#: the share of a run's time budget (``minutes``) the outcome fit's rounds may take (fit_outcomes' ``seconds``)
OUTCOMES_SHARE = 0.25


def _greedy(state, player: int, scorer, rng: np.random.Generator) -> int:
    """The legal action whose after-state the move scorer (a linear feature player, on the game's kernels where it
    gives them) scores highest for ``player`` (a win first, ties at random)."""
    actions, values = scorer.root_values(state, player, state.legal_actions())
    best = np.flatnonzero(values == values.max())
    return int(actions[int(best[int(rng.integers(len(best)))]) if len(best) > 1 else best[0]])


def play_round(game, view, weights, games: int, explore: float, rng: np.random.Generator,
               max_moves: int | None = None, until: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(rows, returns) of ``games`` games: uniformly random when ``weights`` is None, else greedy by them with
    ``explore`` of the moves random; a row per player per position a player was to move in. A game that does not
    end within ``max_moves`` (default: the arena's ``move_limit``) is the arena's error, named at its move. With
    ``until`` (a ``time.perf_counter()``) no game starts after it but the first: the first games of the same
    seeded sequence."""
    import time

    from evoplay.agents.feature_player import linear_agent

    max_moves = move_limit(game) if max_moves is None else max_moves

    scorer = None if weights is None else linear_agent(game, weights, "move", 1, view=view)
    rows, targets = [], []
    positions = 0
    for _ in range(games):
        if until is not None and rows and time.perf_counter() > until:
            break
        seed = int(rng.integers(1 << 31))
        state, seen, moves = _one_game(game, scorer, explore, rng, seed, max_moves)
        try:
            returns = state.returns()
        except GameError as err:
            raise in_game(err, game.spec, seed, moves) from None
        # a row per player per position, the players of a position together (one batched call a player: the view
        # counts boards in NumPy)
        players = range(game.num_players)
        rows.append(np.stack([view.rows(seen, p) for p in players], axis=1).reshape(-1, len(view)))
        targets.append(np.tile([float(returns[p]) for p in players], len(seen)))
        positions += len(seen)
        if positions >= MAX_POSITIONS:
            break
    width = len(view)
    if not rows:
        return np.zeros((0, width)), np.zeros(0)
    return np.concatenate(rows).reshape(-1, width), np.concatenate(targets)


def _one_game(game, scorer, explore: float, rng: np.random.Generator, seed: int, max_moves: int):
    """One game of ``play_round`` (``games.playout``): the final state, every position a player was to move in (on
    the game's kernels where it gives them, as the arena's games are played) and the moves played; a game's error,
    and one that does not end within ``max_moves``, names its move."""
    seen = []

    def greedy_or_explore(state, mover, legal, rng):
        if rng.random() < explore:
            return uniform_move(state, mover, legal, rng)
        return _greedy(state, mover, scorer, rng)

    state, moves = playout(game, seed, rng, max_moves, lambda state, mover, move: seen.append(state.clone()),
                           uniform_move if scorer is None else greedy_or_explore, never_ended)
    return state, seen, moves


def ridge(rows: np.ndarray, targets: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """The weights minimising ||rows @ w - targets||^2 + strength * ||w||^2: with fewer rows than weights in the
    dual form, ``rows.T @ solve(rows @ rows.T + strength I, targets)`` (the same weights from a system as small as
    the rows: a game of 20,000 features fitted from a few thousand positions solves a few thousand equations)."""
    n, width = rows.shape
    if n < width:
        return rows.T @ np.linalg.solve(rows @ rows.T + strength * np.eye(n), targets)
    return np.linalg.solve(rows.T @ rows + strength * np.eye(width), rows.T @ targets)


def fit_outcomes(game, view, seed: int, games: int = 1000, rounds: int = 2, explore: float = 0.1,
                 seconds: float | None = None) -> np.ndarray:
    """Linear weights over ``view`` fitted to the outcomes of ``rounds`` rounds of ``games`` games (see the module
    docstring), scaled to a root mean square of 1 (a linear evaluation ranks positions the same at any scale);
    zeros when the games taught nothing (every return the same).

    With ``seconds`` each round's games stop when the round has used its share of that time (at least one game
    a round): a game whose greedy moves take seconds (backgammon on pyspiel: minutes a round) fits on fewer games
    rather than overrunning a run's budget. A round that ends in time plays the same games as without."""
    import time

    began = time.perf_counter()
    rng = np.random.default_rng(seed)
    weights = None
    data: list[tuple[np.ndarray, np.ndarray]] = []
    for r in range(max(1, rounds)):
        until = None if seconds is None else began + seconds * (r + 1) / max(1, rounds)
        data.append(play_round(game, view, weights, games, explore, rng, until=until))
        rows = np.concatenate([r for r, _ in data[-2:]])
        targets = np.concatenate([t for _, t in data[-2:]])
        if len(targets) == 0 or np.ptp(targets) == 0:
            return np.zeros(len(view))
        weights = ridge(rows, targets)
    rms = float(np.sqrt(np.mean(weights ** 2)))
    return weights / rms if rms > 0 else weights


def fit_search(game, view, seed: int, games: int = 200, rounds: int = 3, nodes: int = 500, explore: float = 0.1,
               mix: float = 0.5, start_games: int = 1000, seconds: float | None = None) -> np.ndarray:
    """Linear weights learned for the search that plays them: a value fitted to what that search finds.

    Round 0 fits the outcomes of ``start_games`` random games (``fit_outcomes``' first round), in the units of
    the returns. Each later round plays ``games`` games in which every move is chosen by iterative deepening
    within ``nodes`` nodes over the last fit (with ``explore`` of the moves then replaced by a random one), and
    fits every position's row, for the player to move, to the search's value there -- the best root value,
    clipped to the returns' range (a won or lost game found by the search reads as its return) -- mixed with the
    game's outcome by ``mix`` (0: the search's value alone; 1: the outcome alone), and for the other player of a
    two-player game to the negative of that. This is TD-Leaf's fixed point reached by refitting (Baxter, Tridgell
    and Weaver's KnightCap; RootStrap in Veness et al., "Bootstrapping from Game Tree Search"): the evaluation is
    fitted to the values of the search that reads it, at positions of every kind that search meets, whoever is to
    move there. Scaled to a root mean square of 1, as ``fit_outcomes``.

    With ``seconds`` each round's games stop when the round has used its share of that time (a slow game fits on
    fewer games rather than overrunning a run's budget; the games played are the first ones of the same seeded
    sequence); without, every round plays all its ``games`` and the fit reproduces exactly from ``seed``.
    """
    import time

    began = time.perf_counter()
    from evoplay.search.minimax import Budget
    from evoplay.agents.feature_player import SEARCH_DEPTH_LIMIT, linear_agent

    rng = np.random.default_rng(seed)
    rows, targets = play_round(game, view, None, start_games, explore, rng)
    if len(targets) == 0 or np.ptp(targets) == 0:
        return np.zeros(len(view))
    weights = ridge(rows, targets)
    two = game.num_players == 2
    data: list[tuple[np.ndarray, np.ndarray]] = []
    for r in range(max(0, rounds)):
        round_ends = None if seconds is None else began + seconds * (r + 1) / max(1, rounds)
        # one player a seat: a transposition table holds values from its own player's side
        agents = [linear_agent(game, weights, "search", SEARCH_DEPTH_LIMIT, view=view, budget=Budget(nodes=nodes))
                  for _ in range(game.num_players)]
        round_rows, round_targets = [], []
        for _ in range(games):
            if round_ends is not None and round_rows and time.perf_counter() > round_ends:
                break
            game_seed = int(rng.integers(1 << 31))
            try:
                final, seen = _searched_game(game, agents, explore, rng, game_seed)
            except GameError as err:
                raise in_game(err, game.spec, game_seed, None) from None
            if not final.is_terminal():
                continue
            outcome = final.returns()
            for position, mover, value in seen:
                for p in range(game.num_players):
                    if p != mover and not two:
                        continue
                    searched = value if p == mover else -value
                    round_rows.append(view.row(position, p))
                    round_targets.append((1.0 - mix) * searched + mix * float(outcome[p]))
        data.append((np.array(round_rows, dtype=np.float64).reshape(-1, len(view)),
                     np.array(round_targets, dtype=np.float64)))
        rows = np.concatenate([r for r, _ in data[-2:]])
        targets = np.concatenate([t for _, t in data[-2:]])
        if len(targets) and np.ptp(targets) > 0:
            weights = ridge(rows, targets)
    rms = float(np.sqrt(np.mean(weights ** 2)))
    return weights / rms if rms > 0 else weights


def _searched_game(game, agents, explore: float, rng: np.random.Generator, seed: int, max_moves: int = 10_000):
    """One game of ``fit_search``: the final state and (position, mover, the search's value clipped to -1..1) for
    every position a player was to move in."""
    state = play_state(game.new_initial_state(seed), agents)
    for seat, agent in enumerate(agents):
        agent.restart(seed + seat, seat)  # empty tables: a game's values do not depend on the one before
    seen = []
    for _ in range(max_moves):
        mover = state.current_player()
        if mover == TERMINAL:
            break
        if mover < 0:  # a chance node or a simultaneous move (TERMINAL ended the game above)
            if mover == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_actions(random_joint(state, game.num_players, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            actions, values = agents[mover].root_values(state, mover, legal)
            best = int(np.argmax(values))
            seen.append((state.clone(), mover, float(np.clip(values[best], -1.0, 1.0))))
            action = int(actions[best])
            if rng.random() < explore:
                action = int(legal[int(rng.integers(len(legal)))])
        else:
            action = int(legal[0])
        state.apply_action(action)
    return state, seen
