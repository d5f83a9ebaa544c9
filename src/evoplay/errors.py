"""The exceptions evoplay raises for a user's mistakes, each with a message that says what would be right, and its
warnings."""
import sys


class EvoplayError(Exception):
    """Base class of every error evoplay reports to a user."""


class SpecError(EvoplayError, ValueError):
    """A game or agent spec string, parameter or config value is malformed or unknown."""


class IllegalActionError(EvoplayError, ValueError):
    """An action that is not legal in the state it was applied to."""


class ConfigError(EvoplayError, ValueError):
    """A recipe config (TOML) is malformed or has a value out of range."""


class CheckpointError(EvoplayError):
    """A run folder or checkpoint is missing, corrupt or from an incompatible version."""


class OutsideRunsError(SpecError):
    """A file named where names are confined to one folder (``evoplay serve``'s ``--runs``) that would lie outside
    it: an absolute path elsewhere, a ``..`` part, a ``~``, or a symlink that leads out."""


class GameError(EvoplayError):
    """A game broke a promise of the game API while it was played: a hook raised, ran past its time limit, or
    returned something no game may (no legal action where a player moves, a player out of range, NaN)."""


def warn(message: str) -> None:
    """Print ``message`` as a warning on stderr (nothing for an empty one): what is allowed but may surprise, such
    as a player evolved under other rules."""
    if message:
        print(f"warning: {message}", file=sys.stderr)



class TimeBudgetSpent(EvoplayError):
    """A command's time budget (``--minutes``) ran out while games were being played: the games in hand were
    stopped (evoplay.arena.tournament.games_until). The caller that set the budget catches it."""
