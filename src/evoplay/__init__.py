"""evoplay: evolve game-playing AI with genetic programs and genetic algorithms over fast Numba game engines."""
from evoplay.agents import make_agent, register_agent
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
