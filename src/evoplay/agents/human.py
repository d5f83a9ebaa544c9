"""``human``: a person at the terminal; shows the board, re-prompts on an illegal or unreadable move, and
(``Announcer``) tells the person every move the computer makes."""
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
            if not state.is_simultaneous_node() and moves_again(state, action):
                print("an extra turn: you move again", file=out)
            return action


def moves_again(state, action: int) -> bool:
    """True if the mover of a turn-based ``state`` moves again after ``action`` (Kalah's extra turn)."""
    mover = state.current_player()
    after = state.clone()
    after.apply_action(action)
    return not after.is_terminal() and after.current_player() == mover


def describe_move(state, action: int, who: str) -> str:
    """One line for a move about to be made: 'alphabeta(depth=4) plays pit 3 (extra turn)'."""
    if state.is_simultaneous_node():
        return f"{who} plays {state.action_to_string(action, state.current_player())}"
    word = getattr(state.game, "move_word", "")  # Game.move_word: "pit " where actions are bare pit numbers
    extra = " (extra turn)" if moves_again(state, action) else ""
    return f"{who} plays {word}{state.action_to_string(action)}{extra}"


class Announcer(Agent):
    """Wraps a computer's seat so the person at the terminal sees every move it makes, extra turns included."""

    def __init__(self, inner: Agent, say):
        super().__init__(inner.game)
        self.inner = inner
        self.say = say
        self.spec = inner.spec

    @property
    def name(self) -> str:
        return self.inner.name

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self.inner.restart(seed, seat)

    def step(self, state) -> int:
        action = self.inner.step(state)
        self.say(describe_move(state, action, self.inner.name))
        return action
