"""The feature players' Python export: a ``gp`` or ``ga`` champion as a Python file that is the agent (its Lua and
JavaScript exports, the whole player over a host game's interface, are evoplay.agents.host_export).

The Python file plays exactly as ``gp(best.json)`` / ``weights(best.json)`` (``document_agent`` in
evoplay.agents.feature_player) plays: the policy, the depth and the play budget the champion was shipped with (nodes, ms,
clock), the iterative deepening with its move ordering, transposition table and history heuristic, the leaf
evaluation (the game's features, the free features, the pair counts, the scales, the clipping), the terminal
values and the chance and simultaneous nodes. None of it is written twice: the file carries evoplay's own source
of the search (evoplay.search.minimax), of the player's move choice (``FeatureAgent``'s methods, ties drawn
with a generator seeded like the agent's) and of the feature view (evoplay.agents.feature_view), and
``missing_names`` refuses a file whose carried code needs something the file lacks. Only the evaluation is
written out: the program as one expression (evoplay.gp.export), or the weights.

Its game: a built-in game with a standalone form (Kalah, m,n,k) travels inside it, so the file needs Python and
NumPy only; a file game (``path/file.py:Class``) is imported from the user's file; ``openspiel:NAME`` runs on
pyspiel through evoplay's adapter, carried; the other built-in games are loaded from evoplay.
"""
from __future__ import annotations

import os
import pprint
import re
import textwrap
from pathlib import Path

from evoplay.agents import feature_player as program_module, feature_view, uct as uct_module
from evoplay.errors import SpecError
from evoplay.games import standalone
from evoplay.games.tools import sources
from evoplay.gp.export import to_python
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import Program
from evoplay.search import minimax, uct as search_uct

# --------------------------------------------------------------------------------------------------------------
# The parts of the Python file.
# --------------------------------------------------------------------------------------------------------------

_HEAD = '''"""{intro}

{about}

Command line (python {file} with no command says the same):
{usage}
From Python: ``player = Player(seed=0)``, ``player.restart(seed, seat)`` before each game, then
``player.choose(state)`` at each of its moves, ``state`` a state of ``GAME`` (``GAME.new_initial_state()``).
``Player(nodes=N, ms=0)`` searches within N nodes a move instead of its shipped budget ({budget}).
Ties between equally valued moves are drawn with a NumPy generator seeded by ``Player(seed)`` and
``restart(seed, seat)``, the draw evoplay's agent makes when seeded alike (``evoplay export RUN --check`` seeds
both alike and compares their moves).
"""
'''

_USAGE = """\
  python {file} play [--games N] [--seed S] [--nodes N] [--ms MS]
      N games (default 10) against a uniformly random player, this player taking each seat in turn;
      prints its wins, draws and losses
  python {file} move [ACTION ...] [--seed S] [--seat P] [--nodes N] [--ms MS]
      the move it chooses at the position the ACTIONs reach from the start: numbers, or as the game
      writes them; chance outcomes included; at a simultaneous move one action per player joined by a
      comma (2,4); --seat: whose move to choose there (default 0)
"""

_VIEW = '''
class View:
    """The numbers the evaluation reads at a position, from one player's side: evoplay's FeatureView, as the
    champion's best.json sets it up (VIEW)."""

    def __init__(self, game):
        self.__dict__.update(VIEW)
        self.game = game
        if self.scales is not None:
            self.scales = np.array(self.scales, dtype=np.float64)

'''

#: what both player classes below set up, once
_START = '''
def _start_player(player, view, settings, ms, nodes, clock):
    """Set ``player`` up as evoplay's FeatureAgent is set up from a best.json: its view, its evaluation
    (``score_rows``), its policy, opponents at simultaneous moves, budget (``PLAY``, or ``ms``, ``nodes``, ``clock``
    instead) and depth (``DEPTH``)."""
    player.game = GAME
    player.view = view
    player.scorer = settings["score_rows"]
    player.policy = settings["POLICY"]
    player.opponents = settings["OPPONENTS"]
    player.budget = play_budget(settings["PLAY"], ms, nodes, clock)
    player.depth = _played_depth("Player", settings["POLICY"], settings["DEPTH"], 0, player.budget)
    player.kernel = None  # evoplay's compiled search; this file searches through the State, as evoplay does
    player._leaves = _Leaves(player)
    player.last_depth = 0
'''

_PLAYER = _START + '''

class Player:
    """The evolved player. ``choose(state)`` is its move; ``restart(seed, seat)`` starts a game (its tie draws,
    its transposition table)."""

    def __init__(self, seed=0, ms=-1, nodes=-1, clock=""):
        """``ms``, ``nodes``: its budget a move instead of the shipped one (-1: the shipped one; 0: none of that
        kind); ``clock``: what ms measures ("wall" or "cpu"; "": the shipped one)."""
        settings = {"score_rows": score_rows, "POLICY": POLICY, "DEPTH": DEPTH, "OPPONENTS": OPPONENTS, "PLAY": PLAY}
        _start_player(self, View(GAME), settings, ms, nodes, clock)
        self.restart(seed)

    def choose(self, state):
        """The action it plays at ``state`` (its turn, or a simultaneous move where it has actions)."""
        return self.step(state)

'''

_LEVEL_VIEW = '''
class View:
    """The numbers the evaluation reads at a position, from one player's side: evoplay's FeatureView, as a level's
    best.json sets it up (its ``VIEW`` in LEVELS)."""

    def __init__(self, game, settings):
        self.__dict__.update(settings)
        self.game = game
        if self.scales is not None:
            self.scales = np.array(self.scales, dtype=np.float64)

'''

_LEVEL_PLAYER = _START + '''

_CHOOSERS = {}


def choose_move(state, level=None):
    """The move of ``level``'s player (default the top level) at ``state``: one player a level, seeded 0, kept
    from call to call (``Player(seed, level=...)`` and its ``restart`` for seeded games)."""
    level = DEFAULT_LEVEL if level is None else level
    if level not in _CHOOSERS:
        _CHOOSERS[level] = Player(level=level)
    return _CHOOSERS[level].choose(state)


class Player:
    """The evolved player of one level. ``choose(state)`` is its move; ``restart(seed, seat)`` starts a game (its
    tie draws, its transposition table)."""

    def __init__(self, seed=0, ms=-1, nodes=-1, clock="", level=None):
        """``level``: one of LEVELS (default the top level); ``ms``, ``nodes``: its budget a move instead of the
        level's (-1: the level's; 0: none of that kind); ``clock``: what ms measures ("wall" or "cpu")."""
        self.level = DEFAULT_LEVEL if level is None else level
        if self.level not in LEVELS:
            raise SpecError(f"no level {self.level!r}; the levels are {', '.join(LEVELS)}")
        settings = LEVELS[self.level]
        _start_player(self, View(GAME, settings["VIEW"]), settings, ms, nodes, clock)
        self.restart(seed)

    def choose(self, state):
        """The action it plays at ``state`` (its turn, or a simultaneous move where it has actions)."""
        return self.step(state)

'''

#: a champion shipped as uct (play.search = "uct"): ``Player`` is the tree search, ``Evaluation`` (the alpha-beta
#: player's class above, renamed) reads its evaluation
_UCT_PLAYER = '''
class Player:
    """The evolved player: Monte Carlo tree search (evoplay's uct) guided by the evaluation, as evoplay's
    ``guided_player`` builds it. ``choose(state)`` is its move; ``restart(seed, seat)`` starts a game (the random
    numbers of its search and its rollouts)."""

    def __init__(self, seed=0, ms=-1, nodes=-1, clock=""):
        """``ms``: its time a move instead of the shipped one; ``nodes`` > 0: that many simulations a move instead
        (reproducible); ``clock``: what ms measures ("wall" or "cpu"; "": the shipped one)."""
        self.alpha_beta = None
        _start_uct(self, UCT, Evaluation(seed, 0, 0), ms, nodes, clock)
        self.restart(seed)
'''

_UCT_LEVEL_PLAYER = '''
class Player:
    """The evolved player of one level: Monte Carlo tree search (evoplay's uct) guided by its evaluation where the
    level ships as uct, else its alpha-beta ``Evaluation``. ``choose(state)`` is its move; ``restart(seed, seat)``
    starts a game."""

    def __init__(self, seed=0, ms=-1, nodes=-1, clock="", level=None):
        """``level``: one of LEVELS (default the top level); ``ms``, ``nodes``, ``clock``: its budget a move instead
        of the level's (for a uct level ``nodes`` counts simulations)."""
        self.level = DEFAULT_LEVEL if level is None else level
        if self.level not in LEVELS:
            raise SpecError(f"no level {self.level!r}; the levels are {', '.join(LEVELS)}")
        play = LEVELS[self.level]["UCT"]
        self.alpha_beta = None if play else Evaluation(seed, ms, nodes, clock, level=self.level)
        if play:
            _start_uct(self, play, Evaluation(seed, 0, 0, level=self.level), ms, nodes, clock)
        self.restart(seed)
'''

_UCT_METHODS = '''
    def restart(self, seed, seat=0):
        """A new game in ``seat``, its random numbers from ``seed``."""
        self.seat = seat
        if self.alpha_beta is not None:
            self.alpha_beta.restart(seed, seat)
        else:
            self._rng = restart_search(seed, self.evaluator)

    def choose(self, state):
        """The action it plays at ``state``."""
        if self.alpha_beta is not None:
            return self.alpha_beta.choose(state)
        return uct_move(self, state)[0]


def _start_uct(player, play, evaluation_player, ms, nodes, clock):
    """Set ``player`` up as evoplay's UctAgent is set up by guided_player."""
    settings = uct_settings(play, "Player", ms, nodes, clock)
    evaluation = (EvolvedEvaluation(GAME, evaluation_player, settings["spread"])
                  if settings["prior"] or settings["leaf"] == "value" else None)
    player.game = GAME
    player.evaluator = guided_evaluator(settings, evaluation)
    player.simulations, player.ms, player.clock = settings["simulations"], settings["ms"], settings["clock"]
    player.uct_c, player.solve, player.selection = UCT_C, True, settings["selection"]
    player.max_utility = MAX_UTILITY
    player.deadline = None
'''

_MAIN = r'''
USAGE = """usage:
{usage}"""


'''

_MAIN_BODY = r'''
def _action(state, text, player=None):
    """An action written as a number or as the game writes it."""
    if text.lstrip("-").isdigit():
        return int(text)
    return state.string_to_action(text, player)


def _random_game(player, seat, seed):
    """One game against a uniformly random player; ``player``'s return minus the best other's."""
    import random

    rng = random.Random(seed)
    state = GAME.new_initial_state(seed)
    player.restart(seed, seat)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.is_simultaneous_node():
            joint = []
            for p in range(GAME.num_players):
                legal = state.legal_actions(p)
                joint.append(0 if not legal else player.choose(state) if p == seat else rng.choice(legal))
            state.apply_actions(joint)
        elif state.current_player() == seat:
            state.apply_action(player.choose(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    return returns[seat] - max(r for p, r in enumerate(returns) if p != seat)


def main(args):
    """The command line (see USAGE); returns the exit status."""
    if not args:
        return command_error("give a command: play or move", USAGE)
    if args[0] in ("-h", "--help", "help"):
        print(__doc__.split("\n\n")[0])
        print(USAGE)
        return 0
    command, rest = args[0], args[1:]
    try:
        if command == "play":
            positional, o = command_options(rest, ("games", "seed", "nodes", "ms"))
            if positional:
                raise ValueError(f"play takes options only, not {{' '.join(positional)}}")
        elif command == "move":
            positional, o = command_options(rest, ("seed", "seat", "nodes", "ms"))
        else:
            raise ValueError(f"unknown command {{command!r}}; use play or move")
        seed = o.get("seed", 0)
        player = Player(seed, o.get("ms", -1), o.get("nodes", -1))
    except (ValueError, SpecError) as err:
        return command_error(str(err), USAGE)
    if command == "play":
        games = o.get("games", 10)
        results = [_random_game(player, g % GAME.num_players, seed + g) for g in range(games)]
        won, drawn = sum(r > 0 for r in results), sum(r == 0 for r in results)
        print(f"won {{won}}, drew {{drawn}}, lost {{games - won - drawn}} of {{games}} games against a random player "
              f"(seats in turn, seeds {{seed}}..{{seed + games - 1}})")
        return 0
    state = GAME.new_initial_state(seed)
    try:
        for k, text in enumerate(positional):
            if state.is_terminal():
                raise ValueError(f"the game is over after {{k}} actions; {{text!r}} cannot be played")
            if state.is_simultaneous_node():
                parts = text.split(",")
                if len(parts) != GAME.num_players:
                    raise ValueError(f"action {{k + 1}}, {{text!r}}: every player moves at once here; give "
                                     f"{{GAME.num_players}} actions joined by a comma")
                state.apply_actions([_action(state, t, p) for p, t in enumerate(parts)])
            else:
                state.apply_action(_action(state, text))
        if state.is_terminal():
            raise ValueError("the game is over there; there is no move to choose")
        if state.is_chance_node():
            raise ValueError("chance moves next there: give its outcome as one more action")
    except (ValueError, SpecError) as err:
        return command_error(str(err), USAGE)
    seat = o.get("seat", 0) if state.is_simultaneous_node() else state.current_player()
    if state.is_simultaneous_node() and not state.legal_actions(seat):
        return command_error(f"player {{seat}} has no move there; choose another --seat", USAGE)
    player.restart(seed, seat)
    action = player.choose(state)
    print(f"{{state.action_to_string(action, seat)}} ({{action}})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''


#: FeatureAgent's and FeatureView's members the file does not carry: their own ``__init__`` (``Player`` and ``View``
#: set what they set from the file's settings), the view's construction from a document and the agent's
#: description and its evaluation's (the file's docstring says how it plays)
_NOT_CARRIED = ("__init__", "from_document", "describe", "evaluation_phrase")


def _members(cls) -> list[str]:
    return [m for m, v in vars(cls).items() if (callable(v) or isinstance(v, property)) and m not in _NOT_CARRIED
            and not (m.startswith("__") and m not in ("__len__",))]


def _carried_player(view_head: str = _VIEW, player_head: str = _PLAYER) -> str:
    """evoplay's move choice and feature view, as evoplay runs them: every method of ``FeatureAgent`` and
    ``FeatureView`` (what they call is carried after, by ``standalone.resolved``), after the file's own
    ``__init__`` of each."""
    pm, fv = program_module, feature_view
    view = view_head + "\n".join(standalone.carried(getattr(fv.FeatureView, m), "    ") for m in _members(fv.FeatureView))
    player = player_head + "\n".join(standalone.carried(vars(pm.FeatureAgent)[m], "    ")
                                 for m in _members(pm.FeatureAgent))
    return view + "\n" + player


#: where the names the carried code uses come from, the first that has a name giving it (the search's MAX_DEPTH,
#: not the program module's)
_SOURCES = (minimax, feature_view, program_module, uct_module, search_uct)


def _view_state(view) -> dict:
    """What the file's ``View`` sets: the FeatureView's attributes but its game, arrays as lists."""
    state = {}
    for key, value in vars(view).items():
        if key != "game":
            state[key] = value.tolist() if hasattr(value, "tolist") else value
    return state


def _evaluation(doc: dict, agent) -> str:
    """The evaluation: ``evaluate(features)`` (a program) or ``WEIGHTS``, and ``score_rows(rows)``, the clipped
    value of every row as evoplay's scorer gives it."""
    names = agent.view.names()
    if "program" in doc:
        body = to_python(Program.from_dict(doc["program"]), PrimitiveSet.from_dict(doc["primitive_set"]),
                         "evaluate").split("\n", 1)[1]  # the file's docstring says what it is
        score = ("    for r in range(rows.shape[0]):\n"
                 "        out[r] = clip_value(evaluate(rows[r].tolist()))\n")
        if doc.get("base_weights") is not None:  # the program adds its value to a fitted linear evaluation
            weights = "\n".join(f"    {float(w)!r},  # {n}" for w, n in zip(doc["base_weights"], names))
            body += (f"\n# The fitted linear evaluation the program adds its value to (a NaN program adds nothing)."
                     f"\nBASE = [\n{weights}\n]\n")
            score = ("    for r in range(rows.shape[0]):\n"
                     "        row = rows[r].tolist()\n"
                     "        p = evaluate(row)\n"
                     "        v = 0.0\n"
                     "        for w, x in zip(BASE, row):  # in order, as evoplay's kernels add them\n"
                     "            v += w * x\n"
                     "        out[r] = clip_value(v + (0.0 if p != p else p))\n")
    else:
        weights = "\n".join(f"    {float(w)!r},  # {n}" for w, n in zip(agent.scorer.weights, names))
        body = f"\nWEIGHTS = np.array([\n{weights}\n])\n"
        score = "    linear_rows(WEIGHTS, rows, out)\n"
    return (body + "\n\ndef score_rows(rows):\n    \"\"\"The clipped value of every row of ``rows`` (one position's "
            "numbers a row).\"\"\"\n    out = np.empty(rows.shape[0], np.float64)\n" + score + "    return out\n")


def _file_game(spec: str, out_folder: Path) -> str:
    """A file game: imported from the user's file (by its path from the exported file's folder, else where it was
    when exported) through evoplay, which the game file imports for its Game and State."""
    path, _, rest = spec.strip().partition(".py:")
    absolute = Path(path + ".py").resolve()
    relative = Path(os.path.relpath(absolute, out_folder.resolve())).as_posix()
    return f'''
# The game: the class in your game file, for its rules and its features (the file imports evoplay's Game and State).
from evoplay.games import load_game as _load_game
from evoplay.games.base import State, search_moves

GAME_FILE = {relative!r}  # from this file's folder
GAME_FILE_WHEN_EXPORTED = {absolute.as_posix()!r}
GAME_CLASS = {rest!r}


def _game():
    path = Path(__file__).resolve().parent / GAME_FILE
    if not path.is_file():
        path = Path(GAME_FILE_WHEN_EXPORTED)
    if not path.is_file():
        raise FileNotFoundError(f"the game file {{GAME_FILE}} is not there from {{Path(__file__).name}}'s folder, "
                                f"nor at {{GAME_FILE_WHEN_EXPORTED}}; keep them together as they were exported")
    return _load_game(f"{{path}}:{{GAME_CLASS}}")


GAME = _game()
'''


def _evoplay_game(spec: str) -> str:
    return f'''
# The game: evoplay's built-in {spec} (its rules are evoplay's Numba kernels, which have no standalone form).
from evoplay.games import load_game as _load_game
from evoplay.games.base import State, search_moves

GAME = _load_game({spec!r})
'''


def game_source(game, out_folder: Path) -> tuple[str, str]:
    """(the Python that makes the file's ``GAME`` and ``search_moves``, what the file needs to run)."""
    if game.spec.startswith("openspiel:"):
        return (standalone.openspiel_source(game),
                "It needs Python with NumPy and OpenSpiel (pip install open_spiel), not evoplay: the game runs on "
                "pyspiel through evoplay's adapter, carried.")
    if sources.is_file_spec(game.spec):
        return (standalone.errors_source() + _file_game(game.spec, out_folder),
                "It needs your game file (imported from its path relative to this file) and what that file imports "
                "(evoplay's Game and State).")
    own = standalone.standalone_source(game)
    if own is not None:
        return own, "It needs Python and NumPy only: the game's rules travel inside it."
    return (standalone.errors_source() + _evoplay_game(game.spec),
            "It needs evoplay for the game's rules (this game's rules are Numba kernels).")


def _level_parts(doc: dict, game, where: str):
    """(the player's FeatureAgent, the depth it evolved with, its ``PLAY`` budget, the budget in words, its ``UCT``
    settings or None, how it plays in words) of a document. A document shipped as uct (``play.search``) is written
    as its tree search over the FeatureAgent's evaluation: ``UCT`` is its ``play`` with the evaluation's scale."""
    shipped = program_module.document_agent(game, doc, where)
    make = (program_module.agent_from_program_document if "program" in doc
            else program_module.agent_from_weights_document)
    trained = make(game, doc, where, where, ms=0, nodes=0)  # the depth it evolved with
    if program_module.plays_uct(doc):
        uct = dict(doc["play"])
        if uct.get("spread") is None and shipped.evaluation_scale is not None:
            uct["spread"] = shipped.evaluation_scale  # measured as the agent measured it
        budget_text = (f"{uct['ms']:g} ms of {uct.get('clock', 'wall')} clock; nodes=N: N simulations a move")
        return trained, trained.depth, {}, budget_text, uct, shipped.describe()
    play = {k: doc[k] for k in ("play", "nodes") if doc.get(k)}
    budget = shipped.budget
    budget_text = ("none: it plays its evolved policy and depth" if not budget else " and ".join(
        ([f"{budget.nodes} nodes"] if budget.nodes else [])
        + ([f"{1000 * budget.seconds:g} ms of {budget.clock} clock"] if budget.seconds else [])))
    return shipped, trained.depth, play, budget_text, None, shipped.describe()


def feature_player_python(doc: dict, game, out_folder: Path, file_name: str = "best.py") -> str:
    """The Python file of a generic champion (a ``best.json`` of the gp or ga recipe, its game made absolute,
    ``load_program`` / ``load_weights``) for ``game`` (the game it names), to be written into ``out_folder``:
    the player ``document_agent`` builds (see the module docstring)."""
    where = f"export of {doc['game']}"
    shipped, depth, play, budget_text, uct, described = _level_parts(doc, game, where)
    game_code, needs = game_source(game, out_folder)
    names = shipped.view.names()
    usage = _USAGE.format(file=file_name)
    kind = "gp" if "program" in doc else "weights"
    shown = ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")
    about = (f"It is the player ``{kind}(best.json)`` is in evoplay, written out by ``evoplay export``: its "
             f"evaluation over the {len(names)} numbers it reads ({shown}), and evoplay's own search and move "
             f"choice, carried as evoplay runs them. {needs}")
    head = _HEAD.format(intro=textwrap.fill(f"An evolved evoplay player of {doc['game']}: {described}.", 116),
                        about=textwrap.fill(about, 116), file=file_name, usage=usage, budget=budget_text)
    settings = "\n".join([
        f"FEATURES = {names!r}",
        "# evoplay's FeatureView of the champion: its own features, the free features, the board's counts, the scales",
        "VIEW = " + pprint.pformat(_view_state(shipped.view), width=110, compact=True, sort_dicts=False),
        f"POLICY = {shipped.policy!r}  # without a budget: 'move' scores each move's after-state, 'search' searches",
        f"DEPTH = {depth!r}  # the plies it evolved with (a budget deepens up to {minimax.MAX_DEPTH})",
        f"OPPONENTS = {shipped.opponents!r}  # at a simultaneous move the others play their no-op, or a sample",
        f"PLAY = {play!r}  # its shipped budget a move (evoplay.agents.feature_player.play_budget reads it)",
    ] + ([f"UCT = {uct!r}  # it ships as Monte Carlo tree search guided by the evaluation (evoplay.agents.uct."
          f"uct_settings reads it)", _max_utility(game)] if uct else []))
    carried = (_carried_player(player_head=_PLAYER.replace("class Player:", "class Evaluation:", 1)) + _UCT_PLAYER
               + _UCT_METHODS if uct else _carried_player())
    return _assemble(head, game_code, settings, _evaluation(doc, shipped), carried, usage)


def levels_player_python(docs: dict[str, dict], game, out_folder: Path, file_name: str = "best.py") -> str:
    """The Python file of every level of a run (``docs``: {name: best.json document}, easiest first), the player of
    each as ``feature_player_python`` writes one: ``Player(level=NAME)`` (default the last, the top level) and
    ``choose_move(state, level)``."""
    game_code, needs = game_source(game, out_folder)
    usage = _USAGE.format(file=file_name)
    levels, evaluations, described, any_uct = [], [], [], False
    for i, (name, doc) in enumerate(docs.items()):
        shipped, depth, play, budget_text, uct, how = _level_parts(doc, game, f"level {name} of {doc['game']}")
        any_uct = any_uct or uct is not None
        described.append(f"{name}: {how}")
        view = pprint.pformat(_view_state(shipped.view), width=100, compact=True, sort_dicts=False)
        levels.append(f"    {name!r}: {{\n        'VIEW': {_indent_after_first(view, ' ' * 16)},\n"
                      f"        'POLICY': {shipped.policy!r}, 'DEPTH': {depth!r}, 'OPPONENTS': {shipped.opponents!r},"
                      f"\n        'PLAY': {play!r}, 'UCT': {uct!r}, 'score_rows': score_rows_{i},\n    }},")
        evaluation = _evaluation(doc, shipped)
        for word in ("evaluate", "score_rows", "BASE", "WEIGHTS"):
            evaluation = re.sub(rf"\b{word}\b", f"{word}_{i}", evaluation)
        evaluations.append(f"\n# Level {name}." + evaluation)
    names = list(docs)
    about = (f"It is every level of the run, each the player its best.json is in evoplay (``gp(FILE)`` / "
             f"``weights(FILE)``), written out by ``evoplay export``: its evaluation, and evoplay's own search and "
             f"move choice, carried as evoplay runs them. {needs} ``Player(level=NAME)`` plays a level (default the "
             f"top one, {names[-1]}); ``choose_move(state, level)`` is the move of a level's player; the command line "
             f"plays the top level.")
    head = _HEAD.format(intro=textwrap.fill(f"An evolved evoplay player of {game.spec} in {len(docs)} levels, "
                                            f"{', '.join(names)}: " + "; ".join(described) + ".", 116),
                        about=textwrap.fill(about, 116), file=file_name, usage=usage,
                        budget="each level's own")
    settings = (f"FEATURES = {list(game.feature_names())!r}\nDEFAULT_LEVEL = {names[-1]!r}  # the top level\n"
                + (_max_utility(game) + "\n" if any_uct else ""))
    table = ("\n\n# Each level: evoplay's FeatureView (its features, free features, board counts, scales), the policy "
             "and\n# depth it evolved with, its opponents at simultaneous moves, its shipped budget, its evaluation.\n"
             "LEVELS = {\n" + "\n".join(levels) + "\n}\n")
    carried = (_carried_player(_LEVEL_VIEW, _LEVEL_PLAYER.replace("class Player:", "class Evaluation:", 1))
               + _UCT_LEVEL_PLAYER + _UCT_METHODS if any_uct else _carried_player(_LEVEL_VIEW, _LEVEL_PLAYER))
    return _assemble(head, game_code, settings, "\n".join(evaluations) + table, carried, usage)


def _max_utility(game) -> str:
    """The game's best return, as evoplay's uct reads it for its solver (a written game may not say it)."""
    best = game.max_utility()
    return f"MAX_UTILITY = {None if best is None else float(best)!r}  # the best return: a move reaching it is proven"


def _indent_after_first(text: str, prefix: str) -> str:
    return text.replace("\n", "\n" + prefix)


def _assemble(head: str, game_code: str, settings: str, evaluation: str, carried_player: str, usage: str) -> str:
    """The Python file: its head, the game, its settings and evaluation, evoplay's carried code, the command line."""
    rule = "# " + "-" * 114
    opening = "\n\n".join([
        head + standalone.IMPORTS,
        f"{rule}\n# The game.\n{rule}\n" + game_code,
        f"{rule}\n# What it reads and how it plays.\n{rule}\n" + settings + "\n",
        f"{rule}\n# The evaluation.\n{rule}" + evaluation,
    ])
    player = "\n\n".join([
        carried_player,
        f"{rule}\n# The command line.\n{rule}" + _MAIN.format(usage=usage) + standalone.command_source()
        + _MAIN_BODY.format(),
    ])
    carried = standalone.resolved(opening + player, _SOURCES)
    text = "\n\n".join([opening, f"{rule}\n# The search and what the player calls: evoplay's own code (evoplay.search."
                          f"minimax, evoplay.agents.feature_player and feature_view).\n{rule}\n" + carried, player])
    missing = standalone.missing_names(text)
    if missing:
        raise SpecError(f"export: the player's carried code needs {', '.join(missing)}, which the exported file "
                        f"does not define; evoplay's export has fallen behind its players (report it)")
    return text


def export_python(folder) -> Path:
    """Write the run's player as best.py: every level of ``levels.json`` (``levels_player_python``), else the
    champion of best.json (``feature_player_python``)."""
    from evoplay.agents.host_export import level_documents
    from evoplay.games import load_game

    if not folder.file("levels.json").is_file():
        doc = folder.read_json("best.json")
        return folder.write_text("best.py", feature_player_python(doc, load_game(doc["game"]), folder.path))
    docs = level_documents(folder)
    game = load_game(list(docs.values())[-1]["game"])
    return folder.write_text("best.py", levels_player_python(docs, game, folder.path))
