"""evoplay: evolve game-playing AI with genetic programs and genetic algorithms over fast Numba game engines."""
from evoplay import numba_cache

numba_cache.configure()  # before any kernel is defined: a cache folder per source version (see numba_cache)

from evoplay.agents import make_agent, register_agent  # noqa: E402
from evoplay.errors import EvoplayError, IllegalActionError, SpecError
from evoplay.games import load_game, register_game

__version__ = "0.1.0"
__all__ = [
    "EvoplayError",
    "IllegalActionError",
    "SpecError",
    "load_game",
    "make_agent",
    "register_agent",
    "register_game",
]
