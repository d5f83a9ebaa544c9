"""Seed 001's Figure 2 for an evolved m,n,k genome: positional weights per cell for X and O, the streak weights."""
from __future__ import annotations

from pathlib import Path

import numpy as np


def draw_weights(game, params: dict, path: Path, title: str) -> Path:
    """The decoded genome ``params`` of an m,n,k game as a picture: a heat map of each player's positional
    weights, a table of the streak weights, the scales and the search depth."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evoplay.games.mnk.search import position_classes

    m, n, k = game.m, game.n, game.k
    classes, names = position_classes(m, n)
    fig, axes = plt.subplots(1, 3, figsize=(4.0 * 2 + 3.6, 4.9), dpi=110,
                             gridspec_kw={"width_ratios": [m, m, 3.6 * m / 4]})
    for ax, mark, label in ((axes[0], "x", "X (first player)"), (axes[1], "o", "O (second player)")):
        grid = np.array([params[f"sq{names[c]}{mark}"] for c in classes]).reshape(n, m)
        ax.imshow(grid, cmap="YlOrRd", vmin=0, vmax=255, origin="lower")  # row 1 at the bottom, as the game prints
        for r in range(n):
            for c in range(m):
                v = grid[r, c]
                ax.text(c, r + 0.22, names[classes[r * m + c]], ha="center", va="center", fontsize=8,
                        color="#ddd" if v > 170 else "#555")
                ax.text(c, r - 0.12, str(v), ha="center", va="center", fontsize=11, weight="bold",
                        color="white" if v > 170 else "black")
        ax.set_xticks(range(m), [chr(ord("a") + c) for c in range(m)])
        ax.set_yticks(range(n), [str(r + 1) for r in range(n)])
        ax.set_title(f"positional weights, {label}")
    ax = axes[2]
    ax.axis("off")
    rows = [["run", "h x", "h o", "d x", "d o"]]
    for length in range(1, k):
        rows.append([str(length)] + [str(params[f"{kind}{length}{p}"]) for kind in "hd" for p in "xo"])
    table = ax.table(cellText=rows, loc="upper center", cellLoc="center")
    table.scale(1, 1.5)
    depth_or_threats = (f"search_depth = {params['search_depth']}" if "search_depth" in params else
                        ", ".join(f"{f} = {params[f]}" for f in params if f.startswith(("open", "fork", "scale_open"))))
    ax.text(0.5, 0.35, f"scale_sq = {params['scale_sq']}\nscale_cons = {params['scale_cons']}\n"
            f"{depth_or_threats}\n{k} in a row: fixed win value",
            ha="center", va="top", transform=ax.transAxes, fontsize=10)
    ax.set_title("streak weights (h: row/column, d: diagonal)")
    fig.suptitle(f"{m},{n},{k}-game: {title}")
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    fig.savefig(path)
    plt.close(fig)
    return path
