"""The m,n,k-game's genome evaluation (``MnkGame.players["genome"]``): seed 001's genome, and the 5,5,4 champion's
genome that extends it, as schemas, players and exports.

Seed 001's genome (``search.mnk_schema``): a positional weight per symmetry class of cells and per player, streak
weights for runs of 1..k-1 stones along rows/columns and diagonals per player, two scale factors and a 3-bit
search depth (211 bits on 5,5,4). Its player searches to the smaller of the genome's depth and seed 001's schedule
by empty cells (``schedule=empty_cells``; ``none``: the genome's depth alone). A genome extended by the threat
fields (``threat_player``, the recipe's ``search.evaluation = "threats"``) plays the threat search within a node
budget instead.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import ConfigError, SpecError
from evoplay.ga import DEPTH_FIELD
from evoplay.search.alphabeta import SearchPlayer
from evoplay.games.mnk import search as search_mnk
from evoplay.games.mnk import threat_player, threats


def schema(game, fields, evaluation: str = "alphabeta"):
    """The genome a GA evolves for ``game``: seed 001's for its board, or with ``evaluation == "threats"`` the
    threat player's (``fields``, a genome of one's own, is for games that take one: Kalah)."""
    if fields:
        raise ConfigError("genome.fields is for Kalah; an m,n,k run uses seed 001's genome for its board (leave it "
                          "empty)")
    if evaluation == "threats":
        return threat_player.threat_schema(game.m, game.n, game.k)  # the seed's genome plus windows and forks
    return search_mnk.mnk_schema(game.m, game.n, game.k)


class GenomeAgent(SearchPlayer):
    """Alpha-beta with a decoded genome's evaluation (``record``: {field: value}), or the threat search for a threat
    genome: the depth is the genome's ``search_depth`` capped by ``schedule`` ("empty_cells": seed 001's depth by
    empty cells; "none": the genome's depth alone), a depth of 0 playing as 1; ``streaks`` picks which runs the
    streak weights count ("all": the seed's; "live": those that can still grow to k); ``nodes`` is a threat
    genome's node budget. Ties go to the lowest cell unless ``random_ties``."""

    def __init__(self, game, record: dict, schedule: str = "empty_cells", random_ties: bool = False, seed: int = 0,
                 depth: int = 4, streaks: str = "all", spec: str | None = None, nodes: int = 0):
        super().__init__(game, random_ties, seed, spec or "weights")
        self.record = {k: int(v) for k, v in record.items()}
        self.streaks = streaks
        self.nodes_budget = int(nodes)
        if self.nodes_budget < 0:
            raise SpecError(f"weights: nodes={nodes}; use 0 (the genome's own) or a node budget > 0")
        self.threat = None  # the threat search of a threat genome (threat_player.py), else None
        self.schedule = search_mnk.schedule_name(schedule, "weights")
        if threat_player.is_threat_genome(self.record, game.k):
            # seed 001's genome extended by open windows and forks: the threat search under a node budget
            self.threat = threat_player.ThreatPlayer(game, self.record, nodes, streaks)
        else:
            missing = [f for f in search_mnk.mnk_schema(game.m, game.n, game.k).names if f not in self.record]
            if missing:
                raise SpecError(f"weights: the genome lacks {', '.join(missing)} for {game.spec}")
            if self.nodes_budget:
                raise SpecError(f"weights: nodes={nodes}; a node budget is for a threat genome on m,n,k (the "
                                f"recipe's search.evaluation = \"threats\"); seed 001's genome searches to its depth")
            self._params = search_mnk.mnk_search_params(self.record, game.m, game.n, game.k, streaks)
            self._windows = np.zeros((0, game.k), dtype=np.int64)
        self.genome_depth = int(self.record.get(DEPTH_FIELD, depth))
        if self.genome_depth < 0:
            raise SpecError(f"weights: search_depth {self.genome_depth} is negative")

    def depth_for(self, state) -> int:
        depth = self.genome_depth
        if self.schedule == "empty_cells":
            depth = min(depth, search_mnk.schedule_depth(state.empties()))
        return max(1, depth)

    def root_values(self, state) -> tuple[np.ndarray, int]:
        g = self.game
        if self.threat is not None:
            best, _, nodes, _ = self.threat.choose(state._board, state.current_player())
            self.nodes += nodes
            values = np.full(g.m * g.n, -threats.INF, dtype=np.int64)
            values[best] = 0
            return values, best
        player = state.current_player()
        return self.searched(lambda d, nodes, deadline: search_mnk.search(
            state._board, player, d, g.m, g.n, g.k, search_mnk.EVAL_SEED001, self._params, self._windows,
            self.random_ties, nodes, deadline), self.depth_for(state))


def agent(game, record: dict, **options) -> GenomeAgent:
    """The player of a decoded genome (options: schedule, random_ties, seed, depth, streaks, spec, nodes)."""
    return GenomeAgent(game, record, **options)


def export(game, doc: dict, lang: str) -> str:
    """A genome document's player as standalone Python or Lua (the template of ``export.py``)."""
    from evoplay.games.mnk.export import weights_player

    if "scale_open" in doc["params"]:
        raise SpecError("export: the threat player (search.evaluation = \"threats\") has no standalone form; play "
                        "it with weights(best.json)")
    return weights_player(game, doc, lang)


def draw(game, params: dict, path, title: str) -> None:
    """A picture of a genome's weights on the board (the recipe report's best.png)."""
    from evoplay.games.mnk.figures import draw_weights

    draw_weights(game, params, path, title)
