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


def _weights(game, spec, file, schedule, random_ties, seed):
    from evoplay.agents.weights import from_file

    return from_file(game, file, schedule=schedule, random_ties=random_ties, seed=seed, spec=spec)


register_agent(
    "weights",
    _weights,
    (
        Param("file", str, help="best.json of a GA run (or the run folder)"),
        Param("schedule", str, "seed001", "m,n,k depth cap by empty cells", ("seed001", "none")),
        Param("random_ties", bool, False, "break ties between equally good moves at random"),
        Param("seed", int, 0, "seed for random ties before the arena reseeds it"),
    ),
    "alpha-beta with evolved evaluation weights (seed 001's GA genome; Kalah feature weights)",
)


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


# Forward-model controllers (seed 002 and its peers): tron, gems, kalah, mnk.
def _budget_params(depth: bool = True):
    params = [Param("budget_ms", float, 40.0, "time per decision in ms (the competition's 40)")]
    if depth:
        params.append(Param("depth", int, 10, "steps per rollout (the seed's SIMULATION_DEPTH)"))
    params += [
        Param("discount", float, 1.0, "value x discount^steps played (1.0 as in the framework's code)"),
        Param("iterations", int, 0, "rollouts per decision instead of the time budget (reproducible); 0: time"),
        Param("break_ms", float, 0.0, "stop when less time is left (the seed's BREAK_MS); 0: budget_ms / 4"),
        Param("clock", str, "wall", "what budget_ms measures: elapsed time, or this thread's CPU time",
              ("wall", "cpu")),
        Param("seed", int, 0, "seed before the arena reseeds it"),
    ]
    return params


def _controller(module: str, cls: str):
    def factory(game, spec, **values):
        import importlib

        return getattr(importlib.import_module(f"evoplay.agents.{module}"), cls)(game, spec=spec, **values)

    return factory


register_agent("rs", _controller("rs", "RandomSearchAgent"), _budget_params(),
               "seed 002's random search: fresh random action sequences vs a random opponent, best first action")
_rhea_params = _budget_params()
_rhea_params[2:2] = [
    Param("population", int, 10, "sequences in the population"),
    Param("elitism", int, 1, "best sequences kept each generation"),
    Param("tournament", int, 2, "tournament size for parent selection"),
    Param("mutation", int, 1, "genes redrawn per child"),
]
register_agent("rhea", _controller("rhea", "RheaAgent"), _rhea_params,
               "rolling horizon evolution (GVGAI sample): uniform crossover, mutation, tournament 2, elitism 1")
_mcts_params = _budget_params()
_mcts_params.insert(2, Param("k", float, 1.4142135623730951, "UCB1 exploration constant (sqrt 2)"))
register_agent("mcts", _controller("mcts", "MctsAgent"), _mcts_params,
               "open-loop UCT over own actions, random opponent, rollouts to depth 10 (GVGAI sample MCTS)")
register_agent("lookahead", _controller("lookahead", "LookaheadAgent"), _budget_params(depth=False),
               "one-step lookahead: each action against random opponent replies, the budget spent on more replies")


def _gp(game, spec, file):
    from evoplay.agents.gp import make_gp_agent

    return make_gp_agent(game, spec, file)


register_agent("gp", _gp, (Param("file", str, help="a run's best.json (or the run folder)"),),
               "Kalah: an evolved program picks the pit (seed 003's Mancala GP: the value mod pits, else the next "
               "non-empty pit; or it scores each legal move)")

__all__ = ["AGENTS", "Agent", "make_agent", "register_agent"]
