"""CMA-ES for real-valued genomes: pycma's ask/tell loop, seeded by evoplay, resumed by replaying its history.

``CmaSearch(n, sigma, popsize, seed)`` wraps ``cma.CMAEvolutionStrategy`` (the authors' implementation,
Hansen et al.): ``ask()`` gives the next population as rows of an array, ``tell(population, selection)`` takes
how good each row was (higher is better: fitness or ranks; CMA-ES uses only their order). Its normal samples
come from a NumPy Generator seeded from ``seed`` (pycma's ``randn`` option), never from the global random state,
so the same seed gives the same search in any process. A checkpoint keeps the list of ``selection`` arrays told
so far (:attr:`history`); :meth:`replay` rebuilds the strategy from it, ask by ask, exactly as it was.

pycma's own stopping tests (flat fitness, tolerances) are not obeyed: a run stops by its generations or its
time budget; pycma raises the step size by itself when a generation's fitness is flat.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import ConfigError


def _cma():
    try:
        import cma
    except ImportError:
        raise ConfigError("CMA-ES needs the cma package: pip install cma (evoplay's install brings it)") from None
    return cma


class CmaSearch:
    """A seeded CMA-ES over R^n (see the module docstring); ``x0`` the start (default zeros), ``sigma`` the first
    step size, ``diagonal`` a diagonal covariance (separable CMA-ES, for many dimensions)."""

    def __init__(self, n: int, sigma: float, popsize: int, seed: int, x0=None, diagonal: bool = False):
        if n < 1:
            raise ConfigError("CMA-ES needs at least one real-valued gene")
        if popsize < 4:
            raise ConfigError(f"population = {popsize}; CMA-ES needs at least 4 genomes a generation")
        if not sigma > 0:
            raise ConfigError(f"genome.sigma = {sigma}; give a step size > 0 (0.5 for weights of scaled features)")
        self.n, self.sigma0, self.popsize, self.seed = int(n), float(sigma), int(popsize), int(seed)
        self.x0 = np.zeros(self.n) if x0 is None else np.asarray(x0, dtype=np.float64).copy()
        self.diagonal = bool(diagonal)
        rng = np.random.default_rng(self.seed)
        opts = {"popsize": self.popsize, "seed": np.nan, "randn": lambda *shape: rng.standard_normal(shape),
                "verbose": -9, "verb_log": 0, "verb_disp": 0, "tolflatfitness": float("inf"),
                "CMA_diagonal": True if self.diagonal else 0}
        self.es = _cma().CMAEvolutionStrategy(self.x0, self.sigma0, opts)
        self.history: list[np.ndarray] = []
        self._asked: np.ndarray | None = None

    def ask(self) -> np.ndarray:
        """The next population, one genome a row (asked once; asking again before ``tell`` returns the same)."""
        if self._asked is None:
            self._asked = np.array(self.es.ask(), dtype=np.float64)
        return self._asked.copy()

    def tell(self, population: np.ndarray, selection) -> None:
        """How good each genome of the population just asked was (higher is better)."""
        if self._asked is None or not np.array_equal(np.asarray(population), self._asked):
            raise ValueError("tell() takes the population ask() gave, unchanged")
        selection = np.asarray(selection, dtype=np.float64)
        self.es.tell(list(self._asked), list(-selection))
        self.history.append(selection.copy())
        self._asked = None

    @property
    def mean(self) -> np.ndarray:
        return np.asarray(self.es.mean, dtype=np.float64)

    @property
    def step_size(self) -> float:
        return float(self.es.sigma)

    @classmethod
    def replay(cls, n: int, sigma: float, popsize: int, seed: int, history, x0=None,
               diagonal: bool = False) -> "CmaSearch":
        """The search after telling ``history`` (a list of selection arrays) to a new one, ask by ask."""
        search = cls(n, sigma, popsize, seed, x0, diagonal)
        for selection in history:
            search.tell(search.ask(), selection)
        return search
