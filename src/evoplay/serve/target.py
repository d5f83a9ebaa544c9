"""A round of the target-number game in the browser: the countdown, the person's checked expressions, the CPU's GA."""
from __future__ import annotations

import os
import threading
import time
import uuid

from evoplay.games.target.cpu_player import LEVELS, level_config
from evoplay.arena import derive_seed
from evoplay.errors import SpecError
from evoplay.games.target.game import leaves, make_draw
from evoplay.games.target.parser import ExpressionError, parse_expression
from evoplay.games.target.solver import solve
from evoplay.games.target.terminal import CpuPlayer

MIN_SECONDS, MAX_SECONDS = 5.0, 600.0
MAX_EXPRESSION = 200  # characters: a longer expression cannot use six numbers sensibly


def check_expression(text: str, numbers) -> dict:
    """The parser's verdict on what the person has typed so far: the value, or the error with its caret."""
    if not isinstance(text, str):
        raise SpecError("send {\"text\": EXPRESSION}")
    if len(text) > MAX_EXPRESSION:
        return {"ok": False, "error": {"kind": "syntax", "message": f"longer than {MAX_EXPRESSION} characters",
                                       "position": MAX_EXPRESSION, "width": 1, "text": str(text[:MAX_EXPRESSION]),
                                       "line": f"expression longer than {MAX_EXPRESSION} characters", "caret": ""}}
    if not text.strip():
        return {"ok": False, "empty": True}
    try:
        parsed = parse_expression(text, numbers)
    except ExpressionError as err:
        return {"ok": False, "error": {"kind": err.kind, "message": err.message, "position": err.position,
                                       "width": err.width, "text": err.text, "line": str(err),
                                       "caret": err.caret()}}
    unused = list(numbers)
    for n in leaves(parsed.expr):
        unused.remove(n)
    return {"ok": True, "value": parsed.value, "expression": parsed.canonical, "unused": unused}


class TargetSession:
    """One round: six numbers, a target, a countdown, and the CPU searching in a background thread."""

    def __init__(self, level: int = 3, seconds: float = 60.0, mode: str = "mojbroj", seed: int | None = None,
                 large: int | None = None):
        level_config(level)  # ConfigError naming the levels
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise SpecError(f"seconds={seconds:g}: a round lasts {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds")
        self.id = uuid.uuid4().hex
        self.seed = int.from_bytes(os.urandom(4), "little") if seed is None else int(seed)
        self.draw = make_draw(derive_seed(self.seed, 1), mode, large)
        self.level, self.seconds = level, float(seconds)
        self.cpu = CpuPlayer(self.draw, level, self.seconds, derive_seed(self.seed, 1, 7))
        self.best = None  # (value, expression) of the person's closest answer
        self.answers: list[dict] = []
        self.over = False
        self.cpu_result = None
        self.verdict = None
        self.best_possible = None
        self._lock = threading.Lock()
        self.created = self.last_used = time.monotonic()
        self.cpu.start()
        self.deadline = time.monotonic() + self.seconds

    realtime = False
    streaming = False

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def submit(self, text: str) -> dict:
        """Enter an expression: it counts when it is closer than your best; an exact hit ends your turn."""
        if self.over:
            raise SpecError("the round is over; start a new one")
        if self.left() <= 0:
            self.finish()
            raise SpecError("time's up: the round is over")
        checked = check_expression(text, self.draw.numbers)
        if not checked["ok"]:
            return checked
        value, target = checked["value"], self.draw.target
        distance = abs(value - target)
        kept = self.best is None or distance < abs(self.best[0] - target)
        if kept:
            self.best = (value, checked["expression"])
        self.answers.append({"expression": checked["expression"], "value": value, "distance": distance,
                             "kept": kept})
        checked.update(distance=distance, kept=kept)
        if distance == 0:
            self.finish()
        return checked

    def finish(self) -> None:
        """End the round: the CPU spends what is left of its budget at once, then the verdict (ties go to you)."""
        with self._lock:
            if self.over:
                return
            result = self.cpu.finish()
            self.cpu_result = result
            target = self.draw.target
            mine = None if self.best is None else abs(self.best[0] - target)
            if mine is not None and mine <= result.distance:
                tie = " (a tie goes to you)" if mine == result.distance else ""
                self.verdict = "you win the round" + tie
            else:
                self.verdict = "the CPU wins the round"
            self.best_possible = str(solve(self.draw.numbers, target))
            self.over = True

    def close(self) -> None:
        """Stop the CPU's search (the session expired or was closed)."""
        self.cpu.stop()

    def view(self) -> dict:
        target = self.draw.target
        cpu = self.cpu
        best = cpu.best
        live = None
        if best is not None:
            live = {"generation": cpu.generation, "value": best.value, "distance": abs(best.value - target),
                    "status": cpu.status(reveal=False)}
        v = {
            "id": self.id, "numbers": list(self.draw.numbers), "target": target, "mode": self.draw.mode,
            "level": self.level, "level_name": LEVELS[self.level][2], "seconds": self.seconds,
            "left": round(self.left(), 2), "over": self.over, "answers": self.answers[-20:],
            "you": None if self.best is None else {"value": self.best[0], "expression": self.best[1],
                                                   "distance": abs(self.best[0] - target)},
            "cpu": live,
        }
        if self.over:
            r = self.cpu_result
            v["cpu_result"] = {"expression": r.expression, "value": r.value, "distance": r.distance,
                               "generations": r.generations, "seconds": round(r.seconds, 3)}
            v["verdict"] = self.verdict
            v["best_possible"] = self.best_possible
        return v


def level_list() -> list[dict]:
    return [{"level": k, "name": v[2], "seconds": v[1]} for k, v in LEVELS.items()]
