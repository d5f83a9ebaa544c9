"""What the play page and the terminal offer and say comes from the game's hooks (Game.default_opponent,
suggested_opponents, levels, tournament_agents, move_word; State.why_illegal, move_kind, verdict, view_fields), not
from a list of game names: a game of a user's own gets the generic answers, or fills the hooks and is served by them."""
from __future__ import annotations

import pytest

from evoplay.agents import make_agent
from evoplay.games import TERMINAL, Game, State, load_game
from evoplay.serve.play import GameSession, default_opponent, opponent_spec

from conftest import write_pile


class Pile(Game):
    """Three players take 1 to 3 stones in turn from a pile of 10; who takes the last wins."""

    num_players = 3

    def new_initial_state(self, seed=None):
        return PileState(self, 10, 0)

    def num_distinct_actions(self):
        return 3  # action a takes a + 1 stones


class PileState(State):
    def __init__(self, game, stones, player, last=-1):
        self.game, self.stones, self.player, self.last = game, stones, player, last

    def current_player(self):
        return TERMINAL if self.stones == 0 else self.player

    def _legal_actions(self):
        return [a for a in range(3) if a < self.stones]

    def _apply_action(self, a):
        self.stones, self.last, self.player = self.stones - a - 1, self.player, (self.player + 1) % 3

    def returns(self):
        return [0.0] * 3 if self.stones else [1.0 if p == self.last else -0.5 for p in range(3)]

    def clone(self):
        return PileState(self.game, self.stones, self.player, self.last)

    def __str__(self):
        return f"{self.stones} stones"


class TalliedPile(Pile):
    """The same game with every hook a person meets filled."""

    view = "tally"
    default_opponent = "easy"
    suggested_opponents = ("easy", "random")
    levels = {"easy": "random"}
    tournament_agents = ("random", "easy")
    move_word = "take "

    def new_initial_state(self, seed=None):
        return TalliedState(self, 10, 0)


class TalliedState(PileState):
    def clone(self):
        return TalliedState(self.game, self.stones, self.player, self.last)

    def why_illegal(self, action, player):
        return f"seat {player} may take 1 to {min(3, self.stones)} stones"

    def move_kind(self):
        return "pass", (self.player + 1) % 3  # each take is whispered to the next seat: the third never sees it

    def verdict(self, player):
        return "the last stone was yours" if self.last == player else f"seat {self.last} took the last stone"

    def view_fields(self, player):
        return {"stones": self.stones, "yours": player}


def _session(game, opponent=None):
    spec = opponent_spec(game, opponent)
    return GameSession(game, lambda: make_agent(spec, game), 0, seed=1)


def test_a_game_without_hooks_gets_the_generic_answers():
    game = Pile()
    assert default_opponent(game) == "random" and opponent_spec(game, "") == "random"
    assert opponent_spec(game, " easy ") == "easy"  # no levels: a name is an agent spec
    s = _session(game)
    assert s.kind == "generic" and s.view()["text"] == "10 stones"
    with pytest.raises(Exception, match=r"^7 is not a legal move here; legal: 0, 1, 2$"):
        s.play({"action": 7, "ply": s.ply})
    moves = s.play({"action": 0, "ply": s.ply})
    assert all("kind" not in m and m["text"] is not None for m in moves)  # one kind of move, all of it seen
    while not s.state.is_terminal():
        s.play({"action": s.state.legal_actions()[-1], "ply": s.ply})
    verdict = s.view()["result"]["verdict"]
    assert verdict in ("you win", "random wins")


def test_a_game_fills_what_the_page_offers_and_says():
    game = TalliedPile()
    assert default_opponent(game) == "easy" and opponent_spec(game, "") == "random"  # its level's agent
    assert opponent_spec(game, "easy") == "random" and opponent_spec(game, "mcts") == "mcts"
    s = _session(game)
    view = s.view()
    assert view["kind"] == "tally" and view["stones"] == 10 and view["yours"] == 0  # the game's own fields
    with pytest.raises(Exception, match=r"^seat 0 may take 1 to 3 stones$"):
        s.play({"action": 7, "ply": s.ply})
    moves = s.play({"action": 0, "ply": s.ply})
    # seat 0 whispers to seat 1 (seen), seat 1 to seat 2 (hidden from seat 0), seat 2 to seat 0 (seen)
    assert [(m["player"], m["kind"], m["to"], m["text"] is None) for m in moves] == [
        (0, "pass", 1, False), (1, "pass", 2, True), (2, "pass", 0, False)]
    while not s.state.is_terminal():
        s.play({"action": s.state.legal_actions()[-1], "ply": s.ply})
    verdict = s.view()["result"]["verdict"]
    assert verdict == "the last stone was yours" or verdict.startswith("seat ")


def test_the_terminal_asks_the_game_too():
    from evoplay.agents.human import Announcer, HumanAgent, describe_move
    from evoplay.cli.games import table_seats

    said = []
    seats, name = table_seats(TalliedPile(), None, 1, said.append)
    assert name == "random"  # the game's default opponent is its level "easy", played by random
    assert isinstance(seats[1], HumanAgent) and all(isinstance(seats[p], Announcer) for p in (0, 2))
    state = TalliedPile().new_initial_state()
    assert describe_move(state, 2, "random") == "random plays take 2"
    assert describe_move(Pile().new_initial_state(), 2, "random") == "random plays 2"
    seats, name = table_seats(Pile(), None, 0, said.append)
    assert name == "alphabeta(depth=4)"  # no default of the game's: the terminal's own


def test_the_builtin_games_offer_what_the_page_offered_before_the_hooks(client):
    """The play page's catalog is the same JSON as when serve/ listed the built-in games' opponents itself."""
    data = client.get("/api/catalog").json()
    shown = {g["name"]: (g["default_opponent"], g["suggestions"]) for g in data["games"]}
    rollout = ["rs(budget_ms=40,depth=10)", "rhea(budget_ms=40)", "mcts(budget_ms=40)", "lookahead(budget_ms=40)",
               "random"]
    assert shown["kalah"] == ("alphabeta(depth=4)", ["alphabeta(depth=2)", "alphabeta(depth=4)", "alphabeta(depth=6)",
                                                     "alphabeta(depth=8)", "mcts(iterations=2000)", "random"])
    assert shown["mnk"] == ("alphabeta(depth=4)", ["alphabeta(depth=2)", "alphabeta(depth=4)",
                                                   "alphabeta(schedule=empty_cells)", "random"])
    assert shown["sevens"] == ("expert", ["easy", "medium", "hard", "expert", "sevens_heuristic", "random"])
    assert shown["tron"] == shown["gems"] == ("rs(budget_ms=40,depth=10)", rollout)
    assert data["sevens_levels"] == ["easy", "medium", "hard", "expert"]
    assert [k for k in data if k.endswith("_levels")] == ["sevens_levels", "target_levels"]
    assert load_game("sevens").levels["hard"] == "specimen(level=hard)"
    assert load_game("kalah").tournament_agents == ("random", "alphabeta(depth=2)", "alphabeta(depth=4)",
                                                    "alphabeta(depth=8)")


# --- a game's own drawing: its package's view.js and view.css, served by the game's view name --------------------

def test_each_builtin_drawing_is_served_from_its_games_package(client):
    """The page loads /views/<Game.view>.js and .css: a built-in game's own from its package, the app's own for any
    game from serve/static/views (their styles are in style.css: an empty stylesheet), nothing for another name."""
    from importlib.resources import files

    from evoplay.games import CLASSES

    own = {cls.view: cls for cls in CLASSES.values() if cls.view not in (None, "grid")}
    assert sorted(own) == ["kalah", "mnk", "sevens"]
    for name, cls in own.items():
        package = files(cls.__module__.rpartition(".")[0])
        for suffix, media in (("js", "text/javascript"), ("css", "text/css")):
            r = client.get(f"/views/{name}.{suffix}")
            assert r.status_code == 200 and r.headers["content-type"].startswith(media)
            assert r.text == package.joinpath(f"view.{suffix}").read_text(encoding="utf-8")
        assert "export function render(" in client.get(f"/views/{name}.js").text
        assert client.get(f"/views/{name}.css").text.count("{") > 2  # rules of its own
    for name in ("board", "grid", "generic"):
        assert "export function render(" in client.get(f"/views/{name}.js").text
        r = client.get(f"/views/{name}.css")
        assert r.status_code == 200 and r.text == "" and r.headers["content-type"].startswith("text/css")
    for missing in ("/views/tally.js", "/views/tally.css", "/views/kalah.py", "/views/kalah"):
        r = client.get(missing)
        assert r.status_code == 404 and r.json()["error"].startswith("no drawing")


def test_the_catalog_gives_the_seats_the_real_time_games_and_the_default_game(client):
    """What the play form once knew by game name comes from the server: each game's seats (its default game's
    num_players), whether it runs in real time (the tick box) and the game the form starts with."""
    from evoplay.games import DEFAULT_GAME

    data = client.get("/api/catalog").json()
    games = {g["name"]: g for g in data["games"]}
    assert data["default_game"] == DEFAULT_GAME and DEFAULT_GAME in games
    assert {n: g["players"] for n, g in games.items()} == {n: load_game(n).num_players for n in games}
    assert games["sevens"]["players"] == 4 and games["kalah"]["players"] == 2
    assert sorted(n for n, g in games.items() if g["realtime"]) == ["gems", "tron"]


def test_a_game_file_brings_its_own_drawing_or_borrows_a_registered_one(client, runs_root):
    write_pile(runs_root / "own", "pile", 'export function render(root, view) { root.textContent = view.text; }\n',
               ".pile { color: teal; }\n")
    assert client.get("/views/pile.js").status_code == 404  # unknown until a game that ships it is played
    r = client.post("/api/games", json={"game": "own/pile.py:Pile", "opponent": "random"})
    assert r.status_code == 200 and r.json()["kind"] == "pile" and r.json()["stones"] == 10
    assert client.get("/views/pile.js").text == (runs_root / "own" / "view.js").read_text()
    assert client.get("/views/pile.css").text == ".pile { color: teal; }\n"
    write_pile(runs_root / "borrowed", "kalah")  # names the built-in drawing (and would give its fields)
    kalah = client.get("/views/kalah.js").text
    assert client.post("/api/games", json={"game": "borrowed/pile.py:Pile"}).status_code == 200
    assert client.get("/views/kalah.js").text == kalah


def test_a_drawing_nobody_ships_or_a_taken_name_is_refused_in_one_line(client, runs_root):
    write_pile(runs_root / "none", "tally")
    r = client.post("/api/games", json={"game": "none/pile.py:Pile"})
    assert r.status_code == 422 and r.json()["error"].startswith(
        "Pile.view is 'tally', but no game ships that drawing: put its script view.js (and view.css) beside")
    write_pile(runs_root / "taken", "kalah", "export function render() {}\n")
    r = client.post("/api/games", json={"game": "taken/pile.py:Pile"})
    assert r.status_code == 400 and r.json()["error"] == (
        "Pile.view 'kalah' is already the name of KalahGame's drawing; give the view.js beside Pile a name of its "
        "own (view = \"...\")")
    assert "export function status(" in client.get("/views/kalah.js").text  # still Kalah's, not the file's
