"""Calibration of the Wilson interval (every rate over games): exact coverage from the
binomial distribution, no simulation noise."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from balance.stats.intervals import wilson_interval

from .conftest import COVERAGE, assert_calibrated, calibrated


def exact_coverage(games: int, rate: float, level: float = 0.95) -> float:
    """Probability that the Wilson interval of ``games`` games holds the true ``rate``:
    the binomial probabilities of every count whose interval holds it, summed."""
    wins = np.arange(games + 1)
    low, high = wilson_interval(wins, games, level)
    holds = (low <= rate) & (rate <= high)
    return float(stats.binom.pmf(wins, games, rate)[holds].sum())


@pytest.mark.parametrize("games", [500, 1_000, 10_000])
@pytest.mark.parametrize("rate", [0.02, 0.1, 0.25, 0.5])
def test_wilson_coverage(games: int, rate: float) -> None:
    assert_calibrated(exact_coverage(games, rate), None, f"{games} games, rate {rate}")


def test_coverage_fails_both_ways() -> None:
    # A 90% Wilson interval read as a 95% one is too narrow, a 99% one too wide: the
    # band rejects both (coverage 90.6% and 99.0% for 1,000 games at 50%).
    assert not calibrated(exact_coverage(1_000, 0.5, level=0.90))
    assert not calibrated(exact_coverage(1_000, 0.5, level=0.99))
    assert COVERAGE == (0.93, 0.975)


@pytest.mark.slow
@pytest.mark.parametrize("games", [1_000, 10_000, 100_000])
def test_wilson_coverage_over_every_rate(games: int) -> None:
    for rate in np.linspace(0.01, 0.99, 99):
        assert_calibrated(exact_coverage(games, rate), None, f"{games} games, rate {rate}")
