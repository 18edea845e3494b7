"""Coverage of the interval for a share of trials clustered in games, from known truth.

A share of trials (reveals with an effect, shots that hit, ballots a hat decided, seats a
strategy won) counts trials that share their game: each simulated game draws a number of
trials and its own success chance (beta-distributed around the true share), so trials of
one game are correlated. :func:`balance.stats.intervals.share_interval` must cover the true share in
93% to 97.5% of the simulated runs, near 1 as well as in the middle, and never leave
``[0, 1]``; intervals at 80% and 99.9% are shown to fail the same check.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.stats.intervals import ratio_interval, share_interval

#: The accepted coverage of a 95% interval.
LOW, HIGH = 0.93, 0.975


def coverage(
    runs: int,
    games: int,
    share: float,
    concentration: float,
    trials: float,
    level: float = 0.95,
    seed: int = 0,
    interval=share_interval,
) -> tuple[float, int]:
    """Share of ``runs`` runs whose interval covers ``share``, and how many intervals
    left ``[0, 1]``. Each game has Poisson(``trials``) trials, each succeeding with the
    game's chance, Beta with mean ``share`` and ``concentration`` (a + b)."""
    rng = np.random.default_rng(seed)
    a, b = share * concentration, (1 - share) * concentration
    hits = outside = 0
    for _ in range(runs):
        x = rng.poisson(trials, games)
        y = rng.binomial(x, rng.beta(a, b, games))
        _, low, high = interval(y, x, level)
        hits += low <= share <= high
        outside += low < 0 or high > 1
    return hits / runs, outside


def test_share_intervals_cover_the_truth_near_one() -> None:
    # 99.5% of reveals have an effect, 300 games of about 3 reveals each.
    covered, outside = coverage(runs=800, games=300, share=0.995, concentration=50, trials=3)
    assert LOW <= covered <= HIGH, covered
    assert outside == 0


def test_the_normal_interval_fails_the_same_check_near_one() -> None:
    # The delta-method interval of a ratio, which the share's replaces, passes 1 and
    # covers too seldom at 999 in 1,000: the check can fail.
    covered, outside = coverage(
        runs=300, games=300, share=0.999, concentration=200, trials=3, interval=ratio_interval
    )
    assert not LOW <= covered <= HIGH, covered
    assert outside > 0


@pytest.mark.parametrize("level", [0.80, 0.999])
def test_the_coverage_check_fails_intervals_of_the_wrong_width(level: float) -> None:
    covered, _ = coverage(runs=300, games=300, share=0.4, concentration=5, trials=2, level=level)
    assert not LOW <= covered <= HIGH, covered


@pytest.mark.slow
@pytest.mark.parametrize(
    ("games", "share", "concentration", "trials"),
    [
        (300, 0.4, 5, 2),  # the middle, strongly clustered
        (300, 0.2, 1, 3),  # very strongly clustered
        (300, 0.995, 50, 3),  # near 1
        (300, 0.999, 200, 3),  # 999 in 1,000
        (1000, 0.999, 100, 1),  # near 1, about one trial a game
        (100, 0.05, 10, 2),  # rare, a small run
    ],
)
def test_share_intervals_cover_the_truth_long(games, share, concentration, trials) -> None:
    covered, outside = coverage(
        runs=4000, games=games, share=share, concentration=concentration, trials=trials, seed=5
    )
    assert LOW <= covered <= HIGH, covered
    assert outside == 0
