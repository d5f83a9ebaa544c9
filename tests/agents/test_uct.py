"""uct: closed-loop MCTS through the game API with OpenSpiel's MCTSBot semantics (UCT, rollouts, solver, chance)."""
import math
import pickle
import random
import time
from pathlib import Path

import numpy as np
import pytest

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.agents.uct import UctAgent
from evoplay.search.uct import (CutRolloutEvaluator, Evaluator, PriorEvaluator, RandomRolloutEvaluator, SearchNode,
                                select_puct, select_uct, tree_search)
from evoplay.search.uct import reference_backup as backup
from evoplay.arena import match, play_game
from evoplay.errors import SpecError
from evoplay.games.base import CHANCE, TERMINAL, Game, State
from three_moves import ThreeMoves

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "othello6.py"


# Tic-tac-toe as evoplay's m,n,k game: uct's kernels, compiled for m,n,k anyway, serve these tests (on the port of
# OpenSpiel's tic_tac_toe they would compile again, for that game alone). Its cells are numbered as OpenSpiel's on the
# board's mirror image, so a move list is the same game in both and a best move the same action.
TIC_TAC_TOE = "mnk(m=3,n=3,k=3)"


def _openspiel_tic_tac_toe(moves):
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    for a in moves:
        state.apply_action(a)
    return state


def _after(spec, moves):
    game = load_game(spec)
    state = game.new_initial_state()
    for a in moves:
        state.apply_action(a)
    return game, state


def _minimax(state):
    """Tic-tac-toe values for player 0 by full search of the pyspiel state."""
    if state.is_terminal():
        return state.returns()[0]
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        values.append(_minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


def _winning_moves(pyspiel_state):
    """The mover's moves that keep the best minimax value, and that value for the mover."""
    player = pyspiel_state.current_player()
    sign = 1 if player == 0 else -1
    values = {}
    for a in pyspiel_state.legal_actions():
        child = pyspiel_state.clone()
        child.apply_action(a)
        values[a] = sign * _minimax(child)
    best = max(values.values())
    return {a for a, v in values.items() if v == best}, best


# --- solved positions: uct and OpenSpiel's MCTSBot (Python and C++) agree on the proven value and a best move ----
@pytest.mark.parametrize("moves, what", [
    ((0, 3, 1, 4), "win in one"),          # X a1 b1, O a2 b2: X takes c1
    ((0, 4, 1), "must block"),             # O must take c1 (2); the game is then a draw
    ((0, 1), "forced win"),                # O on an edge: X forks and wins
    ((4, 0, 8), "forced draw"),            # X centre and corner: O must take a corner, then holds the draw
])
def test_uct_and_openspiel_prove_the_same_value_and_pick_a_best_move(moves, what):
    game, state = _after(TIC_TAC_TOE, moves)
    theirs_state = _openspiel_tic_tac_toe(moves)
    best_moves, value = _winning_moves(theirs_state)
    player = state.current_player()
    assert theirs_state.current_player() == player

    agent = make_agent("uct(simulations=20000,seed=1)", game)
    ours = agent.step(state)
    root = agent.last_root
    assert root.outcome is not None, what
    assert root.outcome[player] == value and ours in best_moves

    python_bot = os_mcts.MCTSBot(theirs_state.get_game(), 2.0, 20000,
                                 os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), solve=True,
                                 random_state=np.random.RandomState(1))
    theirs = python_bot.mcts_search(theirs_state)
    assert theirs.outcome is not None and theirs.outcome[player] == value
    assert theirs.best_child().action in best_moves
    cpp_bot = pyspiel.MCTSBot(theirs_state.get_game(), pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 20000, 1000, True, 1,
                              False)
    cpp_root = cpp_bot.mcts_search(theirs_state)
    assert list(cpp_root.outcome)[player] == value and cpp_bot.step(theirs_state) in best_moves


def test_without_the_solver_the_win_in_one_is_still_the_most_visited():
    game, state = _after(TIC_TAC_TOE, (0, 3, 1, 4))
    agent = make_agent("uct(simulations=400,solve=false)", game)
    assert agent.step(state) == 2 and agent.last_root.outcome is None
    visits = {c.action: c.explore_count for c in agent.last_root.children}
    assert visits[2] == max(visits.values())


def test_a_proven_win_in_one_stops_the_search_early_and_a_single_move_is_not_searched():
    game, state = _after(TIC_TAC_TOE, (0, 3, 1, 4))
    agent = make_agent("uct(simulations=5000)", game)
    agent.step(state)
    assert agent.last_root.explore_count < 5000  # the root was proven (tic-tac-toe's max utility is a win)
    game, state = _after(TIC_TAC_TOE, (0, 1, 2, 4, 3, 5, 7, 6))  # one empty cell left
    assert agent.step(state) == 8 and agent.last_root.explore_count == 2


# --- the tree's own logic, against OpenSpiel's SearchNode -------------------------------------------------------
def _random_children(rng, n, player=0):
    parent = SearchNode(None, 1 - player, 1.0)
    parent.explore_count = 50
    for a in range(n):
        c = SearchNode(a, player, rng.random())
        c.explore_count = rng.randrange(1, 20)
        c.total_reward = rng.uniform(-1, 1) * c.explore_count
        parent.children.append(c)
    return parent


def test_selection_and_the_final_choice_follow_openspiels_search_node():
    rng = random.Random(0)
    for _ in range(200):
        ours = _random_children(rng, rng.randrange(1, 8))
        theirs = []
        for c in ours.children:
            t = os_mcts.SearchNode(c.action, c.player, c.prior)
            t.explore_count, t.total_reward = c.explore_count, c.total_reward
            if rng.random() < 0.2:
                c.outcome = t.outcome = [1.0, -1.0] if rng.random() < 0.5 else [-1.0, 1.0]
            theirs.append(t)
        for uct_c in (0.0, 0.5, 2.0):
            expect = max(theirs, key=lambda t: t.uct_value(ours.explore_count, uct_c)).action
            assert select_uct(ours, uct_c).action == expect
            expect = max(theirs, key=lambda t: t.puct_value(ours.explore_count, uct_c)).action
            assert select_puct(ours, uct_c).action == expect
        assert ours.best_child().action == max(theirs, key=os_mcts.SearchNode.sort_key).action


def test_an_unvisited_child_is_chosen_first_and_a_proven_win_beats_more_visits():
    parent = _random_children(random.Random(1), 4)
    parent.children[2].explore_count, parent.children[2].total_reward = 0, 0.0
    assert select_uct(parent, 2.0) is parent.children[2]
    parent.children[3].outcome = [1.0, -1.0]  # a proven win for player 0, who moved into it
    parent.children[3].explore_count = 1
    assert parent.best_child() is parent.children[3]
    parent.children[3].outcome = [-1.0, 1.0]  # a proven loss comes after every unproven move
    assert parent.best_child() is not parent.children[3]


def test_backup_credits_the_player_who_moved_into_each_node_and_a_chance_outcome_its_decider():
    root = SearchNode(None, 0, 1.0)          # player 0 to move
    a = SearchNode(5, 0, 0.5)                # player 0 moved into a chance node
    die = SearchNode(3, CHANCE, 1 / 6)       # the die fell on 3
    b = SearchNode(1, 1, 0.5)                # player 1 moved
    root.children, a.children, die.children = [a], [die], [b]
    backup([root, a, die, b], [0.25, -0.25], False, 1.0)
    assert (a.total_reward, die.total_reward, b.total_reward) == (0.25, 0.25, -0.25)
    assert all(n.explore_count == 1 for n in (root, a, die, b))


def test_backup_proves_a_node_by_a_max_utility_child_or_by_all_children():
    root, x, y = SearchNode(None, 0, 1.0), SearchNode(0, 0, 0.5), SearchNode(1, 0, 0.5)
    root.children = [x, y]
    x.outcome = [0.0, 0.0]
    backup([root, x], [0.0, 0.0], True, 1.0)
    assert root.outcome is None  # a draw is not the best possible and y is unknown
    y.outcome = [1.0, -1.0]
    backup([root, y], [1.0, -1.0], True, None)
    assert root.outcome == [1.0, -1.0]  # every child proven: the best for the mover
    root2, w, u = SearchNode(None, 0, 1.0), SearchNode(0, 0, 0.5), SearchNode(1, 0, 0.5)
    root2.children, w.outcome = [w, u], [1.0, -1.0]
    backup([root2, w], [1.0, -1.0], True, 1.0)
    assert root2.outcome == [1.0, -1.0]  # a win at the game's max utility proves it at once


# --- chance, three players, any game ----------------------------------------------------------------------------
class Coins(Game):
    """One move, then a coin: ``safe`` draws, ``good`` wins 90 %, ``bad`` wins 30 %, ``sure`` wins on both sides."""

    name = "coins"
    odds = {0: 0.0, 1: 0.9, 2: 0.3, 3: 1.0}

    def __init__(self):
        super().__init__("coins", {})

    def new_initial_state(self, seed=None):
        return CoinState(self)

    def max_utility(self):
        return 1.0


class CoinState(State):
    def __init__(self, game, choice=None, coin=None):
        self.game, self.choice, self.coin = game, choice, coin

    def current_player(self):
        if self.choice is None:
            return 0
        if self.choice != 0 and self.coin is None:
            return CHANCE
        return TERMINAL

    def _legal_actions(self):
        return [0, 1, 2, 3]

    def chance_outcomes(self):
        p = self.game.odds[self.choice]
        return [(1, p), (0, 1.0 - p)] if p < 1 else [(1, 0.5), (2, 0.5)]  # "sure": two faces, both winning

    def _apply_action(self, action):
        if self.choice is None:
            self.choice = action
        else:
            self.coin = action

    def returns(self):
        if self.choice == 0 or self.coin is None:
            return [0.0, 0.0]
        r = 1.0 if self.coin >= 1 else -1.0
        return [r, -r]

    def clone(self):
        return CoinState(self.game, self.choice, self.coin)


def test_chance_outcomes_are_sampled_by_probability_and_proven_only_when_all_agree():
    game = Coins()
    game.odds = {0: 0.0, 1: 0.9, 2: 0.3, 3: 0.6}  # no sure win: the best bet is 90 %
    agent = UctAgent(game, simulations=3000, seed=2)
    assert agent.step(game.new_initial_state()) == 1
    good = next(c for c in agent.last_root.children if c.action == 1)
    heads = next(c for c in good.children if c.action == 1)
    assert good.outcome is None and 0.8 < heads.explore_count / good.explore_count < 0.97
    assert 0.6 < good.total_reward / good.explore_count < 1.0

    agent = UctAgent(Coins(), simulations=3000, seed=2)
    assert agent.step(Coins().new_initial_state()) == 3  # both faces win: the chance node is proven
    assert agent.last_root.outcome == [1.0, -1.0] and agent.last_root.explore_count < 3000


def test_openspiel_pig_with_dice_plays_to_the_end():
    game = load_game("openspiel:pig(winscore=10)")
    state = play_game(game, [make_agent("uct(simulations=30)", game), make_agent("random", game)], seed=3)
    assert state.is_terminal()


def trio(moves):
    """Player 0 picks ``risky`` (0) or ``safe`` (1). After ``safe`` the returns are fixed, -0.2 for player 0; after
    ``risky`` player 2 decides, and it takes +1 for itself, -1 for player 0 (random play would give player 0 a
    mean of 0 there, better than ``safe``'s -0.2)."""
    if moves[0] == 1:
        return [-0.2, 0.1, 0.1]
    r2 = 1.0 if moves[2] == 1 else -1.0
    return [-r2, 0.0, r2]


@pytest.mark.parametrize("solve", (True, False))
def test_three_players_each_maximise_their_own_return(solve):
    game = ThreeMoves(trio)
    agent = UctAgent(game, simulations=2000, solve=solve, seed=4)
    assert agent.step(game.new_initial_state()) == 1
    if solve:
        assert agent.last_root.outcome == [-0.2, 0.1, 0.1]
    agents = [UctAgent(game, simulations=200, solve=solve) for _ in range(3)]
    final = play_game(game, agents, seed=5)
    assert final.moves[0] == 1


# connect four, Kalah and m,n,k run uct on their kernels (the port's, the built-ins'); breakthrough and hex on
# OpenSpiel's own engine through the State, as any OpenSpiel game without a port (their ports' kernels would only
# compile the same search again, for a minute of CPU); othello6.py is a plain-Python file game.
GAMES = ["openspiel:connect_four", "openspiel:breakthrough(rows=5,columns=5,engine=openspiel)",
         "openspiel:hex(board_size=5,engine=openspiel)", "kalah", "mnk(m=4,n=4,k=3)"] + (
            [f"{EXAMPLE}:Othello"] if EXAMPLE.is_file() else [])


@pytest.mark.parametrize("spec", GAMES)
def test_uct_plays_legal_moves_on_builtin_file_and_openspiel_games(spec):
    game = load_game(spec)
    agent = make_agent("uct(simulations=25)", game)
    assert agent.on_kernels == ("engine=openspiel" not in spec and "othello6.py" not in spec)
    state = game.new_initial_state(0)
    for ply in range(6):
        if state.is_terminal():
            break
        agent.restart(ply, state.current_player())
        state.apply_action(agent.step(state))  # apply_action checks legality


# --- seeds, budgets, evaluators, refusals -----------------------------------------------------------------------
def _visits(agent):
    return sorted((c.action, c.explore_count, c.total_reward) for c in agent.last_root.children)


def test_the_same_seed_gives_the_same_search_and_the_same_games():
    game, state = _after("openspiel:connect_four", (3, 3))
    a, b = make_agent("uct(simulations=300,seed=9)", game), make_agent("uct(simulations=300,seed=9)", game)
    a.restart(11, 0)
    b.restart(11, 0)
    assert a.step(state) == b.step(state) and _visits(a) == _visits(b)
    b.restart(12, 0)
    b.step(state)
    assert _visits(a) != _visits(b)
    clone = pickle.loads(pickle.dumps(a))
    clone.restart(11, 0)
    a.restart(11, 0)
    a.step(state)
    clone.step(state)
    assert _visits(clone) == _visits(a)
    first = match(game, make_agent("uct(simulations=40)", game), make_agent("random", game), games=2, seed=7)
    again = match(game, make_agent("uct(simulations=40)", game), make_agent("random", game), games=2, seed=7)
    assert [r.to_dict() for r in first.records] == [r.to_dict() for r in again.records]


def test_a_passed_deadline_still_returns_a_legal_move_and_a_time_budget_searches():
    game, state = _after("openspiel:connect_four", ())
    agent = make_agent("uct(simulations=100000)", game)
    agent.deadline = time.perf_counter() - 1.0
    assert agent.step(state) in state.legal_actions()
    assert agent.last_root.explore_count == 0
    agent.deadline = None
    timed = make_agent("uct(ms=30)", game)
    assert timed.step(state) in state.legal_actions() and timed.last_root.explore_count > 0


def _tree_size(node):
    return 1 + sum(_tree_size(c) for c in node.children)


def test_the_tree_stops_growing_at_its_node_limit():
    game, state = _after("openspiel:connect_four", ())
    root = tree_search(state, RandomRolloutEvaluator(), random.Random(0), simulations=10_000, max_nodes=200)
    assert root.explore_count < 10_000 and 200 <= _tree_size(root) < 200 + 7


def _centre_value(state):
    """+1 for player 0 when X holds the centre, else -1: a value that steers towards the centre."""
    x_centre = "x" in str(state.pyspiel_state).splitlines()[1][1].lower()
    return [1.0, -1.0] if x_centre else [-1.0, 1.0]


def test_cut_rollouts_are_scored_by_the_value_callable():
    game, state = _after("openspiel:tic_tac_toe", ())
    calls = []

    def value(s):
        calls.append(len(s.pyspiel_state.history()))
        return _centre_value(s)
    agent = UctAgent(game, simulations=300, evaluator=CutRolloutEvaluator(value, depth=0), solve=False)
    assert agent.step(state) == 4 and calls
    assert all(n <= 9 for n in calls)
    calls.clear()
    deep = CutRolloutEvaluator(value, depth=2)
    deep.evaluate(state)
    assert calls == [2]  # two random plies, then the value
    out = CutRolloutEvaluator(lambda s: [7.0, float("nan")], depth=0).evaluate(state)
    assert list(out) == [1.0, 0.0]  # clipped to [-1, 1], NaN as 0
    with pytest.raises(SpecError, match="one per player"):
        CutRolloutEvaluator(lambda s: [0.5], depth=0).evaluate(state)


class Zero(Evaluator):
    def evaluate(self, state):
        return np.zeros(state.game.num_players)


def test_the_prior_biases_visits_under_puct():
    game, state = _after("openspiel:tic_tac_toe", ())
    favour = PriorEvaluator(lambda s, actions: [5.0 if a == 7 else 0.0 for a in actions], temperature=1.0,
                            inner=Zero())
    priors = dict(favour.prior(state))
    assert math.isclose(sum(priors.values()), 1.0) and max(priors, key=priors.get) == 7
    biased = UctAgent(game, simulations=400, evaluator=favour, selection="puct", solve=False)
    biased.step(state)
    visits = {c.action: c.explore_count for c in biased.last_root.children}
    assert visits[7] > 0.5 * sum(visits.values())
    flat = UctAgent(game, simulations=400, evaluator=Zero(), selection="puct", solve=False)
    flat.step(state)
    visits = {c.action: c.explore_count for c in flat.last_root.children}
    assert visits[7] < 0.25 * sum(visits.values())
    with pytest.raises(SpecError, match="one per action"):
        PriorEvaluator(lambda s, actions: [1.0]).prior(state)


def _random_play_value(state):
    """Player 0's exact expected return under uniformly random play from a pyspiel state."""
    if state.is_terminal():
        return state.returns()[0]
    legal = state.legal_actions()
    total = 0.0
    for a in legal:
        child = state.clone()
        child.apply_action(a)
        total += _random_play_value(child)
    return total / len(legal)


def test_random_rollouts_average_the_returns_of_every_player():
    game, state = _after("openspiel:tic_tac_toe", (0, 3, 1, 4))  # X to move: c1 wins, else O may win on c2
    mean = RandomRolloutEvaluator(rollouts=4000, seed=1).evaluate(state)
    exact = _random_play_value(state.pyspiel_state)
    assert mean.shape == (2,) and mean[0] == -mean[1] and abs(mean[0] - exact) < 0.06 and 0.05 < exact < 0.9


@pytest.mark.parametrize("spec, reason", [
    ("tron(w=5,h=5)", "at the same time"),
    ("openspiel:goofspiel(num_cards=4)", "at the same time"),
    ("openspiel:leduc_poker", "hides information"),
    ("sevens", "hides information"),
])
def test_games_it_cannot_play_are_refused_with_the_reason(spec, reason):
    with pytest.raises(SpecError, match=reason):
        make_agent("uct", spec)


def test_bad_parameters_are_refused():
    with pytest.raises(SpecError, match="simulations"):
        make_agent("uct(simulations=0)", "openspiel:tic_tac_toe")
    with pytest.raises(SpecError, match="selection"):
        UctAgent(load_game("openspiel:tic_tac_toe"), selection="greedy")


TAKE_AWAY = str(Path(__file__).parent / "take_away.py") + ":TakeAway"


def test_an_evolved_evaluation_scores_the_leaves_and_gives_the_priors(tmp_path):
    from evoplay.evolve import RunFolder, load_config, run_evolution
    from evoplay.recipes import load_recipe

    config = load_config("ga", None, {"game": TAKE_AWAY, "generations": 1, "population": 4, "report.games": 0,
                                      "report.playoff": 0, "report.play_games": 0, "genome.start_games": 40,
                                      "minutes": 0.0})
    folder = RunFolder.create(tmp_path / "run", "ga", config)
    run_evolution(load_recipe("ga").make(config), folder)
    game = load_game(TAKE_AWAY)
    agent = make_agent(f"uct(simulations=200,value={folder.path},prior=true)", game)  # a run folder will do
    assert agent.selection == "puct" and isinstance(agent.evaluator, PriorEvaluator)
    state = game.new_initial_state(0)
    values = agent.evaluator.evaluate(state)
    assert values.shape == (2,) and np.all(np.abs(values) <= 1.0)
    priors = dict(agent.evaluator.prior(state))
    assert set(priors) == set(state.legal_actions()) and math.isclose(sum(priors.values()), 1.0)
    assert agent.step(state) in state.legal_actions()
    plain = make_agent(f"uct(simulations=200,value={folder.file('best.json')},cut=3)", game)
    assert plain.selection == "uct" and isinstance(plain.evaluator, CutRolloutEvaluator)
    assert plain.evaluator.depth == 3
    assert play_game(game, [plain, make_agent("random", game)], seed=1).is_terminal()


def test_an_evolved_evaluation_that_is_missing_or_not_named_is_refused(tmp_path):
    with pytest.raises(SpecError, match="name it with value=FILE"):
        make_agent("uct(cut=2)", "openspiel:tic_tac_toe")
    (tmp_path / "best.json").write_text("not json")
    with pytest.raises(SpecError, match="not a run's best.json"):
        make_agent(f"uct(value={tmp_path / 'best.json'})", "openspiel:tic_tac_toe")


class _ScaledStores:
    """A stand-in for an evolved player: ``scale`` x a fixed weighted sum of the features the player sees."""

    def __init__(self, scale: float):
        self.scale = scale

    def after_states(self, state, player, actions):
        children = []
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            children.append(child)
        return children

    def rows(self, states, player):
        return [(s, player) for s in states]

    def score_rows(self, rows):
        return [self.scale * float(np.dot(np.asarray(s.features(p), dtype=float), np.sin(np.arange(1.0, 15.0))))
                for s, p in rows]

    def evaluation_phrase(self):
        return "the store lead"


def test_the_prior_temperature_is_fitted_to_its_entropy_whatever_the_scale_of_the_scores():
    from evoplay.agents.uct import EvolvedEvaluation

    game = load_game("kalah")
    found = {}
    for scale in (1.0, 7.0):
        evaluation = EvolvedEvaluation(game, _ScaledStores(scale), spread=1.0)
        for entropy in (0.6, 0.9):
            found[scale, entropy] = evaluation.temperature_for(game, entropy, positions=32, seed=3)
    # the scores seven times as far apart want a temperature seven times as high, and a flatter prior a higher one
    assert math.isclose(found[7.0, 0.6], 7 * found[1.0, 0.6], rel_tol=1e-3)
    assert math.isclose(found[7.0, 0.9], 7 * found[1.0, 0.9], rel_tol=1e-3)
    assert found[1.0, 0.9] > found[1.0, 0.6] > 0
    with pytest.raises(SpecError, match="strictly between 0"):
        EvolvedEvaluation(game, _ScaledStores(1.0), spread=1.0).temperature_for(game, 1.0)
