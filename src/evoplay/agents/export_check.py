"""An exported player beside the agent it was exported from: both choose at the same positions of seeded games and
the share of equal moves is counted (``evoplay export RUN --check``).

The agent plays one seat of each game and the other seats move uniformly at random (chance outcomes drawn with
their probabilities), all from one seeded generator, so the positions are the same every time. At each position
where its seat has two or more actions, the agent and the exported player both choose; the agent's choice is
played on. Both are restarted with the same seed and seat before each game, so an exported player that draws its
ties (or its samples) with a generator seeded like the agent's draws the same numbers, and one that keeps a
transposition table from move to move keeps the same table. The seat goes round the table from game to game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from evoplay.games.base import sample_chance


class Exported(Protocol):
    """An exported player as the check drives it. ``restart`` starts a game (its seed, its seat, the game's first
    state); ``play`` and ``play_joint`` tell it each action (a chance outcome included) and joint action played, so
    it can follow the game in its own form of the state; ``choose`` is its move at evoplay's ``state``."""

    def restart(self, seed: int, seat: int, state) -> None: ...

    def play(self, action: int) -> None: ...

    def play_joint(self, joint: list[int]) -> None: ...

    def choose(self, state) -> int: ...


@dataclass
class Result:
    """What one check found: ``equal`` of ``positions`` moves the same, the first that differed (or '')."""

    label: str
    positions: int
    equal: int
    first_difference: str = ""

    @property
    def share(self) -> float:
        return self.equal / self.positions if self.positions else 1.0

    def line(self) -> str:
        text = (f"{self.label}: {self.equal} of {self.positions} moves equal to the agent's "
                f"({100 * self.share:.1f} %)")
        return text + (f"; the first that differs: {self.first_difference}" if self.first_difference else "")


def side_by_side(game, agent, exported: Exported, label: str, positions: int = 1000, seed: int = 0,
                 max_moves: int = 5000) -> Result:
    """``agent`` and ``exported`` choosing at ``positions`` positions of seeded games of ``game`` (see the module
    docstring)."""
    rng = np.random.default_rng(seed)
    counted = equal = 0
    first = ""
    number = 0
    while counted < positions:
        game_seed = int(rng.integers(1 << 31))
        seat = number % game.num_players
        number += 1
        state = game.new_initial_state(game_seed)
        agent.restart(game_seed, seat)
        exported.restart(game_seed, seat, state.clone())
        for move in range(max_moves):
            if state.is_terminal() or counted >= positions:
                break
            if state.is_chance_node():
                action = sample_chance(state, rng)
                state.apply_action(action)
                exported.play(action)
                continue
            simultaneous = state.is_simultaneous_node()
            mover = seat if simultaneous else state.current_player()
            legal = state.legal_actions(mover) if simultaneous else state.legal_actions()
            chosen = None
            if mover == seat and len(legal) >= 2:
                ours, theirs = int(agent.step(state)), int(exported.choose(state))
                counted += 1
                if ours == theirs:
                    equal += 1
                elif not first:
                    first = (f"game seed {game_seed}, seat {seat}, move {move}: the agent plays "
                             f"{state.action_to_string(ours, seat)}, the export {_written(state, theirs, seat)}")
                chosen = ours
            elif mover == seat and legal:
                chosen = int(legal[0])
            if simultaneous:
                joint = []
                for p in range(game.num_players):
                    own = state.legal_actions(p)
                    joint.append(chosen if p == seat and chosen is not None
                                 else int(own[int(rng.integers(len(own)))]) if own else 0)
                state.apply_actions(joint)
                exported.play_joint(joint)
            else:
                action = chosen if chosen is not None else int(legal[int(rng.integers(len(legal)))])
                state.apply_action(action)
                exported.play(action)
    return Result(label, counted, equal, first)


def _written(state, action: int, player: int) -> str:
    """An action as the game writes it, or the number an exported player gave when it is no action there."""
    try:
        return state.action_to_string(action, player)
    except Exception:  # noqa: BLE001 - an export's answer may be no action at all
        return f"{action} (not an action there)"


class Follower:
    """An exported player that reads evoplay's state itself (``choose(state)``): nothing to follow."""

    def __init__(self, choose, restart=None):
        self._choose = choose
        self._restart = restart

    def restart(self, seed: int, seat: int, state) -> None:
        if self._restart is not None:
            self._restart(seed, seat)

    def play(self, action: int) -> None:
        pass

    def play_joint(self, joint: list[int]) -> None:
        pass

    def choose(self, state) -> int:
        return self._choose(state)


class ModulePlayer:
    """An exported Python player file (``evoplay.agents.feature_export``) as the check drives it: its ``Player``
    with the given budget (of ``level``, in a file of levels), on its own ``GAME``'s states, which follow evoplay's
    action by action."""

    def __init__(self, module, ms: float = -1, nodes: int = -1, level: str | None = None):
        self.module = module
        self.player = module.Player(0, ms, nodes) if level is None else module.Player(0, ms, nodes, level=level)
        self.state = None

    def restart(self, seed: int, seat: int, state) -> None:
        self.player.restart(seed, seat)
        self.state = self.module.GAME.new_initial_state(seed)

    def play(self, action: int) -> None:
        self.state.apply_action(action)

    def play_joint(self, joint: list[int]) -> None:
        self.state.apply_actions(joint)

    def choose(self, state) -> int:
        return self.player.choose(self.state)
