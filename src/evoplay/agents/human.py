"""``human``: a person at the terminal; shows the board and re-prompts on an illegal or unreadable move."""
from __future__ import annotations

import sys
from typing import TextIO

from evoplay.agents.base import Agent
from evoplay.errors import EvoplayError, IllegalActionError


class HumanQuit(EvoplayError):
    """The person typed 'quit' or closed the input."""


class HumanAgent(Agent):
    spec = "human"

    def __init__(self, game, stdin: TextIO | None = None, stdout: TextIO | None = None):
        super().__init__(game)
        self._in = stdin
        self._out = stdout

    def __getstate__(self):
        raise TypeError("a human agent plays in this terminal only; it cannot be sent to a worker process")

    def step(self, state) -> int:
        out = self._out or sys.stdout
        inp = self._in or sys.stdin
        legal = state.legal_actions()
        print(f"\n{state}", file=out)
        moves = " ".join(state.action_to_string(a) for a in legal)
        while True:
            print(f"your move ({moves}; 'quit' to stop): ", end="", file=out, flush=True)
            line = inp.readline()
            if not line:
                raise HumanQuit("input closed; the game was stopped")
            text = line.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise HumanQuit("you stopped the game")
            if not text:
                continue
            try:
                action = state.string_to_action(text)
            except IllegalActionError as err:
                print(f"  {err}", file=out)
                continue
            if action not in legal:
                print(f"  {text} is not a legal move here; legal: {moves}", file=out)
                continue
            return action
