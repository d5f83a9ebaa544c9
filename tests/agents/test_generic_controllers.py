"""rs, rhea, mcts, lookahead and alphabeta on any game through the game API (evoplay.search.rollout's references)."""
import inspect

import numpy as np
import pytest
from numba import njit
from click.testing import CliRunner

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.agents.alphabeta import AlphaBetaAgent
from evoplay.arena import match, play_game
from evoplay.cli import main
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import CHANCE, TERMINAL, Game, State
from evoplay.search import rollout

CONTROLLERS = ("rs", "rhea", "mcts", "lookahead")
#: OpenSpiel's own connect four, searched through the game API as this file means (on evoplay's port every search
#: would run on its kernels, compiled for it alone: a minute of CPU for what the built-ins' kernels already check)
CONNECT_FOUR = "openspiel:connect_four(engine=openspiel)"


# --- the game API path equals the Numba kernels on the built-ins ------------------------------------------------

@pytest.mark.parametrize("name", CONTROLLERS)
@pytest.mark.parametrize("spec, budget, discount", [
    ("tron(w=6,h=6)", 80, 1.0), ("kalah(pits=4,seeds=3)", 120, 1.0), ("mnk(m=4,n=4,k=3)", 120, 0.9),
    ("kalah", 60, 0.9),
])
def test_the_game_api_path_plays_the_same_games_as_the_numba_kernels(name, spec, budget, discount):
    game = load_game(spec)
    histories = []
    for model in ("auto", "api"):
        a = make_agent(f"{name}(iterations={budget},discount={discount},model={model})", game)
        b = make_agent(f"mcts(iterations=60,model={model})", game)
        assert a.model == ("numba" if model == "auto" else "api")
        games = [play_game(game, [a, b], seed=7), play_game(game, [b, a], seed=8)]
        histories.append([list(s.history) for s in games])
    assert histories[0] == histories[1]


_pick = rollout.pick


@njit
def _reads_a_position_unbound(params, position, mask):
    return _pick(mask, 1)


def test_each_kernel_of_the_binding_is_defined_over_states_with_its_arguments():
    for name in rollout.BINDING:
        kernel, over_states = getattr(rollout, name).py_func, getattr(rollout, f"reference_{name}")
        assert len(inspect.signature(kernel).parameters) == len(inspect.signature(over_states).parameters), name
    with pytest.raises(TypeError, match="calls evoplay.search.rollout.pick, which is neither in its BINDING"):
        rollout.on_states(_reads_a_position_unbound)
    # a text over States calls the State functions, the generator's kernels as they are
    text = rollout.on_states(rollout.evaluate_sequence)
    assert text.__globals__["play_step"] is rollout.reference_play_step
    assert text.__globals__["discounted"] is rollout.discounted
    state = load_game("kalah(pits=4,seeds=3)").new_initial_state()
    rollout.reseed(1)
    assert text(None, state, None, 0, np.array([3] * 6), 6, 1.0, rollout.NO_SCRATCH) != 0


def test_the_api_path_counts_its_rollouts_like_the_kernels():
    game = load_game("kalah")
    state = game.new_initial_state()
    for name, expect in (("rs", 200), ("rhea", 10 + 21 * 9), ("mcts", 200), ("lookahead", 6)):
        fast, api = make_agent(f"{name}(iterations=200)", game), make_agent(f"{name}(iterations=200,model=api)", game)
        assert fast.step(state) == api.step(state)
        assert fast.last_evaluations == api.last_evaluations == expect


@pytest.mark.parametrize("clock", ("wall", "cpu"))
@pytest.mark.parametrize("name", CONTROLLERS)
def test_a_time_budget_on_the_game_api_runs_rollouts_within_it(name, clock):
    game = load_game(CONNECT_FOUR)  # no kernels: the game API
    agent = make_agent(f"{name}(budget_ms=30,clock={clock})", game)
    assert agent.model == "api"
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()
    assert agent.last_evaluations > 0
    if clock == "cpu":  # thread CPU time cannot be stretched by other processes holding the core
        assert agent.last_seconds < 5


# --- issue 15: a controller asked to move for another seat -------------------------------------------------------

@pytest.mark.parametrize("model", ("auto", "api"))
@pytest.mark.parametrize("name", CONTROLLERS)
@pytest.mark.parametrize("spec", ("kalah", "mnk", CONNECT_FOUR))
def test_a_controller_moves_for_the_player_to_move_whatever_its_seat(name, model, spec):
    game = load_game(spec)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1
    agent = make_agent(f"{name}(iterations=100,model={model})", game)
    agent.restart(5, 0)  # seated first, asked for the second player
    wrong_seat = agent.step(state)
    agent.restart(5, 1)
    assert wrong_seat in state.legal_actions() and wrong_seat == agent.step(state)


def test_a_controller_asked_at_a_chance_node_says_no_player_moves():
    game = load_game("openspiel:pig")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # roll: a chance node follows
    assert state.current_player() == CHANCE
    with pytest.raises(IllegalActionError, match="chance node"):
        make_agent("rs(iterations=10)", game).step(state)


# --- every kind of game -----------------------------------------------------------------------------------------

KINDS = (
    CONNECT_FOUR,                        # turn-based
    "openspiel:pig(winscore=20)",        # chance
    "openspiel:goofspiel(num_cards=4)",  # simultaneous
    "openspiel:kuhn_poker(players=3)",   # three players, hidden cards, chance
    "sevens",                            # four players, hidden hands
)


@pytest.mark.parametrize("spec", KINDS)
@pytest.mark.parametrize("name", CONTROLLERS + ("alphabeta",))
def test_every_search_plays_every_kind_of_game_reproducibly(name, spec):
    game = load_game(spec)
    agent = "alphabeta(depth=2)" if name == "alphabeta" else f"{name}(iterations=30)"
    runs = []
    for _ in range(2):
        agents = [make_agent(agent, game)] + [make_agent("random", game) for _ in range(game.num_players - 1)]
        state = play_game(game, agents[::-1] if game.num_players == 2 else agents, seed=3)
        assert state.current_player() == TERMINAL
        runs.append((state.returns(), state.scores()))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("spec", ("rs(iterations=200,discount=0.9)", "mcts(iterations=200)", "alphabeta(depth=2)"))
def test_a_generic_search_beats_random_at_connect_four(spec):
    game = load_game(CONNECT_FOUR)
    result = match(game, make_agent(spec, game), make_agent("random", game), games=8, seed=2)
    assert result.stats()[0].wins >= 7


@pytest.mark.parametrize("name", CONTROLLERS)
def test_a_controller_takes_a_win_in_one_on_a_plain_python_board(name):
    # connect four, X to move with three in the bottom row: column 3 wins at once.
    game = load_game(CONNECT_FOUR)
    state = game.new_initial_state()
    for a in (0, 0, 1, 1, 2, 2):
        state.apply_action(a)
    agent = make_agent(f"{name}(iterations=300,discount=0.9)", game)
    agent.restart(1, 0)
    assert agent.step(state) == 3


# --- hidden information: a search never reads what its player cannot see ---------------------------------------

class CoinGame(Game):
    """Chance tosses a coin that only the second player sees; the first player guesses it and wins if right."""

    name = "coin"
    perfect_information = False

    def __init__(self):
        super().__init__("coin", {})

    def new_initial_state(self, seed=None):
        return CoinState(self, None, None)

    def num_distinct_actions(self):
        return 2


class CoinState(State):
    def __init__(self, game, coin, guess):
        self.game, self.coin, self.guess = game, coin, guess

    def current_player(self):
        return CHANCE if self.coin is None else (0 if self.guess is None else TERMINAL)

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)]

    def _legal_actions(self):
        return [0, 1]

    def _apply_action(self, action):
        if self.coin is None:
            self.coin = action
        else:
            self.guess = action

    def returns(self):
        if self.guess is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.guess == self.coin else [-1.0, 1.0]

    def clone(self):
        return CoinState(self.game, self.coin, self.guess)

    def resample(self, player, rng):
        coin = self.coin if player == 1 or self.coin is None else int(rng.integers(2))
        return CoinState(self.game, coin, self.guess)


class CoinGameWithoutResample(CoinGame):
    def new_initial_state(self, seed=None):
        return BareCoinState(self, None, None)


class BareCoinState(CoinState):
    resample = State.resample


@pytest.mark.parametrize("name", CONTROLLERS + ("alphabeta",))
def test_a_search_guesses_a_hidden_coin_no_better_than_chance(name):
    """A search that read the true state would always guess right (its rollouts would see the coin)."""
    game = CoinGame()
    agent = make_agent("alphabeta(depth=1)" if name == "alphabeta" else f"{name}(iterations=40)", game)
    right = 0
    for deal in range(60):
        state = game.new_initial_state()
        state.apply_action(deal % 2)
        agent.restart(deal, 0)
        right += agent.step(state) == state.coin
    assert 15 <= right <= 45


@pytest.mark.parametrize("name", CONTROLLERS + ("alphabeta",))
def test_hidden_information_without_resample_is_refused_before_play(name):
    with pytest.raises(SpecError, match="resample"):
        make_agent(name, CoinGameWithoutResample())


# --- alphabeta's leaf values ----------------------------------------------------------------------------------

def test_alphabeta_on_any_game_blocks_a_win_in_one():
    game = load_game(CONNECT_FOUR)
    state = game.new_initial_state()
    for a in (0, 6, 1, 6, 2):  # X threatens column 3; O to move must block
        state.apply_action(a)
    assert make_agent("alphabeta(depth=2)", game).step(state) == 3


def test_alphabeta_evaluates_a_named_feature_and_refuses_an_unknown_one():
    game = load_game("kalah(empty_capture=false)")
    # Pit 6 (one seed) reaches the store; pit 1 (one seed) feeds pit 2 instead (nothing opposite to capture).
    state = game.state_from_board([1, 0, 0, 0, 0, 1, 0] + [1, 1, 1, 1, 0, 1] + [0], 0)
    by_score = make_agent("alphabeta(depth=1,eval=score)", game)
    by_pit = make_agent("alphabeta(depth=1,eval=feature:my_pit_2)", game)
    assert isinstance(by_score, AlphaBetaAgent) and isinstance(by_pit, AlphaBetaAgent)  # not the game's own
    assert by_score.step(state) == 5 and by_pit.step(state) == 0
    with pytest.raises(SpecError, match="no feature 'my_stor'.*did you mean 'my_store'"):
        make_agent("alphabeta(eval=feature:my_stor)", game)
    with pytest.raises(SpecError, match="auto, score or feature:NAME"):
        make_agent("alphabeta(eval=lines)", game)


def test_alphabeta_plays_the_games_own_search_where_it_has_one():
    assert type(make_agent("alphabeta", load_game("kalah"))).__name__ == "KalahAlphaBeta"
    assert type(make_agent("alphabeta", load_game("mnk"))).__name__ == "MnkAlphaBeta"
    assert isinstance(make_agent("alphabeta", load_game(CONNECT_FOUR)), AlphaBetaAgent)


# --- evoplay agents --game ------------------------------------------------------------------------------------

def test_the_agents_command_lists_what_can_play_a_game_and_why_the_rest_cannot():
    result = CliRunner().invoke(main, ["agents", "--game", "openspiel:leduc_poker"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    playable, _, refused = result.output.partition("cannot play openspiel:leduc_poker")
    for name in ("rs", "rhea", "mcts", "lookahead", "alphabeta", "random"):
        # a table's row on a wide console, a paragraph "name - what it is" on a narrower one (pytest's is 100)
        assert f"│ {name} " in playable or f"\n{name} - " in playable
    assert "openspiel_mcts" in refused and "hides information" in refused
    assert "sevens_heuristic" in refused and "Sevens only" in refused
