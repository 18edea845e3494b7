"""The compiled random streams and their readable twin agree, and are uniform."""

import numpy as np
import pytest
from numba import njit
from scipy import stats

from balance.core.random_nb import below_nb, next_u64_nb, seed_stream_nb
from balance.core.random_ref import Stream


@njit
def _draw(seed, game, stream, bounds):
    state = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(state, seed, game, stream)
    out = np.empty(bounds.shape[0], dtype=np.int64)
    for i in range(bounds.shape[0]):
        out[i] = below_nb(state, bounds[i])
    return out


@njit
def _raw(seed, game, stream, count):
    state = np.zeros(4, dtype=np.uint64)
    seed_stream_nb(state, seed, game, stream)
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i] = next_u64_nb(state)
    return out


@pytest.mark.parametrize(("seed", "game", "stream"), [(0, 0, 0), (1, 2, 3), (2**62, 10**9, 5)])
def test_compiled_and_readable_streams_agree(seed: int, game: int, stream: int) -> None:
    bounds = np.array([1, 2, 3, 5, 6, 7, 10, 36, 46, 1000, 2**31 + 11] * 50, dtype=np.int64)
    readable = Stream(seed, game, stream)
    expected = [readable.below(int(b)) for b in bounds]
    assert _draw(seed, game, stream, bounds).tolist() == expected
    readable = Stream(seed, game, stream)
    assert _raw(seed, game, stream, 100).tolist() == [readable.next_u64() for _ in range(100)]


def test_xoshiro_matches_published_algorithm() -> None:
    # xoshiro256** from the state (1, 2, 3, 4): first outputs of the reference C code.
    stream = Stream(0, 0, 0)
    stream.state = [1, 2, 3, 4]
    assert [stream.next_u64() for _ in range(3)] == [11520, 0, 1509978240]


def test_streams_of_neighbouring_games_differ() -> None:
    firsts = {Stream(7, game, stream).next_u64() for game in range(200) for stream in range(6)}
    assert len(firsts) == 1200


def test_bounded_draws_are_uniform() -> None:
    draws = _draw(3, 4, 5, np.full(60_000, 6, dtype=np.int64))
    counts = np.bincount(draws, minlength=6)
    assert counts.sum() == 60_000 and draws.min() >= 0 and draws.max() <= 5
    assert stats.chisquare(counts).pvalue > 1e-4
