"""xoshiro128** in 32-bit words held in int64 slots of the state.

Hand-rolled rather than numpy's generator because (a) the stream must be a pure function of
(master seed, deal or game index) whatever the worker layout, (b) it must give the very same numbers
jitted and under NUMBA_DISABLE_JIT=1, and (c) every intermediate stays below 2**63, so neither
mode overflows.
"""

from .jit import engine_jit

M32 = 0xFFFFFFFF


@engine_jit(inline="always")
def mul32_nb(a, c):
    """a * c mod 2**32 without leaving int64 (both operands < 2**32)."""
    lo = a * (c & 0xFFFF)
    hi = ((a * (c >> 16)) & 0xFFFF) << 16
    return (lo + hi) & M32


@engine_jit
def mix32_nb(h):
    """murmur3 finaliser: a bijective avalanche on 32 bits."""
    h &= M32
    h ^= h >> 16
    h = mul32_nb(h, 0x85EBCA6B)
    h ^= h >> 13
    h = mul32_nb(h, 0xC2B2AE35)
    h ^= h >> 16
    return h


@engine_jit
def seed_rng_nb(s, o, k0, k1, k2):
    """Fill the four words at s[o:o+4] from three keys (each a non-negative int64)."""
    a = mix32_nb((k0 & M32) ^ 0x3C6EF372)
    a = mix32_nb(a ^ ((k0 >> 32) & M32))
    b = mix32_nb(a ^ (k1 & M32) ^ 0x9E3779B9)
    b = mix32_nb(b ^ ((k1 >> 32) & M32))
    c = mix32_nb(b ^ (k2 & M32) ^ 0x7F4A7C15)
    c = mix32_nb(c ^ ((k2 >> 32) & M32))
    for i in range(4):
        c = mix32_nb(c + 0x6D2B79F5 * (i + 1))
        s[o + i] = c
    if s[o] == 0 and s[o + 1] == 0 and s[o + 2] == 0 and s[o + 3] == 0:
        s[o] = 1


@engine_jit(inline="always")
def rotl32_nb(x, k):
    """Rotate a 32-bit word left by k."""
    return ((x << k) | (x >> (32 - k))) & M32


@engine_jit
def next_u32_nb(s, o):
    """The next 32 random bits of the stream at s[o:o+4]."""
    s0 = s[o]
    s1 = s[o + 1]
    s2 = s[o + 2]
    s3 = s[o + 3]
    result = mul32_nb(rotl32_nb(mul32_nb(s1, 5), 7), 9)
    t = (s1 << 9) & M32
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl32_nb(s3, 11)
    s[o] = s0
    s[o + 1] = s1
    s[o + 2] = s2
    s[o + 3] = s3
    return result


@engine_jit
def below_nb(s, o, n):
    """Uniform integer in [0, n) for n < 2**31 (multiply-shift; bias below 2**-24 for card games)."""
    return (next_u32_nb(s, o) * n) >> 32
