"""OpenSpiel's bots as evoplay agents: ``openspiel_mcts`` plays any game that maps to an OpenSpiel game.

An outside referee for an evolved player: OpenSpiel's C++ MCTS (``pyspiel.MCTSBot`` with random-rollout
evaluation) moves on a pyspiel state equal to the evoplay state it is shown. Which games map:

- ``openspiel:NAME`` games (evoplay.games.tools.openspiel): the wrapped state itself (``state.pyspiel_state``);
- a game that names its OpenSpiel twin (``Game.openspiel_twin``): standard Kalah is OpenSpiel's ``mancala``
  (tests/games/test_kalah_openspiel.py holds the two games equal move for move), the m,n,k-game OpenSpiel's
  ``mnk(m,n,k)``.

A built-in state is replayed from its history into a fresh pyspiel state. Games of simultaneous moves or hidden
information are refused (the bot is a sequential, perfect-information search: it would read hidden cards).
The bot is rebuilt at every ``restart`` from the arena's seed, so the same seed gives the same moves.
"""
from __future__ import annotations

import numpy as np

from evoplay.agents.base import Agent
from evoplay.errors import IllegalActionError, SpecError

def _pyspiel():
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - the openspiel extra is part of the test install
        raise SpecError("OpenSpiel's bots need open_spiel: pip install 'evoplay[openspiel]'") from None
    return pyspiel


class Mapping:
    """How one evoplay game maps to an OpenSpiel game: the pyspiel game, the pyspiel state equal to an evoplay
    state, and an OpenSpiel action back in evoplay's numbers."""

    def __init__(self, pyspiel_game, to_ours=None, to_theirs=None):
        self.pyspiel_game = pyspiel_game
        self._to_ours = to_ours or (lambda action, player: action)
        self._to_theirs = to_theirs or (lambda action, player: action)

    def state(self, state):
        if hasattr(state, "pyspiel_state"):
            return state.pyspiel_state.clone()
        theirs = self.pyspiel_game.new_initial_state()
        for action in state.history:
            theirs.apply_action(self._to_theirs(int(action), theirs.current_player()))
        if theirs.current_player() != state.current_player():
            raise IllegalActionError(f"replaying {state.game.spec}'s history into OpenSpiel's "
                                     f"{self.pyspiel_game} gave a different player to move")
        return theirs

    def action(self, action: int, player: int) -> int:
        return int(self._to_ours(int(action), player))


def mapping(game) -> Mapping | str:
    """The OpenSpiel equivalent of ``game`` (an ``openspiel:`` game, or the twin the game names:
    ``Game.openspiel_twin``), or one line saying why it has none."""
    if hasattr(game, "pyspiel_game"):
        return Mapping(game.pyspiel_game)
    twin = game.openspiel_twin()
    if isinstance(twin, str):
        return twin
    if twin is None:
        from evoplay.games import CLASSES, Game

        twins = ", ".join(n for n, c in CLASSES.items() if c.openspiel_twin is not Game.openspiel_twin)
        return (f"it has no OpenSpiel equivalent (OpenSpiel's bots play openspiel:NAME games and the games that name "
                f"a twin: {twins})")
    name, to_theirs, to_ours = twin
    return Mapping(_pyspiel().load_game(name), to_ours, to_theirs)


def supports(game) -> str | None:
    """Can OpenSpiel's MCTS play ``game``? (None: yes; else the reason.)"""
    m = mapping(game)
    if isinstance(m, str):
        return m
    pyspiel = _pyspiel()
    kind = m.pyspiel_game.get_type()
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        return "OpenSpiel's MCTS searches sequential games only; this one has simultaneous moves"
    if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        return "it hides information, and OpenSpiel's MCTS would search the true state (read hidden cards)"
    return None


class OpenSpielMctsAgent(Agent):
    """OpenSpiel's C++ MCTS (UCT, random rollouts, optional solver) on the OpenSpiel twin of the game."""

    def __init__(self, game, simulations: int = 1000, uct_c: float = 2.0, rollouts: int = 1, solve: bool = True,
                 seed: int = 0, spec: str | None = None):
        super().__init__(game)
        why = supports(game)
        if why:
            raise SpecError(f"openspiel_mcts cannot play {game.spec}: {why}")
        if not 1 <= simulations <= 10_000_000:
            raise SpecError(f"openspiel_mcts: simulations={simulations} is out of range; use 1..10000000")
        if not 0 <= uct_c <= 100:
            raise SpecError(f"openspiel_mcts: uct_c={uct_c} is out of range; use 0..100 (OpenSpiel's default: 2)")
        if not 1 <= rollouts <= 10_000:
            raise SpecError(f"openspiel_mcts: rollouts={rollouts} (random rollouts per leaf) must be in 1..10000")
        self.simulations, self.uct_c, self.rollouts, self.solve = int(simulations), float(uct_c), int(rollouts), solve
        self.spec = spec or "openspiel_mcts"
        self._mapping = mapping(game)
        self._seed = seed
        self._bot = None

    def __getstate__(self):
        # pyspiel bots do not pickle; a worker rebuilds the bot at its first restart.
        d = dict(self.__dict__)
        d["_bot"], d["_mapping"] = None, None
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)
        self._mapping = mapping(self.game)

    def restart(self, seed: int, seat: int = 0) -> None:
        super().restart(seed, seat)
        self._seed = seed
        self._bot = None

    def _make_bot(self):
        pyspiel = _pyspiel()
        bot_seed, rollout_seed = (int(x) for x in np.random.SeedSequence(self._seed).generate_state(2) >> 1)
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, rollout_seed)
        return pyspiel.MCTSBot(self._mapping.pyspiel_game, evaluator, self.uct_c, self.simulations, 1000,
                               bool(self.solve), bot_seed, False)

    def step(self, state) -> int:
        player = state.current_player()
        if player < 0:
            raise IllegalActionError(f"{self.spec}: asked to move where no player moves (current player {player})")
        if self._bot is None:
            self._bot = self._make_bot()
        theirs = self._mapping.state(state)
        return self._mapping.action(self._bot.step(theirs), player)
