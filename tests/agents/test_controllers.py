"""The controllers: seed 002's rs, rhea, mcts and one-step lookahead on all four built-in games."""
import pickle

import pytest

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.arena import match, play_game
from evoplay.errors import SpecError
from evoplay.search.rollout import HUGE_POSITIVE
from evoplay.games.forward import BODY
from evoplay.games.tron.game import DOWN, WALL

CONTROLLERS = ("rs", "rhea", "mcts", "lookahead")
GAMES = ("tron(w=6,h=6)", "gems(w=5,h=5,ticks=12)", "kalah(pits=4,seeds=3)", "mnk(m=4,n=4,k=3)")


def test_specs_defaults_and_canonical_names():
    game = load_game("tron")
    rs = make_agent("rs", game)
    assert (rs.budget_ms, rs.depth, rs.discount, rs.break_ms, rs.iterations) == (40.0, 10, 1.0, 10.0, 0)
    assert make_agent("rs(budget_ms=40,depth=10)", game).name == "rs"
    assert make_agent("rs(budget_ms=160)", game).break_ms == 40.0
    rhea = make_agent("rhea", game)
    assert (rhea.population, rhea.elitism, rhea.tournament, rhea.mutation, rhea.depth) == (10, 1, 2, 1, 10)
    mcts = make_agent("mcts", game)
    assert mcts.k == pytest.approx(2**0.5) and mcts.depth == 10
    assert make_agent("lookahead(iterations=50)", game).name == "lookahead(iterations=50)"


@pytest.mark.parametrize("spec, message", [
    ("rs(budget_ms=0)", "budget_ms"), ("rs(depth=0)", "depth"), ("rs(discount=1.5)", "discount"),
    ("rs(iterations=-1)", "iterations"), ("rs(budget_ms=10,break_ms=10)", "break_ms"),
    ("rhea(elitism=10)", "elitism"), ("rhea(population=1)", "population"), ("rhea(tournament=11)", "tournament"),
    ("rhea(mutation=11)", "mutation"), ("mcts(k=-1)", "k="), ("rs(depht=3)", "did you mean 'depth'"),
    ("rs(clock=gpu)", "clock"),
])
def test_bad_parameters_say_what_would_be_right(spec, message):
    with pytest.raises(SpecError, match=message):
        make_agent(spec, load_game("tron"))


def test_a_game_without_kernels_is_searched_through_the_game_api():
    assert make_agent("rs", load_game("sevens")).model == "api"
    assert make_agent("rs", load_game("kalah")).model == "numba"


@pytest.mark.parametrize("name", CONTROLLERS)
@pytest.mark.parametrize("spec", GAMES)
def test_an_iteration_budget_makes_a_seeded_game_reproducible(name, spec):
    game = load_game(spec)
    budget = "iterations=30" if name == "lookahead" else "iterations=120"
    histories = []
    for _ in range(2):
        a, b = make_agent(f"{name}({budget})", game), make_agent(f"rs({budget})", game)
        state = play_game(game, [a, b], seed=11)
        histories.append((list(state.history), state.returns()))
    assert histories[0] == histories[1]


def test_iteration_budgets_are_counted_in_rollouts():
    game = load_game("tron(w=8,h=8)")
    state = game.new_initial_state()
    rs = make_agent("rs(iterations=500)", game)
    rs.step(state)
    assert rs.last_evaluations == 500
    rhea = make_agent("rhea(iterations=100)", game)
    rhea.step(state)
    assert rhea.last_evaluations == 10 + 9 * 10  # the first population, then whole generations of 9
    mcts = make_agent("mcts(iterations=300)", game)
    mcts.step(state)
    assert mcts.last_evaluations == 300 and 1 < mcts.last_nodes <= 301
    look = make_agent("lookahead(iterations=50)", game)
    look.step(state)
    assert look.last_evaluations == 50


def _cornered_tron():
    """A tron state where player 0 can only survive by turning down."""
    game = load_game("tron(w=6,h=5)")
    state = game.new_initial_state()
    head = state.heads()[0]
    state.buf[BODY + head - game.width] = WALL  # above
    state.buf[BODY + head + 1] = WALL  # ahead (heading right)
    return game, state


@pytest.mark.parametrize("name", CONTROLLERS)
def test_every_controller_avoids_the_crash(name):
    game, state = _cornered_tron()
    agent = make_agent(f"{name}(iterations=400)", game)
    for seed in range(3):
        agent.restart(seed, 0)
        assert agent.step(state) == DOWN


@pytest.mark.parametrize("name", CONTROLLERS)
def test_every_controller_takes_an_immediate_win(name):
    """With a discount below 1 a win now beats a win later (with the seed's 1.0 they are worth the same)."""
    game = load_game("mnk")  # 5,5,4
    state = game.state_from_board([1, 1, 1, 0, 0, 2, 2, 2, 0, 0] + [0] * 15, 0)
    agent = make_agent(f"{name}(iterations=600,discount=0.9)", game)
    agent.restart(3, 0)
    assert agent.step(state) == 3


def test_discount_weighs_the_value_by_the_steps_played():
    game = load_game("mnk")
    state = game.state_from_board([1, 1, 1, 0, 0, 2, 2, 2, 0, 0] + [0] * 15, 0)
    # The seed's discount 1.0: any sequence that wins within the horizon is worth +1000, so the first one
    # sampled wins the decision, a later win as well as the immediate one.
    rs = make_agent("rs(iterations=300)", game)
    rs.restart(0, 0)
    rs.step(state)
    assert rs.last_value == HUGE_POSITIVE
    # With 0.5 the immediate win (one step) is worth 500 and beats every later one.
    rs = make_agent("rs(iterations=300,discount=0.5)", game)
    rs.restart(0, 0)
    assert rs.step(state) == 3 and rs.last_value == HUGE_POSITIVE * 0.5


@pytest.mark.parametrize("name", ("rs", "rhea", "mcts"))
def test_search_beats_random_on_tron(name):
    game = load_game("tron(w=8,h=8)")
    result = match(game, make_agent(f"{name}(iterations=1500)", game), make_agent("random", game), games=6, seed=4)
    assert result.stats()[0].wins >= 5


def test_mcts_beats_random_at_kalah():
    game = load_game("kalah(pits=4,seeds=3)")
    result = match(game, make_agent("mcts(iterations=1000)", game), make_agent("random", game), games=6, seed=1)
    assert result.stats()[0].wins >= 5


def test_controllers_pickle_for_worker_processes():
    game = load_game("gems(w=5,h=5,ticks=10)")
    agent = make_agent("rhea(iterations=50)", game)
    clone = pickle.loads(pickle.dumps(agent))
    s = game.new_initial_state(2)
    agent.restart(9, 0)
    clone.restart(9, 0)
    assert agent.step(s) == clone.step(s)


@pytest.mark.parametrize("clock", ("wall", "cpu"))
@pytest.mark.parametrize("name", CONTROLLERS)
def test_a_time_budget_runs_rollouts_and_records_them(name, clock):
    game = load_game("tron(w=8,h=8)")
    agent = make_agent(f"{name}(budget_ms=5,clock={clock})", game)
    assert agent.clock == clock
    agent.step(game.new_initial_state())
    assert agent.last_evaluations >= 1 and agent.decisions == 1 and agent.last_seconds > 0
