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
        # At a simultaneous move this seat's own actions; a game that hides things renders only this seat's view.
        me = self.seat if state.is_simultaneous_node() else None
        legal = state.legal_actions(me)
        shown = state.render(self.seat) if hasattr(state, "render") else str(state)
        print(f"\n{shown}", file=out)
        written = [state.action_to_string(a, me) for a in legal]
        if any(" " in w for w in written):  # hard to type (OpenSpiel's "[P0]Bid: 1"): offer the numbers
            moves = ", ".join(f"{a} = {w}" for a, w in zip(legal, written))
        else:
            moves = " ".join(written)
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
                action = state.string_to_action(text, me)
            except IllegalActionError as err:
                if not (text.isascii() and text.isdigit() and int(text) in legal):  # an action's number also does
                    print(f"  {err}", file=out)
                    continue
                action = int(text)
            if action not in legal:
                print(f"  {text} is not a legal move here; legal: {moves}", file=out)
                continue
            return action
