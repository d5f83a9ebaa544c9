"""What the play page and the terminal offer and say comes from the game's hooks (Game.default_opponent,
suggested_opponents, levels, tournament_agents, move_word; State.why_illegal, move_kind, verdict, view_fields), not
from a list of game names: a game of a user's own gets the generic answers, or fills the hooks and is served by them."""
from __future__ import annotations

import pytest

from evoplay.agents import make_agent
from evoplay.games import TERMINAL, Game, State, load_game
from evoplay.serve.play import GameSession, default_opponent, opponent_spec


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
