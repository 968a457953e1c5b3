"""The hand, the game and the batch (§1.1, §1.13): hands until a side reaches the target with a
unique lead (R-03), the deal passing as the rules say, the simulator's caps counted (R-150), and a
batch of games on duplicate deals. This module reads `target_score`, `target_strict`,
`dealer_rotation`, `max_turns_per_hand`, `max_hands_per_game` and `sequences` (Buraco's turn, not the
rank-meld one)."""

import numpy as np

from .buraco import buraco_turn_nb
from .deal import deal_hand_nb
from .invariants import check_nb
from .jit import engine_jit
from .layout import (
    CHECK_BETWEEN_TURNS,
    CHECK_SCORED,
    END_CAP,
    EV_GAMEEND,
    EV_HANDEND,
    G_CAPPED_GAME,
    G_CAPPED_HANDS,
    G_DEAL,
    G_DECISIONS,
    G_GAME,
    G_NHANDS,
    G_SCORE,
    G_TURNS,
    G_WINNER,
    H_ASKS,
    H_B3DISC,
    H_CANK,
    H_COMP,
    H_CONCEALED,
    H_CUM,
    H_DEALER,
    H_FREEZES,
    H_GAME,
    H_HAND,
    H_OUT,
    H_PICKUPS,
    H_REASON,
    H_SCOUNT,
    H_TURNS,
    H_YES,
    HC_FN,
    HC_FNB,
    HF,
    MAXS,
    NC,
    NCKR,
    NSC,
    R_DEALER_DIR,
    R_MAX_HANDS,
    R_MAX_TURNS,
    R_NSIDES,
    R_PLAYERS,
    R_SEQ,
    R_TARGET,
    R_TARGET_STRICT,
    S_ASKS,
    S_B3DISC,
    S_CAPPED_GAME,
    S_CAPPED_HANDS,
    S_CHECK,
    S_CONCEALED,
    S_CUR,
    S_DEAL,
    S_DEALER,
    S_DECISIONS,
    S_DRNG,
    S_ENDED,
    S_ERR,
    S_FREEZES,
    S_GAME,
    S_HANDNO,
    S_NHANDS,
    S_OUT_PLAYER,
    S_PICKUPS,
    S_RNG,
    S_SEED,
    S_TRACE,
    S_TRACE_BASE,
    S_TURN,
    S_TURNS_TOTAL,
    S_WINNER,
    S_YES,
    SD_CAN,
    SD_COMP,
    SD_COUNT,
    SD_CUM,
    TURN_START,
)
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
    n = R[R_PLAYERS]
    while st[S_ENDED] == 0 and st[S_ERR] == 0:
        if st[S_TURN] >= R[R_MAX_TURNS]:
            st[S_ENDED] = END_CAP
            st[S_CAPPED_HANDS] += 1
            break
        if R[R_SEQ] != 0:
            buraco_turn_nb(R, S, F, p, np.int64(TURN_START), np.int64(0))  # Buraco's own turn (§3.10)
        else:
            play_turn_nb(R, S, F, p)
        p = (p + 1) % n


@separate
@engine_jit
def resume_hand_nb(R, S, F, seat, dp, i):
    """The hand played on to its end from a decision already asked, and scored: `seat` chose option i
    of S.opts at decision point dp. A search strategy's rollout on a sampled state (sample.py)."""
    st = S.st
    if R[R_SEQ] != 0:
        buraco_turn_nb(R, S, F, st[S_CUR], dp, i)
    else:
        resume_turn_nb(R, S, F, seat, dp, i)
    if st[S_ENDED] == 0 and st[S_ERR] == 0:
        play_turns_nb(R, S, F, (st[S_CUR] + 1) % R[R_PLAYERS])
    if st[S_ERR] == 0:
        score_hand_nb(R, S)


@separate
@engine_jit
def play_hand_nb(R, S, F):
    """Deal, turns until the hand ends (out, stock, or the turn cap), score."""
    st = S.st
    deal_hand_nb(R, S)
    if st[S_CHECK] != 0:
        check_nb(R, S, CHECK_BETWEEN_TURNS)
    play_turns_nb(R, S, F, st[S_CUR])
    if st[S_ERR] != 0:
        return
    score_hand_nb(R, S)
    st[S_TURNS_TOTAL] += st[S_TURN]
    ei = log_nb(S, EV_HANDEND, st[S_HANDNO], st[S_ENDED], st[S_OUT_PLAYER], st[S_CONCEALED], 0)
    if ei >= 0:
        for s in range(R[R_NSIDES]):
            for c in range(NC):
                logc_nb(S, ei, S.side[s, SD_COMP + c])
        for s in range(R[R_NSIDES]):
            logc_nb(S, ei, S.side[s, SD_CUM])
    if st[S_CHECK] != 0:
        check_nb(R, S, CHECK_SCORED)


@engine_jit
def record_hand_nb(R, S, row):
    """One row of the hands table: how the hand ended, its counts, every side's components, and each
    side's canastas by kind and counts (who took the piles, froze, asked: a profile reads them per side)."""
    st = S.st
    row[H_GAME] = st[S_GAME]
    row[H_HAND] = st[S_HANDNO]
    row[H_DEALER] = st[S_DEALER]
    row[H_REASON] = st[S_ENDED]
    row[H_OUT] = st[S_OUT_PLAYER]
    row[H_CONCEALED] = st[S_CONCEALED]
    row[H_TURNS] = st[S_TURN]
    row[H_PICKUPS] = st[S_PICKUPS]
    row[H_FREEZES] = st[S_FREEZES]
    row[H_B3DISC] = st[S_B3DISC]
    row[H_ASKS] = st[S_ASKS]
    row[H_YES] = st[S_YES]
    for s in range(MAXS):
        for c in range(NC):
            row[H_COMP + s * NC + c] = S.side[s, SD_COMP + c] if s < R[R_NSIDES] else 0
        row[H_CUM + s] = S.side[s, SD_CUM] if s < R[R_NSIDES] else 0
        for k in range(NCKR):
            row[H_CANK + s * NCKR + k] = S.side[s, SD_CAN + k] if s < R[R_NSIDES] else 0
        for c in range(NSC):
            row[H_SCOUNT + s * NSC + c] = S.side[s, SD_COUNT + c] if s < R[R_NSIDES] else 0


@engine_jit(inline="always")
def best_score_nb(R, S):
    """The highest cumulative score of any side."""
    best = S.side[0, SD_CUM]
    for s in range(1, R[R_NSIDES]):
        if S.side[s, SD_CUM] > best:
            best = S.side[s, SD_CUM]
    return best


@engine_jit(inline="always")
def unique_leader_nb(R, S):
    """The one side holding the best score, or -1 on a tie for the lead (R-03)."""
    best = best_score_nb(R, S)
    win = -1
    for s in range(R[R_NSIDES]):
        if S.side[s, SD_CUM] == best:
            if win >= 0:
                return -1
            win = s
    return win


@engine_jit(inline="always")
def game_over_nb(R, S):
    """The winning side once a side has reached the target with a unique lead (R-03), else -1."""
    best = best_score_nb(R, S)
    reached = best > R[R_TARGET] if R[R_TARGET_STRICT] != 0 else best >= R[R_TARGET]
    return unique_leader_nb(R, S) if reached else -1


@separate
@engine_jit
def play_game_nb(R, S, F, seed, game, deal):
    """One game to the target (§1.13): cumulative scores, score-dependent minimum, ties replay."""
    st = S.st
    n = R[R_PLAYERS]
    st[S_SEED] = seed
    st[S_GAME] = game
    st[S_DEAL] = deal
    st[S_ERR] = 0
    st[S_NHANDS] = 0
    st[S_CAPPED_HANDS] = 0
    st[S_CAPPED_GAME] = 0
    st[S_DECISIONS] = 0
    st[S_TURNS_TOTAL] = 0
    st[S_WINNER] = -1
    for s in range(MAXS):
        S.side[s, SD_CUM] = 0
    seed_rng_nb(st, np.int64(S_RNG), seed, game, np.int64(PLAY_STREAM))
    seed_rng_nb(st, np.int64(S_DRNG), seed, deal, np.int64(0))
    st[S_DEALER] = below_nb(st, np.int64(S_DRNG), n)
    hand = 0
    while True:
        hand += 1
        st[S_HANDNO] = hand
        play_hand_nb(R, S, F)
        if st[S_ERR] != 0:
            return
        record_hand_nb(R, S, S.hrec[hand - 1])
        st[S_NHANDS] = hand
        win = game_over_nb(R, S)
        if win >= 0:
            st[S_WINNER] = win
            break
        if hand >= R[R_MAX_HANDS]:
            st[S_CAPPED_GAME] = 1
            st[S_WINNER] = unique_leader_nb(R, S)
            break
        st[S_DEALER] = (st[S_DEALER] + R[R_DEALER_DIR] + n) % n
    ei = log_nb(S, EV_GAMEEND, st[S_WINNER], st[S_CAPPED_GAME], 0, 0, 0)
    if ei >= 0:
        for s in range(R[R_NSIDES]):
            logc_nb(S, ei, S.side[s, SD_CUM])


@engine_jit
def seat_game_nb(R, S, base_fns, base_prm, g):
    """Duplicate deals: game g replays deal g // nrot with the strategies rotated g % nrot seats.
    base_fns[q] = (function slot, base slot or -1) of the strategy at position q of the list."""
    n = R[R_PLAYERS]
    nrot = R[R_NSIDES]
    rot = g % nrot
    S.st[S_TRACE] = 0
    for p in range(n):
        q = (p - rot + n) % n
        if (S.st[S_TRACE_BASE] >> q) & 1:
            S.st[S_TRACE] |= 1 << p
        S.hand[p, HC_FN] = base_fns[q, 0]
        S.hand[p, HC_FNB] = base_fns[q, 1]
        for j in range(S.prm.shape[1]):
            S.prm[p, j] = base_prm[q, j]
    return g // nrot


@engine_jit
def play_batch_nb(R, S, F, base_fns, base_prm, seed, g0, ng, out_g, out_h, check):
    """Play games g0 .. g0+ng-1. Fills one row per game in out_g and, while room lasts, one row per
    hand in out_h. Returns the number of hand rows (or -(rows needed) when out_h was too small),
    and leaves S.st[S_ERR] set if a game failed."""
    nsides = R[R_NSIDES]
    S.st[S_CHECK] = check
    nh = 0
    overflow = False
    for i in range(ng):
        g = g0 + i
        deal = seat_game_nb(R, S, base_fns, base_prm, g)
        play_game_nb(R, S, F, seed, g, deal)
        if S.st[S_ERR] != 0:
            return nh
        row = out_g[i]
        row[G_GAME] = g
        row[G_DEAL] = deal
        row[G_WINNER] = S.st[S_WINNER]
        row[G_NHANDS] = S.st[S_NHANDS]
        row[G_CAPPED_HANDS] = S.st[S_CAPPED_HANDS]
        row[G_CAPPED_GAME] = S.st[S_CAPPED_GAME]
        row[G_DECISIONS] = S.st[S_DECISIONS]
        row[G_TURNS] = S.st[S_TURNS_TOTAL]
        for s in range(MAXS):
            row[G_SCORE + s] = S.side[s, SD_CUM] if s < nsides else 0
        for h in range(S.st[S_NHANDS]):
            if nh < out_h.shape[0]:
                for f in range(HF):
                    out_h[nh, f] = S.hrec[h, f]
            else:
                overflow = True
            nh += 1
    if overflow and out_h.shape[0] > 0:
        return -nh
    return nh
