"""The ``evoplay`` command line: a thin layer that parses arguments and calls the library.

``main`` is the entry point; ``common`` holds the group, its error handling and what the commands share; the
commands are in ``games`` (listing, playing, matches), ``runs`` (evolution runs, the web app) and ``tools``
(benchmarks, the target-number game, the Sevens ladder).
"""
from __future__ import annotations

from evoplay.cli.common import _game, console, executor_options, main, out, print_error  # noqa: F401

# The commands register themselves on ``main`` when their modules are read.
from evoplay.cli import games, runs, tools  # noqa: E402, F401
