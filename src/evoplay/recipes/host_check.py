"""``evoplay export RUN --lang lua|js --check`` and ``--play``: the written Lua or JavaScript player run beside the
agent it was exported from, each level, or playing a whole game against it.

The Lua file runs in lupa, the JavaScript file in node (a child process driven one JSON line a command by
``templates/driver.js``). Both follow the game on their own host game's positions (the interface written into the
file), action by action, and are restarted with the agent's seed and seat before each game; the agent draws its
ties with the file's generator (:class:`evoplay.agents.host_export.TieDraw`), so a tie between equally valued moves
falls on the same move in both. A level that plays within a time budget is compared within a node budget instead
(both alike), since no two runs spend a clock alike.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

from evoplay.agents.export_check import Result, side_by_side
from evoplay.agents.host_export import TEMPLATES, TieDraw, host_file, level_documents
from evoplay.errors import SpecError

NODE_HINT = ("checking or playing a JavaScript export needs node (Node.js 12 or later) on the PATH: install it from "
             "nodejs.org or with your package manager (apt install nodejs, brew install node)")
LUA_HINT = "checking or playing a Lua export needs lupa: pip install 'evoplay[lua]'"


def node_path() -> str:
    """node's path, or the SpecError that says how to install it."""
    node = shutil.which("node")
    if node is None:
        raise SpecError(NODE_HINT)
    return node


def lua_runtime():
    try:
        import lupa
    except ImportError:
        raise SpecError(LUA_HINT) from None
    return lupa.LuaRuntime(unpack_returned_tuples=True)


def runtime_ready(lang: str) -> None:
    """SpecError with the install hint unless ``lang``'s runtime is there."""
    if lang == "js":
        node_path()
    elif lang == "lua":
        lua_runtime()


class TiedAgent:
    """A FeatureAgent whose ties are drawn with the exported players' generator, seeded by each ``restart``."""

    def __init__(self, agent):
        self.agent = agent
        self.game = agent.game

    def restart(self, seed: int, seat: int = 0) -> None:
        self.agent.restart(seed, seat)
        self.agent._rng = TieDraw(seed)

    def step(self, state) -> int:
        return self.agent.step(state)


class NodePlayer:
    """One level of a written JavaScript player, in node, on the file's own host game (the check's ``Exported``)."""

    def __init__(self, path: Path, level: str, nodes: int | None = None, ms: float | None = None):
        self.process = subprocess.Popen([node_path(), str(TEMPLATES / "driver.js"), str(path)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.path = path
        self.send({"op": "player", "level": level, "seed": 0, "nodes": nodes, "ms": ms})
        self.ask({"op": "ping"})
        self.last_ms = 0.0

    def send(self, message: dict) -> None:
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
        except BrokenPipeError:
            self.stopped()

    def stopped(self):
        """The SpecError of a node that stopped, with the error it wrote to stderr."""
        err = self.process.stderr.read().strip().splitlines()
        said = next((line.strip() for line in err if re.match(r"\w*Error\b", line)), err[-1] if err else "no message")
        raise SpecError(f"node stopped running {self.path.name}: {said}")

    def ask(self, message: dict) -> dict:
        self.send(message)
        try:
            self.process.stdin.flush()
        except BrokenPipeError:
            self.stopped()
        line = self.process.stdout.readline()
        if not line:
            self.stopped()
        answer = json.loads(line)
        if "error" in answer:
            raise SpecError(f"{self.path.name} in node: {answer['error']}")
        return answer

    def restart(self, seed: int, seat: int, state=None) -> None:
        self.send({"op": "restart", "seed": int(seed), "seat": int(seat)})

    def play(self, action: int) -> None:
        self.send({"op": "play", "action": int(action)})

    def play_joint(self, joint) -> None:
        raise SpecError("the JavaScript player plays turn-based games; this one moves simultaneously")

    def choose(self, state=None) -> int:
        answer = self.ask({"op": "choose"})
        self.last_ms = float(answer["ms"])
        return int(answer["move"])

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=10)


class LuaPlayer:
    """One level of a written Lua player, in lupa, on the file's own host game (the check's ``Exported``)."""

    def __init__(self, path: Path, level: str, nodes: int | None = None, ms: float | None = None):
        self.lua = lua_runtime()
        self.path = path
        try:
            self.module = self.lua.execute(path.read_text(encoding="utf-8"))
            self.game = self.module.GAME
            if self.game is None:
                raise SpecError(f"{path.name} has no host game of its own (GAME)")
            options = {"level": level, "seed": 0}
            if nodes is not None:
                options["nodes"] = nodes
            if ms is not None:
                options["ms"] = ms
            self.player = self.module.new_player(self.game, self.lua.table_from(options))
        except Exception as err:  # noqa: BLE001 - lupa's LuaError: the file's own message
            raise SpecError(f"{path.name} in Lua: {err}") from None
        self.state = None
        self.last_ms = 0.0

    def restart(self, seed: int, seat: int, state=None) -> None:
        self.player.restart(int(seed), int(seat))
        self.state = self.game.new_game()

    def play(self, action: int) -> None:
        self.game.apply(self.state, int(action))

    def play_joint(self, joint) -> None:
        raise SpecError("the Lua player plays turn-based games; this one moves simultaneously")

    def choose(self, state=None) -> int:
        start = time.perf_counter()
        try:
            move = int(self.player.choose(self.state))
        except Exception as err:  # noqa: BLE001 - lupa's LuaError
            raise SpecError(f"{self.path.name} in Lua: {err}") from None
        self.last_ms = 1000 * (time.perf_counter() - start)
        return move

    def close(self) -> None:
        pass


PLAYERS = {"js": NodePlayer, "lua": LuaPlayer}


def _agent_and_budget(game, doc: dict, nodes: int, where: str):
    """The level's agent (ties drawn as the export draws them) and the budget override both play under: a timed
    level within ``nodes`` nodes instead, else as shipped (None, None)."""
    from evoplay.agents.feature_player import agent_from_program_document, agent_from_weights_document, document_agent

    shipped = document_agent(game, doc, where)
    make = agent_from_program_document if "program" in doc else agent_from_weights_document
    if shipped.budget and shipped.budget.timed:
        agent = make(game, doc, where, where, ms=0, nodes=nodes)
        return TiedAgent(agent), (nodes, 0), shipped
    return TiedAgent(make(game, doc, where, where)), (None, None), shipped


def check_host(folder, lang: str, path: Path, positions: int, nodes: int, seed: int, say) -> list[Result]:
    """Each level of the written ``path`` beside its agent on ``positions`` positions of seeded games."""
    from evoplay.games import load_game

    docs = level_documents(folder)
    game = load_game(next(iter(docs.values()))["game"])
    if host_file(game, lang) is None:
        raise SpecError(f"{path.name} has no host game to run on: evoplay has none of {game.spec} in {lang}; write one "
                        f"beside the game's Python file ({_beside(game, lang)}, docs/your-game.md) and export again")
    results = []
    for level, doc in docs.items():
        agent, (limit, ms), shipped = _agent_and_budget(game, doc, nodes, f"level {level}")
        how = (f"within {limit} nodes a move instead of {1000 * shipped.budget.seconds:g} ms" if limit is not None
               else "as shipped")
        say(f"{path.name}, level {level}: the file and the agent play {how}, {shipped.describe()} (ties drawn by "
            f"both with the file's generator seeded alike)")
        exported = PLAYERS[lang](path, level, limit, ms)
        try:
            results.append(side_by_side(game, agent, exported, f"{lang}, {path.name}, level {level}", positions,
                                        seed))
        finally:
            exported.close()
    return results


def _beside(game, lang: str) -> str:
    import inspect

    try:
        return Path(inspect.getfile(type(game))).with_suffix("." + lang).name
    except (TypeError, OSError):
        return f"GAME.{lang}"


def play_game(folder, lang: str, path: Path, level: str | None, seat: int, seed: int, say,
              nodes: int | None = None) -> list[float]:
    """One whole game of the written ``path`` (``level``, default the top one; seat ``seat``) against the agent of
    the run's best.json (the other seats), each at its shipped budget or both within ``nodes`` nodes a move;
    ``say`` prints each move, the result and the mean time a move of each. Returns the game's returns."""
    from evoplay.agents.feature_player import shipped_agent
    from evoplay.games import load_game

    docs = level_documents(folder)
    level = level if level is not None else list(docs)[-1]
    if level not in docs:
        raise SpecError(f"--level {level!r}: the levels of {folder.path} are {', '.join(docs)}")
    game = load_game(docs[level]["game"])
    if host_file(game, lang) is None:
        raise SpecError(f"{path.name} has no host game to play on: write {_beside(game, lang)} (docs/your-game.md)")
    if not 0 <= seat < game.num_players:
        raise SpecError(f"--seat {seat}: {game.spec} has seats 0..{game.num_players - 1}")
    if nodes is not None and nodes < 1:
        raise SpecError(f"--nodes {nodes}: give the node budget a move both play within, >= 1")
    budget = {} if nodes is None else {"ms": 0, "nodes": nodes}
    agent = shipped_agent(game, folder.read_json("best.json"), "the Python agent", "the Python agent", **budget)
    exported = PLAYERS[lang](path, level, nodes, 0 if nodes is not None else None)
    runtime = "node" if lang == "js" else "Lua (lupa)"
    times: dict[str, list[float]] = {lang: [], "python": []}
    try:
        state = game.new_initial_state(seed)
        agent.restart(seed, 1 - seat if game.num_players == 2 else (seat + 1) % game.num_players)
        exported.restart(seed, seat)
        say(f"{path.name} (level {level}, in {runtime}) plays seat {seat}; the Python agent gp/weights(best.json) "
            f"plays the others")
        move = 0
        while not state.is_terminal():
            if state.is_chance_node() or state.is_simultaneous_node():
                raise SpecError(f"{game.spec} has chance or simultaneous moves; the {lang} player plays turn-based "
                                f"games of perfect information")
            mover = state.current_player()
            if mover == seat:
                action = exported.choose()
                times[lang].append(exported.last_ms)
            else:
                start = time.perf_counter()
                action = int(agent.step(state))
                times["python"].append(1000 * (time.perf_counter() - start))
            who = f"{lang if mover == seat else 'python'}, {(times[lang] if mover == seat else times['python'])[-1]:.1f} ms"
            move += 1
            say(f"{move:3d}. player {mover} ({who}): {state.action_to_string(action, mover)}")
            state.apply_action(action)
            exported.play(action)
        returns = [float(r) for r in state.returns()]
        say(str(state))
        outcome = ("a draw" if returns[seat] == max(r for p, r in enumerate(returns) if p != seat)
                   else f"{lang} {'wins' if returns[seat] > 0 else 'loses'}")
        say(f"result: returns {returns} ({outcome})")
        within = "its shipped budget" if nodes is None else f"{nodes} nodes"
        say("time a move (" + within + "): " + "; ".join(
            f"{who} {sum(ms) / len(ms):.1f} ms on average over {len(ms)} moves (longest {max(ms):.1f} ms)"
            for who, ms in times.items() if ms))
        return returns
    finally:
        exported.close()
