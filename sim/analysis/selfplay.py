"""Training `learned` (issue 37): positions and their outcomes from fast self-play, a network fitted to them, rounds.

Round 0: every seat plays `learned:net=teacher,explore=E` (expert's choice; a uniformly random option at a share E of
the decisions, so that other options are seen too). Each decision of a game becomes one row: the features of the
option chosen (strategies/learned.py) and the outcome, the hand's margin for the deciding seat's side (its hand score
less the best other side's, in thousands of points). A network (scikit-learn's MLPRegressor on standardised inputs,
learned.NH ReLU units, squared error) is fitted to the rows of the first four fifths of the games; the rows of the
last fifth give the held-out loss, beside the loss of predicting their mean (what the network explains). Round r > 0:
every seat plays `learned:explore=E` with round r - 1's network, and the network is fitted again to the rows of every
round so far. So each round's player is scored by what its choices led to, and the next plays by those scores.

With `label` (samples, > 0) the targets are option values instead (expert iteration): at a share `label_share` of
the decisions with a choice, every legal option is played out `label` times to the hand's end by expert, on the same
samples of the hidden cards for every option (sim/analysis/analyse.py's rollouts, what `canasta-lab analyse` and
`search` do), and each option becomes one row whose target is its mean margin less the mean of the decision's
options. A hand's margin spreads hundreds of points from chance alone; the difference between two options on the
same samples spreads far less, and the player only ever compares options of one decision. The fit is then to
targets divided by their standard deviation (its output layer scaled back), so that the early stopping sees them.
With `label_with="learned"` the options are played out by the installed `learned` at the preset instead of expert
(expert iteration's next step: the apprentice, once better than its teacher, labels the next round; several times
the CPU a label).

A round's games may be shared among worker processes (`workers`): each plays whole chunks from the round's first game,
so the rows do not depend on how many there are (round_rows).

A round is saved as it ends (DIR/round-R.npz: its rows; DIR/round-R.json: the network and its figures); a run given
the same DIR and arguments starts after the last saved round. The same command gives the same networks: the games
are seeded, the fit's shuffles too. scikit-learn is the optional extra `learn`; playing the network needs numba only.
"""

from __future__ import annotations

import json
import platform
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from sim.engine import layout as L
from sim.rules import Variant, get_variant, pack
from sim.run.runner import (
    HANDS_PER_GAME,
    TASKS_PER_WORKER,
    EngineError,
    Pool,
    chunks,
    describe_error,
    make_job,
    pool_results,
    progress_callback,
    resolve_workers,
)
from strategies.learned import ALL_POINTS, NH, POINT_NAMES, SINGLE_EXPERT, SINGLE_NET, single_name

HELD_OUT = 0.2  # the last fifth of each round's games measures the fit
CHUNK = 20  # games played and turned into rows at a time (their traces are dropped at once)
TRACE_ROWS = 600  # trace rows room a game starts with (more: the chunk is played again with room)
MARGIN_SCALE = 1000.0  # targets in thousands of points
LABELLERS = ("expert", "learned")  # the players that may play the options of a labelled decision out
DEFAULT_LABELLER = "expert"
VALUE_MARGIN = "margin"  # an option's value: its rollouts' mean hand margin, in thousands of points
VALUE_RESULT = "result"  # its rollouts' share won less their share lost: at a one-deal preset, the game's result
LABEL_VALUES = (VALUE_MARGIN, VALUE_RESULT)
VALUE_UNITS = {VALUE_MARGIN: "in thousands of points", VALUE_RESULT: "in results (won 1, lost -1)"}
SAMPLE_SHIFT = 20  # a labelled decision's rollouts: its seed, then the sample's number below it
DEFAULT_EXPLORE = 0.1
ALPHA = 1e-4  # MLPRegressor's L2 penalty
MAX_EPOCHS = 40
BATCH = 512
PATIENCE = 4  # epochs without progress on the fit's own held-out tenth before it stops
MARGINS = (0.1, 0.2, 0.3, 0.5)  # the margins (thousands of points) a network is played at before it is installed
MARGIN_GAMES = 2000  # games against expert at each margin
MARGIN_SEED = 1000  # margins are tried on the deals of seed MARGIN_SEED + the run's seed: never the strength record's
LABEL_MARGINS = (0.02, 0.05, 0.1, 0.2)  # the margins tried for a network of option values (they spread less)
LABEL_SHARE = 0.3  # the share of the decisions with a choice whose options are played out (`label`)
MAX_LABEL_SAMPLES = 1000
MAX_CAPPED_EXCESS = 0.05  # the share of its own hands ended by the turn cap it may have beyond expert's
# learned's `points` knob, bit by bit (1 draw, 2 meld, 4 ask, 8 answer, 16 discard)
POINT_BITS = tuple((1 << i, name) for i, name in enumerate(POINT_NAMES))


class TrainError(ValueError):
    """Bad arguments for a training run, or the learner's library missing: one line saying what is accepted."""


@dataclass
class Round:
    """One round: its player's games and rows, the CPU seconds it took (games and fit), the fit's figures and the
    network (learned.W_* layout)."""

    round: int
    games: int
    rows: int
    rows_total: int
    cpu_seconds: float
    held_out_loss: float
    held_out_base: float  # the held-out rows' loss when predicting the fitted rows' mean
    weights: list[float]
    labelled: int = 0  # decisions whose options were played out (a round of option values; 0: hand margins)
    also: list[str] = field(default_factory=list)  # the other runs whose rows the fit had too (`train(also=...)`)

    def net(self) -> np.ndarray:
        return np.asarray(self.weights, np.float64)


def round_spec(W: np.ndarray) -> object:
    """`learned` over network W, a kernel compiled in this process (the installed networks are the package's,
    strategies/learned_nets.py); its games are played in this process."""
    from strategies import REGISTRY, StrategySpec
    from strategies.learned import round_kernel

    return StrategySpec("learned-round", round_kernel(W), "a training round's player", REGISTRY["learned"].knobs)


def round_player(W: np.ndarray, explore: float) -> object:
    """The player of a round: `learned` with network W (empty: expert's choice, round 0) and `explore`."""
    from strategies import REGISTRY

    if W.size == 0:
        return REGISTRY["learned"].choice(net="teacher", explore=explore)
    return round_spec(W).choice(explore=explore)


@dataclass
class MarginTrial:
    """The network at one margin (and set of decision points where it may depart from expert) against expert, on
    duplicate deals."""

    margin: float
    games: int
    win_rate: float
    elo: float
    elo_low: float
    elo_high: float
    points: int = ALL_POINTS  # learned's `points` knob: the decision points where the network may depart
    single: int = SINGLE_NET  # learned's `single` knob (Buraco): tried only where the network's own hands stalled

    def label(self) -> str:
        return setting_label(self.margin, self.points, self.single)

    def knobs(self, variant: str) -> dict[str, object]:
        return trial_knobs(variant, self.margin, self.points, self.single)


def trial_knobs(variant: str, margin: float, points: int, single: int) -> dict[str, object]:
    """learned's knobs of a trial at the preset: `single` wherever it acts (the preset's installed network may have
    another default), and nowhere else (it is refused where it never acts)."""
    return {"margin": margin, "points": points} | ({"single": single_name(single)} if single_acts(variant) else {})


def setting_label(margin: float, points: int, single: int = SINGLE_NET) -> str:
    """`0.2`, or where the network departs at some decision points only, `0.2 at draw, meld` (the points' names),
    and `, single=expert` where a one-card pile is taken only as expert takes it."""
    text = f"{margin:g}" if points == ALL_POINTS else f"{margin:g} at {', '.join(points_names(points))}"
    return text + (f", single={single_name(single)}" if single != SINGLE_NET else "")


def points_names(points: int) -> list[str]:
    """The decision points a `points` value names, in play order."""
    return [name for bit, name in POINT_BITS if points & bit]


def try_margins(variant: str, W: np.ndarray, seed: int, margins: tuple[float, ...] = MARGINS,
                games: int = MARGIN_GAMES, progress: bool = False) -> list[MarginTrial]:
    """Network W at each margin against expert on the deals of seed MARGIN_SEED + `seed`: the margin installed
    with it is the best of these. How far a network's estimates can be trusted over expert's choice differs by
    preset (Pennies' hand margins spread three times as wide as Classic's, Buraco's a third), so it is measured,
    never assumed, and on other deals than the strength record's."""
    spec = round_spec(W)
    return [trial(variant, spec, m, ALL_POINTS, games, seed, progress) for m in margins]


def trial(variant: str, spec: object, margin: float, points: int, games: int, seed: int,
          progress: bool, single: int = SINGLE_NET) -> MarginTrial:
    from sim.analysis.compare import compare

    c = compare(variant, [spec.choice(**trial_knobs(variant, margin, points, single)), "expert"], games,
                MARGIN_SEED + seed, progress=progress or None)
    pair = c.pairs.iloc[0]
    return MarginTrial(margin, int(pair["games"]), float(pair["win_rate"]), float(pair["elo"]),
                       float(pair["elo_low"]), float(pair["elo_high"]), points, single)


def single_acts(variant: str) -> bool:
    """Whether learned's `single` acts at the preset (Buraco's pile, taken whole whatever it holds)."""
    from strategies import REGISTRY

    return REGISTRY["learned"].knob("single").acts_at(get_variant(variant))


# learned's `single` settings tried in turn on a network whose own hands stall (Buraco): up to turn N of a hand it takes
# a pile of one card as it likes, then as expert; the first whose games against itself end, and last at most
# MAX_LONGER more turns a hand than expert's against itself, is installed
SINGLES = (60, 30, 15, 5, SINGLE_EXPERT)
MAX_LONGER = 0.25


def try_single(variant: str, W: np.ndarray, seed: int, base: MarginTrial, single: int, games: int = MARGIN_GAMES,
               progress: bool = False) -> MarginTrial:
    """The best trial's setting again with `single` (SINGLES, in turn), on the same deals: at buraco-2p a network that
    took every pile of one card (in effect passing its turn, the card thrown back) beat expert by +168 and, against
    itself, passed until the turn cap; allowed to up to turn 15 of a hand it still beat expert by +156, and its games
    ended."""
    return trial(variant, round_spec(W), base.margin, base.points, games, seed, progress, single)


def network_hands(variant: str, W: np.ndarray, t: MarginTrial, seed: int) -> tuple[float, float]:
    """Network W at trial t's setting against itself on MIRROR_GAMES games of the trial deals (tune's mirror check):
    the share of its hands the turn cap ended, and its turns a hand. A network can beat expert and reference and
    still never end a hand against itself (at buraco-2p, one that took the one-card pile at every draw), or end
    them only after twice expert's turns (one fitted to results there): its games then say little of the rules'
    play, and it cannot check an answer."""
    from sim.analysis.tune import mirror_hands

    return mirror_hands(get_variant(variant), round_spec(W).choice(**t.knobs(variant)), MARGIN_SEED + seed)


def expert_hands(variant: str, seed: int) -> tuple[float, float]:
    """network_hands of expert, the yardstick of a network's own hands."""
    from sim.analysis.tune import mirror_hands

    return mirror_hands(get_variant(variant), round_player(np.zeros(0), 0.0), MARGIN_SEED + seed)


def try_points(variant: str, W: np.ndarray, seed: int, base: MarginTrial, games: int = MARGIN_GAMES,
               progress: bool = False) -> list[MarginTrial]:
    """At the best margin, the decision points where the network may depart from expert, chosen greedily: each point
    in turn is closed (the network plays expert's choice there) and stays closed where that gained Elo, on the same
    deals as the margins. A network can be better than expert at one point and worse at another (at boat-4p it gains
    at the melds and loses at the discards), and one margin cannot say so."""
    spec = round_spec(W)
    best = base
    trials = []
    for bit, _ in POINT_BITS:
        points = best.points & ~bit
        if points == 0 or points == best.points:
            continue
        t = trial(variant, spec, base.margin, points, games, seed, progress)
        trials.append(t)
        if t.elo > best.elo:
            best = t
    return trials


def ends_its_hands(own: float, own_turns: float, teacher: float, turns: float) -> bool:
    """Whether a network's own hands end as expert's do at Buraco, where a take of a one-card pile passes the turn:
    at most MAX_CAPPED_EXCESS more of them ended by the turn cap, and at most MAX_LONGER more turns a hand."""
    return own <= teacher + MAX_CAPPED_EXCESS and own_turns <= turns * (1 + MAX_LONGER)


def best_trial(trials: list[MarginTrial]) -> MarginTrial:
    """The trial of the highest Elo against expert (on a tie: the smaller margin, then more decision points); where
    `single` was tried (the others' own hands stalled), the last setting of it tried: SINGLES are tried in turn until
    one's own games end."""
    singles = [t for t in trials if t.single != SINGLE_NET]
    return singles[-1] if singles else max(trials, key=lambda t: (t.elo, -t.margin, t.points))


def best_margin(trials: list[MarginTrial]) -> float:
    return best_trial(trials).margin


def installable(trials: list[MarginTrial]) -> bool:
    """A network is installed only where its best margin beat expert beyond chance (the lower end of its 95%
    interval above 0): one that merely draws would change every answer's check player for nothing shown."""
    return best_trial(trials).elo_low > 0


def margins(out_h: np.ndarray, nsides: int) -> dict[tuple[int, int], np.ndarray]:
    """(game, hand) -> each side's hand margin: its hand score less the best other side's."""
    tot = out_h[:, L.H_COMP + np.arange(nsides) * L.NC + L.C_TOTAL].astype(np.float64)
    res = {}
    for row, t in zip(out_h, tot, strict=True):
        m = np.empty(nsides)
        for s in range(nsides):
            m[s] = t[s] - np.delete(t, s).max()
        res[(int(row[L.H_GAME]), int(row[L.H_HAND]))] = m
    return res


# one chunk of traced games: decisions (T_*), option rows, hands' rows, the first game, the players' knob vector
Chunk = tuple[np.ndarray, np.ndarray, np.ndarray, np.int64, np.ndarray]


def traced_chunks(v: Variant, player: object, games: int, seed: int, first: int = 0,
                  progress: Callable[[int], None] | None = None) -> Iterator[Chunk]:
    """Games first .. first + games - 1 with `player` on every seat, CHUNK at a time: each chunk's traced decisions
    (rows of layout T_*), their option rows, its hands' rows, the first game and the players' knob vector."""
    from sim.engine.game import play_batch_nb
    from sim.engine.state import new_state

    job = make_job(v, [player], seed)
    R = pack(v)
    seat_fns, prm = job.seat_tables()
    fns = job.engine_fns()
    done = first
    cap = TRACE_ROWS * CHUNK
    hcap = HANDS_PER_GAME * CHUNK
    while done < first + games:
        n = min(CHUNK, first + games - done)
        while True:  # the same games again, with more room, until the trace and the hands fit
            S = new_state(R, 0, cap)
            S.st[L.S_TRACE_BASE] = 1  # the one strategy, on every seat
            S.st[L.S_TRACE_DPM] = (1 << 8) - 1
            out_g = np.zeros((n, L.GF), np.int64)
            out_h = np.zeros((hcap, L.HF), np.int64)
            nh = play_batch_nb(R, S, fns, seat_fns, prm, job.seed, done, n, out_g, out_h, 0)
            if S.st[L.S_ERR] != 0:
                raise EngineError(describe_error(job, S.st))
            k, ko = int(S.st[L.S_TRACE_N]), int(S.st[L.S_TRACE_ON])
            if k <= S.tr.shape[0] and ko <= S.tro.shape[0] and nh >= 0:
                break
            cap = max(cap, k, -(-ko // 8) + 1)
            hcap = max(hcap, -nh)
        yield S.tr[:k], S.tro[:ko], out_h[:nh], np.int64(done), prm
        done += n
        if progress is not None:
            progress(n)


def play_rows(v: Variant, player: object, games: int, seed: int, first: int = 0,
              progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games first .. first + games - 1 with `player` on every seat: per decision asked, the chosen option's features
    (X), the hand's margin for the deciding side (y) and the game (g)."""
    from strategies.learned import NF, chosen_features_nb

    R = pack(v)
    nsides = v.n_sides
    Xs, ys, gs = [], [], []
    for tr, tro, out_h, _, prm in traced_chunks(v, player, games, seed, first, progress):
        k = tr.shape[0]
        X = np.zeros((k, NF))
        chosen_features_nb(R, np.ascontiguousarray(tr[:, L.T_OBS:]), tro, tr[:, L.T_OPT0].copy(),
                           tr[:, L.T_N].copy(), tr[:, L.T_CHOICE].copy(), prm[0], X)
        m = margins(out_h, nsides)
        hands = tr[:, L.T_OBS + L.OB_HANDNO]
        sides = tr[:, L.T_OBS + L.OB_SIDE]
        y = np.array([m[(int(g), int(h))][int(s)] for g, h, s in zip(tr[:, L.T_GAME], hands, sides, strict=True)])
        Xs.append(X)
        ys.append(y / MARGIN_SCALE)
        gs.append(tr[:, L.T_GAME].copy())
    return np.concatenate(Xs), np.concatenate(ys), np.concatenate(gs)


# one labelled decision: its observation, its options, how many, each sample's margin for each option (samples x n),
# its game and the players' knob vector
Labelled = tuple[np.ndarray, np.ndarray, int, np.ndarray, int, np.ndarray]


def rolled_out(v: Variant, player: object, games: int, seed: int, samples: int, share: float = LABEL_SHARE,
               first: int = 0, progress: Callable[[int], None] | None = None,
               label_with: str = DEFAULT_LABELLER) -> Iterator[Labelled]:
    """Games first .. first + games - 1 with `player` on every seat; at a share `share` of the decisions with a
    choice (drawn from the seed and the chunk's first game), every option played out `samples` times to the hand's
    end by `label_with` (expert, or the installed learned), on the same samples of the hidden cards for every option.
    A decision whose hidden cards no sample matches is left out. benchmarks/fit_limits.py reads the samples
    themselves (how much of a label is noise)."""
    from sim.analysis.analyse import rollouts_nb
    from strategies import parse_strategy
    from strategies.search import rollout_fn

    R = pack(v)
    knobs = parse_strategy(label_with).at(v).params.copy()
    fn = np.int64(rollout_fn(label_with))
    olen = L.obs_len(int(R[L.R_MAXM]))
    for tr, tro, _, start, prm in traced_chunks(v, player, games, seed, first, progress):
        rng = np.random.default_rng([seed, int(start)])
        picked = (tr[:, L.T_N] >= 2) & (rng.random(tr.shape[0]) < share)
        seeds = rng.integers(0, 1 << 40, tr.shape[0])
        for j in np.flatnonzero(picked):
            n = int(tr[j, L.T_N])
            obs = np.zeros(olen, np.int64)  # a trace keeps no scratch space: it stays 0, as in analyse
            obs[:tr.shape[1] - L.T_OBS] = tr[j, L.T_OBS:]
            opts = np.ascontiguousarray(tro[tr[j, L.T_OPT0]:tr[j, L.T_OPT0] + n, :L.OPT_FIELDS])
            m = np.zeros((samples, n), np.int64)
            done = int(rollouts_nb(R, obs, opts, np.int64(n), knobs, fn, np.int64(samples),
                                   np.int64(seeds[j] << SAMPLE_SHIFT), m))
            if done < 0:
                raise EngineError(f"{v.name}: a rollout failed at game {int(tr[j, L.T_GAME])} (an engine bug)")
            if done == samples:
                yield obs, opts, n, m, int(tr[j, L.T_GAME]), prm


def option_values(m: np.ndarray, value: str = VALUE_MARGIN) -> np.ndarray:
    """Each option's value from its rollouts' margins (samples x options), less the decision's options' mean: the
    mean margin in thousands of points, or (`result`) the share of rollouts won less the share lost. A player of
    mean margins can lose most hands by a little and win a few by a lot: at buraco-2p (one deal a game) the network
    on margins was level with `search` on points and lost 65% of the games to it."""
    q = np.sign(m).mean(axis=0) if value == VALUE_RESULT else m.mean(axis=0) / MARGIN_SCALE
    return q - q.mean()


def label_rows(v: Variant, player: object, games: int, seed: int, samples: int, share: float = LABEL_SHARE,
               first: int = 0, progress: Callable[[int], None] | None = None, label_with: str = DEFAULT_LABELLER,
               value: str = VALUE_MARGIN) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The decisions `rolled_out` plays out, one row per option: its features (X), its value (option_values, y),
    and the game (g). Also the decisions labelled."""
    from strategies.learned import NF, options_features_nb, teacher_choice_nb

    R = pack(v)
    Xs, ys, gs = [np.zeros((0, NF))], [np.zeros(0)], [np.zeros(0, np.int64)]
    labelled = 0
    for obs, opts, n, m, game, prm in rolled_out(v, player, games, seed, samples, share, first, progress,
                                                 label_with):
        X = np.zeros((n, NF))
        options_features_nb(R, obs, opts, np.int64(n), np.int64(teacher_choice_nb(R, obs, opts, n, prm[0])), X)
        Xs.append(X)
        ys.append(option_values(m, value))
        gs.append(np.full(n, game))
        labelled += 1
    return np.concatenate(Xs), np.concatenate(ys), np.concatenate(gs), labelled


def network_model(seed: int, width: int = NH, alpha: float = ALPHA, epochs: int = MAX_EPOCHS,
                  patience: int = PATIENCE) -> object:
    """The pipeline `fit` trains (standardised inputs, one hidden layer of `width` ReLU units); benchmarks/
    fit_limits.py varies its settings."""
    try:
        from sklearn.neural_network import MLPRegressor
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
    except ImportError as e:
        raise TrainError("training needs scikit-learn, the optional extra `learn`: pip install -e '.[learn]'") from e

    return make_pipeline(StandardScaler(), MLPRegressor(
        hidden_layer_sizes=(width,), activation="relu", alpha=alpha, batch_size=BATCH, max_iter=epochs,
        early_stopping=True, n_iter_no_change=patience, random_state=seed))


def fit(X: np.ndarray, y: np.ndarray, held: np.ndarray, seed: int, scaled: bool = False) -> tuple[object, float, float]:
    """The network fitted to the rows not `held`; its squared error on the held rows, and the mean's there. `scaled`:
    fitted to the targets over their standard deviation (export scales the output back), for option values, whose
    few hundredths of a thousand points the early stopping would otherwise take for no progress."""
    model = network_model(seed)
    sd = float(y[~held].std()) if scaled else 1.0
    sd = sd if sd > 0 else 1.0
    with warnings.catch_warnings():  # early stopping or MAX_EPOCHS ends the fit; the held-out loss says how well
        warnings.simplefilter("ignore", category=UserWarning)
        model.fit(X[~held], y[~held] / sd)
    model.target_scale = sd
    pred = model.predict(X[held]) * sd
    loss = float(np.mean((pred - y[held]) ** 2))
    base = float(np.mean((y[~held].mean() - y[held]) ** 2))
    return model, loss, base


def export(model: object) -> np.ndarray:
    """The fitted pipeline as one row of learned.W_* blocks, what the kernel reads."""
    from strategies.learned import NF, NH, NW

    scaler, mlp = model.steps[0][1], model.steps[1][1]
    sd = getattr(model, "target_scale", 1.0)  # the output layer back in thousands of points (ReLU: a linear last layer)
    W = np.concatenate([scaler.mean_, scaler.scale_, mlp.coefs_[0].reshape(NF * NH), mlp.intercepts_[0],
                        mlp.coefs_[1].reshape(NH) * sd, mlp.intercepts_[1].reshape(1) * sd]).astype(np.float64)
    assert W.shape == (NW,)
    return W


# a block of a round's rows: features, targets, games, decisions labelled, the CPU seconds it took
Block = tuple[np.ndarray, np.ndarray, np.ndarray, int, float]
_ROUND_PLAYERS: dict[tuple[bytes, float], object] = {}  # a worker's round players: a kernel compiled once a round


def block_rows(variant: str, W: np.ndarray, explore: float, games: int, seed: int, first: int, label: int,
               label_share: float, label_with: str, progress: Callable[[int], None] | None = None,
               value: str = VALUE_MARGIN) -> Block:
    """Games first .. first + games - 1 of a round, their rows as label_rows or play_rows make them. A worker runs
    blocks that start on a multiple of CHUNK from the round's first game, so every chunk, and the seed of its
    labels, is the one a single process plays: the rows do not depend on the number of workers."""
    t0 = time.process_time()
    key = (np.ascontiguousarray(W, "<f8").tobytes(), explore)
    if key not in _ROUND_PLAYERS:
        _ROUND_PLAYERS.clear()  # one round at a time: the last round's kernel is done with
        _ROUND_PLAYERS[key] = round_player(W, explore)
    v, player = get_variant(variant), _ROUND_PLAYERS[key]
    if label:
        X, y, g, labelled = label_rows(v, player, games, seed, label, label_share, first, progress, label_with,
                                        value)
    else:
        X, y, g = play_rows(v, player, games, seed, first, progress)
        labelled = 0
    return X, y, g, labelled, time.process_time() - t0


def round_blocks(games: int, first: int, workers: int) -> list[tuple[int, int]]:
    """(first game, games) of each block of a round: whole chunks, about TASKS_PER_WORKER a worker."""
    size = CHUNK * max(1, -(-games // (CHUNK * TASKS_PER_WORKER * workers)))
    return chunks(games, size, first)


def round_rows(variant: str, W: np.ndarray, explore: float, games: int, seed: int, first: int, label: int,
               label_share: float, label_with: str, workers: int,
               progress: Callable[[int], None] | None = None, value: str = VALUE_MARGIN) -> Block:
    """A round's rows (block_rows), played by `workers` processes (1: this one); the CPU seconds are every
    process's, so a round's figure is the same work however it was shared out."""
    if workers == 1:
        return block_rows(variant, W, explore, games, seed, first, label, label_share, label_with, progress, value)
    blocks = round_blocks(games, first, workers)
    pool = Pool(min(workers, len(blocks)))
    parts: dict[int, Block] = {}
    calls = {(g0, n): (block_rows, (variant, W, explore, n, seed, g0, label, label_share, label_with, None, value))
             for g0, n in blocks}
    for (g0, n), part in pool_results(pool, calls):  # interrupted: the round is not saved, a rerun plays it again
        parts[g0] = part
        if progress is not None:
            progress(n)
    pool.close()
    ordered = [parts[g0] for g0, _ in blocks]
    return (np.concatenate([b[0] for b in ordered]), np.concatenate([b[1] for b in ordered]),
            np.concatenate([b[2] for b in ordered]), sum(b[3] for b in ordered), sum(b[4] for b in ordered))


def labeller_network(v: Variant) -> str:
    """The network the installed `learned` plays at v, named by its scope, setting and a digest of its weights: a run
    labelled by it resumes only while the same network is installed (another would label its rounds differently)."""
    import hashlib

    from strategies import parse_strategy
    from strategies.learned import K_MARGIN, K_NET, K_POINTS, plays_network
    from strategies.learned_nets import NET_SCOPES, NETS

    p = parse_strategy("learned").at(v).params
    if not plays_network(p):
        raise TrainError(f"--label-with learned: learned plays no network at {v.name} (expert's choice); label with "
                         "expert")
    net = int(p[K_NET])
    digest = hashlib.sha256(np.ascontiguousarray(NETS[net], "<f8").tobytes()).hexdigest()[:12]
    return f"{NET_SCOPES[net]} margin {p[K_MARGIN]:g} points {int(p[K_POINTS])} weights {digest}"


def held_games(g: np.ndarray, games: int, first: int) -> np.ndarray:
    """The rows of each round's last fifth of games."""
    return g >= first + int(round(games * (1 - HELD_OUT)))


@dataclass
class OtherRun:
    """The saved rounds of another run at the same preset, whose rows a fit may have too (expert iteration keeps the
    rows of its earlier rounds: each round's labels, by a stronger labeller, added to the last ones')."""

    name: str  # what the provenance says of it: its marker and size, not the folder (a path of one machine)
    X: np.ndarray
    y: np.ndarray
    held: np.ndarray


def run_name(marker: dict, rounds: int, rows: int) -> str:
    by = f", labelled by {marker.get('label_with', DEFAULT_LABELLER)}" if marker.get("label") else ""
    by += f" on {marker['label_value']}s" if marker.get("label_value", VALUE_MARGIN) != VALUE_MARGIN else ""
    net = f" ({marker['label_net']})" if "label_net" in marker else ""
    return (f"{marker['variant']} seed {marker['seed']}, {rounds} round{'s' * (rounds != 1)} of {marker['games']:,} "
            f"games{by}{net}: {rows:,} rows")


def other_runs(v: Variant, folders: list[Path], label: int, out: Path, value: str = VALUE_MARGIN) -> list[OtherRun]:
    """The rows of each folder's saved rounds, refused (one line, before any game) unless each is another finished
    `train` run at this preset with targets of the same kind (option values of the same `value`, or hand margins)
    and this feature layout's width."""
    from strategies.learned import NF

    runs: list[OtherRun] = []
    for folder in folders:
        marker = folder / "run.json"
        if not marker.is_file():
            raise TrainError(f"--also {folder}: no training run there (no run.json); give a folder `canasta-lab train` "
                             "filled")
        if folder.resolve() == out.resolve():
            raise TrainError(f"--also {folder}: the run's own folder; its rounds are fitted already")
        m = json.loads(marker.read_text())
        if m.get("variant") != v.name:
            raise TrainError(f"--also {folder}: a run at {m.get('variant')}; only runs at {v.name} may be added")
        if bool(m.get("label")) != bool(label):
            kind = "option values (--label)" if m.get("label") else "hand margins"
            raise TrainError(f"--also {folder}: its targets are {kind}; add runs whose targets are this run's")
        if label and m.get("label_value", VALUE_MARGIN) != value:
            raise TrainError(f"--also {folder}: its option values are {m.get('label_value', VALUE_MARGIN)}s, this "
                             f"run's {value}s; add runs whose targets are this run's")
        parts = saved_run_rows(folder)
        if not parts:
            raise TrainError(f"--also {folder}: no round saved there yet; finish that run first")
        X, y, held = (np.concatenate(a) for a in zip(*parts, strict=True))
        if X.shape[1] != NF:
            raise TrainError(f"--also {folder}: rows of {X.shape[1]} features, this layout has {NF}; train that "
                             "run again")
        runs.append(OtherRun(run_name(m, len(parts), len(y)), X, y, held))
    return runs


def saved_rows(folder: Path, r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Round r's rows as `train` saved them: features, targets, and which were held out."""
    d = np.load(folder / f"round-{r}.npz")
    return d["X"], d["y"], d["held"]


def saved_run_rows(folder: Path) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every round's rows a run's folder holds, round 0 on, to the first not saved."""
    parts = []
    while (folder / f"round-{len(parts)}.npz").exists():
        parts.append(saved_rows(folder, len(parts)))
    return parts


def labelling(v: Variant, label: int, label_share: float, label_with: str, value: str) -> dict:
    """How a run's targets were made, as its marker and its network's provenance both record it: nothing for hand
    margins, and of option values only what differs from expert's mean margins (the markers of earlier runs stay
    equal to their arguments')."""
    return ({"label": label, "label_share": label_share} if label else {}) | (
        {"label_with": label_with, "label_net": labeller_network(v)} if label_with != DEFAULT_LABELLER else {}) | (
        {"label_value": value} if value != VALUE_MARGIN else {})


def train(variant: str, rounds: int, games: int, seed: int, out: Path, explore: float = DEFAULT_EXPLORE,
          progress: bool = True, label: int = 0, label_share: float = LABEL_SHARE,
          label_with: str = DEFAULT_LABELLER, workers: int = 1, also: tuple[Path, ...] = (),
          value: str = VALUE_MARGIN) -> list[Round]:
    """Rounds 0 .. rounds - 1, each `games` games, resuming after the rounds DIR already holds; `label` > 0: option
    values (`value`: margin or result) from that many rollouts by `label_with` as the targets (label_rows), else the
    hand's margin (play_rows).
    `workers` processes play each round's games (0: every core); the rows, and so the networks, are the same.
    `also`: other runs' folders, whose rows every fit has first (other_runs). A run's rows do not depend on them, so
    the marker leaves them out; a resumed run whose last saved round was fitted with others is fitted again (its
    rows kept), its earlier rounds stand (their networks played the later rounds' games)."""
    v = get_variant(variant)
    workers = resolve_workers(workers)
    if label_with not in LABELLERS:
        raise TrainError(f"--label-with {label_with}: accepted players are {', '.join(LABELLERS)}")
    if label_with != DEFAULT_LABELLER and not label:
        raise TrainError(f"--label-with {label_with}: the options are played out only with --label ROLLOUTS")
    if value not in LABEL_VALUES:
        raise TrainError(f"--label-value {value}: accepted values are {', '.join(LABEL_VALUES)}")
    if value != VALUE_MARGIN and not label:
        raise TrainError(f"--label-value {value}: options have values only with --label ROLLOUTS")
    run = {"variant": v.name, "games": games, "seed": seed, "explore": explore} | labelling(
        v, label, label_share, label_with, value)
    marker = out / "run.json"
    if marker.exists() and json.loads(marker.read_text()) != run:
        raise TrainError(f"{out} holds the rounds of another training run ({marker.read_text().strip()}); give a new "
                         "folder, or that run's arguments to resume it")
    others = other_runs(v, list(also), label, out, value)
    names = [o.name for o in others]
    out.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps(run))
    done: list[Round] = []
    Xs, ys, hs = [o.X for o in others], [o.y for o in others], [o.held for o in others]
    for r in range(rounds):  # the rounds saved already, in order
        meta = out / f"round-{r}.json"
        if not ((out / f"round-{r}.npz").exists() and meta.exists()):
            break
        X, y, held = saved_rows(out, r)
        Xs.append(X)
        ys.append(y)
        hs.append(held)
        done.append(Round(**json.loads(meta.read_text())))
    if done and done[-1].also != names:  # the last saved round, fitted again with these runs' rows
        done[-1] = refit(done[-1], Xs, ys, hs, seed, label, names, out)
    for r in range(len(done), rounds):
        first = r * games  # each round plays deals of its own
        npz, meta = out / f"round-{r}.npz", out / f"round-{r}.json"
        t0 = time.process_time()
        W = done[-1].net() if done else np.zeros(0)
        update, close = progress_callback(progress, games, desc=f"{v.name} round {r}")
        X, y, g, labelled, played = round_rows(v.name, W, explore, games, seed, first, label, label_share,
                                               label_with, workers, update, value)
        close()
        held = held_games(g, games, first)
        Xs.append(X)
        ys.append(y)
        hs.append(held)
        model, loss, base = fit(np.concatenate(Xs), np.concatenate(ys), np.concatenate(hs), seed + r, bool(label))
        cpu = time.process_time() - t0 + (played if workers > 1 else 0.0)  # the workers' too, where there were any
        rnd = Round(r, games, len(y), sum(len(a) for a in ys), cpu, loss, base,
                    export(model).tolist(), labelled, names)
        np.savez_compressed(npz, X=X, y=y, held=held)
        meta.write_text(json.dumps(asdict(rnd)))
        done.append(rnd)
    return done


def refit(rnd: Round, Xs: list[np.ndarray], ys: list[np.ndarray], hs: list[np.ndarray], seed: int, label: int,
          names: list[str], out: Path) -> Round:
    """A saved round fitted again to the rows now given (another run's added or dropped), its own rows kept; the fit's
    CPU seconds are added to the round's."""
    t0 = time.process_time()
    model, loss, base = fit(np.concatenate(Xs), np.concatenate(ys), np.concatenate(hs), seed + rnd.round, bool(label))
    new = Round(rnd.round, rnd.games, rnd.rows, sum(len(a) for a in ys), rnd.cpu_seconds + time.process_time() - t0,
                loss, base, export(model).tolist(), rnd.labelled, names)
    (out / f"round-{rnd.round}.json").write_text(json.dumps(asdict(new)))
    return new


def provenance(variant: str, rounds: list[Round], seed: int, explore: float, command: str,
               trials: list[MarginTrial], label: int = 0, label_share: float = LABEL_SHARE,
               capped: dict[str, float] | None = None, label_with: str = DEFAULT_LABELLER,
               value: str = VALUE_MARGIN) -> dict:
    """What the package records beside a network (strategies/learned_nets.py), with the margin it plays at."""
    from importlib.metadata import version

    from sim.engine.sources import source_hash
    from sim.version import __version__

    last = rounds[-1]
    best = best_trial(trials)
    return {"command": command, "variant": variant, "seed": seed, "explore": explore,
            "rounds": [{k: val for k, val in asdict(r).items() if k != "weights"} for r in rounds],
            "rows": last.rows_total, "held_out_loss": last.held_out_loss, "held_out_base": last.held_out_base,
            **labelling(get_variant(variant), label, label_share, label_with, value),
            **({"capped": capped} if capped is not None else {}),
            "margin": best.margin, "points": best.points,
            **({"single": best.single} if best.single != SINGLE_NET else {}),
            "margin_seed": MARGIN_SEED + seed,
            "margin_trials": [asdict(t) for t in trials],
            "version": __version__, "source_hash": source_hash(),
            "libraries": {**{lib: version(lib) for lib in ("numpy", "numba", "scikit-learn")},
                          "python": platform.python_version()}}


def install(scope: str, W: np.ndarray, prov: dict, path: Path | None = None) -> Path:
    """Write the network of `scope` (a preset, or a family) into strategies/learned_nets.py, the others kept."""
    import base64

    from strategies import learned
    from strategies.learned_nets import NETWORKS

    path = path or Path(learned.__file__).with_name("learned_nets.py")
    nets = dict(NETWORKS)
    nets[scope] = {"features": learned.FEATURE_LAYOUT, "provenance": prov,
                    "weights": base64.b64encode(np.asarray(W, "<f8").tobytes()).decode()}
    text = path.read_text()
    head, _, rest = text.partition("NETWORKS: dict[str, dict] = {")
    _, _, tail = rest.partition("\n}\n")
    body = "".join(f"    {f!r}: {nets[f]!r},\n" for f in sorted(nets))  # Python literals, one family a line
    path.write_text(head + "NETWORKS: dict[str, dict] = {\n" + body + "}\n" + tail)
    return path
