"""A person playing a simultaneous-move game (tron, gems) in real time: keys read without blocking, one tick each.

Every tick the board is redrawn, the computer decides (within its budget), and the last key the person pressed
during the tick is their action: arrows or WASD move, space or '.' is NIL (keep going in tron, stay in gems),
'q' or Esc stops. With no key pressed the person plays NIL. The terminal is put in cbreak mode (keys arrive at
once, unechoed) and restored afterwards, also on Ctrl-C.
"""
from __future__ import annotations

import copy
import os
import select
import sys
import time
from typing import Callable, TextIO

from evoplay.agents.human import HumanQuit
from evoplay.seeds import derive_seed
from evoplay.errors import SpecError

UP, DOWN, LEFT, RIGHT, NIL = 0, 1, 2, 3, 4  # the action numbers of tron and gems
KEY_ACTIONS = {"up": UP, "down": DOWN, "left": LEFT, "right": RIGHT, "w": UP, "s": DOWN, "a": LEFT, "d": RIGHT,
               "k": UP, "j": DOWN, "h": LEFT, "l": RIGHT, " ": NIL, ".": NIL}
_ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}
_COLOURS = {"A": "\x1b[1;36m", "a": "\x1b[36m", "B": "\x1b[1;35m", "b": "\x1b[35m", "#": "\x1b[2m",
            "*": "\x1b[1;33m"}
_RESET = "\x1b[0m"


def parse_keys(data: str) -> list[str]:
    """Key names in typed text: 'up'/'down'/'left'/'right' for arrow escape sequences (CSI and SS3 forms),
    'quit' for q, Esc alone or Ctrl-C, otherwise the lower-case character."""
    keys, i = [], 0
    while i < len(data):
        ch = data[i]
        if ch == "\x1b":
            if i + 2 < len(data) and data[i + 1] in "[O" and data[i + 2] in _ARROWS:
                keys.append(_ARROWS[data[i + 2]])
                i += 3
                continue
            keys.append("quit")
        elif ch in ("q", "Q", "\x03"):
            keys.append("quit")
        else:
            keys.append(ch.lower())
        i += 1
    return keys


class KeyReader:
    """Keys from a terminal without blocking: ``read(timeout)`` returns the key names typed within ``timeout``."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream or sys.stdin
        self._fd = self.stream.fileno()
        self._saved = None

    def __enter__(self):
        if os.isatty(self._fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(self._fd)
            tty.setcbreak(self._fd)
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            import termios

            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read(self, timeout: float) -> list[str]:
        ready, _, _ = select.select([self._fd], [], [], max(0.0, timeout))
        if not ready:
            return []
        data = os.read(self._fd, 1024)
        if not data:
            return ["quit"]
        return parse_keys(data.decode("utf-8", "replace"))


def render(state, you: int, bot_name: str, colour: bool = True) -> str:
    """The board with the players coloured, and a status line."""
    rows = state.rows() if hasattr(state, "rows") else str(state).splitlines()
    if colour:
        rows = ["".join(f"{_COLOURS[c]}{c}{_RESET}" if c in _COLOURS else c for c in row) for row in rows]
    mark = "AB"[you]
    status = str(state).splitlines()[-1]
    return "\n".join(rows + [status, f"you are {mark} (arrows/WASD, space = nil, q = quit) vs {bot_name}"])


def play_realtime(game, bot, you: int, seed: int, tick_ms: float, keys: Callable[[float], list[str]],
                  out: TextIO | None = None, colour: bool = True, countdown: int = 3):
    """Play a simultaneous-move ``game``: the person in seat ``you`` (keys from ``keys(timeout)``), ``bot`` in the
    other; one joint action every ``tick_ms`` milliseconds (longer if the bot's decision takes longer).
    The board is shown for ``countdown`` seconds first (3, 2, 1) so the person can find their mark; a direction
    typed then is their first move. Returns the final state; raises HumanQuit if the person stops."""
    if tick_ms <= 0:
        raise SpecError(f"--tick-ms {tick_ms}: the tick period must be positive (e.g. 150)")
    out = out or sys.stdout
    state = game.new_initial_state(seed)
    seat = 1 - you
    bot.restart(derive_seed(seed, seat + 1), seat)
    clear = "\x1b[H\x1b[2J" if colour else "\n"
    # The bot's first decision compiles its kernels on a first run: done now on a copy (the game's own bot keeps
    # its random stream), so no tick waits for a compile.
    warm = copy.deepcopy(bot)
    warm.restart(0, seat)
    warm.step(state.clone())
    action = NIL
    for left in range(countdown, 0, -1):
        out.write(clear + render(state, you, bot.name, colour) + f"\nstarting in {left}...\n")
        out.flush()
        action = _read_until(time.perf_counter() + 1.0, keys, action)
    while not state.is_terminal():
        tick_end = time.perf_counter() + tick_ms / 1000.0
        out.write(clear + render(state, you, bot.name, colour) + "\n")
        out.flush()
        bot_action = bot.step(state)
        action = _read_until(tick_end, keys, action)
        joint = [action, bot_action] if you == 0 else [bot_action, action]
        state.apply_actions(joint)
        action = NIL
    out.write(clear + render(state, you, bot.name, colour) + "\n")
    out.flush()
    return state


def _read_until(deadline: float, keys: Callable[[float], list[str]], action: int) -> int:
    """The person's action at ``deadline``: the last direction key typed before it (else ``action``)."""
    while True:
        for key in keys(max(0.0, deadline - time.perf_counter())):
            if key == "quit":
                raise HumanQuit("you stopped the game")
            if key in KEY_ACTIONS:
                action = KEY_ACTIONS[key]
        if time.perf_counter() >= deadline:
            return action
