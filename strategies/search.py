"""`search`: a reference player that looks ahead by sampling (issue 10, part 3).

At each decision it deals the cards its seat cannot see at random, consistently with everything the
seat has seen (sim.engine.sample: a determinization), plays each legal option forward to the end of
the hand with a fast policy on every seat (the `baseline` kernel with baseline's knobs), and scores
the hand: its side's hand score minus the best other side's (the margin). Every option is played on
the same samples (common random numbers), so two options are compared by their paired differences,
far less noisy than the scores themselves. It plays baseline's own choice unless another option's
mean margin beats it by `confidence` standard errors; then the best such option. Picking the best
of several noisy means without that test made it weaker (docs/strategies.md). Every PRUNE_EVERY
samples, options PRUNE_Z standard errors behind the leader are dropped. Discards of two cards of one
rank class lead to the same games (suits never matter in Classic's rank melds): one is played out.

The rollouts never ask `search` itself: their function table holds the heuristics' kernel and `learned`'s
(`rollout=learned`, issue 37: expert iteration's lookahead on top of the learned player). Cost: samples x options
rollouts, each the rest of a hand (docs/strategies.md, "The search player"); a `learned` rollout costs about six
heuristic ones where a network plays.
"""

from __future__ import annotations

import numpy as np

from sim.engine.contract import (
    DP_ANSWER,
    DP_DISCARD,
    DP_DRAW,
    MAXP,
    OB_DP,
    OB_NSIDES,
    OB_PILE_N,
    OB_RAND,
    OB_SEAT,
    OB_SIDE,
    OPT_FIELDS,
    R_SEQ,
    cached_jit,
    card_rank,
    option_card,
)
from sim.engine.planning import (
    C_TOTAL,
    HC_FN,
    HC_FNB,
    MAXF,
    S_ERR,
    SD_COMP,
    function_value,
    new_state,
    resume_hand_nb,
    sample_nb,
)

from .heuristic import heuristic_decide_nb
from .knobs import NPRM, USER_SLOT0, KnobTable
from .learned import KNOBS as LEARNED_KNOBS
from .learned import learned_decide_nb
from .registry import REGISTRY, StrategyChoice, StrategySpec, register

DEFAULT_SAMPLES = 48
DEFAULT_CONFIDENCE = 1.0
MAX_SAMPLES = 1000
PRUNE_EVERY = 8  # samples between two looks at the options still played out
PRUNE_Z = 3.0  # an option this many standard errors behind the leader is played out no more
MIN_CAPPED = 2  # samples every live option gets whatever the rollout budget (a paired variance needs two)
SEED_SHIFT = 16  # a sample's seed: the decision's random word, then the sample's number below it (< 2**16)
# The rollout player is one of the library's heuristics (one kernel, other knobs) or `learned` (its own kernel): its
# knob vector at the variant played fills slots 0 to USER_SLOT0 - 1 of search's own (`complete`), search's knobs
# follow, and the rollout player's own knobs (learned's network and margin, which sit where search's do in its own
# vector) are kept above them, from ROLLOUT_OWN, and moved back into place for the rollouts (rollout_knobs_nb).
ROLLOUTS = ("baseline", "expert", "aggressive", "pile-hoarder", "freezer", "cautious", "learned")
DEFAULT_ROLLOUT = "baseline"
FN_HEURISTIC = 0  # the rollout table's slot of the heuristics' kernel
FN_LEARNED = 1  # and of learned's
ROLLOUT_FN = np.array([FN_LEARNED if name == "learned" else FN_HEURISTIC for name in ROLLOUTS], np.int64)
rollout_policy = function_value(heuristic_decide_nb)
learned_policy = function_value(learned_decide_nb)
assert MAXF == 4, "the rollout tables below list MAXF functions"
ROLLOUT_OWN = USER_SLOT0 + 8  # the rollout player's own knobs (slots USER_SLOT0 and up of its vector) from here
assert LEARNED_KNOBS.next <= USER_SLOT0 + NPRM - ROLLOUT_OWN, "learned's own knobs must fit above search's"

# search's own knobs, above the rollout player's (its kernel reads no other)
KNOBS = KnobTable(first=USER_SLOT0, end=ROLLOUT_OWN)
K_SAMPLES = KNOBS.knob(
    "samples", 1, MAX_SAMPLES, DEFAULT_SAMPLES,
    "hidden-card samples per decision; each option is played out once on each (the cost grows "
    "with it)", whole=True)
K_CONFIDENCE = KNOBS.knob(
    "confidence", 0, 10, DEFAULT_CONFIDENCE,
    "standard errors by which an option's mean margin must beat the rollout player's choice on the same "
    "samples before search plays it instead (0: the best mean)")
K_BUDGET = KNOBS.knob(
    "budget", 0, 100000, 0,
    "off, or N: at most N rollouts a decision (samples stop once the options still played out would pass it, "
    "at least two samples each): bounds the cost where hands are long and options many",
    (("off", 0.0),), whole=True)
K_ROLLOUT = KNOBS.knob(
    "rollout", 1, 0, float(ROLLOUTS.index(DEFAULT_ROLLOUT)),
    "the fast player every seat plays in the rollouts, with its knobs at the variant played; search keeps "
    "its choice unless another option beats it", tuple((name, float(i)) for i, name in enumerate(ROLLOUTS)))


def rollout_player(choice: StrategyChoice) -> str | None:
    """The fast player a lookahead choice rolls out with (its `rollout` knob), or None for a strategy without one."""
    if "rollout" not in {k.name for k in choice.spec.knobs}:
        return None
    return ROLLOUTS[int(choice.knob_values()["rollout"])]


def rollout_fn(name: str) -> int:
    """The slot of the rollout table (FN_HEURISTIC, FN_LEARNED) whose kernel plays rollout player `name`."""
    return int(ROLLOUT_FN[ROLLOUTS.index(name)])


def complete_rollout(p: np.ndarray, v) -> None:
    """Slots below USER_SLOT0 take the rollout player's knob vector at v (its family's defaults there), and slots
    from ROLLOUT_OWN its own knobs (learned's network and margin at v)."""
    q = REGISTRY[ROLLOUTS[int(p[K_ROLLOUT])]].params(v=v)
    p[:USER_SLOT0] = q[:USER_SLOT0]
    p[ROLLOUT_OWN:] = q[USER_SLOT0:USER_SLOT0 + NPRM - ROLLOUT_OWN]


@cached_jit
def rollout_knobs_nb(prm):
    """The rollout player's knob vector inside search's: slots below USER_SLOT0 as they are, its own knobs moved back
    from ROLLOUT_OWN to USER_SLOT0 (a heuristic reads none of them; learned reads its network and margin there)."""
    knobs = prm.copy()
    own = NPRM - ROLLOUT_OWN
    knobs[USER_SLOT0:USER_SLOT0 + own] = prm[ROLLOUT_OWN:]
    knobs[USER_SLOT0 + own:] = 0.0
    return knobs


@cached_jit
def seat_policy_nb(S, knobs, fn):
    """Every seat of S plays the rollout table's function fn (FN_HEURISTIC, FN_LEARNED), with no base strategy."""
    for q in range(MAXP):
        S.hand[q, HC_FN] = fn
        S.hand[q, HC_FNB] = -1
        S.prm[q, :] = knobs


@cached_jit
def copy_play_nb(S, W, n):
    """W becomes S where play can change it (the scalars, hands, sides, stock, pile, melds, options)."""
    W.st[:] = S.st
    W.hand[:, :] = S.hand
    W.side[:, :] = S.side
    W.stock[:] = S.stock
    W.pile[:] = S.pile
    W.melds[:, :, :] = S.melds
    W.opts[:n, :] = S.opts[:n, :]


@cached_jit
def margin_nb(obs, W, s):
    """Side s's score for the hand just scored in W, less the best other side's."""
    best = -(1 << 40)
    for t in range(obs[OB_NSIDES]):
        if t != s and W.side[t, SD_COMP + C_TOTAL] > best:
            best = W.side[t, SD_COMP + C_TOTAL]
    return W.side[s, SD_COMP + C_TOTAL] - best


@cached_jit
def paired_nb(m, k, j, i):
    """Mean and z-score of option j's margin less option i's over the first k samples (the same
    samples for both); the z-score is infinite when every sample gives the same difference."""
    tot = 0.0
    sq = 0.0
    for x in range(k):
        d = m[x, j] - m[x, i]
        tot += d
        sq += d * d
    mean = tot / k
    var = (sq - k * mean * mean) / (k - 1) if k > 1 else 0.0
    if var <= 1e-9:
        return mean, (np.inf if mean > 0 else (-np.inf if mean < 0 else 0.0))
    return mean, mean / np.sqrt(var / k)


@cached_jit
def live_nb(alive, skip):
    """How many options are still played out, option `skip` aside (-1: none aside)."""
    c = 0
    for j in range(alive.shape[0]):
        if alive[j] and j != skip:
            c += 1
    return c


@cached_jit
def discard_classes_nb(opts, n, alive, rep):
    """Discards of one rank class lead to the same rollouts: only the first of each is played out (rep[j], the
    option played out for j; alive[j] false for the others)."""
    for j in range(n):
        for i in range(j):
            if rep[i] == i and card_rank(option_card(opts, i)) == card_rank(option_card(opts, j)):
                rep[j] = i
                alive[j] = False
                break


@cached_jit
def prune_nb(m, k, alive, pol, n):
    """After k samples: drop every option that trails the leader by more than PRUNE_Z paired standard errors
    (the rollout player's choice pol is always kept)."""
    lead = pol
    for j in range(n):
        if alive[j] and m[:k, j].sum() > m[:k, lead].sum():
            lead = j
    for j in range(n):
        if alive[j] and j != lead and j != pol and paired_nb(m, k, j, lead)[1] < -PRUNE_Z:
            alive[j] = False


@cached_jit
def best_option_nb(m, samples, alive, pol, n, confidence):
    """The best mean among the options that beat the rollout player's choice pol with the confidence asked
    (pol when none does)."""
    best = pol
    gain = 0.0
    for j in range(n):
        if not alive[j] or j == pol:
            continue
        mean, z = paired_nb(m, samples, j, pol)
        if mean > gain and (samples == 1 or z >= confidence):
            best = j
            gain = mean
    return best


@cached_jit
def search_decide_nb(R, obs, opts, n, prm):
    """Lookahead on top of the rollout player (one of ROLLOUTS, `baseline` by default; `learned` plays its own
    kernel): every option, or one discard of
    each rank class, is played out to the end of the hand on `samples` deals of the hidden cards consistent
    with what the seat sees (sample_nb), the same deals for every option; options that trail clearly are
    pruned every PRUNE_EVERY samples, and the option with the best mean hand margin is played only where it
    beats the rollout player's own choice by `confidence` paired standard errors. `budget` caps the rollouts
    of one decision."""
    knobs = rollout_knobs_nb(prm)  # the rollout player's knob vector (search's own knobs are read from prm)
    fn = ROLLOUT_FN[int(prm[K_ROLLOUT])]
    f = rollout_policy()
    F = (f, learned_policy(), f, f)  # FN_HEURISTIC, FN_LEARNED, two unused slots
    policy = F[fn](R, obs, opts, n, knobs)
    samples = int(prm[K_SAMPLES])
    confidence = prm[K_CONFIDENCE]
    dp = obs[OB_DP]
    if dp == DP_DRAW and R[R_SEQ] != 0 and obs[OB_PILE_N] == 1:
        # Buraco: a one-card pile taken and thrown back is a pass, which two lookahead players would trade for
        # ever (nobody drawing, the stock never running out); it is taken only as the rollout player takes it
        return policy
    seat = obs[OB_SEAT]
    side = obs[OB_SIDE]
    alive = np.ones(n, np.bool_)  # options still played out: not an equivalent discard, not pruned
    rep = np.arange(n)  # the option played out for each: itself, or the first discard of its rank class
    if dp == DP_DISCARD:
        discard_classes_nb(opts, n, alive, rep)
    pol = rep[policy]
    if live_nb(alive, pol) == 0:  # nothing to compare: one option, or only discards equivalent to the policy's
        return policy
    S = new_state(R)
    W = new_state(R)
    seat_policy_nb(S, knobs, fn)
    seat_policy_nb(W, knobs, fn)
    m = np.zeros((samples, n))  # the margin of each option on each sample
    seed0 = obs[OB_RAND] << SEED_SHIFT
    cap = prm[K_BUDGET]
    done = 0
    for k in range(samples):
        live = live_nb(alive, -1)
        if cap > 0 and k >= MIN_CAPPED and done + live > cap:
            samples = k  # the rollout budget is spent: decide on the samples played
            break
        done += live
        sample_nb(R, obs, S, seed0 + k)
        if S.st[S_ERR] != 0:
            if dp != DP_ANSWER:
                raise ValueError("search: no state matches the observation (an engine bug)")
            # an answer: no deal of the sampler's tries let the asker go out (a long hand that can go out is a
            # rare deal); the samples played decide, or with fewer than two the rollout player's answer stands
            if k < MIN_CAPPED:
                return policy
            samples = k
            break
        for j in range(n):
            for c in range(OPT_FIELDS):
                S.opts[j, c] = opts[j, c]
        for j in range(n):
            if not alive[j]:
                continue
            copy_play_nb(S, W, n)
            resume_hand_nb(R, W, F, seat, dp, j)
            if W.st[S_ERR] != 0:
                raise ValueError("search: a rollout failed (an engine bug)")
            m[k, j] = margin_nb(obs, W, side)
        if (k + 1) % PRUNE_EVERY == 0 and k + 1 < samples:
            prune_nb(m, k + 1, alive, pol, n)
            if live_nb(alive, pol) == 0:  # every other option dropped: the rollout player's choice stands
                samples = k + 1
                break
    best = best_option_nb(m, samples, alive, pol, n, confidence)
    return policy if best == pol else best


# Fewer samples where a rollout (the rest of a hand) is long, so that a game of search against baseline costs about
# 5 CPU seconds or less on this project's machine (benchmarks/search_speed.py all; docs/strategies.md, "Cost")
SAMPLES_AT = {"boat-3p": 24, "pennies-6p": 32, "railroad-2p": 16, "railroad-3p": 8, "railroad-4p": 6,
              "railroad-6p": 4}
SEARCH_DESCRIPTION = (
    "samples the hidden cards consistently with what its seat has seen, plays every legal option to the end of the "
    "hand with a fast player on every seat (the rollout knob: baseline unless set), and takes the best mean score "
    "margin")
SEARCH = register(StrategySpec(
    "search", search_decide_nb,
    SEARCH_DESCRIPTION, KNOBS.knobs, complete=complete_rollout).with_defaults(
    "search", SEARCH_DESCRIPTION, at={preset: {"samples": n} for preset, n in SAMPLES_AT.items()}))
