"""Kalah's genome evaluation (``KalahGame.players["genome"]``): a GA genome of feature weights (a schema of one's
own, ``[[genome.fields]]`` of the m,n,k GA recipe; ``search_weights``), as schemas, players and exports.

Its player searches with the weighted features at the leaves (``search.py``'s weights leaf) to the genome's
``search_depth`` when it has one, else ``depth``; or with a node budget (``nodes`` > 0) by iterative deepening
with a transposition table (``deepening.py``, the champion's search), ties then going to the pit searched first.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import SpecError
from evoplay.ga import DEPTH_FIELD
from evoplay.search.alphabeta import SearchPlayer
from evoplay.games.kalah import deepening, search_weights
from evoplay.games.kalah import search as search_kalah


def schema(game, fields, evaluation: str = "alphabeta"):
    """The genome of a Kalah run: the ``[[genome.fields]]`` tables (weights of ``search_weights.FEATURES`` and,
    optionally, the search depth)."""
    return search_weights.genome_schema(fields)


class GenomeAgent(SearchPlayer):
    """Alpha-beta with a decoded genome's feature weights (``record``: {field: value}); see the module docstring.
    Ties go to the lowest pit unless ``random_ties``."""

    def __init__(self, game, record: dict, schedule: str = "empty_cells", random_ties: bool = False, seed: int = 0,
                 depth: int = 4, streaks: str = "all", spec: str | None = None, nodes: int = 0):
        super().__init__(game, random_ties, seed, spec or "weights")
        self.record = {k: int(v) for k, v in record.items()}
        self._params = search_weights.feature_weights(self.record)
        self.genome_depth = int(self.record.get(DEPTH_FIELD, depth))
        if self.genome_depth < 0:
            raise SpecError(f"weights: search_depth {self.genome_depth} is negative")
        self.nodes_budget = int(nodes)
        if self.nodes_budget < 0:
            raise SpecError(f"weights: nodes={nodes}; use 0 (the depth) or a node budget > 0")

    def depth_for(self, state) -> int:
        return max(1, self.genome_depth)

    def root_values(self, state) -> tuple[np.ndarray, int]:
        g = self.game
        if self.nodes_budget:
            best, _, nodes = deepening.search(state._board, state.current_player(), g.pits, g.empty_capture,
                                              self._params, self.nodes_budget)
            self.nodes += nodes
            values = np.full(g.pits, -deepening.INF, dtype=np.int64)
            values[best] = 0
            return values, best
        player = state.current_player()
        return self.searched(lambda d, nodes, deadline: search_kalah.search(
            state._board, player, d, g.pits, g.empty_capture, self.random_ties, self._params, nodes, deadline),
            self.depth_for(state))


def agent(game, record: dict, **options) -> GenomeAgent:
    """The player of a decoded genome (options: schedule, random_ties, seed, depth, streaks, spec, nodes)."""
    return GenomeAgent(game, record, **options)


def export(game, doc: dict, lang: str) -> str:
    """A genome document's player as standalone Python or Lua (the template of ``export.py``)."""
    from evoplay.games.kalah.export import weights_player

    return weights_player(game, doc, lang)
