"""Long Numba searches that Ctrl-C and a deadline can stop: the kernel runs (without the GIL) in a helper thread
while the calling thread waits in short slices, so a KeyboardInterrupt reaches Python within a twentieth of a
second, and a deadline that passes cuts the kernel's node budget.

A Numba kernel called directly holds the interpreter until it returns: a signal is only handled afterwards, and a
deep alpha-beta can take hours. Calls expected to be short run directly (a thread costs about 0.1 ms); the
searches call ``run_interruptibly`` above a depth where one call takes a tenth of a second or more. After an
interrupt the abandoned kernel finishes in its daemon thread (a kernel cannot be killed) and its result is
dropped; the command line exits at once, which ends it. A search with a node budget (``nodes`` = [count, budget],
read by the kernel at every node) is stopped instead: ``run_until`` sets the budget to 0.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

import numpy as np

POLL_SECONDS = 0.05
DEADLINE_POLL_SECONDS = 0.01  # how often ``run_until`` looks at the deadline
NO_BUDGET = (1 << 63) - 1  # the node budget of a search that is never cut off


def _start(kernel: Callable[..., Any], args: tuple) -> tuple[threading.Thread, dict]:
    """``kernel(*args)`` in a daemon helper thread; its result or error lands in the returned box."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = kernel(*args)
        except BaseException as err:  # handed to the caller
            box["error"] = err

    thread = threading.Thread(target=work, name="evoplay-search", daemon=True)
    thread.start()
    return thread, box


def _result(box: dict) -> Any:
    if "error" in box:
        raise box["error"]
    return box["result"]


def run_interruptibly(kernel: Callable[..., Any], *args: Any) -> Any:
    """``kernel(*args)``, with Ctrl-C handled while it runs (``kernel`` must be compiled with ``nogil=True``).
    Off the main thread (where no signal is delivered) it is a plain call."""
    if threading.current_thread() is not threading.main_thread():
        return kernel(*args)
    thread, box = _start(kernel, args)
    while thread.is_alive():
        thread.join(POLL_SECONDS)
    return _result(box)


def run_until(kernel: Callable[..., Any], args: tuple, nodes, deadline: Callable[[], float | None]) -> Any:
    """``kernel(*args)`` (compiled ``nogil``; ``nodes`` is its int64 [count, budget], among ``args``) in a helper
    thread while this thread looks at ``deadline()`` (a ``time.perf_counter()`` value, or None) every
    DEADLINE_POLL_SECONDS: once it has passed, ``nodes[1] = 0`` cuts the kernel off at its next node. The deadline
    is read afresh each time, so moving it earlier (``Agent.deadline``, from any thread) stops the search at once;
    Ctrl-C on the main thread cuts it off too, and is raised."""
    thread, box = _start(kernel, args)
    try:
        while thread.is_alive():
            thread.join(DEADLINE_POLL_SECONDS)
            due = deadline()
            if due is not None and time.perf_counter() >= due and thread.is_alive():
                nodes[1] = 0
    except BaseException:  # Ctrl-C: the search stops at its next node rather than running on in its thread
        nodes[1] = 0
        raise
    return _result(box)


def run_search(plain: Callable[..., Any], within: Callable[..., Any], args: tuple, long: bool, nodes=None,
               deadline: Callable[[], float | None] | None = None) -> Any:
    """A search kernel's call, as a game's ``search`` makes it: ``plain(*args)`` without a node array or a
    deadline, else ``within(*args, nodes)`` (``nodes`` = [count, budget], made unlimited when not given) cut off
    by the budget, and by ``deadline`` through ``run_until`` when given. ``long``: a search expected to take a
    tenth of a second or more, run where Ctrl-C can stop it."""
    if nodes is None and deadline is None:
        return run_interruptibly(plain, *args) if long else plain(*args)
    if nodes is None:
        nodes = np.array([0, NO_BUDGET], np.int64)
    if deadline is not None:
        return run_until(within, (*args, nodes), nodes, deadline)
    return run_interruptibly(within, *args, nodes) if long else within(*args, nodes)
