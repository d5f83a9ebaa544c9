"""``evoplay target``: the target-number game in the terminal, you against the genetic CPU player of seed 004.

Each round shows six numbers and a target; you type expressions while a countdown runs and the CPU searches at
the same time (its generation and best value so far on a live status line). Every expression you enter is checked
at once (a caret shows any mistake) and your closest one counts; an exact hit, or an empty line, ends your turn.
Closest wins; a tie goes to you, the player who chose the numbers. After the round you may ask for the exact
solver's answer.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from dataclasses import dataclass, field

from evoplay.games.target.cpu_player import LEVELS, TargetGA, level_config
from evoplay.seeds import derive_seed
from evoplay.errors import SpecError
from evoplay.games.target.game import OP_SYMBOL, Draw, leaves, make_draw
from evoplay.games.target.parser import ExpressionError, parse_expression
from evoplay.games.target.solver import solve

HELP = ("type an expression with the numbers, e.g. (75 - 9) * 15 + 7; each number at most once, + - * / and "
        "brackets;\n  an empty line ends your turn, 'q' quits.")


@dataclass
class Score:
    you: int = 0
    cpu: int = 0
    rounds: list = field(default_factory=list)


class CpuPlayer:
    """The GA in a background thread, its search spread over the round like a person thinking (``pace``)."""

    def __init__(self, draw: Draw, level: int, round_seconds: float, seed: int):
        self.draw = draw
        self.config = level_config(level, clock="cpu")
        self.ga = TargetGA(self.config)
        self.round_seconds = round_seconds
        self.seed = seed
        self.pace = True
        self.generation = 0
        self.best = None  # the best chromosome so far
        self.result = None
        self.started = time.perf_counter()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.started = time.perf_counter()
        self.thread.start()

    def _observe(self, generation, best, population) -> None:
        self.generation, self.best = generation, best
        if self.pace:
            # spend the CPU budget evenly over 80 % of the round
            used = time.thread_time() - self._cpu0
            due = used / self.config.time_limit * 0.8 * self.round_seconds
            ahead = due - (time.perf_counter() - self.started)
            if ahead > 0:
                time.sleep(min(ahead, 0.25))

    def _run(self) -> None:
        self._cpu0 = time.thread_time()
        self.result = self.ga.solve(self.draw.numbers, self.draw.target, self.seed, self._observe)

    def hurry(self) -> None:
        """Stop pacing: the CPU spends the rest of its budget at once."""
        self.pace = False

    def stop(self) -> None:
        self.ga.stop_requested = True

    def finish(self):
        self.hurry()
        self.thread.join()
        return self.result

    @property
    def done(self) -> bool:
        return self.result is not None

    def status(self, reveal: bool) -> str:
        if self.best is None:
            return "CPU: starting"
        if self.done:
            r = self.result
            tail = "exact!" if r.distance == 0 else f"off by {r.distance}"
            return f"CPU: done after {r.generations} generations, has {r.value} ({tail})"
        value = self.best.value
        tail = "exact!" if value == self.draw.target else f"off by {abs(value - self.draw.target)}"
        shape = _shape(self.best.tree, self.draw.numbers, reveal)
        return f"CPU: generation {self.generation}, best {shape} = {value} ({tail})"


def _shape(tree, numbers, reveal: bool) -> str:
    """The CPU's chromosome as text; unless ``reveal``, numbers are shown as '#' (its plan, not its answer)."""
    def text(t, parent_prec=0, right=False):
        if type(t) is int:
            return str(numbers[t]) if reveal else "#"
        prec = 1 if t[0] in (1, 2) else 2
        s = f"{text(t[1], prec)} {OP_SYMBOL[t[0]]} {text(t[2], prec, True)}"
        if prec < parent_prec or (right and prec == parent_prec):
            s = f"({s})"
        return s
    return text(tree)


class Terminal:
    """Output with an optional live status line kept just above the prompt (on a TTY)."""

    def __init__(self, stream, live: bool):
        self.stream = stream
        self.live = live
        self.lock = threading.Lock()

    def say(self, text: str = "") -> None:
        with self.lock:
            self.stream.write(text + "\n")
            self.stream.flush()

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.live else text

    def status_and_prompt(self, status: str) -> None:
        with self.lock:
            self.stream.write(status + "\n" + ("> " if self.live else ""))
            self.stream.flush()

    def update_status(self, status: str) -> None:
        """Rewrite the line above the cursor (the status line) without touching what is being typed."""
        if not self.live:
            return
        with self.lock:
            self.stream.write(f"\x1b7\x1b[1A\r\x1b[2K{status}\x1b8")
            self.stream.flush()


class Lines:
    """The player's input lines, read by a background thread so the countdown never waits on the keyboard."""

    def __init__(self, stream):
        self._queue: queue.Queue = queue.Queue()
        self.closed = False
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in iter(stream.readline, ""):
            self._queue.put(line.rstrip("\r\n"))
        self._queue.put(None)

    def get(self, timeout: float | None = None) -> str | None:
        """The next line; None once the input is closed; raises queue.Empty after ``timeout`` seconds."""
        if self.closed:
            return None
        line = self._queue.get(timeout=timeout)
        if line is None:
            self.closed = True
        return line


@dataclass
class Answer:
    value: int
    expression: str

    def distance(self, target: int) -> int:
        return abs(self.value - target)


def play_round(term: Terminal, lines: Lines, draw: Draw, round_no: int, rounds: int, seconds: float,
               level: int, seed: int, reveal: bool):
    """One round; returns (your answer or None, the CPU's result, quit?)."""
    nums = "  ".join(str(n) for n in draw.numbers)
    term.say("")
    term.say(term.bold(f"Round {round_no}/{rounds}") + f"   numbers: {term.bold(nums)}   target: "
             f"{term.bold(str(draw.target))}   ({seconds:g} s, CPU level {level} {LEVELS[level][2]})")
    cpu = CpuPlayer(draw, level, seconds, derive_seed(seed, round_no, 7))
    cpu.start()
    deadline = time.perf_counter() + seconds
    best: Answer | None = None
    quit_game = False

    def status() -> str:
        left = max(0.0, deadline - time.perf_counter())
        mine = "you: -" if best is None else f"you: {best.value} (off by {best.distance(draw.target)})"
        return f"[{left:4.0f} s]  {mine}   {cpu.status(reveal)}"

    term.status_and_prompt(status())
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            term.say("")
            term.say(term.bold("time's up!"))
            break
        try:
            line = lines.get(timeout=min(0.25, left))
        except queue.Empty:
            term.update_status(status())
            continue
        if line is None:  # input closed
            break
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            quit_game = True
            break
        if text in ("?", "h", "help"):
            term.say(HELP)
        elif text == "":
            if best is not None:
                break
            term.say("no answer yet: type an expression (or 'q' to quit)")
        else:
            try:
                parsed = parse_expression(text, draw.numbers)
            except ExpressionError as err:
                term.say(err.caret("  "))
                term.say(f"  {err}")
            else:
                d = abs(parsed.value - draw.target)
                mark = "exact!" if d == 0 else f"off by {d}"
                kept = best is None or d < best.distance(draw.target)
                if kept:
                    best = Answer(parsed.value, parsed.canonical)
                left_over = list(draw.numbers)
                for n in leaves(parsed.expr):
                    left_over.remove(n)
                unused = f"; unused: {' '.join(map(str, left_over))}" if left_over and d else ""
                term.say(f"  = {parsed.value} ({mark})" + ("" if kept else f"; keeping your {best.value}") + unused)
                if d == 0:
                    break
        term.status_and_prompt(status())
    if quit_game:
        cpu.stop()
        cpu.finish()
        return best, None, True
    if cpu.done is False:
        term.say("the CPU finishes its search ...")
    result = cpu.finish()
    return best, result, False


def play(rounds: int = 1, seconds: float = 60.0, level: int = 3, seed: int | None = None, mode: str = "mojbroj",
         large: int | None = None, reveal: bool = False, stdin=None, stdout=None, live: bool | None = None) -> Score:
    """Play ``rounds`` rounds in the terminal; returns the score."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if rounds < 1:
        raise SpecError(f"--rounds {rounds}: play at least 1 round")
    if not seconds > 0:
        raise SpecError(f"--time {seconds}: the countdown needs a positive number of seconds")
    level_config(level)  # validates the level
    make_draw(0, mode, large)  # validates the mode and --large before the game starts
    if live is None:
        live = stdout.isatty() and stdin.isatty() and os.environ.get("TERM") != "dumb"
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    term = Terminal(stdout, live)
    lines = Lines(stdin)
    score = Score()
    term.say(f"target-number game (seed {seed}; replay with --seed {seed}). Closest wins, ties go to you.")
    term.say(HELP)
    for r in range(1, rounds + 1):
        draw = make_draw(derive_seed(seed, r), mode, large)
        yours, cpu, quit_game = play_round(term, lines, draw, r, rounds, seconds, level, seed, reveal)
        if quit_game:
            term.say("bye!")
            break
        target = draw.target
        term.say("")
        if yours is None:
            term.say("  you: no answer")
        else:
            term.say(f"  you: {yours.expression} = {yours.value}  (off by {yours.distance(target)})")
        term.say(f"  CPU: {cpu.expression} = {cpu.value}  (off by {cpu.distance})  "
                 f"[{cpu.generations} generations, {cpu.seconds:.2f} s of search]")
        if yours is not None and yours.distance(target) <= cpu.distance:
            score.you += 1
            verdict = "you win the round" + (" (a tie goes to you)" if yours.distance(target) == cpu.distance else "")
        else:
            score.cpu += 1
            verdict = "the CPU wins the round"
        score.rounds.append((draw, yours, cpu))
        term.say(term.bold(verdict) + f"   score: you {score.you} - {score.cpu} CPU")
        last = r == rounds
        term.say(f"  s + Enter: the exact solver's answer; Enter: {'finish' if last else 'next round'}; q: quit")
        line = lines.get()
        if line is not None and line.strip().lower() in ("s", "y", "yes", "solve", "solution"):
            best = solve(draw.numbers, target)
            term.say(f"  best possible: {best}")
            if not last:
                term.say("  Enter: next round; q: quit")
                line = lines.get()
        if line is None or line.strip().lower() in ("q", "quit", "exit"):
            if not last:
                term.say("bye!")
            break
    if len(score.rounds) > 1 or rounds > 1:
        term.say(term.bold(f"final score: you {score.you} - {score.cpu} CPU"))
    return score


__all__ = ["CpuPlayer", "play", "play_round"]
