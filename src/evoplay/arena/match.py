"""One game between seated agents, and the seed derivation that makes every game reproducible anywhere."""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from evoplay.errors import IllegalActionError
from evoplay.games.base import SIMULTANEOUS, TERMINAL, Game


def derive_seed(*keys: int) -> int:
    """A 32-bit seed from integer keys (run seed, generation, pairing, game...) via numpy's SeedSequence.

    The same keys give the same seed on every machine, executor and worker count.
    """
    if not keys:
        raise ValueError("derive_seed needs at least one key")
    ss = np.random.SeedSequence(entropy=int(keys[0]) & 0xFFFFFFFFFFFFFFFF, spawn_key=tuple(int(k) for k in keys[1:]))
    return int(ss.generate_state(1, np.uint32)[0])


@dataclass
class GameRecord:
    """What one game produced: who sat where, the returns and scores per seat, its length and seed."""

    seats: tuple[int, ...]  # agent index in the tournament for each seat
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    moves: int
    seed: int

    def to_dict(self) -> dict:
        return asdict(self)


def play_game(game: Game, agents, seed: int, max_moves: int = 100_000):
    """Play one game; ``agents[p]`` moves for seat p. Each agent is restarted with a seed derived from ``seed``.

    Returns the final state. An agent that answers with an illegal action raises IllegalActionError naming it.
    """
    state = game.new_initial_state(seed)
    for seat, agent in enumerate(agents):
        agent.restart(derive_seed(seed, seat + 1), seat)
    moves = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state
        if moves >= max_moves:
            raise RuntimeError(f"game {game.spec} did not end within {max_moves} moves")
        if player == SIMULTANEOUS:
            joint = [agent.step(state) for agent in agents]
            state.apply_actions(joint)
        else:
            action = agents[player].step(state)
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                raise IllegalActionError(f"agent {agents[player].name} in seat {player}: {err}") from None
        moves += 1


def play_record(game: Game, agents, seats: tuple[int, ...], seed: int) -> GameRecord:
    """Play one game with ``agents[seats[p]]`` in seat p and return its record."""
    state = play_game(game, [agents[i] for i in seats], seed)
    moves = len(getattr(state, "history", ())) or 0
    return GameRecord(tuple(seats), tuple(state.returns()), tuple(state.scores()), moves, seed)
