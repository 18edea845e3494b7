"""Coverage of the game-length intervals from known truth: the median and the restricted
mean read from the still-running curve, with games stopped unfinished at a cap.

Game lengths are drawn from a known distribution (1 + negative binomial, mean 10); games
longer than the cap are stopped there, unfinished (or, for the randomly censored case
that La Planche's rounds variant produces, at a length of their own). The true median
(grouped, as :func:`balance.stats.intervals.length_median` reads it) and the true restricted mean
follow from the distribution. A 95% interval must cover the truth in 93% to 97.5% of the
simulated runs: too narrow and too wide both fail, and intervals at 80% and 99.9% are
shown to fail the same check.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from balance.stats.intervals import length_median, restricted_mean

#: The accepted coverage of a 95% interval.
LOW, HIGH = 0.93, 0.975
SIZE, CHANCE = 3, 0.25  # lengths 1 + NegBin(3, 0.25): mean 10, median about 8.9


def true_running(limit: int) -> np.ndarray:
    """P(length > r) for r = 0 .. limit: ``(limit + 1,)``."""
    return stats.nbinom(SIZE, CHANCE).sf(np.arange(limit + 1) - 1)


def true_median() -> float:
    """The grouped median: where the curve, read at r + 1/2 and joined by lines, crosses 1/2."""
    running = true_running(200)
    before = np.concatenate([[1.0], running[:-1]])
    r = int(np.flatnonzero(running <= 0.5)[0])
    return (r - 0.5) + (before[r] - 0.5) / (before[r] - running[r])


def true_restricted_mean(limit: int) -> float:
    """E[min(length, limit)]: the area under the true curve up to ``limit``."""
    return float(true_running(limit)[:limit].sum())


def draw(
    rng: np.random.Generator, games: int, cap: int, censor: tuple[int, int] | None
) -> tuple[np.ndarray, np.ndarray]:
    """One run: ``(lengths, finished)``, each ``(games,)``."""
    length = 1 + rng.negative_binomial(SIZE, CHANCE, games)
    stop = np.full(games, cap) if censor is None else rng.integers(*censor, games)
    return np.minimum(length, stop), length <= stop


def coverage(
    runs: int,
    games: int,
    cap: int,
    censor: tuple[int, int] | None = None,
    limit: int | None = None,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Shares of ``runs`` simulated runs whose median and restricted-mean intervals cover
    the truth; the restricted mean is taken to ``limit`` (default: the cap)."""
    limit = cap if limit is None else limit
    median, mean = true_median(), true_restricted_mean(limit)
    rng = np.random.default_rng(seed)
    hits = np.zeros(2)
    for _ in range(runs):
        lengths, finished = draw(rng, games, cap, censor)
        _, low, high = length_median(lengths, finished, level)
        high = np.inf if high != high else high
        hits[0] += low <= median <= high
        _, low, high = restricted_mean(lengths, finished, limit, level)
        hits[1] += low <= mean <= high
    return float(hits[0] / runs), float(hits[1] / runs)


def test_the_truth_is_what_the_estimators_estimate() -> None:
    # On a very large run both estimates sit on the truth, so coverage tests the intervals.
    lengths, finished = draw(np.random.default_rng(1), 400_000, 18, None)
    assert 0.08 < 1 - finished.mean() < 0.10  # 9% of games stop at the cap
    median, low, high = length_median(lengths, finished)
    assert median == pytest.approx(true_median(), abs=0.03) and low < median < high
    mean, low, high = restricted_mean(lengths, finished, 18)
    assert mean == pytest.approx(true_restricted_mean(18), abs=0.02)
    assert mean == pytest.approx(lengths.mean(), rel=1e-12)  # one cap: the plain mean


def test_length_intervals_cover_the_truth_at_a_cap() -> None:
    median, mean = coverage(runs=1000, games=200, cap=18)
    assert LOW <= median <= HIGH, median
    assert LOW <= mean <= HIGH, mean


@pytest.mark.parametrize("level", [0.80, 0.999])
def test_the_coverage_check_fails_intervals_of_the_wrong_width(level: float) -> None:
    # An 80% interval is too narrow and a 99.9% one too wide: both fall outside the range.
    median, mean = coverage(runs=300, games=200, cap=18, level=level, seed=1)
    assert not LOW <= median <= HIGH, median
    assert not LOW <= mean <= HIGH, mean


@pytest.mark.slow
@pytest.mark.parametrize(
    ("games", "cap", "censor", "limit"),
    [
        (200, 18, None, None),  # 9% stopped at the cap
        (1000, 12, None, None),  # 28% stopped at the cap
        (100, 18, None, None),  # a small run
        (300, 60, (8, 31), 15),  # stopped at lengths of their own (La Planche's rounds)
    ],
)
def test_length_intervals_cover_the_truth_long(games, cap, censor, limit) -> None:
    median, mean = coverage(runs=4000, games=games, cap=cap, censor=censor, limit=limit, seed=7)
    assert LOW <= median <= HIGH, median
    assert LOW <= mean <= HIGH, mean
