"""The Lua and JavaScript players (``evoplay export RUN --lang lua|js``, evoplay.agents.host_export) beside the agents
they were written from (``--check``, evoplay.recipes.host_check): Othello 6x6 (examples/othello6.py with its
othello6.js and othello6.lua), Nim, Kalah and connect four, weights and programs, each budget and policy, the board
counts, the transposition table, ties, levels (levels.json), a whole game in node, and the runtimes' install hints."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay.agents.feature_view import FeatureView, measure_scales
from evoplay.agents.host_export import TieDraw, export_host, level_documents, player_source
from evoplay.agents.feature_player import game_primitive_set
from evoplay.errors import SpecError
from evoplay.games import load_game
from evoplay.games.tools.sources import located_document, portable_document
from evoplay.gp.generate import full
from evoplay.recipes.host_check import check_host, play_game

pytest.importorskip("lupa", reason="the Lua player runs in lupa (pip install lupa)")
if shutil.which("node") is None:
    pytest.skip("the JavaScript player runs in node", allow_module_level=True)

OTHELLO = str(Path(__file__).resolve().parents[2] / "examples" / "othello6.py") + ":Othello"
ALL_FUNCTIONS = ("add", "sub", "mul", "div", "min", "max", "neg", "abs", "if_lt", "value_at")


class Folder:
    """What the export and its check read of a run folder: best.json, levels.json and the levels' files."""

    def __init__(self, path: Path, docs: dict[str, dict]):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        if len(docs) > 1:
            (path / "levels").mkdir(exist_ok=True)
            levels = {}
            for rating, (name, doc) in enumerate(docs.items()):
                (path / "levels" / f"{name}.json").write_text(json.dumps(portable_document(doc, path / "levels")))
                levels[name] = {"player": f"levels/{name}.json", "rating": float(rating)}
            (path / "levels.json").write_text(json.dumps(levels))
        (path / "best.json").write_text(json.dumps(portable_document(list(docs.values())[-1], path)))

    def file(self, name: str) -> Path:
        return self.path / name

    def read_json(self, name: str):
        return located_document(json.loads(self.file(name).read_text()), self.path)

    def write_text(self, name: str, text: str) -> Path:
        self.file(name).write_text(text)
        return self.file(name)


def weights_doc(game, seed: int, free=True, scaled=True, pairs=False, lines=0, play=None, policy="search", depth=1,
                coarse=False) -> dict:
    """A ga best.json of random weights (``coarse``: each -1, 0 or 1, so that moves tie often)."""
    view = FeatureView(game, free, pairs=pairs, lines=lines)
    rng = np.random.default_rng(seed)
    weights = rng.integers(-1, 2, len(view)) if coarse else rng.normal(size=len(view)).round(3)
    doc = {"format": "evoplay-weights/1", "game": game.spec, **view.document(), "policy": policy, "depth": depth,
           "opponents": "noop", "weights": [float(w) for w in weights]}
    if scaled:
        doc["feature_scales"] = [float(x) for x in measure_scales(game, free, seed, 30, pairs, lines)]
    if play:
        doc["play"] = play
    return doc


def program_doc(game, seed: int, base=True, play=None, policy="move", depth=1) -> dict:
    """A gp best.json of a random program of every function (over a fitted base of random weights)."""
    view = FeatureView(game, True)
    pset = game_primitive_set(game, functions=ALL_FUNCTIONS, names=view.names())
    program = full(pset, np.random.default_rng(seed), 4)
    doc = {"format": "evoplay-program/1", "game": game.spec, **view.document(), "policy": policy, "depth": depth,
           "opponents": "noop", "program": program.to_dict(), "primitive_set": pset.to_dict()}
    if base:
        doc["base_weights"] = np.random.default_rng(seed + 1).normal(size=len(view)).round(2).tolist()
    if play:
        doc["play"] = play
    return doc


def checked(tmp_path, docs: dict[str, dict], langs=("lua", "js"), positions=20, nodes=300, seed=0):
    """Each language's file written and checked; the results' lines."""
    folder = Folder(tmp_path, docs)
    game = load_game(list(docs.values())[-1]["game"])
    lines = []
    for lang in langs:
        path = folder.write_text(f"best.{lang}", player_source(level_documents(folder), game, lang))
        for result in check_host(folder, lang, path, positions, nodes, seed, say=lambda line: None):
            lines.append(result.line())
            assert result.positions == positions and result.equal == positions, lines
    return lines


def test_othello6_weights_within_a_time_budget_checked_within_nodes(tmp_path):
    game = load_game(OTHELLO)
    lines = checked(tmp_path, {"best": weights_doc(game, 1, play={"ms": 100.0})}, positions=25)
    assert len(lines) == 2 and all("100.0 %" in line for line in lines)


def test_othello6_program_with_every_function_and_ties(tmp_path):
    game = load_game(OTHELLO)
    checked(tmp_path, {"best": program_doc(game, 3, play={"nodes": 200})}, positions=25)
    checked(tmp_path / "ties", {"best": weights_doc(game, 2, scaled=False, coarse=True, play={"nodes": 150})},
            positions=25)


def test_nim_the_smallest_host(tmp_path):
    game = load_game(OTHELLO.replace("othello6.py:Othello", "nim.py:Nim"))
    checked(tmp_path, {"best": weights_doc(game, 4, play={"nodes": 100})}, positions=40)


def test_kalah_policies_without_a_budget_and_a_program_alone(tmp_path):
    game = load_game("kalah(pits=4,seeds=3)")
    checked(tmp_path / "move", {"best": program_doc(game, 5, base=False, policy="move")}, positions=40)
    checked(tmp_path / "search", {"best": weights_doc(game, 6, policy="search", depth=3, coarse=True)}, positions=40)


def test_connect_four_pair_and_line_counts_with_its_transposition_table(tmp_path):
    game = load_game("openspiel:connect_four")
    pairs = weights_doc(game, 7, pairs=True, play={"nodes": 400})
    lines = weights_doc(game, 8, lines=3, play={"nodes": 400})
    assert "pair[0,1,SE]" in pairs["features"] and any(n.startswith("line[") for n in lines["features"])
    written = player_source({"best": pairs}, game, "js")
    assert "var USES_TABLE = true;" in written  # the port's states have a transposition key
    checked(tmp_path / "pairs", {"best": pairs}, positions=20)
    checked(tmp_path / "lines", {"best": lines}, positions=20)


def test_a_thousand_kalah_positions_in_node(tmp_path):
    game = load_game("kalah")
    lines = checked(tmp_path, {"best": program_doc(game, 9, play={"ms": 50.0})}, langs=("js",), positions=1000,
                    nodes=200)
    assert lines == [lines[0]] and "1000 of 1000" in lines[0]


def test_levels_every_level_written_and_checked_the_top_one_by_default(tmp_path):
    game = load_game("kalah(pits=4,seeds=3)")
    docs = {"easy": weights_doc(game, 10, play={"nodes": 30}), "hard": program_doc(game, 11, play={"nodes": 600})}
    folder = Folder(tmp_path, docs)
    js = export_host(folder, "js")
    lines = checked(tmp_path, docs, positions=20)
    assert [line.split(", level ")[1].split(":")[0] for line in lines] == ["easy", "hard", "easy", "hard"]
    script = (f"const ai = require({json.dumps(str(js))}); const s = ai.GAME.newGame();"
              "console.log(JSON.stringify([ai.LEVELS, ai.DEFAULT_LEVEL, ai.chooseMove(s) === ai.chooseMove(s, 'hard')]));"
              "try { ai.chooseMove(s, 'expert'); } catch (e) { console.log(e.message); }")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout.splitlines()
    assert json.loads(out[0]) == [["easy", "hard"], "hard", True]
    assert out[1] == 'no level "expert"; the levels are easy, hard'


def test_levels_in_python_one_file_each_level_checked(tmp_path):
    from evoplay.agents.feature_export import export_python
    from evoplay.recipes.export_check import _generic

    game = load_game("kalah(pits=4,seeds=3)")
    docs = {"easy": weights_doc(game, 10, play={"nodes": 30}), "hard": program_doc(game, 11, play={"ms": 50.0})}
    folder = Folder(tmp_path, docs)
    path = export_python(folder)
    results = _generic(folder, "python", path, 30, 300, 0, say=lambda line: None)
    assert [r.label for r in results] == ["python, best.py, level easy", "python, best.py, level hard"]
    assert all(r.equal == r.positions == 30 for r in results), [r.line() for r in results]
    script = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('b', sys.argv[1]); "
              "b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b); "
              "print(b.DEFAULT_LEVEL, b.Player().level, b.Player(level='easy').level, "
              "b.choose_move(b.GAME.new_initial_state(), 'easy') in range(4))")
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["hard", "hard", "easy", "True"]


def test_levels_of_a_file_game_read_their_game_relative_to_their_own_folder(tmp_path):
    games = tmp_path / "games"  # the game file and its host beside it, in a folder the run shares with it
    games.mkdir()
    for suffix in (".py", ".js"):
        shutil.copy(OTHELLO.split(":")[0].replace(".py", suffix), games)
    game = load_game(f"{games / 'othello6.py'}:Othello")
    docs = {"easy": weights_doc(game, 14, scaled=False, play={"nodes": 20}),
            "hard": weights_doc(game, 15, scaled=False, play={"nodes": 50})}
    folder = Folder(tmp_path / "run", docs)
    written = json.loads((tmp_path / "run" / "levels" / "easy.json").read_text())["game"]
    assert written == "../../games/othello6.py:Othello"  # as a run writes its levels
    assert [d["game"] for d in level_documents(folder).values()] == [game.spec, game.spec]
    assert checked(tmp_path / "run", docs, langs=("js",), positions=10)


def test_the_check_sees_a_player_that_breaks_ties_otherwise(tmp_path):
    game = load_game("kalah(pits=4,seeds=3)")
    doc = weights_doc(game, 12, scaled=False, policy="search", depth=1)
    doc["weights"] = [0.0] * len(doc["weights"])  # every move ties until the game ends
    folder = Folder(tmp_path, {"best": doc})
    path = export_host(folder, "js")
    text = path.read_text()
    assert "top[ties.below(top.length)]" in text
    path.write_text(text.replace("top[ties.below(top.length)]", "top[0]"))  # ties to the first move
    result, = check_host(folder, "js", path, 60, 300, 0, say=lambda line: None)
    assert result.equal < result.positions and result.first_difference


def test_below_and_the_tie_draws_agree_in_python_lua_and_javascript(tmp_path):
    import lupa

    values = [0.0, 1.0, -1.0, 2.0, 0.75, -0.5, 1e9 + 3, -1e9 - 40, 1e8, -1e-300, 5e-324, 3.3e-310, 123.456]
    path = export_host(Folder(tmp_path, {"best": weights_doc(load_game("kalah"), 0, play={"nodes": 10})}), "js")
    script = (f"const ai = require({json.dumps(str(path))}); const t = new ai.TieDraw(987654321);"
              f"console.log(JSON.stringify([{json.dumps(values)}.map(ai.below), [2,3,5,7,11,13].map(n => t.below(n))]))")
    below_js, draws_js = json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True,
                                                   check=True).stdout)
    module = lupa.LuaRuntime().execute(export_host(Folder(tmp_path, {"best": weights_doc(load_game("kalah"), 0)}),
                                                   "lua").read_text())
    draw = module.tie_draw(987654321)
    tie = TieDraw(987654321)
    for n in (2, 3, 5, 7, 11, 13):
        assert draw(n) == tie.integers(n) == draws_js.pop(0)
    for x, js in zip(values, below_js):
        assert js == module.below(x) == float(np.nextafter(x, -np.inf)), x


def test_a_whole_game_of_the_javascript_file_against_the_python_agent(tmp_path):
    game = load_game(OTHELLO)
    folder = Folder(tmp_path, {"best": weights_doc(game, 13, play={"nodes": 100})})
    path = export_host(folder, "js")
    said = []
    returns = play_game(folder, "js", path, None, 1, 3, said.append)
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]
    assert said[-2].startswith("result: returns") and said[-1].startswith("time a move (its shipped budget): js ")
    assert any("player 1 (js, " in line for line in said)


def test_missing_runtimes_say_how_to_install_them(monkeypatch):
    from evoplay.recipes import host_check

    monkeypatch.setattr(host_check.shutil, "which", lambda name: None)
    with pytest.raises(SpecError, match="needs node.*apt install nodejs"):
        host_check.runtime_ready("js")
    monkeypatch.setitem(sys.modules, "lupa", None)
    with pytest.raises(SpecError, match=r"needs lupa: pip install 'evoplay\[lua\]'"):
        host_check.runtime_ready("lua")


def test_a_game_with_hidden_information_or_a_uct_champion_is_refused(tmp_path):
    game = load_game("kalah")
    doc = weights_doc(game, 0, scaled=False)
    with pytest.raises(SpecError, match="ships as uct"):
        player_source({"best": dict(doc, play={"search": "uct", "ms": 50})}, game, "lua")
    sevens = load_game("sevens")
    with pytest.raises(SpecError, match="hides information"):
        player_source({"best": weights_doc(sevens, 0, scaled=False)}, sevens, "js")


def test_the_lua_file_plays_alike_in_lua_5_1_to_5_5_and_luajit(tmp_path):
    import importlib.util

    game = load_game(OTHELLO)
    path = export_host(Folder(tmp_path, {"best": program_doc(game, 16, play={"nodes": 150})}), "lua")

    def moves(runtime: str) -> list[int]:
        lua = importlib.import_module(f"lupa.{runtime}").LuaRuntime()
        module = lua.execute(path.read_text())
        host, out = module.GAME, []
        for seed in range(2):
            player = module.new_player(host, lua.table_from({"seed": seed}))
            player.restart(seed, 0)
            state, k = host.new_game(), 0
            while not host.is_terminal(state):
                legal = list(host.legal_moves(state).values())
                action = player.choose(state) if host.current_player(state) == 0 else legal[(7 * k + seed) % len(legal)]
                out.append(int(action))
                host.apply(state, action)
                k += 1
        return out

    runtimes = ["lua51", "lua52", "lua53", "lua54", "lua55", "luajit20", "luajit21"]
    available = [r for r in runtimes if importlib.util.find_spec(f"lupa.{r}") is not None]
    assert "lua51" in available and "lua55" in available, available
    reference = moves("lua55")  # the runtime --check runs it in
    for runtime in available:
        assert moves(runtime) == reference, runtime
