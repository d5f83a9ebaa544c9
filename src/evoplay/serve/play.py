"""A game in the browser: one person's seat against agents, the state as each page's renderer needs it (JSON)."""
from __future__ import annotations

import time
import uuid
from pathlib import Path

import numpy as np

from evoplay.arena import derive_seed
from evoplay.errors import GameError, IllegalActionError, SpecError
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, sample_chance

#: the agent a game is played against when the page names none and the game names none (Game.default_opponent)
GENERIC_OPPONENT = "random"
REALTIME_TICK_MS = 150.0
MIN_TICK_MS, MAX_TICK_MS = 40.0, 2000.0


class StaleMove(IllegalActionError):
    """A move sent for another ply than the game's: a repeated request, or one from a page that is behind."""


def default_opponent(game) -> str:
    """The agent a game (or a game class) is played against when the page names none."""
    return game.default_opponent or GENERIC_OPPONENT


def opponent_spec(game, text: str | None) -> str:
    """The agent spec the page's opponent ``text`` stands for: the game's default when empty, a level's agent for
    one of the game's level names (``Game.levels``), else ``text`` itself."""
    spec = (text or "").strip() or default_opponent(game)
    return game.levels.get(spec, spec)


#: the web app's own drawings, for any game (static/views/<name>.js; their styles are in static/style.css): a board
#: of cells from ``State.grid()``, a real-time game on a canvas, the state's text and a button a move
SHARED_VIEWS = ("board", "grid", "generic")
SHARED_VIEWS_FOLDER = Path(__file__).with_name("static") / "views"


class Drawings:
    """The drawings the play page loads by the name of a game's view (``/views/<name>.js`` and ``<name>.css``): the
    app's own for any game (SHARED_VIEWS), and the games' own, each from the package of a game that declares that
    view and ships its files (``Game.view``, ``Game.view_file``): a registered game's, else one of a game played
    here (a game from a file may bring its own drawing, or name a registered game's and give the same fields)."""

    def __init__(self):
        self.played: dict[str, type] = {}  # a view's name -> the game class played here that brought its files

    def owner(self, name: str) -> type | None:
        """The game class whose files draw the view ``name`` (a registered game's first), or None."""
        from evoplay.games import CLASSES

        for cls in (*CLASSES.values(), self.played.get(name)):
            if cls is not None and cls.view == name and cls.view_file(".js") is not None:
                return cls
        return None

    def add(self, game) -> None:
        """Check that the page can draw ``game`` and remember where its own drawing comes from."""
        name, cls = game.view, type(game)
        if name is None or name in SHARED_VIEWS:
            return
        own, owner = cls.view_file(".js"), self.owner(name)
        if owner is None and own is None:
            raise GameError(f"{cls.__name__}.view is {name!r}, but no game ships that drawing: put its script "
                            f"view.js (and view.css) beside the module of {cls.__name__}, name one of the app's "
                            f"({', '.join(SHARED_VIEWS)}), or set view = None")
        if owner is None:
            self.played[name] = cls
        elif own is not None and own != owner.view_file(".js"):
            raise SpecError(f"{cls.__name__}.view {name!r} is already the name of {owner.__name__}'s drawing; give "
                            f"the view.js beside {cls.__name__} a name of its own (view = \"...\")")

    def file(self, name: str, suffix: str) -> Path | None:
        """The script (".js") or stylesheet (".css") of the drawing ``name``, or None: no such drawing, or one
        without a stylesheet (``known`` tells them apart)."""
        if name in SHARED_VIEWS:
            return SHARED_VIEWS_FOLDER / f"{name}.js" if suffix == ".js" else None
        owner = self.owner(name)
        return None if owner is None else owner.view_file(suffix)

    def known(self, name: str) -> bool:
        return name in SHARED_VIEWS or self.owner(name) is not None


def realtime_games() -> list[str]:
    """The registered games played in real time (drawn on the grid, ``Game.view == "grid"``)."""
    from evoplay.games import CLASSES

    return [name for name, cls in CLASSES.items() if cls.view == "grid"]


def game_kind(game) -> str:
    """Which drawing the page loads for ``game``: the game's ``view`` where it names one (one of its own, or grid:
    a game in real time on a canvas), else board (a game of perfect information whose states give
    ``State.grid()``: a clickable board) or generic (the state's text and a button per move)."""
    if game.view is not None:  # a drawing the game names (Game.view)
        return game.view
    state = game.new_initial_state(0)
    # A grid shows the whole board: a game with hidden information keeps the text of what one seat observes.
    return "board" if game.perfect_information and state.grid() else "generic"


class GameSession:
    """One person (seat ``you``) against an agent in every other seat; agents move as soon as it is their turn."""

    realtime = False

    def __init__(self, game, make_opponent, you: int, seed: int, tick_ms: float | None = None,
                 move_seconds: float | None = None):
        self.id = uuid.uuid4().hex
        self.move_seconds = move_seconds  # an agent's time for a move (its deadline); None: no cap
        self.hurried = False  # nobody waits for the agents' moves any more: each plays its best so far at once
        self.ply = 0  # moves applied so far (chance and agents included): a move names the ply it is for
        self.game = game
        self.kind = game_kind(game)
        self.you = you
        self.seed = int(seed)
        self.state = game.new_initial_state(self.seed)
        self.bots = [None if seat == you else make_opponent() for seat in range(game.num_players)]
        self.opponent_name = next(b for b in self.bots if b is not None).name
        self.game_name = game.spec  # the spec as the page names it (a file game's path relative to --runs)
        for seat, agent in enumerate(self.bots):
            if agent is not None:
                agent.restart(derive_seed(self.seed, seat + 1), seat)
        self.chance_rng = np.random.default_rng(derive_seed(self.seed, 0))
        self.last_moves: list[dict] = []
        self.log: list[dict] = []
        self.created = self.last_used = time.monotonic()
        self.realtime = self.kind == "grid"
        self.tick_ms = float(tick_ms or REALTIME_TICK_MS)
        if self.realtime and not MIN_TICK_MS <= self.tick_ms <= MAX_TICK_MS:
            raise SpecError(f"tick {self.tick_ms:g} ms is out of range; choose {MIN_TICK_MS:g}..{MAX_TICK_MS:g} ms "
                            f"(150 is the terminal's default)")
        self.key = None  # the realtime person's key for the running tick (None: NIL)
        self.streaming = False
        self.bot_ms: list[float] = []  # every agent decision's time, for the load figures

    # --- moving ----------------------------------------------------------------------------------------------
    def touch(self) -> None:
        self.last_used = time.monotonic()

    def think(self, seat: int, state) -> tuple[int, float]:
        """The agent in ``seat`` decides, with ``move_seconds`` until its deadline: (action, milliseconds)."""
        bot = self.bots[seat]
        start = time.perf_counter()
        if self.hurried:
            bot.deadline = start
        elif self.move_seconds is not None:
            bot.deadline = start + self.move_seconds
        try:
            action = bot.step(state)
        finally:
            bot.deadline = None
        ms = (time.perf_counter() - start) * 1000.0
        self.bot_ms.append(ms)
        return action, ms

    def hurry(self) -> None:
        """Nobody waits for this request's moves any more (the client left, the game was closed, the server is
        stopping): the search in progress passes its deadline now and plays its best move so far, as do the
        agents' further moves of the request, so the thread is free at once and the game stays consistent."""
        self.hurried = True
        for bot in self.bots:
            if bot is not None:
                bot.deadline = 0.0

    close = hurry

    def check_ply(self, body: dict) -> None:
        """Refuse a move sent for another ply than the game's (a repeated POST would otherwise be played again)."""
        if self.realtime:
            return  # keys, not moves: play() says so
        ply = body.get("ply")
        if ply is None:
            raise SpecError(f"send the ply your move is for with it, e.g. {{\"text\": \"3\", \"ply\": {self.ply}}} "
                            f"(the game's view says its ply)")
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise SpecError(f"ply {ply!r} is not a whole number; send the ply of the game's view ({self.ply})")
        if ply != self.ply:
            raise StaleMove(f"this move is for ply {ply}, but the game is at ply {self.ply}: a repeated or stale "
                            f"request, not played again; reload the game to see its position")

    def _record(self, state, player: int, action: int, ms: float | None, kind: str | None = None,
                to: int = -1) -> dict:
        text = self._public_text(state, player, action, kind, to)
        move = {"player": player, "text": text, "ms": None if ms is None else round(ms, 2)}
        if kind:
            move["kind"] = kind
            move["to"] = to
        self.log.append(move)
        return move

    def _public_text(self, state, player: int, action: int, kind: str | None, to: int) -> str | None:
        """What the person may see of a move: a move to a seat (``State.move_kind``: a card sent) between two
        other players stays hidden, and in a game with hidden information so does a chance outcome (a deal)."""
        if to >= 0 and self.you not in (player, to):
            return None
        if player == CHANCE and not self.game.perfect_information:
            return None
        try:
            return state.action_to_string(action, player if player >= 0 else None)
        except Exception:  # an action string the game cannot write: show the number
            return str(action)

    def agents_to_move(self) -> bool:
        """Is an agent or chance to move (not the person, and the game not over)?"""
        player = self.state.current_player()
        return player not in (TERMINAL, SIMULTANEOUS, self.you)

    def advance(self) -> list[dict]:
        """Let chance and the agents move until it is the person's turn or the game is over."""
        moves = []
        state = self.state
        while True:
            player = state.current_player()
            if player == TERMINAL or player == self.you or player == SIMULTANEOUS:
                break
            if player == CHANCE:
                action = sample_chance(state, self.chance_rng)
                moves.append(self._record(state, CHANCE, action, None, "chance"))
                state.apply_action(action)
                self.ply += 1
                continue
            kind, to = state.move_kind()
            action, ms = self.think(player, state)
            move = self._record(state, player, action, ms, kind, to)
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                raise IllegalActionError(f"agent {self.bots[player].name} in seat {player}: {err}") from None
            self.ply += 1
            moves.append(move)
        self.last_moves = moves
        return moves

    def parse_action(self, body: dict) -> int:
        """The person's action from ``{"action": number}`` or ``{"text": "the game's action string"}``."""
        state = self.state
        if "action" in body and body["action"] is not None:
            action = body["action"]
            if isinstance(action, bool) or not isinstance(action, int):
                raise IllegalActionError(f"action {action!r} is not an action number")
            return action
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise IllegalActionError("send {\"text\": MOVE} with the move written as the game writes it, or "
                                     "{\"action\": NUMBER}")
        return state.string_to_action(text, self.you)

    def play(self, body: dict) -> list[dict]:
        """The person's move (checked, with the reason when refused), then the agents' replies."""
        self.hurried = False
        state = self.state
        if state.is_terminal():
            raise IllegalActionError("the game is over; start a new one")
        if self.realtime:
            raise IllegalActionError(f"{self.game.name} runs in real time: send keys while it runs")
        action = self.parse_action(body)
        player = state.current_player()
        if player == SIMULTANEOUS:
            return self._play_simultaneous(action)
        if player != self.you:
            raise IllegalActionError(f"it is not your turn (player {player} is to move)")
        if action not in state.legal_actions():
            raise IllegalActionError(state.why_illegal(action, self.you))
        kind, to = state.move_kind()
        mine = self._record(state, self.you, action, None, kind, to)
        state.apply_action(action)
        self.ply += 1
        self.last_moves = [mine] + self.advance()
        return self.last_moves

    def _play_simultaneous(self, action: int) -> list[dict]:
        state = self.state
        if action not in state.legal_actions(self.you):
            raise IllegalActionError(state.why_illegal(action, self.you))
        joint, moves = [], []
        for seat, bot in enumerate(self.bots):
            if bot is None:
                joint.append(action)
                moves.append(self._record(state, seat, action, None))
                continue
            a, ms = self.think(seat, state)
            joint.append(a)
            moves.append(self._record(state, seat, a, ms))
        state.apply_actions(joint)
        self.ply += 1
        self.last_moves = moves + self.advance()
        return self.last_moves

    # --- real time -------------------------------------------------------------------------------------------
    def press(self, body: dict) -> None:
        """The realtime person's key: the last one pressed in a tick is their action for that tick."""
        if not self.realtime:
            raise IllegalActionError(f"keys are for the real-time games ({', '.join(realtime_games())}); send a move "
                                     f"instead")
        text = body.get("key", body.get("text"))
        if not isinstance(text, str):
            raise IllegalActionError("send {\"key\": \"up\"} (up, down, left, right or nil)")
        self.key = self.state.string_to_action(text, self.you)

    def tick(self) -> dict:
        """One tick of a real-time game: the agent decides, the person's last key (or NIL) is their action."""
        from evoplay.games.forward import NIL

        state = self.state
        seat = 1 - self.you
        self.hurried = False
        bot_action, ms = self.think(seat, state)
        mine = NIL if self.key is None else self.key
        self.key = None
        joint = [mine, bot_action] if self.you == 0 else [bot_action, mine]
        state.apply_actions(joint)
        self.ply += 1
        self.last_moves = [{"player": seat, "text": state.action_to_string(bot_action), "ms": round(ms, 2)}]
        return self.view()

    # --- what the page sees ----------------------------------------------------------------------------------
    def view(self) -> dict:
        state = self.state
        player = state.current_player()
        terminal = player == TERMINAL
        your_turn = not terminal and (player == self.you or player == SIMULTANEOUS)
        legal = []
        if your_turn and not self.realtime:
            actions = state.legal_actions(self.you) if player == SIMULTANEOUS else state.legal_actions()
            legal = [{"action": int(a), "text": state.action_to_string(a)} for a in actions]
        v = {
            "id": self.id, "game": self.game_name, "name": self.game.name, "kind": self.kind, "you": self.you,
            "players": self.game.num_players, "opponent": self.opponent_name, "to_move": player, "ply": self.ply,
            "your_turn": your_turn, "terminal": terminal, "legal": legal, "moves": self.last_moves,
            "realtime": self.realtime, "tick_ms": self.tick_ms if self.realtime else None,
        }
        own = {"board": self._view_board, "generic": self._view_generic}.get(self.kind)
        v.update(own() if own is not None else state.view_fields(self.you))  # a drawing of the game's own
        if terminal:
            v["result"] = self.result()
        return v

    def result(self) -> dict:
        state = self.state
        returns, scores = state.returns(), state.scores()
        own = state.verdict(self.you)
        if own is not None:
            return {"returns": returns, "scores": scores, "verdict": own}
        me = returns[self.you]
        others = [r for p, r in enumerate(returns) if p != self.you]
        if me > max(others):
            verdict = "you win"
        elif me == max(others) and returns.count(me) == len(returns):
            verdict = "a draw"
        elif me == max(others):
            verdict = "a shared win"
        else:
            verdict = f"{self.opponent_name} wins"
        return {"returns": returns, "scores": scores, "verdict": verdict}

    def _view_generic(self) -> dict:
        return {"text": self.observation_text()}

    def _view_board(self) -> dict:
        """``State.grid()`` as rows of symbols, and where each of your legal moves is played on it (``cells``:
        action -> [row, column], row null for a whole column); moves without a cell stay buttons."""
        state = self.state
        player = state.current_player()
        mine = player == self.you or player == SIMULTANEOUS
        actions = (state.legal_actions(self.you) if player == SIMULTANEOUS else state.legal_actions()) if mine else []
        cells = {}
        for action in actions:
            where = state.action_cell(action)
            if where is not None:
                cells[str(action)] = [None if where[0] is None else int(where[0]), int(where[1])]
        return {"rows": list(state.grid()), "cells": cells, "text": self.observation_text()}

    def observation_text(self) -> str:
        """The state as text for the generic view: all of it in a game of perfect information, otherwise only
        what the person's seat observes."""
        state = self.state
        if self.game.perfect_information or state.is_terminal():
            return str(state)
        for method in ("observation_string", "information_state_string"):
            fn = getattr(state, method, None)
            if fn is not None:
                try:
                    return fn(self.you)
                except Exception:  # a wrapped game without that observer
                    continue
        render = getattr(state, "render", None)
        if render is not None:
            return render(self.you)
        return (f"{self.game.spec} hides information and its state has no observation text for one seat, so only "
                f"your legal moves are shown")
