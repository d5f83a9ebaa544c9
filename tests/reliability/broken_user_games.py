"""A small take-away game as a user writes it, and copies of it that each break the way issue 24 found a user's game
breaking a run: a hook that raises, illegal or empty action lists, a player out of range, non-numeric or NaN
features, NaN returns, a raising constructor, a game that never ends, SystemExit or os._exit in a hook, a hook
that loops.

``write(folder, case)`` writes the case's game file; its game is ``FILE:Broken``. The good game is the case
``"fixed"`` (the same file, mended), so a run stopped by a broken game can be resumed once it is fixed.
"""
from __future__ import annotations

from pathlib import Path

GAME = '''
import numpy as np
from evoplay.games import Game, State
from evoplay.spec import Param


class Nim(Game):
    name = "nim"
    parameters = (Param("stones", int, 15, "stones at the start"),)
    hook_seconds = 1.0  # the tests' per-call time limit (the default is 10 s)
    max_moves = 300

    def new_initial_state(self, seed=None):
        return self.state_class(self, [self.params["stones"]], 0, seed or 0)

    def num_distinct_actions(self):
        return 3

    def feature_names(self):
        return ["stones", "mover"]


class NimState(State):
    def __init__(self, game, heap, player, seed, moves=0):
        self.game, self.heap, self.player, self.seed, self.moves = game, heap, player, seed, moves

    def current_player(self):
        return -4 if self.heap[0] <= 0 else self.player

    def _legal_actions(self):
        return [a for a in range(3) if a + 1 <= self.heap[0]]

    def _apply_action(self, action):
        self.heap[0] -= action + 1
        self.player = 1 - self.player
        self.moves += 1

    def _action_to_string(self, action):
        return f"take{action + 1}"

    def returns(self):
        if self.heap[0] > 0:
            return [0.0, 0.0]
        return [-1.0, 1.0] if self.player == 0 else [1.0, -1.0]

    def clone(self):
        return type(self)(self.game, list(self.heap), self.player, self.seed, self.moves)

    def features(self, player):
        return np.array([float(self.heap[0]), float(self.player == player)])


class BrokenState(NimState):
{body}


class Broken(Nim):
{game_body}
    state_class = BrokenState
'''

#: case -> (the broken State's body, the broken Game's body, words the run's error line holds)
CASES = {
    "raises": ("    def _apply_action(self, action):\n        if self.moves == 3:\n            raise ValueError('boom')\n"
               "        NimState._apply_action(self, action)", "", "BrokenState._apply_action raised ValueError: boom"),
    "illegal": ("    def _legal_actions(self):\n        return ['a', None] if self.moves == 2 else "
                "NimState._legal_actions(self)", "", "BrokenState._legal_actions returned 'a' among the legal actions"),
    "empty": ("    def _legal_actions(self):\n        return [] if self.moves == 2 else NimState._legal_actions(self)", "",
              "BrokenState._legal_actions returned no legal action while player 0 is to move"),
    "player": ("    def current_player(self):\n        return 7 if self.moves == 2 and self.heap[0] > 0 else "
               "NimState.current_player(self)", "", "BrokenState.current_player returned 7"),
    "text-features": ("    def features(self, player):\n        return ['x', 'y'] if self.moves >= 2 else "
                      "NimState.features(self, player)", "", "BrokenState.features returned ['x', 'y'], not numbers"),
    "nan-features": ("    def features(self, player):\n        return np.array([np.nan, np.inf]) if self.moves >= 2 else "
                     "NimState.features(self, player)", "", "features must be finite numbers"),
    "nan-returns": ("    def returns(self):\n        return [float('nan'), 0.0] if self.heap[0] <= 0 else [0.0, 0.0]", "",
                    "BrokenState.returns returned [nan, 0.0]"),
    "constructor": ("    pass", "    def __init__(self, spec, params):\n        raise RuntimeError('no')\n",
                    "Broken(spec, params) raised RuntimeError: no"),
    "endless": ("    def _apply_action(self, action):\n        self.player = 1 - self.player\n        self.moves += 1", "",
                "the game did not end within 300 moves"),
    "exit": ("    def _apply_action(self, action):\n        if self.moves == 3:\n            raise SystemExit(4)\n"
             "        NimState._apply_action(self, action)", "", "BrokenState._apply_action raised SystemExit: 4"),
    "os-exit": ("    def _apply_action(self, action):\n        if self.moves == 3:\n            import os\n"
                "            os._exit(3)\n        NimState._apply_action(self, action)", "",
                "BrokenState._apply_action called os._exit(3)"),
    "loops": ("    def _apply_action(self, action):\n        while self.moves == 3:\n            pass\n"
              "        NimState._apply_action(self, action)", "",
              "BrokenState._apply_action ran past its time limit of 1 s"),
    "fixed": ("    pass", "", ""),
}


def write(folder: Path, case: str) -> str:
    """Write ``case``'s game to ``folder/nim_game.py``; returns its spec."""
    body, game_body, _ = CASES[case]
    path = Path(folder) / "nim_game.py"
    path.write_text(GAME.replace("{body}", body).replace("{game_body}", game_body), encoding="utf-8")
    return f"{path}:Broken"
