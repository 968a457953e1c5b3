"""The hand, the game and the batch (§1.1, §1.13): hands until a side reaches the target with a
unique lead (R-03), the deal passing as the rules say, the simulator's caps counted (R-150), and a
batch of games on duplicate deals. This module reads `target_score`, `target_strict`,
`dealer_rotation`, `max_turns_per_hand`, `max_hands_per_game` and `sequences` (Buraco's turn, not the
rank-meld one)."""

import numpy as np

from . import layout as L
from .buraco import buraco_turn_nb
from .deal import deal_hand_nb
from .invariants import check_nb
from .jit import engine_jit
from .link import separate
from .log import log_nb, logc_nb
from .rng import below_nb, seed_rng_nb
from .score import score_hand_nb
from .turn import play_turn_nb, resume_turn_nb

PLAY_STREAM = 1 << 40  # key of the strategies' random stream, apart from the deal streams


@engine_jit(inline="always")
def play_turns_nb(R, S, F, p):
    """Turns from seat p on, in order, until the hand ends: out, the stock, or the turn cap (R-150)."""
    st = S.st
    n = R[L.R_PLAYERS]
    while st[L.S_ENDED] == 0 and st[L.S_ERR] == 0:
        if st[L.S_TURN] >= R[L.R_MAX_TURNS]:
            st[L.S_ENDED] = L.END_CAP
            st[L.S_CAPPED_HANDS] += 1
            break
        if R[L.R_SEQ] != 0:
            buraco_turn_nb(R, S, F, p, np.int64(L.TURN_START), np.int64(0))  # Buraco's own turn (§3.10)
        else:
            play_turn_nb(R, S, F, p)
        p = (p + 1) % n


@separate
@engine_jit
def resume_hand_nb(R, S, F, seat, dp, i):
    """The hand played on to its end from a decision already asked, and scored: `seat` chose option i
    of S.opts at decision point dp. A search strategy's rollout on a sampled state (sample.py)."""
    st = S.st
    if R[L.R_SEQ] != 0:
        buraco_turn_nb(R, S, F, st[L.S_CUR], dp, i)
    else:
        resume_turn_nb(R, S, F, seat, dp, i)
    if st[L.S_ENDED] == 0 and st[L.S_ERR] == 0:
        play_turns_nb(R, S, F, (st[L.S_CUR] + 1) % R[L.R_PLAYERS])
    if st[L.S_ERR] == 0:
        score_hand_nb(R, S)


@separate
@engine_jit
def play_hand_nb(R, S, F):
    """Deal, turns until the hand ends (out, stock, or the turn cap), score."""
    st = S.st
    deal_hand_nb(R, S)
    check_nb(R, S, L.CHECK_BETWEEN_TURNS)
    play_turns_nb(R, S, F, st[L.S_CUR])
    if st[L.S_ERR] != 0:
        return
    score_hand_nb(R, S)
    st[L.S_TURNS_TOTAL] += st[L.S_TURN]
    ei = log_nb(S, L.EV_HANDEND, st[L.S_HANDNO], st[L.S_ENDED], st[L.S_OUT_PLAYER], st[L.S_CONCEALED], 0)
    if ei >= 0:
        for s in range(R[L.R_NSIDES]):
            for c in range(L.NC):
                logc_nb(S, ei, S.side[s, L.SD_COMP + c])
        for s in range(R[L.R_NSIDES]):
            logc_nb(S, ei, S.side[s, L.SD_CUM])
    check_nb(R, S, L.CHECK_SCORED)


@engine_jit
def record_hand_nb(R, S, row):
    """One row of the hands table: how the hand ended, its counts, every side's components, and each
    side's canastas by kind and counts (who took the piles, froze, asked: a profile reads them per side)."""
    st = S.st
    row[L.H_GAME] = st[L.S_GAME]
    row[L.H_HAND] = st[L.S_HANDNO]
    row[L.H_DEALER] = st[L.S_DEALER]
    row[L.H_REASON] = st[L.S_ENDED]
    row[L.H_OUT] = st[L.S_OUT_PLAYER]
    row[L.H_CONCEALED] = st[L.S_CONCEALED]
    row[L.H_TURNS] = st[L.S_TURN]
    row[L.H_PICKUPS] = st[L.S_PICKUPS]
    row[L.H_FREEZES] = st[L.S_FREEZES]
    row[L.H_B3DISC] = st[L.S_B3DISC]
    row[L.H_ASKS] = st[L.S_ASKS]
    row[L.H_YES] = st[L.S_YES]
    for s in range(L.MAXS):
        for c in range(L.NC):
            row[L.H_COMP + s * L.NC + c] = S.side[s, L.SD_COMP + c] if s < R[L.R_NSIDES] else 0
        row[L.H_CUM + s] = S.side[s, L.SD_CUM] if s < R[L.R_NSIDES] else 0
        for k in range(L.NCKR):
            row[L.H_CANK + s * L.NCKR + k] = S.side[s, L.SD_CAN + k] if s < R[L.R_NSIDES] else 0
        for c in range(L.NSC):
            row[L.H_SCOUNT + s * L.NSC + c] = S.side[s, L.SD_COUNT + c] if s < R[L.R_NSIDES] else 0


@engine_jit(inline="always")
def best_score_nb(R, S):
    """The highest cumulative score of any side."""
    best = S.side[0, L.SD_CUM]
    for s in range(1, R[L.R_NSIDES]):
        if S.side[s, L.SD_CUM] > best:
            best = S.side[s, L.SD_CUM]
    return best


@engine_jit(inline="always")
def unique_leader_nb(R, S):
    """The one side holding the best score, or -1 on a tie for the lead (R-03)."""
    best = best_score_nb(R, S)
    win = -1
    for s in range(R[L.R_NSIDES]):
        if S.side[s, L.SD_CUM] == best:
            if win >= 0:
                return -1
            win = s
    return win


@engine_jit(inline="always")
def game_over_nb(R, S):
    """The winning side once a side has reached the target with a unique lead (R-03), else -1."""
    best = best_score_nb(R, S)
    reached = best > R[L.R_TARGET] if R[L.R_TARGET_STRICT] != 0 else best >= R[L.R_TARGET]
    return unique_leader_nb(R, S) if reached else -1


@separate
@engine_jit
def play_game_nb(R, S, F, seed, game, deal):
    """One game to the target (§1.13): cumulative scores, score-dependent minimum, ties replay."""
    st = S.st
    n = R[L.R_PLAYERS]
    st[L.S_SEED] = seed
    st[L.S_GAME] = game
    st[L.S_DEAL] = deal
    st[L.S_ERR] = 0
    st[L.S_NHANDS] = 0
    st[L.S_CAPPED_HANDS] = 0
    st[L.S_CAPPED_GAME] = 0
    st[L.S_DECISIONS] = 0
    st[L.S_TURNS_TOTAL] = 0
    st[L.S_WINNER] = -1
    for s in range(L.MAXS):
        S.side[s, L.SD_CUM] = 0
    seed_rng_nb(st, np.int64(L.S_RNG), seed, game, np.int64(PLAY_STREAM))
    seed_rng_nb(st, np.int64(L.S_DRNG), seed, deal, np.int64(0))
    st[L.S_DEALER] = below_nb(st, np.int64(L.S_DRNG), n)
    hand = 0
    while True:
        hand += 1
        st[L.S_HANDNO] = hand
        play_hand_nb(R, S, F)
        if st[L.S_ERR] != 0:
            return
        record_hand_nb(R, S, S.hrec[hand - 1])
        st[L.S_NHANDS] = hand
        win = game_over_nb(R, S)
        if win >= 0:
            st[L.S_WINNER] = win
            break
        if hand >= R[L.R_MAX_HANDS]:
            st[L.S_CAPPED_GAME] = 1
            st[L.S_WINNER] = unique_leader_nb(R, S)
            break
        st[L.S_DEALER] = (st[L.S_DEALER] + R[L.R_DEALER_DIR] + n) % n
    ei = log_nb(S, L.EV_GAMEEND, st[L.S_WINNER], st[L.S_CAPPED_GAME], 0, 0, 0)
    if ei >= 0:
        for s in range(R[L.R_NSIDES]):
            logc_nb(S, ei, S.side[s, L.SD_CUM])


@engine_jit
def seat_game_nb(R, S, base_fns, base_prm, g):
    """Duplicate deals: game g replays deal g // nrot with the strategies rotated g % nrot seats.
    base_fns[q] = (function slot, base slot or -1) of the strategy at position q of the list."""
    n = R[L.R_PLAYERS]
    nrot = R[L.R_NSIDES]
    rot = g % nrot
    S.st[L.S_TRACE] = 0
    for p in range(n):
        q = (p - rot + n) % n
        if (S.st[L.S_TRACE_BASE] >> q) & 1:
            S.st[L.S_TRACE] |= 1 << p
        S.hand[p, L.HC_FN] = base_fns[q, 0]
        S.hand[p, L.HC_FNB] = base_fns[q, 1]
        for j in range(S.prm.shape[1]):
            S.prm[p, j] = base_prm[q, j]
    return g // nrot


@engine_jit
def play_batch_nb(R, S, F, base_fns, base_prm, seed, g0, ng, out_g, out_h, check):
    """Play games g0 .. g0+ng-1. Fills one row per game in out_g and, while room lasts, one row per
    hand in out_h. Returns the number of hand rows (or -(rows needed) when out_h was too small),
    and leaves S.st[S_ERR] set if a game failed."""
    nsides = R[L.R_NSIDES]
    S.st[L.S_CHECK] = check
    nh = 0
    overflow = False
    for i in range(ng):
        g = g0 + i
        deal = seat_game_nb(R, S, base_fns, base_prm, g)
        play_game_nb(R, S, F, seed, g, deal)
        if S.st[L.S_ERR] != 0:
            return nh
        row = out_g[i]
        row[L.G_GAME] = g
        row[L.G_DEAL] = deal
        row[L.G_WINNER] = S.st[L.S_WINNER]
        row[L.G_NHANDS] = S.st[L.S_NHANDS]
        row[L.G_CAPPED_HANDS] = S.st[L.S_CAPPED_HANDS]
        row[L.G_CAPPED_GAME] = S.st[L.S_CAPPED_GAME]
        row[L.G_DECISIONS] = S.st[L.S_DECISIONS]
        row[L.G_TURNS] = S.st[L.S_TURNS_TOTAL]
        for s in range(L.MAXS):
            row[L.G_SCORE + s] = S.side[s, L.SD_CUM] if s < nsides else 0
        for h in range(S.st[L.S_NHANDS]):
            if nh < out_h.shape[0]:
                for f in range(L.HF):
                    out_h[nh, f] = S.hrec[h, f]
            else:
                overflow = True
            nh += 1
    if overflow and out_h.shape[0] > 0:
        return -nh
    return nh
