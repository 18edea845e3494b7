"""Calibration of the paired difference (paired t over games): every ``compare`` row of a
rate, a mean or a game's own count, simulated from known truth with common random
numbers."""

from __future__ import annotations

import numpy as np
import pytest

from balance.stats.metrics import paired_difference

from .conftest import assert_calibrated, calibrated, crn_seat_wins, simulate_coverage


def seat_rate_interval(games: int, base: float, variant: float, same: float):
    """Seat 0's win-rate difference of two paired two-seat runs."""

    def interval(rng: np.random.Generator) -> tuple[float, float]:
        b, v = crn_seat_wins(
            rng, games, np.array([base, 1 - base]), np.array([variant, 1 - variant]), same
        )
        result = paired_difference(v[:, 0], b[:, 0])
        return result["low"], result["high"]

    return interval


def length_interval(games: int, level: float = 0.95):
    """Mean game length: the variant adds a Poisson(0.5) and removes a Bernoulli(0.3)
    round from every game of the base run (true difference 0.2 rounds)."""

    def interval(rng: np.random.Generator) -> tuple[float, float]:
        base = 5 + rng.poisson(8.0, games)
        variant = base + rng.poisson(0.5, games) - (rng.random(games) < 0.3)
        result = paired_difference(variant, base, level)
        return result["low"], result["high"]

    return interval


CASES = [
    ("seat rate 50% -> 53%, 70% alike", seat_rate_interval(1_000, 0.5, 0.53, 0.7), 0.03),
    ("seat rate 2% -> 3%, 90% alike", seat_rate_interval(4_000, 0.02, 0.03, 0.9), 0.01),
    ("seat rate unchanged, 50% alike", seat_rate_interval(1_000, 0.4, 0.4, 0.5), 0.0),
    ("game length +0.2 rounds", length_interval(500), 0.2),
]


@pytest.mark.parametrize(("case", "interval", "truth"), CASES, ids=[c[0] for c in CASES])
def test_paired_difference_coverage(case: str, interval, truth: float) -> None:
    reps = 300
    assert_calibrated(simulate_coverage(interval, truth, reps, seed=11), reps, case)


def test_coverage_fails_both_ways() -> None:
    # The same simulation at 85% and 99.9% nominal falls outside the band.
    reps = 300
    assert not calibrated(simulate_coverage(length_interval(500, 0.85), 0.2, reps, seed=11))
    assert not calibrated(simulate_coverage(length_interval(500, 0.999), 0.2, reps, seed=11))


@pytest.mark.slow
@pytest.mark.parametrize(("case", "interval", "truth"), CASES, ids=[c[0] for c in CASES])
def test_paired_difference_coverage_long(case: str, interval, truth: float) -> None:
    reps = 4_000
    assert_calibrated(simulate_coverage(interval, truth, reps, seed=12), reps, case)
