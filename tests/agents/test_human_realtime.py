"""The real-time human player: key parsing, the tick loop with scripted keys, and a real terminal (pty)."""
import io
import os
import sys

import pytest

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.agents.human import HumanQuit
from evoplay.agents.human_realtime import KeyReader, parse_keys, play_realtime
from evoplay.errors import SpecError


def test_parse_keys_reads_arrows_wasd_and_quit():
    assert parse_keys("\x1b[A\x1b[B\x1bOC\x1b[Dw") == ["up", "down", "right", "left", "w"]
    assert parse_keys("q") == ["quit"] and parse_keys("\x1b") == ["quit"] and parse_keys("\x03") == ["quit"]
    assert parse_keys("S ") == ["s", " "]


def _scripted(script):
    """keys(timeout) returning the next scripted batch of keys (then none)."""
    batches = list(script)

    def keys(timeout):
        return parse_keys(batches.pop(0)) if batches else []

    return keys


def test_the_persons_last_key_of_a_tick_is_their_move():
    game = load_game("tron(w=8,h=6)")
    bot = make_agent("rs(iterations=20)", game)
    out = io.StringIO()
    # Tick 1: 'w' then 'd' (last wins: right); then no keys: nil keeps going right into the wall.
    state = play_realtime(game, bot, 0, seed=1, tick_ms=1, keys=_scripted(["w", "d"]), out=out, colour=False,
                          countdown=0)
    assert state.is_terminal()
    assert state.history[0][0] in (0, 3) and all(a == 4 for a, _ in state.history[2:])
    assert "game over" in out.getvalue() and "you are A" in out.getvalue()


def test_second_seat_and_gems():
    game = load_game("gems(w=5,h=5,ticks=6)")
    bot = make_agent("lookahead(iterations=5)", game)
    state = play_realtime(game, bot, 1, seed=0, tick_ms=1, keys=_scripted(["a", "\x1b[A"]), out=io.StringIO(),
                          colour=False, countdown=0)
    assert state.is_terminal() and [h[1] for h in state.history[:1]] in ([2], [0])


def test_quit_and_bad_tick():
    game = load_game("tron(w=8,h=6)")
    bot = make_agent("rs(iterations=5)", game)
    with pytest.raises(HumanQuit):
        play_realtime(game, bot, 0, 0, 1, _scripted(["q"]), out=io.StringIO(), countdown=0)
    with pytest.raises(SpecError, match="tick"):
        play_realtime(game, bot, 0, 0, 0, _scripted([]), out=io.StringIO())


def test_a_countdown_comes_before_the_first_tick_and_its_key_is_the_first_move():
    import time

    game = load_game("tron(w=8,h=6)")
    bot = make_agent("rs(iterations=5)", game)
    out = io.StringIO()
    start = time.perf_counter()
    # 's' (down) typed during the countdown is the first move; no key after that: nil keeps going down.
    state = play_realtime(game, bot, 0, seed=1, tick_ms=1, keys=_scripted(["s"]), out=out, colour=False,
                          countdown=1)
    assert time.perf_counter() - start >= 1.0  # the game did not start before the countdown ended
    text = out.getvalue()
    assert "starting in 1..." in text and text.index("starting in 1...") < text.index("game over")
    assert state.history[0][0] == 1  # DOWN
    # The same seed without a countdown and with the same first key plays the same game (the warm-up is a copy).
    again = play_realtime(game, make_agent("rs(iterations=5)", game), 0, seed=1, tick_ms=1, keys=_scripted(["s"]),
                          out=io.StringIO(), colour=False, countdown=0)
    assert again.history == state.history


def test_quit_during_the_countdown():
    game = load_game("tron(w=8,h=6)")
    with pytest.raises(HumanQuit):
        play_realtime(game, make_agent("rs(iterations=5)", game), 0, 0, 1, _scripted(["q"]), out=io.StringIO(),
                      countdown=3)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a pty")
def test_key_reader_in_a_real_terminal():
    import pty

    master, slave = pty.openpty()
    with os.fdopen(slave, "r") as stream, KeyReader(stream) as reader:
        assert reader.read(0.0) == []
        os.write(master, b"\x1b[Bq")
        assert reader.read(1.0) == ["down", "quit"]
    os.close(master)
