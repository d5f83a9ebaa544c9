"""The players' alpha-beta for any game (evoplay.search.minimax) against brute-force minimax: tic-tac-toe, a small
Kalah, a dice game, simultaneous moves."""
from __future__ import annotations

import math

import numpy as np
import pytest

from evoplay.search.minimax import SAMPLES, TERMINAL_SCALE, batched, search
from evoplay.errors import SpecError
from evoplay.games import load_game
from evoplay.games.base import CHANCE, TERMINAL, Game, State
from three_moves import ThreeMoves

# --- a chance game of our own: race to 6, either step 1 or roll a die of 0, 2, 3 ------------------------------


class DiceRace(Game):
    name = "dice_race"
    num_players = 2

    def __init__(self):
        super().__init__("dice_race", {})

    def new_initial_state(self, seed=None):
        return DiceRaceState(self, [0, 0], 0, None)

    def num_distinct_actions(self):
        return 2


ROLL = [(0, 0.5), (2, 0.3), (3, 0.2)]


class DiceRaceState(State):
    def __init__(self, game, pos, player, rolling):
        self.game, self.pos, self.player, self.rolling = game, list(pos), player, rolling

    def current_player(self):
        if max(self.pos) >= 6:
            return TERMINAL
        return CHANCE if self.rolling is not None else self.player

    def _legal_actions(self):
        if self.rolling is not None:
            return [a for a, _ in ROLL]
        return [0, 1]

    def chance_outcomes(self):
        return list(ROLL)

    def _apply_action(self, action):
        if self.rolling is not None:
            self.pos[self.rolling] += action
            self.rolling = None
            self.player = 1 - self.player
        elif action == 0:
            self.pos[self.player] += 1
            self.player = 1 - self.player
        else:
            self.rolling = self.player

    def returns(self):
        if max(self.pos) < 6:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.pos[0] >= 6 else [-1.0, 1.0]

    def clone(self):
        return DiceRaceState(self.game, self.pos, self.player, self.rolling)


# --- brute force ---------------------------------------------------------------------------------------------


def minimax(state, player, depth, evaluate):
    """Plain minimax with the generic search's conventions, no pruning."""
    if state.is_terminal():
        return state.returns()[player] * (TERMINAL_SCALE + depth)
    if state.is_chance_node():  # never a leaf: its outcomes are
        total = 0.0
        for a, p in state.chance_outcomes():
            c = state.clone()
            c.apply_action(a)
            total += p * minimax(c, player, depth, evaluate)
        return total
    if depth == 0:
        return evaluate(state, player)
    values = []
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        values.append(minimax(c, player, depth - 1, evaluate))
    return max(values) if state.current_player() == player else min(values)


def board_eval(seed):
    weights = np.random.default_rng(seed).normal(size=64)

    def evaluate(state, player):
        b = np.asarray(state.board(), dtype=np.float64) if hasattr(state, "board") else np.array(state.pos, float)
        v = float(b @ weights[: b.size])
        return v if player == 0 else -v
    return evaluate


def check_root(state, depth, evaluate):
    player = state.current_player()
    actions, values = search(state, player, depth, evaluate)
    assert actions == state.legal_actions()
    true = []
    for a in actions:
        c = state.clone()
        c.apply_action(a)
        true.append(minimax(c, player, depth - 1, evaluate))
    true = np.array(true)
    best = true.max()
    assert values.max() == pytest.approx(best)
    tied = np.isclose(true, best)
    # the best move and every move tied with it exactly; every worse move a bound still below the best
    np.testing.assert_allclose(values[tied], true[tied])
    assert (values[~tied] < best).all()
    assert (values[~tied] >= true[~tied] - 1e-9).all()
    return actions, values


def random_positions(game, count, seed, max_moves):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.new_initial_state()
        for _ in range(int(rng.integers(max_moves + 1))):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
        if not s.is_terminal() and not s.is_chance_node():
            out.append(s)
    return out


@pytest.mark.parametrize("depth", [1, 2, 3, 9])
def test_tictactoe_matches_brute_force_minimax(depth):
    game = load_game("mnk(m=3,n=3,k=3)")
    evaluate = board_eval(1)
    for s in random_positions(game, 12, depth, 6):
        check_root(s, depth, evaluate)


def test_tictactoe_full_depth_finds_the_draw_and_the_win():
    game = load_game("mnk(m=3,n=3,k=3)")
    _, values = search(game.new_initial_state(), 0, 9, lambda s, p: 0.0)
    assert values.max() == 0.0  # perfect play draws
    s = game.state_from_board([1, 1, 0, 2, 2, 0, 0, 0, 0], 0)
    actions, values = search(s, 0, 3, lambda s, p: 0.0)
    assert actions[int(np.argmax(values))] == 2  # complete the row
    assert values.max() == TERMINAL_SCALE + 2  # a win now is worth more than a win later


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_small_kalah_matches_brute_force_minimax(depth):
    game = load_game("kalah(pits=3,seeds=2)")

    def store_difference(state, player):
        sc = state.scores()
        return sc[player] - sc[1 - player]
    for s in random_positions(game, 15, 10 + depth, 8):
        check_root(s, depth, store_difference)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_chance_game_takes_the_expectation(depth):
    game = DiceRace()
    evaluate = board_eval(5)
    for s in random_positions(game, 15, 20 + depth, 6):
        check_root(s, depth, evaluate)


def test_chance_expectation_by_hand():
    # player 0 at 5: stepping wins at once; rolling wins with probability 0.5 only (a 0 hands the move over)
    s = DiceRaceState(DiceRace(), [5, 0], 0, None)
    actions, values = search(s, 0, 2, lambda st, p: 0.0)
    assert values[0] == TERMINAL_SCALE + 1
    assert values[1] == pytest.approx(0.5 * (TERMINAL_SCALE + 1))
    # at depth 1 the roll is not a leaf: its outcomes are (a 0 is a position player 1 is to move in, scored 7;
    # a 2 or a 3 wins), and the evaluation is never asked about the position with the die in the air
    asked = []
    _, values = search(s, 0, 1, lambda st, p: asked.append(st.rolling) or 7.0)
    assert values[1] == pytest.approx(0.5 * 7.0 + 0.5 * TERMINAL_SCALE)
    assert asked and all(rolling is None for rolling in asked)


def test_batched_evaluation_gives_the_same_values_in_fewer_calls():
    game = load_game("mnk(m=3,n=3,k=3)")
    evaluate = board_eval(3)
    calls = {"one": 0, "many": 0}

    def one(state, player):
        calls["one"] += 1
        return evaluate(state, player)

    @batched
    def many(states, player):
        calls["many"] += 1
        return np.array([evaluate(s, player) for s in states])

    for s in random_positions(game, 10, 4, 4):
        for depth in (1, 2, 3):
            a1, v1 = search(s, s.current_player(), depth, one)
            a2, v2 = search(s, s.current_player(), depth, many)
            assert a1 == a2
            best = np.isclose(v1, v1.max())
            assert (np.isclose(v2, v2.max()) == best).all()
            np.testing.assert_allclose(v2[best], v1[best])
    assert calls["many"] < calls["one"]


def test_three_players_paranoid():
    # every other player minimises: with three players the root value is max over min over min
    def payoff(m):
        # player 0 wins only if both others play the same as it
        r0 = 1.0 if m[0] == m[1] == m[2] else (-1.0 if m[1] != m[2] else 0.0)
        return [r0, -r0, -r0]

    s = ThreeMoves(payoff).new_initial_state()
    _, values = search(s, 0, 3, lambda st, p: 0.0)
    # the others pick different actions: every move of player 0 loses
    assert (values == -TERMINAL_SCALE).all()


def test_simultaneous_noop_and_sampled_opponent():
    game = load_game("tron(w=5,h=5)")
    s = game.new_initial_state(0)
    seen = []

    def evaluate(state, player):
        seen.append(state.history[-1])
        return 0.0
    actions, _ = search(s, 0, 1, evaluate)
    assert actions == [0, 1, 2, 3, 4]
    assert {h[1] for h in seen} == {4}  # without rng the opponent plays NIL, the grid games' no-op
    alive = []
    for a in actions:
        c = s.clone()
        c.apply_actions([a, 4])
        if not c.is_terminal():
            alive.append(a)
    assert [h[0] for h in seen] == alive and len(alive) >= 2
    seen.clear()
    search(s, 1, 1, evaluate, rng=np.random.default_rng(3))
    assert len({h[0] for h in seen}) == 1  # one sampled opponent action per node
    assert len(seen) >= 2 and len({h[1] for h in seen}) == len(seen)


def test_hidden_information_searches_a_resampled_state():
    class Hidden(DiceRace):
        perfect_information = False

    calls = []

    class HiddenState(DiceRaceState):
        def resample(self, player, rng):
            calls.append(player)
            return DiceRaceState(self.game, self.pos, self.player, self.rolling)

    s = HiddenState(Hidden(), [0, 0], 0, None)
    search(s, 0, 2, lambda st, p: 0.0, rng=np.random.default_rng(0))
    assert calls == [0] * SAMPLES  # the default number of determinisations, each drawn for the searching player
    calls.clear()
    search(s, 0, 2, lambda st, p: 0.0, rng=np.random.default_rng(0), samples=3)
    assert calls == [0] * 3


class Hidden(DiceRace):
    perfect_information = False


class GuessState(DiceRaceState):
    """A dice race whose hidden part is where the opponent stands: each determinisation draws it."""

    def resample(self, player, rng):
        pos = list(self.pos)
        pos[1 - player] = int(rng.integers(0, 5))
        return DiceRaceState(OPEN, pos, self.player, self.rolling)  # a position of the open game: nothing left hidden


OPEN = DiceRace()


def lead(st, p):
    return float(st.pos[p] - st.pos[1 - p])


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_hidden_information_averages_the_determinisations(depth):
    """Each root action's value is its mean over the determinisations, each searched on its own (exact values:
    a full window at the root), with or without a budget that lets every iteration finish."""
    s = GuessState(Hidden(), [1, 2], 0, None)
    drawn = [GuessState.resample(s, 0, rng) for rng in [np.random.default_rng(5)] for _ in range(4)]
    expected = np.mean([search_all(d, 0, depth, lead) for d in drawn], axis=0)
    actions, values = search(s, 0, depth, lead, rng=np.random.default_rng(5), samples=4)
    assert actions == [0, 1]
    assert values == pytest.approx(expected)
    from evoplay.search.minimax import Budget
    _, deepened = search(s, 0, depth, lead, rng=np.random.default_rng(5), samples=4, budget=Budget(nodes=10**7))
    assert deepened == pytest.approx(expected)


def search_all(state, player, depth, evaluate):
    """Every root action's exact value on a state of perfect information (a search per action)."""
    out = []
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        out.append(minimax(c, player, depth - 1, evaluate))
    return out


def test_one_determinisation_is_the_search_of_that_state():
    s = GuessState(Hidden(), [1, 2], 0, None)
    drawn = GuessState.resample(s, 0, np.random.default_rng(9))
    assert search(s, 0, 3, lead, rng=np.random.default_rng(9), samples=1)[1].tolist() == \
        search(drawn, 0, 3, lead)[1].tolist()
    with pytest.raises(SpecError, match="samples"):
        search(s, 0, 2, lead, rng=np.random.default_rng(0), samples=0)


def test_bad_calls_raise_clear_errors():
    game = load_game("mnk(m=3,n=3,k=3)")
    s = game.new_initial_state()
    with pytest.raises(SpecError, match="depth"):
        search(s, 0, 0, lambda st, p: 0.0)
    with pytest.raises(SpecError, match="turn"):
        search(s, 1, 2, lambda st, p: 0.0)
    nan_values = search(s, 0, 1, lambda st, p: math.nan)[1]
    assert (nan_values == 0.0).all()
