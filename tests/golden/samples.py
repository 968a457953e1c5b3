"""Recorded determinizations (sample.sample_nb): observations met at real decisions of every family,
and a digest of the state sample_nb built from each with fixed seeds, recorded before sample_nb was
split into helpers (issue 36, part 7) and compared since (tests/engine/test_sample.py).

    python -m tests.golden.samples      # rewrite them, from the checkout's root (only for a deliberate change)

The observations themselves are recorded, not replayed: the positions come from baseline's games, and
a change to baseline must not read as a change to the sampler. Some are damaged on purpose (a hand, the
stock, a meld, a hand's known cards or the pile too big for the pack), so that the sampler's refusals
(ERR_SAMPLE) are recorded too, with what it had written when it stopped.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FILE = HERE / "sample-states.npz"
VARIANTS = ["classic-2p", "classic-4p", "classic-6p", "pennies-6p", "railroad-3p", "buraco-2p", "buraco-4p"]
GAME_SEEDS = (11, 12)
SEEDS = (0, 7, 12345)  # the sampler's seeds at every observation
PER_VARIANT = 14  # ordinary positions kept per variant, besides every answer and pending opening
DAMAGES = ("hand", "stock", "meld", "known", "pile")


def positions(variant: str) -> list[np.ndarray]:
    """Observations of baseline's games: every answer and pending opening met, and some others."""
    from sim.engine import layout as L
    from tests.decisions import decisions

    special, plain = [], []
    for seed in GAME_SEEDS:
        for d in decisions(variant, seed, hands=2, period=3):
            rare = d.dp == L.DP_ANSWER or d.obs[L.OB_PEND] >= 0 or d.obs[L.OB_PRE] != 0
            (special if rare else plain).append(d.obs.copy())
    step = max(1, len(plain) // PER_VARIANT)
    return special[:PER_VARIANT] + plain[::step][:PER_VARIANT]


def damaged(obs: np.ndarray, how: str) -> np.ndarray:
    """An observation no state can match, so that the sampler refuses it."""
    from sim.engine import layout as L
    from sim.engine.contract import ob_known

    o = obs.copy()
    other = (int(o[L.OB_SEAT]) + 1) % 2
    if how == "hand":
        o[L.OB_HANDS + other] += 200
    elif how == "stock":
        o[L.OB_STOCK_N] += 1
    elif how == "meld":
        s = 0 if o[L.OB_NM] > 0 else 1
        o[L.OB_MELDS + s * int(o[L.OB_MAXM]) * L.NMF + L.F_NAT] += 40
    elif how == "known":
        o[ob_known(o) + other * L.NR + L.RK_JK] += 20
    else:
        o[L.OB_PILEK + L.JOKER] += 20
    return o


def digest(S) -> str:
    """What sample_nb writes, less the search's scratch: the scalars, hands, sides, meld rows, stock and pile."""
    from sim.engine import layout as L

    h = hashlib.sha256()
    st = S.st.copy()
    st[L.S_WORK:L.S_CHK + 2 * L.NR] = 0
    for a in (st, S.hand, S.side, S.melds, S.stock, S.pile):
        h.update(np.ascontiguousarray(a, np.int64).tobytes())
    return h.hexdigest()


def sampled(variant: str, obs: np.ndarray, seed: int) -> tuple[int, str]:
    """The error code and digest of the state sample_nb builds from obs with seed."""
    from sim import get_variant
    from sim.engine import layout as L
    from sim.engine.sample import sample_nb
    from sim.engine.state import new_state
    from sim.rules import pack
    from sim.run.runner import prepare_engine

    prepare_engine()
    R = pack(get_variant(variant))
    S = new_state(R)
    sample_nb(R, obs, S, np.int64(seed))
    return int(S.st[L.S_ERR]), digest(S)


def main() -> None:
    out: dict[str, np.ndarray] = {}
    for variant in VARIANTS:
        obs = positions(variant)
        obs += [damaged(o, how) for o, how in zip(obs[:len(DAMAGES)], DAMAGES, strict=True)]
        width = max(len(o) for o in obs)
        table = np.zeros((len(obs), width), np.int64)
        for i, o in enumerate(obs):
            table[i, :len(o)] = o
        got = [sampled(variant, o, seed) for o in obs for seed in SEEDS]
        out[f"{variant}/obs"] = table
        out[f"{variant}/len"] = np.array([len(o) for o in obs])
        out[f"{variant}/err"] = np.array([e for e, _ in got]).reshape(len(obs), len(SEEDS))
        out[f"{variant}/digest"] = np.array([d for _, d in got]).reshape(len(obs), len(SEEDS))
    np.savez_compressed(FILE, **out)
    print(f"{sum(len(v) for k, v in out.items() if k.endswith('/len'))} observations written to {FILE}")


if __name__ == "__main__":
    main()
