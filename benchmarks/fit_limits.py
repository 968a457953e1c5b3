"""What limits a network on option values: how much of a label is rollout noise, and what a saved run's rows give
to other fits (more rows, a wider layer, other settings, several fits averaged), all on its held-out rows.

    python benchmarks/fit_limits.py noise PRESET [--games 200] [--share 0.3] [--samples 16] [--groups 4] [--seed 77]
    python benchmarks/fit_limits.py refit DIR [--shares 0.25,0.5,1] [--widths 32,64] [--alphas 1e-4] [--epochs 40]
                                              [--patience 4] [--average 0]

`noise` plays `expert` (exploring at 0.3, as round 0 does) and plays out every sampled decision's options
groups x samples times on common samples (selfplay.rolled_out): the spread of one group's label (an option's mean
less its decision's mean, thousands of points) across the groups is the noise of a label of `samples` rollouts.
A label's variance less its noise is what a perfect network could explain; `train`'s held-out loss against the
mean's says how much of it the installed one does. `refit` fits DIR's saved rounds (train --out DIR) again and
prints the held-out R^2 of each fit: a share of the fitted rows (the first games), each width, each L2 penalty,
and with --average K the mean of K fits of the default setting on other shuffles. It needs the extra `learn`.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from sim.analysis.selfplay import (
    ALPHA,
    MARGIN_SCALE,
    MAX_EPOCHS,
    PATIENCE,
    network_model,
    rolled_out,
    round_player,
    saved_run_rows,
)
from sim.rules import get_variant
from strategies.learned import NH

TRAIN_EXPLORE = 0.3  # round 0's exploring share in every installed run on option values


def noise(preset: str, games: int, share: float, samples: int, groups: int, seed: int) -> None:
    v = get_variant(preset)
    label_var = noise_var = 0.0
    options = decisions = 0
    t0 = time.process_time()
    for _, _, n, m, _, _ in rolled_out(v, round_player(np.zeros(0), TRAIN_EXPLORE), games, seed, samples * groups,
                                       share):
        q = m.reshape(groups, samples, n).mean(axis=1)  # each group's option values
        y = (q - q.mean(axis=1, keepdims=True)) / MARGIN_SCALE  # each group's labels
        noise_var += float(y.var(axis=0, ddof=1).sum())
        label_var += float((y ** 2).sum()) / groups  # a decision's labels have mean 0
        options += n
        decisions += 1
    if options == 0:
        raise SystemExit(f"{preset}: no decision was played out; give more --games or a larger --share")
    lv, nv = label_var / options, noise_var / options
    print(f"{preset}: {games} games, {decisions} decisions, {options} options, {samples * groups} rollouts each "
          f"({time.process_time() - t0:.0f} CPU s)")
    print(f"  a label of {samples} rollouts: variance {lv:.5f}, of it noise {nv:.5f} ({nv / lv:.0%}); "
          f"what the position can explain: {lv - nv:.5f}")


def refit(run: Path, shares: list[float], widths: list[int], alphas: list[float], epochs: int, patience: int,
          average: int) -> None:
    rounds = saved_run_rows(run)
    if not rounds:
        raise SystemExit(f"{run}: no saved round (round-R.npz); give the folder a `train --out` run wrote")
    X, y, held = (np.concatenate(a) for a in zip(*rounds, strict=True))
    fitted = np.flatnonzero(~held)
    sd = float(y[fitted].std())
    base = float(np.mean((y[held] - y[fitted].mean()) ** 2))
    print(f"{run}: {len(rounds)} rounds, {len(y)} rows ({int(held.sum())} held out), the mean's loss {base:.5f}")

    def one(rows: np.ndarray, width: int, alpha: float, seed: int) -> np.ndarray:
        m = network_model(seed, width, alpha, epochs, patience)
        with warnings.catch_warnings():  # early stopping or the epochs end the fit, as in selfplay.fit
            warnings.simplefilter("ignore", category=UserWarning)
            m.fit(X[rows], y[rows] / sd)
        return m.predict(X[held]) * sd

    def show(what: str, pred: np.ndarray, t0: float) -> None:
        loss = float(np.mean((pred - y[held]) ** 2))
        print(f"  {what}: held-out loss {loss:.5f}, R^2 {1 - loss / base:.3f} ({time.process_time() - t0:.0f} CPU s)",
              flush=True)

    for share in shares:
        t0 = time.process_time()
        show(f"{share:g} of the rows, {NH} units", one(fitted[:int(len(fitted) * share)], NH, ALPHA, 1), t0)
    for width in widths:
        if width != NH:
            t0 = time.process_time()
            show(f"{width} units", one(fitted, width, ALPHA, 1), t0)
    for alpha in alphas:
        if alpha != ALPHA:
            t0 = time.process_time()
            show(f"L2 penalty {alpha:g}", one(fitted, NH, alpha, 1), t0)
    if average > 1:
        t0 = time.process_time()
        show(f"the mean of {average} fits", np.mean([one(fitted, NH, ALPHA, s) for s in range(1, average + 1)], 0),
             t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    a = sub.add_parser("noise")
    a.add_argument("preset")
    a.add_argument("--games", type=int, default=200)
    a.add_argument("--share", type=float, default=0.3)
    a.add_argument("--samples", type=int, default=16)
    a.add_argument("--groups", type=int, default=4)
    a.add_argument("--seed", type=int, default=77)
    b = sub.add_parser("refit")
    b.add_argument("run", type=Path)
    b.add_argument("--shares", default="0.25,0.5,1")
    b.add_argument("--widths", default=str(NH))
    b.add_argument("--alphas", default=str(ALPHA))
    b.add_argument("--epochs", type=int, default=MAX_EPOCHS)
    b.add_argument("--patience", type=int, default=PATIENCE)
    b.add_argument("--average", type=int, default=0)
    o = ap.parse_args()
    if o.what == "noise":
        if o.groups < 2 or o.samples < 1 or not 0 < o.share <= 1:
            raise SystemExit("noise needs --groups 2 or more, --samples 1 or more and --share in (0, 1]")
        noise(o.preset, o.games, o.share, o.samples, o.groups, o.seed)
    else:
        refit(o.run, [float(s) for s in o.shares.split(",")], [int(w) for w in o.widths.split(",")],
              [float(x) for x in o.alphas.split(",")], o.epochs, o.patience, o.average)


if __name__ == "__main__":
    main()
