"""Sevens agents: the Specimen and heuristic agents choose what the whole-game kernel chooses, load from JSON and
from a levels.json level, explain their sends, and refuse other games."""
import json

from pathlib import Path

import numpy as np
import pytest

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.games.sevens.agents import (
    Narrator, SevensHeuristicAgent, SevensSpecimenAgent, Specimen, level_specimen, sevens_primitive_set,
    sevens_verdict,
)
from evoplay.arena import play_game
from evoplay.errors import SpecError
from evoplay.games.sevens.batch_play import Lineup
from evoplay.gp.generate import grow


def _specimens(n, seed=0, random=False):
    pset = sevens_primitive_set(("add", "mul", "sub", "max"), random=random)
    rng = np.random.default_rng(seed)
    return pset, [Specimen(grow(pset, rng, 4), grow(pset, rng, 4), pset) for _ in range(n)]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_python_agents_play_the_kernels_games(players):
    """Deterministic agents at the table (Specimens without `random`, the heuristic) finish in the same order
    as the kernel's games from the same seeds."""
    game = load_game(f"sevens(players={players})")
    _, specimens = _specimens(2, seed=players)
    lineup = Lineup([(s.play, s.send) for s in specimens] + ["heuristic"])
    for seed in range(12):
        seats = [(seed + p) % 3 for p in range(players)]
        agents = [SevensSpecimenAgent(game, specimens[k]) if k < 2 else SevensHeuristicAgent(game) for k in seats]
        state = play_game(game, agents, seed)
        places, _ = lineup.play(players, np.array([seed], np.uint64), np.array([seats]))
        assert state.places() == places[0].tolist()


def test_random_terminal_is_reproducible_from_restart_seeds():
    game = load_game("sevens(players=3)")
    pset, specimens = _specimens(3, seed=5, random=True)
    with_random = [s for s in specimens if s.play.uses(2) or s.send.uses(2)]
    specimen = with_random[0] if with_random else specimens[0]
    runs = []
    for _ in range(2):
        agents = [SevensSpecimenAgent(game, specimen), SevensHeuristicAgent(game), SevensHeuristicAgent(game)]
        runs.append(play_game(game, agents, 42).history)
    assert runs[0] == runs[1]


def test_heuristic_beats_random_clearly():
    lineup = Lineup(["heuristic", "random"])
    seeds = np.arange(3000, dtype=np.uint64)
    seats = np.ones((3000, 3), np.int64)
    seats[np.arange(3000), np.arange(3000) % 3] = 0
    places, _ = lineup.play(3, seeds, seats, True)
    assert (places[seats == 0] == 0).mean() > 0.6  # parity is 1/3


def test_specimen_json_round_trip_and_errors(tmp_path):
    _, (spec,) = _specimens(1)
    path = tmp_path / "best.json"
    path.write_text(json.dumps(spec.to_dict()))
    back = Specimen.load(path)
    assert back.play == spec.play and back.send == spec.send and back.size == spec.size
    agent = make_agent(f"specimen(path={path})", "sevens(players=3)")
    assert isinstance(agent, SevensSpecimenAgent)
    with pytest.raises(SpecError, match="does not exist"):
        Specimen.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(SpecError, match="not JSON"):
        Specimen.load(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text(json.dumps({"kind": "ga-genome"}))
    with pytest.raises(SpecError, match="sevens-specimen"):
        Specimen.load(tmp_path / "other.json")
    with pytest.raises(SpecError, match="either path"):
        make_agent("specimen", "sevens")
    with pytest.raises(SpecError, match="Sevens only"):
        make_agent("sevens_heuristic", "kalah")


def test_levels_load_from_a_runs_levels_json_and_never_from_code(tmp_path):
    import json

    _, specimens = _specimens(4, seed=3)
    levels = {name: s for name, s in zip(("easy", "medium", "hard", "expert"), specimens)}
    for g, s in zip((0, 1, 11, 111), specimens):
        s.info["generation"] = g
        s.info["win_ratio"] = 0.4
    path = tmp_path / "levels.json"
    path.write_text(json.dumps({name: s.to_dict() for name, s in levels.items()}))
    hard = level_specimen("hard", path)
    assert hard.play == specimens[2].play and hard.send == specimens[2].send
    agent = make_agent(f"specimen(level=expert,computer={tmp_path})", "sevens(players=4)")  # the run folder
    assert agent.specimen.play == specimens[3].play
    with pytest.raises(SpecError, match="unknown Sevens level"):
        level_specimen("grandmaster", path)
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(SpecError, match="not JSON"):
        level_specimen("easy", tmp_path / "broken.json")
    (tmp_path / "computer.py").write_text("open('ran', 'w')\nLEVELS = {}")
    with pytest.raises(SpecError, match="generated computer.py.*levels.json"):
        level_specimen("easy", tmp_path / "computer.py")
    assert not Path("ran").exists()


def test_the_shipped_levels_are_data_and_load():
    from evoplay.games.sevens.agents import SHIPPED_LEVELS, load_levels

    assert SHIPPED_LEVELS.suffix == ".json"
    assert list(load_levels()) == ["easy", "medium", "hard", "expert"]
    assert level_specimen("expert").info["generation"] == 111


def test_the_shipped_expert_comes_from_the_expert_config_and_its_heuristic_check():
    from evoplay.evolve.config import load_config
    from evoplay.recipes.sevens import validate

    config = load_config("sevens", "expert")  # evoplay evolve sevens --config expert --levels made the shipped levels
    assert validate(config, levels=True) == {"easy": 0, "medium": 1, "hard": 11, "expert": 111}
    assert config["fitness"]["heuristic_share"] == 0.9 and config["levels"]["top_heuristic_games"] == 10000
    info = level_specimen("expert").info
    assert info["candidates"] == config["levels"]["candidates"] == 20
    assert info["heuristic_games"] == 10000 and info["heuristic_win_ratio"] > 0.35  # parity is 1/3
    assert info["recheck_against"] == "two copies of hard"
    assert "sub" in level_specimen("expert").to_dict()["primitives"]["functions"]


def test_narrated_table_explains_sends_to_the_person():
    from evoplay.cli.games import table_seats

    game = load_game("sevens(players=3)")
    lines = []
    seats, name = table_seats(game, "sevens_heuristic", 0, lines.append)
    assert name == "sevens_heuristic" and isinstance(seats[1], Narrator)

    class FirstCard:  # stands in for the person: always the first legal card
        def restart(self, seed, seat=0):
            pass

        def step(self, state):
            return state.legal_actions()[0]

    seats[0] = FirstCard()
    for seed in range(30):
        lines.clear()
        state = play_game(game, seats, seed)
        to_me = [line for line in lines if "to you" in line]
        hidden = [line for line in lines if "only they see it" in line]
        if to_me:
            assert all(line.count("\n") == 0 and "sends" in line for line in to_me)
            break
    else:
        pytest.fail("in 30 hands no AI ever sent the person a card")
    assert hidden or to_me
    assert "finishing order" in sevens_verdict(state, 0)


def test_play_command_shows_the_persons_hand_and_stops_on_quit():
    from click.testing import CliRunner

    from evoplay.cli import main

    result = CliRunner().invoke(main, ["play", "sevens(players=3)", "--vs", "sevens_heuristic", "--seat", "2",
                                       "--seed", "4"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "you are player 2" in result.output and "your hand:" in result.output
    assert "you stopped the game" in result.output
    bad = CliRunner().invoke(main, ["play", "sevens(players=3)", "--seat", "5"])
    assert bad.exit_code == 2 and "seats 0..2" in bad.output


def test_play_command_still_plays_two_player_games():
    from click.testing import CliRunner

    from evoplay.cli import main

    result = CliRunner().invoke(main, ["play", "mnk(m=3,n=3,k=3)", "--vs", "random", "--seat", "second"],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    assert "you are player 1" in result.output


def test_the_shipped_levels_load_and_play():
    game = load_game("sevens(players=4)")
    agents = [make_agent(f"specimen(level={lv})", game) for lv in ("easy", "medium", "hard", "expert")]
    assert [a.specimen.info["generation"] for a in agents] == [0, 1, 11, 111]
    state = play_game(game, agents, 3)
    assert state.is_terminal() and sorted(state.places()) == [0, 1, 2, 3]
