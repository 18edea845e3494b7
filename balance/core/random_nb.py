"""Compiled random streams: xoshiro256** seeded by splitmix64, Lemire's bounded integers.

Every game owns several independent streams, one per source of chance, each
derived from ``(run seed, game index, stream number)``. A stream's state is a
``uint64`` array of shape ``(4,)``. The pure-Python twin in
:mod:`balance.core.random_ref` produces the same numbers; tests hold them to it.
"""

import numpy as np
from numba import uint64

from balance.core.compile_cache import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(inline="always", cache=True)
def _mix64_nb(z):
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return z ^ (z >> uint64(31))


@njit(inline="always", cache=True)
def _rotl_nb(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always", cache=True)
def seed_stream_nb(state, seed, game, stream):
    """Fill ``state`` (uint64, shape (4,)) for stream ``stream`` of game ``game``."""
    seed_stream_keyed_nb(state, game_key_nb(run_key_nb(seed), game), stream)


@njit(inline="always", cache=True)
def run_key_nb(seed):
    """What every stream of a run seeded ``seed`` derives from (a game loop computes it once)."""
    return _mix64_nb(uint64(seed) + GOLDEN)


@njit(inline="always", cache=True)
def game_key_nb(run_key, game):
    """What every stream of game ``game`` derives from (computed once a game)."""
    return _mix64_nb(run_key + uint64(game) + GOLDEN)


@njit(inline="always", cache=True)
def seed_stream_keyed_nb(state, game_key, stream):
    """:func:`seed_stream_nb` from the game's key: the same state, with less work."""
    key = _mix64_nb(game_key + uint64(stream) + GOLDEN)
    for i in range(4):
        key = key + GOLDEN
        state[i] = _mix64_nb(key)


@njit(inline="always", cache=True)
def next_u64_nb(state):
    """Advance a xoshiro256** state (uint64, shape (4,)) and return the next 64 bits."""
    result = _rotl_nb(state[1] * uint64(5), 7) * uint64(9)
    t = state[1] << uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl_nb(state[3], 45)
    return result


@njit(inline="always", cache=True)
def below_nb(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire's method, unbiased)."""
    bound = uint64(n)
    m = (next_u64_nb(state) >> uint64(32)) * bound
    low = m & _MASK32
    if low < bound:
        threshold = ((_MASK32 + uint64(1)) - bound) % bound
        while low < threshold:
            m = (next_u64_nb(state) >> uint64(32)) * bound
            low = m & _MASK32
    return np.int64(m >> uint64(32))
