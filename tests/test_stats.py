"""Intervals for rates, means and ratios, checked against published values and scipy."""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from balance.stats import mean_interval, ratio_interval, wilson_interval

ROOT = Path(__file__).resolve().parents[1]


def wilson_closed_form(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval written out (Newcombe 1998, method 3), independently."""
    z = stats.norm.ppf(0.5 + level / 2)
    p = successes / trials
    centre = 2 * successes + z**2
    spread = z * math.sqrt(z**2 + 4 * successes * (1 - p))
    denominator = 2 * (trials + z**2)
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


# Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (score interval).
NEWCOMBE_TABLE_I = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "trials", "low", "high"), NEWCOMBE_TABLE_I)
def test_published_values_agree_with_the_closed_form(successes, trials, low, high) -> None:
    # Check the reference values themselves before holding the library to them.
    expected_low, expected_high = wilson_closed_form(successes, trials)
    assert round(expected_low, 4) == pytest.approx(low, abs=1e-12)
    assert round(expected_high, 4) == pytest.approx(high, abs=1e-12)


@pytest.mark.parametrize(("successes", "trials", "low", "high"), NEWCOMBE_TABLE_I)
def test_wilson_matches_newcombe_table_i(successes, trials, low, high) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert round(float(got_low), 4) == pytest.approx(low, abs=1e-12)
    assert round(float(got_high), 4) == pytest.approx(high, abs=1e-12)
    expected_low, expected_high = wilson_closed_form(successes, trials)
    assert float(got_low) == pytest.approx(expected_low, abs=1e-12)
    assert float(got_high) == pytest.approx(expected_high, abs=1e-12)


def test_wilson_other_level() -> None:
    low, high = wilson_interval(81, 263, level=0.99)
    expected = wilson_closed_form(81, 263, level=0.99)
    assert (float(low), float(high)) == pytest.approx(expected, abs=1e-12)
    # A 99% interval is wider than the 95% one.
    assert float(low) < 0.2553 and float(high) > 0.3662


def test_wilson_is_vectorised() -> None:
    successes = np.array([[0, 3, 7], [10, 81, 15]])
    trials = np.array([[10, 10, 10], [10, 263, 148]])
    low, high = wilson_interval(successes, trials)
    assert low.shape == high.shape == (2, 3)
    for index in np.ndindex(successes.shape):
        expected = wilson_closed_form(int(successes[index]), int(trials[index]))
        assert (low[index], high[index]) == pytest.approx(expected, abs=1e-12), index


def test_wilson_broadcasts_a_scalar_number_of_trials() -> None:
    low, high = wilson_interval(np.array([0, 5, 20]), 20)
    assert low.shape == (3,)
    for k, successes in enumerate([0, 5, 20]):
        expected = wilson_closed_form(successes, 20)
        assert (low[k], high[k]) == pytest.approx(expected, abs=1e-12)
    assert high[2] == pytest.approx(1.0, abs=1e-12)
    assert low[0] == 0.0


def test_wilson_with_no_trials_is_uninformative() -> None:
    low, high = wilson_interval(0, 0)
    assert (float(low), float(high)) == (0.0, 1.0)
    low, high = wilson_interval(np.array([0, 4, 0]), np.array([0, 8, 0]))
    assert low.tolist()[0::2] == [0.0, 0.0]
    assert high.tolist()[0::2] == [1.0, 1.0]
    # The entry with trials is a real interval, not the uninformative one.
    assert (low[1], high[1]) == pytest.approx(wilson_closed_form(4, 8), abs=1e-12)


def test_wilson_contains_the_rate() -> None:
    successes = np.arange(1, 50)
    low, high = wilson_interval(successes, 50)
    rate = successes / 50
    assert np.all(low < rate) and np.all(rate < high)
    assert np.all(low > 0) and np.all(high < 1)
    assert np.all(np.diff(low) > 0) and np.all(np.diff(high) > 0)


def test_wilson_bounds_are_exact_at_zero_and_all_successes() -> None:
    trials = np.arange(1, 2001)
    low, _ = wilson_interval(0, trials)
    _, high = wilson_interval(trials, trials)
    assert np.all(low == 0.0), trials[low != 0.0][:10]
    assert np.all(high == 1.0), trials[high != 1.0][:10]


SAMPLE = np.array([2.0, 4.0, 4.0, 5.0, 7.0, 8.0])


def test_mean_interval_matches_student_t() -> None:
    mean, low, high = mean_interval(SAMPLE)
    assert mean == 5.0  # 30 / 6
    # Sum of squared deviations 24, so the sample variance is 24 / 5.
    sem = math.sqrt(24 / 5) / math.sqrt(6)
    expected = stats.t.interval(0.95, df=5, loc=5.0, scale=sem)
    assert (low, high) == pytest.approx(expected, rel=1e-12)
    # t(0.975, 5) = 2.5706 in printed tables (2.570581835636315 to 16 digits).
    assert high - low == pytest.approx(2 * 2.570581835636315 * sem, rel=1e-12)


def test_mean_interval_other_level() -> None:
    _, low, high = mean_interval(SAMPLE, level=0.9)
    sem = math.sqrt(24 / 5) / math.sqrt(6)
    assert (low, high) == pytest.approx(stats.t.interval(0.9, df=5, loc=5.0, scale=sem))


def test_mean_interval_of_too_few_values() -> None:
    mean, low, high = mean_interval(np.array([3.5]))
    assert mean == 3.5 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(v) for v in mean_interval(np.array([])))


def test_ratio_on_a_hand_made_table() -> None:
    effects = np.array([1, 0, 2, 3])
    reveals = np.array([2, 1, 2, 5])
    ratio, low, high = ratio_interval(effects, reveals)
    assert ratio == pytest.approx(0.6, abs=1e-15)  # 6 / 10
    # Delta method by hand: residuals y - 0.6 x are -0.2, -0.6, 0.8, 0.
    variance = 4 / 3 * (0.04 + 0.36 + 0.64 + 0.0) / 10**2
    half = stats.norm.ppf(0.975) * math.sqrt(variance)
    assert (low, high) == pytest.approx((0.6 - half, 0.6 + half), rel=1e-12)


def test_ratio_interval_covers_the_true_ratio_about_95_percent() -> None:
    rng = np.random.default_rng(20261125)
    repetitions, games, true_ratio = 400, 300, 0.4
    covered = 0
    for _ in range(repetitions):
        # Clustered events: each game has its own success probability (mean 0.4).
        reveals = rng.poisson(2.0, games)
        chance = rng.beta(2.0, 3.0, games)
        effects = rng.binomial(reveals, chance)
        _, low, high = ratio_interval(effects, reveals)
        covered += low <= true_ratio <= high
    coverage = covered / repetitions
    assert 0.90 <= coverage <= 0.99, coverage


def test_ratio_with_zero_denominators_is_nan() -> None:
    assert all(math.isnan(v) for v in ratio_interval(np.zeros(5), np.zeros(5)))
    assert all(math.isnan(v) for v in ratio_interval(np.array([]), np.array([])))


def test_ratio_of_a_single_game_has_no_interval() -> None:
    ratio, low, high = ratio_interval(np.array([1]), np.array([4]))
    assert ratio == 0.25 and math.isnan(low) and math.isnan(high)


def declared_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = set()
    for requirement in project["dependencies"]:
        name = re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]
        names.add(name.lower().replace("_", "-"))
    return names


def test_statsmodels_used_by_stats_is_a_declared_dependency() -> None:
    source = (ROOT / "balance" / "stats.py").read_text()
    assert re.search(r"^from statsmodels", source, re.MULTILINE)  # the import is there
    assert "statsmodels" in declared_dependencies()


def test_share_interval_stays_within_zero_and_one() -> None:
    from balance.stats import ratio_interval, share_interval

    wins = np.zeros(1000)
    wins[3] = 1
    plays = np.ones(1000)
    rate, low, high = share_interval(wins, plays)
    raw = ratio_interval(wins, plays)
    assert raw[1] < 0  # the normal interval of a rare share reaches below 0
    assert (rate, high) == (raw[0], raw[2]) and low == 0.0
    rate, low, high = share_interval(plays, plays)
    assert (rate, low, high) == (1.0, 1.0, 1.0)
