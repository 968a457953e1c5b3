"""Cards (all phases): rank classes, card classes (what freezes, blocks or covers is rules data over
these), card values (`card_values`, the one place that reads R_CARDVAL) and seats' sides."""

from .jit import engine_jit
from .layout import (
    BLACK3_C,
    BLACK3_S,
    CC_BLACK3,
    CC_RED3,
    CC_WILD,
    JOKER,
    R_CARDVAL,
    R_SEAT_SIDE,
    R_THREES_PLAIN,
    RED3_D,
    RED3_H,
    RK_2,
    RK_3,
    RK_JK,
    SUITS,
)


@engine_jit(inline="always")
def rank_of_nb(k):
    """Rank class of card kind k (RK_JK for a joker)."""
    return RK_JK if k == JOKER else k // SUITS


@engine_jit(inline="always")
def is_wild_rank_nb(r):
    """Jokers and twos are wild (§0)."""
    return r == RK_2 or r == RK_JK


@engine_jit(inline="always")
def is_natural_meld_rank_nb(r):
    """Ranks a rank meld can be of: 4 up to ace (never a wild, never a three)."""
    return not (r == RK_2 or r == RK_JK or r == RK_3)


@engine_jit(inline="always")
def is_red3_nb(k):
    """3H or 3D."""
    return k == RED3_H or k == RED3_D


@engine_jit(inline="always")
def is_black3_nb(k):
    """3S or 3C."""
    return k == BLACK3_S or k == BLACK3_C


@engine_jit(inline="always")
def card_class_nb(k):
    """The card's class bit (CC_WILD, CC_BLACK3, CC_RED3), 0 for any other card."""
    if is_wild_rank_nb(rank_of_nb(k)):
        return CC_WILD
    if is_black3_nb(k):
        return CC_BLACK3
    if is_red3_nb(k):
        return CC_RED3
    return 0


@engine_jit(inline="always")
def side_of_nb(R, p):
    """The side seat p plays for (`sides`)."""
    return R[R_SEAT_SIDE + p]


@engine_jit(inline="always")
def value_nb(R, r):
    """Points of a card of rank class r (`card_values`)."""
    return R[R_CARDVAL + r]


@engine_jit(inline="always")
def threes_plain_nb(R):
    """Threes are ordinary cards (Buraco, §3.10 setup 6): no red three is laid out, and a set of threes
    may be melded."""
    return R[R_THREES_PLAIN] != 0


@engine_jit(inline="always")
def meld_rank_ok_nb(R, r):
    """Ranks a rank meld (a Buraco set) can be of: 4 up to ace, and threes where they are plain cards."""
    return is_natural_meld_rank_nb(r) or (r == RK_3 and threes_plain_nb(R))
