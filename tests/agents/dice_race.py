"""A game for the kernel tests with chance and any number of players, as a Python State and as kernels.

Players take turns; a turn is a roll of a die (a chance node: 1, 2 or 3 with probabilities 0.5, 0.25, 0.25) and
then the mover's choice: advance by the roll (action 0), by 1 (action 1) or by the roll plus 1 (action 2, only
while that does not pass the goal). Who reaches the goal first wins: return 1, the others -1 / (players - 1).
A position is [each player's square, the player to move (or TERMINAL), the roll waiting to be used (0: the die
is to be rolled)].
"""
import numpy as np
from numba import njit

from evoplay.games.agent import Agent, AgentEntry
from evoplay.games.base import CHANCE, TERMINAL, Game, State
from evoplay.games.kernels import Kernels
from evoplay.spec import Param

PROBS = (0.5, 0.25, 0.25)


class DiceRace(Game):
    name = "dice_race"
    players = {"cautious": f"{__name__}:CAUTIOUS"}  # an agent only this game has (Game.players)
    parameters = (Param("players", int, 3, "players"), Param("goal", int, 12, "the square that wins"))

    def __init__(self, spec, params):
        super().__init__(spec, params)
        self.num_players = int(params["players"])
        self.goal = int(params["goal"])

    def new_initial_state(self, seed=None):
        return DiceRaceState(self, [0] * self.num_players, 0, 0)

    def num_distinct_actions(self):
        return 3

    def max_utility(self):
        return 1.0

    def feature_names(self):
        return ["mine", "best_other", "roll"]

    def kernels(self):
        return Kernels(size=self.num_players + 2, actions=3, encode=encode, legal=legal, apply=apply, mover=mover,
                       returns=returns, scores=scores, features=features, n_features=3, chance=chance,
                       state_hash=state_hash, players=self.num_players, params=np.array([self.num_players, self.goal]),
                       dtype=np.int64)


class DiceRaceState(State):
    def __init__(self, game, squares, player, roll, history=()):
        self.game, self.squares, self.player, self.roll = game, list(squares), player, roll
        self.history = list(history)

    def current_player(self):
        if self.player == TERMINAL:
            return TERMINAL
        return CHANCE if self.roll == 0 else self.player

    def chance_outcomes(self):
        return [(a, p) for a, p in enumerate(PROBS)]

    def _legal_actions(self):
        if self.roll == 0:
            return [0, 1, 2]
        out = [0, 1]
        if self.squares[self.player] + self.roll + 1 <= self.game.goal:
            out.append(2)
        return out

    def _apply_action(self, action):
        self.history.append(action)
        if self.roll == 0:
            self.roll = action + 1
            return
        step = (self.roll, 1, self.roll + 1)[action]
        self.squares[self.player] += step
        self.roll = 0
        if self.squares[self.player] >= self.game.goal:
            self.player = TERMINAL
        else:
            self.player = (self.player + 1) % self.game.num_players

    def returns(self):
        n = self.game.num_players
        if self.player != TERMINAL:
            return [0.0] * n
        return [1.0 if s >= self.game.goal else -1.0 / (n - 1) for s in self.squares]

    def scores(self):
        return [float(s) for s in self.squares]

    def features(self, player):
        others = [s for p, s in enumerate(self.squares) if p != player]
        return np.array([self.squares[player], max(others), self.roll], dtype=np.float64)

    def transposition_key(self):
        return (tuple(self.squares), self.player, self.roll)

    def clone(self):
        return DiceRaceState(self.game, self.squares, self.player, self.roll, self.history)


def encode(state):
    return np.array(state.squares + [state.player, state.roll], np.int64)


@njit(cache=True)
def mover(params, state):
    n = params[0]
    if state[n] == TERMINAL:
        return TERMINAL
    return CHANCE if state[n + 1] == 0 else state[n]


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    n, goal = params[0], params[1]
    who = mover(params, state)
    if who < 0 or who != player:
        return 0
    mask[0] = 1
    mask[1] = 1
    if state[player] + state[n + 1] + 1 <= goal:
        mask[2] = 1
        return 3
    return 2


@njit(cache=True)
def chance(params, state, probs):
    probs[0] = 0.5
    probs[1] = 0.25
    probs[2] = 0.25
    return 3


@njit(cache=True)
def apply(params, state, action):
    n, goal = params[0], params[1]
    roll = state[n + 1]
    if roll == 0:
        state[n + 1] = action + 1
        return
    player = state[n]
    step = roll if action == 0 else (1 if action == 1 else roll + 1)
    state[player] += step
    state[n + 1] = 0
    state[n] = TERMINAL if state[player] >= goal else (player + 1) % n


@njit(cache=True)
def returns(params, state, out):
    n, goal = params[0], params[1]
    for p in range(n):
        out[p] = 0.0 if state[n] != TERMINAL else (1.0 if state[p] >= goal else -1.0 / (n - 1))


@njit(cache=True)
def scores(params, state, out):
    for p in range(params[0]):
        out[p] = state[p]


@njit(cache=True)
def features(params, state, player, out):
    n = params[0]
    best = -1
    for p in range(n):
        if p != player and state[p] > best:
            best = state[p]
    out[0] = state[player]
    out[1] = best
    out[2] = state[n + 1]


@njit(cache=True)
def state_hash(params, state):
    key = np.int64(0)
    for i in range(state.shape[0]):
        key = key * 64 + state[i] + 8
    return key


class Cautious(Agent):
    """Always advances by one square (action 1), or by ``step`` when given: the dice race's own agent."""

    def __init__(self, game, step: int = 1, spec: str = "cautious"):
        super().__init__(game)
        self.action, self.spec = step, spec

    def step(self, state):
        legal = state.legal_actions()
        return self.action if self.action in legal else legal[0]


CAUTIOUS = AgentEntry(lambda game, spec, action: Cautious(game, action, spec),
                      (Param("action", int, 1, "the action it always plays (0 the roll, 1 one square, 2 the roll + 1)"),),
                      "the dice race's own agent: always the same action")

