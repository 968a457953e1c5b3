"""Buraco's turn (§3.10, seed 004): draw one card or take the whole pile, lay sets and same-suit
sequences one action at a time, reach the morto by a knock, discard any card; E-BURACO.

It shares the table (cards, the stock, the pile, the mortos as face-down packets), the deal, the
strategies' decisions and observation, the meld table and the scoring with the rank-meld games, and
keeps here what only Buraco needs: the options of a meld phase with sequences, which suit a set takes,
and the knocks (R-137 to R-140):
* a hand emptied by melding while the side's morto lies there picks it up at once and plays on
  (direct); emptied by the discard, the morto is picked up and played from the next turn (indirect);
* with the side's morto taken, emptying the hand is the final knock-out, legal only with a canasta
  (R-138); without one the player keeps a card (R-137).
An action that leaves one card is offered only where that card can then be discarded (the morto still
lies there, or the side has a canasta): laying a canasta's seventh card as the very last card, after an
action that left one card without a canasta, is legal by the rules but not offered (docs/rules.md).
This module reads `sequences` (which turn the game plays) only through game.py."""

import numpy as np

from . import layout as L
from .cards import meld_rank_ok_nb, rank_of_nb, side_of_nb
from .decide import add_opt_nb, choose_nb
from .draw import draw_nb
from .goout import go_out_nb
from .gorules import canastas_to_go_out_nb
from .invariants import check_nb
from .jit import engine_jit
from .layout import seq_wild, seq_wild_pos, seq_wild_rank
from .link import separate
from .log import log_nb, logc_nb
from .meldtable import canasta_size_nb, max_wilds_nb, meld_new_nb, meld_put_nb, msize_nb
from .packet import pick_up_foot_nb
from .pile import pickup_nb
from .seqtable import natural_kind_nb, seq_new_nb, seq_put_nb
from .table import hdel_nb, packet_seat_nb, pile_push_nb
from .turn import begin_turn_nb

NONE_YET = 1 << 30  # a score above any card's
DUP_WEIGHT = 4  # a neighbour in the suit weighs more than holding the card twice (which frees one copy)
EV_AT_LOW, EV_AT_HIGH = 0, 1  # a sequence event's d: its cards go below the meld (or start it), or above


@engine_jit(inline="always")
def morto_there_nb(R, S, p):
    """Seat p's side has not yet taken its morto (R-136)."""
    return S.hand[packet_seat_nb(R, p), L.HC_PACKET] > 0


@engine_jit(inline="always")
def knock_ok_nb(R, S, p, h_after, ncan_after):
    """An action leaving h_after cards and ncan_after canastas keeps a legal end of the turn: two cards
    or more (one is discarded), or the hand may empty, towards the morto (a knock) or as the final
    knock-out with a canasta (R-137, R-138)."""
    return h_after >= 2 or morto_there_nb(R, S, p) or ncan_after >= canastas_to_go_out_nb(R)


# Which card: the engine's choice where the rules leave it open -----------------------------------


@engine_jit
def seq_use_nb(S, p, k):
    """How many cards of k's suit within two places of it the hand holds (an ace on both sides of the
    run): what k is worth to a sequence, so a set or a wild takes the card a sequence needs least."""
    r = rank_of_nb(k)
    suit = k % L.SUITS
    u = 0
    for base in (r + 1, L.POS_ACE_HIGH):
        if base == L.POS_ACE_HIGH and r != L.RK_A:
            break
        for d in range(-2, 2 + 1):
            q = base + d
            if d != 0 and L.POS_ACE_LOW <= q <= L.POS_ACE_HIGH:
                u += 1 if S.hand[p, natural_kind_nb(suit, q)] > 0 else 0
    return u


@engine_jit
def pick_natural_nb(S, p, r):
    """The card of rank class r a set takes: the one least useful to a sequence, a suit held twice before
    one held once, then suits in S H D C order."""
    best = -1
    score = NONE_YET
    for suit in range(L.SUITS):
        k = r * L.SUITS + suit
        c = S.hand[p, k]
        if c > 0:
            sc = seq_use_nb(S, p, k) * DUP_WEIGHT + (0 if c >= 2 else 1)
            if sc < score:
                score = sc
                best = k
    return best


@engine_jit(inline="always")
def wild_twos_of_nb(S, p, x, suit, wpos, nat2):
    """Twos of suit x held that can stand as a wild at position wpos of a sequence of `suit` (suit -1: a
    set): never the suit's own two at position 2 (it would be natural there, R-146), nor the `nat2` of
    them the same meld needs as its natural two."""
    c = S.hand[p, L.RK_2 * L.SUITS + x]
    if x == suit:
        c = 0 if wpos == 2 else c - nat2
    return c if c > 0 else 0


@engine_jit
def wild_twos_nb(S, p, suit, wpos, nat2):
    """Twos held that can stand as that wild (wild_twos_of_nb), all suits."""
    n = 0
    for x in range(L.SUITS):
        n += wild_twos_of_nb(S, p, x, suit, wpos, nat2)
    return n


@engine_jit
def pick_wild_nb(S, p, wr, suit, wpos, nat2):
    """The wild of rank class wr laid at position wpos of a sequence of `suit` (suit -1: a set): a joker,
    or of the twos that may stand there (wild_twos_of_nb) the one least useful to a sequence."""
    if wr == L.RK_JK:
        return L.JOKER
    best = -1
    score = NONE_YET
    for x in range(L.SUITS):
        if wild_twos_of_nb(S, p, x, suit, wpos, nat2) > 0:
            k = L.RK_2 * L.SUITS + x
            sc = seq_use_nb(S, p, k)
            if sc < score:
                score = sc
                best = k
    return best


# The draw step (BU-D1) ------------------------------------------------------------------------


@engine_jit
def enum_buraco_draw_nb(S):
    """Draw one card from the stock, or take the whole pile into the hand (R-135)."""
    n = 0
    if S.st[L.S_STOCK_N] > 0:
        n = add_opt_nb(S, n, L.O_DRAW, 0, 0, 0)
    if S.st[L.S_PILE_N] > 0:
        n = add_opt_nb(S, n, L.O_TAKE, L.TAKE_FREE, -1, 0)
    return n


@engine_jit
def apply_buraco_draw_nb(R, S, p, i):
    """The draw step's choice S.opts[i]: the stock's top card, or every card of the pile into the hand."""
    st = S.st
    if S.opts[i, L.OPT_KIND] == L.O_DRAW:
        draw_nb(R, S, p)  # `draw_count` 1 (rules.validate), no red three laid out (threes are plain)
    else:
        ei = log_nb(S, L.EV_TAKE, p, L.TAKE_FREE, 0, 0, 0)
        for j in range(st[L.S_PILE_N]):
            logc_nb(S, ei, S.pile[j])
        st[L.S_TOOK] = 1
        pickup_nb(R, S, p)


# The meld phase (BU-D2, BU-D3, BU-D4) --------------------------------------------------------


@engine_jit(inline="always")
def room_nb(n):
    """Meld options stop one short of the table's size, so that stopping is always listed; the rest wait
    for the next decision of the phase."""
    return n < L.MAXOPT - 1


@engine_jit
def enum_sets_nb(R, S, p, s, h, ncan, n):
    """Sets (R-134): add a natural or the one wild to the side's set of a rank, or start one with three
    naturals or two and a wild; never of twos."""
    hand = S.hand
    wmax = max_wilds_nb(R)
    last = canasta_size_nb(R) - 1
    for r in range(L.NR):
        if not meld_rank_ok_nb(R, r) or not room_nb(n):
            continue
        nat = hand[p, L.HC_R + r]
        m = S.side[s, L.SD_MOR + r]
        if m >= 0:
            grows = 1 if msize_nb(S, s, m) == last else 0
            if nat >= 1 and knock_ok_nb(R, S, p, h - 1, ncan + grows):
                n = add_opt_nb(S, n, L.O_ADD, m, -1, 0)
            if S.melds[s, m, L.F_TWO] + S.melds[s, m, L.F_JOK] < wmax:
                for wr in L.WILD_RANKS:
                    if hand[p, L.HC_R + wr] >= 1 and room_nb(n) and knock_ok_nb(R, S, p, h - 1, ncan + grows):
                        n = add_opt_nb(S, n, L.O_ADD, m, wr, 0)
        else:
            if nat >= L.MIN_MELD and knock_ok_nb(R, S, p, h - L.MIN_MELD, ncan):
                n = add_opt_nb(S, n, L.O_NEW, r, L.MIN_MELD, -1)
            if nat >= 2 and wmax >= 1 and knock_ok_nb(R, S, p, h - L.MIN_MELD, ncan):
                for wr in L.WILD_RANKS:
                    if hand[p, L.HC_R + wr] >= 1 and room_nb(n):
                        n = add_opt_nb(S, n, L.O_NEW, r, 2, wr)
    return n


@engine_jit
def enum_new_seqs_nb(R, S, p, h, ncan, n):
    """New sequences of three (R-133): three naturals of a suit in a row, or two and a wild at the missing
    place (R-131)."""
    hand = S.hand
    if not knock_ok_nb(R, S, p, h - L.MIN_MELD, ncan):
        return n
    jokers = hand[p, L.JOKER]
    for suit in range(L.SUITS):
        for lo in range(L.POS_ACE_LOW, L.POS_ACE_HIGH - L.MIN_MELD + 2):
            missing = 0
            nmiss = 0
            nat2 = 0
            for pos in range(lo, lo + L.MIN_MELD):
                if hand[p, natural_kind_nb(suit, pos)] > 0:
                    if pos == 2:
                        nat2 = 1
                else:
                    missing = pos
                    nmiss += 1
            if nmiss == 0 and room_nb(n):
                n = add_opt_nb(S, n, L.O_SEQ, suit, lo, -1)
            elif nmiss == 1:
                if jokers > 0 and room_nb(n):
                    n = add_opt_nb(S, n, L.O_SEQ, suit, lo, seq_wild(missing, L.RK_JK))
                if wild_twos_nb(S, p, suit, np.int64(missing), np.int64(nat2)) > 0 and room_nb(n):
                    n = add_opt_nb(S, n, L.O_SEQ, suit, lo, seq_wild(missing, L.RK_2))
    return n


@engine_jit
def enum_extend_nb(R, S, p, s, h, ncan, n):
    """A card at either end of one of the side's sequences: its natural, or the one wild (R-131), within
    1 .. 14 and never both aces (R-133)."""
    hand = S.hand
    last = canasta_size_nb(R) - 1
    for m in range(S.side[s, L.SD_NM]):
        row = S.melds[s, m]
        if row[L.F_KIND] != L.MK_SEQ:
            continue
        size = row[L.F_HI] - row[L.F_LO] + 1
        if size >= L.MAX_SEQ:
            continue
        grows = 1 if size == last else 0
        if not knock_ok_nb(R, S, p, h - 1, ncan + grows):
            continue
        for end in range(2):
            pos = row[L.F_LO] - 1 if end == L.END_LOW else row[L.F_HI] + 1
            if pos < L.POS_ACE_LOW or pos > L.POS_ACE_HIGH or not room_nb(n):
                continue
            if hand[p, natural_kind_nb(row[L.F_SUIT], pos)] > 0:
                n = add_opt_nb(S, n, L.O_EXTEND, m, end, -1)
            if row[L.F_WPOS] == 0:
                if hand[p, L.JOKER] > 0 and room_nb(n):
                    n = add_opt_nb(S, n, L.O_EXTEND, m, end, L.RK_JK)
                if wild_twos_nb(S, p, row[L.F_SUIT], pos, np.int64(0)) > 0 and room_nb(n):
                    n = add_opt_nb(S, n, L.O_EXTEND, m, end, L.RK_2)
    return n


@engine_jit
def enum_buraco_meld_nb(R, S, p):
    """Every meld action open to seat p now, then stopping (the last option)."""
    s = side_of_nb(R, p)
    h = S.hand[p, L.HC_N]
    ncan = S.side[s, L.SD_NCAN]
    n = enum_sets_nb(R, S, p, s, h, ncan, np.int64(0))
    n = enum_new_seqs_nb(R, S, p, h, ncan, n)
    n = enum_extend_nb(R, S, p, s, h, ncan, n)
    return add_opt_nb(S, n, L.O_STOP, 0, 0, 0)


@engine_jit
def lay_set_card_nb(R, S, p, s, m, ei, k):
    """Card k from p's hand into set m."""
    hdel_nb(S, p, k)
    meld_put_nb(R, S, s, m, k)
    logc_nb(S, ei, k)


@engine_jit
def lay_seq_card_nb(R, S, p, s, m, ei, k, pos):
    """Card k from p's hand to position pos of sequence m."""
    hdel_nb(S, p, k)
    seq_put_nb(R, S, s, m, k, pos)
    logc_nb(S, ei, k)


@engine_jit
def apply_buraco_meld_nb(R, S, p, i):
    """Lay meld action S.opts[i] (not O_STOP)."""
    s = side_of_nb(R, p)
    t = S.opts[i, L.OPT_KIND]
    a = S.opts[i, L.OPT_A]
    b = S.opts[i, L.OPT_B]
    c = S.opts[i, L.OPT_C]
    if t == L.O_NEW:
        m = meld_new_nb(S, p, s, np.int64(L.MK_RANK), a)
        ei = log_nb(S, L.EV_MELD, p, m, 1, L.MK_RANK, 0)
        for _ in range(b):
            lay_set_card_nb(R, S, p, s, m, ei, pick_natural_nb(S, p, a))
        if c >= 0:
            lay_set_card_nb(R, S, p, s, m, ei, pick_wild_nb(S, p, c, np.int64(-1), np.int64(0), np.int64(0)))
    elif t == L.O_ADD:
        ei = log_nb(S, L.EV_MELD, p, a, 0, L.MK_RANK, 0)
        r = S.melds[s, a, L.F_RANK] if b < 0 else b  # the set's rank, or the wild's
        k = pick_natural_nb(S, p, r) if b < 0 else pick_wild_nb(S, p, b, np.int64(-1), np.int64(0), np.int64(0))
        lay_set_card_nb(R, S, p, s, a, ei, k)
    elif t == L.O_SEQ:
        m = seq_new_nb(S, p, s, a, b)
        ei = log_nb(S, L.EV_MELD, p, m, 1, L.MK_SEQ, EV_AT_LOW)
        wpos = seq_wild_pos(c)
        kw = -1
        if wpos > 0:  # the wild is chosen before the naturals leave the hand (a natural two may be one of them)
            nat2 = 1 if b <= 2 < b + L.MIN_MELD and wpos != 2 else 0
            kw = pick_wild_nb(S, p, seq_wild_rank(c), a, wpos, nat2)
        for pos in range(b, b + L.MIN_MELD):
            lay_seq_card_nb(R, S, p, s, m, ei, natural_kind_nb(a, pos) if pos != wpos else kw, pos)
        S.side[s, L.SD_COUNT + L.SC_SEQS] += 1
    else:  # O_EXTEND
        row = S.melds[s, a]
        pos = row[L.F_LO] - 1 if b == L.END_LOW else row[L.F_HI] + 1
        ei = log_nb(S, L.EV_MELD, p, a, 0, L.MK_SEQ, EV_AT_LOW if b == L.END_LOW else EV_AT_HIGH)
        k = natural_kind_nb(row[L.F_SUIT], pos) if c < 0 else pick_wild_nb(S, p, c, row[L.F_SUIT], pos, np.int64(0))
        lay_seq_card_nb(R, S, p, s, a, ei, k, pos)
    S.st[L.S_LAIDT] = 1
    S.hand[p, L.HC_LAID] = 1
    S.side[s, L.SD_MELDED] = 1


@separate
@engine_jit
def buraco_meld_phase_nb(R, S, F, p, i):
    """Meld actions until the player stops, from choice i of the options already listed (i < 0: from the
    start): True when the hand ended by the final knock-out. A hand emptied by melding with the morto
    still there picks it up and plays on (a direct knock, R-137)."""
    st = S.st
    while True:
        if i < 0:
            n = enum_buraco_meld_nb(R, S, p)
            i = choose_nb(R, S, F, p, L.DP_MELD, n)
        if st[L.S_ERR] != 0 or S.opts[i, L.OPT_KIND] == L.O_STOP:
            return False
        apply_buraco_meld_nb(R, S, p, i)
        i = -1
        check_nb(R, S, L.CHECK_IN_TURN)
        if S.hand[p, L.HC_N] == 0:
            if not morto_there_nb(R, S, p):
                go_out_nb(R, S, p)  # the final knock-out (R-138: the options kept a canasta to it)
                return True
            # a knock-out may still follow this turn (§3.10 turn step 3)
            pick_up_foot_nb(R, S, p, np.int64(L.KNOCK_DIRECT))


# The discard (BU-D5) and the turn --------------------------------------------------------------


@engine_jit
def enum_buraco_discard_nb(S, p):
    """Any card held may be discarded (R-135: nothing freezes or blocks), in card-kind order."""
    n = 0
    for k in range(L.NK):
        if S.hand[p, k] > 0:
            n = add_opt_nb(S, n, L.O_DISCARD, k, 0, 0)
    return n


@engine_jit
def apply_buraco_discard_nb(R, S, p, k):
    """Card k onto the pile. The last card empties the hand: the morto is picked up (an indirect knock,
    played from the next turn), or it is the final knock-out."""
    hdel_nb(S, p, k)
    pile_push_nb(S, k)
    log_nb(S, L.EV_DISCARD, p, k, 0, 0, 0)
    if S.hand[p, L.HC_N] == 0:
        if morto_there_nb(R, S, p):
            pick_up_foot_nb(R, S, p, np.int64(L.KNOCK_INDIRECT))
            S.hand[p, L.HC_INDIRECT] = 1  # until its next turn begins
        else:
            go_out_nb(R, S, p)


@separate
@engine_jit
def buraco_turn_nb(R, S, F, p, at, i):
    """Seat p's Buraco turn (§3.10) from its start (at == TURN_START), or entered at decision point `at`
    where option i was chosen (a search's rollout, or a test's script: as turn.turn_nb). The hand ends
    after it when the stock is empty (E-BURACO, R-139)."""
    st = S.st
    if at == L.TURN_START:
        begin_turn_nb(S, p)
        S.hand[p, L.HC_INDIRECT] = 0
        n = enum_buraco_draw_nb(S)
        if n == 0:
            st[L.S_ERR] = L.ERR_STUCK  # E-BURACO ends the hand before a turn could start at an empty stock
            return
        i = choose_nb(R, S, F, p, L.DP_DRAW, n)
        if st[L.S_ERR] != 0:
            return
        at = L.DP_DRAW
    if at == L.DP_DRAW:
        apply_buraco_draw_nb(R, S, p, i)
    if at == L.DP_DISCARD:
        k = S.opts[i, L.OPT_A]
    else:
        if buraco_meld_phase_nb(R, S, F, p, i if at == L.DP_MELD else -1) or st[L.S_ERR] != 0:
            return
        n = enum_buraco_discard_nb(S, p)
        if n == 0:
            st[L.S_ERR] = L.ERR_STUCK
            return
        j = choose_nb(R, S, F, p, L.DP_DISCARD, n)
        if st[L.S_ERR] != 0:
            return
        k = S.opts[j, L.OPT_A]
    apply_buraco_discard_nb(R, S, p, k)
    if st[L.S_ENDED] == 0 and st[L.S_STOCK_N] == 0:
        st[L.S_ENDED] = L.END_STOCK
    check_nb(R, S, L.CHECK_BETWEEN_TURNS)
