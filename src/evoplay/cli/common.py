"""What the ``evoplay`` commands share: the group ``main`` with its error handling, the consoles, the executor
options."""
from __future__ import annotations

import os
import sys

import click
from rich.console import Console
from rich.markup import escape

from evoplay.compiling import watch_compiles
from evoplay.errors import ConfigError, EvoplayError, GameError, SpecError

#: the width of output that goes to a pipe or a file when COLUMNS does not say one
PIPED_WIDTH = 100


def console_width(isatty: bool, environ=os.environ) -> int | None:
    """Columns to print in: a terminal's own width (None: rich asks the terminal, or COLUMNS when set); outside a
    terminal (pipes, files, CI) COLUMNS when set, else PIPED_WIDTH: room for tables, a width a reader's screen
    holds."""
    if isatty:
        return None
    columns = environ.get("COLUMNS", "").strip()
    return int(columns) if columns.isdigit() and int(columns) > 0 else PIPED_WIDTH


console = Console(stderr=True, width=console_width(sys.stderr.isatty()))
out = Console(width=console_width(sys.stdout.isatty()))


#: the commands that write a run folder, which a Ctrl-C leaves resumable
RUN_COMMANDS = ("evolve", "resume")
#: the run folder the running command writes, once it exists (set by the run commands: a Ctrl-C names it)
RUNNING: dict = {"folder": None}


def _plain_on_any_console() -> None:
    """Characters the terminal's encoding lacks (a folder named "rün" under PYTHONIOENCODING=ascii) print as
    escapes, never as a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):  # not a text stream of io's, or already in use
            pass


class _Group(click.Group):
    """Turns evoplay's errors into one clear line: exit 2 for bad input (specs, configs, a user's game that
    breaks), 1 for the rest."""

    def invoke(self, ctx):
        _plain_on_any_console()
        RUNNING["folder"] = None
        try:
            with watch_compiles(console):  # a first run's Numba compiles show as a status, never a silent wait
                return super().invoke(ctx)
        except (SpecError, ConfigError, GameError) as err:
            print_error(err)
            sys.exit(2)
        except EvoplayError as err:
            print_error(err)
            sys.exit(1)
        except OSError as err:  # a file the user named, a read-only folder, a full disk: the path and the cause
            where = f"{err.filename}: " if getattr(err, "filename", None) else ""
            print_error(f"{where}{err.strerror or err}")
            sys.exit(2)
        except KeyboardInterrupt:
            folder = RUNNING["folder"]
            if folder is not None:
                print_error(f"interrupted (the run continues from its last checkpoint with: evoplay resume {folder})")
            elif ctx.invoked_subcommand == "evolve":
                print_error("interrupted before the run folder was made; nothing to resume (run the command again)")
            elif ctx.invoked_subcommand in RUN_COMMANDS:
                print_error("interrupted (the run continues from its last checkpoint with: evoplay resume DIR)")
            else:
                print_error("interrupted")
            sys.exit(130)


def print_error(err: BaseException) -> None:
    """One line on stderr; the message is escaped so text in [brackets] (an extra, a range) prints whole."""
    console.print(f"[bold red]error:[/] {escape(str(err))}", highlight=False, soft_wrap=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="evoplay")
def main():
    """evoplay: evolve game-playing AI, play against it, and measure it."""


def _game(spec: str):
    from evoplay.games import load_game

    return load_game(spec)


def executor_options(fn):
    """The --workers, --backend and --address options of the commands that play many games."""
    fn = click.option("--workers", type=int, default=None, help="worker processes (default: all cores)")(fn)
    fn = click.option("--backend", default="process", show_default=True, help="serial, process or ray")(fn)
    fn = click.option("--address", default=None, help="address of an existing Ray cluster (with --backend ray)")(fn)
    return fn
