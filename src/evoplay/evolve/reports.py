"""What a run reports: a generation's fitness spread, scores per seat with W/D/L, W/D/L against fixed opponents."""
from __future__ import annotations

import numpy as np

SEAT_TABLE_HEAD = ("| {what} | moving first (own - opp) | moving second | W/D/L first | W/D/L second |\n"
                   "| --- | --- | --- | --- | --- |")


def fitness_stats(fitness) -> dict:
    """A generation's fitness spread for its log record: best, mean, worst, median, standard deviation."""
    f = np.asarray(fitness)
    return {"best": float(f.max()), "mean": float(f.mean()), "worst": float(f.min()), "median": float(np.median(f)),
            "std": float(f.std())}


def wdl(own, opp) -> list[int]:
    """[wins, draws, losses] of games whose final scores were ``own`` against ``opp``."""
    own, opp = np.asarray(own), np.asarray(opp)
    return [int((own > opp).sum()), int((own == opp).sum()), int((own < opp).sum())]


def seat_summary(first_own, first_opp, second_own, second_opp) -> dict:
    """Mean scores (own and the opponent's) and W/D/L of a player's games moving first and moving second."""
    return {"first": float(np.mean(first_own)), "second": float(np.mean(second_own)),
            "first_opponent": float(np.mean(first_opp)), "second_opponent": float(np.mean(second_opp)),
            "first_wdl": wdl(first_own, first_opp), "second_wdl": wdl(second_own, second_opp)}


def seat_row(name: str, s: dict) -> str:
    """A ``seat_summary`` as a row of the SEAT_TABLE_HEAD table."""
    return (f"| {name} | {s['first']:.1f} - {s['first_opponent']:.1f} | {s['second']:.1f} - {s['second_opponent']:.1f}"
            f" | {'/'.join(map(str, s['first_wdl']))} | {'/'.join(map(str, s['second_wdl']))} |")


def score(r: dict) -> float:
    """(wins + draws / 2) per game of a {"wins", "draws", "losses"} record."""
    n = r["wins"] + r["draws"] + r["losses"]
    return (r["wins"] + 0.5 * r["draws"]) / n if n else 0.0


def wdl_markdown(results: dict) -> str:
    """Results against each opponent ({"wins", "draws", "losses", "fitness"}) as a W/D/L table with the fitness."""
    lines = ["| opponent | games | wins | draws | losses | 5w+d-4l | score |", "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        n = r["wins"] + r["draws"] + r["losses"]
        lines.append(f"| {name} | {n} | {r['wins']} | {r['draws']} | {r['losses']} | {r['fitness']:+d} | "
                     f"{score(r):.2f} |")
    return "\n".join(lines) + "\n"


def progression_markdown(log: list[dict], key: str = "baselines", last: str = "initial best") -> str:
    """Per generation: the fitness spread, draw share, survivors, and the best's W/D/L (fitness) against each
    opponent of ``record[key]`` (the opponent named ``last`` in the last column)."""
    names = sorted({n for r in log for n in r.get(key, {})}, key=lambda n: (n == last, n))
    head = ["round", "best", "mean", "worst", "draws", "survivors"] + names
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in log:
        cells = [str(r["generation"]), str(r["best"]), f"{r['mean']:.1f}", str(r["worst"]),
                 f"{100 * r['draw_share']:.0f} %", str(r.get("survivors", "-"))]
        for n in names:
            b = r.get(key, {}).get(n)
            cells.append(f"{b['wins']}/{b['draws']}/{b['losses']} ({b['fitness']:+d})" if b else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------------------
# What a run cost: wall and CPU time as measured by the command that ran it.
# --------------------------------------------------------------------------------------------------------------

TIMING = "timing.json"


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (pool workers count once they are joined)."""
    import os

    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def duration(seconds: float) -> str:
    """``1 min 51 s``, ``34 s``, ``0.4 s``."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


def record_session(folder, command: str, wall: float, cpu: float, generations: tuple[int, int]) -> None:
    """Append one command's measured cost to the run folder's timing.json (a run resumed after a stop has
    several sessions)."""
    sessions = folder.read_json(TIMING) if folder.file(TIMING).is_file() else []
    sessions = sessions if isinstance(sessions, list) else []
    sessions.append({"command": command, "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
                     "generations": list(generations)})
    with folder.locked():
        folder.write_json(TIMING, sessions)


def timing_line(folder) -> str | None:
    """What the run cost, as measured: wall and CPU time of the commands that ran it (compiling, generations,
    checkpoints and the closing tables), and how much of the wall time the generations' own steps took."""
    if not folder.file(TIMING).is_file():
        return None
    sessions = folder.read_json(TIMING)
    if not isinstance(sessions, list) or not sessions:
        return None
    wall = sum(float(s.get("wall_seconds", 0)) for s in sessions)
    cpu = sum(float(s.get("cpu_seconds", 0)) for s in sessions)
    steps = sum(float(r.get("seconds", 0)) for r in folder.read_log())
    where = f"{len(sessions)} sessions" if len(sessions) > 1 else "one session"
    return (f"time: {duration(wall)} of wall time, {duration(cpu)} of CPU (evoplay and its worker processes) in "
            f"{where}; the generations' own steps took {duration(steps)} of the wall time, the rest is starting, "
            f"compiling, checkpoints and the closing tables")
