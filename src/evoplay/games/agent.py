"""The agent interface: ``restart(seed)`` before each game, ``step(state) -> action`` at each move.

Every player implements it: the players for any game (``evoplay.agents``) and the players only one game has
(in that game's package, offered through ``Game.players()``, ``Game.champion()`` and the other hooks).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from evoplay.games.base import Game, State


class Agent:
    """A player of a game. ``spec`` is the string ``make_agent`` rebuilds it from (when it has one).

    Agents are plain picklable objects so the arena can send them to worker processes; any randomness comes
    from ``restart(seed)``, which the arena calls with a seed derived from the run seed before every game, so
    results do not depend on the executor or the number of workers.

    The deadline protocol: a caller that wants the move by a certain time sets ``deadline`` (an absolute
    ``time.perf_counter()`` value) before ``step`` and resets it to None after. A search that sees the deadline
    pass stops and plays its best move so far (a deadline already past still gets a move: the search's
    quickest). The deadline may be moved earlier from another thread while ``step`` runs (``evoplay serve``
    does when the page that asked for the move has gone). None, the default, sets no limit, and a search without
    a deadline is exactly what its spec says (reproducible from its seed).
    """

    spec: str = "agent"
    seat: int = 0
    #: True when the agent decides from the State API alone (no attribute of a game's own State class): the arena
    #: may then play its games on the game's kernels (evoplay.games.kernels.KernelState)
    state_api_only: bool = False
    deadline: float | None = None

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

    def time_left(self) -> float | None:
        """Seconds until ``deadline`` (negative once it has passed), or None when no deadline is set."""
        deadline = self.deadline
        return None if deadline is None else deadline - time.perf_counter()

    def out_of_time(self) -> bool:
        """Has the deadline passed?"""
        deadline = self.deadline
        return deadline is not None and time.perf_counter() >= deadline

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

