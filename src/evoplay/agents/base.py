"""The agent interface, ``evoplay.games.agent.Agent`` (it lives with the game API, so a game's own players can
subclass it): ``restart(seed)`` before each game, ``step(state) -> action`` at each move."""
from evoplay.games.agent import Agent

__all__ = ["Agent"]
