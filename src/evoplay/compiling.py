"""Tells the person at the terminal when Numba is compiling kernels (first run only), with the time it has taken.

Numba compiles a kernel the first time a signature is used and keeps it in its on-disk cache; its
``numba:compile`` event fires only on such a cache miss, so the status shows on a fresh install (or after an
upgrade) and never once the cache is warm. ``watch_compiles(console)`` shows a spinner on stderr while a compile
runs; inside a progress bar (which is a live display already) ``CompileColumn`` shows the same note instead.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from rich.errors import LiveError
from rich.progress import ProgressColumn
from rich.text import Text

NOTE = "compiling kernels (first run only)"


class CompileState:
    """What the watch knows: since when this command has been compiling, and whether a compile runs now."""

    def __init__(self, clock=time.perf_counter):
        self.clock = clock
        self.first_start: float | None = None  # the first compile of this command
        self.depth = 0  # nested compiles (a kernel compiles the kernels it calls)
        self.compiles = 0  # top-level compiles seen
        self.in_progress_bar = 0  # > 0 while a progress bar (a live display) is on screen

    @property
    def active(self) -> bool:
        return self.depth > 0

    def elapsed(self) -> float:
        return 0.0 if self.first_start is None else self.clock() - self.first_start

    def note(self) -> str:
        """The line to show now ('' when nothing compiles)."""
        return f"{NOTE}: {self.elapsed():.0f} s" if self.active else ""

    def start(self) -> bool:
        """A compile starts; True if it is a top-level one (not a kernel compiled for its caller)."""
        self.depth += 1
        if self.depth > 1:
            return False
        self.compiles += 1
        if self.first_start is None:
            self.first_start = self.clock()
        return True

    def end(self) -> bool:
        """A compile ends; True when no compile runs any more."""
        self.depth = max(0, self.depth - 1)
        return self.depth == 0


STATE = CompileState()


class CompileColumn(ProgressColumn):
    """A progress-bar column showing 'compiling kernels (first run only): 12 s' while Numba compiles."""

    def render(self, task) -> Text:
        # Short: beside a bar on an 80-column terminal the long note would push the clock off the line.
        return Text(f"compiling (first run only) {STATE.elapsed():.0f} s" if STATE.active else "", style="yellow")


@contextmanager
def in_progress_bar():
    """Marks a progress bar on screen: the compile note goes to its CompileColumn, not to a spinner of its own."""
    STATE.in_progress_bar += 1
    try:
        yield
    finally:
        STATE.in_progress_bar -= 1


@contextmanager
def watch_compiles(console, state: CompileState | None = None):
    """While the block runs, every Numba compile (a cache miss) shows on ``console`` (when it is a terminal): a
    spinner with the elapsed time, or the note in the CompileColumn of a progress bar on screen."""
    from numba.core import event

    state = state or STATE
    state.first_start, state.depth, state.compiles = None, 0, 0
    status = None
    lock = threading.Lock()

    class Listener(event.Listener):
        def on_start(self, ev):
            nonlocal status
            with lock:
                if not state.start():
                    return
                if state.in_progress_bar:
                    return
                if not console.is_terminal:  # a log or a pipe: no spinner (and nothing mixed into the output)
                    return
                if status is None:
                    shown = console.status(Text(state.note()), spinner="dots")
                    try:
                        shown.start()
                    except LiveError:  # another live display (a progress bar of its own) is on screen
                        return
                    status = shown
                    _tick(status, state, lock, lambda shown=status: status is shown)

        def on_end(self, ev):
            nonlocal status
            with lock:
                if state.end() and status is not None:
                    status.stop()
                    status = None

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield state
    finally:
        event.unregister("numba:compile", listener)
        with lock:
            if status is not None:
                status.stop()
                status = None
            state.depth = 0


def _tick(status, state: CompileState, lock, current) -> None:
    """Refresh the spinner's elapsed seconds from a daemon thread while the compile holds the main thread."""

    def run():
        while True:
            time.sleep(0.25)
            with lock:
                if not (state.active and current()):
                    return
                status.update(Text(state.note()))

    threading.Thread(target=run, daemon=True).start()
