"""The play check's third candidate: the champion as Monte Carlo tree search guided by its evaluation (issue 34's
"a player that is a search of the kind the game wants"), shipped in best.json and played as it by every path."""
from __future__ import annotations

import math

from pathlib import Path

import numpy as np
import pytest

from evoplay.agents import make_agent
from evoplay.agents.uct import UctAgent
from evoplay.errors import ConfigError, SpecError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.games import load_game
from evoplay.recipes import generic, load_recipe

GAME = "mnk(m=3,n=3,k=3)"  # its kernels run uct: the default play.uct = "kernels" tries it
UCT = "uct within the play budget"


def _run(tmp_path, name, recipe="ga", **overrides):
    config = load_config(recipe, None, {"game": GAME, "generations": 1, "population": 4, "report.games": 0,
                                        "fitness.games": 1, "minutes": 0.0, "report.playoff": 0,
                                        "report.play_games": 1, "play.ms": 2.0, **overrides})
    folder = RunFolder.create(tmp_path / name, recipe, config)
    run_evolution(load_recipe(recipe).make(config), folder)
    return folder


def _uct_wins(monkeypatch):
    real = generic.evaluate_population

    def rigged(game_, agents, spec, *args, **kwargs):
        res = real(game_, agents, spec, *args, **kwargs)
        if [a.spec for a in agents][-1:] == [UCT]:
            res.fitness = np.array([0.0, 0.5, 1.0])
            for name in res.by_opponent:  # and it does best against MCTS, what the check ranks by first
                res.by_opponent[name] = np.array([[0, 0, 2], [1, 0, 1], [2, 0, 0]], dtype=np.int64)
        return res
    monkeypatch.setattr(generic, "evaluate_population", rigged)


def test_the_play_check_races_uct_on_a_game_whose_kernels_run_it(tmp_path):
    best = _run(tmp_path, "raced").read_json("best.json")
    scores = best["play_check"]["scores"]
    assert set(scores) == {"as trained", "within the play budget", UCT}
    check = best["play_check"]
    (mcts,) = check["against"]  # each candidate's games against MCTS, a game a seat a round
    assert {label: sum(check["wdl"][label][mcts]) for label in scores} == {label: 2 * check["rounds"]
                                                                           for label in scores}
    assert check["shipped"] == shipped_by(check)


def shipped_by(check: dict) -> str:
    """What the play check ships: of the searches (alpha-beta, uct) the best win rate against its yardstick, then the
    best score (which also counts the candidates' games against each other), then uct before alpha-beta; the trained
    player instead only with a lead over that search beyond 1.645 standard errors of the difference."""
    def games(label):
        w, d, l_ = (sum(x) for x in zip(*check["wdl"][label].values()))
        return (w + 0.5 * d) / max(w + d + l_, 1), w + d + l_
    labels = list(check["scores"])
    search = min(labels[1:], key=lambda k: (-games(k)[0], -check["scores"][k], -labels.index(k)))
    (r0, n0), (r1, n1) = games("as trained"), games(search)
    p = (r0 * n0 + r1 * n1) / (n0 + n1)
    return "as trained" if r0 - r1 > 1.645 * math.sqrt(p * (1 - p) * (1 / n0 + 1 / n1)) and r0 > r1 else search


@pytest.mark.parametrize("trained,search,ships", [
    ((6, 0, 2), (5, 0, 3), "within the play budget"),  # pig's check: one game more in eight is noise
    ((7, 0, 1), (5, 0, 3), "within the play budget"),
    ((8, 0, 0), (5, 0, 3), "as trained"),
    ((8, 0, 0), (2, 0, 6), "as trained"),  # 0.94 against 0.31: the case, which the check is there for
    ((20, 0, 20), (20, 0, 20), "within the play budget"),
    ((0, 0, 8), (0, 0, 8), "within the play budget"),
])
def test_the_trained_player_ships_only_with_a_lead_beyond_chance(trained, search, ships):
    labels = ["as trained", "within the play budget"]
    wdl = np.array([trained, search], dtype=float)
    played = wdl.sum(axis=1)
    rate = (wdl[:, 0] + 0.5 * wdl[:, 1]) / played
    assert generic.ship_label(labels, rate, played, np.array([1.0, 0.0])) == ships
    check = {"scores": {"as trained": 1.0, "within the play budget": 0.0},
             "wdl": {"as trained": {"mcts": list(trained)}, "within the play budget": {"mcts": list(search)}}}
    assert shipped_by(check) == ships


def test_a_tie_between_the_searches_ships_uct():
    labels = ["as trained", "within the play budget", UCT]
    played = np.array([8.0, 8.0, 8.0])
    rate = np.array([5 / 8, 5 / 8, 5 / 8])  # pig seed 1's check: 5/0/3 each
    assert generic.ship_label(labels, rate, played, np.array([0.46, 0.58, 0.58])) == UCT
    assert generic.ship_label(labels, rate, played, np.array([0.46, 0.6, 0.58])) == "within the play budget"
    assert generic.ship_label(labels, np.array([5 / 8, 6 / 8, 5 / 8]), played, np.zeros(3)) == "within the play budget"


def test_the_play_check_ranks_by_its_games_against_mcts_before_the_scores(tmp_path, monkeypatch):
    """A candidate that scores best by beating the weaker candidates, but wins fewer games against MCTS, does not
    ship: the scores count the candidates' games against each other, and MCTS is what the player must beat."""
    real = generic.evaluate_population

    def rigged(game_, agents, spec, *args, **kwargs):
        res = real(game_, agents, spec, *args, **kwargs)
        if [a.spec for a in agents][-1:] == [UCT]:
            res.fitness = np.array([0.0, 1.0, 0.5])  # alpha-beta the best score...
            for name in res.by_opponent:  # ...uct the better against MCTS
                res.by_opponent[name] = np.array([[0, 0, 2], [0, 0, 2], [1, 0, 1]], dtype=np.int64)
        return res
    monkeypatch.setattr(generic, "evaluate_population", rigged)
    check = _run(tmp_path, "ranked").read_json("best.json")["play_check"]
    assert check["scores"]["within the play budget"] > check["scores"][UCT]
    assert check["shipped"] == UCT == shipped_by(check)


def test_play_uct_never_keeps_the_check_to_alpha_beta(tmp_path):
    best = _run(tmp_path, "never", **{"play.uct": "never"}).read_json("best.json")
    assert set(best["play_check"]["scores"]) == {"as trained", "within the play budget"}


def test_a_champion_shipped_as_uct_is_uct_everywhere(tmp_path, monkeypatch):
    _uct_wins(monkeypatch)
    folder = _run(tmp_path, "uct", **{"genome.start": "zero"})
    best = folder.read_json("best.json")
    assert best["play_check"]["shipped"] == UCT
    spread, temperature = best["play"].pop("spread"), best["play"].pop("temperature")
    assert best["play"] == {"search": "uct", "ms": 2.0, "prior": True, "leaf": "rollouts",
                            "prior_visits": generic.PRIOR_VISITS} and spread > 0 and temperature > 0
    over = f" at temperature {temperature:g}" if temperature != 1.0 else ""
    assert best["plays"].startswith("Monte Carlo tree search (PUCT) within 2 ms (wall clock) a move, random "
                                    "rollouts to the end, each move's prior a softmax over its after-state's score by "
                                    f"15 evolved weights{over} (from a position's {generic.PRIOR_VISITS}th visit)")
    game = load_game(GAME)
    agent = make_agent(f"weights({folder.file('best.json')})", game)
    assert isinstance(agent, UctAgent) and agent.ms == 2.0 and agent.on_kernels
    # nodes= is a simulation budget (reproducible), depth= has no meaning for it
    agent = make_agent(f"weights({folder.file('best.json')},nodes=50)", game)
    assert agent.simulations == 50 and agent.ms == 0
    with pytest.raises(SpecError, match="plays as uct.*no depth"):
        make_agent(f"weights({folder.file('best.json')},depth=3)", game)
    report = load_recipe("ga").report(folder)
    assert f"it plays {UCT} (ms=2 a move)" in report and "Monte Carlo tree search" in report


def test_a_gp_champion_ships_as_uct_too(tmp_path, monkeypatch):
    _uct_wins(monkeypatch)
    folder = _run(tmp_path, "gp", "gp", **{"program.base": "none"})
    assert folder.read_json("best.json")["play"]["search"] == "uct"
    agent = make_agent(f"gp({folder.file('best.json')},nodes=20)", load_game(GAME))
    assert isinstance(agent, UctAgent) and agent.selection == "puct"


def test_a_bad_play_uct_is_refused():
    with pytest.raises(ConfigError, match="play.uct = 'sometimes'; give one of kernels, always, never"):
        load_recipe("ga").make(load_config("ga", None, {"game": GAME, "play.uct": "sometimes"}))


def test_the_python_export_of_a_uct_champion_is_that_search(tmp_path, monkeypatch):
    """best.py carries evoplay's uct (the tree, its evaluators, the evaluation's scale) and chooses the agent's
    moves under a simulation budget; lua and js write alpha-beta players and say so."""
    from evoplay.recipes.export_check import check_export

    _uct_wins(monkeypatch)
    folder = _run(tmp_path, "export", **{"genome.start": "zero"})
    results = check_export(folder, ("python",), positions=40, nodes=30, say=lambda text: None)
    assert [r.share for r in results] == [1.0]
    text = folder.file("best.py").read_text()
    assert "class Player:" in text and "class Evaluation:" in text and "def uct_move(" in text
    assert "import evoplay" not in text and "from evoplay" not in text.replace(
        "from evoplay.agents.feature_view import decisions", "")


@pytest.mark.parametrize("uct, players", [("kernels", ["within the play budget", UCT, "uct(simulations=2)"]),
                                          ("never", ["within the play budget", "uct(simulations=2)"])])
def test_the_start_plays_a_move_of_every_player_the_check_plays(monkeypatch, uct, players):
    """What the play check plays and no generation does (the deepening search, the uct candidate, MCTS) makes a
    move in the start, where a first compile's minutes count against the budget, not in a closing planned without
    them (a cold 3-minute connect four run at load 5 took 304 s, 150 of them in its closing)."""
    import evoplay.agents as agents
    from evoplay.agents import feature_player as program

    stepped = []

    def recording(make):
        def made(*args, **kwargs):
            agent = make(*args, **kwargs)
            step = agent.step
            agent.step = lambda state: (stepped.append(agent.spec), step(state))[1]
            return agent
        return made
    monkeypatch.setattr(program, "document_agent", recording(program.document_agent))
    monkeypatch.setattr(agents, "make_agent", recording(agents.make_agent))
    config = load_config("ga", None, {"game": GAME, "population": 4, "report.play_games": 1, "play.ms": 2.0,
                                      "play.uct": uct})
    load_recipe("ga").make(config).start(np.random.default_rng(0))
    assert stepped == players
    stepped.clear()
    load_recipe("ga").make({**config, "report": {**config["report"], "play_games": 0}}).start(
        np.random.default_rng(0))
    assert stepped == []  # no play check: nothing to compile for it
    plain = str(Path(__file__).parents[1] / "agents" / "take_away.py") + ":TakeAway"
    load_recipe("ga").make({**config, "game": plain}).start(np.random.default_rng(0))
    assert stepped == []  # a game without kernels: nothing to compile (its errors belong to a game of the run)
