"""Terminal play tells the person every move: the computer's moves (extra turns included) and their own extra turns."""
import io

from click.testing import CliRunner

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.agents.human import Announcer, HumanAgent, describe_move, moves_again
from evoplay.arena import play_game
from evoplay.cli import main


def test_describe_move_names_the_pit_and_the_extra_turn():
    state = load_game("kalah").new_initial_state()
    assert moves_again(state, 2) and not moves_again(state, 0)
    assert describe_move(state, 2, "alphabeta(depth=4)") == "alphabeta(depth=4) plays pit 3 (extra turn)"
    assert describe_move(state, 0, "random") == "random plays pit 1"
    assert describe_move(load_game("mnk").new_initial_state(), 2, "random") == "random plays c1"


def test_every_computer_move_is_announced_in_order():
    game = load_game("kalah")
    said = []
    bots = [Announcer(make_agent("alphabeta(depth=2)", game), said.append) for _ in range(2)]
    state = play_game(game, bots, seed=0)
    assert len(said) >= 10 and all(line.startswith("alphabeta(depth=2) plays pit ") for line in said)
    # Replaying the announced pits from the start reaches the same final position, extra turns marked where the
    # mover moved again.
    replay = game.new_initial_state()
    for line in said:
        pit = int(line.split("plays pit ")[1].split()[0]) - 1
        assert line.endswith("(extra turn)") == moves_again(replay, pit)
        replay.apply_action(pit)
    assert str(replay) == str(state)


def test_the_person_hears_of_their_own_extra_turn():
    game = load_game("kalah")
    out = io.StringIO()
    human = HumanAgent(game, stdin=io.StringIO("3\n"), stdout=out)
    human.restart(0, 0)
    assert human.step(game.new_initial_state()) == 2
    assert "an extra turn: you move again" in out.getvalue()


def test_play_shows_the_opponents_moves_before_the_persons_turn():
    result = CliRunner().invoke(main, ["play", "kalah", "--vs", "alphabeta(depth=4)", "--seat", "second"],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    announced = [i for i, line in enumerate(lines) if line.startswith("alphabeta(depth=4) plays pit ")]
    prompt = next(i for i, line in enumerate(lines) if line.startswith("your move"))
    assert announced and announced[0] < prompt
