"""``evoplay target`` and ``evoplay solve`` driven through the program's real input and output."""
import subprocess
import sys

from click.testing import CliRunner

from evoplay.arena import derive_seed
from evoplay.cli import main
from evoplay.games.target.game import make_draw
from evoplay.games.target.solver import solve


def _run(args, stdin, timeout=120):
    return subprocess.run([sys.executable, "-m", "evoplay.cli", "target", *args], input=stdin, text=True,
                          capture_output=True, timeout=timeout)


def test_a_whole_round_through_stdin_and_stdout():
    draw = make_draw(derive_seed(3, 1))  # round 1 of --seed 3
    best = solve(draw.numbers, draw.target)
    typo = "1 + + 2"
    proc = _run(["--seed", "3", "--time", "30", "--level", "1"], f"{typo}\n{best.expression}\ns\n")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert f"target: {draw.target}" in out and "  ".join(map(str, draw.numbers)) in out
    assert "^" in out and "syntax error at column 5" in out  # the typo, with a caret
    assert f"= {best.value} ({'exact!' if best.exact else f'off by {best.distance}'})" in out
    assert "CPU: " in out and "generations" in out
    assert "you win the round" in out  # closest wins; a tie goes to the person
    assert "best possible:" in out
    assert "score: you 1 - 0 CPU" in out


def test_rounds_keep_a_running_score_and_time_runs_out():
    # no answers: the countdown ends each round, the CPU wins it; Enter goes on to the next round
    proc = subprocess.Popen([sys.executable, "-m", "evoplay.cli", "target", "--seed", "5", "--time", "1.5",
                             "--level", "1", "--rounds", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    seen = []
    try:
        for line in proc.stdout:
            seen.append(line)
            if "Enter: next round" in line or "Enter: finish" in line:
                proc.stdin.write("\n")
                proc.stdin.flush()
            if "final score" in line:
                break
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
    out = "".join(seen)
    assert out.count("time's up!") == 2 and out.count("the CPU wins the round") == 2
    assert "final score: you 0 - 2 CPU" in out


def test_quit_stops_the_game():
    proc = _run(["--seed", "5", "--time", "30", "--level", "1", "--rounds", "3"], "q\n")
    assert proc.returncode == 0 and "bye!" in proc.stdout and "Round 2/3" not in proc.stdout


def test_solve_command():
    r = CliRunner().invoke(main, ["solve", "3", "7", "9", "1", "15", "75", "--target", "847"])
    assert r.exit_code == 0 and "= 847" in r.output and "exact" in r.output
    r = CliRunner().invoke(main, ["solve", "1", "1", "1", "1", "10", "25", "--target", "999", "--python"])
    assert r.exit_code == 0 and "= 1000" in r.output and "off by 1" in r.output
    r = CliRunner().invoke(main, ["solve", "3", "7", "--target", "0"])
    assert r.exit_code == 2 and "target 0" in r.output


def test_bad_level_is_refused():
    r = CliRunner().invoke(main, ["target", "--level", "9"])
    assert r.exit_code == 2 and "level" in r.output.lower()
