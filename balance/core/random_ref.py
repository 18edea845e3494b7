"""Readable random streams, number for number the same as :mod:`balance.core.random_nb`.

The reference engines draw from these, so that a compiled engine and its reference
see the same dice and the same strategy draws for the same ``(seed, game, stream)``.
"""

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _M64


class Stream:
    """One stream of random numbers: xoshiro256** seeded from (seed, game, stream)."""

    def __init__(self, seed: int, game: int, stream: int) -> None:
        key = _mix64((seed + _GOLDEN) & _M64)
        key = _mix64((key + game + _GOLDEN) & _M64)
        key = _mix64((key + stream + _GOLDEN) & _M64)
        self.state = []
        for _ in range(4):
            key = (key + _GOLDEN) & _M64
            self.state.append(_mix64(key))

    def next_u64(self) -> int:
        s = self.state
        result = (_rotl((s[1] * 5) & _M64, 7) * 9) & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (Lemire's method, unbiased)."""
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32
