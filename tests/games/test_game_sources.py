"""Games from every source: a Python file by path, register_game, an installed package's entry point, and how
each rebuilds from its spec in another process."""
from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from evoplay.errors import SpecError
from evoplay.games import GAMES, Game, load_game, register_game
from evoplay.games.tools import sources

ROOT = Path(__file__).resolve().parents[2]
OTHELLO = ROOT / "examples" / "othello6.py"
BROKEN = Path(__file__).with_name("broken_games.py")


def test_file_game_spec_is_absolute_and_canonical(monkeypatch):
    monkeypatch.chdir(ROOT)
    game = load_game("examples/othello6.py:Othello")
    assert game.spec == f"{OTHELLO}:Othello"
    assert game.name == "othello6" and game.num_features() == 42
    nim = load_game(f"{BROKEN}:Nim( stones = 12 )")
    assert nim.spec == f"{BROKEN}:Nim(stones=12)" and nim.params == {"stones": 12}
    assert load_game(f"{BROKEN}:Nim(stones=9)").spec == f"{BROKEN}:Nim"  # the default is left out
    assert load_game(nim.spec) == nim


def test_a_file_is_imported_once_so_its_classes_are_the_same():
    a, b = load_game(f"{BROKEN}:Nim"), load_game(f"{BROKEN}:Nim(stones=5)")
    assert type(a) is type(b)
    assert type(a).__module__ == sources.module_name(BROKEN)


def test_file_game_and_its_states_pickle():
    game = load_game(f"{BROKEN}:Nim(stones=5)")
    state = game.new_initial_state()
    state.apply_action(1)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.heap == [3] and copy.game == game


def test_a_fresh_process_unpickles_a_file_games_state_by_its_path():
    """Spawned workers import the file from the path the pickled class names (no fork inheritance)."""
    game = load_game(f"{BROKEN}:Nim(stones=7)")
    state = game.new_initial_state()
    state.apply_action(2)
    script = textwrap.dedent("""
        import pickle, sys
        state = pickle.loads(sys.stdin.buffer.read())
        print(state.game.spec, state.heap[0], state.legal_actions())
    """)
    out = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(state), capture_output=True, check=True)
    assert out.stdout.decode().split() == [f"{BROKEN}:Nim(stones=7)", "4", "[0,", "1,", "2]"]


@pytest.mark.parametrize(
    "spec,words",
    [
        ("no/such/dir/game.py:Game", "does not exist"),
        (f"{BROKEN}:Missing", "has no class 'Missing'; its Game classes: "),
        (f"{BROKEN}:NotAGame", "NotAGame in '" + str(BROKEN) + "' is not a Game"),
        (f"{BROKEN}:", "names no class"),
        (f"{BROKEN}", "names a file but no class"),
        (f"{BROKEN}:Nim(heap=3)", "has no parameter 'heap'"),
        (f"{BROKEN}:Nim(stones=many)", "stones='many' is not an integer"),
    ],
)
def test_file_game_errors_say_what_is_wrong(spec, words):
    with pytest.raises(SpecError) as err:
        load_game(spec)
    assert words in str(err.value)


def test_a_file_that_fails_to_import_says_so(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import no_such_module_anywhere\n")
    with pytest.raises(SpecError, match="failed to import: ModuleNotFoundError.*no_such_module_anywhere"):
        load_game(f"{bad}:Game")
    assert sources.module_name(bad.resolve()) not in sys.modules  # a fixed file is imported afresh


def test_a_class_with_the_wrong_constructor_says_how_to_fix_it(tmp_path):
    f = tmp_path / "ctor.py"
    f.write_text(textwrap.dedent("""
        from evoplay.games import Game
        class Odd(Game):
            def __init__(self):
                pass
    """))
    with pytest.raises(SpecError, match=r"takes \(spec, params\)"):
        load_game(f"{f}:Odd")


class Counter(Game):
    """Count to ten (a test game for register_game)."""

    from evoplay.spec import Param

    parameters = (Param("to", int, 10, "the last number"),)


def test_register_game_takes_a_plain_subclass_with_its_parameters(monkeypatch):
    monkeypatch.setattr(GAMES, "_entries", dict(GAMES._entries))
    register_game("counter", Counter)
    game = load_game("counter(to=3)")
    assert isinstance(game, Counter) and game.params == {"to": 3} and game.spec == "counter(to=3)"
    assert GAMES.entry("counter").help == "Count to ten (a test game for register_game)."
    with pytest.raises(SpecError, match="not a Game subclass"):
        register_game("thing", dict)


class _FakeEntryPoint:
    def __init__(self, name, value, obj):
        self.name, self.value, self._obj = name, value, obj

    def load(self):
        if isinstance(self._obj, Exception):
            raise self._obj
        return self._obj


def _fake_entry_points(monkeypatch, *eps):
    import importlib.metadata

    def entry_points(group=None, **_):
        assert group == sources.ENTRY_POINT_GROUP
        return list(eps)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(GAMES, "_entries", dict(GAMES._entries))


def test_an_installed_package_game_loads_lazily_through_its_entry_point(monkeypatch):
    loaded = []

    class Lazy(_FakeEntryPoint):
        def load(self):
            loaded.append(self.name)
            return Counter

    _fake_entry_points(monkeypatch, Lazy("counting", "pkg.games:Counter", None))
    load_game("kalah")
    assert loaded == []  # known names never touch the entry points
    game = load_game("counting(to=4)")
    assert isinstance(game, Counter) and game.spec == "counting(to=4)" and loaded == ["counting"]
    load_game("counting")
    assert loaded == ["counting"]  # registered once


def test_broken_entry_points_are_clear_errors(monkeypatch):
    _fake_entry_points(
        monkeypatch,
        _FakeEntryPoint("notgame", "pkg:thing", object()),
        _FakeEntryPoint("crashes", "pkg:Boom", ImportError("no module named pkg")),
    )
    with pytest.raises(SpecError, match="is not a Game subclass"):
        load_game("notgame")
    with pytest.raises(SpecError, match="failed to load: ImportError: no module named pkg"):
        load_game("crashes")
    with pytest.raises(SpecError, match="unknown game 'nothere'"):
        load_game("nothere")


def test_the_readme_nim_example_keeps_every_promise_and_builds_with_a_plain_call():
    import importlib.util

    from evoplay.games.tools.check import check_game

    path = Path(__file__).resolve().parents[2] / "examples" / "nim.py"
    report = check_game(f"{path}:Nim", games=40, seed=1)
    assert report.ok, [p.message for p in report.problems]
    spec = importlib.util.spec_from_file_location("readme_nim", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_nim"] = module  # as 'import nim' would
    try:
        spec.loader.exec_module(module)
        game = module.Nim()
    finally:
        del sys.modules["readme_nim"]  # no (spec, params): the class names itself by its file
    assert game.spec == f"{path}:Nim" and load_game(game.spec) == game and game.params == {}


def test_a_plain_call_checks_parameters_and_names_a_registered_class_by_its_name():
    from evoplay.games.kalah.game import KalahGame

    assert KalahGame().spec == "kalah" and KalahGame(pits=4).spec == "kalah(pits=4)" == load_game("kalah(pits=4)").spec
    with pytest.raises(SpecError, match="has no parameter 'size'"):
        KalahGame(size=3)

    with pytest.raises(SpecError, match="defined in no .py file"):
        type("Made", (Game,), {"__module__": "no_such_module"})()
