"""``weights(FILE)``: alpha-beta with evaluation parameters decoded from a GA genome (seed 001's player).

For the m,n,k-game the genome is seed 001's: a positional weight per symmetry class of cells and per player,
streak weights for runs of 1..k-1 stones along rows/columns and diagonals per player, two scale factors and a
3-bit search depth (211 bits on 5,5,4). The player searches to the smaller of its genome's depth and the
seed's schedule by empty cells; a genome extended by the threat fields (``evoplay.games.mnk.threats``, the
recipe's ``search.evaluation = "threats"``) plays the threat search within a node budget instead. For Kalah the
genome is a user's schema of feature weights (see ``evoplay.games.kalah.search_weights``). FILE is the JSON a run writes (``best.json``) or a run folder.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from evoplay.agents.alphabeta import numba_search, pick
from evoplay.agents.base import Agent
from evoplay.games.mnk import search as search_mnk
from evoplay.games.mnk import threat_player, threats
from evoplay.errors import SpecError
from evoplay.ga import Field, Schema

FORMAT = "evoplay-weights/1"
DEPTH_FIELD = "search_depth"
WEIGHT_BITS = 8
DEPTH_BITS = 3


# --------------------------------------------------------------------------------------------------------------
# Seed 001's genome for the m,n,k-game.
# --------------------------------------------------------------------------------------------------------------


def mnk_schema(m: int = 5, n: int = 5, k: int = 4) -> Schema:
    """Seed 001's genome for an m x n board and k in a row, in the seed's order.

    Positional weights ``sq<class>x`` then ``sq<class>o`` (classes from ``search_mnk.position_classes``),
    streak weights ``h<L>x``, ``h<L>o``, ``d<L>x``, ``d<L>o`` for L = 1..k-1, ``scale_sq``, ``scale_cons``
    (8 bits each) and ``search_depth`` (3 bits). On 5,5,4: 12 + 12 + 2 eight-bit fields + 3 bits = 211 bits.
    """
    if k < 2:
        raise SpecError(f"the seed-001 genome needs k >= 2 (streaks of 1..k-1 stones); got k={k}")
    _, classes = search_mnk.position_classes(m, n)
    fields = [Field(f"sq{c}{p}", WEIGHT_BITS, help=f"positional weight of class {c} for {p.upper()}")
              for p in "xo" for c in classes]
    for kind, where in (("h", "row or column"), ("d", "diagonal")):
        for p in "xo":
            fields += [Field(f"{kind}{length}{p}", WEIGHT_BITS, help=f"{p.upper()} run of {length} along a {where}")
                       for length in range(1, k)]
    fields += [
        Field("scale_sq", WEIGHT_BITS, help="scale factor of the positional weights"),
        Field("scale_cons", WEIGHT_BITS, help="scale factor of the streak weights"),
        Field(DEPTH_FIELD, DEPTH_BITS, help="search depth (the seed's schedule caps it; 0 plays as 1)"),
    ]
    return Schema(fields)


STREAKS = ("all", "live")


def mnk_search_params(record: dict, m: int, n: int, k: int, streaks: str = "all") -> np.ndarray:
    """Pack a decoded seed-001 genome into the ``EVAL_SEED001`` parameters of ``evoplay.games.mnk.search``.

    ``streaks="all"`` counts every run as the seed does; ``"live"`` only runs that can still grow to k.
    """
    if streaks not in STREAKS:
        raise SpecError(f"weights: streaks={streaks!r}; use one of {', '.join(STREAKS)}")
    _, classes = search_mnk.position_classes(m, n)
    runs = range(1, k)
    return search_mnk.seed001_params(
        m, n, k,
        [record[f"sq{c}x"] for c in classes], [record[f"sq{c}o"] for c in classes],
        [record[f"h{r}x"] for r in runs], [record[f"d{r}x"] for r in runs],
        [record[f"h{r}o"] for r in runs], [record[f"d{r}o"] for r in runs],
        record["scale_sq"], record["scale_cons"], live_only=streaks == "live",
    )


# --------------------------------------------------------------------------------------------------------------
# The portable JSON form.
# --------------------------------------------------------------------------------------------------------------


def weights_document(game, schema: Schema, bits, **extra) -> dict:
    """The JSON form of a genome for ``game``: its schema, bit string and decoded parameters, plus ``extra``."""
    bits = schema.check(bits)[0]
    return {
        "format": FORMAT,
        "game": game.spec,
        "schema": schema.to_list(),
        "genome": Schema.to_string(bits),
        "params": schema.decode(bits),
        **extra,
    }


def load_weights(path: str | Path) -> dict:
    """Read and check a weights JSON (or ``best.json`` inside a run folder)."""
    p = Path(path)
    if p.is_dir():
        p = p / "best.json"
    if not p.is_file():
        raise SpecError(f"weights: no file {str(p)!r}; give the best.json of a run (or the run folder)")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SpecError(f"weights: {str(p)!r} is not a weights JSON file ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SpecError(f"weights: {str(p)!r} is not an evoplay weights file (its 'format' is not {FORMAT!r})")
    real = "weights" in doc and "features" in doc  # the ga recipe's real-valued genome (CMA-ES)
    for key in ("game",) if real else ("game", "schema", "genome"):
        if key not in doc:
            raise SpecError(f"weights: {str(p)!r} lacks '{key}'")
    from evoplay.games.sources import located_document

    doc = located_document(doc, p.parent)  # a file game named relative to the weights file's folder
    if not real:
        schema = Schema.from_list(doc["schema"], f"weights file {str(p)!r}")
        doc["params"] = schema.decode(schema.from_string(doc["genome"]))
    doc["path"] = str(p)
    return doc


# --------------------------------------------------------------------------------------------------------------
# The agent.
# --------------------------------------------------------------------------------------------------------------


class WeightsAgent(Agent):
    """Alpha-beta with a genome's evaluation. ``record`` is the decoded genome ({field: value}).

    m,n,k: the depth is the genome's ``search_depth`` capped by ``schedule`` ("empty_cells": seed 001's depth by
    empty cells; "none": the genome's depth alone); a depth of 0 plays as 1, since choosing a move needs at
    least one ply; ``streaks`` picks which runs the streak weights count ("all": the seed's; "live": those that
    can still grow to k). Kalah: the genome's ``search_depth`` if it has one, else ``depth``. Ties go to the
    lowest action unless ``random_ties``.
    """

    def __init__(self, game, record: dict, schedule: str = "empty_cells", random_ties: bool = False, seed: int = 0,
                 depth: int = 4, streaks: str = "all", spec: str | None = None, nodes: int = 0):
        super().__init__(game)
        from evoplay.games.kalah.game import KalahGame
        from evoplay.games.mnk.game import MnkGame

        self.record = {k: int(v) for k, v in record.items()}
        self.schedule = schedule
        self.streaks = streaks
        self.random_ties = random_ties
        self.spec = spec or "weights"
        self._rng = np.random.default_rng(seed)
        self.nodes = 0
        self.threat = None  # the threat search of a 5,5,4 threat genome (games/mnk/threat_player.py), else None
        if isinstance(game, MnkGame) and threat_player.is_threat_genome(self.record, game.k):
            # seed 001's genome extended by open windows and forks: the threat search under a node budget
            self.threat = threat_player.ThreatPlayer(game, self.record, nodes, streaks)
            self._kalah = False
        elif isinstance(game, MnkGame):
            from evoplay.agents.alphabeta import schedule_name

            self.schedule = schedule_name(schedule, "weights")
            missing = [f for f in mnk_schema(game.m, game.n, game.k).names if f not in self.record]
            if missing:
                raise SpecError(f"weights: the genome lacks {', '.join(missing)} for {game.spec}")
            self._params = mnk_search_params(self.record, game.m, game.n, game.k, streaks)
            self._windows = np.zeros((0, game.k), dtype=np.int64)
            self._kalah = False
        elif isinstance(game, KalahGame):
            from evoplay.games.kalah import search_weights as search_kalah_weights

            self._params = search_kalah_weights.feature_weights(self.record)
            self._kalah = True
        else:
            raise SpecError(f"weights: no genome evaluation for game '{game.name}'; it plays: mnk, kalah")
        self.genome_depth = int(self.record.get(DEPTH_FIELD, depth))
        if self.genome_depth < 0:
            raise SpecError(f"weights: search_depth {self.genome_depth} is negative")
        # Kalah: nodes > 0 searches by iterative deepening within that many nodes (evoplay.games.kalah.deepening)
        # instead of the fixed depth; ties then go to the pit searched first.
        self.nodes_budget = int(nodes)
        if self.nodes_budget < 0 or (self.nodes_budget and not self._kalah and self.threat is None):
            raise SpecError(f"weights: nodes={nodes}; a node budget (> 0) is for Kalah and m,n,k threat genomes only "
                            "(0: the depth)")

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self._rng = np.random.default_rng(seed)

    def depth_for(self, state) -> int:
        depth = self.genome_depth
        if not self._kalah and self.schedule == "empty_cells":
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
        if self._kalah and self.nodes_budget:
            from evoplay.games.kalah import deepening as kalah_deepening

            best, _, nodes = kalah_deepening.search(state._board, state.current_player(), g.pits, g.empty_capture,
                                                    self._params, self.nodes_budget)
            self.nodes += nodes
            values = np.full(g.pits, -kalah_deepening.INF, dtype=np.int64)
            values[best] = 0
            return values, best
        if self._kalah:
            values, best, nodes = numba_search(g, state, self.depth_for(state), self.random_ties, self._params)
        else:
            values, best, nodes = numba_search(g, state, self.depth_for(state), self.random_ties,
                                               mnk_eval=(search_mnk.EVAL_SEED001, self._params, self._windows))
        self.nodes += nodes
        return values, best

    def step(self, state) -> int:
        values, best = self.root_values(state)
        return pick(values, best, self.random_ties, self._rng)


def from_file(game, path: str, schedule: str = "empty_cells", random_ties: bool = False, seed: int = 0,
              spec: str | None = None, depth: int = 0, ms: float = -1, nodes: int = -1,
              clock: str = "") -> WeightsAgent:
    """The agent of a weights JSON, checked to be for ``game``; it evaluates streaks as the run did. ``depth`` > 0
    searches that many plies instead of the genome's or the file's depth (seed 001's schedule still caps m,n,k)."""
    from evoplay.games import load_game

    doc = load_weights(path)
    if "features" in doc:  # a genome of feature weights (the ga recipe): any game that gives those features
        from evoplay.agents.program import agent_from_weights_document

        return agent_from_weights_document(game, doc, f"weights: {doc['path']}", spec or "weights", depth, ms,
                                           nodes, clock)
    if ms != -1 or nodes != -1 or clock:
        raise SpecError(f"weights: {doc['path']} is a seed-001 genome, which searches by its own depth or node "
                        f"budget; ms= and nodes= are for the ga recipe's feature weights")
    if depth < 0:
        raise SpecError(f"weights: depth={depth}; give the plies to search (0: the genome's own)")
    made_for = load_game(doc["game"])
    if made_for != game:
        raise SpecError(f"weights: {doc['path']} was evolved for {made_for.spec}, not {game.spec}")
    streaks = doc.get("streaks", "all")
    if streaks not in STREAKS:
        raise SpecError(f"weights: {doc['path']} has streaks={streaks!r}; known: {', '.join(STREAKS)}")
    record = dict(doc["params"])
    if depth:
        record[DEPTH_FIELD] = depth
    return WeightsAgent(game, record, schedule=schedule, random_ties=random_ties, seed=seed,
                        depth=int(doc.get("depth", 4)), streaks=streaks, spec=spec, nodes=int(doc.get("nodes", 0)))
