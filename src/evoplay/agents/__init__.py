"""The built-in agents and ``make_agent``, which builds one from a spec string such as ``alphabeta(depth=8)``."""
from __future__ import annotations

from evoplay.agents.base import Agent
from evoplay.games.base import Game
from evoplay.spec import Param, Registry, canonical_spec

AGENTS = Registry("agent")
SUPPORTS: dict = {}  # agent name -> supports(game) -> None (it can play the game) or the reason it cannot


def any_game(game: Game) -> str | None:
    return None


def register_agent(name: str, factory, params=(), help: str = "", supports=any_game) -> None:
    """Add an agent: ``factory(game, spec=..., **params)`` returns an ``Agent``; ``supports(game)`` returns None
    for a game it can play, else one line saying why not (checked by ``make_agent`` before any game is played)."""
    params = tuple(params)

    def build(game, **values):
        return factory(game, spec=canonical_spec(name, values, params), **values)

    AGENTS.register(name, build, params, help)
    SUPPORTS[name] = supports


def refusal(name: str, game: Game) -> str | None:
    """Why agent ``name`` cannot play ``game``, or None when it can."""
    AGENTS.entry(name)  # unknown names raise the registry's error
    return SUPPORTS.get(name, any_game)(game)


#: the agent names whose meaning a game gives itself through ``Game.players`` (the rest are agents of their own)
GAME_MEANINGS = ("alphabeta", "genome", "champion", "gp", "narrator")
_REGISTERED_CLASSES: set = set()


def register_game_players(cls) -> None:
    """Register the agents only games of class ``cls`` have (``Game.players`` names other than GAME_MEANINGS), as
    an installed package's entry points are registered: each is built by its ``AgentEntry``, and plays games of
    that class only unless its entry says otherwise. Done once per class."""
    if cls in _REGISTERED_CLASSES:
        return
    _REGISTERED_CLASSES.add(cls)
    for name in cls.players:
        if name in GAME_MEANINGS:
            continue
        entry = cls.player(name)

        def only_this(game, cls=cls):
            return None if isinstance(game, cls) else f"it plays {cls.name} only"

        register_agent(name, entry.factory, entry.params, entry.help, entry.supports or only_this)


def make_agent(spec: str | Agent, game: Game | str) -> Agent:
    """Build an agent for ``game`` from a spec: ``random``, ``alphabeta(depth=8)``, ``human``...

    An agent that cannot play the game raises SpecError saying why, before any game is played."""
    from evoplay.errors import SpecError
    from evoplay.games import load_game

    if isinstance(game, str):
        game = load_game(game)
    if isinstance(spec, Agent):
        return spec
    register_game_players(type(game))
    entry, values = AGENTS.resolve(spec)
    why = refusal(entry.name, game)
    if why:
        raise SpecError(f"agent '{entry.name}' cannot play {game.spec}: {why}")
    try:
        return entry.factory(game, **values)
    except OSError as err:  # a file the spec names: missing, unreadable, a name too long
        where = str(err.filename)[:80] + ("..." if len(str(err.filename)) > 80 else "") if err.filename else "a file"
        raise SpecError(f"agent '{entry.name}': cannot read {where}: {err.strerror or err}") from None


def searchable(game: Game) -> str | None:
    """Can a search play ``game`` through the game API? Hidden information needs ``State.resample``."""
    from evoplay.games.base import State

    if game.perfect_information:
        return None
    state = game.new_initial_state(0)
    if type(state).resample is State.resample:
        return (f"it hides information and its State has no resample(player, rng), so a search would read what "
                f"its player cannot see; give {type(state).__name__} a resample method (see evoplay.games.base)")
    return None


def reads_features(game: Game) -> str | None:
    """Programs and weight vectors read a game's features (``Game.feature_names``)."""
    from evoplay.errors import SpecError

    try:
        game.feature_names()
    except SpecError:
        return ("it defines no features for a program or weights to read (give its Game feature_names() and its "
                "State features(player))")
    return None


def _random(game, spec, seed):
    from evoplay.agents.random_agent import RandomAgent

    agent = RandomAgent(game, seed)
    agent.spec = spec
    return agent


def _alphabeta(game, spec, **values):
    from evoplay.agents.alphabeta import make_alphabeta

    return make_alphabeta(game, spec=spec, **values)


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
        Param("schedule", str, "none", "a game's own search: its depth schedule (m,n,k: by empty cells, the "
              "5,5,4 GA's)", ("none", "empty_cells"), aliases=(("seed001", "empty_cells"),)),
        Param("random_ties", bool, False, "break ties between equally good moves at random"),
        Param("seed", int, 0, "seed for random ties (and sampled moves, hidden cards) before the arena reseeds it"),
        Param("eval", str, "auto", "leaf value: auto (the game's own search where it has one, else score), "
              "score (own score minus the best other's), feature:NAME (a feature's value)"),
    ),
    "minimax with alpha-beta pruning: the game's own search where it has one, else in Numba over the game's "
    "kernels, else through the game API",
    supports=searchable,
)
register_agent("human", _human, (), "you, at the terminal")


def _weights(game, spec, file, schedule, random_ties, seed, depth, ms, nodes, clock):
    from evoplay.agents.weights import from_file

    return from_file(game, file, schedule=schedule, random_ties=random_ties, seed=seed, spec=spec, depth=depth,
                     ms=ms, nodes=nodes, clock=clock)


def _budget_of_file_params() -> tuple:
    """A feature player's budget per move (the gp and ga recipes' players): iterative deepening within it."""
    return (
        Param("ms", float, -1.0, "time per move for an iterative-deepening search with the evolved evaluation "
              "(-1: the file's own play budget; 0: none)", min=-1, max=3_600_000, why="at most an hour a move"),
        Param("nodes", int, -1, "node budget per move, reproducible (-1: the file's own; 0: none)", min=-1,
              max=10**12, why="a node count"),
        Param("clock", str, "", "what ms measures: wall (elapsed) or cpu (this thread's CPU time)",
              ("", "wall", "cpu"), empty="the file's own, else wall"),
    )


register_agent(
    "weights",
    _weights,
    (
        Param("file", str, help="best.json of a GA run (or the run folder)"),
        Param("schedule", str, "empty_cells", "m,n,k: the depth cap by empty cells", ("empty_cells", "none"),
              aliases=(("seed001", "empty_cells"),)),
        Param("random_ties", bool, False, "break ties between equally good moves at random"),
        Param("seed", int, 0, "seed for random ties before the arena reseeds it"),
        Param("depth", int, 0, "plies to search (0: the genome's or the file's own)", max=1000),
        *_budget_of_file_params(),
    ),
    "alpha-beta with evolved evaluation weights (the ga recipe's feature weights on any game; a genome of a "
    "game's own evaluation: the 5,5,4 GA's, Kalah's feature weights)",
    supports=reads_features,
)


# The controllers (seed 002 and its peers): Numba over a game's kernels where it gives them; the game API elsewhere.
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
        Param("model", str, "auto", "auto: the game's Numba kernels where it gives them (tron, gems, kalah, "
              "mnk, any game with kernels), else the game API; api: always the game API", ("auto", "api")),
    ]
    return params


def _controller(cls: str):
    def factory(game, spec, **values):
        from evoplay.agents import controller

        return getattr(controller, cls)(game, spec=spec, **values)

    return factory


register_agent("rs", _controller("RandomSearchAgent"), _budget_params(),
               "random search (the GVGAI sample controller): fresh random action sequences vs a random opponent, "
               "best first action",
               supports=searchable)
_rhea_params = _budget_params()
_rhea_params[2:2] = [
    Param("population", int, 10, "sequences in the population"),
    Param("elitism", int, 1, "best sequences kept each generation"),
    Param("tournament", int, 2, "tournament size for parent selection"),
    Param("mutation", int, 1, "genes redrawn per child"),
]
register_agent("rhea", _controller("RheaAgent"), _rhea_params,
               "rolling horizon evolution (GVGAI sample): uniform crossover, mutation, tournament 2, elitism 1",
               supports=searchable)
_mcts_params = _budget_params()
_mcts_params.insert(2, Param("k", float, 1.4142135623730951, "UCB1 exploration constant (sqrt 2)"))
# The tree keeps a node per iteration (a child index per action, a visit count and a total): at most 5 M
# iterations, 0.2 GB on Kalah, 0.6 GB on 5,5,4.
_mcts_params = [Param(p.name, p.type, p.default, p.help, p.choices, max=5_000_000,
                      why="mcts keeps a tree node per iteration in memory") if p.name == "iterations" else p
                for p in _mcts_params]
register_agent("mcts", _controller("MctsAgent"), _mcts_params,
               "open-loop UCT over own actions, random opponent, rollouts to depth 10 (GVGAI sample MCTS)",
               supports=searchable)
register_agent("lookahead", _controller("LookaheadAgent"), _budget_params(depth=False),
               "one-step lookahead: each action against random opponent replies, the budget spent on more replies",
               supports=searchable)


def _openspiel_mcts(game, spec, **values):
    from evoplay.agents.openspiel_bots import OpenSpielMctsAgent

    return OpenSpielMctsAgent(game, spec=spec, **values)


def _openspiel_supports(game: Game) -> str | None:
    from evoplay.agents.openspiel_bots import supports

    return supports(game)


register_agent(
    "openspiel_mcts",
    _openspiel_mcts,
    (
        Param("simulations", int, 1000, "MCTS simulations per move"),
        Param("uct_c", float, 2.0, "UCT exploration constant (OpenSpiel's 2)"),
        Param("rollouts", int, 1, "random rollouts per evaluated leaf"),
        Param("solve", bool, True, "back up proven wins and losses (MCTS-Solver)"),
        Param("seed", int, 0, "seed before the arena reseeds it"),
    ),
    "OpenSpiel's C++ MCTS bot (an outside referee): openspiel:* games, standard Kalah (as mancala), m,n,k (as mnk)",
    supports=_openspiel_supports,
)


def _uct(game, spec, value, cut, prior, prior_visits, temperature, **values):
    from evoplay.agents.evolved_uct import evolved_evaluator
    from evoplay.agents.uct import UctAgent
    from evoplay.errors import SpecError

    if (cut or prior) and not value:
        raise SpecError(f"{spec}: cut= and prior= read an evolved evaluation; name it with value=FILE (a gp or ga "
                        f"run's best.json)")
    if (prior_visits > 1 or temperature != 1.0) and not prior:
        raise SpecError(f"{spec}: prior_visits= and temperature= shape the evolved prior; give prior=true with them")
    if value:
        values["evaluator"] = evolved_evaluator(game, value, cut, prior, values["rollouts"], prior_visits,
                                                temperature)
        if prior:
            values["selection"] = "puct"
    return UctAgent(game, spec=spec, **values)


def _uct_supports(game: Game) -> str | None:
    from evoplay.agents.uct import supports

    return supports(game)


register_agent(
    "uct",
    _uct,
    (
        Param("simulations", int, 1000, "MCTS simulations per move (when ms is 0)", min=1, max=10_000_000,
              why="the tree keeps a node per legal move of every position it expands"),
        Param("ms", float, 0.0, "time per move in ms instead of simulations; 0: use simulations",
              min=0, max=3_600_000, why="a time budget of at most an hour per move"),
        Param("clock", str, "wall", "what ms measures: wall (elapsed) or cpu (this thread's CPU time)",
              ("wall", "cpu")),
        Param("uct_c", float, 2.0, "UCT exploration constant (OpenSpiel's 2)", min=0, max=100,
              why="an exploration constant on the scale of the returns"),
        Param("rollouts", int, 1, "random rollouts per evaluated leaf", min=1, max=10_000,
              why="rollouts per leaf: each plays a whole game"),
        Param("solve", bool, True, "back up proven wins and losses (MCTS-Solver)"),
        Param("seed", int, 0, "seed before the arena reseeds it"),
        Param("value", str, "", "an evolved evaluation (a gp or ga run's best.json, or the run folder) that scores "
              "the leaves instead of rollouts to the end", empty="random rollouts"),
        Param("cut", int, 0, "with value: random plies played before it scores a leaf (0: the leaf itself)",
              min=0, max=1000, why="plies of a rollout"),
        Param("prior", bool, False, "with value: its scores of the moves as priors (PUCT selection)"),
        Param("prior_visits", int, 1, "with prior: the visits a position has before its prior is computed (1: when "
              "it is expanded; more: fewer evaluations, more simulations)", min=1, max=1_000_000,
              why="a count of visits"),
        Param("temperature", float, 1.0, "with prior: the prior's softmax temperature over the evaluation's scores "
              "(higher: a flatter prior, which leaves more to the search)", min=0.01, max=1000,
              why="a softmax temperature on the scale of the scores' spread"),
    ),
    "closed-loop Monte Carlo tree search through the game API (OpenSpiel's MCTSBot: UCT, random rollouts to the "
    "end, optional solver) on any sequential perfect-information game, chance and any number of players included",
    supports=_uct_supports,
)


def _referee(game, spec, simulations, seed):
    """MCTS with random rollouts, the fastest this game allows: OpenSpiel's C++ bot where it plays the game,
    else evoplay's uct (the same search: UCT constant 2, one rollout a leaf, the solver on)."""
    if refusal("openspiel_mcts", game) is None:
        agent = make_agent(f"openspiel_mcts(simulations={simulations},seed={seed})", game)
    else:
        agent = make_agent(f"uct(simulations={simulations},seed={seed})", game)
    agent.spec = spec
    return agent


def _referee_supports(game: Game) -> str | None:
    if _openspiel_supports(game) is None:
        return None
    return _uct_supports(game)


register_agent(
    "referee",
    _referee,
    (
        Param("simulations", int, 1000, "MCTS simulations per move", min=1, max=10_000_000,
              why="the tree keeps a node per legal move of every position it expands"),
        Param("seed", int, 0, "seed before the arena reseeds it"),
    ),
    "MCTS with random rollouts at a simulation budget, as fast as the game allows: OpenSpiel's C++ MCTSBot where "
    "it plays the game, else uct (the evolved players' ladder climbs it)",
    supports=_referee_supports,
)


def _champion(game, spec, nodes):
    from evoplay.agents.champion import make_champion

    return make_champion(game, spec, nodes)


def _champion_supports(game: Game) -> str | None:
    from evoplay.agents.champion import supports

    return supports(game)


register_agent("champion", _champion, (Param("nodes", int, 0, "node budget per move (0: the champion's own)"),),
               "the strongest evolved player evoplay ships for the game (Kalah: evolved feature weights searched by "
               "iterative deepening within a node budget; 5,5,4: the 5,5,4 GA's genome with open windows and forks, "
               "searched by the threat search within a node budget; docs/strength.md)", supports=_champion_supports)


def _register_builtin_players() -> None:
    """The agents the built-in games offer (``evoplay agents`` lists them with the rest)."""
    from evoplay.games import CLASSES

    for cls in list(CLASSES.values()):
        register_game_players(cls)


_register_builtin_players()


def _gp(game, spec, file, depth, ms, nodes, clock):
    from evoplay.agents.program_file import make_gp_agent

    return make_gp_agent(game, spec, file, depth, ms, nodes, clock)


register_agent("gp", _gp, (Param("file", str, help="a run's best.json (or the run folder)"),
                           Param("depth", int, 0, "plies to search for a searching program (0: the file's own)",
                                 max=1000),
                           *_budget_of_file_params()),
               "an evolved program: of the gp recipe on any game (scores each move's after-state, or evaluates "
               "search leaves, over the game's features); of the Mancala GP on Kalah (the value mod pits, "
               "else the next non-empty pit; or it scores each legal move)", supports=reads_features)



def _level(game, spec, run, level):
    from evoplay.agents.level import make_level_agent

    return make_level_agent(game, spec, run, level)


register_agent("level", _level, (Param("run", str, help="a run folder made with evoplay evolve gp|ga --levels"),
                                 Param("level", str, help="the level's name in the run's levels.json, e.g. hard")),
               "a difficulty level of a gp or ga run (evoplay evolve gp|ga --levels): level(RUN,hard) plays the "
               "level as the run shipped it", supports=reads_features)

__all__ = ["AGENTS", "Agent", "make_agent", "refusal", "register_agent", "register_game_players"]
