"""OpenSpiel's pig, ported: its rules in plain Python beside the same rules as Numba kernels, chance nodes included.

As open_spiel/games/pig/pig.cc, with its parameters ``players``, ``horizon``, ``winscore``, ``diceoutcomes`` and
``piglet``: the player whose turn it is rolls (action 0, ``roll``) or stops (action 1, ``stop``); a roll is a chance
node whose outcome ``i`` (0..diceoutcomes-1, each of probability 1/diceoutcomes) is the face ``i + 1``: a 1 loses
the turn total and passes the turn on, any other face adds to the turn total; with ``piglet`` the die has two
outcomes, 0 (a 1, probability 1/diceoutcomes) and 1 (anything else, adding 1). Stopping banks the turn total and
passes the turn on. A player whose score and turn total reach ``winscore`` may only stop. The game ends when a
score reaches ``winscore`` (returns 1 for that player, -1/(players-1) for the others) or after ``horizon`` rolls
and stops (returns 0 each; a roll that reaches the horizon ends the game before its die is thrown). The observation
tensor (the same for every player) is one-hot rows of ``winscore + 1`` bins: the turn total, then each player's
score, each capped at the last bin.

The kernels' position is the turn total, the player to move (CHANCE while the die is rolling, TERMINAL once the game
is over), whose turn it is, the moves made (rolls and stops, counted against the horizon) and each player's score.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (CHANCE, TERMINAL, PortGame, PortState, draw, encode_state, mix,
                                     seat_relative_among)

ROLL, STOP = 0, 1
TOTAL, MOVER, TURN, MOVES, SCORES = 0, 1, 2, 3, 4  # the position: these, then each player's score
PLAYERS, WIN, DICE, HORIZON, PIGLET = 0, 1, 2, 3, 4  # the kernels' params (the seat index follows)


# --- the rules, plain Python ---------------------------------------------------------------------------------
class PigState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.points = [0] * game.num_players  # OpenSpiel's scores_ (scores() is the State API's: the returns)
        self.turn_total = 0
        self.turn_player = 0
        self.cur = 0  # OpenSpiel's cur_player_: the player to decide, or CHANCE while the die rolls
        self.total_moves = 0

    def _over(self) -> bool:
        g = self.game
        return self.total_moves >= g.horizon or any(s >= g.win_score for s in self.points)

    def current_player(self) -> int:
        return TERMINAL if self._over() else self.cur

    def _legal_actions(self) -> list[int]:
        if self.current_player() == CHANCE:
            return [a for a, _ in self._chance_outcomes()]
        if self.points[self.cur] + self.turn_total >= self.game.win_score:
            return [STOP]
        return [ROLL, STOP]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        d = self.game.dice_outcomes
        if self.game.piglet:
            return [(0, 1.0 / d), (1, 1.0 - 1.0 / d)]
        return [(i, 1.0 / d) for i in range(d)]

    def _do_apply_action(self, action: int) -> None:
        n = self.game.num_players
        if self.cur == CHANCE:
            if action == 0:  # a 1: the turn total is lost, the turn passes on
                self.turn_total = 0
                self.turn_player = (self.turn_player + 1) % n
                self.cur = self.turn_player
            else:
                self.turn_total += 1 if self.game.piglet else action + 1
                self.cur = self.turn_player
        elif action == ROLL:
            self.cur = CHANCE
            self.total_moves += 1
        else:
            self.points[self.turn_player] += self.turn_total
            self.turn_total = 0
            self.turn_player = (self.turn_player + 1) % n
            self.cur = self.turn_player
            self.total_moves += 1

    def returns(self) -> list[float]:
        n = self.game.num_players
        if not self._over():
            return [0.0] * n
        for player, score in enumerate(self.points):
            if score >= self.game.win_score:
                out = [-1.0 / (n - 1)] * n
                out[player] = 1.0
                return out
        return [0.0] * n  # the horizon: nobody won

    def observation(self, player: int) -> list[float]:
        bins = self.game.win_score + 1
        tensor = [0.0] * ((1 + self.game.num_players) * bins)
        tensor[min(self.turn_total, bins - 1)] = 1.0
        for p, score in enumerate(self.points):
            tensor[(1 + p) * bins + min(score, bins - 1)] = 1.0
        return tensor

    def action_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"Roll {action if self.game.piglet else 1 + action}"
        return "roll" if action == ROLL else "stop"

    def transposition_key(self):
        return self.current_player(), self.turn_player, self.turn_total, self.total_moves, tuple(self.points)

    def encode(self) -> np.ndarray:
        return np.array([self.turn_total, self.current_player(), self.turn_player, self.total_moves] + self.points,
                        np.int64)

    def __str__(self) -> str:
        rolling = " (rolling)" if self.cur == CHANCE else ""  # OpenSpiel's text says so even once the game is over
        return (f"Scores: {' '.join(map(str, self.points))}, Turn total: {self.turn_total}\n"
                f"Current player: {self.turn_player}{rolling}\n")


# --- the same rules as kernels --------------------------------------------------------------------------------
@njit(cache=True)
def initial(params, state, seed):
    state[:] = 0  # player 0 to decide, every count 0 (the game refuses parameters that end it before a move)


@njit(cache=True)
def mover(params, state):
    return np.int64(state[MOVER])


@njit(cache=True, inline="always")
def may_roll(params, state, player):
    return state[SCORES + player] + state[TOTAL] < params[WIN]


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[MOVER] < 0 or state[MOVER] != player:
        return 0
    mask[STOP] = 1
    if may_roll(params, state, player):
        mask[ROLL] = 1
        return 2
    return 1


@njit(cache=True)
def moves(params, state, out):
    player = state[MOVER]
    if player < 0:
        return 0
    if may_roll(params, state, player):
        out[0] = ROLL
        out[1] = STOP
        return 2
    out[0] = STOP
    return 1


@njit(cache=True)
def random_move(params, state, out, rng):
    """Roll or stop, each half the time, where both are legal."""
    player = state[MOVER]
    if player < 0:
        return -1
    return draw(rng, 2) if may_roll(params, state, player) else STOP


def python_random_move(state: PigState, draw) -> int:
    """``random_move`` in plain Python (``draw(n)``: a uniformly random integer in [0, n), the kernel's generator)."""
    return draw(2) if len(state.legal_actions()) == 2 else STOP


@njit(cache=True)
def chance(params, state, probs):
    probs[:] = 0.0
    if state[MOVER] != CHANCE:
        return 0
    d = params[DICE]
    if params[PIGLET]:
        probs[0] = 1.0 / d
        probs[1] = 1.0 - 1.0 / d
        return 2
    for i in range(d):
        probs[i] = 1.0 / d
    return d


@njit(cache=True)
def apply(params, state, action):
    n = params[PLAYERS]
    turn = state[TURN]
    if state[MOVER] == CHANCE:
        if action == 0:
            state[TOTAL] = 0
            turn = (turn + 1) % n
            state[TURN] = turn
        else:
            state[TOTAL] += 1 if params[PIGLET] else action + 1
        state[MOVER] = turn  # nothing counted against the end changed: the game goes on
        return
    state[MOVES] += 1
    if action == ROLL:
        state[MOVER] = TERMINAL if state[MOVES] >= params[HORIZON] else CHANCE
        return
    score = state[SCORES + turn] + state[TOTAL]
    state[SCORES + turn] = score
    state[TOTAL] = 0
    state[TURN] = (turn + 1) % n
    state[MOVER] = TERMINAL if score >= params[WIN] or state[MOVES] >= params[HORIZON] else state[TURN]


@njit(cache=True)
def returns(params, state, out):
    n = params[PLAYERS]
    out[:] = 0.0
    if state[MOVER] != TERMINAL:
        return
    for p in range(n):
        if state[SCORES + p] >= params[WIN]:
            for q in range(n):
                out[q] = -1.0 / (n - 1)
            out[p] = 1.0
            return


@njit(cache=True)
def observation(params, state, player, out):
    bins = params[WIN] + 1
    out[:] = 0.0
    out[min(state[TOTAL], bins - 1)] = 1.0
    for p in range(params[PLAYERS]):
        out[(1 + p) * bins + min(state[SCORES + p], bins - 1)] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    raw = np.empty(out.shape[0])
    observation(params, state, player, raw)
    seat_relative_among(params, params[PLAYERS], player, raw, out)


@njit(cache=True)
def state_hash(params, state):
    h = mix(np.int64(state[MOVER]) + 16)
    for i in range(state.shape[0]):  # every number of the position, in turn (none is negative but the mover)
        if i != MOVER:
            h = mix(h + np.uint64(state[i]))
    return np.int64(h)


# --- the game ----------------------------------------------------------------------------------------------------
class Pig(PortGame):
    """OpenSpiel's pig, ported (players, horizon, winscore, diceoutcomes, piglet)."""

    openspiel_name = "pig"
    plays = ("players (2 or more), horizon and winscore (1 or more), diceoutcomes (1 or more; 2 or more with "
             "piglet), piglet")

    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        if settings["players"] < 2:
            return f"players={settings['players']}: the port plays 2 or more (OpenSpiel's returns need an opponent)"
        if settings["winscore"] < 1 or settings["horizon"] < 1:
            return (f"winscore={settings['winscore']}, horizon={settings['horizon']}: the port plays 1 or more of "
                    f"each (less ends the game before its first move)")
        least = 2 if settings["piglet"] else 1
        if settings["diceoutcomes"] < least:
            return (f"diceoutcomes={settings['diceoutcomes']}: the port plays {least} or more"
                    + (" with piglet (OpenSpiel lists an outcome of probability 0 on fewer)" if least == 2 else ""))
        return None

    def setup(self, settings: dict) -> None:
        self.num_players = int(settings["players"])
        self.horizon, self.win_score = int(settings["horizon"]), int(settings["winscore"])
        self.dice_outcomes, self.piglet = int(settings["diceoutcomes"]), bool(settings["piglet"])

    def new_initial_state(self, seed: int | None = None) -> PigState:
        return PigState(self)

    def kernels(self):
        return self.port_kernels(size=SCORES + self.num_players, encode=encode_state, legal=legal, apply=apply,
                                 mover=mover, returns=returns, features=features, initial=initial,
                                 state_hash=state_hash, moves=moves, random_move=random_move, chance=chance,
                                 dtype=np.int64, params=[self.num_players, self.win_score, self.dice_outcomes,
                                                         self.horizon, int(self.piglet)])
