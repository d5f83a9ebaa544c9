"""Plots of runs: a log's fitness and size per generation, log columns, runs side by side, named values as bars."""
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


def plot_columns(path: Path, title: str, log: list[dict], columns: dict[str, str], ylabel: str) -> Path:
    """Log columns per generation on one plot: ``columns`` maps a column of the log to its label."""
    xs = [r["generation"] for r in log]
    return plot_series(path, title, xs, {label: [r[key] for r in log] for key, label in columns.items()}, ylabel)


def plot_panels(path: Path, title: str, logs: dict[str, list[dict]], keys: tuple[str, ...], ylabel: str) -> Path:
    """One panel per run (``logs``: label -> log) with the log's ``keys`` per generation in each."""
    fig, axes = plt.subplots(1, len(logs), figsize=(5.5 * len(logs), 4), dpi=110, squeeze=False)
    for ax, (label, log) in zip(axes[0], logs.items()):
        for key in keys:
            ax.plot([r["generation"] for r in log], [r[key] for r in log], label=key, linewidth=1.4)
        ax.set_title(f"{label}: {ylabel} statistics")
        ax.set_xlabel("generation")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_bars(path: Path, title: str, values: dict[str, float]) -> Path:
    """Named numbers (e.g. evolved weights) as horizontal bars, each labelled with its value."""
    names = list(values)
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=110)
    ax.barh(names, [values[n] for n in names], color="#4a7bb7")
    ax.axvline(0, color="black", linewidth=0.8)
    for i, n in enumerate(names):
        ax.text(values[n], i, f" {values[n]}", va="center")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def compare_runs(run_dirs, out_dir, labels, figures: dict[str, tuple[str, str, str]],
                 panels: tuple[str, str, tuple[str, ...], str] | None = None) -> list[Path]:
    """Several runs on shared axes: ``figures`` maps a file name to (title, log column, y label), one line per
    run; ``panels`` = (file name, title, log columns, y label) draws one panel per run."""
    from evoplay.evolve import RunFolder

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    folders = [RunFolder.open(d) for d in run_dirs]
    logs = dict(zip(labels or [f.path.name for f in folders], (f.read_log() for f in folders)))
    xs = list(range(max(len(log) for log in logs.values())))
    written = [plot_series(out / name, title, xs, {lab: [r[key] for r in log] for lab, log in logs.items()}, ylabel)
               for name, (title, key, ylabel) in figures.items()]
    if panels:
        name, title, keys, ylabel = panels
        written.append(plot_panels(out / name, title, logs, keys, ylabel))
    return written
