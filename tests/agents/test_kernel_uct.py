"""uct through a game's kernels against uct through the State: Python's Mersenne Twister inside Numba draws what
random.Random draws, the same search grows the same root, and whole games replay move for move."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.arena import play_game
from evoplay.search import mt19937

ROOT = Path(__file__).resolve().parents[2]
FAST = f"{ROOT / 'examples' / 'othello6_kernel.py'}:Othello"
DICE = f"{Path(__file__).with_name('dice_race.py')}:DiceRace(players=3,goal=9)"


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(1, 2**31), max_size=20))
def test_the_kernel_generator_draws_what_random_random_draws(seed, bounds):
    ours, theirs = random.Random(seed), random.Random(seed)
    state = mt19937.state_of(ours)
    assert [mt19937.random(state) for _ in range(50)] == [theirs.random() for _ in range(50)]
    assert [mt19937.randbelow(state, n) for n in bounds] == [theirs._randbelow(n) for n in bounds]
    values = np.arange(25)
    mt19937.shuffle(state, values, 25)
    expected = list(range(25))
    theirs.shuffle(expected)
    assert values.tolist() == expected
    mt19937.restore(ours, state)
    assert ours.random() == theirs.random()  # the Python generator continues from the kernel's state


def _both_paths(spec: str, agent_spec: str, state):
    """The root the kernel path and the State path grow from ``state`` (same agent seed)."""
    game = load_game(spec)
    fast, slow = make_agent(agent_spec, game), make_agent(agent_spec, game)
    assert fast._kernel is not None
    slow._kernel = None
    fast.restart(11, 0)
    slow.restart(11, 0)
    return (fast.step(state), fast.last_root), (slow.step(state), slow.last_root)


def _summary(root):
    return (root.explore_count, root.total_reward, root.outcome,
            [(c.action, c.player, c.prior, c.explore_count, c.total_reward, c.outcome) for c in root.children])


@pytest.mark.parametrize("agent_spec", ["uct(simulations=400)", "uct(simulations=300,rollouts=2,solve=false)",
                                        "uct(simulations=300,uct_c=0.7)"])
def test_the_same_root_grows_on_both_paths(agent_spec):
    game = load_game(FAST)
    state = game.new_initial_state()
    for action in (8, 7, 6):
        state.apply_action(action)
    (a, ra), (b, rb) = _both_paths(FAST, agent_spec, state)
    assert a == b and _summary(ra) == _summary(rb)


def test_a_solved_position_is_proven_on_the_kernel_path_as_on_the_state_path():
    game = load_game("mnk(m=3,n=3,k=3)")
    state = game.new_initial_state()
    for action in (0, 3, 1, 4):  # X to move completes the top row
        state.apply_action(action)
    (a, ra), (b, rb) = _both_paths("mnk(m=3,n=3,k=3)", "uct(simulations=2000)", state)
    assert a == b == 2 and ra.outcome == rb.outcome == [1.0, -1.0]
    assert _summary(ra) == _summary(rb)


@pytest.mark.parametrize("spec", [FAST, DICE, "kalah(pits=4,seeds=3)"])
def test_whole_games_replay_move_for_move_on_either_path(spec):
    game = load_game(spec)
    histories = []
    for kernel in (True, False):
        agents = [make_agent("uct(simulations=150)", game), make_agent("uct(simulations=80,rollouts=2)", game)]
        agents += [make_agent("random", game) for _ in range(game.num_players - 2)]
        if not kernel:
            for a in agents[:2]:
                a._kernel = None
        histories.append([list(play_game(game, agents, seed).history) for seed in (1, 2)])
    assert histories[0] == histories[1]


def test_a_time_budget_runs_simulations_on_the_kernel_path():
    game = load_game(FAST)
    agent = make_agent("uct(ms=30)", game)
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()
    assert agent._kernel is not None and agent.last_root.explore_count > 10


# --- guided by an evolved evaluation: the leaf value, the cut rollouts and the prior inside Numba ---------------
def _document(spec: str, kind: str, board: str = "") -> dict:
    """A best.json of random weights (``kind`` "weights") or a random program ("program") over the game's features,
    the free features, per-run scales and ``board`` counts ("pairs", "lines", or none)."""
    from evoplay import gp
    from evoplay.agents.feature_view import FeatureView, measure_scales
    from evoplay.agents.feature_player import game_primitive_set
    from evoplay.ga import GENOME_FORMAT
    from evoplay.gp.program import PROGRAM_FORMAT

    game = load_game(spec)
    pairs, lines = board == "pairs", 3 if board == "lines" else 0
    view = FeatureView(game, True, measure_scales(game, True, 0, 60, pairs=pairs, lines=lines), pairs, lines)
    rng = np.random.default_rng(5)
    if kind == "weights":
        return {"format": GENOME_FORMAT, "game": game.spec, **view.document(),
                "weights": (0.3 * rng.normal(size=len(view))).tolist()}
    program = gp.grow(game_primitive_set(game, names=view.names()), rng, 5, function_probability=0.7)
    return {"format": PROGRAM_FORMAT, "game": game.spec, "policy": "move", **view.document(),
            "program": program.to_dict()}


def _guided_pair(spec: str, doc: dict, cut: int, prior: bool, rollouts: int = 1, simulations: int = 200,
                 prior_visits: int = 1, temperature: float = 1.0):
    """Two uct agents guided by ``doc``: the first on the kernel path, the second held to the State path."""
    from evoplay.agents.evolved_uct import evolved_evaluator_from_document
    from evoplay.agents.uct import UctAgent

    game = load_game(spec)
    agents = [UctAgent(game, simulations=simulations, rollouts=rollouts, selection="puct" if prior else "uct",
                       evaluator=evolved_evaluator_from_document(game, doc, cut, prior, rollouts,
                                                                 prior_visits=prior_visits, temperature=temperature))
              for _ in range(2)]
    assert agents[0]._kernel is not None and agents[0]._guide.value and agents[0]._guide.prior == prior
    agents[1]._kernel = None
    return game, agents


def _positions(game, count: int, seed: int):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(rng.randrange(8)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize("spec", ["kalah(pits=4,seeds=3)", "openspiel:connect_four"])
@pytest.mark.parametrize("kind, cut, prior, rollouts", [("weights", 0, False, 1), ("weights", 2, True, 1),
                                                       ("program", 0, True, 2), ("program", 3, False, 1)])
def test_a_guided_search_grows_the_same_root_on_both_paths(spec, kind, cut, prior, rollouts):
    game, (fast, slow) = _guided_pair(spec, _document(spec, kind), cut, prior, rollouts)
    priors = set()
    for i, state in enumerate(_positions(game, 4, seed=cut)):
        for agent in (fast, slow):
            agent.restart(i, state.current_player())
        assert fast.step(state) == slow.step(state)
        assert _summary(fast.last_root) == _summary(slow.last_root)
        priors |= {round(c.prior * len(fast.last_root.children), 9) for c in fast.last_root.children}
    assert (len(priors) > 1) == prior  # the evaluation's softmax, or uniform


@pytest.mark.parametrize("spec", ["kalah(pits=4,seeds=3)", "openspiel:connect_four"])
def test_a_prior_at_a_temperature_grows_the_same_root_on_both_paths_and_is_flatter(spec):
    """temperature=4: the softmax of the scores over 4, on the kernels as through the State; each root's prior
    flatter (a smaller largest prior) than at temperature 1."""
    doc = _document(spec, "weights")
    game, (fast, slow) = _guided_pair(spec, doc, 1, True, temperature=4.0)
    _, (sharp, _) = _guided_pair(spec, doc, 1, True)
    assert fast._guide.temperature == 4.0 and sharp._guide.temperature == 1.0
    for i, state in enumerate(_positions(game, 4, seed=8)):
        for agent in (fast, slow, sharp):
            agent.restart(i, state.current_player())
        assert fast.step(state) == slow.step(state)
        assert _summary(fast.last_root) == _summary(slow.last_root)
        sharp.step(state)
        flat = max(c.prior for c in fast.last_root.children)
        peaked = max(c.prior for c in sharp.last_root.children)
        assert len(fast.last_root.children) == 1 or flat < peaked


@pytest.mark.parametrize("spec", ["kalah(pits=4,seeds=3)", "openspiel:connect_four"])
def test_a_lazy_prior_grows_the_same_root_on_both_paths_and_another_tree(spec):
    """prior_visits=4: a position's moves get the evaluation's prior at its 4th visit (uniform before), on the
    kernels as through the State; the root, visited most, reads the softmax, and the tree differs from the prior
    computed at every expansion."""
    doc = _document(spec, "weights")
    game, (fast, slow) = _guided_pair(spec, doc, 1, True, prior_visits=4)
    _, (eager, _) = _guided_pair(spec, doc, 1, True)
    assert fast._guide.prior_visits == 4 and eager._guide.prior_visits == 1
    differs = False
    for i, state in enumerate(_positions(game, 4, seed=6)):
        for agent in (fast, slow, eager):
            agent.restart(i, state.current_player())
        assert fast.step(state) == slow.step(state)
        assert _summary(fast.last_root) == _summary(slow.last_root)
        assert len({round(c.prior, 9) for c in fast.last_root.children}) > 1
        eager.step(state)
        differs |= _summary(fast.last_root) != _summary(eager.last_root)
    assert differs


@pytest.mark.parametrize("board", ["pairs", "lines"])
def test_pair_and_line_features_are_read_inside_the_kernels(board):
    spec = "openspiel:connect_four"
    game, (fast, slow) = _guided_pair(spec, _document(spec, "weights", board), 1, True)
    assert fast._guide.leaf.board[7] > 0  # the board counts are part of the leaf the kernels evaluate
    for i, state in enumerate(_positions(game, 3, seed=4)):
        for agent in (fast, slow):
            agent.restart(i, state.current_player())
        assert fast.step(state) == slow.step(state)
        assert _summary(fast.last_root) == _summary(slow.last_root)


def test_a_guided_game_replays_move_for_move_on_either_path():
    spec = "kalah(pits=4,seeds=3)"
    doc = _document(spec, "weights")
    histories = []
    for kernel in (True, False):
        game, (agent, _) = _guided_pair(spec, doc, 1, True, simulations=60)
        if not kernel:
            agent._kernel = None
        histories.append([list(play_game(game, [agent, make_agent("uct(simulations=40)", game)], seed).history)
                          for seed in (1, 2)])
    assert histories[0] == histories[1]


def test_a_value_file_and_its_document_give_the_same_search(tmp_path):
    import json

    spec = "openspiel:connect_four"
    doc = _document(spec, "weights")
    (tmp_path / "best.json").write_text(json.dumps(doc))
    game = load_game(spec)
    from_file = make_agent(f"uct(simulations=150,value={tmp_path},cut=1,prior=true)", game)
    _, (from_doc, _) = _guided_pair(spec, doc, 1, True, simulations=150)
    state = game.new_initial_state()
    for agent in (from_file, from_doc):
        agent.restart(3, 0)
    assert from_file._kernel is not None and from_file.step(state) == from_doc.step(state)
    assert _summary(from_file.last_root) == _summary(from_doc.last_root)


def test_an_evaluator_the_kernels_cannot_compute_runs_through_the_state():
    from evoplay.agents.uct import UctAgent, kernel_guide
    from evoplay.search.uct import CutRolloutEvaluator

    game = load_game("openspiel:connect_four")
    custom = UctAgent(game, simulations=50, evaluator=CutRolloutEvaluator(lambda s: [0.0, 0.0], 2))
    assert kernel_guide(custom.evaluator) is None and custom._kernel is None
    assert custom.step(game.new_initial_state()) in range(7)
    plain = f"{ROOT / 'examples' / 'othello6.py'}:Othello"  # the same game without kernels
    from evoplay.agents.evolved_uct import evolved_evaluator_from_document

    game = load_game(plain)
    guided = UctAgent(game, simulations=30, evaluator=evolved_evaluator_from_document(game, _document(plain, "weights"),
                                                                                    1, True), selection="puct")
    assert guided._kernel is None and guided.step(game.new_initial_state()) in game.new_initial_state().legal_actions()


def test_a_document_that_is_not_an_evolved_evaluation_is_refused():
    from evoplay.agents.evolved_uct import evolved_evaluator_from_document
    from evoplay.errors import SpecError

    game = load_game("openspiel:connect_four")
    with pytest.raises(SpecError, match="not a run's best.json"):
        evolved_evaluator_from_document(game, {"weights": [1.0]})
    with pytest.raises(SpecError, match="game's own evaluation"):
        evolved_evaluator_from_document(game, {"game": game.spec, "schema": [], "genome": ""})


def test_a_shipped_uct_reads_its_prior_temperature_and_refuses_a_bad_one():
    from evoplay.agents.uct import uct_settings
    from evoplay.errors import SpecError

    play = {"search": "uct", "ms": 100.0, "prior": True}
    assert uct_settings(play, "best.json")["temperature"] == 1.0  # a best.json from before the setting
    assert uct_settings(dict(play, temperature=4), "best.json")["temperature"] == 4.0
    for bad in (0, -1.0, "4", True, float("nan")):
        with pytest.raises(SpecError, match="play.temperature .*positive number"):
            uct_settings(dict(play, temperature=bad), "best.json")
