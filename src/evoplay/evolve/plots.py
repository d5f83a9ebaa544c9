"""Plots of a run's log: best, mean and worst fitness per generation, and program size."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_series(path: Path, title: str, xs, series: dict[str, list], ylabel: str, xlabel: str = "generation") -> Path:
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for label, ys in series.items():
        ax.plot(xs[: len(ys)], ys, label=label, linewidth=1.6)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    if len(series) > 1:
        ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_log(folder, title: str | None = None) -> list[Path]:
    """Write fitness.png (best/mean/worst) and, when the log has sizes, size.png into the run folder."""
    log = folder.read_log()
    if not log:
        return []
    title = title or folder.recipe
    xs = [r["generation"] for r in log]
    written = []
    fitness = {k: [r[k] for r in log] for k in ("best", "mean", "worst") if all(k in r for r in log)}
    if fitness:
        written.append(plot_series(folder.file("fitness.png"), f"{title}: fitness per generation", xs, fitness,
                                   "fitness"))
    sizes = {label: [r[k] for r in log] for k, label in (("mean_size", "mean size"), ("max_size", "max size"))
             if all(k in r for r in log)}
    if sizes:
        written.append(plot_series(folder.file("size.png"), f"{title}: program size per generation", xs, sizes,
                                   "nodes"))
    return written
