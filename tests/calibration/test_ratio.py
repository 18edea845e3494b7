"""Calibration of the clustered ratio (delta method over games): per-reveal figures whose
events cluster in games, simulated from known truth."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from balance.stats.intervals import ratio_interval

from .conftest import assert_calibrated, calibrated, simulate_coverage

MEAN_REVEALS = 2.0


def effect_chance(reveals: np.ndarray) -> np.ndarray:
    """A game's chance of effect per reveal, higher in games with more reveals."""
    return 0.2 + 0.1 * np.minimum(reveals, 4) / 4


def true_ratio() -> float:
    """``E[reveals × chance] / E[reveals]`` over the Poisson number of reveals."""
    x = np.arange(200)
    weight = stats.poisson.pmf(x, MEAN_REVEALS)
    return float((weight * x * effect_chance(x)).sum() / (weight * x).sum())


def independent_games(games: int, level: float = 0.95):
    """Each game's own chance (Beta(2, 3), mean 0.4) for all of its reveals."""

    def interval(rng: np.random.Generator) -> tuple[float, float]:
        reveals = rng.poisson(MEAN_REVEALS, games)
        effects = rng.binomial(reveals, rng.beta(2.0, 3.0, games))
        _, low, high = ratio_interval(effects, reveals, level)
        return low, high

    return interval


def chance_grows_with_reveals(games: int):
    def interval(rng: np.random.Generator) -> tuple[float, float]:
        reveals = rng.poisson(MEAN_REVEALS, games)
        effects = rng.binomial(reveals, effect_chance(reveals))
        _, low, high = ratio_interval(effects, reveals)
        return low, high

    return interval


CASES = [
    ("chance per game, 300 games", independent_games(300), 0.4),
    ("chance grows with reveals, 1,000 games", chance_grows_with_reveals(1_000), true_ratio()),
]


@pytest.mark.parametrize(("case", "interval", "truth"), CASES, ids=[c[0] for c in CASES])
def test_ratio_coverage(case: str, interval, truth: float) -> None:
    reps = 500
    assert_calibrated(simulate_coverage(interval, truth, reps, seed=21), reps, case)


def test_coverage_fails_both_ways() -> None:
    reps = 500
    assert not calibrated(simulate_coverage(independent_games(300, 0.85), 0.4, reps, seed=21))
    assert not calibrated(simulate_coverage(independent_games(300, 0.999), 0.4, reps, seed=21))


@pytest.mark.slow
@pytest.mark.parametrize(("case", "interval", "truth"), CASES, ids=[c[0] for c in CASES])
def test_ratio_coverage_long(case: str, interval, truth: float) -> None:
    reps = 5_000
    assert_calibrated(simulate_coverage(interval, truth, reps, seed=22), reps, case)
