"""Kernel ports of OpenSpiel's board games: ``openspiel:NAME`` plays evoplay's port of NAME where there is one.

A port is OpenSpiel's game re-written for evoplay: its rules as a plain-Python reference ``State`` beside the same
rules as Numba kernels (``evoplay.games.kernels``), so every search (``uct``, ``alphabeta``, the rollout controllers,
the evolved feature players) runs inside Numba on it, and held to OpenSpiel move for move: the same action numbers,
legal actions in the same order, the same player to move, observation tensor (evoplay's features), returns and
terminal states, and the same action strings and ``str(state)`` as OpenSpiel prints them. A port's game keeps
``pyspiel_game`` and gives each state a ``pyspiel_state`` (replayed from its history), so OpenSpiel's bots
(``openspiel_mcts``) still referee on it. ``openspiel:NAME(...,engine=openspiel)`` plays OpenSpiel's own instead
(``evoplay.games.tools.openspiel``).

How a port is added (``tic_tac_toe.py`` is the smallest whole example; ``connect_four.py``, ``breakthrough.py``,
``hex.py`` and ``clobber.py`` show parameters, moves of several cells and a flood fill; ``pig.py`` chance nodes and
any number of players):

1. **Read OpenSpiel's C++ rules** (``open_spiel/games/NAME/NAME.cc``): the action numbers, the order
   ``LegalActions`` lists them in, when the game ends, ``Returns``, ``ObservationTensor``, ``ActionToString`` and
   ``ToString``. ``pyspiel`` is the referee: where the text and pyspiel disagree, pyspiel is right.
2. **Write the module** ``ports/NAME.py``, in this order:

   - the rules in plain Python: a ``PortState`` subclass (``evoplay.games.ports.base``) whose ``__init__(game)``
     sets up the start position in plain ints and lists, with the hooks ``current_player``, ``_legal_actions``
     (OpenSpiel's order), ``_do_apply_action`` (OpenSpiel's ``DoApplyAction``; the base records the history),
     ``returns``, ``observation(player)`` (OpenSpiel's observation tensor, flat), ``action_string(player, action)``
     (OpenSpiel's ``ActionToString``), ``__str__`` (its ``ToString``), ``transposition_key`` (the whole position,
     exactly) and ``encode`` (the position as the kernels hold it: a new NumPy array); a game with chance nodes
     also ``_chance_outcomes`` (OpenSpiel's ``ChanceOutcomes``; ``_legal_actions`` lists the outcomes there);
   - the same rules as kernels, each ``@njit(cache=True)``: ``initial``, ``mover``, ``legal``, ``apply``, ``returns``,
     ``observation`` (the raw tensor), ``features`` (three lines: the raw tensor, then ``seat_relative``, or
     ``seat_relative_among`` for more than two players: evoplay's features for OpenSpiel games are the tensor made
     relative to the seat, as the adapter infers it), ``state_hash`` (``mix`` of what the transposition key holds)
     and, with chance nodes, ``chance`` (the outcomes' probabilities; ``legal`` marks none there, ``mover`` says
     CHANCE); the kernels take ``params`` first: the port's own numbers (board size...) at the front, the
     framework appends the seat index after them; for speed, also
     ``moves`` (the legal actions as a list) and ``random_move`` (one drawn uniformly: the random playouts of
     ``PortGame.random_playouts`` and ``evoplay bench ports``; see ``base.PortKernels``);
   - a ``PortGame`` subclass: ``openspiel_name``, ``plays`` (which parameters it plays, in words: ``evoplay
     games`` shows it), ``refuses(settings)`` (why the port cannot play OpenSpiel's
     parameters ``settings``, or None), ``setup(settings)`` (reads them), ``new_initial_state`` and ``kernels()``
     returning ``self.port_kernels(...)`` (which sets the actions, features, scores and the seat index).
3. **Register it**: one line in ``PORTS`` below, ``"NAME": "evoplay.games.ports.NAME:ClassName"``. From then on
   ``openspiel:NAME`` loads it and ``evoplay games`` lists it.
4. **Hold it to OpenSpiel**: ``evoplay check-game openspiel:NAME --against-openspiel`` (``ports.against``) plays
   seeded random games through the port's Python rules, its kernels and pyspiel side by side (a chance outcome drawn
   with its probability and thrown on all three) and names the first difference; add the spec (and its parameter
   variants) to the tables of ``tests/games/test_ports_games.py`` (2,000 games a port, a check-game run, a uct
   game through OpenSpiel's referee) and a row to
   ``evoplay bench ports`` (``evoplay.bench.ports``) and docs/anygame.md.
"""
from __future__ import annotations

#: OpenSpiel's short name -> its port class ("module:Class"), imported when a spec first asks for it
PORTS = {
    "tic_tac_toe": "evoplay.games.ports.tic_tac_toe:TicTacToe",
    "connect_four": "evoplay.games.ports.connect_four:ConnectFour",
    "breakthrough": "evoplay.games.ports.breakthrough:Breakthrough",
    "hex": "evoplay.games.ports.hex:Hex",
    "clobber": "evoplay.games.ports.clobber:Clobber",
    "othello": "evoplay.games.ports.othello:Othello",
    "pentago": "evoplay.games.ports.pentago:Pentago",
    "dots_and_boxes": "evoplay.games.ports.dots_and_boxes:DotsAndBoxes",
    "mancala": "evoplay.games.ports.mancala:Mancala",
    "oware": "evoplay.games.ports.oware:Oware",
    "pig": "evoplay.games.ports.pig:Pig",
}


def port_class(name: str):
    """The port class of OpenSpiel's game ``name`` (imported), or None when evoplay has no port of it."""
    from importlib import import_module

    path = PORTS.get(name)
    if path is None:
        return None
    module, _, attr = path.partition(":")
    return getattr(import_module(module), attr)


def port_table() -> list[tuple[str, str]]:
    """(``openspiel:NAME``, which of OpenSpiel's parameters the port plays) for every port, by name."""
    return [(f"openspiel:{name}", port_class(name).plays) for name in sorted(PORTS)]
