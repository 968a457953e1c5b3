"""Learning the discard scorer's weights from the lookahead player's own choices (issue 26).

`search` plays out every option of a decision over samples of the hidden cards; a fast player that discarded
as it does would be near its strength at a thousandth of its cost. The heuristic scores an ordinary discard
(not a wild, a black three or a kept seven) by a linear sum of features of the card
(strategies.heuristic.discard_features_nb), its weights the knobs d_*; at Buraco every discard, by features of its
own (strategies.buraco.buraco_discard_features_nb), weights bd_*. Here the lookahead player plays traced
games, every discard it makes among two or more ordinary cards becomes one ranked choice, and a logistic
regression on the feature differences of the chosen card against each other one (the pairwise form of a
conditional logit, scikit-learn's LogisticRegression) gives the weights. The games are held out by game: the
last fifth of them measures how often the learned weights pick the lookahead's card, beside the fast player's
own weights.

The same command gives the same weights: the games are the trace's (seeded), the fit is deterministic. scikit-learn
is the optional extra `learn` (pip install -e '.[learn]'); the weights it finds are plain knob values, played by
the numba kernel with nothing else installed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis.trace import trace_decisions
from sim.engine import layout as L
from sim.rules import Variant, get_variant, pack
from strategies import StrategyChoice, parse_strategy

HELD_OUT = 0.2  # the last fifth of the games measures the weights; the rest fits them
CHECK_SEED = 1_000_000  # the check's deals: seed + this, which no traced game used (as tune's confirmation)
C_REG = 1.0  # scikit-learn's inverse regularisation strength, on standardised feature differences
CHUNK = 10  # games a worker traces at a time


def fit_games(games: int) -> int:
    """The games whose discards fit the weights: the first four fifths (the rest measure them)."""
    return int(round(games * (1 - HELD_OUT)))


class LearnError(ValueError):
    """Nothing to learn from (no ranked discards), or the learner's library is not installed."""



@dataclass
class Learned:
    """weights: knob name (d_* or bd_*) -> learned weight; decisions: ranked discards the weights were fitted on;
    held_out: ranked discards of the held-out games; agree, agree_fast: the share of the held-out discards at
    which the learned weights and the fast player's own pick the lookahead's card (a card of its rank class);
    data: one row per ranked option (decision, game, chosen, the features); check: where asked, the fast player
    with the learned weights against itself without them, head to head on fresh deals (win rate and Elo with
    their 95% intervals): agreement with the lookahead is no measure of strength, this is."""

    variant: str
    player: str
    opponents: tuple[str, ...]
    fast: str
    games: int
    seed: int
    weights: dict[str, float]
    decisions: int
    held_out: int
    agree: float
    agree_fast: float
    data: pd.DataFrame = field(repr=False)
    check: dict[str, float] | None = None

    @property
    def command(self) -> str:
        vs = "".join(f" --against {o}" for o in self.opponents)
        check = f" --check {int(self.check['games'])}" if self.check else ""
        return (f"canasta-lab learn {self.variant} -s {self.player}{vs} --games {self.games} --seed {self.seed}"
                f"{check}")

    @property
    def setting(self) -> str:
        """The weights as knob settings (`expert:d_value=...,d_danger=...`)."""
        return ",".join(f"{k}={v:g}" for k, v in self.weights.items())

    def provenance(self) -> dict[str, object]:
        from sim.version import __version__

        return {"command": self.command, "version": __version__, "variant": self.variant, "player": self.player,
                "opponents": list(self.opponents), "fast": self.fast, "games": self.games, "seed": self.seed,
                "decisions": self.decisions, "held_out": self.held_out, "agree": self.agree,
                "agree_fast": self.agree_fast, "weights": self.weights, "check": self.check}


@dataclass(frozen=True)
class Scorer:
    """A discard scorer the learner fits: its features' names, the knobs of their weights (prefix + name, from
    slot `first`), the kernel's feature function, and which cards it scores (the others keep their tiers)."""

    prefix: str
    names: tuple[str, ...]
    first: int
    features: Callable[..., None]
    scores: Callable[..., bool]


def scorer(v: Variant) -> Scorer:
    """The Canasta games' discard scorer (strategies/heuristic.py), or Buraco's (strategies/buraco.py)."""
    from strategies import buraco as B
    from strategies import heuristic as H

    if v.game.sequences:
        return Scorer("bd_", B.BURACO_DISCARD_FEATURES, B.K_BD0, B.buraco_discard_features_nb,
                      lambda R, k, prm: True)
    return Scorer("d_", H.DISCARD_FEATURES, H.K_D0, H.discard_features_nb, H.ordinary_discard_nb)


def _ranked(v: Variant, labels: Sequence[str], fast: StrategyChoice, first: int, games: int,
            seed: int) -> pd.DataFrame:
    """The ranked discards of games first..first+games-1: one row per scored option of a discard at which the
    lookahead chose a scored card among two or more of different ranks (`decision` numbers them within the
    chunk)."""
    sc = scorer(v)
    players = [parse_strategy(s).at(v) for s in labels]
    tr = trace_decisions(v, players, games, seed, traced=(0,), points=(L.DP_DISCARD,), first=first)
    R = pack(v)
    obs = np.zeros(L.obs_len(int(R[L.R_MAXM])), np.int64)
    width = tr.obs.shape[1]
    f = np.zeros(len(sc.names), np.int64)
    prm = fast.params
    rows: list[list[int]] = []
    for i in range(len(tr)):
        opts = tr.options_of(i)
        cards = [int(k) for k in opts[:, 1] if sc.scores(R, int(k), prm)]
        chosen = int(opts[int(tr.decisions["choice"].iat[i]), 1])
        if chosen not in cards or len({L.card_rank(k) for k in cards}) < 2:
            continue
        obs[:width] = tr.obs[i]
        game = int(tr.decisions["game"].iat[i])
        for k in cards:
            sc.features(R, obs, k, f)
            rows.append([i, game, int(k == chosen), k, *f.tolist()])
    return pd.DataFrame(rows, columns=["decision", "game", "chosen", "card", *sc.names])


def _pick(data: pd.DataFrame, w: np.ndarray, features: list[str]) -> pd.Series:
    """Per decision, whether the highest score under weights w (ties to the first option, as the kernel) is a
    card of the chosen card's rank class."""
    d = data.assign(score=data[features].to_numpy(float) @ w, rank=data["card"] // L.SUITS)
    best = d.loc[d.groupby("decision", sort=False)["score"].idxmax()].set_index("decision")["rank"]
    chosen = d[d["chosen"] == 1].set_index("decision")["rank"]
    return best.eq(chosen.reindex(best.index))


def _fit(data: pd.DataFrame, features: list[str]) -> np.ndarray:
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError as e:  # the optional extra
        raise LearnError("learning needs scikit-learn: pip install -e '.[learn]'") from e
    x = data[features].to_numpy(float)
    dec = data["decision"].to_numpy()
    chosen = data["chosen"].to_numpy() == 1
    idx = pd.Series(np.arange(len(data))[chosen], index=dec[chosen])
    c = idx.reindex(dec).to_numpy()
    diff = x[c] - x  # the chosen card's features against each option's
    diff = diff[~chosen & (np.abs(diff).sum(axis=1) > 0)]
    if len(diff) == 0:
        raise LearnError("no ranked discard tells two cards apart: play more games")
    scale = diff.std(axis=0)
    scale[scale == 0] = 1.0
    xs = np.vstack([diff, -diff]) / scale
    ys = np.r_[np.ones(len(diff)), np.zeros(len(diff))]
    model = LogisticRegression(C=C_REG, fit_intercept=False, max_iter=2000).fit(xs, ys)
    return model.coef_[0] / scale


def learn_discards(variant: str | Variant, player: str = "search:rollout=expert",
                   opponents: Sequence[str] = ("expert",), games: int = 200, seed: int = 0,
                   workers: int = 1, check_games: int = 0) -> Learned:
    """Trace `games` games of `player` (seat 0 and its side) against `opponents`, fit the discard weights to its
    ranked discards of the first four fifths of the games, and measure them on the rest; with `check_games`, play
    the fast player with the weights against itself without them on fresh deals."""
    from strategies.search import rollout_player

    v = get_variant(variant) if isinstance(variant, str) else variant
    p = parse_strategy(player).at(v)
    sc = scorer(v)
    fast = parse_strategy(rollout_player(p) or p.label).at(v)
    labels = [p.label, *opponents]
    starts = list(range(0, games, CHUNK))
    args = [(v, labels, fast, s, min(CHUNK, games - s), seed) for s in starts]
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_ranked, *zip(*args, strict=True)))
    else:
        parts = [_ranked(*a) for a in args]
    offset = 0
    for part in parts:  # decisions numbered across the chunks
        part["decision"] += offset
        offset = int(part["decision"].max()) + 1 if len(part) else offset
    data = pd.concat(parts, ignore_index=True)
    features = list(sc.names)
    cut = fit_games(games)
    train, test = data[data["game"] < cut], data[data["game"] >= cut]
    if train.empty:
        raise LearnError(f"{v.name}: no ranked discard in {cut} games: play more games")
    w = _fit(train, features)
    own = fast.params[sc.first:sc.first + len(sc.names)]
    agree = float(_pick(test, w, features).mean()) if not test.empty else float("nan")
    agree_fast = float(_pick(test, own, features).mean()) if not test.empty else float("nan")
    weights = {f"{sc.prefix}{n}": float(f"{x:.4g}") for n, x in zip(features, w, strict=True)}
    check = None
    if check_games > 0:
        from sim.analysis.compare import compare

        learned = fast.spec.choice(**{**dict(fast.overrides), **weights}).at(v)
        pair = compare(v, [learned, fast], check_games, seed + CHECK_SEED, workers=workers).pairs.iloc[0]
        check = {f: float(pair[f]) for f in ("games", "win_rate", "win_low", "win_high", "elo", "elo_low",
                                             "elo_high")}
    return Learned(v.name, p.label, tuple(opponents), fast.label, games, seed, weights,
                   int(train["decision"].nunique()), int(test["decision"].nunique()), agree, agree_fast, data, check)


def save(result: Learned, folder: str | Path) -> Path:
    """Write the training data (decisions.parquet) and the weights with their provenance (weights.json) into a
    new folder."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=False)
    result.data.to_parquet(out / "decisions.parquet", index=False)
    (out / "weights.json").write_text(json.dumps(result.provenance(), indent=1) + "\n")
    return out
