"""The agent interface: ``restart(seed)`` before each game, ``step(state) -> action`` at each move.

Every player implements it: the players for any game (``evoplay.agents``) and the players only one game has
(in that game's package, offered through ``Game.players()``, ``Game.champion()`` and the other hooks).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from evoplay.games.base import Game, State


class Agent:
    """A player of a game. ``spec`` is the string ``make_agent`` rebuilds it from (when it has one).

    Agents are plain picklable objects so the arena can send them to worker processes; any randomness comes
    from ``restart(seed)``, which the arena calls with a seed derived from the run seed before every game, so
    results do not depend on the executor or the number of workers.
    """

    spec: str = "agent"
    seat: int = 0
    #: True when the agent decides from the State API alone (no attribute of a game's own State class): the arena
    #: may then play its games on the game's kernels (evoplay.games.kernels.KernelState)
    state_api_only: bool = False

    def __init__(self, game: Game):
        self.game = game

    @property
    def name(self) -> str:
        return self.spec

    def restart(self, seed: int, seat: int = 0) -> None:
        """Prepare for a new game in ``seat``; agents with randomness reseed here (call super to keep ``seat``)."""
        self.seat = seat

    def step(self, state: State) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


@dataclass(frozen=True)
class AgentEntry:
    """An agent a game offers (``Game.players``): ``factory(game, spec=..., **values)`` builds it from its spec's
    ``params`` (``evoplay.spec.Param``), ``help`` says what it is in one line, and ``supports(game)`` is None when it
    can play ``game``, else why not (None: any game of the class that offers it)."""

    factory: Callable
    params: tuple = ()
    help: str = ""
    supports: Callable | None = None

