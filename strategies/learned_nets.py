"""The networks `learned` plays (strategies/learned.py), one per variant family, with how each was made.

Written by `canasta-lab train PRESET --install` (sim/analysis/selfplay.py), never by hand: each entry holds the
network's weights (float64, little-endian, base64: one row of learned.W_* blocks) and its provenance (the command,
seed, data size, code version, library versions, held-out loss). The weights are part of the strategies' sources, so
the compiled-code cache can never serve a kernel built on other weights.
"""

from __future__ import annotations

import base64

import numpy as np

NETWORKS: dict[str, dict] = {
}


def _weights(entry: dict) -> np.ndarray:
    return np.frombuffer(base64.b64decode(entry["weights"]), dtype="<f8").astype(np.float64)


NET_FAMILIES: tuple[str, ...] = tuple(sorted(NETWORKS))
NETS: np.ndarray = (np.stack([_weights(NETWORKS[f]) for f in NET_FAMILIES]) if NETWORKS
                    else np.zeros((0, 1), np.float64))
