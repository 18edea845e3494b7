"""Coverage of the anytime-valid confidence sequences at stopping times chosen from the data.

A run that looks after every block may stop whenever it likes: at the first block where
the interval leaves out a value it was watching (a target band's edge, or the truth
itself, the worst case), or at a random block. From a known truth, the betting confidence
sequences of :mod:`balance.confseq` must still cover it in at least 95% of the runs at
every such stop. A fixed-n Wilson interval read the same way (the interval of the games
so far, after every block) fails the same check: the check can tell.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from balance.confseq import BettingCS
from balance.stats import mean_interval, wilson_interval

#: The least coverage accepted at a data-dependent stop.
AT_LEAST = 0.95

Draw = Callable[[np.random.Generator, int], np.ndarray]


def bernoulli(share: float) -> Draw:
    return lambda rng, size: (rng.random(size) < share).astype(float)


def beta(a: float, b: float) -> Draw:
    return lambda rng, size: rng.beta(a, b, size)


#: A paired difference of game lengths in rounds, -3 to +4, in [-cap, cap]: its mean,
#: 7 / 29, lies 0.05 rounds from the nearest point of the first grid (200 / 2048 apart).
LENGTHS = np.arange(-3, 5)
LENGTH_ODDS = np.array([2, 3, 5, 6, 6, 4, 2, 1]) / 29
LENGTH_TRUTH = float(LENGTHS @ LENGTH_ODDS)


def length_differences(rng: np.random.Generator, size: int) -> np.ndarray:
    return rng.choice(LENGTHS, size=size, p=LENGTH_ODDS).astype(float)


def sequence_interval(cs: BettingCS, truth: float) -> tuple[float, float]:
    """The interval a run reads: refined at its edges when the truth is near one."""
    low, high = (float(v[0]) for v in cs.interval())
    if min(abs(truth - low), abs(truth - high)) < 3 * cs.step * cs.span:
        cs.refine()
        low, high = (float(v[0]) for v in cs.interval())
    return low, high


def coverage_at_stops(
    draw: Draw,
    truth: float,
    runs: int,
    blocks: int,
    block: int,
    watched: float,
    seed: int = 0,
    *,
    binary: bool = True,
    target: float | None = None,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> dict[str, float]:
    """Coverage of ``truth`` at three stops of each of ``runs`` runs of ``blocks`` blocks.

    ``first_miss``: stopped at the first block whose interval leaves out the truth (or at
    the last block): its coverage is the share of runs never missing it. ``watched``:
    stopped at the first block leaving out ``watched`` (a band's edge). ``random``: at a
    block drawn uniformly.
    """
    rng = np.random.default_rng(seed)
    never = at_watched = at_random = 0
    for _ in range(runs):
        cs = BettingCS(1, *bounds, binary=binary, target=target)
        stop_at = int(rng.integers(blocks))
        missed = watched_done = False
        for index in range(blocks):
            cs.update(draw(rng, block))
            low, high = sequence_interval(cs, truth)
            covered = low <= truth <= high
            missed |= not covered
            if index == stop_at:
                at_random += covered
            if not watched_done and (not low <= watched <= high or index == blocks - 1):
                watched_done = True
                at_watched += covered
        never += not missed
    return {"first_miss": never / runs, "watched": at_watched / runs, "random": at_random / runs}


def test_share_sequence_covers_at_data_dependent_stops() -> None:
    result = coverage_at_stops(bernoulli(0.3), 0.3, runs=120, blocks=15, block=200, watched=0.33)
    assert min(result.values()) >= AT_LEAST, result


def wilson_coverage_at_first_miss(
    share: float, runs: int, blocks: int, block: int, seed: int = 0
) -> float:
    """Share of runs whose fixed-n Wilson interval of the games so far, read after every
    block, never leaves out ``share`` (the coverage at the first-miss stop)."""
    rng = np.random.default_rng(seed)
    wins = np.cumsum(rng.binomial(block, share, size=(runs, blocks)), axis=1)
    games = block * np.arange(1, blocks + 1)
    low, high = wilson_interval(wins, np.broadcast_to(games, wins.shape))
    return float(((low <= share) & (share <= high)).all(axis=1).mean())


def test_fixed_n_wilson_read_after_every_block_fails_the_same_check() -> None:
    # Each look is a fair 95% interval, but stopping at the first miss is not.
    covered = wilson_coverage_at_first_miss(0.3, runs=2000, blocks=20, block=200)
    assert covered < 0.90, covered
    # While read once, at a fixed number of games, it holds its 95%.
    assert wilson_coverage_at_first_miss(0.3, runs=2000, blocks=1, block=4000) >= 0.935


def test_bounded_mean_sequence_covers_at_data_dependent_stops() -> None:
    # A mean of values spread over [0, 1] (a length over its cap): Fan's bound.
    truth = 2 / 7
    result = coverage_at_stops(
        beta(2, 5), truth, runs=80, blocks=15, block=200, watched=0.31, binary=False
    )
    assert min(result.values()) >= AT_LEAST, result


def test_narrow_spread_over_a_wide_range_covers_at_data_dependent_stops() -> None:
    # A length difference over [-100, 100]: after a few thousand games its interval is
    # narrower than the first grid's step (200 / 2048 rounds), and must still cover.
    result = coverage_at_stops(
        length_differences,
        LENGTH_TRUTH,
        runs=60,
        blocks=12,
        block=4000,
        watched=LENGTH_TRUTH + 0.05,
        binary=False,
        bounds=(-100.0, 100.0),
    )
    assert min(result.values()) >= AT_LEAST, result


def test_narrow_spread_over_a_wide_range_holds_its_estimate_and_the_t_interval() -> None:
    # An anytime-valid interval holds its estimate and is wider than the Student t
    # interval of the same games, which is valid at that one number of games only.
    rng = np.random.default_rng(4)
    cs = BettingCS(1, -100.0, 100.0)
    x = length_differences(rng, 60 * 4096)
    for start in range(0, x.size, 4096):
        cs.update(x[start : start + 4096])
    cs.refine()
    low, high = (float(v[0]) for v in cs.interval())
    _, t_low, t_high = mean_interval(x)
    assert low < t_low < x.mean() < t_high < high
    # Not wastefully wide either: 1.9 times the t interval here (Fan's bound and a stake
    # not tuned to any width cost that much); 30% wider would fail.
    assert high - low < 2.2 * (t_high - t_low)


def test_sequence_narrows_like_a_fixed_interval_times_a_constant() -> None:
    # Not so conservative it is useless: after 40,000 games of a share near 0.5 the
    # interval is under 2.5 times Wilson's width.
    rng = np.random.default_rng(3)
    cs = BettingCS(1, binary=True)
    x = (rng.random(40_000) < 0.5).astype(float)
    for start in range(0, x.size, 4096):
        cs.update(x[start : start + 4096])
    cs.refine()
    low, high = (float(v[0]) for v in cs.interval())
    w_low, w_high = wilson_interval(x.sum(), x.size)
    assert low <= x.mean() <= high
    assert (high - low) < 2.5 * float(w_high - w_low)


@pytest.mark.slow
@pytest.mark.parametrize("share", [0.5, 0.1, 0.02])
@pytest.mark.parametrize("target", [None, 0.01])
def test_share_sequence_covers_at_data_dependent_stops_long(
    share: float, target: float | None
) -> None:
    result = coverage_at_stops(
        bernoulli(share),
        share,
        runs=1500,
        blocks=60,
        block=500,
        watched=share + 0.01,
        seed=1,
        target=target,
    )
    assert min(result.values()) >= AT_LEAST, result


@pytest.mark.slow
def test_bounded_mean_sequence_covers_at_data_dependent_stops_long() -> None:
    result = coverage_at_stops(
        beta(0.5, 0.5), 0.5, runs=1000, blocks=60, block=500, watched=0.51, seed=2, binary=False
    )
    assert min(result.values()) >= AT_LEAST, result


@pytest.mark.slow
def test_fixed_n_wilson_read_after_every_block_fails_long() -> None:
    covered = wilson_coverage_at_first_miss(0.1, runs=20_000, blocks=100, block=500, seed=1)
    assert covered < 0.85, covered
