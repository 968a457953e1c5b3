"""The turn, hand and game kernels of the rank-meld Canasta family (VARIANTS.md §1, §3.1-3.4).

Every rule value comes from the packed rules array R; the state S is a NamedTuple of 16 arrays.
A strategy is asked (choose_nb: build the observation, then call the seat's function from the run's table F)
only where VARIANTS.md §6 puts a decision and only when there is more than one legal option; everything
else is forced here.
"""

from .cards import is_black3_nb, is_red3_nb, is_wild_rank_nb, rank_of_nb, side_of_nb
from .goout import W_MEX, W_MN, W_MW, W_TH, can_go_out_w_nb
from .invariants import check_nb
from .jit import engine_jit
from .layout import (
    DEFER,
    DP_ANSWER,
    DP_ASK,
    DP_DISCARD,
    DP_DRAW,
    DP_MELD,
    END_CAP,
    END_OUT,
    END_STOCK,
    ERR_CHOICE,
    ERR_INVARIANT,
    ERR_STUCK,
    EV_ASK,
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_GAMEEND,
    EV_GOOUT,
    EV_HANDEND,
    EV_MELD,
    EV_TAKE,
    F_JOK,
    F_KIND,
    F_NAT,
    F_PLAYER,
    F_RANK,
    F_TURN,
    F_TWO,
    F_VAL,
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
    H_TURNS,
    H_YES,
    HC_FN,
    HC_FNB,
    HC_LAID,
    HC_N,
    HC_R,
    HF,
    JOKER,
    MASK_M1,
    MASK_M2,
    MASK_M3,
    MAXP,
    MAXS,
    MK_BLACK3,
    MK_RANK,
    NC,
    NK,
    NR,
    O_ADD,
    O_ASK,
    O_BLACK3,
    O_DISCARD,
    O_DRAW,
    O_END,
    O_NEW,
    O_NO,
    O_NOASK,
    O_STOP,
    O_TAKE,
    O_YES,
    R_ASK,
    R_B3MAX,
    R_B3MIN,
    R_CARDVAL,
    R_CONC_BONUS,
    R_CONC_PARTNER_UNMELDED,
    R_CONC_WAIVE,
    R_DEALER_DIR,
    R_DECKS,
    R_DRAW,
    R_GO_BONUS,
    R_GO_CANASTAS,
    R_HAND,
    R_JOKERS,
    R_LAST_R3_MELD,
    R_MAX_HANDS,
    R_MAX_TURNS,
    R_MAX_WILD,
    R_MIN_NAT,
    R_MIX_BONUS,
    R_NAT_BONUS,
    R_NSIDES,
    R_ONE_CARD,
    R_PACK,
    R_PLAYERS,
    R_PM_FROZEN,
    R_PM_PREMELD,
    R_PM_UNFROZEN,
    R_RED3_NEG,
    R_RED3TAB,
    R_TARGET,
    R_TARGET_STRICT,
    R_UNTAKE,
    R_UPCARD,
    S_ADDED_OLD,
    S_ANSWER,
    S_ASKER,
    S_ASKS,
    S_B3DISC,
    S_BLOCK,
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
    S_ERR_A,
    S_ERR_B,
    S_ERR_C,
    S_EV_N,
    S_EVC_N,
    S_FREEZES,
    S_FROZEN,
    S_GAME,
    S_HANDNO,
    S_INCOMING,
    S_LAID0,
    S_LAIDT,
    S_LASTR3,
    S_NHANDS,
    S_OUT_PLAYER,
    S_PEND,
    S_PICKUPS,
    S_PILE_N,
    S_PILE_R3,
    S_PRE,
    S_RNG,
    S_SEED,
    S_SNAP_EV,
    S_SNAP_EVC,
    S_SNAP_FROZEN,
    S_SNAP_NM,
    S_SNAP_PILE,
    S_SNAP_PILE_R3,
    S_STOCK_N,
    S_TOOK,
    S_TRACE,
    S_TRACE_BASE,
    S_TRACE_DPM,
    S_TRACE_N,
    S_TRACE_ON,
    S_TURN,
    S_TURNS_TOTAL,
    S_WINNER,
    S_WORK,
    S_YES,
    SD_COMP,
    SD_CUM,
    SD_CUM0,
    SD_MELDED,
    SD_MOR,
    SD_NM,
    SD_RED3,
    SD_REQ,
    T_CHOICE,
    T_DP,
    T_GAME,
    T_N,
    T_OBS,
    T_OPT0,
    T_ROW,
    T_SEAT,
    UNTAKE_BLACK3,
    UNTAKE_WILD,
)
from .observe import observe_nb
from .opening import max_meld_value_nb
from .ops import (
    canastas_nb,
    hadd_nb,
    hand_value_nb,
    hdel_nb,
    htake_rank_nb,
    lay_red3_nb,
    log_nb,
    logc_nb,
    meld_new_nb,
    meld_put_nb,
    msize_nb,
    pop_stock_nb,
    requirement_nb,
)
from .rng import below_nb, seed_rng_nb

# ------------------------------------------------------------------------------------------------
# Dealing and red threes
# ------------------------------------------------------------------------------------------------


@engine_jit
def expose_nb(R, S, p, k):
    """EXPOSE-R3 (§1.2) for red three k already out of p's hand. Returns 1 when a replacement
    was needed but the stock was empty."""
    s = side_of_nb(R, p)
    cur = k
    while True:
        ei = lay_red3_nb(S, p, cur, s)
        if S.st[S_STOCK_N] == 0:
            return 1
        rep = pop_stock_nb(S)
        if ei >= 0:
            S.ev[ei, 3] = rep
        if is_red3_nb(rep):
            cur = rep
            continue
        hadd_nb(S, p, rep)
        return 0


@engine_jit
def deal_hand_nb(R, S):
    st = S.st
    n = R[R_PLAYERS]
    nsides = R[R_NSIDES]
    for p in range(MAXP):
        S.hand[p, HC_N] = 0
        S.hand[p, HC_LAID] = 0
        for k in range(NK):
            S.hand[p, k] = 0
        for r in range(NR):
            S.hand[p, HC_R + r] = 0
    for s in range(MAXS):
        S.side[s, SD_NM] = 0
        S.side[s, SD_RED3] = 0
        S.side[s, SD_MELDED] = 0
        for r in range(NR):
            S.side[s, SD_MOR + r] = -1
        S.side[s, SD_CUM0] = S.side[s, SD_CUM]
        if s < nsides:
            S.side[s, SD_REQ] = requirement_nb(R, S.side[s, SD_CUM])
    st[S_PILE_N] = 0
    st[S_FROZEN] = 0
    st[S_BLOCK] = -1
    st[S_PILE_R3] = 0
    st[S_ENDED] = 0
    st[S_OUT_PLAYER] = -1
    st[S_CONCEALED] = 0
    st[S_TURN] = 0
    st[S_PICKUPS] = 0
    st[S_FREEZES] = 0
    st[S_B3DISC] = 0
    st[S_ASKS] = 0
    st[S_YES] = 0
    # the shuffle depends on (seed, deal, hand) only, so rotated seatings see the same cards
    seed_rng_nb(st, S_DRNG, st[S_SEED], st[S_DEAL], st[S_HANDNO])
    i = 0
    for _deck in range(R[R_DECKS]):
        for k in range(52):
            S.stock[i] = k
            i += 1
    for _j in range(R[R_JOKERS]):
        S.stock[i] = JOKER
        i += 1
    pack = R[R_PACK]
    for j in range(pack - 1, 0, -1):
        x = below_nb(st, S_DRNG, j + 1)
        t = S.stock[j]
        S.stock[j] = S.stock[x]
        S.stock[x] = t
    st[S_STOCK_N] = pack
    hs = R[R_HAND]
    for p in range(n):
        for _j in range(hs):
            hadd_nb(S, p, pop_stock_nb(S))
    first = (st[S_DEALER] + 1) % n
    if R[R_UPCARD] != 0:
        while True:
            c = pop_stock_nb(S)
            S.pile[st[S_PILE_N]] = c
            st[S_PILE_N] += 1
            r = rank_of_nb(c)
            if is_wild_rank_nb(r) or is_red3_nb(c):
                st[S_FROZEN] = 1
                if is_red3_nb(c):
                    st[S_PILE_R3] += 1
                continue
            if is_black3_nb(c):
                st[S_BLOCK] = first  # blocks the first player only, no freeze
            break
    ei = log_nb(S, EV_DEAL, st[S_DEALER], hs, st[S_PILE_N], st[S_STOCK_N], st[S_HANDNO])
    if ei >= 0:
        for p in range(n):
            # hands as dealt, in the order the cards came off the deck
            for j in range(hs):
                logc_nb(S, ei, S.stock[pack - 1 - (p * hs + j)])
        for j in range(st[S_PILE_N]):
            logc_nb(S, ei, S.pile[j])
        for j in range(st[S_STOCK_N] - 1, -1, -1):
            logc_nb(S, ei, S.stock[j])
    for q in range(n):
        p = (first + q) % n
        for k in (9, 10):
            while S.hand[p, k] > 0:
                hdel_nb(S, p, k)
                expose_nb(R, S, p, k)
    st[S_CUR] = first


# ------------------------------------------------------------------------------------------------
# Decisions
# ------------------------------------------------------------------------------------------------


@engine_jit
def trace_nb(S, p, dp, n, i):
    """Record one decision of a traced seat: who, where, the options, the choice, the observation."""
    st = S.st
    k = st[S_TRACE_N]
    on = st[S_TRACE_ON]
    if k < S.tr.shape[0] and on + n <= S.tro.shape[0]:
        row = S.tr[k]
        row[T_GAME] = st[S_GAME]
        row[T_SEAT] = p
        row[T_DP] = dp
        row[T_N] = n
        row[T_CHOICE] = i
        row[T_OPT0] = on
        for f in range(4):
            row[T_ROW + f] = S.opts[i, f]
        for j in range(S.tr.shape[1] - T_OBS):
            row[T_OBS + j] = S.obs[j]
        for j in range(n):
            for f in range(4):
                S.tro[on + j, f] = S.opts[j, f]
    st[S_TRACE_N] = k + 1
    st[S_TRACE_ON] = on + n


@engine_jit(inline="always")
def choose_nb(R, S, F, p, dp, n):
    """Ask seat p's strategy to pick one of the n legal options in S.opts; forced when n == 1.
    The strategy is a function value from the run's table F (built-in or user alike); it sees
    S.obs and copies of the options and the rules, never the state."""
    if n == 1:
        return 0
    st = S.st
    st[S_DECISIONS] += 1
    observe_nb(R, S, p, dp, n)
    i = ask_fn_nb(S, F, S.hand[p, HC_FN], p, n)
    if i == DEFER:
        b = S.hand[p, HC_FNB]
        if b >= 0:
            i = ask_fn_nb(S, F, b, p, n)
    if i < 0 or i >= n:
        st[S_ERR] = ERR_CHOICE
        st[S_ERR_A] = p
        st[S_ERR_B] = dp
        st[S_ERR_C] = i
        return 0
    if st[S_TRACE] != 0 and (st[S_TRACE] >> p) & 1 and (st[S_TRACE_DPM] >> dp) & 1:
        trace_nb(S, p, dp, n, i)
    return i


@engine_jit(inline="always")
def ask_fn_nb(S, F, f, p, n):
    """Call strategy function F[f] on a fresh copy of the options (it may scribble on its copy)."""
    uo = S.uopts
    for j in range(n):
        for c in range(4):
            uo[j, c] = S.opts[j, c]
    return F[f](S.ru, S.obs, uo, n, S.prm[p])


@engine_jit(inline="always")
def add_opt_nb(S, n, t, a, b, c):
    o = S.opts[n]
    o[0] = t
    o[1] = a
    o[2] = b
    o[3] = c
    return n + 1


# ------------------------------------------------------------------------------------------------
# Going out
# ------------------------------------------------------------------------------------------------


@engine_jit(inline="always")
def load_goout_nb(R, S, p):
    """Copy p's hand and p's side's open melds into the go-out scratch."""
    w = S.st[S_WORK:]
    s = side_of_nb(R, p)
    for r in range(NR):
        w[W_TH + r] = S.hand[p, HC_R + r]
        m = S.side[s, SD_MOR + r]
        if m >= 0 and S.melds[s, m, F_KIND] == MK_RANK:
            w[W_MEX + r] = 1
            w[W_MN + r] = S.melds[s, m, F_NAT]
            w[W_MW + r] = S.melds[s, m, F_TWO] + S.melds[s, m, F_JOK]
        else:
            w[W_MEX + r] = 0
            w[W_MN + r] = 0
            w[W_MW + r] = 0
    return w


@engine_jit
def can_go_out_nb(R, S, p):
    s = side_of_nb(R, p)
    w = load_goout_nb(R, S, p)
    pend = S.st[S_PEND] if S.st[S_PEND] > 0 else 0
    return can_go_out_w_nb(R, w, canastas_nb(S, s), R[R_GO_CANASTAS], goout_value_needed_nb(R, S, s, pend))


@engine_jit(inline="always")
def goout_value_needed_nb(R, S, s, pend_after):
    """Initial-meld value a going out must still lay (0 once melded, or under the R-13 waiver)."""
    if S.side[s, SD_MELDED] != 0 or pend_after >= S.side[s, SD_REQ]:
        return 0
    if R[R_CONC_WAIVE] != 0 and S.st[S_TOOK] == 0:
        return 0
    return S.side[s, SD_REQ] - pend_after


@engine_jit(inline="always")
def step_ok_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    """Keep-a-card, going-out and binding-answer checks for one meld action (§1.7, §1.9).
    dr/dnat/dwild/dnew describe the change to the meld of rank dr; dhand_r/dhand_n a further
    change to the hand. An action that leaves at most one card is legal only if the player can
    still go out after it (the last card may be discarded or melded). The common case is
    decided here, inlined; the search runs only near the end of a hand or under a "yes"."""
    st = S.st
    if st[S_LASTR3] != 0:
        return h_after >= 1
    if h_after >= 2 and st[S_ANSWER] != 1:
        return True
    return step_search_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n)


@engine_jit
def step_search_nb(R, S, p, s, h_after, ncan_after, pend_after, dr, dnat, dwild, dnew, dhand_r, dhand_n):
    st = S.st
    if h_after <= 1:
        if st[S_ANSWER] == 2:
            return False
        if st[S_PRE] != 0 and pend_after < S.side[s, SD_REQ]:
            return False
    w = load_goout_nb(R, S, p)
    w[W_TH + dr] -= dnat
    if dhand_n > 0:
        w[W_TH + dhand_r] -= dhand_n
    if dnew != 0:
        w[W_MEX + dr] = 1
    w[W_MN + dr] += dnat
    w[W_MW + dr] += dwild
    return can_go_out_w_nb(R, w, ncan_after, R[R_GO_CANASTAS], goout_value_needed_nb(R, S, s, pend_after))


@engine_jit
def take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, ncan_after):
    """A take that leaves at most one card must leave a way to go out (melded side only)."""
    if h_after >= 2:
        return True
    w = load_goout_nb(R, S, p)
    w[W_TH + r] -= nat_used
    if wild_r >= 0:
        w[W_TH + wild_r] -= 1
    pn = S.st[S_PILE_N]
    for i in range(pn - 1):
        c = S.pile[i]
        if not is_red3_nb(c):
            w[W_TH + rank_of_nb(c)] += 1
    w[W_MEX + r] = 1
    w[W_MN + r] += 1 + nat_used
    if wild_r >= 0:
        w[W_MW + r] += 1
    return can_go_out_w_nb(R, w, ncan_after, R[R_GO_CANASTAS], 0)


# ------------------------------------------------------------------------------------------------
# Taking the pile (§1.6)
# ------------------------------------------------------------------------------------------------


@engine_jit
def premeld_take_ok_nb(R, S, p, s, r, nat_used, wild_r, tmeld, best, h_after):
    """A take by an unmelded side: T and its method cards (worth `tmeld`) plus other hand melds
    (at most `best` in all) must reach the minimum, and the hand left after the pickup must be
    playable. When T's meld alone suffices the pile is picked up at once, so the going-out check
    of a melded side applies; otherwise at least one more hand card must be melded before the
    pickup, which must still leave two (the meld phase enforces the exact rule and rolls the take
    back to a stock draw if the player stops short)."""
    req = S.side[s, SD_REQ]
    if best < req:
        return False
    if tmeld >= req:
        if h_after >= 2:
            return True
        nc = canastas_nb(S, s)
        return take_ok_nb(R, S, p, s, r, nat_used, wild_r, h_after, nc)
    return h_after >= 3


@engine_jit(inline="always")
def enum_take_nb(R, S, p, n):
    st = S.st
    pn = st[S_PILE_N]
    if pn == 0 or st[S_BLOCK] == p:
        return n
    top = S.pile[pn - 1]
    r = rank_of_nb(top)
    if is_wild_rank_nb(r):
        if R[R_UNTAKE] & UNTAKE_WILD:
            return n
    if is_black3_nb(top) and (R[R_UNTAKE] & UNTAKE_BLACK3):
        return n
    if r == 2:
        return n  # no rank meld of threes can take a pile
    h = S.hand[p, HC_N]
    if R[R_ONE_CARD] != 0 and h == 1 and pn == 1:
        return n
    s = side_of_nb(R, p)
    melded = S.side[s, SD_MELDED] != 0
    if not melded:
        mask = R[R_PM_PREMELD]
    elif st[S_FROZEN] != 0:
        mask = R[R_PM_FROZEN]
    else:
        mask = R[R_PM_UNFROZEN]
    nat = S.hand[p, HC_R + r]
    incoming = pn - 1 - st[S_PILE_R3]
    m = S.side[s, SD_MOR + r]
    msz = 0
    mw = 0
    if m >= 0:
        msz = msize_nb(S, s, m)
        mw = S.melds[s, m, F_TWO] + S.melds[s, m, F_JOK]
    ncan = canastas_nb(S, s)
    maxw = R[R_MAX_WILD]
    tv = R[R_CARDVAL + r]
    w = S.st[S_WORK:]
    # M1: T with two naturals of its rank
    if (mask & MASK_M1) and nat >= 2:
        if not melded:
            for x in range(NR):
                w[x] = S.hand[p, HC_R + x]
            w[r] -= 2
            best = 3 * tv + max_meld_value_nb(R, w[0:NR], r, 0, w[NR:2 * NR])
            if premeld_take_ok_nb(R, S, p, s, r, 2, -1, 3 * tv, best, h - 2 + incoming):
                n = add_opt_nb(S, n, O_TAKE, 1, -1, 0)
        else:
            nc = ncan + (1 if msz < 7 and msz + 3 >= 7 else 0)
            if take_ok_nb(R, S, p, s, r, 2, -1, h - 2 + incoming, nc):
                n = add_opt_nb(S, n, O_TAKE, 1, -1, 0)
    # M2: T with one natural and one wild
    if (mask & MASK_M2) and nat >= 1 and R[R_MIN_NAT] <= 2:
        for wr in (1, 13):
            if S.hand[p, HC_R + wr] == 0 or mw + 1 > maxw:
                continue
            if not melded:
                for x in range(NR):
                    w[x] = S.hand[p, HC_R + x]
                w[r] -= 1
                w[wr] -= 1
                tmeld = 2 * tv + R[R_CARDVAL + wr]
                best = tmeld + max_meld_value_nb(R, w[0:NR], r, 1, w[NR:2 * NR])
                if premeld_take_ok_nb(R, S, p, s, r, 1, wr, tmeld, best, h - 2 + incoming):
                    n = add_opt_nb(S, n, O_TAKE, 2, wr, 0)
            else:
                nc = ncan + (1 if msz < 7 and msz + 3 >= 7 else 0)
                if take_ok_nb(R, S, p, s, r, 1, wr, h - 2 + incoming, nc):
                    n = add_opt_nb(S, n, O_TAKE, 2, wr, 0)
    # M3: T laid off on the side's meld of its rank
    if (mask & MASK_M3) and melded and m >= 0:
        nc = ncan + (1 if msz < 7 and msz + 1 >= 7 else 0)
        if take_ok_nb(R, S, p, s, r, 0, -1, h + incoming, nc):
            n = add_opt_nb(S, n, O_TAKE, 3, -1, 0)
    return n


@engine_jit
def snapshot_nb(R, S, p):
    """Remember what a pending initial meld may have to give back (§1.6-1.7, rolled back if short)."""
    st = S.st
    for k in range(NK):
        S.hand[MAXP, k] = S.hand[p, k]
    st[S_SNAP_EV] = st[S_EV_N]
    st[S_SNAP_EVC] = st[S_EVC_N]
    st[S_SNAP_PILE] = st[S_PILE_N]
    st[S_SNAP_FROZEN] = st[S_FROZEN]
    st[S_SNAP_PILE_R3] = st[S_PILE_R3]
    st[S_SNAP_NM] = S.side[side_of_nb(R, p), SD_NM]


@engine_jit
def rollback_nb(R, S, p):
    st = S.st
    s = side_of_nb(R, p)
    hn = 0
    for r in range(NR):
        S.hand[p, HC_R + r] = 0
    for k in range(NK):
        c = S.hand[MAXP, k]
        S.hand[p, k] = c
        S.hand[p, HC_R + rank_of_nb(k)] += c
        hn += c
    S.hand[p, HC_N] = hn
    S.side[s, SD_NM] = st[S_SNAP_NM]
    for r in range(NR):
        S.side[s, SD_MOR + r] = -1
    st[S_EV_N] = st[S_SNAP_EV]
    st[S_EVC_N] = st[S_SNAP_EVC]
    st[S_PILE_N] = st[S_SNAP_PILE]
    st[S_FROZEN] = st[S_SNAP_FROZEN]
    st[S_PILE_R3] = st[S_SNAP_PILE_R3]
    st[S_PEND] = -1
    st[S_PRE] = 0
    st[S_INCOMING] = 0
    st[S_TOOK] = 0
    st[S_LAIDT] = 0


@engine_jit
def pickup_nb(R, S, p):
    """Step 4-5 of TAKE-PILE: the rest of the pile goes to the hand; red threes are laid out."""
    st = S.st
    s = side_of_nb(R, p)
    for i in range(st[S_PILE_N]):
        c = S.pile[i]
        if is_red3_nb(c):
            lay_red3_nb(S, p, c, s)
        else:
            hadd_nb(S, p, c)
    st[S_PILE_N] = 0
    st[S_FROZEN] = 0
    st[S_BLOCK] = -1
    st[S_PILE_R3] = 0
    st[S_PRE] = 0
    st[S_INCOMING] = 0
    st[S_PICKUPS] += 1


@engine_jit
def do_take_nb(R, S, p, method, wr):
    """Meld T by the chosen method. Returns 1 when the side must still complete its initial meld
    from hand before the pile may be picked up."""
    st = S.st
    s = side_of_nb(R, p)
    melded = S.side[s, SD_MELDED] != 0
    if not melded:
        snapshot_nb(R, S, p)
    pn = st[S_PILE_N]
    ei = log_nb(S, EV_TAKE, p, method, 0, 0, 0)
    for i in range(pn):
        logc_nb(S, ei, S.pile[i])
    top = S.pile[pn - 1]
    st[S_PILE_N] = pn - 1
    r = rank_of_nb(top)
    m = S.side[s, SD_MOR + r]
    new = 0
    if m < 0:
        m = meld_new_nb(S, p, s, MK_RANK, r)
        new = 1
    elif S.melds[s, m, F_TURN] != st[S_TURN] or S.melds[s, m, F_PLAYER] != p:
        st[S_ADDED_OLD] = 1
    em = log_nb(S, EV_MELD, p, m, new, MK_RANK, 0)
    meld_put_nb(R, S, s, m, top)
    logc_nb(S, em, top)
    value = R[R_CARDVAL + r]
    if method == 1 or method == 2:
        k = htake_rank_nb(S, p, r)
        meld_put_nb(R, S, s, m, k)
        logc_nb(S, em, k)
        value += R[R_CARDVAL + r]
        k = htake_rank_nb(S, p, r if method == 1 else wr)
        meld_put_nb(R, S, s, m, k)
        logc_nb(S, em, k)
        value += R[R_CARDVAL + rank_of_nb(k)]
    st[S_TOOK] = 1
    st[S_LAIDT] = 1
    if not melded:
        st[S_PEND] = value
        if value >= S.side[s, SD_REQ]:
            S.side[s, SD_MELDED] = 1
            st[S_PEND] = -1
            pickup_nb(R, S, p)
            return 0
        st[S_PRE] = 1
        st[S_INCOMING] = st[S_PILE_N] - st[S_PILE_R3]
        return 1
    pickup_nb(R, S, p)
    return 0


@engine_jit
def draw_nb(R, S, p):
    st = S.st
    ei = log_nb(S, EV_DRAW, p, 0, 0, 0, 0)
    for _i in range(R[R_DRAW]):
        if st[S_STOCK_N] == 0:
            break  # fewer than k cards left is a complete draw
        c = pop_stock_nb(S)
        logc_nb(S, ei, c)
        if is_red3_nb(c):
            if expose_nb(R, S, p, c) != 0:
                st[S_LASTR3] = 1  # no replacement for the last card
                break
        else:
            hadd_nb(S, p, c)


# ------------------------------------------------------------------------------------------------
# Meld phase (§1.7): one action at a time
# ------------------------------------------------------------------------------------------------


@engine_jit(inline="always")
def enum_meld_nb(R, S, p):
    st = S.st
    hand = S.hand
    side = S.side
    melds = S.melds
    s = side_of_nb(R, p)
    h = S.hand[p, HC_N] + (st[S_INCOMING] if st[S_PRE] != 0 else 0)
    ncan = canastas_nb(S, s)
    maxw = R[R_MAX_WILD]
    minnat = R[R_MIN_NAT]
    pend = st[S_PEND]
    n = 0
    for r in range(NR):
        if r == 1 or r == 2 or r == 13:
            continue
        nat = hand[p, HC_R + r]
        v = R[R_CARDVAL + r]
        m = side[s, SD_MOR + r]
        if m >= 0:
            mw = melds[s, m, F_TWO] + melds[s, m, F_JOK]
            size = melds[s, m, F_NAT] + mw
            grows = 1 if size == 6 else 0
            if nat >= 1 and step_ok_nb(R, S, p, s, h - 1, ncan + grows, pend + v, r, 1, 0, 0, 0, 0):
                n = add_opt_nb(S, n, O_ADD, m, -1, 0)
            if mw < maxw:
                for wr in (1, 13):
                    if hand[p, HC_R + wr] >= 1 and step_ok_nb(R, S, p, s, h - 1, ncan + grows,
                                                       pend + R[R_CARDVAL + wr], r, 0, 1, 0, wr, 1):
                        n = add_opt_nb(S, n, O_ADD, m, wr, 0)
        else:
            if nat >= 3 and minnat <= 3:
                if step_ok_nb(R, S, p, s, h - 3, ncan, pend + 3 * v, r, 3, 0, 1, 0, 0):
                    n = add_opt_nb(S, n, O_NEW, r, 3, -1)
            if nat >= 2 and minnat <= 2 and maxw >= 1:
                for wr in (1, 13):
                    if hand[p, HC_R + wr] >= 1 and step_ok_nb(R, S, p, s, h - 3, ncan,
                                                       pend + 2 * v + R[R_CARDVAL + wr], r, 2, 1, 1, wr, 1):
                        n = add_opt_nb(S, n, O_NEW, r, 2, wr)
    b3 = hand[p, HC_R + 2]
    if R[R_B3MAX] > 0 and b3 >= R[R_B3MIN] and st[S_PRE] == 0:
        top = b3 if b3 < R[R_B3MAX] else R[R_B3MAX]
        for c in range(R[R_B3MIN], top + 1):
            # only as part of going out: nothing but a final discard may remain
            if h - c <= 1 and step_ok_nb(R, S, p, s, h - c, ncan, pend + c * R[R_CARDVAL + 2],
                                         0, 0, 0, 0, 2, c):
                n = add_opt_nb(S, n, O_BLACK3, c, 0, 0)
    if st[S_LASTR3] != 0:
        n = add_opt_nb(S, n, O_STOP, 0, 0, 0)
    elif h <= 1 and st[S_PRE] == 0:
        # stopping here means discarding the last card: that is going out, so it must be legal now
        if st[S_ANSWER] != 2 and ncan >= R[R_GO_CANASTAS] and goout_value_needed_nb(R, S, s, pend) <= 0:
            n = add_opt_nb(S, n, O_STOP, 0, 0, 0)
    elif st[S_ANSWER] != 1:
        n = add_opt_nb(S, n, O_STOP, 0, 0, 0)
    return n


@engine_jit(inline="always")
def apply_meld_nb(R, S, p, i):
    st = S.st
    s = side_of_nb(R, p)
    t = S.opts[i, 0]
    a = S.opts[i, 1]
    b = S.opts[i, 2]
    c = S.opts[i, 3]
    value = 0
    if t == O_NEW:
        m = meld_new_nb(S, p, s, MK_RANK, a)
        ei = log_nb(S, EV_MELD, p, m, 1, MK_RANK, 0)
        for _j in range(b):
            k = htake_rank_nb(S, p, a)
            meld_put_nb(R, S, s, m, k)
            logc_nb(S, ei, k)
            value += R[R_CARDVAL + a]
        if c >= 0:
            k = htake_rank_nb(S, p, c)
            meld_put_nb(R, S, s, m, k)
            logc_nb(S, ei, k)
            value += R[R_CARDVAL + c]
    elif t == O_ADD:
        m = a
        r = S.melds[s, m, F_RANK] if b < 0 else b
        if S.melds[s, m, F_TURN] != st[S_TURN] or S.melds[s, m, F_PLAYER] != p:
            st[S_ADDED_OLD] = 1
        ei = log_nb(S, EV_MELD, p, m, 0, S.melds[s, m, F_KIND], 0)
        k = htake_rank_nb(S, p, r)
        meld_put_nb(R, S, s, m, k)
        logc_nb(S, ei, k)
        value += R[R_CARDVAL + r]
    else:  # O_BLACK3
        m = meld_new_nb(S, p, s, MK_BLACK3, 2)
        ei = log_nb(S, EV_MELD, p, m, 1, MK_BLACK3, 0)
        for _j in range(a):
            k = htake_rank_nb(S, p, 2)
            meld_put_nb(R, S, s, m, k)
            logc_nb(S, ei, k)
            value += R[R_CARDVAL + 2]
    st[S_LAIDT] = 1
    if st[S_PEND] >= 0:
        st[S_PEND] += value
        if st[S_PEND] >= S.side[s, SD_REQ]:
            S.side[s, SD_MELDED] = 1
            st[S_PEND] = -1


@engine_jit
def meld_phase_nb(R, S, F, p):
    """Returns 0: go on to the discard; 1: the hand is empty (out); 2: a pending pile take was
    abandoned (rolled back); 3: the pending pile was picked up."""
    st = S.st
    s = side_of_nb(R, p)
    if S.side[s, SD_MELDED] == 0 and st[S_PRE] == 0:
        snapshot_nb(R, S, p)
        st[S_PEND] = 0
    while True:
        if S.hand[p, HC_N] == 0 and st[S_PRE] == 0 and st[S_LASTR3] == 0:
            return 1  # e.g. the pile was taken with the last cards of the hand
        n = enum_meld_nb(R, S, p)
        if n == 0:
            st[S_ERR] = ERR_STUCK
            return 0
        i = choose_nb(R, S, F, p, DP_MELD, n)
        if st[S_ERR] != 0:
            return 0
        if S.opts[i, 0] == O_STOP:
            if st[S_PRE] != 0:
                rollback_nb(R, S, p)
                return 2
            if st[S_PEND] > 0 and (S.hand[p, HC_N] >= 2 or st[S_LASTR3] != 0):
                # short of the minimum and not going out: the cards go back to the hand
                rollback_nb(R, S, p)
            st[S_PEND] = -1
            return 0
        apply_meld_nb(R, S, p, i)
        if st[S_CHECK] != 0:
            check_nb(R, S, 0)
        if st[S_PRE] != 0 and S.side[s, SD_MELDED] != 0:
            pickup_nb(R, S, p)
            return 3


# ------------------------------------------------------------------------------------------------
# Turn, hand, game
# ------------------------------------------------------------------------------------------------


@engine_jit
def go_out_nb(R, S, p):
    st = S.st
    s = side_of_nb(R, p)
    st[S_ENDED] = END_OUT
    st[S_OUT_PLAYER] = p
    if st[S_CHECK] != 0 and (canastas_nb(S, s) < R[R_GO_CANASTAS] or st[S_ANSWER] == 2):
        st[S_ERR] = ERR_INVARIANT  # §1.9: going out needs the canastas and no "no" answer
        st[S_ERR_A] = 8
    if S.side[s, SD_MELDED] == 0:
        S.side[s, SD_MELDED] = 1  # a concealed going out opens the side (waiver, R-13)
    conc = 0
    if R[R_CONC_BONUS] > 0 and st[S_LAID0] == 0 and st[S_ADDED_OLD] == 0:
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            if row[F_TURN] == st[S_TURN] and row[F_PLAYER] == p and row[F_KIND] == MK_RANK \
                    and msize_nb(S, s, m) >= 7:
                conc = 1
        if R[R_CONC_PARTNER_UNMELDED] != 0:
            for m in range(S.side[s, SD_NM]):
                if S.melds[s, m, F_TURN] != st[S_TURN]:
                    conc = 0
    st[S_CONCEALED] = conc
    log_nb(S, EV_GOOUT, p, conc, 0, 0, 0)


@engine_jit
def ask_nb(R, S, F, p):
    """D10/D11: optional, binding (R-07); only when going out is possible and not forced."""
    st = S.st
    if R[R_ASK] == 0 or st[S_LASTR3] != 0 or S.hand[p, HC_N] < 2:
        return
    if not can_go_out_nb(R, S, p):
        return
    s = side_of_nb(R, p)
    n = add_opt_nb(S, 0, O_NOASK, 0, 0, 0)
    np_ = R[R_PLAYERS]
    for q in range(np_):
        if q != p and side_of_nb(R, q) == s:
            n = add_opt_nb(S, n, O_ASK, q, 0, 0)
            if R[R_ASK] == 1:
                break
    if n == 1:
        return
    i = choose_nb(R, S, F, p, DP_ASK, n)
    if st[S_ERR] != 0 or S.opts[i, 0] == O_NOASK:
        return
    q = S.opts[i, 1]
    st[S_ASKS] += 1
    n = add_opt_nb(S, 0, O_YES, p, 0, 0)
    n = add_opt_nb(S, n, O_NO, p, 0, 0)
    st[S_ASKER] = p
    j = choose_nb(R, S, F, q, DP_ANSWER, n)
    st[S_ASKER] = -1
    yes = S.opts[j, 0] == O_YES
    st[S_ANSWER] = 1 if yes else 2
    if yes:
        st[S_YES] += 1
    log_nb(S, EV_ASK, p, q, 1 if yes else 0, 0, 0)


@engine_jit(inline="always")
def discard_nb(R, S, F, p):
    st = S.st
    n = 0
    for k in range(NK):
        if S.hand[p, k] > 0:
            n = add_opt_nb(S, n, O_DISCARD, k, 0, 0)
    if n == 0:
        st[S_ERR] = ERR_STUCK
        return
    i = choose_nb(R, S, F, p, DP_DISCARD, n)
    if st[S_ERR] != 0:
        return
    k = S.opts[i, 1]
    hdel_nb(S, p, k)
    S.pile[st[S_PILE_N]] = k
    st[S_PILE_N] += 1
    log_nb(S, EV_DISCARD, p, k, 0, 0, 0)
    if is_wild_rank_nb(rank_of_nb(k)):
        st[S_FREEZES] += 1
        st[S_FROZEN] = 1
    elif is_black3_nb(k):
        st[S_B3DISC] += 1
        st[S_BLOCK] = (p + 1) % R[R_PLAYERS]


@engine_jit
def play_turn_nb(R, S, F, p):
    st = S.st
    st[S_CUR] = p
    st[S_TURN] += 1
    st[S_ANSWER] = 0
    st[S_ASKER] = -1
    st[S_PEND] = -1
    st[S_PRE] = 0
    st[S_INCOMING] = 0
    st[S_ADDED_OLD] = 0
    st[S_TOOK] = 0
    st[S_LASTR3] = 0
    st[S_LAID0] = S.hand[p, HC_LAID]
    st[S_LAIDT] = 0
    # Draw step (D1, D2, D14)
    stock_empty = st[S_STOCK_N] == 0
    n = 0
    if not stock_empty:
        n = add_opt_nb(S, n, O_DRAW, 0, 0, 0)
    n0 = n
    n = enum_take_nb(R, S, p, n)
    if stock_empty:
        if n == 0:
            st[S_ENDED] = END_STOCK  # E-CLASSIC step 2: cannot take
            return
        forced = False
        for i in range(n0, n):
            if S.opts[i, 1] == 3:
                forced = True  # T can be laid off on the side's meld: the take is forced
        if not forced:
            n = add_opt_nb(S, n, O_END, 0, 0, 0)
    i = choose_nb(R, S, F, p, DP_DRAW, n)
    if st[S_ERR] != 0:
        return
    t = S.opts[i, 0]
    if t == O_END:
        st[S_ENDED] = END_STOCK
        return
    if t == O_DRAW:
        draw_nb(R, S, p)
    else:
        if do_take_nb(R, S, p, S.opts[i, 1], S.opts[i, 2]) != 0:
            res = meld_phase_nb(R, S, F, p)
            if st[S_ERR] != 0:
                return
            if res == 2:
                if st[S_STOCK_N] == 0:
                    st[S_ENDED] = END_STOCK
                    return
                draw_nb(R, S, p)
    if st[S_CHECK] != 0:
        check_nb(R, S, 0)
    if st[S_LASTR3] != 0:
        if R[R_LAST_R3_MELD] != 0:
            meld_phase_nb(R, S, F, p)
        st[S_ENDED] = END_STOCK
        if st[S_LAIDT] != 0:
            S.hand[p, HC_LAID] = 1
        return
    ask_nb(R, S, F, p)
    if st[S_ERR] != 0:
        return
    res = meld_phase_nb(R, S, F, p)
    if st[S_ERR] != 0:
        return
    if st[S_LAIDT] != 0:
        S.hand[p, HC_LAID] = 1
    if res == 1:
        go_out_nb(R, S, p)
        return
    discard_nb(R, S, F, p)
    if st[S_ERR] != 0:
        return
    if S.hand[p, HC_N] == 0:
        go_out_nb(R, S, p)
        return
    if st[S_BLOCK] == p:
        st[S_BLOCK] = -1  # block_next lasts for the blocked player's turn only
    if st[S_CHECK] != 0:
        check_nb(R, S, 1)


@engine_jit
def score_hand_nb(R, S):
    st = S.st
    nsides = R[R_NSIDES]
    n = R[R_PLAYERS]
    out = st[S_OUT_PLAYER] if st[S_ENDED] == END_OUT else -1
    for s in range(nsides):
        melded = 0
        can = 0
        for m in range(S.side[s, SD_NM]):
            row = S.melds[s, m]
            melded += row[F_VAL]
            if row[F_KIND] != MK_BLACK3 and row[F_NAT] + row[F_TWO] + row[F_JOK] >= 7:
                can += R[R_NAT_BONUS] if row[F_TWO] + row[F_JOK] == 0 else R[R_MIX_BONUS]
        k = S.side[s, SD_RED3]
        r3 = R[R_RED3TAB + (k if k < 9 else 8)]
        if S.side[s, SD_NM] == 0 and R[R_RED3_NEG] != 0:
            r3 = -r3
        go = 0
        if out >= 0 and side_of_nb(R, out) == s:
            go = R[R_CONC_BONUS] if st[S_CONCEALED] != 0 else R[R_GO_BONUS]
        inh = 0
        for p in range(n):
            if side_of_nb(R, p) == s:
                inh -= hand_value_nb(R, S, p)
        c = S.side[s, SD_COMP:SD_COMP + NC]
        c[0] = melded
        c[1] = can
        c[2] = r3
        c[3] = go
        c[4] = inh
        c[5] = 0
        c[6] = melded + can + r3 + go + inh
        S.side[s, SD_CUM] += c[6]


@engine_jit
def play_hand_nb(R, S, F):
    st = S.st
    deal_hand_nb(R, S)
    if st[S_CHECK] != 0:
        check_nb(R, S, 1)
    n = R[R_PLAYERS]
    p = st[S_CUR]
    while st[S_ENDED] == 0 and st[S_ERR] == 0:
        if st[S_TURN] >= R[R_MAX_TURNS]:
            st[S_ENDED] = END_CAP
            st[S_CAPPED_HANDS] += 1
            break
        play_turn_nb(R, S, F, p)
        p = (p + 1) % n
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
        check_nb(R, S, 2)


@engine_jit
def record_hand_nb(R, S, row):
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


@engine_jit
def play_game_nb(R, S, F, seed, game, deal):
    """One game to the target (§1.13): cumulative scores, score-dependent minimum, ties replay."""
    st = S.st
    n = R[R_PLAYERS]
    nsides = R[R_NSIDES]
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
    seed_rng_nb(st, S_RNG, seed, game, 1 << 40)
    seed_rng_nb(st, S_DRNG, seed, deal, 0)
    st[S_DEALER] = below_nb(st, S_DRNG, n)
    hand = 0
    while True:
        hand += 1
        st[S_HANDNO] = hand
        play_hand_nb(R, S, F)
        if st[S_ERR] != 0:
            return
        record_hand_nb(R, S, S.hrec[hand - 1])
        st[S_NHANDS] = hand
        best = S.side[0, SD_CUM]
        for s in range(1, nsides):
            if S.side[s, SD_CUM] > best:
                best = S.side[s, SD_CUM]
        reached = best > R[R_TARGET] if R[R_TARGET_STRICT] != 0 else best >= R[R_TARGET]
        nbest = 0
        win = -1
        for s in range(nsides):
            if S.side[s, SD_CUM] == best:
                nbest += 1
                win = s
        if reached and nbest == 1:
            st[S_WINNER] = win
            break
        if hand >= R[R_MAX_HANDS]:
            st[S_CAPPED_GAME] = 1
            st[S_WINNER] = win if nbest == 1 else -1
            break
        st[S_DEALER] = (st[S_DEALER] + R[R_DEALER_DIR] + n) % n
    ei = log_nb(S, EV_GAMEEND, st[S_WINNER], st[S_CAPPED_GAME], 0, 0, 0)
    if ei >= 0:
        for s in range(nsides):
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
