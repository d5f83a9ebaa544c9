"""The kernel protocol: examples/othello6_kernel.py's kernels equal its Python State (the plain rules of
examples/othello6.py) move by move, and check-game names every kernel that differs."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evoplay.games import load_game
from evoplay.games.tools.check import check_game
from evoplay.games.tools.check_kernels import KernelComparison
from evoplay.games.kernels import Kernels, kernels_of, specialise

ROOT = Path(__file__).resolve().parents[2]
FAST = f"{ROOT / 'examples' / 'othello6_kernel.py'}:Othello"
PLAIN = f"{ROOT / 'examples' / 'othello6.py'}:Othello"
BROKEN = Path(__file__).with_name("broken_kernels.py")


def _random_trace(game, seed: int, choices):
    """A random game of ``game`` as check-game records it: (player, legal, action) per move, then the end."""
    state = game.new_initial_state(seed)
    trace = []
    for choice in choices:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[choice % len(legal)]
        trace.append((state.current_player(), legal, action))
        state.apply_action(action)
    while not state.is_terminal():
        legal = state.legal_actions()
        trace.append((state.current_player(), legal, legal[0]))
        state.apply_action(legal[0])
    return trace + [("end", state.returns())]


@given(st.lists(st.integers(0, 1000), min_size=0, max_size=40))
def test_othello_kernels_equal_the_plain_rules_move_by_move(choices):
    game = load_game(FAST)
    problems = []
    comparison = KernelComparison(game, kernels_of(game), lambda rule, message: problems.append(message))
    comparison.replay(0, 0, _random_trace(game, 0, choices))
    assert not problems, problems[0]
    assert comparison.games == 1


def test_the_kernel_example_is_the_plain_example_plus_kernels():
    fast, plain = load_game(FAST), load_game(PLAIN)
    assert kernels_of(plain) is None
    k = kernels_of(fast)
    assert isinstance(k, Kernels) and k.n_features == fast.num_features() == plain.num_features() == 42
    assert fast.feature_names() == plain.feature_names()
    start = k.new_position()
    k.initial(k.params, start, 0)
    assert start.tolist() == k.position(plain.new_initial_state()).tolist()
    assert kernels_of(fast) is k  # made once per game


def test_check_game_compares_the_kernels_with_the_state():
    report = check_game(FAST, games=20, seed=3)
    assert report.ok, [p.message for p in report.problems]
    assert report.kernels.startswith("equal to the State at") and "of 20 games" in report.kernels
    assert dict(report.summary())["Numba kernels (Game.kernels())"] == report.kernels
    assert check_game(PLAIN, games=2).kernels == ""


@pytest.mark.parametrize("cls,rule,words", [
    ("NoMobility", "kernels-features", "differs from the State's features(0) at 41"),
    ("NoFlips", "kernels-apply", "it must be encode(state) of the State after the same move"),
    ("HashCollides", "kernels-hash", "to two positions with different transposition keys"),
    ("ReturnsBackwards", "kernels-returns", "they must be equal exactly"),
    ("NotNumba", "kernels", "must be a Numba @njit function"),
    ("ActionsOutOfOrder", "kernels-order", "list them in increasing order, as the kernels do"),
])
def test_check_game_names_a_broken_kernel(cls, rule, words):
    report = check_game(f"{BROKEN}:{cls}", games=20, seed=1)
    found = {p.rule: p.message for p in report.problems}
    assert rule in found, report.problems
    assert words in found[rule]


def test_each_game_gets_its_own_compiled_copy_of_a_search():
    fast = kernels_of(load_game(FAST))
    broken = kernels_of(load_game(f"{BROKEN}:NoFlips"))
    assert fast.key != broken.key
    a = specialise("evoplay.games.kernels", fast)
    b = specialise("evoplay.games.kernels", broken)
    assert a is not b and a is specialise("evoplay.games.kernels", fast)
    assert a.game_apply is fast.apply and b.game_apply is broken.apply


def test_the_searches_borrow_one_copy_of_the_leaf_and_compile_their_recursive_kernels_once(monkeypatch):
    """uct and alpha-beta both call the feature players' leaf (alpha-beta's USES name leaf_kernel, uct is handed it as
    its hook): each calls the one copy of it for the game, and uct loads no alpha-beta. Alpha-beta's recursive search
    stays uncompiled when it is asked for without (``recursive=False``) and compiles once, in that same copy, when it
    is asked for itself."""
    import sys

    from numba.core.registry import CPUDispatcher

    from evoplay.games import kernels as protocol
    from evoplay.search.uct_kernel import Hooks

    kernels = kernels_of(load_game(FAST))
    hooks = Hooks(kernels, "evoplay.search.leaf_kernel")
    names = [f"evoplay.search.uct_kernel__game_{hooks.key}"] + [f"evoplay.search.{module}__game_{kernels.key}"
                                                               for module in ("minimax_kernel", "leaf_kernel")]
    for name in names:  # fresh copies, whatever this process loaded before
        monkeypatch.delitem(sys.modules, name, raising=False)
    compiled = []

    class Compiled:  # stands for Numba's dispatcher: records the recursive kernels compiled, compiles nothing
        def __init__(self, py):
            compiled.append(py.__name__)

        def compile(self, signature):
            pass

        def disable_compile(self):
            pass

    monkeypatch.setattr(protocol, "njit", lambda **options: Compiled)
    try:
        uct = specialise("evoplay.search.uct_kernel", hooks)
        leaf = sys.modules[names[2]]
        assert uct.hook_leaf is leaf.evaluate and isinstance(leaf.evaluate, CPUDispatcher)  # the leaf handed over
        assert leaf.evaluate.py_func.__module__ == names[2]  # bound to this game's kernels, not the unbound module
        assert names[1] not in sys.modules and compiled == []
        search = specialise("evoplay.search.minimax_kernel", kernels, recursive=False)
        assert search.evaluate is leaf.evaluate
        assert compiled == [] and not isinstance(search.chance_value, (CPUDispatcher, Compiled))
        recursive = ["chance_value"]  # (``value`` is a loop over a stack of frames: compiled as any other kernel)
        assert specialise("evoplay.search.minimax_kernel", kernels) is search and compiled == recursive
        assert isinstance(search.chance_value, Compiled) and isinstance(search.value, CPUDispatcher)
        specialise("evoplay.search.minimax_kernel", kernels)
        assert compiled == recursive  # once
    finally:
        for name in names:  # the copies made here hold the stand-in: no later test may find them
            sys.modules.pop(name, None)


def test_a_kernel_game_with_dice_plays_through_the_kernel_state():
    """A Numba game with chance nodes plays on its kernels as through its State: the chance outcomes are the legal
    actions at a chance node (the kernels' ``legal`` lists none there), and a seeded game is the same either way."""
    from pathlib import Path

    from evoplay.agents import make_agent
    from evoplay.arena.match import play_game
    from evoplay.games import load_game
    from evoplay.games.kernels import KernelState

    game = load_game(f"{Path(__file__).parents[1] / 'agents' / 'dice_race.py'}:DiceRace(players=3,goal=9)")
    state = KernelState.of(game.new_initial_state(0))
    assert state.is_chance_node() and state.legal_actions() == [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(2)
    assert not state.is_chance_node()
    for seed in (1, 2):
        players = [make_agent("random", game) for _ in range(3)]
        on_kernels = play_game(game, players, seed, on_kernels=True)
        through_state = play_game(game, players, seed)
        assert isinstance(on_kernels, KernelState) and not isinstance(through_state, KernelState)
        assert on_kernels.history == through_state.history and on_kernels.returns() == through_state.returns()
