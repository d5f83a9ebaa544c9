"""Long Numba searches that Ctrl-C can stop: the kernel runs (without the GIL) in a helper thread while the
calling thread waits in short slices, so a KeyboardInterrupt reaches Python within a twentieth of a second.

A Numba kernel called directly holds the interpreter until it returns: a signal is only handled afterwards, and a
deep alpha-beta can take hours. Calls expected to be short run directly (a thread costs about 0.1 ms); the
searches call ``run_interruptibly`` above a depth where one call takes a tenth of a second or more. After an
interrupt the abandoned kernel finishes in its daemon thread (a kernel cannot be killed) and its result is
dropped; the command line exits at once, which ends it.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

POLL_SECONDS = 0.05


def run_interruptibly(kernel: Callable[..., Any], *args: Any) -> Any:
    """``kernel(*args)``, with Ctrl-C handled while it runs (``kernel`` must be compiled with ``nogil=True``).
    Off the main thread (where no signal is delivered) it is a plain call."""
    if threading.current_thread() is not threading.main_thread():
        return kernel(*args)
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = kernel(*args)
        except BaseException as err:  # handed to the caller
            box["error"] = err

    thread = threading.Thread(target=work, name="evoplay-search", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(POLL_SECONDS)
    if "error" in box:
        raise box["error"]
    return box["result"]
