"""Card helpers shared by the kernels (all tiny and inlined)."""

from .jit import engine_jit
from .layout import BLACK3_C, BLACK3_S, JOKER, R_CARDVAL, R_SEAT_SIDE, RED3_D, RED3_H, RK_2, RK_JK


@engine_jit(inline="always")
def rank_of_nb(k):
    return 13 if k == JOKER else k // 4


@engine_jit(inline="always")
def is_wild_rank_nb(r):
    return r == RK_2 or r == RK_JK


@engine_jit(inline="always")
def is_red3_nb(k):
    return k == RED3_H or k == RED3_D


@engine_jit(inline="always")
def is_black3_nb(k):
    return k == BLACK3_S or k == BLACK3_C


@engine_jit(inline="always")
def side_of_nb(R, p):
    return R[R_SEAT_SIDE + p]


@engine_jit(inline="always")
def value_nb(R, r):
    return R[R_CARDVAL + r]
