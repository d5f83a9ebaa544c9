"""Every game's seed, the same on every machine, executor and worker count: ``derive_seed`` from integer keys."""
from __future__ import annotations

import numpy as np


def derive_seed(*keys: int) -> int:
    """A 32-bit seed from integer keys (run seed, generation, pairing, game...) via numpy's SeedSequence.

    The same keys give the same seed on every machine, executor and worker count.
    """
    if not keys:
        raise ValueError("derive_seed needs at least one key")
    ss = np.random.SeedSequence(entropy=int(keys[0]) & 0xFFFFFFFFFFFFFFFF, spawn_key=tuple(int(k) for k in keys[1:]))
    return int(ss.generate_state(1, np.uint32)[0])
