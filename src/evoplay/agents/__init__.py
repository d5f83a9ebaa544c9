"""The built-in agents and ``make_agent``, which builds one from a spec string such as ``alphabeta(depth=8)``."""
from __future__ import annotations

from evoplay.agents.base import Agent
from evoplay.games.base import Game
from evoplay.spec import Param, Registry, canonical_spec

AGENTS = Registry("agent")


def register_agent(name: str, factory, params=(), help: str = "") -> None:
    """Add an agent: ``factory(game, spec=..., **params)`` returns an ``Agent``."""
    params = tuple(params)

    def build(game, **values):
        return factory(game, spec=canonical_spec(name, values, params), **values)

    AGENTS.register(name, build, params, help)


def make_agent(spec: str | Agent, game: Game | str) -> Agent:
    """Build an agent for ``game`` from a spec: ``random``, ``alphabeta(depth=8)``, ``human``..."""
    from evoplay.games import load_game

    if isinstance(game, str):
        game = load_game(game)
    if isinstance(spec, Agent):
        return spec
    entry, values = AGENTS.resolve(spec)
    return entry.factory(game, **values)


def _random(game, spec, seed):
    from evoplay.agents.random_agent import RandomAgent

    agent = RandomAgent(game, seed)
    agent.spec = spec
    return agent


def _alphabeta(game, spec, **values):
    from evoplay.agents.alphabeta import AlphaBetaAgent

    return AlphaBetaAgent(game, spec=spec, **values)


def _human(game, spec):
    from evoplay.agents.human import HumanAgent

    return HumanAgent(game)


register_agent("random", _random, (Param("seed", int, 0, "seed before the arena reseeds it"),),
               "uniformly random legal moves")
register_agent(
    "alphabeta",
    _alphabeta,
    (
        Param("depth", int, 0, "plies to search (0: 4, or the schedule's depth)"),
        Param("schedule", str, "none", "depth schedule by empty cells (m,n,k)", ("none", "seed001")),
        Param("random_ties", bool, False, "break ties between equally good moves at random"),
        Param("seed", int, 0, "seed for random ties before the arena reseeds it"),
    ),
    "minimax with alpha-beta pruning (Numba); Kalah: store difference, m,n,k: line counts",
)
register_agent("human", _human, (), "you, at the terminal")


def _sevens_heuristic(game, spec):
    from evoplay.agents.sevens_agents import SevensHeuristicAgent

    return SevensHeuristicAgent(game)


def _specimen(game, spec, path, level, computer):
    from evoplay.agents.sevens_agents import make_specimen_agent

    return make_specimen_agent(game, spec, path, level, computer)


register_agent("sevens_heuristic", _sevens_heuristic, (), "Sevens: the hand-written baseline")
register_agent(
    "specimen",
    _specimen,
    (
        Param("path", str, "", "best.json of a sevens run"),
        Param("level", str, "", "or a difficulty level: easy, medium, hard, expert"),
        Param("computer", str, "", "computer.py holding the levels (default: the levels shipped with evoplay)"),
    ),
    "Sevens: seed 000's evolved player (play and send trees), from a run or a difficulty level",
)

__all__ = ["AGENTS", "Agent", "make_agent", "register_agent"]
