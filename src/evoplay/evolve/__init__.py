"""Evolution runs: configs, run folders with checkpoints and logs, the generational driver, selection, plots."""
from evoplay.evolve.config import dump_toml, load_config
from evoplay.evolve.loop import Evolution, run_evolution
from evoplay.evolve.runs import RunFolder

__all__ = ["Evolution", "RunFolder", "dump_toml", "load_config", "run_evolution"]
