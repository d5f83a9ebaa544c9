"""One seeded game played to its end through the State, its decisions handed to the caller: the random-game driver.

``playout`` plays the game of a seed from ``new_initial_state(seed)`` (on the game's kernels where it gives them,
as the arena's games are played): a chance node by its probabilities (``sample_chance``), a simultaneous node by
every player's uniformly random legal action (``random_joint``), and a turn-based node by ``choose`` (uniformly
random unless the caller gives a chooser). Before a decision is played, ``record(state, mover, move)`` sees the
position (the caller clones what it keeps). All randomness comes from the caller's generator, in the order above,
so a caller's games reproduce from its seed: the positions whose features give a run's feature scales
(``agents/feature_view.py``'s ``decisions``) and the warm start's games (``evolve/warm_start.py``) are played here.

A hook that raises a GameError is named with the game, the seed and the move (``games.tools.guard.in_game``), and so is
a game that never ends when the caller gives ``never_ends`` (else the game stops quietly at ``max_moves``).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from evoplay.errors import GameError
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, sample_chance
from evoplay.games.tools.guard import in_game
from evoplay.games.kernels import play_state


def uniform_move(state, mover: int, legal, rng: np.random.Generator) -> int:
    """One of the ``legal`` actions, uniformly at random (``playout``'s chooser unless told otherwise)."""
    return int(legal[int(rng.integers(len(legal)))])


def random_joint(state, num_players: int, rng: np.random.Generator) -> list[int]:
    """The joint action of a simultaneous node: every player's uniformly random legal action, player by player (0
    for a player with none)."""
    joint = []
    for p in range(num_players):
        legal = state.legal_actions(p)
        joint.append(int(legal[int(rng.integers(len(legal)))]) if len(legal) else 0)
    return joint


def playout(game, seed: int, rng: np.random.Generator, max_moves: int,
            record: Callable[[object, int, int], None],
            choose: Callable[[object, int, list, np.random.Generator], int] = uniform_move,
            never_ends: Callable[[int], GameError] | None = None):
    """Play the game of ``seed`` to its end (see the module docstring): (the final state, the moves played).

    At a simultaneous node the joint action is drawn before ``record`` sees the position (a caller may then draw
    whose view it keeps); at a turn-based node ``record`` comes first and ``choose(state, mover, legal, rng)``
    picks the mover's action. A game still running after ``max_moves`` moves raises ``never_ends(max_moves)``
    when given, else stops there."""
    move = 0
    try:
        state = play_state(game.new_initial_state(seed), ())
        for move in range(max_moves):
            mover = state.current_player()
            if mover == TERMINAL:
                return state, move
            if mover == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif mover == SIMULTANEOUS:
                joint = random_joint(state, game.num_players, rng)
                record(state, mover, move)
                state.apply_actions(joint)
            else:
                record(state, mover, move)
                state.apply_action(choose(state, mover, state.legal_actions(), rng))
        move = max_moves
        if never_ends is not None:
            raise never_ends(max_moves)
    except GameError as err:
        raise in_game(err, game.spec, seed, move) from None
    return state, move
