"""`learned`: every legal option scored by a small neural network of what the seat sees, the best played (issue 37).

At each decision the kernel builds one feature vector per legal option (FEATURES below: the decision point, the
scores, the hands' and the pile's sizes, the sides' openings and canastas, the option's kind, what it lays, takes or
throws and the hand it leaves, the discard features the heuristic's scorer reads, whether `expert` at this variant
would play it; then the partner's hand, the opening's requirement, the sides' melds a card or two short of a
canasta, the hand's wilds and natural pairs, what the option leaves of them and of the hand's card points, the meld
an action lays into and whether that makes a canasta, and the card points and wilds a take brings in), scores each
by a multilayer perceptron (standardised inputs, one hidden layer of ReLU units, one output in thousands of points
of the hand's margin for the seat's side: the margin expected after the option, or, for a network trained on option
values (`train --label`), what the option brings over its decision's mean) and plays the highest. Only the
differences between one decision's options are ever read, so the two compare alike. The network's weights are arrays
the kernel reads (strategies/learned_nets.py, one network per preset or family), trained by `canasta-lab train`
(sim/analysis/selfplay.py) with scikit-learn; playing needs numpy and numba only.

Everything it reads is the observation and the options (it never sees a hidden card: tests/engine/test_observe.py
deals the hidden cards again and expects the same choices of every strategy). The knob `explore` plays a uniformly
random option at that share of its decisions (the training's self-play); `net` chooses the network, `teacher`
plays expert's choice alone (the first round's data); at Buraco `single` sets where the network may take a pile of
one card (a take and a throw back is a pass, and two players passing never end a hand).
"""

from __future__ import annotations

import hashlib

import numpy as np

from sim.engine.contract import (
    DECIDE_SIG,
    DP_DRAW,
    F_JOK,
    F_KIND,
    F_NAT,
    F_RANK,
    F_TWO,
    MIN_MELD,
    NK,
    NR,
    O_ADD,
    O_BLACK3,
    O_DISCARD,
    O_DRAW,
    O_EXTEND,
    O_NEW,
    O_SEQ,
    O_TAKE,
    O_TOP,
    O_WILD,
    OB_CANASTAS,
    OB_DP,
    OB_FROZEN,
    OB_HANDS,
    OB_HN,
    OB_MELDED,
    OB_NM,
    OB_NSIDES,
    OB_PILE_N,
    OB_PILE_TOP,
    OB_PILEK,
    OB_PLAYERS,
    OB_RAND,
    OB_REQ,
    OB_SCORE,
    OB_SEAT,
    OB_SIDE,
    OB_SMELDED,
    OB_STOCK_N,
    OB_TURN,
    OPT_FIELDS,
    OPTION_NAMES,
    R_CANASTA,
    R_CARDVAL,
    R_SEAT_SIDE,
    RK_2,
    RK_3,
    RK_JK,
    TAKE_FREE,
    TAKE_M1,
    TAKE_M2,
    add_row,
    add_wild,
    black3_count,
    cached_jit,
    card_rank,
    hand_count,
    meld_row,
    new_naturals,
    new_rank,
    new_wild,
    option_card,
    option_kind,
    process_jit,
    take_method,
    take_wild,
    wild_jokers,
    wild_twos,
)
from sim.engine.rulehelp import is_black3_nb, is_natural_meld_rank_nb, is_wild_rank_nb

from .heuristic import (
    DISCARD_FEATURES,
    N_DFEAT,
    action_value_nb,
    discard_features_nb,
    hand_cards_laid_nb,
    heuristic_decide_nb,
    take_gain_nb,
)
from .knobs import NPRM, USER_SLOT0, KnobTable
from .learned_nets import NET_SCOPES, NETS, NETWORKS, _weights
from .registry import REGISTRY, StrategyError, StrategySpec

# The feature vector, one per legal option: the decision's context (the same for every option), then the option's own.
N_DP = 5  # decision points DP_DRAW .. DP_DISCARD, one-hot
N_KINDS = 16  # option kinds O_DRAW .. O_EXTEND, one-hot
X_DP = 0
X_SCORE = X_DP + N_DP  # own side's score before the hand / 5000
X_LEAD = X_SCORE + 1  # own side's score less the best other side's / 2000
X_HAND = X_LEAD + 1  # own hand size / 15
X_OPP_HAND = X_HAND + 1  # smallest hand of another side's seat / 15
X_STOCK = X_OPP_HAND + 1  # stock / 100
X_PILE = X_STOCK + 1  # pile / 20
X_FROZEN = X_PILE + 1
X_MELDED = X_FROZEN + 1  # own side has opened
X_OPP_MELDED = X_MELDED + 1  # another side has opened
X_CANASTAS = X_OPP_MELDED + 1  # own side's canastas / 3
X_OPP_CANASTAS = X_CANASTAS + 1  # the most canastas of another side / 3
X_POINTS = X_OPP_CANASTAS + 1  # card points in hand / 100
X_TURN = X_POINTS + 1  # turns of this hand / 40
N_CONTEXT = X_TURN + 1
X_KIND = N_CONTEXT  # the option's kind, one-hot
X_LAID = X_KIND + N_KINDS  # cards a meld action lays from the hand / 4
X_VALUE = X_LAID + 1  # card points it lays / 100
X_GAIN = X_VALUE + 1  # cards a take adds to the hand / 20
X_LEFT = X_GAIN + 1  # the hand's size after the option / 15
X_DFEAT = X_LEFT + 1  # the heuristic's discard features of the card thrown (strategies.heuristic.DF_*), scaled
X_WILD = X_DFEAT + N_DFEAT  # the card thrown is a wild (it freezes the pile)
X_BLACK3 = X_WILD + 1  # the card thrown is a black three (it blocks the next player)
X_TEACHER = X_BLACK3 + 1  # expert, with its knobs at this variant, plays this option
# the position's make-up (the same for every option) and what the option leaves of it: appended, so that a network
# trained before them reads them with weight 0 and plays as it did (strategies/learned_nets.py's older networks)
X_PARTNER = X_TEACHER + 1  # the smallest hand of another seat of the own side / 15 (0 without a partner)
X_REQ = X_PARTNER + 1  # the own side's initial-meld requirement / 120 (0 once it has opened)
X_NEAR = X_REQ + 1  # the own side's melds one or two cards short of a canasta / 3
X_OPP_NEAR = X_NEAR + 1  # the most such melds of another side / 3
X_WILDS = X_OPP_NEAR + 1  # wilds in the hand / 4
X_PAIRS = X_WILDS + 1  # natural ranks held twice or more / 5
X_LEFT_WILDS = X_PAIRS + 1  # wilds in the hand after the option / 4
X_LEFT_PAIRS = X_LEFT_WILDS + 1  # natural ranks held twice or more after it / 5
X_LEFT_POINTS = X_LEFT_PAIRS + 1  # card points in the hand after it / 100
X_MELD_AFTER = X_LEFT_POINTS + 1  # the cards of the meld a meld action lays into, after it / 7
X_COMPLETES = X_MELD_AFTER + 1  # the action makes that meld a canasta
X_TAKEN_POINTS = X_COMPLETES + 1  # card points a take brings into the hand / 100
X_TAKEN_WILDS = X_TAKEN_POINTS + 1  # wilds a take brings into the hand / 4
NF = X_TAKEN_WILDS + 1
# the discard features' scales (value, danger, own, pairs, seen, next_danger, next_holds, next_pair, pile_risk, dead,
# single, late): each to about one
DF_SCALE = np.array([50.0, 1.0, 1.0, 3.0, 1.0, 1.0, 1.0, 1.0, 20.0, 4.0, 1.0, 50.0])
FEATURE_NAMES = (("dp_draw", "dp_meld", "dp_ask", "dp_answer", "dp_discard", "score", "lead", "hand", "opp_hand",
                  "stock", "pile", "frozen", "melded", "opp_melded", "canastas", "opp_canastas", "points", "turn")
                 + tuple(f"kind_{OPTION_NAMES[k]}" for k in range(O_DRAW, O_EXTEND + 1))
                 + ("laid", "value", "gain", "left") + tuple(f"discard_{d}" for d in DISCARD_FEATURES)
                 + ("discard_wild", "discard_black3", "teacher", "partner_hand", "req", "near", "opp_near",
                    "wilds", "pairs", "left_wilds", "left_pairs", "left_points", "meld_after", "completes",
                    "taken_points", "taken_wilds"))
NH = 32  # hidden units
# what a network was trained on: the features in order, their scales and the hidden layer's size
FEATURE_LAYOUT = hashlib.sha256(repr((FEATURE_NAMES, DF_SCALE.tolist(), NH)).encode()).hexdigest()[:16]
# a network's weights, one float64 row: the inputs' means and standard deviations, the hidden layer's weights
# (NF x NH, row by row) and biases, the output's weights and bias
W_MU = 0
W_SD = W_MU + NF
W_1 = W_SD + NF
W_B1 = W_1 + NF * NH
W_2 = W_B1 + NH
W_B2 = W_2 + NH
NW = W_B2 + 1
assert len(FEATURE_NAMES) == NF
NET_TEACHER = -1  # the `net` knob's value that plays expert's choice (the first round's data)
EXPLORE_BITS = 16  # the observation's random word: the low bits decide to explore, the next ones pick the option

KNOBS = KnobTable(first=USER_SLOT0, end=NPRM)
K_NET = KNOBS.knob(
    "net", 1, 0, float(NET_TEACHER),
    "the network that scores the options: the preset's or its family's own (trained by `canasta-lab train`), or "
    "`teacher`: expert's choice, the first training round's player",
    (("teacher", float(NET_TEACHER)),) + tuple((f, float(i)) for i, f in enumerate(NET_SCOPES)))
K_MARGIN = KNOBS.knob(
    "margin", 0, 1, 0.2,
    "how much more (thousands of points of the hand's margin; results, won 1 and lost -1, for a network fitted "
    "to results, `train --label-value result`) the network must expect of an option than of expert's choice "
    "before playing it instead: its estimates of the options expert seldom plays are noisier "
    "(default where a network plays: the margin `canasta-lab train --install` measured best for it against expert)",
    whole=False)
POINT_NAMES = ("draw", "meld", "ask", "answer", "discard")  # the decision points DP_DRAW .. DP_DISCARD, bit by bit
ALL_POINTS = (1 << N_DP) - 1
assert len(POINT_NAMES) == N_DP
K_POINTS = KNOBS.knob(
    "points", 0, ALL_POINTS, ALL_POINTS,
    "the decision points where the network may depart from expert's choice, a sum of 1 draw, 2 meld, 4 ask, "
    "8 answer, 16 discard (elsewhere expert's choice is played; default where a network plays: the points "
    "`canasta-lab train --install` kept for it)", whole=True)
K_EXPLORE = KNOBS.knob(
    "explore", 0, 1, 0,
    "the share of decisions at which a uniformly random legal option is played instead (self-play data)",
    whole=False)
SINGLE_NET = -1  # `single`: the network may take a pile of one card wherever it expects more of it
SINGLE_EXPERT = 0  # only where expert takes it; N > 0: as the network likes up to turn N of a hand, then as expert
SINGLE_NAMED = (("net", float(SINGLE_NET)), ("expert", float(SINGLE_EXPERT)))
K_SINGLE = KNOBS.knob(
    "single", 1, 1000, float(SINGLE_NET),
    "Buraco, where the pile is always taken whole: where the network may take a pile of one card. `net`: wherever it "
    "expects more of it; `expert`: only where expert takes it (its card laid at once); N: as the network likes up to "
    "turn N of a hand, then as expert. A player that takes the one card and throws one back passes its turn; two "
    "such players pass for ever, the stock never drawn (default where a network plays: `net`, or the setting "
    "`canasta-lab train --install` found its games against itself end with)",
    SINGLE_NAMED, whole=True, needs=("buraco",))


@cached_jit
def context_features_nb(R, obs, x):
    """The decision's context into x (the option's own features left 0): the same for every option."""
    x[:] = 0.0
    x[X_DP + obs[OB_DP] - DP_DRAW] = 1.0
    s = obs[OB_SIDE]
    best = -(1 << 40)
    opp_canastas = 0
    opp_melded = 0
    for t in range(obs[OB_NSIDES]):
        if t != s:
            best = max(best, obs[OB_SCORE + t])
            opp_canastas = max(opp_canastas, obs[OB_CANASTAS + t])
            opp_melded = max(opp_melded, obs[OB_SMELDED + t])
    opp_hand = 1 << 20
    for q in range(obs[OB_PLAYERS]):
        if R[R_SEAT_SIDE + q] != s:
            opp_hand = min(opp_hand, obs[OB_HANDS + q])
    x[X_SCORE] = obs[OB_SCORE + s] / 5000.0
    x[X_LEAD] = (obs[OB_SCORE + s] - best) / 2000.0
    x[X_HAND] = obs[OB_HN] / 15.0
    x[X_OPP_HAND] = opp_hand / 15.0
    x[X_STOCK] = obs[OB_STOCK_N] / 100.0
    x[X_PILE] = obs[OB_PILE_N] / 20.0
    x[X_FROZEN] = 1.0 if obs[OB_FROZEN] != 0 else 0.0
    x[X_MELDED] = 1.0 if obs[OB_MELDED] != 0 else 0.0
    x[X_OPP_MELDED] = 1.0 if opp_melded != 0 else 0.0
    x[X_CANASTAS] = obs[OB_CANASTAS + s] / 3.0
    x[X_OPP_CANASTAS] = opp_canastas / 3.0
    x[X_TURN] = obs[OB_TURN] / 40.0
    partner = 0
    for q in range(obs[OB_PLAYERS]):
        if q != obs[OB_SEAT] and R[R_SEAT_SIDE + q] == s:
            partner = obs[OB_HANDS + q] if partner == 0 else min(partner, obs[OB_HANDS + q])
    x[X_PARTNER] = partner / 15.0
    x[X_REQ] = (obs[OB_REQ] / 120.0) if obs[OB_MELDED] == 0 else 0.0
    opp_near = 0
    canasta = R[R_CANASTA]
    for t in range(obs[OB_NSIDES]):
        near = 0
        for row in range(obs[OB_NM + t]):
            b = meld_row(obs, t, row)
            size = obs[b + F_NAT] + obs[b + F_TWO] + obs[b + F_JOK]
            if obs[b + F_KIND] != 0 and canasta - 2 <= size < canasta:
                near += 1
        if t == s:
            x[X_NEAR] = near / 3.0
        else:
            opp_near = max(opp_near, near)
    x[X_OPP_NEAR] = opp_near / 3.0
    h = np.empty(NR, np.int64)
    for r in range(NR):
        h[r] = hand_count(obs, r)
    w, p, points = makeup_nb(R, h)
    x[X_POINTS] = points / 100.0
    x[X_WILDS] = w / 4.0
    x[X_PAIRS] = p / 5.0


@cached_jit
def makeup_nb(R, h):
    """A hand by rank class (h): its wilds, its natural ranks held twice or more and its card points; the
    context reads the hand as it is, each option the hand it leaves (hand_after_nb)."""
    w = h[RK_2] + h[RK_JK]
    p = 0
    points = 0
    for r in range(NR):
        points += h[r] * R[R_CARDVAL + r]
        if is_natural_meld_rank_nb(r) and h[r] >= 2:
            p += 1
    return w, p, points


@cached_jit
def hand_after_nb(R, obs, opts, i, h, x):
    """The hand by rank class after option i into h (a draw from the stock leaves it as it is: the card is
    unknown; Buraco's sequences too), and what a take brings into x[X_TAKEN_*] and the meld after an action into
    x[X_MELD_AFTER], x[X_COMPLETES]."""
    for r in range(NR):
        h[r] = hand_count(obs, r)
    t = option_kind(opts, i)
    if t == O_DISCARD:
        h[card_rank(option_card(opts, i))] -= 1
    elif t == O_TOP:
        h[card_rank(option_card(opts, i))] += 1
    elif t == O_TAKE:
        top = obs[OB_PILE_TOP]
        pts = 0
        wilds = 0
        for k in range(NK):
            c = obs[OB_PILEK + k]
            if c > 0:
                r = card_rank(k)
                h[r] += c
                pts += c * R[R_CARDVAL + r]
                if is_wild_rank_nb(r):
                    wilds += c
        method = take_method(opts, i)
        if method != TAKE_FREE and top >= 0:
            tr = card_rank(top)
            h[tr] -= 1  # the top card goes to the table
            pts -= R[R_CARDVAL + tr]
            if method == TAKE_M1:
                h[tr] -= 2
            elif method == TAKE_M2:
                h[tr] -= 1
                h[take_wild(opts, i)] -= 1
        x[X_TAKEN_POINTS] = pts / 100.0
        x[X_TAKEN_WILDS] = wilds / 4.0
    elif t == O_NEW:
        h[new_rank(opts, i)] -= new_naturals(opts, i)
        size = new_naturals(opts, i)
        if new_wild(opts, i) >= 0:
            h[new_wild(opts, i)] -= 1
            size += 1
        x[X_MELD_AFTER] = size / R[R_CANASTA]
    elif t == O_ADD:
        b = meld_row(obs, obs[OB_SIDE], add_row(opts, i))
        wr = add_wild(opts, i)
        h[wr if wr >= 0 else obs[b + F_RANK]] -= 1
        size = obs[b + F_NAT] + obs[b + F_TWO] + obs[b + F_JOK]
        x[X_MELD_AFTER] = (size + 1) / R[R_CANASTA]
        x[X_COMPLETES] = 1.0 if size + 1 == R[R_CANASTA] else 0.0
    elif t == O_WILD:
        h[RK_JK] -= wild_jokers(opts, i)
        h[RK_2] -= wild_twos(opts, i)
        x[X_MELD_AFTER] = (wild_jokers(opts, i) + wild_twos(opts, i)) / R[R_CANASTA]
    elif t == O_BLACK3:
        h[RK_3] -= black3_count(opts, i)


@cached_jit
def option_features_nb(R, obs, opts, i, teacher, ctx, x, df, h):
    """Option i's feature vector into x: the context ctx, then the option's own (df: the discard features' room;
    h: the hand after it, by rank class)."""
    x[:] = ctx
    t = option_kind(opts, i)
    if O_DRAW <= t <= O_EXTEND:
        x[X_KIND + t - O_DRAW] = 1.0
    left = obs[OB_HN]
    if t == O_DISCARD:
        k = option_card(opts, i)
        discard_features_nb(R, obs, k, df)
        for j in range(N_DFEAT):
            x[X_DFEAT + j] = df[j] / DF_SCALE[j]
        x[X_WILD] = 1.0 if is_wild_rank_nb(card_rank(k)) else 0.0
        x[X_BLACK3] = 1.0 if is_black3_nb(k) else 0.0
        left -= 1
    elif t == O_TAKE:
        gain = take_gain_nb(obs, opts, i)
        x[X_GAIN] = gain / 20.0
        left += gain
    elif t == O_DRAW or t == O_TOP:
        left += 1
    elif O_NEW <= t <= O_BLACK3 or t == O_WILD:
        laid = hand_cards_laid_nb(opts, i)
        x[X_LAID] = laid / 4.0
        x[X_VALUE] = action_value_nb(R, obs, opts, i) / 100.0
        left -= laid
    elif t == O_SEQ or t == O_EXTEND:  # Buraco: a new sequence lays three cards, an extension one
        laid = MIN_MELD if t == O_SEQ else 1
        x[X_LAID] = laid / 4.0
        left -= laid
    x[X_LEFT] = left / 15.0
    x[X_TEACHER] = 1.0 if i == teacher else 0.0
    hand_after_nb(R, obs, opts, i, h, x)
    w, p, pts = makeup_nb(R, h)
    x[X_LEFT_WILDS] = w / 4.0
    x[X_LEFT_PAIRS] = p / 5.0
    x[X_LEFT_POINTS] = pts / 100.0


@cached_jit
def net_value_nb(W, x, h):
    """The network's output for one feature vector x (W: one row of NETS; h: room for the hidden layer)."""
    for j in range(NH):
        h[j] = W[W_B1 + j]
    for f in range(NF):
        z = (x[f] - W[W_MU + f]) / W[W_SD + f]
        if z != 0.0:
            row = W_1 + f * NH
            for j in range(NH):
                h[j] += z * W[row + j]
    out = W[W_B2]
    for j in range(NH):
        if h[j] > 0.0:
            out += h[j] * W[W_2 + j]
    return out


@cached_jit
def teacher_choice_nb(R, obs, opts, n, prm):
    """expert's choice (the knobs below USER_SLOT0 are expert's at the variant), on a copy of the options."""
    own = np.empty((n, OPT_FIELDS), np.int64)
    own[:, :] = opts[:n, :]
    return heuristic_decide_nb(R, obs, own, n, prm)


@cached_jit
def options_features_nb(R, obs, opts, n, teacher, X):
    """Every option's feature vector into X[:n]."""
    ctx = np.empty(NF)
    context_features_nb(R, obs, ctx)
    df = np.empty(N_DFEAT, np.int64)
    h = np.empty(NR, np.int64)
    for i in range(n):
        option_features_nb(R, obs, opts, i, teacher, ctx, X[i], df, h)


@cached_jit
def chosen_features_nb(R, obs_rows, opt_rows, first_opt, ns, choices, prm, X):
    """The training rows (sim/analysis/selfplay.py): row j of X is the feature vector of the option chosen at traced
    decision j, whose observation is obs_rows[j] and options opt_rows[first_opt[j]:first_opt[j] + ns[j]]; prm is
    the players' knob vector (expert's below USER_SLOT0, for the teacher feature)."""
    ctx = np.empty(NF)
    df = np.empty(N_DFEAT, np.int64)
    h = np.empty(NR, np.int64)
    for j in range(obs_rows.shape[0]):
        n = ns[j]
        obs = obs_rows[j].copy()
        opts = np.empty((n, OPT_FIELDS), np.int64)
        opts[:, :] = opt_rows[first_opt[j]:first_opt[j] + n, :]
        teacher = teacher_choice_nb(R, obs, opts, n, prm)
        context_features_nb(R, obs, ctx)
        option_features_nb(R, obs, opts, choices[j], teacher, ctx, X[j], df, h)


@cached_jit
def learned_choice_nb(R, obs, opts, n, prm, W):
    """explore: a random option at that share of decisions; else the best option by network W (one row of NETS),
    where it beats expert's choice by `margin` (ties: expert's choice, then the first), a one-card pile's take left
    out where `single` bars it (after turn N; at every turn with `single=expert`) and expert does not take it;
    expert's choice where W is empty (`net=teacher`)."""
    rnd = obs[OB_RAND]
    mask = (1 << EXPLORE_BITS) - 1
    if prm[K_EXPLORE] > 0.0 and (rnd & mask) < prm[K_EXPLORE] * (1 << EXPLORE_BITS):
        return (((rnd >> EXPLORE_BITS) & mask) * n) >> EXPLORE_BITS
    teacher = teacher_choice_nb(R, obs, opts, n, prm)
    if W.shape[0] == 0 or not (int(prm[K_POINTS]) >> (obs[OB_DP] - DP_DRAW)) & 1:
        return teacher
    X = np.empty((n, NF))
    options_features_nb(R, obs, opts, n, teacher, X)
    h = np.empty(NH)
    best = teacher
    top = net_value_nb(W, X[teacher], h) + prm[K_MARGIN]
    single = int(prm[K_SINGLE])
    barred = single != SINGLE_NET and obs[OB_PILE_N] == 1 and obs[OB_TURN] > single
    for i in range(n):
        if barred and i != teacher and option_kind(opts, i) == O_TAKE:
            continue  # `single`: this pile of one card only where expert takes it
        v = net_value_nb(W, X[i], h)
        if v > top:
            top = v
            best = i
    return best


NO_NET = np.zeros(0, np.float64)  # `net=teacher`: no network, expert's choice


@cached_jit
def learned_decide_nb(R, obs, opts, n, prm):
    """`learned`: the network of knob `net` (the preset's or its family's by default) scores the options."""
    net = int(prm[K_NET])
    if net < 0 or net >= NETS.shape[0]:
        return learned_choice_nb(R, obs, opts, n, prm, NO_NET)
    return learned_choice_nb(R, obs, opts, n, prm, NETS[net])


def plays_network(prm: np.ndarray) -> bool:
    """Whether a knob vector of `learned` plays a network (else expert's choice, `net=teacher`)."""
    return 0 <= int(prm[K_NET]) < NETS.shape[0]


def round_kernel(W: np.ndarray) -> object:
    """learned's decision over network W, compiled in this process (a training round's player: the package's
    networks are constants of learned_decide_nb, sim/analysis/selfplay.py plays the round's before installing it)."""
    weights = np.ascontiguousarray(W, np.float64)

    def decide(R, obs, opts, n, prm):
        return learned_choice_nb(R, obs, opts, n, prm, weights)

    fn = process_jit(decide)
    if hasattr(fn, "compile"):  # not under NUMBA_DISABLE_JIT
        fn.compile(DECIDE_SIG)
    return fn


DESCRIPTION = ("scores every legal option with a small neural network of what its seat sees (the scores, the hands' "
               "and the pile's sizes, the option's cards and the hand it leaves, expert's choice) and plays the best; "
               "networks trained by self-play (`canasta-lab train`, docs/strategies.md)")


def learned_spec() -> StrategySpec:
    """`learned` as the library registers it: its knobs, expert's below them, each network where it was installed (a
    preset, or a family: a preset's own first)."""
    spec = StrategySpec("learned", learned_decide_nb, DESCRIPTION, teacher_knobs() + KNOBS.knobs)
    at = {}
    for scope in NET_SCOPES:
        margin, points, single = network_setting(NETWORKS[scope]["provenance"])
        at[scope] = {"net": scope, "margin": margin, "points": points} | (
            {"single": single_name(single)} if single != SINGLE_NET else {})
    return spec.with_defaults("learned", DESCRIPTION, at=at)


def network_setting(provenance: dict) -> tuple[float, int, int]:
    """The margin, decision points and `single` a network plays at, from its provenance: every point where its
    install had no trials of points (the networks installed before them), `single=net` where it had no trial of
    `single` (every network installed before it)."""
    return provenance["margin"], provenance.get("points", ALL_POINTS), provenance.get("single", SINGLE_NET)


def single_name(single: int) -> str | int:
    """A `single` value as the knob takes it: `net`, `expert` or the turn."""
    return next((name for name, v in SINGLE_NAMED if v == single), single)


def teacher_knobs() -> tuple:
    """expert's knobs, with expert's defaults by family and preset: the teacher whose choice is a feature. Setting
    one (`learned:freeze=15`) changes what the teacher plays, so a question's answer can be checked with `learned`
    as it is with expert; the network still departs from that choice where it expects `margin` more."""
    return REGISTRY["expert"].knobs


def check_networks() -> None:
    """Every network has this layout's length and was trained on these features (else a clear error, not a guess)."""
    for scope in NET_SCOPES:
        entry = NETWORKS[scope]
        if entry["features"] != FEATURE_LAYOUT or len(_weights(entry)) != NW:
            raise StrategyError(f"the {scope} network of strategies/learned_nets.py was trained on another feature "
                                f"layout; train it again: {entry['provenance']['command']}")
        if "margin" not in entry["provenance"]:
            raise StrategyError(f"the {scope} network of strategies/learned_nets.py has no margin measured for it; "
                                f"install it again: {entry['provenance']['command']}")


check_networks()
